// Types of the chat-completions driver (web/src/llm/).

// Merges with the DOM / @types/node declarations when the project has them,
// and lets this file compile when it does not.
declare global {
  interface AbortSignal {}
}

/** The part of `fetch` the driver uses; the global fetch of every runtime fits. */
export type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; body: string; signal: AbortSignal },
) => Promise<{ ok: boolean; status: number; headers: { get(name: string): string | null }; text(): Promise<string> }>;

/** One chat message as the OpenAI-compatible API takes it. */
export type ChatMessage =
  | { role: 'system' | 'user' | 'assistant'; content: string }
  /** Native tool calling: the assistant's tool calls and the tool results that answer them. */
  | { role: 'assistant'; content: string | null; tool_calls: ChatToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** How a `schema` is enforced: OpenAI strict structured outputs, any JSON object, or not at all. */
export type ResponseFormat = 'json_schema' | 'json_object' | 'none';

export interface ChatModelOptions {
  /** e.g. `https://api.openai.com/v1`, `http://127.0.0.1:11434/v1` (Ollama); `/chat/completions` is appended. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer`; local servers need none. */
  apiKey?: string;
  model: string;
  fetch?: FetchLike;
  /** Per attempt. Default 60 000. */
  timeoutMs?: number;
  /** Extra attempts after a 408/409/429/5xx or a network failure. Default 2. */
  maxRetries?: number;
  /** Backoff base when the provider sends no Retry-After. Default 500. */
  retryDelayMs?: number;
  /** Default `json_schema`. */
  responseFormat?: ResponseFormat;
  headers?: Record<string, string>;
}

export interface CompleteOptions {
  messages: ChatMessage[];
  /** A JSON Schema valid under OpenAI strict mode; without it the answer is plain text. */
  schema?: object;
  /** `[A-Za-z0-9_-]{1,64}`. Default `response`. */
  schemaName?: string;
  signal?: AbortSignal;
  temperature?: number;
  /** OpenAI function tools; the answer may then be `toolCalls` instead of content. */
  tools?: object[];
}

export interface Completion {
  content: string;
  /** The provider's token counts, or null when it sent none. */
  usage: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number } | null;
  finishReason: string | null;
  /** With `tools`: the calls the model made (`arguments` as the JSON text it wrote). */
  toolCalls?: { id: string; name: string; arguments: string }[];
  /** With `toolCalls`: the assistant message to put back before the tool results. */
  message?: ChatMessage;
}

export interface ChatModel {
  readonly model: string;
  /** Rejects with `LlmError` only. */
  complete(options: CompleteOptions): Promise<Completion>;
}

export type LlmErrorCode = 'rate_limited' | 'timeout' | 'aborted' | 'http_error' | 'bad_response' | 'network_error';

export class LlmError extends Error {
  readonly name: 'LlmError';
  readonly code: LlmErrorCode;
  /** The HTTP status, for `rate_limited` and `http_error`. */
  readonly status: number | null;
  /** How long the provider asked to wait (Retry-After), when it said. */
  readonly retryAfterMs: number | null;
  /** The provider's own error message. */
  readonly providerMessage: string | null;
  toJSON(): { code: LlmErrorCode; message: string; status: number | null; retryAfterMs: number | null; providerMessage: string | null };
}

/** The OpenAI-compatible chat-completions driver over fetch. */
export function createChatModel(options: ChatModelOptions): ChatModel;

/** `OPENAI_API_KEY`, `OPENAI_BASE_URL`, `ALFRED_LLM_MODEL`, `ALFRED_LLM_RESPONSE_FORMAT` → options, or null when neither key nor URL is set. */
export function modelConfigFromEnv(env: Record<string, string | undefined>): ChatModelOptions | null;
