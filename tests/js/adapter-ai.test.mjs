// alfred-act/ai with the real Vercel AI SDK: generateText drives a scripted
// model (the SDK's own mock language model) through the four tools against
// the real local stack. The model makes the known mistakes (a create without
// a required column, a single value for `in`), reads the error in the tool
// result and corrects its call from the hint; the database is read back.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { generateText, stepCountIs } from 'ai';
import * as aiTest from 'ai/test';
import { aiToolApproval, aiTools } from 'alfred-act/ai';
import { loadCore } from 'alfred-act';
import { rest, sharedStack } from './support/stack.mjs';

const stack = sharedStack();
const ada = () => stack().users[0];
let core;
before(async () => {
  core = await loadCore();
});

// The SDK's own mock of the language-model interface its major speaks: V4 (ai
// 7), V3 (ai 6) or V2 (ai 5; run by tests/matrix/). V2 has a plain finish
// reason and plain token counts.
const MockLanguageModel = aiTest.MockLanguageModelV4 ?? aiTest.MockLanguageModelV3 ?? aiTest.MockLanguageModelV2;
const specification = new MockLanguageModel().specificationVersion;
const finish = (unified, raw) => (specification === 'v2' ? unified : { unified, raw });
const usage = specification === 'v2'
  ? { inputTokens: 10, outputTokens: 5, totalTokens: 15 }
  : {
    inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 5, text: 5, reasoning: undefined },
  };
let callId = 0;
const toolCall = (toolName, input) => ({
  content: [{ type: 'tool-call', toolCallId: `call_${++callId}`, toolName, input: JSON.stringify(input) }],
  finishReason: finish('tool-calls', 'tool_calls'),
  usage,
  warnings: [],
});
const text = (value) => ({ content: [{ type: 'text', text: value }], finishReason: finish('stop', 'stop'), usage, warnings: [] });

/** The last tool result the SDK put into the prompt, as the model reads it. */
function lastToolResult(prompt) {
  const message = prompt.at(-1);
  if (message?.role !== 'tool') return null;
  const part = message.content.find((item) => item.type === 'tool-result');
  return part.output.type === 'json' ? part.output.value : JSON.parse(part.output.value);
}

/**
 * A model that saves "ai saffron" and reads it back, making two known
 * mistakes on the way and correcting each from the error's hint only.
 */
function scriptedModel() {
  const seen = [];
  const model = new MockLanguageModel({
    doGenerate: async (options) => {
      const result = lastToolResult(options.prompt);
      seen.push(result);
      if (result === null) {
        // Mistake 1: unit is required on inventory.
        return toolCall('db_create', { table: 'inventory', data: JSON.stringify({ name: 'ai saffron', quantity: 1, location: 'pantry' }) });
      }
      if (!result.ok && result.error.code === 'missing_column') {
        const column = /^add (\w+) to the row$/.exec(result.error.hint)[1];
        return toolCall('db_create', { table: 'inventory', data: JSON.stringify({ name: 'ai saffron', quantity: 1, location: 'pantry', [column]: 'g' }) });
      }
      if (result.ok && result.tool === 'db_create') {
        // Mistake 2: `in` with a single value instead of a list (strict nulls for the rest).
        return toolCall('db_read', {
          table: 'inventory', filters: [{ field: 'id', op: 'in', value: result.rows[0].id }],
          or_filters: null, columns: null, limit: null, offset: null, order_by: null, order_dir: null, count: null,
        });
      }
      if (!result.ok && result.error.code === 'invalid_value') {
        const corrected = JSON.parse(/^write "value": (.*)$/.exec(result.error.hint)[1]);
        const previous = options.prompt.at(-2).content.find((item) => item.type === 'tool-call').input;
        const input = typeof previous === 'string' ? JSON.parse(previous) : previous;
        input.filters[0].value = corrected;
        return toolCall('db_read', input);
      }
      return text(`Saved: ${result.rows.map((row) => `${row.id} ${row.name} ${row.quantity} ${row.unit}`).join(', ')}`);
    },
  });
  return { model, seen };
}

