// The safety controls of createAct against the real local stack (PGlite +
// PostgREST 12): read-only acts, table allow-lists, approval of writes with
// previews, maxAffected (PostgREST 12 refuses the max-affected preference,
// so the act counts instead) and the audit trail. Every write is read back
// from the database; every request the act sends is recorded by a real
// fetch that forwards it.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { trace } from '@opentelemetry/api';
import { createAct as createPendingAct, kitchen, loadCore } from '../../web/src/index.node.js';
import { forgetCountingServers } from '../../web/src/act/faults.js';
import { recordingFetch } from './support/recording-fetch.mjs';
import { rest, sharedStack } from './support/stack.mjs';

const stack = sharedStack();
const ada = () => stack().users[0];
let core;
before(async () => {
  core = await loadCore();
});

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const base = (extra = {}) => ({ url: stack().supabaseUrl, apiKey: stack().anonKey, accessToken: ada().token, userId: ada().id, ...extra });

// A real fetch that records each request with the status it got.
function statusFetch({ before: beforeSend } = {}) {
  const sent = [];
  const wrapped = async (url, init = {}) => {
    const entry = { method: init.method ?? 'GET', url: decodeURIComponent(String(url)), status: null };
    sent.push(entry);
    await beforeSend?.(entry);
    const response = await fetch(url, init);
    entry.status = response.status;
    return response;
  };
  wrapped.sent = sent;
  return wrapped;
}

// Inventory rows of ada's at `location` (their own place, so tests do not meet).
async function putRows(location, names) {
  const { status, body } = await rest(stack(), ada().token, 'POST', '/inventory', {
    body: names.map((name) => ({ name, quantity: 1, unit: 'pc', location })),
    prefer: 'return=representation',
  });
  assert.equal(status, 201);
  return body;
}
async function namesAt(location) {
  const { body } = await rest(stack(), ada().token, 'GET', `/inventory?location=eq.${encodeURIComponent(location)}&select=name&order=name`);
  return body.map((row) => row.name);
}
const at = (location, extra = []) => ({ table: 'inventory', filters: [{ field: 'location', op: '=', value: location }, ...extra] });

test('options: each safety option is checked when the act is made, and execute takes the host\'s approval as a boolean only', async () => {
  const refused = (options, path, message) =>
    assert.throws(() => core.createAct(base(options)), (error) => error.code === 'invalid_option' && error.path === path && message.test(error.message));
  refused({ readOnly: 'yes' }, 'readOnly', /readOnly must be true or false, got a string/);
  refused({ tables: [] }, 'tables', /tables must be a non-empty list of table names/);
  refused({ tables: 'inventory' }, 'tables', /got a string/);
  refused({ tables: ['inventory', 'pantry'] }, 'tables', /tables names "pantry", which is not a table of the kitchen domain/);
  refused({ approve: 'always' }, 'approve', /approve must be 'none', 'deletes', 'changes', 'writes' or a function/);
  refused({ maxAffected: -1 }, 'maxAffected', /maxAffected must be a whole number from 0/);
  refused({ maxAffected: 2.5 }, 'maxAffected', /got 2.5/);
  refused({ onAudit: 'console' }, 'onAudit', /onAudit must be a function/);
  refused({ tracer: {} }, 'tracer', /tracer must be an OpenTelemetry Tracer/);
  refused({ readonly: true }, 'readonly', /unknown option readonly/);

  const fetch = recordingFetch();
  const act = core.createAct(base({ fetch, approve: 'deletes' }));
  assert.deepEqual(act.policy, { readOnly: false, tables: null, approve: 'deletes', maxAffected: 50 });
  const { error } = await act.execute('db_delete', at('nowhere'), { approved: 'yes' });
  assert.deepEqual([error.code, error.path, error.message], ['invalid_option', 'approved', 'approved must be true or false, got a string']);
  // A model cannot approve: `approved` in the tool arguments is an unknown parameter.
  const { error: forged } = await act.execute('db_delete', { ...at('nowhere'), approved: true });
  assert.equal(forged.code, 'unknown_param');
  assert.equal(fetch.requests.length, 0);
});

