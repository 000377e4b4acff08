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

test('runStep: toolCalling other than json/native is an error, not ignored', async () => {
  const result = await runStep({ core, act: newAct(), model: { complete: () => assert.fail('no model call') }, toolCalling: 'tools', step: { description: 'Read', type: 'read' } });
  assert.equal(result.status, 'error');
  assert.equal(result.error.code, 'invalid_option');
  assert.equal(result.error.path, 'toolCalling');
});
