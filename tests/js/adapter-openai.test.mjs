// alfred-act/openai with the real `openai` client against a scripted
// OpenAI-compatible server on loopback (tests/js/support/scripted-model.mjs),
// both Chat Completions and the Responses API, the tools running against the
// real local stack. The model makes the known mistakes (an update without a
// narrowing filter, malformed arguments), corrects them from the error in
// the tool result, and the database is read back.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import OpenAI from 'openai';
import { openaiTools, runToolCalls } from 'alfred-act/openai';
import { loadCore } from 'alfred-act';
import { responsesBody, startScriptedModel, toolCallsBody, completionBody } from './support/scripted-model.mjs';
import { rest, sharedStack } from './support/stack.mjs';

const stack = sharedStack();
const ada = () => stack().users[0];
let core;
before(async () => {
  core = await loadCore();
});

const actFor = () => core.createAct({ url: stack().supabaseUrl, apiKey: stack().anonKey, accessToken: ada().token, userId: ada().id });
const nulls = { or_filters: null, columns: null, limit: null, offset: null, order_by: null, order_dir: null, count: null };

/** The tool results (parsed) the model was sent in the last chat request. */
const toolMessages = (body) => {
  const out = [];
  for (let i = body.messages.length - 1; i >= 0 && body.messages[i].role === 'tool'; i -= 1) out.unshift(JSON.parse(body.messages[i].content));
  return out;
};

test('openaiTools: Chat Completions and Responses API shapes of the core schemas', () => {
  const act = actFor();
  const strict = act.tools({ strict: true });
  const chat = openaiTools(act);
  assert.deepEqual(chat[0], { type: 'function', function: { name: 'db_read', description: strict[0].description, parameters: strict[0].parameters, strict: true } });
  const responses = openaiTools(act, { api: 'responses', strict: false, tools: ['db_read', 'db_delete'] });
  assert.deepEqual(responses.map((tool) => tool.name), ['db_read', 'db_delete']);
  assert.deepEqual(responses[1], { type: 'function', name: 'db_delete', description: act.tools()[3].description, parameters: act.tools()[3].parameters, strict: false });
  assert.throws(() => openaiTools(act, { api: 'assistants' }), /api must be 'chat' or 'responses'/);
  assert.throws(() => openaiTools(act, { tools: ['db_drop'] }), /'db_drop' is not a tool/);
});

test('runToolCalls: the SDK\'s tool calls as they come (a custom tool\'s call among them) get one answer per function call, in order', async () => {
  const act = actFor();
  const read = (value) => JSON.stringify({ table: 'inventory', filters: [{ field: 'name', op: '=', value }], ...nulls, columns: ['name'], order_by: 'name' });
  const replies = await runToolCalls(act, [
    { id: 'call_1', type: 'function', function: { name: 'db_read', arguments: read('milk') } },
    // openai 6 and 7 type tool_calls as function | custom; a custom tool is the caller's to answer.
    { id: 'call_2', type: 'custom', custom: { name: 'shell', input: 'ls' } },
    { id: 'call_3', type: 'function', function: { name: 'db_drop', arguments: '{}' } },
  ]);
  assert.deepEqual(replies.map((reply) => [reply.role, reply.tool_call_id]), [['tool', 'call_1'], ['tool', 'call_3']]);
  const [milk, drop] = replies.map((reply) => JSON.parse(reply.content));
  assert.deepEqual([milk.ok, milk.rows.map((row) => row.name)], [true, ['coconut milk', 'milk']]);
  assert.deepEqual([drop.ok, drop.error.code], [false, 'unknown_tool']);
  assert.deepEqual(await runToolCalls(act, undefined), []);
});