test('aiTools: the SDK tools carry the core schemas (strict by default) and a subset can be picked', () => {
  const act = core.createAct({ url: stack().supabaseUrl, apiKey: stack().anonKey, accessToken: ada().token, userId: ada().id });
  const tools = aiTools(act);
  assert.deepEqual(Object.keys(tools), ['db_read', 'db_create', 'db_update', 'db_delete', 'db_aggregate']);
  const strict = act.tools({ strict: true });
  assert.deepEqual(tools.db_read.inputSchema.jsonSchema, strict[0].parameters);
  assert.equal(tools.db_read.description, strict[0].description);
  assert.equal(tools.db_read.strict, true);
  assert.deepEqual(Object.keys(aiTools(act, { tools: ['db_read'] })), ['db_read']);
  assert.deepEqual(aiTools(act, { strict: false }).db_create.inputSchema.jsonSchema, act.tools()[1].parameters);
  assert.throws(() => aiTools(act, { tools: ['db_upsert'] }), /'db_upsert' is not one of db_read, db_create, db_update, db_delete/);
  assert.throws(() => aiTools({}), /act must come from core.createAct/);
});

test('generateText with aiTools: mistakes come back as tool results, the model corrects them, the row is in the database', async () => {
  const act = core.createAct({ url: stack().supabaseUrl, apiKey: stack().anonKey, accessToken: ada().token, userId: ada().id });
  const { model, seen } = scriptedModel();
  const result = await generateText({ model, tools: aiTools(act), stopWhen: stepCountIs(8), prompt: 'Put 1 g of saffron in my pantry.' });

  // The SDK sent the core's strict schemas to the model.
  const sent = model.doGenerateCalls[0].tools;
  assert.deepEqual(sent.map((tool) => tool.name), ['db_read', 'db_create', 'db_update', 'db_delete', 'db_aggregate']);
  assert.deepEqual(sent[1].inputSchema, act.tools({ strict: true })[1].parameters);
  // AI SDK 5's tools have no `strict` (its OpenAI provider takes strictJsonSchema per call); 6 and 7 pass it on.
  assert.deepEqual(sent.map((tool) => tool.strict), Array(5).fill(specification === 'v2' ? undefined : true));

  assert.equal(result.steps.length, 5);
  const outcomes = result.steps.flatMap((step) => step.toolResults.map((item) => item.output));
  assert.deepEqual(outcomes.map((item) => [item.tool, item.ok, item.ok ? null : item.error.code]), [
    ['db_create', false, 'missing_column'],
    ['db_create', true, null],
    ['db_read', false, 'invalid_value'],
    ['db_read', true, null],
  ]);
  assert.deepEqual(outcomes[0].error, {
    code: 'missing_column', path: 'data', message: 'unit is required to create a row in inventory', hint: 'add unit to the row',
  });
  assert.equal(outcomes[2].error.path, 'filters[0].value');
  // What the model read is exactly what the tool returned.
  assert.deepEqual(seen.slice(1), outcomes);
  const ref = outcomes[1].rows[0].id;
  assert.match(ref, /^inv_\d+$/);
  assert.equal(result.text, `Saved: ${ref} ai saffron 1 g`);
  assert.match(outcomes[3].query, new RegExp(`^Query: Table: inventory \\| Filters: id in \\[${ref}\\]`));

  const uuid = act.registry.toJSON().refs.find((entry) => entry.ref === ref).uuid;
  const { body } = await rest(stack(), ada().token, 'GET', `/inventory?id=eq.${uuid}&select=name,quantity,unit,location,user_id`);
  assert.deepEqual(body, [{ name: 'ai saffron', quantity: 1, unit: 'g', location: 'pantry', user_id: ada().id }]);
  const { body: saffron } = await rest(stack(), ada().token, 'GET', '/inventory?name=eq.ai%20saffron&select=id');
  assert.equal(saffron.length, 1, 'the refused create wrote nothing');
});

