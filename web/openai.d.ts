// alfred-act/openai: the database tools as OpenAI function tools (Chat Completions and the Responses API).
import type { Act, JsonValue, ToolName } from './index.js';

export interface OpenAIToolsOptions {
  /** `'chat'` (default): Chat Completions tools; `'responses'`: Responses API tools. */
  api?: 'chat' | 'responses';
  /** Strict-mode schemas with `strict: true` (default `true`). */
  strict?: boolean;
  /** A subset of the tools, e.g. `['db_read']`. */
  tools?: readonly ToolName[];
}

export interface ChatFunctionTool {
  type: 'function';
  function: { name: ToolName; description: string; parameters: Record<string, JsonValue>; strict: boolean };
}

export interface ResponsesFunctionTool {
  type: 'function';
  name: ToolName;
  description: string;
  parameters: Record<string, JsonValue>;
  strict: boolean;
}

/** A Chat Completions tool call (`message.tool_calls[i]`). */
export interface ChatToolCall {
  id: string;
  type?: 'function' | string;
  function: { name: string; arguments: string };
}

/** A Responses API output item; only `function_call` items are run. */
export interface ResponsesOutputItem {
  type: string;
  call_id?: string;
  name?: string;
  arguments?: string;
  [key: string]: unknown;
}

export interface ChatToolMessage {
  role: 'tool';
  tool_call_id: string;
  content: string;
}

export interface FunctionCallOutput {
  type: 'function_call_output';
  call_id: string;
  output: string;
}

/**
 * The function tools for `chat.completions.create({ tools })` or `responses.create({ tools })`.
 *
 * @example
 * const completion = await client.chat.completions.create({ model, messages, tools: openaiTools(act) })
 */
export declare function openaiTools(act: Pick<Act, 'tools'>, options?: OpenAIToolsOptions & { api?: 'chat' }): ChatFunctionTool[];
export declare function openaiTools(act: Pick<Act, 'tools'>, options: OpenAIToolsOptions & { api: 'responses' }): ResponsesFunctionTool[];

/**
 * Runs the tool calls in order and resolves to the messages that answer them.
 *
 * @example
 * messages.push(message, ...(await runToolCalls(act, message.tool_calls)))
 */
export declare function runToolCalls(
  act: Pick<Act, 'callTool'>,
  calls: readonly ChatToolCall[] | null | undefined,
  options?: { signal?: AbortSignal },
): Promise<ChatToolMessage[]>;
export declare function runToolCalls(
  act: Pick<Act, 'callTool'>,
  calls: readonly ResponsesOutputItem[],
  options?: { signal?: AbortSignal },
): Promise<FunctionCallOutput[]>;
