// The approval gate's row limit (docs/safety-controls.md, "Approval"): an
// approved update or delete is pinned to the refs its preview read, which
// have to fit in a URL, so one that would change more than 100 rows is
// too_many_rows before anyone is asked, whatever maxAffected says (0, no
// limit, included). An act over a stand-in for PostgREST (an injected fetch)
// that counts as many matching rows as a case needs; every request recorded.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { loadCore } from '../../web/src/index.node.js';
import { MAX_APPROVED_ROWS } from '../../web/src/policy/preview.js';

const NOTES = { name: 'notes', tables: { notes: { ref: 'note', label: ['title'], columns: { id: { type: 'uuid', writable: false, nullable: false }, title: { type: 'text', required: true } } } } };
const ALL = { table: 'notes', filters: [{ field: 'title', op: 'like', value: 'old %' }] };
const uuid = (n) => `0b7e0000-0000-4000-8000-${String(n).padStart(12, '0')}`;

let core;
before(async () => {
  core = await loadCore();
});

// An act whose database holds `matching` rows the filters select: a read
// answers up to its limit with the exact count, a delete the rows it names.
function actOver(matching, policy) {
  const sent = [];
  const fetch = async (url, init) => {
    const { searchParams } = new URL(url);
    sent.push({ method: init.method, url });
    const limit = Number(searchParams.get('limit') ?? matching);
    const named = /^in\.\((.*)\)$/.exec(searchParams.get('id') ?? '')?.[1].split(',') ?? [];
    const rows =
      init.method === 'GET'
        ? Array.from({ length: Math.min(limit, matching) }, (_, i) => ({ id: uuid(i + 1), title: `old ${i + 1}` }))
        : named.map((id) => ({ id, title: `old ${Number(id.slice(-12))}` }));
    const range = rows.length ? `0-${rows.length - 1}/${matching}` : `*/${matching}`;
    return new Response(JSON.stringify(rows), { status: 200, headers: { 'content-type': 'application/json', 'content-range': range } });
  };
  return { act: core.createAct({ url: 'http://db.test', apiKey: 'anon', accessToken: '', domain: NOTES, fetch, ...policy }), sent };
}

test('an approved write changes at most 100 rows: a delete of 101 or more is too_many_rows with maxAffected 0 (no limit) or above 100, asked or approved, and nothing is deleted', async () => {
  assert.equal(MAX_APPROVED_ROWS, 100);
  for (const maxAffected of [0, 500]) {
    for (const matching of [101, 150]) {
      for (const approved of [false, true]) {
        const { act, sent } = actOver(matching, { approve: 'deletes', maxAffected });
        const { data, error } = await act.execute('db_delete', ALL, { approved });
        const label = `maxAffected ${maxAffected}, ${matching} rows, approved ${approved}`;
        assert.equal(data, null, label);
        assert.deepEqual([error.code, error.path], ['too_many_rows', 'filters'], label);
        assert.equal(error.message, `this delete would change ${matching} rows of notes, over the 100 rows one approved write may change; nothing was changed`, label);
        assert.equal(error.preview, undefined, 'nobody is asked');
        assert.deepEqual(sent.map((request) => request.method), ['GET'], label);
      }
    }
  }
});

test('at the limit, 100 rows, a delete is held with all 100 in its preview, and approved it is pinned to them', async () => {
  const { act, sent } = actOver(MAX_APPROVED_ROWS, { approve: 'deletes', maxAffected: 0 });
  const held = await act.execute('db_delete', ALL);
  assert.equal(held.error.code, 'approval_required');
  assert.deepEqual([held.error.preview.count, held.error.preview.keys.length], [100, 100]);
  const done = await act.execute('db_delete', ALL, { approved: true });
  assert.deepEqual([done.error, done.count], [null, 100]);
  assert.deepEqual(sent.map((request) => request.method), ['GET', 'GET', 'DELETE']);
  const pinned = decodeURIComponent(sent[2].url);
  for (const n of [1, 100]) assert.ok(pinned.includes(uuid(n)), `row ${n} is in the pinned delete`);
});

test('under 100, maxAffected is the gate\'s limit: 6 rows over maxAffected 5 are too_many_rows (maxAffected) before anyone is asked', async () => {
  const { act, sent } = actOver(6, { approve: 'deletes', maxAffected: 5 });
  const { error } = await act.execute('db_delete', ALL);
  assert.equal(error.code, 'too_many_rows');
  assert.equal(error.message, 'this delete would change 6 rows of notes, over the limit of 5 (maxAffected); nothing was changed');
  assert.deepEqual(sent.map((request) => request.method), ['GET']);
});
