// Caps on what reaches the model: act.callTool (and so every adapter) cuts a
// result to `resultLimits` rows and characters, between rows and never in
// the middle of one, keeps the query, says `truncated: true` with the rows
// `shown`, the total where known and a hint, and sends a read without a
// limit with the cap and an exact count; act.execute is not capped. Against
// the real local stack, with the database read back.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { loadCore } from '../../web/src/index.node.js';
import { DEFAULT_RESULT_LIMITS, rowsNotice } from '../../web/src/result-limits.js';
import { queryParams, recordingFetch } from './support/recording-fetch.mjs';
import { rest, sharedStack } from './support/stack.mjs';

const stack = sharedStack();
const ada = () => stack().users[0];
let core;
before(async () => {
  core = await loadCore();
});

function actFor({ fetch, ...options } = {}) {
  const user = ada();
  return core.createAct({ url: stack().supabaseUrl, apiKey: stack().anonKey, accessToken: user.token, userId: user.id, ...(fetch ? { fetch } : {}), ...options });
}

async function dbRows(path) {
  const { status, body } = await rest(stack(), ada().token, 'GET', path);
  assert.equal(status, 200, `GET ${path}: ${JSON.stringify(body)}`);
  return body;
}

const textOf = (result) => JSON.stringify(result);

test('the defaults: 50 rows and 16 000 characters, on every act; options checked', () => {
  assert.deepEqual(DEFAULT_RESULT_LIMITS, { rows: 50, chars: 16_000 });
  assert.deepEqual(actFor().resultLimits, { rows: 50, chars: 16_000 });
  assert.deepEqual(actFor({ resultLimits: { rows: 5 } }).resultLimits, { rows: 5, chars: 16_000 });
  assert.throws(() => actFor({ resultLimits: { rows: 0 } }), { code: 'invalid_option', path: 'resultLimits.rows' });
  assert.throws(() => actFor({ resultLimits: { chars: 10 } }), { code: 'invalid_option', path: 'resultLimits.chars', message: 'resultLimits.chars must be a whole number from 1000 to 16777216' });
  assert.throws(() => actFor({ resultLimits: { tokens: 5 } }), { code: 'invalid_option', path: 'resultLimits.tokens' });
  assert.throws(() => actFor({ resultLimits: 50 }), { code: 'invalid_option', path: 'resultLimits' });
});

test('a model read without a limit is sent with the cap and an exact count; the result says how many match and how to narrow', async () => {
  const all = await dbRows('/recipes?select=id');
  assert.ok(all.length > 5, `the seed has ${all.length} recipes`);
  const fetch = recordingFetch();
  const act = actFor({ fetch, resultLimits: { rows: 5 } });
  const result = await act.callTool('db_read', { table: 'recipes', columns: ['name'] });
  const [request] = fetch.requests;
  assert.deepEqual(queryParams(request.url), [['select', 'id,name'], ['user_id', `eq.${ada().id}`], ['limit', '5']]);
  assert.match(request.headers.prefer, /count=exact/);
  assert.equal(result.ok, true);
  assert.equal(result.count, all.length);
  assert.equal(result.truncated, true);
  assert.equal(result.shown, 5);
  assert.equal(result.rows.length, 5);
  assert.equal(result.hint, `Showing 5 of ${all.length} rows: at most 5 rows per read here; narrow the read (filters, only the columns you need) or page with limit and offset 5.`);
  assert.match(result.query, /Limit: 5/);
  assert.equal(result.notice, rowsNotice(result.end));
  // The order of the keys: the data last, between the notice and the end of its fence.
  assert.deepEqual(Object.keys(result), ['ok', 'tool', 'table', 'count', 'query', 'truncated', 'shown', 'hint', 'notice', 'rows', 'end']);
  // The rows are the database's own (by name), with refs.
  const names = new Set((await dbRows('/recipes?select=name')).map((row) => row.name));
  for (const row of result.rows) {
    assert.match(row.id, /^recipe_\d+$/);
    assert.ok(names.has(row.name), row.name);
  }

  // The next page, as the hint says: limit with offset.
  const next = await act.callTool('db_read', { table: 'recipes', columns: ['name'], limit: 5, offset: 5 });
  assert.deepEqual(queryParams(fetch.requests[1].url), [['select', 'id,name'], ['user_id', `eq.${ada().id}`], ['offset', '5'], ['limit', '5']]);
  assert.equal(next.truncated, undefined);
  assert.equal(next.rows.length, 5);
  assert.equal(new Set([...result.rows, ...next.rows].map((row) => row.id)).size, 10);
});