test('readOnly: the tools offer the reading ones only (db_read, db_aggregate), writes are read_only before any request, reads still run', async () => {
  await putRows('ro-shelf', ['ro tea']);
  const fetch = recordingFetch();
  const audit = [];
  const act = core.createAct(base({ fetch, readOnly: true, onAudit: (entry) => audit.push(entry) }));
  assert.deepEqual(act.tools().map((tool) => tool.name), ['db_read', 'db_aggregate']);
  assert.deepEqual(act.tools({ strict: true }).map((tool) => tool.name), ['db_read', 'db_aggregate']);
  assert.deepEqual(core.toolDefinitions({ readOnly: true }), act.tools());
  assert.equal(core.toolDefinitions().length, 5);

  const calls = [
    ['db_create', { table: 'inventory', data: { name: 'ro coffee', quantity: 1, unit: 'pc', location: 'ro-shelf' } }],
    ['db_update', { ...at('ro-shelf'), data: { quantity: 9 } }],
    ['db_delete', at('ro-shelf')],
  ];
  for (const [tool, params] of calls) {
    const result = await act.execute(tool, params);
    assert.deepEqual(result, {
      data: null,
      error: { code: 'read_only', path: '', message: `this assistant may only read: ${tool} is refused and nothing was sent`, hint: 'use db_read; tell the user that changes cannot be made here' },
      query: null,
      count: null,
    });
  }
  assert.equal(fetch.requests.length, 0, 'nothing was sent');
  const viaTool = await act.callTool('db_delete', JSON.stringify(at('ro-shelf')));
  assert.deepEqual([viaTool.ok, viaTool.error.code], [false, 'read_only']);
  const read = await act.execute('db_read', { ...at('ro-shelf'), columns: ['name', 'quantity'] });
  assert.deepEqual(read.data.map(({ name, quantity }) => ({ name, quantity })), [{ name: 'ro tea', quantity: 1 }]);
  assert.equal(fetch.requests.length, 1);
  assert.deepEqual(await namesAt('ro-shelf'), ['ro tea']);
  // One entry per refused call, one per request sent.
  assert.deepEqual(audit.map((entry) => [entry.tool, entry.request?.method ?? null, entry.error]), [
    ['db_create', null, 'read_only'], ['db_update', null, 'read_only'], ['db_delete', null, 'read_only'], ['db_delete', null, 'read_only'], ['db_read', 'GET', null],
  ]);
});