// --- Safety controls: the act's approval through the SDK's own -----------

const put = async (location, name) => {
  const { status } = await rest(stack(), ada().token, 'POST', '/inventory', { body: { name, quantity: 1, unit: 'pc', location } });
  assert.equal(status, 201);
};
const namesAt = async (location) => (await rest(stack(), ada().token, 'GET', `/inventory?location=eq.${location}&select=name`)).body.map((row) => row.name);

/** A model that deletes what is at `location`, then says what it read back. */
function deletingModel(location) {
  const seen = [];
  const model = new MockLanguageModel({
    doGenerate: async (options) => {
      const message = options.prompt.at(-1);
      if (message?.role !== 'tool') return toolCall('db_delete', { table: 'inventory', filters: [{ field: 'location', op: '=', value: location }] });
      const part = message.content.find((item) => item.type === 'tool-result');
      seen.push(part.output);
      return text(JSON.stringify(part.output));
    },
  });
  return { model, seen };
}
// AI SDK 5 (spec v2) has no tool approval; 6 (v3) and 7 (v4) do.
const approvals = specification !== 'v2';

test('approval: a delete the act holds asks through the SDK (needsApproval); approved it runs, the database is read back', async () => {
  await put('ai-held', 'ai held plum');
  const act = core.createAct({ url: stack().supabaseUrl, apiKey: stack().anonKey, accessToken: ada().token, userId: ada().id, approve: 'deletes', maxAffected: 0 });
  const tools = aiTools(act);
  assert.equal(typeof tools.db_delete.needsApproval, 'function');
  assert.equal(tools.db_update.needsApproval, undefined);
  assert.equal(tools.db_read.needsApproval, undefined);
  const { model, seen } = deletingModel('ai-held');
  const first = await generateText({ model, tools, stopWhen: stepCountIs(4), prompt: 'Empty the ai-held box.' });
  if (!approvals) {
    // AI SDK 5 runs the tool without asking: the act holds the delete and the model reads why.
    assert.equal(seen.length, 1);
    const result = seen[0].type === 'json' ? seen[0].value : JSON.parse(seen[0].value);
    assert.deepEqual([result.ok, result.error.code, result.error.preview.count], [false, 'approval_required', 1]);
    assert.deepEqual(await namesAt('ai-held'), ['ai held plum']);
    return;
  }
  const request = first.content.find((part) => part.type === 'tool-approval-request');
  assert.equal(request.toolCall.toolName, 'db_delete');
  assert.equal(seen.length, 0, 'the tool did not run');
  assert.deepEqual(await namesAt('ai-held'), ['ai held plum']);

  const messages = [
    { role: 'user', content: 'Empty the ai-held box.' },
    ...first.response.messages,
    { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved: true }] },
  ];
  const second = await generateText({ model, tools, stopWhen: stepCountIs(4), messages });
  assert.equal(seen.length, 1);
  const result = seen[0].type === 'json' ? seen[0].value : JSON.parse(seen[0].value);
  assert.deepEqual([result.ok, result.tool, result.count, result.rows.map((row) => row.name)], [true, 'db_delete', 1, ['ai held plum']]);
  assert.equal(second.text, JSON.stringify(seen[0]));
  assert.deepEqual(await namesAt('ai-held'), []);
});

test('approval: a denied delete is a result the model reads, and nothing is deleted', { skip: !approvals && 'AI SDK 5 has no tool approval' }, async () => {
  await put('ai-denied', 'ai denied fig');
  const act = core.createAct({ url: stack().supabaseUrl, apiKey: stack().anonKey, accessToken: ada().token, userId: ada().id, approve: 'deletes' });
  const tools = aiTools(act);
  const { model, seen } = deletingModel('ai-denied');
  const first = await generateText({ model, tools, stopWhen: stepCountIs(4), prompt: 'Empty the ai-denied box.' });
  const request = first.content.find((part) => part.type === 'tool-approval-request');
  const messages = [
    { role: 'user', content: 'Empty the ai-denied box.' },
    ...first.response.messages,
    { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved: false, reason: 'keep the figs' }] },
  ];
  await generateText({ model, tools, stopWhen: stepCountIs(4), messages });
  assert.deepEqual(seen, [{ type: 'execution-denied', reason: 'keep the figs' }]);
  assert.deepEqual(await namesAt('ai-denied'), ['ai denied fig']);
});