test('the model\'s own limit within the cap is sent as it is; one over the cap is cut to the cap', async () => {
  const fetch = recordingFetch();
  const act = actFor({ fetch, resultLimits: { rows: 5 } });
  const limitOf = (i) => new URL(fetch.requests[i].url).searchParams.get('limit');
  const small = await act.callTool('db_read', { table: 'recipes', columns: ['name'], limit: 2 });
  assert.equal(limitOf(0), '2');
  assert.doesNotMatch(fetch.requests[0].headers.prefer ?? '', /count=/);
  assert.deepEqual([small.rows.length, small.count, small.truncated], [2, 2, undefined]);
  const big = await act.callTool('db_read', { table: 'recipes', columns: ['name'], limit: 500, count: 'planned' });
  assert.equal(limitOf(1), '5');
  assert.match(fetch.requests[1].headers.prefer, /count=planned/); // the model's count is kept
  assert.equal(big.rows.length, 5);
  // Strict-mode nulls are "left out".
  await act.callTool('db_read', JSON.stringify({ table: 'recipes', filters: null, or_filters: null, columns: ['name'], limit: null, offset: null, order_by: null, order_dir: null, count: null }));
  assert.equal(limitOf(2), '5');
  assert.match(fetch.requests[2].headers.prefer, /count=exact/);
});

test('act.execute is not capped: the developer gets every row the call asked for', async () => {
  const all = await dbRows('/recipes?select=id');
  const act = actFor({ resultLimits: { rows: 5, chars: 1_000 } });
  const { data, error } = await act.execute('db_read', { table: 'recipes' });
  assert.equal(error, null);
  assert.equal(data.length, all.length);
});

test('the character cap: whole rows only, the query kept, the JSON within the cap', async () => {
  const act = actFor({ resultLimits: { chars: 1_000 } });
  const columns = ['name', 'cuisine', 'servings'];
  const result = await act.callTool('db_read', { table: 'recipes', columns });
  const text = textOf(result);
  assert.ok(text.length <= 1_000, `${text.length} characters`);
  assert.equal(result.truncated, true);
  assert.ok(result.shown >= 2 && result.shown < result.count, `shown ${result.shown} of ${result.count}`);
  assert.equal(result.rows.length, result.shown);
  assert.match(result.query, /^Query: Table: recipes \| Filters: none \(all records\) \| Columns: name, cuisine, servings \| Limit: 50\n/);
  // Each row shown is the whole row the database has.
  const full = await act.execute('db_read', { table: 'recipes', columns });
  const byRef = new Map(full.data.map((row) => [row.id, row]));
  for (const row of result.rows) assert.deepEqual(row, byRef.get(row.id));

  // A row larger than the cap: shown with its long value cut, its ref and short values whole.
  const notes = `${'a long note '.repeat(2_000)}end`;
  const created = await act.execute('db_create', { table: 'shopping_list', data: { name: 'wide row', notes } });
  assert.equal(created.error, null);
  const ref = [created.data].flat()[0].id;
  try {
    const wide = await act.callTool('db_read', { table: 'shopping_list', filters: [{ field: 'id', op: '=', value: ref }] });
    assert.ok(textOf(wide).length <= 1_000, `${textOf(wide).length}`);
    assert.deepEqual([wide.count, wide.shown, wide.truncated, wide.rows[0].id, wide.rows[0].name], [1, 1, true, ref, 'wide row']);
    assert.match(wide.rows[0].notes, /^(a long note )+a?[a-z ]*… \[\+\d+ chars\]$/);
    assert.equal(notes.startsWith(wide.rows[0].notes.replace(/… \[\+\d+ chars\]$/, '')), true);
    assert.equal(wide.hint, 'Showing 1 row with long values cut: read only the columns you need to see more of a value.');
    // The database keeps the whole value.
    assert.equal((await dbRows(`/shopping_list?select=notes&name=eq.wide%20row`))[0].notes, notes);
  } finally {
    await act.execute('db_delete', { table: 'shopping_list', filters: [{ field: 'id', op: '=', value: ref }] });
  }
});

