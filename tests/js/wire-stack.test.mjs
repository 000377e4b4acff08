// buildRequest's output sent as it is to the real PostgREST of the local
// stack, the database read back. The request tests (tests/core/postgrest/request_test.cpp,
// tests/js/differential.test.mjs) pin what is built; this file checks that the
// server does with it what was meant: a create, an update and a delete by ref,
// and the cases where the wire form departs from postgrest-js
// (docs/postgrest-wire.md#where-postgrest-js-differs), where postgrest-js's
// request for the same operation is sent too and shown to miss.
//
// The rows belong to a user of their own, so every read has an exact answer.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PostgrestClient } from '@supabase/postgrest-js';
import { loadCore } from '../../web/src/index.node.js';
import { rest, sharedStack } from './support/stack.mjs';

const stack = sharedStack({ users: [{ email: 'wire@example.test', password: 'wire-password' }] });
const wire = () => stack().users[0];

let core;
let registry;
before(async () => {
  core = await loadCore();
  registry = core.createRegistry();
});

/** buildRequest for the wire user, sent with fetch: `{ request, status, body }`. */
async function send(tool, params) {
  const { data: request, error } = core.buildRequest(tool, params, {
    registry,
    userId: wire().id,
    baseUrl: stack().url,
    apiKey: stack().anonKey,
    accessToken: wire().token,
  });
  assert.equal(error, null, `buildRequest refused ${tool}: ${JSON.stringify(error)}`);
  const response = await fetch(request.url, { method: request.method, headers: request.headers, body: request.body ?? undefined });
  const text = await response.text();
  return { request, status: response.status, body: text === '' ? null : JSON.parse(text) };
}

/** The same operation through postgrest-js against the same server, as the wire user. */
function postgrestJs() {
  return new PostgrestClient(stack().url, { headers: { apikey: stack().anonKey, Authorization: `Bearer ${wire().token}` } });
}

/** The wire user's rows of `table` as the database holds them (`select`, ordered by name). */
async function stored(table, select, filter = '') {
  const { status, body } = await rest(stack(), wire().token, 'GET', `/${table}?select=${select}&order=name.asc${filter}`);
  assert.equal(status, 200, JSON.stringify(body));
  return body;
}

const names = (rows) => rows.map((row) => row.name).sort();

/** Creates inventory rows through buildRequest; resolves to their refs, in order. */
async function createInventory(rows) {
  const { status, body } = await send('db_create', { table: 'inventory', data: rows });
  assert.equal(status, 201, JSON.stringify(body));
  const { data, error } = registry.translateRows('inventory', body);
  assert.equal(error, null);
  return data.map((row) => row.id);
}

describe('create, update and delete by ref', () => {
  test('a create is stored for its owner; an update and a delete by ref change exactly that row', async () => {
    const [ref] = await createInventory([{ name: 'wire flour', quantity: 2, unit: 'kg', location: 'pantry' }]);
    const [other] = await createInventory([{ name: 'wire sugar', quantity: 1, unit: 'kg', location: 'pantry' }]);
    assert.match(ref, /^inv_\d+$/);
    assert.deepEqual(await stored('inventory', 'name,quantity,unit,location,user_id', '&name=like.wire*'), [
      { name: 'wire flour', quantity: 2, unit: 'kg', location: 'pantry', user_id: wire().id },
      { name: 'wire sugar', quantity: 1, unit: 'kg', location: 'pantry', user_id: wire().id },
    ]);

    const updated = await send('db_update', { table: 'inventory', filters: [{ field: 'id', op: '=', value: ref }], data: { quantity: 5, location: 'shelf' } });
    assert.equal(updated.request.method, 'PATCH');
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assert.deepEqual(updated.body.map((row) => [row.name, row.quantity, row.location]), [['wire flour', 5, 'shelf']]);
    assert.deepEqual(await stored('inventory', 'name,quantity,location', '&name=like.wire*'), [
      { name: 'wire flour', quantity: 5, location: 'shelf' },
      { name: 'wire sugar', quantity: 1, location: 'pantry' },
    ]);

    const deleted = await send('db_delete', { table: 'inventory', filters: [{ field: 'id', op: '=', value: ref }] });
    assert.equal(deleted.request.method, 'DELETE');
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    assert.deepEqual(names(deleted.body), ['wire flour']);
    assert.deepEqual(await stored('inventory', 'name', '&name=like.wire*'), [{ name: 'wire sugar' }]);
    await send('db_delete', { table: 'inventory', filters: [{ field: 'id', op: '=', value: other }] });
    assert.deepEqual(await stored('inventory', 'name', '&name=like.wire*'), []);
  });

  test("another user's token with the same request changes nothing (row-level security)", async () => {
    const [ref] = await createInventory([{ name: 'wire honey', quantity: 1, unit: 'jar' }]);
    const { data: request } = core.buildRequest('db_delete', { table: 'inventory', filters: [{ field: 'id', op: '=', value: ref }] }, {
      registry, userId: wire().id, baseUrl: stack().url, apiKey: stack().anonKey, accessToken: wire().token,
    });
    const ada = stack().users[1];
    const response = await fetch(request.url, { method: 'DELETE', headers: { ...request.headers, Authorization: `Bearer ${ada.token}` } });
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), []);
    assert.deepEqual(await stored('inventory', 'name', '&name=eq.wire%20honey'), [{ name: 'wire honey' }]);
    await send('db_delete', { table: 'inventory', filters: [{ field: 'id', op: '=', value: ref }] });
  });
});

