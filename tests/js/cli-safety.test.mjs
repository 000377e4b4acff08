// `alfred-act <tool> '<params>'` with the safety flags (--read-only, --tables,
// --approve / --approved, --max-affected) and their environment variables,
// against the local stack as a running Supabase (SUPABASE_URL set); the
// database is read back after each call.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runToolCall } from '../../cli/tool-call.mjs';
import { rest, sharedStack } from './support/stack.mjs';

const stack = sharedStack();
const ada = () => stack().users[0];

// Runs the command with the stack in the environment; `{ code, result, text }`.
async function cli(args, extraEnv = {}) {
  const out = [];
  const env = { SUPABASE_URL: stack().supabaseUrl, SUPABASE_ANON_KEY: stack().anonKey, ALFRED_ACCESS_TOKEN: ada().token, ALFRED_USER_ID: ada().id, ...extraEnv };
  const code = await runToolCall([...args, '--json'], { env, out: (line) => out.push(line), err: () => {} });
  return { code, result: JSON.parse(out.join('\n')) };
}
async function put(location, names) {
  const { status } = await rest(stack(), ada().token, 'POST', '/inventory', { body: names.map((name) => ({ name, quantity: 1, unit: 'pc', location })) });
  assert.equal(status, 201);
}
const namesAt = async (location) => (await rest(stack(), ada().token, 'GET', `/inventory?location=eq.${location}&select=name&order=name`)).body.map((row) => row.name);
const at = (location) => JSON.stringify({ table: 'inventory', filters: [{ field: 'location', op: '=', value: location }] });

test('--read-only and ALFRED_READ_ONLY: a delete is read_only and nothing is deleted', async () => {
  await put('cli-ro', ['cli ro bean']);
  for (const [args, env] of [[['--read-only'], {}], [[], { ALFRED_READ_ONLY: '1' }]]) {
    const { code, result } = await cli(['db_delete', at('cli-ro'), ...args], env);
    assert.equal(code, 1);
    assert.equal(result.error.code, 'read_only');
  }
  assert.deepEqual(await namesAt('cli-ro'), ['cli ro bean']);
});

test('--approve deletes holds the delete with its preview; --approved runs it on the previewed rows', async () => {
  await put('cli-held', ['cli held nut']);
  const held = await cli(['db_delete', at('cli-held'), '--approve', 'deletes']);
  assert.equal(held.code, 1);
  assert.deepEqual([held.result.error.code, held.result.error.preview.count, held.result.error.preview.rows.map((row) => row.name)], ['approval_required', 1, ['cli held nut']]);
  assert.deepEqual(await namesAt('cli-held'), ['cli held nut']);
  const done = await cli(['db_delete', at('cli-held'), '--approve', 'deletes', '--approved']);
  assert.equal(done.code, 0);
  assert.deepEqual(done.result.data.map((row) => row.name), ['cli held nut']);
  assert.deepEqual(await namesAt('cli-held'), []);
});

test('plain output: a held write says to run it again with --approved, and that run makes the change, shown as the model reads it', async () => {
  await put('cli-plain-held', ['cli plain nut']);
  const env = { SUPABASE_URL: stack().supabaseUrl, SUPABASE_ANON_KEY: stack().anonKey, ALFRED_ACCESS_TOKEN: ada().token, ALFRED_USER_ID: ada().id };
  const plain = async (args) => {
    const out = [];
    const code = await runToolCall(args, { env, out: (line) => out.push(line), err: () => {} });
    return { code, text: out.join('\n') };
  };
  const held = await plain(['db_delete', at('cli-plain-held'), '--approve', 'deletes']);
  assert.equal(held.code, 1);
  assert.match(held.text, /approval_required/);
  assert.match(held.text, /run the same command with --approved to make the change/);
  // The requests traced above it are the developer's (the owner filter's id); the model's part has no UUID.
  assert.ok(!held.text.split('Result as the model sees it:')[1].includes(ada().id), 'no UUID in what the model reads');
  assert.match(held.text, /"id": "inv_\d+"/);
  assert.deepEqual(await namesAt('cli-plain-held'), ['cli plain nut']);
  const done = await plain(['db_delete', at('cli-plain-held'), '--approve', 'deletes', '--approved']);
  assert.equal(done.code, 0);
  assert.doesNotMatch(done.text, /held for approval/);
  assert.match(done.text, /cli plain nut/);
  assert.deepEqual(await namesAt('cli-plain-held'), []);
});

test('--tables and ALFRED_TABLES: other tables are unknown_table; --max-affected stops a wide update', async () => {
  for (const [args, env] of [[['--tables', 'inventory,shopping_list'], {}], [[], { ALFRED_TABLES: 'inventory' }]]) {
    const { code, result } = await cli(['db_read', '{"table":"recipes"}', ...args], env);
    assert.equal(code, 1);
    assert.equal(result.error.code, 'unknown_table');
  }
  await put('cli-wide', ['cli wide a', 'cli wide b']);
  const wide = await cli(['db_update', JSON.stringify({ ...JSON.parse(at('cli-wide')), data: { quantity: 5 } }), '--max-affected', '1']);
  assert.deepEqual([wide.code, wide.result.error.code], [1, 'too_many_rows']);
  const { body } = await rest(stack(), ada().token, 'GET', '/inventory?location=eq.cli-wide&select=quantity');
  assert.deepEqual(body, [{ quantity: 1 }, { quantity: 1 }]);
});

test('mistyped safety flags are usage errors (exit 2)', async () => {
  for (const [args, path, message] of [
    [['--approve', 'always'], '--approve', /^--approve must be one of none, deletes, changes, writes, got "always"$/],
    [['--max-affected', 'many'], '--max-affected', /^--max-affected must be a whole number from 0 to 1000000 \(0: no limit\), got "many"$/],
    [['--tables', 'inventory,pantry'], '--tables', /tables names "pantry"/],
  ]) {
    const { code, result } = await cli(['db_read', '{"table":"inventory"}', ...args]);
    assert.equal(code, 2);
    assert.equal(result.error.code, 'invalid_option');
    assert.equal(result.error.path, path);
    assert.match(result.error.message, message);
  }
});
