// A domain is bound once: loadCore({ domain }) and createAct({ domain }) are
// the only places with a default (the kitchen); a registry carries its
// domain, calls that pass a registry use it, and a different domain next to
// a registry, or a state saved under another domain, is an error instead of
// a silent mix.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { AlfredError, createAct, kitchen, loadCore } from '../../web/src/index.node.js';
import { ROOT } from './support/paths.mjs';

const crm = JSON.parse(readFileSync(join(ROOT, 'domains/crm/domain.json'), 'utf8'));
const USER = 'a1f0ed00-0000-4000-8000-000000000001';
const ORG = '0b6a4c1e-8f2d-4e7a-b3c5-9d1e2f3a4b5c';
const request = { baseUrl: 'http://127.0.0.1:54321', userId: USER };

test('loadCore({ domain }) binds the core: calls without a domain or registry use it', async () => {
  const core = await loadCore({ domain: crm });
  assert.equal(core.domain, crm);
  const { data, error } = core.buildRequest('db_read', { table: 'deals', filters: [{ field: 'stage', op: '=', value: 'won' }] }, request);
  assert.equal(error, null);
  assert.equal(data.url, 'http://127.0.0.1:54321/deals?select=%2A&stage=eq.won', 'row-level security decides: no owner filter');
  assert.equal(core.buildRequest('db_read', { table: 'recipes' }, request).error.message, "'recipes' is not a table of the crm domain");
  assert.equal(core.createRegistry().domain, crm);
  assert.equal((await loadCore()).domain, kitchen, 'the kitchen is the default');
});

test('loadCore with a domain the core refuses rejects with the path into it', async () => {
  await assert.rejects(loadCore({ domain: { tables: { deals: { ref: 'deal', columns: { id: { type: 'serial' } } } } } }), (error) => {
    assert.ok(error instanceof AlfredError);
    assert.deepEqual([error.code, error.path, error.message], ['invalid_domain', 'tables.deals.columns.id.type', "unknown column type 'serial'"]);
    return true;
  });
});

test('a registry carries its domain: its methods and the calls given it use that domain', async () => {
  const core = await loadCore();
  const registry = core.createRegistry(undefined, { domain: crm });
  assert.equal(registry.domain, crm);
  const { data: rows, error } = registry.translateRows('organizations', [{ id: ORG, owner_id: USER, name: 'Acme' }]);
  assert.equal(error, null);
  assert.deepEqual(rows, [{ id: 'org_1', owner_id: 'user_1', name: 'Acme' }], "another user's id (nobody is signed in here) is a user's ref");
  assert.deepEqual(registry.translateRows('organizations', [{ id: ORG, owner_id: USER, name: 'Acme' }], { userId: USER }).data, [{ id: 'org_1', owner_id: 'me', name: 'Acme' }]);
  const built = core.buildRequest('db_update', { table: 'organizations', filters: [{ field: 'id', op: '=', value: 'org_1' }], data: { industry: 'robots' } }, { ...request, registry });
  assert.equal(built.error, null);
  // A write reads back the columns a read would (organizations hides one).
  assert.equal(built.data.url, `http://127.0.0.1:54321/organizations?id=eq.${ORG}&select=${encodeURIComponent('id,owner_id,name,industry,website,employee_count,tags,address,created_at,updated_at')}`);
  assert.equal(registry.registerGenerated('deals', { title: 'Pilot' }).data, 'gen_deal_1');
  // The same domain read again from its file is the same domain.
  assert.equal(core.buildRequest('db_read', { table: 'deals' }, { ...request, registry, domain: JSON.parse(JSON.stringify(crm)) }).error, null);
});

test('a different domain next to a registry is an error, in every call that takes both', async () => {
  const core = await loadCore();
  const registry = core.createRegistry(undefined, { domain: crm });
  const mismatch = {
    code: 'invalid_option',
    path: 'domain',
    message: 'this registry is bound to the crm domain, not kitchen',
    hint: 'a registry serves one domain: createRegistry(state, { domain }) for each',
  };
  assert.deepEqual(core.buildRequest('db_read', { table: 'recipes' }, { ...request, registry, domain: kitchen }), { data: null, error: mismatch });
  assert.deepEqual(core.buildActPrompt({ step: { type: 'read' } }, { registry, domain: kitchen }), { data: null, error: mismatch });
  assert.deepEqual(registry.translateRows('recipes', [], { domain: kitchen }), { data: null, error: mismatch });
  assert.deepEqual(registry.registerGenerated('recipes', { name: 'x' }, { domain: kitchen }), { data: null, error: mismatch });
  assert.throws(() => core.createAct({ url: request.baseUrl, registry, domain: kitchen }), (error) => {
    assert.deepEqual([error.code, error.path, error.message], ['invalid_option', 'registry', 'the registry is bound to the crm domain, not kitchen']);
    return true;
  });
  const act = core.createAct({ url: request.baseUrl, registry });
  assert.equal(act.domain, crm, 'an act takes its registry\'s domain');
});

