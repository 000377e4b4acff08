// The Act loop's parts that need no database: generated artifacts → gen_
// refs in the real registry, the turn state's checks, the event iterator,
// and planTurn / replyTurn against the scripted model server.
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { kitchen, loadCore } from '../../web/src/index.node.js';
import { artifactsOf, registerArtifacts } from '../../web/src/loop/artifacts.js';
import { eventsOf } from '../../web/src/loop/events.js';
import { toolErrorFeedback } from '../../web/src/loop/feedback.js';
import { createTurnState, planTurn, readTurnState, replyTurn } from '../../web/src/loop/index.js';
import { nextTurnState } from '../../web/src/loop/state.js';
import { createChatModel } from '../../web/src/llm/index.js';
import { startScriptedModel } from './support/scripted-model.mjs';
import { ROOT } from './support/paths.mjs';

const core = await loadCore();
const RECIPE = { name: 'Thai Basil Chicken', instructions: ['Fry', 'Serve'], cuisine: 'thai', recipe_ingredients: [{ name: 'basil', quantity: 1 }] };

test('artifact shapes: { artifacts: [{ table, content }] }, keyed by table, JSON text, a bare row placed by its columns', () => {
  const expected = [{ table: 'recipes', content: RECIPE }];
  assert.deepEqual(artifactsOf({ artifacts: [{ table: 'recipes', content: RECIPE }] }, kitchen, core), { data: expected, error: null });
  assert.deepEqual(artifactsOf({ recipes: [RECIPE] }, kitchen, core), { data: expected, error: null });
  assert.deepEqual(artifactsOf({ recipes: RECIPE }, kitchen, core), { data: expected, error: null });
  assert.deepEqual(artifactsOf(JSON.stringify([{ table: 'recipes', content: RECIPE }]), kitchen, core), { data: expected, error: null });
  assert.deepEqual(artifactsOf(RECIPE, kitchen, core), { data: expected, error: null });
  assert.deepEqual(artifactsOf(null, kitchen, core), { data: [], error: null });
  assert.deepEqual(artifactsOf({ gen_recipe_1: RECIPE }, kitchen, core), { data: [{ ref: 'gen_recipe_1', content: RECIPE }], error: null });
});

test('artifacts that cannot be placed are errors the model can act on', () => {
  for (const data of ['{not json', { name: 'ambiguous' }, { artifacts: [{ table: 'recipez', content: RECIPE }] }, [42], { recipes: ['x'] }]) {
    const { data: found, error } = artifactsOf(data, kitchen, core);
    assert.equal(found, null, JSON.stringify(data));
    assert.equal(error.code, 'invalid_artifacts');
    assert.match(error.hint, /artifacts/);
  }
});

test('the artifact shape hint names a table and column of the domain in use, no kitchen table for the CRM', () => {
  const crm = JSON.parse(readFileSync(join(ROOT, 'domains/crm/domain.json'), 'utf8'));
  assert.equal(
    artifactsOf('{not json', kitchen, core).error.hint,
    'give data as { "artifacts": [{ "table": "recipes", "content": { "name": "…", … } }] }, or as { "recipes": [{ "name": "…" }] } keyed by table name',
  );
  assert.deepEqual(artifactsOf({ recipes: [RECIPE] }, crm, core).error, {
    code: 'invalid_artifacts',
    path: 'data',
    message: 'cannot tell which table this artifact belongs to (keys: recipes)',
    hint: 'give data as { "artifacts": [{ "table": "organizations", "content": { "name": "…", … } }] }, or as { "organizations": [{ "name": "…" }] } keyed by table name',
  });
});

