// Compile-time checks of the adapters' types (web/ai.d.ts, web/openai.d.ts)
// and the tool-calling additions to Act / Core, through the package exports.
// Compiled against the root's ai and openai (tests/js/types.test.mjs) and
// against each peer set of tests/matrix/ (tests/matrix/types.test.mjs).
import { generateText, stepCountIs, type LanguageModel } from 'ai';
import { loadCore, type ToolDefinition, type ToolResult } from 'alfred-act';
import { aiToolApproval, aiTools } from 'alfred-act/ai';
import { openaiTools, runToolCalls, type ChatToolMessage, type FunctionCallOutput } from 'alfred-act/openai';
import type OpenAI from 'openai';

const core = await loadCore();
const act = core.createAct({ url: 'http://127.0.0.1:3000', apiKey: 'anon', accessToken: 'jwt', userId: 'user' });

const definitions: readonly ToolDefinition[] = core.toolDefinitions({ strict: true });
const name: 'db_read' | 'db_create' | 'db_update' | 'db_delete' | 'db_call' | 'db_aggregate' = definitions[0]!.name;
void name;
// @ts-expect-error strict is a boolean
core.toolDefinitions({ strict: 'yes' });

const result: ToolResult = await act.callTool('db_read', '{"table":"inventory"}');
if (result.ok) {
  const rows: number = result.rows.length + result.count;
  void rows;
} else {
  const code: string = result.error.code;
  const hint: string = result.error.hint;
  void code, hint;
}
const fromOutcome: ToolResult = core.toolResult('db_read', await act.execute('db_read', { table: 'inventory' }));
void fromOutcome;

declare const model: LanguageModel;
await generateText({ model, tools: aiTools(act, { tools: ['db_read'] }), stopWhen: stepCountIs(4), prompt: 'What is in my fridge?' });
// @ts-expect-error not a tool name
aiTools(act, { tools: ['db_drop'] });

const chatTools = openaiTools(act);
const chatName: string = chatTools[0]!.function.name;
const responsesTools = openaiTools(act, { api: 'responses', schema: 'inline' });
void aiTools(act, { schema: 'compact' });
// @ts-expect-error schema is 'compact' or 'inline'
openaiTools(act, { schema: 'whole' });
const responsesName: string = responsesTools[0]!.name;
void chatName, responsesName;
const chatReplies: ChatToolMessage[] = await runToolCalls(act, [{ id: 'call_1', type: 'function', function: { name: 'db_read', arguments: '{}' } }]);
const outputs: FunctionCallOutput[] = await runToolCalls(act, [{ type: 'function_call', call_id: 'call_1', name: 'db_read', arguments: '{}' }]);
void chatReplies, outputs;

// The openai SDK's own types go in and the answers go back without a cast.
declare const client: OpenAI;
const completion = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], tools: openaiTools(act) });
const message = completion.choices[0]!.message;
const history: OpenAI.ChatCompletionMessageParam[] = [message];
if (message.tool_calls) history.push(...(await runToolCalls(act, message.tool_calls)));
const sdkCalls: OpenAI.ChatCompletionMessageToolCall[] = message.tool_calls ?? [];
const sdkReplies: OpenAI.ChatCompletionToolMessageParam[] = await runToolCalls(act, sdkCalls);
const response = await client.responses.create({ model: 'gpt-4o-mini', input: 'hi', tools: openaiTools(act, { api: 'responses' }) });
const input: OpenAI.Responses.ResponseInput = await runToolCalls(act, response.output);
void sdkReplies, input;
// @ts-expect-error a Responses output is answered with function_call_output items, not tool messages
const wrong: ChatToolMessage[] = await runToolCalls(act, response.output);
void wrong;

// Approval: the act's policy through each framework's own.
const held = core.createAct({ url: 'http://127.0.0.1:3000', apiKey: 'anon', accessToken: 'jwt', userId: 'user', approve: 'deletes' });
const approval = aiToolApproval(held, { onPreview: (preview) => void preview.count });
void approval.db_delete;
const approvedReplies: ChatToolMessage[] = await runToolCalls(held, message.tool_calls ?? [], {
  approve: async (call, preview) => call.tool === 'db_delete' && preview.count < 5,
});
void approvedReplies;
// @ts-expect-error approve is a function
await runToolCalls(held, [], { approve: true });
