// alfred-act/ai with the real Vercel AI SDK: generateText drives a scripted
// model (the SDK's own mock language model) through the four tools against
// the real local stack. The model makes the known mistakes (a create without
// a required column, a single value for `in`), reads the error in the tool
// result and corrects its call from the hint; the database is read back.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { generateText, stepCountIs } from 'ai';
import * as aiTest from 'ai/test';
import { aiTools } from 'alfred-act/ai';
import { loadCore } from '../../web/src/index.node.js';
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
        const column = /^add "(\w+)" to the row$/.exec(result.error.hint)[1];
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
  assert.deepEqual(Object.keys(tools), ['db_read', 'db_create', 'db_update', 'db_delete']);
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
  assert.deepEqual(sent.map((tool) => tool.name), ['db_read', 'db_create', 'db_update', 'db_delete']);
  assert.deepEqual(sent[1].inputSchema, act.tools({ strict: true })[1].parameters);
  // AI SDK 5's tools have no `strict` (its OpenAI provider takes strictJsonSchema per call); 6 and 7 pass it on.
  assert.deepEqual(sent.map((tool) => tool.strict), Array(4).fill(specification === 'v2' ? undefined : true));

  assert.equal(result.steps.length, 5);
  const outcomes = result.steps.flatMap((step) => step.toolResults.map((item) => item.output));
  assert.deepEqual(outcomes.map((item) => [item.tool, item.ok, item.ok ? null : item.error.code]), [
    ['db_create', false, 'missing_column'],
    ['db_create', true, null],
    ['db_read', false, 'invalid_value'],
    ['db_read', true, null],
  ]);
  assert.deepEqual(outcomes[0].error, {
    code: 'missing_column', path: 'data', message: 'unit is required to create a row in inventory', hint: 'add "unit" to the row',
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
