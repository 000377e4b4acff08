// The Act loop with native tool calling (toolCalling: 'native'): the scripted
// model (a real OpenAI-compatible server on 127.0.0.1) answers with
// `tool_calls`, the real executor runs them against the local stack, every
// call is answered with a tool message, and the step still ends with an
// ActDecision. The model makes the known mistakes and corrects them from the
// errors; retries, limits and the step's allowed tools hold as in JSON mode;
// the database is read back.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCore } from '../../web/src/index.node.js';
import { createChatModel } from '../../web/src/llm/index.js';
import { runStep, runTurn } from '../../web/src/loop/index.js';
import { startStack } from '../../db/local-stack.mjs';
import { completionBody, startScriptedModel, toolCallsBody } from './support/scripted-model.mjs';
import { stepComplete, where } from './support/decisions.mjs';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const core = await loadCore();

let stack;
let ada;
before(async () => {
  stack = await startStack();
  [ada] = stack.users;
});
after(() => stack?.stop());

const newAct = () => core.createAct({ url: stack.supabaseUrl, apiKey: stack.anonKey, accessToken: ada.token, userId: ada.id });
const nulls = { or_filters: null, columns: null, limit: null, offset: null, order_by: null, order_dir: null, count: null };
const decision = (value) => ({ status: 200, body: completionBody(JSON.stringify(value)) });

async function rest(pathAndQuery) {
  const response = await fetch(`${stack.url}/${pathAndQuery}`, { headers: { apikey: stack.anonKey, authorization: `Bearer ${ada.token}` } });
  assert.equal(response.status, 200, await response.clone().text());
  return response.json();
}

/** The tool messages (parsed) at the end of a request, with the ids they answer. */
function toolAnswers(body) {
  const out = [];
  for (let i = body.messages.length - 1; i >= 0 && body.messages[i].role === 'tool'; i -= 1) {
    out.unshift({ id: body.messages[i].tool_call_id, result: JSON.parse(body.messages[i].content) });
  }
  return out;
}

async function withModel(script, run) {
  const server = await startScriptedModel(script);
  try {
    const model = createChatModel({ baseUrl: server.baseUrl, model: 'scripted', retryDelayMs: 10, maxRetries: 0 });
    const result = await run(model, server);
    // Nothing the loop sends has a UUID (tool results included).
    for (const { body } of server.requests) {
      for (const message of body.messages.filter((entry) => entry.role !== 'assistant')) assert.doesNotMatch(message.content, UUID, message.role);
    }
    return result;
  } finally {
    await server.stop();
  }
}

