// alfred-act/ai: the database tools for the Vercel AI SDK (`ai` ≥ 5, an optional peer dependency).
import type { Tool } from 'ai';
import type { Act, ToolName, ToolParams, ToolResult, ToolSchemaMode } from './index.js';

export interface AiToolsOptions {
  /**
   * The OpenAI strict-mode schemas (default `true`), sent with `strict: true` by AI SDK 6 and 7; on AI SDK 5
   * pass `providerOptions: { openai: { strictJsonSchema: true } }` to the call for OpenAI's strict mode.
   */
  strict?: boolean;
  /** A subset of the tools, e.g. `['db_read']`. */
  tools?: readonly ToolName[];
  /** `'compact'` (default: one line per table in db_read's description) or `'inline'` (the whole schema). */
  schema?: ToolSchemaMode;
}

/**
 * `{ db_read, db_create, db_update, db_delete }` for `generateText({ tools })`;
 * refused calls come back to the model as `{ ok: false, error }` results.
 *
 * @example
 * const { text } = await generateText({ model, tools: aiTools(act), stopWhen: stepCountIs(8), prompt })
 */
export declare function aiTools(
  act: Pick<Act, 'tools' | 'callTool'>,
  options?: AiToolsOptions,
): Partial<Record<ToolName, Tool<ToolParams[ToolName], ToolResult>>>;