test('tables: other tables are in no schema, tool or prompt, and are unknown_table without a request', async () => {
  const fetch = recordingFetch();
  const act = core.createAct(base({ fetch, tables: ['inventory', 'shopping_list'] }));
  const full = core.createAct(base());
  assert.deepEqual(Object.keys(act.domain.tables), ['inventory', 'shopping_list']);
  assert.deepEqual(act.domain.tables.inventory.hidden, ['ingredient_id'], 'the foreign key to ingredients is gone from the rows');
  assert.equal(act.domain.tables.inventory.middleware, undefined);
  assert.equal(act.domain.tables.inventory.columns.ingredient_id, undefined);

  const removed = Object.keys(kitchen.tables).filter((name) => !['inventory', 'shopping_list'].includes(name));
  const prefixes = removed.map((name) => kitchen.tables[name].ref);
  const input = { step: { type: 'write', description: 'Tidy up', index: 0, total: 1 }, user_message: 'tidy my kitchen', today: '2026-02-09' };
  const textsOf = (subject) => {
    const prompt = core.buildActPrompt(input, { registry: subject.registry, domain: subject.domain });
    assert.equal(prompt.error, null);
    return {
      tools: JSON.stringify(subject.tools()) + JSON.stringify(subject.tools({ strict: true })),
      prompt: prompt.data.system + prompt.data.user + core.schemaDescription({ domain: subject.domain }).data + JSON.stringify(core.promptExamples(subject.domain).data),
    };
  };
  const restricted = textsOf(act);
  const unrestricted = textsOf(full);
  for (const name of removed) {
    const word = new RegExp(`\\b${name}\\b`);
    assert.ok(word.test(unrestricted.tools), `the full act's tools name ${name} (the check can fail)`);
    assert.ok(!word.test(restricted.tools), `the tools name ${name}`);
    // The prompt's own English says "the user's profile and preferences": a table shows as a heading, a value or a link.
    for (const shape of [`### ${name}`, `"${name}"`, `→ ${name}`, `${name}(`, `\`${name}\``]) {
      assert.ok(!restricted.prompt.includes(shape), `the prompt names ${name} (${shape})`);
    }
  }
  for (const prefix of prefixes) assert.doesNotMatch(restricted.prompt + restricted.tools, new RegExp(`\\b${prefix}_(\\d|N)\\b`));
  assert.match(unrestricted.prompt, /### recipes/);

  for (const [tool, params] of [['db_read', { table: 'recipes' }], ['db_delete', { table: 'meal_plans', filters: [{ field: 'id', op: '=', value: 'meal_1' }] }]]) {
    const { error } = await act.execute(tool, params);
    assert.deepEqual([error.code, error.path, error.hint], ['unknown_table', 'table', 'one of: inventory, shopping_list']);
  }
  assert.equal(fetch.requests.length, 0);
  // Rows come without the hidden column: the read selects the visible columns only.
  const { data } = await act.execute('db_read', { table: 'inventory', filters: [{ field: 'name', op: '=', value: 'milk' }] });
  assert.ok(data.length >= 1);
  assert.ok(data.every((row) => !('ingredient_id' in row) && !('_ingredient_id_label' in row)));
  assert.doesNotMatch(new URL(fetch.requests[0].url).searchParams.get('select'), /ingredient_id|\*/);

  // The package-level createAct names the restricted domain before the core is loaded, and after.
  const pending = createPendingAct(base({ tables: ['inventory'] }));
  assert.deepEqual(Object.keys(pending.domain.tables), ['inventory']);
  assert.deepEqual(Object.keys((await pending.ready).domain.tables), ['inventory']);
});

test('tables: a state with refs of other tables restores without them; a kept table whose key points at one left out is refused', async () => {
  const full = core.createAct(base());
  await full.execute('db_read', { table: 'recipes', limit: 1, columns: ['id', 'name'] });
  await full.execute('db_read', { table: 'inventory', limit: 1, columns: ['id', 'name'] });
  const state = full.registry.toJSON();
  assert.deepEqual([...new Set(state.refs.map((entry) => entry.table))].sort(), ['inventory', 'recipes']);
  const act = core.createAct(base({ tables: ['inventory'], state: JSON.stringify(state) }));
  assert.deepEqual([...new Set(act.registry.toJSON().refs.map((entry) => entry.table))], ['inventory']);
  assert.throws(() => core.createAct(base({ tables: ['inventory'], registry: full.registry })), (error) => error.code === 'invalid_option' && error.path === 'registry');
  // Without tables the same state restores whole.
  assert.equal(core.createAct(base({ state })).registry.toJSON().refs.length, state.refs.length);
  // recipe_ingredients is keyed on its own id, so it stands without recipes; its recipe_id goes.
  assert.deepEqual(core.createAct(base({ tables: ['recipe_ingredients'] })).domain.tables.recipe_ingredients.hidden, ['recipe_id', 'ingredient_id']);
  const joined = { name: 'joined', tables: {
    teams: { ref: 'team', label: ['name'], columns: { id: { type: 'uuid', writable: false }, name: { type: 'text' } } },
    members: { ref: 'mem', key: ['team_id', 'user_id'], columns: { team_id: { type: 'uuid', references: 'teams' }, user_id: { type: 'uuid', references: 'auth.users' } } },
  } };
  assert.equal(core.validateDomain(joined).error, null);
  assert.throws(() => core.createAct(base({ domain: joined, tables: ['members'] })), /members's key column team_id points at teams, which tables leaves out/);
});

test("approve 'deletes': the delete is held with a preview and sends no write; approved, it runs on exactly the previewed rows", async () => {
  await putRows('held-box', ['held apple', 'held pear']);
  const fetch = statusFetch();
  const act = core.createAct(base({ fetch, approve: 'deletes', maxAffected: 0 }));
  const held = await act.execute('db_delete', at('held-box'));
  assert.equal(held.data, null);
  assert.deepEqual(Object.keys(held.error), ['code', 'path', 'message', 'hint', 'preview']);
  assert.equal(held.error.code, 'approval_required');
  assert.equal(held.error.message, "deleting 2 rows of inventory needs the user's approval; nothing was changed");
  const { preview } = held.error;
  assert.deepEqual([preview.tool, preview.table, preview.count], ['db_delete', 'inventory', 2]);
  assert.deepEqual(preview.rows.map((row) => Object.keys(row)), [['id', 'name'], ['id', 'name']]);
  assert.deepEqual(preview.rows.map((row) => row.name).sort(), ['held apple', 'held pear']);
  assert.deepEqual(preview.keys, preview.rows.map((row) => row.id));
  assert.deepEqual(fetch.sent.map((request) => request.method), ['GET'], 'one read, no write');
  assert.match(fetch.sent[0].url, /location=eq\.held-box/);
  assert.deepEqual(await namesAt('held-box'), ['held apple', 'held pear']);
  // The model reads what the delete would do, without the keys the host checks against.
  const forModel = core.toolResult('db_delete', held, { registry: act.registry });
  assert.deepEqual(forModel.error.preview, { tool: 'db_delete', table: 'inventory', count: 2, rows: preview.rows });
  // Updates are not held under 'deletes'.
  const updated = await act.execute('db_update', { ...at('held-box'), data: { quantity: 3 } });
  assert.equal(updated.error, null);
  assert.equal(updated.data.length, 2);

  fetch.sent.length = 0;
  const done = await act.execute('db_delete', at('held-box'), { approved: true });
  assert.equal(done.error, null);
  assert.deepEqual(done.data.map((row) => row.name).sort(), ['held apple', 'held pear']);
  assert.deepEqual(fetch.sent.map((request) => request.method), ['GET', 'DELETE']);
  assert.match(fetch.sent[1].url, /&id=in\.\([0-9a-f-]{36},[0-9a-f-]{36}\)/, 'restricted to the previewed rows');
  assert.deepEqual(await namesAt('held-box'), []);
  assert.match(core.renderQuery(done.query).data, new RegExp(`Filters: location = held-box, id in \\[${preview.keys.join(', ')}\\]`));
});

test('approval: a preview that changed is refused (preview_changed) and nothing is deleted; rows added after the re-read are out of reach', async () => {
  await putRows('shift-box', ['shift one']);
  const act = core.createAct(base({ approve: 'deletes', maxAffected: 0 }));
  const held = await act.execute('db_delete', at('shift-box'));
  assert.equal(held.error.preview.count, 1);
  await putRows('shift-box', ['shift two']);
  const changed = await act.execute('db_delete', at('shift-box'), { approved: true });
  assert.equal(changed.error.code, 'preview_changed');
  assert.equal(changed.error.message, 'deleting rows of inventory would now change 1 row the approved preview did not show (2 now, 1 approved); nothing was changed');
  assert.equal(changed.error.preview.count, 2);
  assert.deepEqual(await namesAt('shift-box'), ['shift one', 'shift two']);

  // Approved again (the new preview is the one kept): a row that appears
  // between the re-read and the write is not deleted.
  const fetch = statusFetch({
    before: async (request) => {
      if (request.method === 'DELETE') await putRows('shift-box', ['shift late']);
    },
  });
  const racing = core.createAct(base({ fetch, approve: 'deletes', maxAffected: 0, state: act.registry.toJSON() }));
  const done = await racing.execute('db_delete', at('shift-box'), { approved: true, preview: changed.error.preview });
  assert.equal(done.error, null);
  assert.deepEqual(done.data.map((row) => row.name).sort(), ['shift one', 'shift two']);
  assert.deepEqual(await namesAt('shift-box'), ['shift late']);
});

test('approval without the act that made the preview: the host passes it back, or the write is restricted to the rows read when it runs', async () => {
  await putRows('lost-box', ['lost cup']);
  const first = core.createAct(base({ approve: 'deletes' }));
  const { error } = await first.execute('db_delete', at('lost-box'));
  const state = first.registry.toJSON();
  // A stateless host: a new act from the saved state, the preview it showed.
  await putRows('lost-box', ['lost lid']);
  const second = core.createAct(base({ approve: 'deletes', state }));
  const changed = await second.execute('db_delete', at('lost-box'), { approved: true, preview: error.preview });
  assert.equal(changed.error.code, 'preview_changed');
  const wrong = await second.execute('db_delete', at('lost-box'), { approved: true, preview: { ...error.preview, table: 'shopping_list' } });
  assert.deepEqual([wrong.error.code, wrong.error.path], ['invalid_option', 'preview']);
  // Without a preview the approval covers the rows the call selects when it runs.
  const third = core.createAct(base({ approve: 'deletes', state }));
  const done = await third.execute('db_delete', at('lost-box'), { approved: true });
  assert.equal(done.error, null);
  assert.deepEqual(done.data.map((row) => row.name).sort(), ['lost cup', 'lost lid']);
  assert.deepEqual(await namesAt('lost-box'), []);
});

test("approve 'writes': a create is held with its rows as given; an approve function decides, and a denial or a throw sends no write", async () => {
  const fetch = recordingFetch();
  const act = core.createAct(base({ fetch, approve: 'writes' }));
  const data = [{ name: 'writ jam', quantity: 2, unit: 'jar', location: 'writ-shelf' }];
  const held = await act.execute('db_create', { table: 'inventory', data });
  assert.deepEqual(held.error.preview, { tool: 'db_create', table: 'inventory', count: 1, rows: data });
  assert.equal(fetch.requests.length, 0, 'a create needs no read to preview');
  // A call the core refuses is refused as such, not put to the user.
  const invalid = await act.execute('db_create', { table: 'inventory', data: { name: 'writ', quantity: 1 } });
  assert.equal(invalid.error.code, 'missing_column');
  // A stateless host passes the create's preview back: nothing to compare, it runs.
  const created = await core.createAct(base({ approve: 'writes' })).execute('db_create', { table: 'inventory', data }, { approved: true, preview: held.error.preview });
  assert.equal(created.error, null);
  assert.deepEqual(await namesAt('writ-shelf'), ['writ jam']);

  const asked = [];
  const answers = { 'writ jam': true, 'writ honey': false };
  const deciding = core.createAct(base({
    approve: async (call, preview) => {
      asked.push([call.tool, call.table, preview.count]);
      if (call.params.data?.name === 'writ salt') throw new Error('the approval dialog closed');
      const name = preview.rows[0]?.name ?? call.params.data?.name;
      return answers[name];
    },
  }));
  const denied = await deciding.execute('db_create', { table: 'inventory', data: { name: 'writ honey', quantity: 1, unit: 'jar', location: 'writ-shelf' } });
  assert.deepEqual([denied.error.code, denied.error.message], ['approval_required', 'the user denied creating 1 row of inventory; nothing was changed']);
  const failed = await deciding.execute('db_create', { table: 'inventory', data: { name: 'writ salt', quantity: 1, unit: 'jar', location: 'writ-shelf' } });
  assert.equal(failed.error.message, "creating 1 row of inventory needs the user's approval, and asking for it failed (the approval dialog closed); nothing was changed");
  const removed = await deciding.execute('db_delete', { ...at('writ-shelf'), filters: [...at('writ-shelf').filters, { field: 'name', op: '=', value: 'writ jam' }] });
  assert.equal(removed.error, null);
  assert.deepEqual(asked, [['db_create', 'inventory', 1], ['db_create', 'inventory', 1], ['db_delete', 'inventory', 1]]);
  assert.deepEqual(await namesAt('writ-shelf'), []);
});

test('maxAffected on PostgREST 12: the strict preference is refused (PGRST122, nothing written), the act counts from then on and stops a too-wide delete', async () => {
  forgetCountingServers(); // a fresh process: the server not yet seen
  const names = Array.from({ length: 6 }, (_, i) => `wide ${i}`);
  await putRows('wide-box', names);
  const fetch = statusFetch();
  const act = core.createAct(base({ fetch, maxAffected: 5 }));
  const wide = await act.execute('db_delete', at('wide-box'));
  assert.deepEqual([wide.error.code, wide.error.path, wide.error.message], [
    'too_many_rows', 'filters', 'this delete would change 6 rows of inventory, over the limit of 5 (maxAffected); nothing was changed',
  ]);
  assert.match(wide.error.hint, /^narrow the filters to the rows meant .*, or change at most 5 rows per call$/);
  assert.deepEqual(fetch.sent.map((request) => [request.method, request.status]), [['DELETE', 400], ['GET', 206]]);
  assert.deepEqual(await namesAt('wide-box'), names);
  // The act counts from now on: no second try of the preference.
  fetch.sent.length = 0;
  const narrow = await act.execute('db_delete', at('wide-box', [{ field: 'name', op: 'in', value: ['wide 0', 'wide 1'] }]));
  assert.equal(narrow.error, null);
  // The count reads the keys of the rows it counts (all of them: 200), and the delete is restricted to them.
  assert.deepEqual(fetch.sent.map((request) => [request.method, request.status]), [['GET', 200], ['DELETE', 200]]);
  assert.match(fetch.sent[1].url, /&id=in\.\([0-9a-f-]{36},[0-9a-f-]{36}\)/);
  assert.match(core.renderQuery(narrow.query).data, /2 rows counted before changing them \(at most 5\)/);
  assert.deepEqual(await namesAt('wide-box'), names.slice(2));
  // A write that names its rows by ref cannot change more than it names: no count, one request.
  const listed = await act.callTool('db_read', at('wide-box', [{ field: 'name', op: 'in', value: ['wide 2', 'wide 3', 'wide 4'] }]));
  const refOf = (name) => listed.rows.find((row) => row.name === name).id;
  fetch.sent.length = 0;
  const byRef = await act.execute('db_delete', { table: 'inventory', filters: [{ field: 'id', op: '=', value: refOf('wide 2') }] });
  assert.deepEqual([byRef.error, byRef.count], [null, 1]);
  assert.deepEqual(fetch.sent.map((request) => [request.method, request.status]), [['DELETE', 200]]);
  assert.doesNotMatch(core.renderQuery(byRef.query).data, /counted/);
  assert.deepEqual(await namesAt('wide-box'), names.slice(3));
  // More refs than the limit: counted first, as any other filter.
  fetch.sent.length = 0;
  const tight = core.createAct(base({ fetch, maxAffected: 1, state: act.registry.toJSON() }));
  const twoRefs = await tight.execute('db_update', { table: 'inventory', filters: [{ field: 'id', op: 'in', value: [refOf('wide 3'), refOf('wide 4')] }], data: { quantity: 9 } });
  assert.equal(twoRefs.error.code, 'too_many_rows');
  assert.deepEqual(fetch.sent.map((request) => [request.method, request.status]), [['GET', 206]]);
  // maxAffected: 0 sends neither the preference nor a count.
  const unlimited = statusFetch();
  const off = core.createAct(base({ fetch: unlimited, maxAffected: 0 }));
  const all = await off.execute('db_update', { ...at('wide-box'), data: { quantity: 7 } });
  assert.equal(all.data.length, 3);
  assert.deepEqual(unlimited.sent.map((request) => request.method), ['PATCH']);
});

test('maxAffected: the first update of an act sends Prefer: handling=strict, max-affected=N, then runs the call again by count', async () => {
  forgetCountingServers(); // a fresh process: the server not yet seen
  await putRows('pref-box', ['pref a', 'pref b']);
  const fetch = recordingFetch();
  const act = core.createAct(base({ fetch }));
  const result = await act.execute('db_update', { ...at('pref-box'), data: { quantity: 4 } });
  assert.equal(result.error, null);
  assert.equal(result.data.length, 2);
  assert.deepEqual(fetch.requests.map((request) => [request.method, request.headers.prefer]), [
    ['PATCH', 'handling=strict, max-affected=50, return=representation'],
    ['GET', 'count=exact'],
    ['PATCH', 'return=representation'],
  ]);
  const { body } = await rest(stack(), ada().token, 'GET', '/inventory?location=eq.pref-box&select=quantity');
  assert.deepEqual(body, [{ quantity: 4 }, { quantity: 4 }]);
  // A later act on the same server (a worker makes one per request) counts from its first write.
  const laterFetch = recordingFetch();
  const later = core.createAct(base({ fetch: laterFetch }));
  assert.equal((await later.execute('db_update', { ...at('pref-box'), data: { quantity: 5 } })).error, null);
  assert.deepEqual(laterFetch.requests.map((request) => [request.method, request.headers.prefer]), [
    ['GET', 'count=exact'],
    ['PATCH', 'return=representation'],
  ]);
  // A fresh process whose first request is an update by ref (an act restored from a saved state, as a worker's is):
  // it cannot change more rows than it names, so it carries no preference for PostgREST 12 to refuse, and no count.
  const refs = await later.callTool('db_read', { ...at('pref-box'), columns: ['name'] });
  forgetCountingServers();
  const coldFetch = recordingFetch();
  const cold = core.createAct(base({ fetch: coldFetch, state: later.registry.toJSON() }));
  const byRef = await cold.execute('db_update', { table: 'inventory', filters: [{ field: 'id', op: '=', value: refs.rows[0].id }], data: { quantity: 6 } });
  assert.deepEqual([byRef.error, byRef.count], [null, 1]);
  assert.deepEqual(coldFetch.requests.map((request) => [request.method, request.headers.prefer]), [['PATCH', 'return=representation']]);
});

test('maxAffected on PostgREST 12 is learnt once per server, not per act: any answer names the version, and a later act\'s first update counts with no refused request', async () => {
  forgetCountingServers(); // a fresh process: the server not yet seen
  await putRows('once-box', ['once a']);
  // One act per request: the first only reads.
  const reader = core.createAct(base({ fetch: statusFetch() }));
  assert.equal((await reader.execute('db_read', at('once-box'))).error, null);
  const fetch = statusFetch();
  const audit = [];
  const writer = core.createAct(base({ fetch, onAudit: (entry) => audit.push(entry) }));
  const updated = await writer.execute('db_update', { ...at('once-box'), data: { quantity: 2 } });
  assert.equal(updated.error, null);
  assert.deepEqual(fetch.sent.map((request) => [request.method, request.status]), [['GET', 200], ['PATCH', 200]]);
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.deepEqual(audit.map((entry) => [entry.request.method, entry.status, entry.error]), [['GET', 200, null], ['PATCH', 200, null]], 'no failed write in the audit trail');
});

test('maxAffected by count restricts the write to the rows counted: a row that starts matching between the count and the write is not changed', async () => {
  forgetCountingServers();
  await putRows('gap-box', ['gap a', 'gap b']);
  // The server is seen first; then a row is added right after the count.
  assert.equal((await core.createAct(base()).execute('db_read', at('gap-box'))).error, null);
  const fetch = statusFetch({
    before: async (entry) => {
      if (entry.method === 'PATCH') await putRows('gap-box', ['gap late']);
    },
  });
  const act = core.createAct(base({ fetch, maxAffected: 5 }));
  const updated = await act.execute('db_update', { ...at('gap-box'), data: { quantity: 9 } });
  assert.equal(updated.error, null);
  assert.deepEqual(updated.data.map((row) => row.name).sort(), ['gap a', 'gap b']);
  assert.match(fetch.sent[1].url, /&id=in\.\([0-9a-f-]{36},[0-9a-f-]{36}\)/);
  const { body } = await rest(stack(), ada().token, 'GET', '/inventory?location=eq.gap-box&select=name,quantity&order=name');
  assert.deepEqual(body, [{ name: 'gap a', quantity: 9 }, { name: 'gap b', quantity: 9 }, { name: 'gap late', quantity: 1 }]);
  // A count of no row sends no write.
  fetch.sent.length = 0;
  const none = await act.execute('db_delete', at('no-such-box'));
  assert.deepEqual([none.error, none.count, fetch.sent.map((request) => request.method)], [null, 0, ['GET']]);
});

test('onAudit: one entry per request sent and per refused call, params with refs and never UUIDs; a throwing or stalled hook changes nothing', async () => {
  const [row] = await putRows('audit-box', ['audit fig']);
  const entries = [];
  const fetch = statusFetch();
  const act = core.createAct(base({ fetch, approve: 'deletes', maxAffected: 0, onAudit: (entry) => entries.push(entry) }));
  const read = await act.execute('db_read', { ...at('audit-box'), columns: ['id', 'name'] });
  const ref = read.data[0].id;
  await act.execute('db_delete', { table: 'inventory', filters: [{ field: 'id', op: '=', value: ref }] });
  // A raw UUID from the model: refused, and the entry shows its ref, not the UUID.
  await act.execute('db_update', { table: 'inventory', filters: [{ field: 'id', op: '=', value: row.id }], data: { quantity: 2 } });
  await act.execute('db_delete', { table: 'inventory', filters: [{ field: 'id', op: '=', value: ref }] }, { approved: true });

  assert.equal(entries.filter((entry) => entry.request).length, fetch.sent.length, 'one entry per request sent');
  assert.deepEqual(entries.map((entry) => [entry.tool, entry.request?.method ?? null, entry.status, entry.affected, entry.error, entry.approved]), [
    ['db_read', 'GET', 200, null, null, null],
    ['db_delete', 'GET', 200, null, null, false],
    ['db_delete', null, null, null, 'approval_required', false],
    ['db_update', null, null, null, 'raw_id', null],
    ['db_delete', 'GET', 200, null, null, true],
    ['db_delete', 'DELETE', 200, 1, null, true],
  ]);
  for (const entry of entries) {
    assert.deepEqual(Object.keys(entry), ['at', 'userId', 'tool', 'table', 'params', 'request', 'status', 'affected', 'ms', 'error', 'approved']);
    assert.doesNotMatch(JSON.stringify(entry.params), UUID);
    assert.equal(entry.userId, ada().id);
    assert.equal(entry.table, 'inventory');
    assert.ok(!Number.isNaN(Date.parse(entry.at)));
    assert.ok(Number.isInteger(entry.ms) && entry.ms >= 0);
  }
  assert.deepEqual(entries[3].params.filters[0], { field: 'id', op: '=', value: ref }, 'the UUID the model wrote shows as its ref');
  assert.deepEqual(entries[5].request.path, '/rest/v1/inventory');
  assert.match(entries[5].request.query, /^user_id=eq\.[0-9a-f-]{36}&id=eq\.[0-9a-f-]{36}&id=in\.%28[0-9a-f-]{36}%29&select=%2A$/);
  assert.deepEqual(await namesAt('audit-box'), []);

  // Hooks that throw, reject or never settle: the calls give the same results.
  await putRows('audit-box', ['audit plum']);
  for (const onAudit of [() => { throw new Error('audit sink down'); }, () => Promise.reject(new Error('audit sink down')), () => new Promise(() => {})]) {
    const hooked = core.createAct(base({ onAudit, maxAffected: 0 }));
    const plain = core.createAct(base({ maxAffected: 0 }));
    const [a, b] = [await hooked.execute('db_read', { ...at('audit-box'), columns: ['name'] }), await plain.execute('db_read', { ...at('audit-box'), columns: ['name'] })];
    assert.deepEqual(a, b);
    const updated = await hooked.execute('db_update', { ...at('audit-box'), data: { quantity: 5 } });
    assert.equal(updated.error, null);
  }
  const { body } = await rest(stack(), ada().token, 'GET', '/inventory?location=eq.audit-box&select=name,quantity');
  assert.deepEqual(body, [{ name: 'audit plum', quantity: 5 }]);
});

// A tracer as @opentelemetry/api's Tracer interface has it, recording spans.
function recordingTracer() {
  const spans = [];
  return {
    spans,
    startSpan(name, options) {
      const span = { name, kind: options?.kind, attributes: { ...options?.attributes }, events: [], status: null, ended: false };
      spans.push(span);
      return {
        setAttribute: (key, value) => { span.attributes[key] = value; },
        addEvent: (event, attributes) => { span.events.push([event, attributes]); },
        setStatus: (status) => { span.status = status; },
        end: () => { span.ended = true; },
      };
    },
  };
}

test('tracer: a span per call with an event per request; the Node entry uses @opentelemetry/api\'s global tracer', async () => {
  await putRows('span-box', ['span kiwi']);
  const tracer = recordingTracer();
  const act = core.createAct(base({ tracer, readOnly: true }));
  await act.execute('db_read', { ...at('span-box'), columns: ['name'] });
  await act.execute('db_delete', at('span-box'));
  assert.deepEqual(tracer.spans.map((span) => [span.name, span.kind, span.attributes['alfred.tool'], span.attributes['alfred.table'], span.attributes['alfred.requests'], span.attributes['alfred.error'], span.status, span.ended]), [
    ['alfred-act db_read', 2, 'db_read', 'inventory', 1, undefined, { code: 1 }, true],
    ['alfred-act db_delete', 2, 'db_delete', 'inventory', 0, 'read_only', { code: 2, message: 'read_only' }, true],
  ]);
  assert.deepEqual(tracer.spans[0].events.map(([name, attributes]) => [name, attributes['http.request.method'], attributes['url.path'], attributes['http.response.status_code']]), [['request', 'GET', '/rest/v1/inventory', 200]]);

  // The real API package: a provider registered globally gets the spans of an act made without a tracer.
  const global = recordingTracer();
  assert.equal(trace.setGlobalTracerProvider({ getTracer: () => global }), true);
  try {
    const loaded = await loadCore();
    const traced = loaded.createAct(base());
    await traced.execute('db_read', { ...at('span-box'), columns: ['name'] });
    assert.deepEqual(global.spans.map((span) => [span.name, span.attributes['alfred.requests'], span.ended]), [['alfred-act db_read', 1, true]]);
    // A tracer that throws is ignored.
    const broken = { startSpan() { throw new Error('exporter down'); } };
    const result = await core.createAct(base({ tracer: broken })).execute('db_read', { ...at('span-box'), columns: ['name'] });
    assert.deepEqual(result.data.map((row) => row.name), ['span kiwi']);
  } finally {
    trace.disable();
  }
});
