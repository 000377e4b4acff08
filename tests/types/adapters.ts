// Compile-time checks of the adapters' types (web/ai.d.ts, web/openai.d.ts)
// and the tool-calling additions to Act / Core, through the package exports.
import { generateText, stepCountIs, type LanguageModel } from 'ai';
import { loadCore, type ToolDefinition, type ToolResult } from 'alfred-act';
import { aiTools } from 'alfred-act/ai';
import { openaiTools, runToolCalls, type ChatToolMessage, type FunctionCallOutput } from 'alfred-act/openai';

const core = await loadCore();
const act = core.createAct({ url: 'http://127.0.0.1:3000', apiKey: 'anon', accessToken: 'jwt', userId: 'user' });

const definitions: readonly ToolDefinition[] = core.toolDefinitions({ strict: true });
const name: 'db_read' | 'db_create' | 'db_update' | 'db_delete' = definitions[0]!.name;
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
const responsesTools = openaiTools(act, { api: 'responses' });
const responsesName: string = responsesTools[0]!.name;
void chatName, responsesName;
const chatReplies: ChatToolMessage[] = await runToolCalls(act, [{ id: 'call_1', type: 'function', function: { name: 'db_read', arguments: '{}' } }]);
const outputs: FunctionCallOutput[] = await runToolCalls(act, [{ type: 'function_call', call_id: 'call_1', name: 'db_read', arguments: '{}' }]);
void chatReplies, outputs;