test('approval on AI SDK 7: aiToolApproval puts the preview in the request; an approval the SDK makes on its own is not the user\'s and fails closed', { skip: specification !== 'v4' && 'toolApproval is AI SDK 7\'s' }, async () => {
  await put('ai-reason', 'ai reason kiwi');
  const act = core.createAct({ url: stack().supabaseUrl, apiKey: stack().anonKey, accessToken: ada().token, userId: ada().id, approve: 'deletes', maxAffected: 0 });
  const previews = [];
  const toolApproval = aiToolApproval(act, { onPreview: (preview) => previews.push(preview) });
  assert.deepEqual(Object.keys(toolApproval), ['db_delete']);
  const { model, seen } = deletingModel('ai-reason');
  const first = await generateText({ model, tools: aiTools(act), toolApproval, stopWhen: stepCountIs(4), prompt: 'Empty the ai-reason box.' });
  const request = first.content.find((part) => part.type === 'tool-approval-request');
  const ref = previews[0].keys[0];
  assert.equal(request.reason, `Delete 1 row of inventory: ${ref} "ai reason kiwi"`);
  assert.deepEqual(await namesAt('ai-reason'), ['ai reason kiwi']);
  // The row changes before the user approves: the act checks the approved write against the preview it kept.
  await put('ai-reason', 'ai reason lime');
  const messages = [
    { role: 'user', content: 'Empty the ai-reason box.' },
    ...first.response.messages,
    { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved: true }] },
  ];
  await generateText({ model, tools: aiTools(act), toolApproval, stopWhen: stepCountIs(4), messages });
  const changed = seen[0].type === 'json' ? seen[0].value : JSON.parse(seen[0].value);
  assert.deepEqual([changed.ok, changed.error.code, changed.error.preview.count], [false, 'preview_changed', 2]);
  assert.deepEqual((await namesAt('ai-reason')).sort(), ['ai reason kiwi', 'ai reason lime']);

  // toolApproval 'approved' is the SDK deciding, not the user: the act still holds the delete.
  const auto = deletingModel('ai-reason');
  await generateText({ model: auto.model, tools: aiTools(act), toolApproval: { db_delete: 'approved' }, stopWhen: stepCountIs(4), prompt: 'Empty it.' });
  const held = auto.seen[0].type === 'json' ? auto.seen[0].value : JSON.parse(auto.seen[0].value);
  assert.deepEqual([held.ok, held.error.code], [false, 'approval_required']);
  assert.equal((await namesAt('ai-reason')).length, 2);
});

test('approval on AI SDK 6 and 7: the preview reaches the host as the request is made (onPreview), and a delete of no row asks nobody', { skip: !approvals && 'AI SDK 5 has no tool approval' }, async () => {
  await put('ai-preview', 'ai preview plum');
  const act = core.createAct({ url: stack().supabaseUrl, apiKey: stack().anonKey, accessToken: ada().token, userId: ada().id, approve: 'deletes' });
  const previews = [];
  const tools = aiTools(act, { onPreview: (preview, call) => previews.push({ preview, call }) });
  const { model } = deletingModel('ai-preview');
  const first = await generateText({ model, tools, stopWhen: stepCountIs(4), prompt: 'Empty the ai-preview box.' });
  const request = first.content.find((part) => part.type === 'tool-approval-request');
  assert.equal(previews.length, 1);
  const [{ preview, call }] = previews;
  assert.deepEqual([preview.tool, preview.table, preview.count, preview.rows.map((row) => row.name)], ['db_delete', 'inventory', 1, ['ai preview plum']]);
  assert.deepEqual([call.toolCallId, call.toolName], [request.toolCall.toolCallId, 'db_delete']);
  assert.equal(call.reason, `Delete 1 row of inventory: ${preview.keys[0]} "ai preview plum"`);
  assert.deepEqual(await namesAt('ai-preview'), ['ai preview plum']);
  // Nothing to delete: no request is made, the model reads that no row matched.
  const empty = deletingModel('ai-nowhere');
  const none = await generateText({ model: empty.model, tools, stopWhen: stepCountIs(4), prompt: 'Empty the ai-nowhere box.' });
  assert.equal(none.content.find((part) => part.type === 'tool-approval-request'), undefined);
  const result = empty.seen[0].type === 'json' ? empty.seen[0].value : JSON.parse(empty.seen[0].value);
  assert.deepEqual([result.ok, result.count], [true, 0]);
  assert.equal(previews.length, 1);
});

