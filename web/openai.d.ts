// alfred-act/openai: the database tools as OpenAI function tools (Chat Completions and the Responses API).
import type { Act, JsonValue, ToolName, ToolResult, ToolSchemaMode } from './index.js';

export interface OpenAIToolsOptions {
  /** `'chat'` (default): Chat Completions tools; `'responses'`: Responses API tools. */
  api?: 'chat' | 'responses';
  /** Strict-mode schemas with `strict: true` (default `true`). */
  strict?: boolean;
  /** A subset of the tools, e.g. `['db_read']`. */
  tools?: readonly ToolName[];
  /** `'compact'` (default: one line per table in db_read's description) or `'inline'` (the whole schema). */
  schema?: ToolSchemaMode;
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

/**
 * A Chat Completions function tool call (`message.tool_calls[i]`), as every
 * `openai` major types it (`ChatCompletionMessageToolCall`; in openai 6 and 7,
 * its `ChatCompletionMessageFunctionToolCall` member).
 */
export interface ChatToolCall {
  id: string;
  type?: 'function' | string;
  function: { name: string; arguments: string };
}

/**
 * A custom tool's call (openai 6 and 7, `ChatCompletionMessageCustomToolCall`):
 * accepted so `message.tool_calls` passes as it is, and skipped (the database
 * tools are function tools; the caller answers its own custom tools).
 */
export interface ChatCustomToolCall {
  id: string;
  type: 'custom';
  custom: { name: string; input: string };
}

/**
 * A Responses API output item (`response.output[i]`, any kind of the SDK's
 * `ResponseOutputItem`); only `function_call` items are run, with their
 * `call_id`, `name` and `arguments` (strings there). The other kinds type
 * these fields as they like (a tool search call's `call_id` may be null).
 */
export interface ResponsesOutputItem {
  type: string;
  call_id?: unknown;
  name?: unknown;
  arguments?: unknown;
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

/** The call `runToolCalls`'s `approve` is asked about. */
export interface OpenAIApprovalCall {
  /** The tool call's id (`tool_call_id` / `call_id`). */
  id: string;
  tool: string;
  table: string | null;
  /** The parsed arguments (null when they are not JSON). */
  params: JsonValue;
}

/** What the model would change, as the held call's result shows it. */
export type OpenAIApprovalPreview = NonNullable<Extract<ToolResult, { ok: false }>['error']['preview']>;

export interface RunToolCallsOptions {
  signal?: AbortSignal;
  /**
   * Asked for each write the act holds for approval (`createAct({ approve })` other than `'none'`: `'deletes' | 'changes' | 'writes'`); `true` runs
   * it approved. Without it such a write is not run and the model reads `approval_required`.
   */
  approve?: (call: OpenAIApprovalCall, preview: OpenAIApprovalPreview) => boolean | Promise<boolean>;
}

/**
 * Runs the function calls in order (reads in a row together, up to four at once; a write after the reads before
 * it) and resolves to the messages that answer them, in the calls' order; `calls` is the SDK's
 * `message.tool_calls` or `response.output` as it is, and other items (custom tool calls, messages) are skipped.
 *
 * @example
 * messages.push(message, ...(await runToolCalls(act, message.tool_calls, { approve: (call, preview) => confirm(preview) })))
 */
export declare function runToolCalls(
  act: Pick<Act, 'callTool'> & Partial<Pick<Act, 'policy'>>,
  calls: readonly (ChatToolCall | ChatCustomToolCall)[] | null | undefined,
  options?: RunToolCallsOptions,
): Promise<ChatToolMessage[]>;
export declare function runToolCalls(
  act: Pick<Act, 'callTool'> & Partial<Pick<Act, 'policy'>>,
  calls: readonly ResponsesOutputItem[],
  options?: RunToolCallsOptions,
): Promise<FunctionCallOutput[]>;