test('runTurn native: a wrong column and a wrong value type are corrected from the tool results; milk is 250 in the database', async () => {
  let milkRef = null;
  const result = await withModel(
    [
      // Read step. Mistake: a column that does not exist.
      toolCallsBody([{ id: 'call_r1', name: 'db_read', arguments: { table: 'inventory', filters: [where('item', '=', 'milk')], ...nulls } }]),
      (body) => {
        const [{ id, result: answer }] = toolAnswers(body);
        assert.equal(id, 'call_r1');
        assert.deepEqual(answer.error, { code: 'unknown_column', path: 'filters[0].field', message: "inventory has no column 'item'", hint: answer.error.hint });
        assert.match(answer.error.hint, /^columns of inventory: id, ingredient_id, name,/);
        return toolCallsBody([{ id: 'call_r2', name: 'db_read', arguments: { table: 'inventory', filters: [where('name', '=', 'milk')], ...nulls } }]);
      },
      (body) => {
        // All calls ran: the results are in the rebuilt prompt, not in tool messages.
        assert.deepEqual(toolAnswers(body), []);
        assert.match(body.messages.at(-1).content, /Query: Table: inventory \| Filters: name = milk/);
        return decision(stepComplete('Read the milk', null, `milk is ${milkRef}`));
      },
      // Write step. Mistake: text for a numeric column.
      () => toolCallsBody([{ id: 'call_w1', name: 'db_update', arguments: { table: 'inventory', filters: [where('id', '=', milkRef)], data: '{"quantity": "250 ml"}' } }]),
      (body) => {
        const [{ result: answer }] = toolAnswers(body);
        assert.equal(answer.error.code, 'invalid_value');
        assert.equal(answer.error.path, 'data.quantity');
        // The refused exchange stays in the conversation: the assistant's call, then its answer.
        assert.deepEqual(body.messages.at(-2).tool_calls.map((call) => call.id), ['call_w1']);
        return toolCallsBody([{ id: 'call_w2', name: 'db_update', arguments: { table: 'inventory', filters: [where('id', '=', milkRef)], data: '{"quantity": 250}' } }]);
      },
      decision(stepComplete('Set the milk to 250 ml')),
    ],
    async (model, server) => {
      const turn = await runTurn({
        core,
        act: newAct(),
        model,
        toolCalling: 'native',
        replyTurn: null,
        turn: {
          userMessage: 'I used most of the milk, 250 ml left',
          steps: [
            { description: 'Read the milk in inventory', type: 'read' },
            { description: 'Set the milk quantity to 250', type: 'write' },
          ],
        },
        onEvent: (event) => {
          if (event.type === 'result' && event.tool === 'db_read' && !event.error) milkRef = event.data.find((row) => row.name === 'milk').id;
        },
      });
      // Each step sent only the tools its type allows, with the core's strict schemas.
      assert.deepEqual(server.requests[0].body.tools.map((tool) => tool.function.name), ['db_read', 'db_aggregate']);
      assert.deepEqual(server.requests[3].body.tools.map((tool) => tool.function.name), ['db_read', 'db_create', 'db_update', 'db_delete', 'db_aggregate']);
      assert.deepEqual(server.requests[0].body.tools[0].function.parameters, JSON.parse(JSON.stringify(core.toolDefinitions({ strict: true })[0].parameters)));
      assert.equal(server.requests[0].body.response_format.json_schema.name, 'act_decision');
      assert.equal(server.used, 6);
      return turn;
    },
  );
  assert.equal(result.status, 'done', JSON.stringify(result.error));
  assert.deepEqual(result.steps.map((step) => [step.status, step.queries.length, step.rejected.map((r) => `${r.reason}:${r.error.code}`)]), [
    ['complete', 2, ['tool_error:unknown_column']],
    ['complete', 2, ['tool_error:invalid_value']],
  ]);
  assert.match(milkRef, /^inv_\d+$/);
  const milk = await rest('inventory?name=eq.milk&select=quantity,unit');
  assert.deepEqual(milk, [{ quantity: 250, unit: 'ml' }]);
});

test('runStep native: a tool the step may not use is refused (nothing deleted), then the step completes', async () => {
  const before = await rest('inventory?select=id');
  const result = await withModel(
    [
      toolCallsBody([{ id: 'call_d', name: 'db_delete', arguments: { table: 'inventory', filters: [where('location', '=', 'fridge')] } }]),
      (body) => {
        const [{ result: answer }] = toolAnswers(body);
        assert.deepEqual(answer, { ok: false, tool: 'db_delete', table: null, error: { code: 'tool_not_allowed', path: 'tool', message: 'db_delete is not allowed in a read step', hint: 'allowed: db_read, db_aggregate' } });
        return decision(stepComplete('Nothing to read'));
      },
    ],
    (model) => runStep({ core, act: newAct(), model, toolCalling: 'native', step: { description: 'Read the fridge', type: 'read' } }),
  );
  assert.equal(result.status, 'complete');
  assert.deepEqual(result.rejected.map((r) => r.reason), ['tool_not_allowed']);
  assert.equal(result.queries.length, 0);
  assert.equal((await rest('inventory?select=id')).length, before.length);
});

test('runStep native: refused calls use up the corrections (one per call) and the step ends blocked, nothing written', async () => {
  const before = await rest('shopping_list?select=id');
  const create = (data) => ({ name: 'db_create', arguments: { table: 'shopping_list', data: JSON.stringify(data) } });
  const result = await withModel(
    [
      // Two refused calls in one answer (missing name; not JSON), then a third.
      toolCallsBody([create({ quantity: 1 }), { name: 'db_create', arguments: '{"table": "shopping_list", "data": ' }]),
      toolCallsBody([create({ name: 'x', quantity: 'many' })]),
    ],
    (model) => runStep({ core, act: newAct(), model, toolCalling: 'native', maxRetries: 2, step: { description: 'Add to the shopping list', type: 'write' } }),
  );
  assert.equal(result.status, 'blocked');
  assert.deepEqual(result.rejected.map((r) => r.error.code), ['missing_column', 'invalid_json', 'invalid_value']);
  assert.match(result.blocked.details, /^gave up after 2 corrections: /);
  assert.equal((await rest('shopping_list?select=id')).length, before.length);
});