test('approval covers the call it was given for: the same call id reused with other arguments is not approved, nor is an approval used twice', { skip: !approvals && 'AI SDK 5 has no tool approval' }, async () => {
  for (const name of ['ai-one a', 'ai-one b', 'ai-one c']) await put('ai-one', name);
  const act = core.createAct({ url: stack().supabaseUrl, apiKey: stack().anonKey, accessToken: ada().token, userId: ada().id, approve: 'deletes' });
  const tools = aiTools(act);
  const one = { table: 'inventory', filters: [{ field: 'location', op: '=', value: 'ai-one' }, { field: 'name', op: '=', value: 'ai-one a' }] };
  const all = { table: 'inventory', filters: [{ field: 'location', op: '=', value: 'ai-one' }] };
  const assistant = (input) => ({ role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'call_same', toolName: 'db_delete', input }, { type: 'tool-approval-request', approvalId: 'approval_1', toolCallId: 'call_same' }] });
  const approval = { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: 'approval_1', approved: true }] };
  const run = (input, messages) => tools.db_delete.execute(input, { toolCallId: 'call_same', messages });

  // The approval was given for deleting one row; the call runs with the id reused for all three.
  const reused = await run(all, [assistant(one), approval]);
  assert.deepEqual([reused.ok, reused.error.code, reused.error.preview.count], [false, 'approval_required', 3]);
  // A later tool-call with the same id and other arguments: the approval was for the first.
  const later = await run(all, [assistant(one), approval, { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'call_same', toolName: 'db_delete', input: all }] }]);
  assert.equal(later.error.code, 'approval_required');
  assert.equal((await namesAt('ai-one')).length, 3);
  // The very call approved runs, deleting the one row.
  const approved = await run(one, [assistant(one), approval]);
  assert.deepEqual([approved.ok, approved.count], [true, 1]);
  assert.deepEqual((await namesAt('ai-one')).sort(), ['ai-one b', 'ai-one c']);
  // Used once: with its result in the messages, the approval runs nothing more (a row of that name again is held).
  await put('ai-one', 'ai-one a');
  const again = await run(one, [assistant(one), approval, { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_same', toolName: 'db_delete', output: { type: 'json', value: approved } }] }]);
  assert.deepEqual([again.ok, again.error.code, again.error.preview.count], [false, 'approval_required', 1]);
  assert.deepEqual((await namesAt('ai-one')).sort(), ['ai-one a', 'ai-one b', 'ai-one c']);
});

test('readOnly and tables: the SDK tools are db_read only, with the allowed tables only', () => {
  const act = core.createAct({ url: stack().supabaseUrl, apiKey: stack().anonKey, accessToken: ada().token, userId: ada().id, readOnly: true, tables: ['inventory'] });
  const tools = aiTools(act);
  assert.deepEqual(Object.keys(tools), ['db_read', 'db_aggregate']);
  assert.deepEqual(tools.db_read.inputSchema.jsonSchema.properties.table.enum, ['inventory']);
  assert.doesNotMatch(tools.db_read.description, /recipes|meal_plans|shopping_list/);
  assert.throws(() => aiTools(act, { tools: ['db_delete'] }), /'db_delete' is not one of db_read/);
});