test('Chat Completions: an update without a narrowing filter and malformed arguments are corrected from the errors; milk is 3 in the database', async (t) => {
  const act = actFor();
  let milkRef = null;
  const model = await startScriptedModel([
    // Mistake 1: update every row (no filter); mistake 2 in the same message: arguments that are not JSON.
    toolCallsBody([
      { name: 'db_update', arguments: { table: 'inventory', filters: [], data: '{"quantity": 3}' } },
      { name: 'db_read', arguments: '{"table": "inventory", "filters": [' },
    ]),
    (body) => {
      const [update, read] = toolMessages(body);
      assert.equal(update.error.code, 'missing_filter');
      assert.equal(read.error.code, 'invalid_json');
      // Correction: find the row first, as the hint suggests (by ref).
      assert.match(update.error.hint, /"field": "id", "op": "in"/);
      return toolCallsBody([{ name: 'db_read', arguments: { table: 'inventory', filters: [{ field: 'name', op: '=', value: 'milk' }], ...nulls } }]);
    },
    (body) => {
      const [read] = toolMessages(body);
      milkRef = read.rows.find((row) => row.name === 'milk').id;
      return toolCallsBody([{ name: 'db_update', arguments: { table: 'inventory', filters: [{ field: 'id', op: '=', value: milkRef }], data: '{"quantity": 3}' } }]);
    },
    (body) => {
      const [update] = toolMessages(body);
      return { status: 200, body: completionBody(`Done: ${update.rows.map((row) => `${row.id} ${row.name} ${row.quantity}`).join(', ')}`) };
    },
  ]);
  t.after(() => model.stop());
  const client = new OpenAI({ apiKey: 'test-key', baseURL: model.baseUrl });
  const before = await rest(stack(), ada().token, 'GET', '/inventory?select=name,quantity&order=name');

  const messages = [{ role: 'user', content: 'Set my milk to 3.' }];
  let completion;
  // Updates ask first by default (docs/safety-controls.md): the host approves what it is asked.
  const asked = [];
  const approve = async (call, preview) => asked.push([call.tool, preview.count]) > 0;
  for (let turn = 0; turn < 6; turn += 1) {
    completion = await client.chat.completions.create({ model: 'scripted', messages, tools: openaiTools(act) });
    const message = completion.choices[0].message;
    if (!message.tool_calls?.length) break;
    messages.push(message, ...(await runToolCalls(act, message.tool_calls, { approve })));
  }
  assert.equal(model.used, 4);
  // The update without a filter was refused before anyone was asked; the one by ref was asked about.
  assert.deepEqual(asked, [['db_update', 1]]);
  assert.deepEqual(model.requests[0].body.tools, JSON.parse(JSON.stringify(openaiTools(act))));
  assert.equal(completion.choices[0].message.content, `Done: ${milkRef} milk 3`);
  // Each tool message answers its call, in order.
  const second = model.requests[1].body.messages;
  assert.deepEqual(second.slice(-2).map((m) => m.tool_call_id), second.at(-3).tool_calls.map((call) => call.id));

  const uuid = act.registry.toJSON().refs.find((entry) => entry.ref === milkRef).uuid;
  const { body } = await rest(stack(), ada().token, 'GET', `/inventory?id=eq.${uuid}&select=name,quantity`);
  assert.deepEqual(body, [{ name: 'milk', quantity: 3 }]);
  // The refused update changed nothing else.
  const after = await rest(stack(), ada().token, 'GET', '/inventory?select=name,quantity&order=name');
  assert.deepEqual(after.body, before.body.map((row) => (row.name === 'milk' ? { ...row, quantity: 3 } : row)));
});