test('a state saved under one domain does not restore under another', async () => {
  const core = await loadCore();
  const registry = core.createRegistry();
  registry.translateRows('recipes', [{ id: ORG, user_id: USER, name: 'Soup' }]);
  const saved = registry.toJSON();
  assert.throws(() => core.createRegistry(saved, { domain: crm }), (error) => {
    assert.ok(error instanceof AlfredError);
    assert.deepEqual(error.toJSON(), {
      code: 'invalid_state',
      path: 'refs[0]',
      message: 'recipe_1 (table recipes) is not a ref of the crm domain',
      hint: 'this state was saved with another domain: restore it with that domain, or start a new registry',
    });
    return true;
  });
  assert.equal(core.createRegistry(saved).toJSON().refs[0].ref, 'recipe_1');
  // The package-level createAct surfaces it on the first call, as a value.
  const act = createAct({ url: request.baseUrl, domain: crm, state: saved });
  const { error } = await act.execute('db_read', { table: 'deals' });
  assert.equal(error.code, 'invalid_state');
});

test('another user\'s ref (a table of the domain\'s own for users) restores under its domain, user_… or userx_…, and not under another', async () => {
  const core = await loadCore();
  const BOB = 'b0b0b0b0-0000-4000-8000-00000000000b';
  const notes = { ref: 'note', label: ['body'], columns: { id: { type: 'uuid' }, body: { type: 'text' }, assigned_to: { type: 'uuid', references: 'auth.users' } } };
  const people = { ref: 'user', label: ['name'], columns: { id: { type: 'uuid' }, name: { type: 'text' } } };
  const plain = { name: 'team', tables: { notes } };
  const withUserRefs = { name: 'team', tables: { notes, people } };
  for (const [domain, expected] of [[plain, 'user_1'], [withUserRefs, 'userx_1']]) {
    const registry = core.createRegistry(null, { domain });
    const { data } = registry.translateRows('notes', [{ id: ORG, body: 'call the bank', assigned_to: BOB }]);
    assert.equal(data[0].assigned_to, expected);
    const restored = core.createRegistry(registry.toJSON(), { domain });
    assert.equal(restored.toJSON().refs.find((entry) => entry.ref === expected).uuid, BOB);
  }
  const saved = core.createRegistry(null, { domain: plain });
  saved.translateRows('notes', [{ id: ORG, body: 'x', assigned_to: BOB }]);
  // Under a domain that names users another way (userx_…, or a profile table's refs) they are left out, as a
  // restricted act leaves out refs of tables it does not have; the rest of the state restores.
  const refsUnder = (domain) => core.createRegistry(saved.toJSON(), { domain }).toJSON().refs.map((entry) => entry.ref);
  assert.deepEqual(refsUnder(withUserRefs), ['note_1']);
  const profiles = { ref: 'profile', owner: 'id', label: ['name'], columns: { id: { type: 'uuid', writable: false }, name: { type: 'text' } } };
  assert.deepEqual(refsUnder({ name: 'team', tables: { notes, profiles } }), ['note_1']);
  // A ref of a table the domain lacks is still another domain's state.
  assert.throws(() => core.createRegistry(saved.toJSON(), { domain: { name: 'team', tables: { tasks: notes } } }), (error) => error.code === 'invalid_state' && error.message === 'note_1 (table notes) is not a ref of the team domain');
});

test('an act restricted with tables keeps other users\' refs from the state when it names users the same way, and leaves them out when not', async () => {
  const core = await loadCore();
  const BOB = 'b0b0b0b0-0000-4000-8000-00000000000b';
  const notes = { ref: 'note', label: ['body'], columns: { id: { type: 'uuid' }, body: { type: 'text' }, assigned_to: { type: 'uuid', references: 'auth.users' } } };
  const tags = { ref: 'tag', label: ['name'], columns: { id: { type: 'uuid' }, name: { type: 'text' } } };
  const people = { ref: 'user', label: ['name'], columns: { id: { type: 'uuid' }, name: { type: 'text' } } };
  const refsAfter = (domain, tables) => {
    const registry = core.createRegistry(null, { domain });
    registry.translateRows('notes', [{ id: ORG, body: 'call the bank', assigned_to: BOB }]);
    const act = core.createAct({ url: request.baseUrl, domain, tables, state: registry.toJSON() });
    return act.registry.toJSON().refs.map((entry) => entry.ref);
  };
  assert.deepEqual(refsAfter({ name: 'team', tables: { notes, tags } }, ['notes']), ['note_1', 'user_1']);
  // With people (refs user_…) other users are userx_…; without it, user_…: not the same ref, so it is left out.
  assert.deepEqual(refsAfter({ name: 'team', tables: { notes, people } }, ['notes']), ['note_1']);
  assert.deepEqual(refsAfter({ name: 'team', tables: { notes, people } }, ['notes', 'people']), ['note_1', 'userx_1']);
  // The other way: a restricted act's state (user_1) restores into the whole domain (userx_…) without it.
  const domain = { name: 'team', tables: { notes, people } };
  const restricted = core.createAct({ url: request.baseUrl, domain, tables: ['notes'] });
  restricted.registry.translateRows('notes', [{ id: ORG, body: 'x', assigned_to: BOB }]);
  assert.deepEqual(restricted.registry.toJSON().refs.map((entry) => entry.ref), ['note_1', 'user_1']);
  const whole = core.createAct({ url: request.baseUrl, domain, state: restricted.registry.toJSON() });
  assert.deepEqual(whole.registry.toJSON().refs.map((entry) => entry.ref), ['note_1']);
});