test('a write that returns more rows than the cap reports every row it changed and shows the first ones', async () => {
  const act = actFor({ resultLimits: { rows: 3 } });
  const marker = `capped write ${Date.now()}`;
  const data = Array.from({ length: 8 }, (_, i) => ({ name: `${marker} ${i}`, quantity: i + 1, unit: 'g' }));
  const result = await act.callTool('db_create', { table: 'shopping_list', data });
  assert.equal(result.ok, true, JSON.stringify(result.error));
  assert.deepEqual([result.count, result.shown, result.rows.length, result.truncated], [8, 3, 3, true]);
  assert.equal(result.hint, 'The call created 8 rows; this result shows 3. Read them with filters to see the others.');
  const stored = await dbRows(`/shopping_list?select=name&name=like.${encodeURIComponent(`${marker}*`)}`);
  assert.equal(stored.length, 8);
  const removed = await act.callTool('db_delete', { table: 'shopping_list', filters: [{ field: 'name', op: 'like', value: `${marker}%` }] });
  assert.deepEqual([removed.count, removed.shown, removed.truncated], [8, 3, true]);
  assert.equal(removed.hint, 'The call deleted 8 rows; this result shows 3. Read them with filters to see the others.');
  assert.deepEqual(await dbRows(`/shopping_list?select=name&name=like.${encodeURIComponent(`${marker}*`)}`), []);
});

// An outcome as act.execute resolves to, with rows made here.
const outcomeOf = (rows, count = rows.length) => ({ data: rows, error: null, query: null, count });

test('the core cuts a row larger than the cap: its long values cut, still valid JSON', () => {
  const huge = { id: 'note_1', title: 'a title', body: `${'é'.repeat(3_000)}😀${'x'.repeat(40_000)}`, tags: ['a', 'b'] };
  const text = core.toolResultText('db_read', outcomeOf([huge, { id: 'note_2' }], 2), { resultLimits: { rows: 50, chars: 4_000 } });
  assert.ok(text.length <= 4_000, `${text.length}`);
  const result = JSON.parse(text);
  // The same result but its fence, which is drawn for each call.
  const unfenced = ({ notice: _notice, end: _end, ...rest }) => rest;
  const again = core.toolResult('db_read', outcomeOf([huge, { id: 'note_2' }], 2), { resultLimits: { rows: 50, chars: 4_000 } });
  assert.notEqual(again.end, result.end);
  assert.deepEqual(unfenced(again), unfenced(result));
  assert.equal(result.shown, 1);
  assert.equal(result.rows[0].id, 'note_1');
  assert.equal(result.rows[0].title, 'a title');
  assert.deepEqual(result.rows[0].tags, ['a', 'b']);
  assert.ok(/^é{3000}😀x+… \[\+\d+ chars\]$/u.test(result.rows[0].body), 'the long value cut, with how much');
  const kept = result.rows[0].body.length - result.rows[0].body.indexOf('…');
  assert.ok(text.length > 3_500, `as much of the value as fits (${text.length}, ${kept})`);
  assert.equal(result.hint, 'Showing 1 of 2 rows (long values cut): narrow the read (filters, only the columns you need) or page with limit and offset 1.');
  // Never between the halves of a surrogate pair; the cap counts UTF-16 units, as JavaScript does.
  const emojiText = core.toolResultText('db_read', outcomeOf([{ v: '😀'.repeat(5_000) }]), { resultLimits: { rows: 50, chars: 1_000 } });
  assert.ok(emojiText.length <= 1_000, `${emojiText.length}`);
  assert.doesNotMatch(JSON.parse(emojiText).rows[0].v, /[\ud800-\udbff](?![\udc00-\udfff])/);
  // A row of many small values that cannot fit at all: no rows, the hint says why.
  const wide = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`column_${i}`, i]));
  const none = core.toolResult('db_read', outcomeOf([wide]), { resultLimits: { rows: 50, chars: 1_000 } });
  assert.deepEqual([none.shown, none.rows, none.notice], [0, [], undefined]);
  assert.equal(none.hint, 'The row does not fit in a result here: read only the columns you need.');
});