test('Responses API: function_call items in, function_call_output items out; a create with the wrong table corrected; the row is saved', async (t) => {
  const act = actFor();
  const lastOutputs = (body) => body.input.filter((item) => item.type === 'function_call_output').map((item) => JSON.parse(item.output));
  const model = await startScriptedModel([
    // Mistake: a table that does not exist.
    responsesBody([{ type: 'function_call', id: 'fc_1', call_id: 'call_a', name: 'db_create', arguments: JSON.stringify({ table: 'pantry', data: '{"name": "responses rice", "quantity": 1, "unit": "kg"}' }), status: 'completed' }]),
    (body) => {
      const [result] = lastOutputs(body);
      assert.equal(result.error.code, 'unknown_table');
      assert.match(result.error.hint, /inventory/);
      return responsesBody([{ type: 'function_call', id: 'fc_2', call_id: 'call_b', name: 'db_create', arguments: JSON.stringify({ table: 'inventory', data: '{"name": "responses rice", "quantity": 1, "unit": "kg"}' }), status: 'completed' }]);
    },
    (body) => {
      const created = lastOutputs(body).at(-1);
      return responsesBody([{ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: `Saved ${created.rows[0].id}`, annotations: [] }] }]);
    },
  ]);
  t.after(() => model.stop());
  const client = new OpenAI({ apiKey: 'test-key', baseURL: model.baseUrl });
  const input = [{ role: 'user', content: 'Add 1 kg of rice.' }];
  let response;
  for (let turn = 0; turn < 5; turn += 1) {
    response = await client.responses.create({ model: 'scripted', input, tools: openaiTools(act, { api: 'responses' }) });
    const calls = response.output.filter((item) => item.type === 'function_call');
    if (calls.length === 0) break;
    const outputs = await runToolCalls(act, response.output);
    assert.deepEqual(outputs.map((item) => [item.type, item.call_id]), calls.map((call) => ['function_call_output', call.call_id]));
    input.push(...response.output, ...outputs);
  }
  assert.equal(model.used, 3);
  assert.deepEqual(model.requests[0].body.tools, JSON.parse(JSON.stringify(openaiTools(act, { api: 'responses' }))));
  assert.match(response.output_text, /^Saved inv_\d+$/);
  const { body } = await rest(stack(), ada().token, 'GET', '/inventory?name=eq.responses%20rice&select=name,quantity,unit,user_id');
  assert.deepEqual(body, [{ name: 'responses rice', quantity: 1, unit: 'kg', user_id: ada().id }]);
});

test('runToolCalls: reads in a row run together, at most four at once; a write waits for the reads before it and the reads after it wait for the write; answers keep the calls\' order', async () => {
  await put('oa-together', 'oa together fig');
  let open = 0;
  let most = 0;
  const order = [];
  // Each request held back as a hosted project's round trip: the first read's longest, so the reads end out of
  // their order and the answers must be put back in it.
  const slowFetch = async (url, init) => {
    const method = init?.method ?? 'GET';
    open += 1;
    most = Math.max(most, open);
    order.push(`${method} start`);
    await new Promise((resolve) => setTimeout(resolve, order.length === 1 ? 90 : 30));
    try {
      return await fetch(url, init);
    } finally {
      open -= 1;
      order.push(`${method} end`);
    }
  };
  const act = core.createAct({ url: stack().supabaseUrl, apiKey: stack().anonKey, accessToken: ada().token, userId: ada().id, approve: 'none', maxAffected: 0, fetch: slowFetch });
  const readAt = (id, location) => ({ id, type: 'function', function: { name: 'db_read', arguments: JSON.stringify({ table: 'inventory', filters: [{ field: 'location', op: '=', value: location }], ...nulls, columns: ['name'] }) } });
  const replies = await runToolCalls(act, [
    readAt('call_1', 'oa-together'),
    readAt('call_2', 'fridge'),
    readAt('call_3', 'pantry'),
    readAt('call_4', 'freezer'),
    readAt('call_5', 'oa-together'),
    deleteAt('call_6', 'oa-together'),
    readAt('call_7', 'oa-together'),
  ]);
  assert.deepEqual(replies.map((reply) => reply.tool_call_id), ['call_1', 'call_2', 'call_3', 'call_4', 'call_5', 'call_6', 'call_7']);
  const [first, , , , fifth, removed, after] = replies.map((reply) => JSON.parse(reply.content));
  assert.deepEqual([first.rows.map((row) => row.name), fifth.rows.map((row) => row.name)], [['oa together fig'], ['oa together fig']]);
  assert.deepEqual([removed.ok, removed.count, after.ok, after.count], [true, 1, true, 0]);
  // The five reads: four at once, then the fifth; the delete alone; the last read after it.
  assert.equal(most, 4);
  assert.deepEqual(order.slice(0, 4), ['GET start', 'GET start', 'GET start', 'GET start']);
  const deleted = order.indexOf('DELETE start');
  assert.equal(order.slice(0, deleted).filter((step) => step === 'GET end').length, 5);
  assert.deepEqual(order.slice(deleted), ['DELETE start', 'DELETE end', 'GET start', 'GET end']);
});

