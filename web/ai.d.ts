// alfred-act/ai: the database tools for the Vercel AI SDK (`ai` ≥ 5, an optional peer dependency).
import type { Tool } from 'ai';
import type { Act, ToolName, ToolParams, ToolResult, ToolSchemaMode, WritePreview } from './index.js';

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
  /**
   * Called with each preview put to the user, as the SDK makes its `tool-approval-request` (AI SDK 6 and 7):
   * `reason` is the one line a person reads ('Delete 1 row of inventory: inv_3 "milk"').
   */
  onPreview?: (preview: WritePreview, call: { toolCallId?: string; toolName: ToolName; input: unknown; reason: string }) => void;
}

/**
 * `{ db_read, db_create, db_update, db_delete }` for `generateText({ tools })`
 * (`db_read` only for a read-only act); refused calls come back to the model
 * as `{ ok: false, error }` results. Updates, deletes and functions that
 * change data ask first unless the act's `approve` says otherwise in so many
 * words: their tools carry `needsApproval` (AI SDK 6 and 7), which previews
 * the call and asks when the act would hold it; they run as approved only
 * when the SDK's approval response for that very call (tool and arguments)
 * is in the messages. AI SDK 5 has no approval, and the model reads
 * `approval_required`.
 *
 * @example
 * const { text } = await generateText({ model, tools: aiTools(act), stopWhen: stepCountIs(8), prompt })
 */
export declare function aiTools(
  act: Pick<Act, 'tools' | 'callTool'> & Partial<Pick<Act, 'policy'>>,
  options?: AiToolsOptions,
): Partial<Record<ToolName, Tool<ToolParams[ToolName], ToolResult>>>;

/** AI SDK 7's approval status, as `toolApproval` functions return it. */
export type AiToolApprovalStatus = 'not-applicable' | { type: 'user-approval'; reason?: string };

/**
 * AI SDK 7's `toolApproval` for `generateText` / `streamText`: for each tool
 * the act holds, a function that previews the write and asks the user with
 * the preview as the request's `reason`. `onPreview` sees the whole preview.
 *
 * @example
 * const result = await generateText({ model, tools: aiTools(act), toolApproval: aiToolApproval(act), messages })
 */
export declare function aiToolApproval(
  act: Pick<Act, 'execute' | 'policy' | 'tools' | 'domain'>,
  options?: { onPreview?: (preview: WritePreview, toolCall: { toolCallId?: string; toolName: ToolName; input: unknown }) => void },
): Partial<Record<'db_create' | 'db_update' | 'db_delete' | 'db_call', (input: never, options?: { toolCallId?: string }) => Promise<AiToolApprovalStatus>>>;