test('the core keeps whole rows in the order given, escapes as JSON.stringify does, and cuts at the character cap exactly', () => {
  const rows = Array.from({ length: 40 }, (_, i) => ({ id: `note_${i}`, text: `line "${i}"\n\ttab \u0001 ${'ü'.repeat(i * 5)}`, n: i * 1.5, ok: i % 2 === 0, none: null }));
  for (const chars of [1_000, 1_500, 2_345, 4_000, 100_000]) {
    const text = core.toolResultText('db_read', outcomeOf(rows), { resultLimits: { rows: 50, chars } });
    assert.ok(text.length <= chars, `${text.length} > ${chars}`);
    const result = JSON.parse(text);
    assert.deepEqual(result.rows, rows.slice(0, result.rows.length), `whole rows, as given (chars ${chars})`);
    // The next row would not have fit.
    if (result.rows.length < rows.length) {
      const more = JSON.stringify({ ...result, rows: rows.slice(0, result.rows.length + 1) });
      assert.ok(more.length > chars - 200, `room was left unused at ${chars}: ${text.length}`);
    } else {
      assert.equal(result.truncated, undefined);
    }
  }
});

test('a model read with a limit the core refuses is refused, not capped; writes are never capped on the way out', async () => {
  const act = actFor();
  const refused = await act.callTool('db_read', { table: 'recipes', limit: 'ten' });
  assert.equal(refused.ok, false);
  assert.equal(refused.error.path, 'limit');
  const fetch = recordingFetch();
  const counted = actFor({ fetch, resultLimits: { rows: 5 } });
  await counted.callTool('db_read', { table: 'recipes', columns: ['name'], limit: 3, count: 'planned' });
  assert.deepEqual(queryParams(fetch.requests[0].url).find(([key]) => key === 'limit'), ['limit', '3']);
  assert.match(fetch.requests[0].headers.prefer, /count=planned/, "the model's own count is kept");
});

test('core.toolResult caps too (the loop\'s native mode and hand-written loops); an error result is unchanged', async () => {
  const act = actFor();
  const outcome = await act.execute('db_read', { table: 'recipes', columns: ['name'] });
  const result = core.toolResult('db_read', outcome, { registry: act.registry, resultLimits: { rows: 4 } });
  assert.deepEqual([result.shown, result.rows.length, result.truncated, result.count], [4, 4, true, outcome.data.length]);
  assert.equal(result.hint, `Showing 4 of ${outcome.data.length} rows: narrow the read (filters, only the columns you need) or page with limit and offset 4.`);
  const refused = await act.callTool('db_read', { table: 'recipes', filters: [{ field: 'nope', op: '=', value: 1 }] });
  assert.deepEqual(Object.keys(refused), ['ok', 'tool', 'table', 'error']);
  assert.equal(refused.error.code, 'unknown_column');
});