describe('where the wire form departs from postgrest-js, against the real server', () => {
  const ROWS = [
    { name: 'he said "a,b"', quantity: 1, unit: 'pcs', location: 'fridge', notes: 'quoted' },
    { name: 'x,y\\z', quantity: 1, unit: 'pcs', location: 'fridge', notes: 'backslash' },
    { name: ' padded ', quantity: 1, unit: 'pcs', location: 'pantry', notes: '' },
    { name: 'star*item', quantity: 1, unit: 'pcs', location: null, notes: 'star', expiry_date: '2030-01-01' },
    { name: 'star-item', quantity: 1, unit: 'pcs', location: null, notes: 'fresh', expiry_date: '2030-01-02' },
    { name: 'milk,id.not.is.null', quantity: 1, unit: 'l', location: 'fridge', notes: 'fresh' },
    { name: 'eggs', quantity: 6, unit: 'pcs', location: 'fridge', notes: 'fresh' },
  ];
  // Same keys in every row, so the batch needs no columns= (D9 has its own case).
  const FULL = ROWS.map((row) => ({ location: null, notes: null, expiry_date: null, ...row }));
  let refs;
  before(async () => {
    refs = await createInventory(FULL);
    assert.equal(refs.length, ROWS.length);
  });

  const read = async (params) => {
    const { status, body } = await send('db_read', { table: 'inventory', columns: ['name'], ...params });
    assert.equal(status, 200, JSON.stringify(body));
    return names(body);
  };
  const readTheirs = async (build) => {
    const { data, error } = await build(postgrestJs().from('inventory').select('name'));
    return { names: data ? names(data) : null, code: error?.code ?? null };
  };

  test('D1: quotes and backslashes in in() values find exactly those rows; postgrest-js finds none', async () => {
    const values = ['he said "a,b"', 'x,y\\z'];
    assert.deepEqual(await read({ filters: [{ field: 'name', op: 'in', value: values }] }), [...values].sort());
    assert.deepEqual(await readTheirs((query) => query.in('name', values)), { names: [], code: null });
  });

  test('D2: an edge-spaced value and a lone "" in in() match as written; postgrest-js loses them', async () => {
    assert.deepEqual(await read({ filters: [{ field: 'name', op: 'in', value: [' padded ', 'eggs'] }] }), [' padded ', 'eggs']);
    assert.deepEqual(await readTheirs((query) => query.in('name', [' padded ', 'eggs'])), { names: ['eggs'], code: null });
    assert.deepEqual(await read({ filters: [{ field: 'notes', op: 'in', value: [''] }] }), [' padded ']);
    assert.deepEqual(await readTheirs((query) => query.in('notes', [''])), { names: [], code: null });
  });

  test('D3: null in an in() list matches the NULL rows too; postgrest-js compares with the text "null"', async () => {
    assert.deepEqual(await read({ filters: [{ field: 'location', op: 'in', value: ['pantry', null] }] }), [' padded ', 'star*item', 'star-item']);
    assert.deepEqual(await readTheirs((query) => query.in('location', ['pantry', null])), { names: [' padded '], code: null });
  });

  test('D5: an or_filters value cannot add a condition; postgrest-js\'s pasted value matches every row', async () => {
    const value = 'milk,id.not.is.null';
    assert.deepEqual(await read({ or_filters: [{ field: 'name', op: '=', value }, { field: 'name', op: '=', value: 'eggs' }] }), ['eggs', value]);
    const theirs = await readTheirs((query) => query.or(`name.eq.${value},name.eq.eggs`));
    assert.deepEqual(theirs, { names: names(ROWS), code: null });
  });

  test('D6: a literal * in a pattern matches only itself; in postgrest-js it is a wildcard', async () => {
    assert.deepEqual(await read({ filters: [{ field: 'name', op: 'ilike', value: 'star*item' }] }), ['star*item']);
    assert.deepEqual(await readTheirs((query) => query.ilike('name', 'star*item')), { names: ['star*item', 'star-item'], code: null });
  });

  test('D8: = null and != null mean IS NULL and IS NOT NULL; postgrest-js\'s eq.null is a 400 on a date', async () => {
    assert.deepEqual(await read({ filters: [{ field: 'expiry_date', op: '!=', value: null }, { field: 'location', op: '=', value: null }] }), ['star*item', 'star-item']);
    assert.deepEqual(await readTheirs((query) => query.eq('expiry_date', null)), { names: null, code: '22007' });
  });

  test('D7: a NUL in written text is stripped and the row stored; postgrest-js\'s insert fails whole (22P05)', async () => {
    const [ref] = await createInventory([{ name: 'nul\u0000wire', quantity: 1, unit: 'pcs' }]);
    assert.deepEqual(await stored('inventory', 'name', '&name=eq.nulwire'), [{ name: 'nulwire' }]);
    const { error } = await postgrestJs().from('inventory').insert({ name: 'nul\u0000theirs', quantity: 1, unit: 'pcs', user_id: wire().id }).select();
    assert.equal(error?.code, '22P05');
    assert.deepEqual(await stored('inventory', 'name', '&name=like.nul*'), [{ name: 'nulwire' }]);
    await send('db_delete', { table: 'inventory', filters: [{ field: 'id', op: '=', value: ref }] });
  });

  test('D9: a batch whose rows differ in keys gets the column defaults; postgrest-js inserts NULL and fails (23502)', async () => {
    const rows = [{ name: 'wire basil', quantity: 1 }, { name: 'wire thyme', quantity: 2, is_purchased: true }];
    const { status, body } = await send('db_create', { table: 'shopping_list', data: rows });
    assert.equal(status, 201, JSON.stringify(body));
    assert.deepEqual(await stored('shopping_list', 'name,quantity,is_purchased,user_id', '&name=like.wire*'), [
      { name: 'wire basil', quantity: 1, is_purchased: false, user_id: wire().id },
      { name: 'wire thyme', quantity: 2, is_purchased: true, user_id: wire().id },
    ]);
    const { error } = await postgrestJs().from('shopping_list').insert([{ name: 'their basil', quantity: 1, user_id: wire().id }, { name: 'their thyme', quantity: 2, is_purchased: true, user_id: wire().id }]).select();
    assert.equal(error?.code, '23502');
    assert.deepEqual(await stored('shopping_list', 'name', '&name=like.their*'), []);
  });

  test('D4: array elements with a comma or a quote match as one element; postgrest-js splits or breaks them', async () => {
    const recipe = { instructions: ['Mix.'], servings: 2 };
    const { status, body } = await send('db_create', {
      table: 'recipes',
      data: [
        { name: 'wire date dish', occasions: ['date, night'], ...recipe },
        { name: 'wire night dish', occasions: ['date', 'night'], ...recipe },
        { name: 'wire quoted dish', occasions: ['say "hi"'], ...recipe },
      ],
    });
    assert.equal(status, 201, JSON.stringify(body));
    const recipes = async (filters) => {
      const answer = await send('db_read', { table: 'recipes', columns: ['name'], filters: [{ field: 'name', op: 'like', value: 'wire %' }, ...filters] });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      return names(answer.body);
    };
    assert.deepEqual(await recipes([{ field: 'occasions', op: 'contains', value: ['date, night'] }]), ['wire date dish']);
    assert.deepEqual(await recipes([{ field: 'occasions', op: 'overlaps', value: ['say "hi"', 'two words'] }]), ['wire quoted dish']);
    const theirs = postgrestJs().from('recipes').select('name').like('name', 'wire %');
    const split = await theirs.contains('occasions', ['date, night']);
    assert.deepEqual(names(split.data), ['wire night dish'], 'postgrest-js read two elements, date and night');
    const broken = await postgrestJs().from('recipes').select('name').overlaps('occasions', ['say "hi"', 'two words']);
    assert.equal(broken.error?.code, '22P02');
  });
});