test('registered artifacts become gen_ refs with their content; the model\'s own id is ignored', () => {
  const registry = core.createRegistry();
  const { data, error } = registerArtifacts(registry, [{ table: 'recipes', content: { id: 'recipe_99', ...RECIPE } }, { table: 'recipes', content: { name: 'Dal', instructions: ['Simmer'] } }], kitchen);
  assert.equal(error, null);
  assert.deepEqual(data.map((item) => item.ref), ['gen_recipe_1', 'gen_recipe_2']);
  assert.deepEqual(data[0].content, { id: 'gen_recipe_1', ...RECIPE });
  assert.deepEqual(registry.toJSON().refs.map((entry) => entry.ref), ['gen_recipe_1', 'gen_recipe_2']);
  const revised = registerArtifacts(registry, [{ ref: 'gen_recipe_2', content: { name: 'Tadka Dal', instructions: ['Simmer', 'Temper'] } }], kitchen);
  assert.deepEqual(revised, { data: [{ ref: 'gen_recipe_2', table: 'recipes', content: { id: 'gen_recipe_2', name: 'Tadka Dal', instructions: ['Simmer', 'Temper'] } }], error: null });
  assert.deepEqual(registry.toJSON().refs[1].content, { name: 'Tadka Dal', instructions: ['Simmer', 'Temper'] });
  assert.equal(registry.toJSON().refs[1].label, 'Tadka Dal');
  const unknown = registerArtifacts(registry, [{ ref: 'gen_recipe_7', content: { name: 'Ghost' } }], kitchen);
  assert.deepEqual(unknown.data, []);
  assert.equal(unknown.error.code, 'unknown_ref');
  assert.equal(unknown.error.path, 'data.gen_recipe_7');
  registry.promote('gen_recipe_1', 'c69607bb-1111-4111-8111-000000000001');
  const saved = registerArtifacts(registry, [{ ref: 'gen_recipe_1', content: { name: 'Too late' } }], kitchen);
  assert.deepEqual(saved.error, { code: 'unknown_ref', path: 'data.gen_recipe_1', message: 'gen_recipe_1 is not a pending generated artifact', hint: 'it was saved as recipe_1; change the saved row with db_update' });
  // A bad revision is found before a new artifact in the same answer gets a ref.
  const mixed = registerArtifacts(registry, [{ table: 'recipes', content: { name: 'Orphan' } }, { ref: 'gen_recipe_9', content: { name: 'Ghost' } }], kitchen);
  assert.equal(mixed.error.code, 'unknown_ref');
  assert.deepEqual(registry.toJSON().refs.map((entry) => entry.ref), ['gen_recipe_1', 'gen_recipe_2', 'recipe_1']);
  registry.delete();
});

test('core.withoutUuids: known rows become their ref, other UUIDs <id>, text without one is untouched', () => {
  const registry = core.createRegistry();
  registry.translateRows('inventory', [{ id: 'C69607BB-1111-4111-8111-000000000001', name: 'milk' }]);
  const text = 'Key (id)=(c69607bb-1111-4111-8111-000000000001) and 0a1b2c3d-0000-4000-8000-00000000abcd, twice: c69607bb-1111-4111-8111-000000000001';
  assert.equal(core.withoutUuids(text, { registry }), 'Key (id)=(inv_1) and <id>, twice: inv_1');
  assert.equal(core.withoutUuids(text), 'Key (id)=(<id>) and <id>, twice: <id>');
  assert.equal(core.withoutUuids('no ids here', { registry }), 'no ids here');
  // Inside a longer hex run, upper case, next to multi-byte text.
  assert.equal(core.withoutUuids('ÉÉ0C69607BB-1111-4111-8111-000000000001FF ü', { registry }), 'ÉÉ0inv_1FF ü');
  const other = core.createRegistry();
  assert.throws(() => core.withoutUuids(text, { registry: { toJSON: () => ({}) } }), { code: 'invalid_option' });
  registry.delete();
  other.delete();
});

test('turn state: fresh, round-trips through JSON text, refuses damaged or foreign values, keeps a bounded window', () => {
  const fresh = createTurnState();
  assert.deepEqual(readTurnState(undefined), { data: fresh, error: null });
  assert.deepEqual(readTurnState(JSON.stringify(fresh)), { data: fresh, error: null });
  assert.equal(readTurnState('{"turn":1').error.code, 'invalid_state');
  assert.equal(readTurnState({ turn: 1 }).error.code, 'invalid_state');
  assert.equal(readTurnState({ ...fresh, version: 99 }).error.code, 'unsupported_state_version');
  assert.equal(readTurnState({ ...fresh, turn: -1 }).error.code, 'invalid_state');
  let state = fresh;
  for (let turn = 1; turn <= 10; turn += 1) state = nextTurnState(state, { turn, registry: { turn }, userMessage: `q${turn}`, reply: `a${turn}`, steps: [] });
  assert.equal(state.turn, 10);
  assert.deepEqual(state.registry, { turn: 10 });
  assert.deepEqual(state.recentTurns.map((entry) => entry.turn), [9, 10]);
  assert.equal(state.conversation.length, 12);
  assert.deepEqual(state.conversation.at(-1), { role: 'assistant', content: 'a10', turn: 10 });
  assert.deepEqual(JSON.parse(JSON.stringify(state)), state);
});