test('runStep native: the tool-call limit ends the step; calls past it in the same answer are not run', async () => {
  const read = (location) => ({ name: 'db_read', arguments: { table: 'inventory', filters: [where('location', '=', location)], ...nulls } });
  const result = await withModel(
    [toolCallsBody([read('fridge'), read('pantry'), read('freezer')])],
    (model) => runStep({ core, act: newAct(), model, toolCalling: 'native', maxToolCalls: 2, step: { description: 'Read everything', type: 'read' } }),
  );
  assert.equal(result.status, 'limit_reached');
  assert.deepEqual(result.queries.map((q) => q.params.filters[0].value), ['fridge', 'pantry']);
});

test('runStep native: the reads of one answer before its first write run together (one round trip), their results and events in the calls\' order; the write, and a read after it that sees it, run after them', async () => {
  let open = 0;
  let most = 0;
  const sent = [];
  const slowFetch = async (url, init) => {
    open += 1;
    most = Math.max(most, open);
    sent.push(`${init?.method ?? 'GET'} ${new URL(String(url)).pathname.split('/').pop()}`);
    await new Promise((resolve) => setTimeout(resolve, 30));
    try {
      return await fetch(url, init);
    } finally {
      open -= 1;
    }
  };
  const act = core.createAct({ url: stack.supabaseUrl, apiKey: stack.anonKey, accessToken: ada.token, userId: ada.id, fetch: slowFetch, approve: 'none' });
  const read = (id, table, filters = null) => ({ id, name: 'db_read', arguments: { table, filters, ...nulls, limit: 3 } });
  const events = [];
  const result = await withModel(
    [
      toolCallsBody([
        read('call_1', 'inventory', [where('location', '=', 'fridge')]),
        read('call_2', 'recipes'),
        read('call_3', 'inventory', [where('location', '=', 'pantry')]),
        { id: 'call_4', name: 'db_create', arguments: { table: 'shopping_list', data: JSON.stringify({ name: 'together rye', quantity: 1, unit: 'loaf' }) } },
        read('call_5', 'shopping_list', [where('name', '=', 'together rye')]),
        // The same read again: answered as a repeat, not run twice.
        read('call_6', 'recipes'),
      ]),
      (body) => {
        const answers = toolAnswers(body);
        assert.deepEqual(answers.map(({ id, result: answer }) => [id, answer.ok === false ? answer.error.code : 'ok']), [
          ['call_1', 'ok'],
          ['call_2', 'ok'],
          ['call_3', 'ok'],
          ['call_4', 'ok'],
          ['call_5', 'ok'],
          ['call_6', 'repeated_call'],
        ]);
        // The read after the create sees the row it created.
        assert.deepEqual(answers[4].result.rows.map((row) => row.name), ['together rye']);
        return decision(stepComplete('Read and added', null, 'done'));
      },
    ],
    (model) => runStep({ core, act, model, toolCalling: 'native', step: { description: 'Read the kitchen, add rye', type: 'write' }, onEvent: (event) => events.push(event) }),
  );
  assert.equal(result.status, 'complete', JSON.stringify(result.error ?? result.rejected));
  assert.deepEqual(result.queries.map((q) => [q.tool, q.table, q.error?.code ?? null]), [
    ['db_read', 'inventory', null],
    ['db_read', 'recipes', null],
    ['db_read', 'inventory', null],
    ['db_create', 'shopping_list', null],
    ['db_read', 'shopping_list', null],
  ]);
  assert.deepEqual(events.filter((event) => event.type === 'tool_call').map((event) => event.tool), ['db_read', 'db_read', 'db_read', 'db_create', 'db_read']);
  // The three reads before the create at once; the create's requests and the last read after them, one by one.
  assert.equal(most, 3);
  assert.deepEqual(sent.slice(0, 3).sort(), ['GET inventory', 'GET inventory', 'GET recipes']);
  assert.ok(sent.indexOf('POST shopping_list') >= 3 && sent.indexOf('POST shopping_list') < sent.indexOf('GET shopping_list'), sent.join(', '));
  assert.equal((await rest('shopping_list?select=name&name=eq.together%20rye')).length, 1);
});