test('runToolCalls: a function the domain marks as a read runs with the reads beside it; one that writes waits for them, and the read after it waits for it', async () => {
  const domain = {
    name: 'team',
    tables: { projects: { ref: 'project', label: ['name'], columns: { id: { type: 'uuid', writable: false, nullable: false }, name: { type: 'text', required: true } } } },
    functions: {
      count_projects: { read: true, args: {}, returns: { type: 'integer' } },
      archive_project: { read: false, args: { project_id: { type: 'uuid', required: true, references: 'projects' } }, returns: { table: 'projects' } },
    },
  };
  // A stand-in for PostgREST that answers each request after 20 ms, and records when each starts and ends.
  const order = [];
  const fetch = async (url) => {
    const path = new URL(url).pathname.split('/').slice(-2).join('/');
    order.push(`start ${path}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
    order.push(`end ${path}`);
    const body = path === 'rpc/count_projects' ? 1 : [{ id: '0b7e0000-0000-4000-8000-000000000001', name: 'Apollo' }];
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json', 'content-range': '0-0/*' } });
  };
  const act = core.createAct({ url: 'http://db.test', apiKey: 'anon', accessToken: ada().token, domain, fetch, approve: 'none' });
  const project = (await act.callTool('db_read', { table: 'projects' })).rows[0].id;
  order.length = 0;
  const call = (id, name, args) => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } });
  const replies = await runToolCalls(act, [
    call('call_1', 'db_call', { function: 'count_projects', args: {} }),
    call('call_2', 'db_read', { table: 'projects' }),
    call('call_3', 'db_call', { function: 'archive_project', args: { project_id: project } }),
    call('call_4', 'db_read', { table: 'projects' }),
  ]);
  assert.deepEqual(replies.map((reply) => [reply.tool_call_id, JSON.parse(reply.content).ok]), [['call_1', true], ['call_2', true], ['call_3', true], ['call_4', true]]);
  assert.deepEqual(order, [
    'start rpc/count_projects',
    'start v1/projects',
    'end rpc/count_projects',
    'end v1/projects',
    'start rpc/archive_project',
    'end rpc/archive_project',
    'start v1/projects',
    'end v1/projects',
  ]);
});

// --- Safety controls: approval fails closed -------------------------------

const put = async (location, name) => {
  const { status } = await rest(stack(), ada().token, 'POST', '/inventory', { body: { name, quantity: 1, unit: 'pc', location } });
  assert.equal(status, 201);
};
const namesAt = async (location) => (await rest(stack(), ada().token, 'GET', `/inventory?location=eq.${location}&select=name&order=name`)).body.map((row) => row.name);
const deleteAt = (id, location) => ({ id, type: 'function', function: { name: 'db_delete', arguments: JSON.stringify({ table: 'inventory', filters: [{ field: 'location', op: '=', value: location }] }) } });

test('runToolCalls with a held delete: without approve it is refused and never run; approve decides, true runs it', async () => {
  await put('oa-held', 'oa held pear');
  const act = core.createAct({ url: stack().supabaseUrl, apiKey: stack().anonKey, accessToken: ada().token, userId: ada().id, approve: 'deletes', maxAffected: 0 });
  assert.deepEqual(openaiTools(act).map((tool) => tool.function.name), ['db_read', 'db_create', 'db_update', 'db_delete', 'db_aggregate']);

  const [closed] = await runToolCalls(act, [deleteAt('call_1', 'oa-held')]);
  const refused = JSON.parse(closed.content);
  assert.deepEqual([refused.ok, refused.error.code, refused.error.message], [false, 'approval_required', "deleting 1 row of inventory needs the user's approval; nothing was changed"]);
  assert.deepEqual(Object.keys(refused.error.preview), ['tool', 'table', 'count', 'rows']);
  assert.deepEqual(await namesAt('oa-held'), ['oa held pear']);

  const asked = [];
  const [denied] = await runToolCalls(act, [deleteAt('call_2', 'oa-held')], { approve: (call, preview) => { asked.push([call, preview]); return false; } });
  assert.deepEqual(JSON.parse(denied.content).error.message, 'the user denied deleting 1 row of inventory; nothing was changed');
  assert.deepEqual(asked[0][0], { id: 'call_2', tool: 'db_delete', table: 'inventory', params: { table: 'inventory', filters: [{ field: 'location', op: '=', value: 'oa-held' }] } });
  assert.deepEqual([asked[0][1].count, asked[0][1].rows.map((row) => row.name)], [1, ['oa held pear']]);
  const [failed] = await runToolCalls(act, [deleteAt('call_3', 'oa-held')], { approve: async () => { throw new Error('no UI'); } });
  assert.match(JSON.parse(failed.content).error.message, /asking for it failed \(no UI\); nothing was changed$/);
  assert.deepEqual(await namesAt('oa-held'), ['oa held pear']);

  const [done] = await runToolCalls(act, [deleteAt('call_4', 'oa-held')], { approve: async () => true });
  const result = JSON.parse(done.content);
  assert.deepEqual([result.ok, result.count, result.rows.map((row) => row.name)], [true, 1, ['oa held pear']]);
  assert.deepEqual(await namesAt('oa-held'), []);
  await assert.rejects(runToolCalls(act, [], { approve: 'yes' }), /approve must be a function/);
});

test('Chat Completions with approve: the real client, a held delete approved by the host, a changed preview refused; the database is read back', async (t) => {
  await put('oa-chat', 'oa chat one');
  const act = core.createAct({ url: stack().supabaseUrl, apiKey: stack().anonKey, accessToken: ada().token, userId: ada().id, approve: 'deletes' });
  const model = await startScriptedModel([
    toolCallsBody([{ name: 'db_delete', arguments: { table: 'inventory', filters: [{ field: 'location', op: '=', value: 'oa-chat' }] } }]),
    (body) => {
      const [result] = toolMessages(body);
      return { status: 200, body: completionBody(`${result.ok ? 'deleted' : result.error.code}: ${(result.rows ?? result.error.preview.rows).map((row) => row.name).join(', ')}`) };
    },
  ]);
  t.after(() => model.stop());
  const client = new OpenAI({ apiKey: 'test-key', baseURL: model.baseUrl });
  const messages = [{ role: 'user', content: 'Empty the oa-chat box.' }];
  const previews = [];
  let completion;
  for (let turn = 0; turn < 4; turn += 1) {
    completion = await client.chat.completions.create({ model: 'scripted', messages, tools: openaiTools(act) });
    const message = completion.choices[0].message;
    if (!message.tool_calls?.length) break;
    messages.push(message, ...(await runToolCalls(act, message.tool_calls, { approve: (call, preview) => previews.push(preview) > 0 })));
  }
  assert.equal(completion.choices[0].message.content, 'deleted: oa chat one');
  assert.equal(previews.length, 1);
  assert.deepEqual(await namesAt('oa-chat'), []);

  // The approver takes its time; a row appears meanwhile: the write is refused, nothing deleted.
  await put('oa-chat', 'oa chat two');
  const [changed] = await runToolCalls(act, [deleteAt('call_9', 'oa-chat')], {
    approve: async () => {
      await put('oa-chat', 'oa chat three');
      return true;
    },
  });
  const refused = JSON.parse(changed.content);
  assert.deepEqual([refused.error.code, refused.error.preview.count], ['preview_changed', 2]);
  assert.deepEqual(await namesAt('oa-chat'), ['oa chat three', 'oa chat two']);
});