test('eventsOf yields events in order, rethrows a failure, and cancels the run when the consumer stops', async () => {
  const seen = [];
  for await (const event of eventsOf(async (emit) => {
    emit(1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    emit(2);
  })) seen.push(event);
  assert.deepEqual(seen, [1, 2]);

  await assert.rejects(async () => {
    for await (const _ of eventsOf(async (emit) => {
      emit('x');
      throw new Error('boom');
    }));
  }, /boom/);

  let cancelled = null;
  const run = async (emit, signal) => {
    emit('first');
    await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    cancelled = signal.aborted;
  };
  for await (const event of eventsOf(run)) {
    assert.equal(event, 'first');
    break;
  }
  await new Promise((resolve) => setTimeout(resolve, 5));
  assert.equal(cancelled, true);
});

test('planTurn: strict plan schema request, steps kept, unusable plans and model errors as values', async () => {
  const plan = { steps: [{ description: 'Read inventory in the fridge', type: 'read' }] };
  const server = await startScriptedModel([plan, { steps: [{ description: 'x', type: 'delete_everything' }] }, '{"steps": [', { status: 401, body: { error: { message: 'Incorrect API key' } } }]);
  try {
    const model = createChatModel({ baseUrl: server.baseUrl, model: 'm', apiKey: 'k' });
    const conversation = [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' }];
    assert.deepEqual(await planTurn({ core, model, userMessage: 'what is in my fridge?', conversation, domain: kitchen }), { data: plan.steps, error: null });
    const request = server.requests[0].body;
    assert.equal(request.response_format.json_schema.name, 'turn_plan');
    assert.equal(request.response_format.json_schema.strict, true);
    assert.match(request.messages[0].content, /inventory/);
    assert.match(request.messages[1].content, /User: hi\nAssistant: hello/);
    // A write-only table is named so: no step plans to read it.
    const withFeedback = { ...kitchen, tables: { ...kitchen.tables, feedback: { ref: 'feedback', readable: false, columns: { id: { type: 'uuid', writable: false }, body: { type: 'text', required: true } } } } };
    assert.equal((await planTurn({ core, model, userMessage: 'x', domain: withFeedback })).error.code, 'invalid_plan');
    assert.match(server.requests[1].body.messages[0].content, /, feedback \(write-only: a write step adds rows; no step can read them\)/);
    assert.equal((await planTurn({ core, model, userMessage: 'x', domain: kitchen })).error.code, 'invalid_plan');
    assert.deepEqual((await planTurn({ core, model, userMessage: 'x', domain: kitchen })).error.code, 'http_error');
    // Without the core there is no scrubber: no prompt is sent.
    const used = server.used;
    assert.equal((await planTurn({ model, userMessage: 'x', domain: kitchen })).error.code, 'invalid_option');
    assert.equal((await replyTurn({ model, userMessage: 'x', steps: [] })).error.code, 'invalid_option');
    assert.equal(server.used, used);
  } finally {
    await server.stop();
  }
});

test('replyTurn: plain text from the step results, which are in the request', async () => {
  const server = await startScriptedModel(['You have milk and eggs in the fridge.']);
  try {
    const model = createChatModel({ baseUrl: server.baseUrl, model: 'm' });
    const steps = [
      {
        index: 0,
        type: 'read',
        status: 'complete',
        description: 'Read fridge inventory',
        summary: 'Found 2 items',
        blocked: null,
        generated: [],
        queries: [{ tool: 'db_read', table: 'inventory', data: [{ id: 'inv_1' }, { id: 'inv_2' }], error: null, count: null }],
      },
    ];
    assert.deepEqual(await replyTurn({ core, model, userMessage: 'fridge?', steps }), { data: 'You have milk and eggs in the fridge.', error: null });
    const request = server.requests[0].body;
    assert.equal('response_format' in request, false);
    assert.match(request.messages[1].content, /db_read on inventory: 2 row\(s\)/);
    assert.match(request.messages[1].content, /Summary: Found 2 items/);
  } finally {
    await server.stop();
  }
});

test('regression: the feedback for a write whose outcome is unknown never says it had no effect', () => {
  const unknown = { code: 'write_outcome_unknown', path: '', message: 'db_create on tasks: the outcome is unknown; the request was sent but no answer came (fetch failed)', hint: 'the change may or may not have been made: read the rows (db_read) before trying again' };
  const text = toolErrorFeedback('db_create', unknown);
  assert.equal(
    text,
    [
      'Tool result for db_create: OUTCOME UNKNOWN. The change may or may not have been made.',
      `Error write_outcome_unknown: ${unknown.message}`,
      `Hint: ${unknown.hint}`,
      'Read the rows it would have changed (db_read) to see whether it was made before you write again.',
      'Answer again with one corrected decision, or with "blocked" if the step cannot be done.',
    ].join('\n'),
  );
  assert.doesNotMatch(toolErrorFeedback('db_update', { ...unknown, code: 'internal_error' }), /no effect/);
  // A refusal is still "no effect", and a read never changes anything.
  assert.match(toolErrorFeedback('db_create', { code: 'check_violation', path: '', message: 'm', hint: '' }), /^Tool result for db_create: ERROR\. The call had no effect\./);
  assert.match(toolErrorFeedback('db_read', { code: 'internal_error', path: '', message: 'm', hint: '' }), /no effect/);
});