test('runStep native: only reads the step is sure to reach start early: none after a call the step may refuse for good, none past two reads of one table that may both be empty, none past the tool-call limit', async () => {
  const counting = () => {
    const sent = [];
    const slowFetch = async (url, init) => {
      sent.push(`${init?.method ?? 'GET'} ${new URL(String(url)).pathname.split('/').pop()}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
      return fetch(url, init);
    };
    return { sent, act: core.createAct({ url: stack.supabaseUrl, apiKey: stack.anonKey, accessToken: ada.token, userId: ada.id, fetch: slowFetch }) };
  };
  const read = (table, filters = null) => ({ name: 'db_read', arguments: { table, filters, ...nulls, limit: 3 } });

  // A call the read step refuses, with no correction left: the step ends blocked, and the reads after it never go.
  const refusedFirst = counting();
  const blocked = await withModel(
    [toolCallsBody([{ name: 'db_drop', arguments: { table: 'inventory' } }, read('recipes'), read('meal_plans')])],
    (model) => runStep({ core, act: refusedFirst.act, model, toolCalling: 'native', maxRetries: 0, step: { description: 'Read the plans', type: 'read' } }),
  );
  assert.equal(blocked.status, 'blocked');
  assert.deepEqual(refusedFirst.sent, []);
  // A read that fails (a column the table lacks), with no correction left: the same.
  const failingFirst = counting();
  const failed = await withModel(
    [toolCallsBody([read('inventory', [where('item', '=', 'milk')]), read('recipes'), read('meal_plans')])],
    (model) => runStep({ core, act: failingFirst.act, model, toolCalling: 'native', maxRetries: 0, step: { description: 'Read the plans', type: 'read' } }),
  );
  assert.equal(failed.status, 'blocked');
  assert.deepEqual(failingFirst.sent.filter((request) => !request.endsWith('inventory')), []);

  // Calls the step may not make at all (reads asked for in an analyze step, which offers no tools): refused, never sent.
  const notOffered = counting();
  await withModel(
    [toolCallsBody([read('recipes'), read('meal_plans')]), decision(stepComplete('Analysed', null, 'done'))],
    (model) => runStep({ core, act: notOffered.act, model, toolCalling: 'native', step: { description: 'Compare the plans', type: 'analyze' } }),
  );
  assert.deepEqual(notOffered.sent, []);

  // Two reads of one table that may both come back empty end the step (no data found): the read after them never goes.
  const empty = counting();
  const nothing = await withModel(
    [toolCallsBody([read('inventory', [where('location', '=', 'nowhere-1')]), read('inventory', [where('location', '=', 'nowhere-2')]), read('recipes')])],
    (model) => runStep({ core, act: empty.act, model, toolCalling: 'native', step: { description: 'Find the saffron', type: 'read' }}),
  );
  assert.equal(nothing.status, 'complete');
  assert.deepEqual(nothing.queries.map((q) => q.table), ['inventory', 'inventory']);
  assert.deepEqual(empty.sent.filter((request) => request.endsWith('recipes')), []);

  // The tool-call limit: the third read never goes.
  const limited = counting();
  const capped = await withModel(
    [toolCallsBody([read('inventory'), read('recipes'), read('meal_plans')])],
    (model) => runStep({ core, act: limited.act, model, toolCalling: 'native', maxToolCalls: 2, step: { description: 'Read everything', type: 'read' } }),
  );
  assert.equal(capped.status, 'limit_reached');
  assert.deepEqual(limited.sent.filter((request) => request.endsWith('meal_plans')), []);
});

test('runStep: toolCalling other than json/native is an error, not ignored', async () => {
  const result = await runStep({ core, act: newAct(), model: { complete: () => assert.fail('no model call') }, toolCalling: 'tools', step: { description: 'Read', type: 'read' } });
  assert.equal(result.status, 'error');
  assert.equal(result.error.code, 'invalid_option');
  assert.equal(result.error.path, 'toolCalling');
});
