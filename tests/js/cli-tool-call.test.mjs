// `alfred-act <tool> '<params>'` (cli/tool-call.mjs) writing through the
// local stack as a running Supabase (SUPABASE_URL set): a create, then an
// update and a delete by the ref it printed, kept across calls with --state,
// each read back from the database; and --domain, the domain file the call is
// validated against. The safety flags have their own file (cli-safety.test.mjs).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createServer } from 'node:http';
import { runToolCall } from '../../cli/tool-call.mjs';
import { kitchen } from '../../web/src/kitchen.js';
import { exec, ROOT, SCRATCH } from './support/paths.mjs';
import { forgetCountingServers } from '../../web/src/act/faults.js';
import { rest, sharedStack } from './support/stack.mjs';

const stack = sharedStack();
const ada = () => stack().users[0];

let dir;
before(async () => {
  await mkdir(SCRATCH, { recursive: true });
  dir = await mkdtemp(join(SCRATCH, 'cli-'));
});
after(() => rm(dir, { recursive: true, force: true }));

// Runs the command with the stack in the environment: `{ code, result, lines }`,
// `result` parsed with --json, else `lines` as printed (the request trace included).
async function cli(args, { json = true, env: envChanges = {} } = {}) {
  const out = [];
  const err = [];
  const env = { SUPABASE_URL: stack().supabaseUrl, SUPABASE_ANON_KEY: stack().anonKey, ALFRED_ACCESS_TOKEN: ada().token, ALFRED_USER_ID: ada().id };
  for (const [name, value] of Object.entries(envChanges)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  const code = await runToolCall([...args, ...(json ? ['--json'] : [])], { env, out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, result: json ? JSON.parse(out.join('\n')) : null, lines: out.join('\n'), trace: err.join('\n') };
}

// A trace without the schema description the command reads first (with no --domain: is this the demo stack?).
const SCHEMA_CHECK = /^→ GET http:\/\/127\.0\.0\.1:\d+\/rest\/v1\/\n← 200\n?/m;
const withoutCheck = (trace) => trace.replace(SCHEMA_CHECK, '');

const stored = async (name) => (await rest(stack(), ada().token, 'GET', `/shopping_list?select=name,quantity,unit,is_purchased,user_id&name=eq.${encodeURIComponent(name)}`)).body;
const byRef = (ref) => [{ field: 'id', op: '=', value: ref }];
// The block the plain output prints under "Result as the model sees it:".
const modelResult = (printed) => JSON.parse(printed.split('Result as the model sees it:\n')[1].split('\n\n')[0]);

test('db_create, then db_update and db_delete by the printed ref with --state: each change is in the database', async () => {
  const state = join(dir, 'refs.json');
  const name = `cli cardamom ${process.pid}`;
  const created = await cli(['db_create', JSON.stringify({ table: 'shopping_list', data: { name, quantity: 3, unit: 'pods' } }), '--state', state]);
  assert.deepEqual([created.code, created.result.error], [0, null]);
  const ref = created.result.data.id;
  assert.match(ref, /^shop_\d+$/);
  assert.match(created.trace, /^→ POST .*\/shopping_list/m);
  assert.deepEqual(await stored(name), [{ name, quantity: 3, unit: 'pods', is_purchased: false, user_id: ada().id }]);

  // Plain output: the requests sent, the result as the model sees it. (As a
  // fresh process would: the server's version not yet seen.) By a filter
  // that names no row by key: bounded by maxAffected.
  forgetCountingServers();
  const updated = await cli(['db_update', JSON.stringify({ table: 'shopping_list', filters: [{ field: 'name', op: '=', value: name }], data: { quantity: 6, is_purchased: true } }), '--state', state], { json: false });
  assert.equal(updated.code, 0, updated.lines);
  assert.match(updated.lines, /^→ PATCH .*\/shopping_list\?/m);
  assert.match(updated.lines, /^← 200/m);
  // The local stack's PostgREST 12 refuses max-affected: the trace says why the 400 is not a failure.
  assert.match(updated.lines, /^← 400: PGRST122, this PostgREST \(before 13\) does not take max-affected; nothing ran, counting the rows first instead$/m);
  // Counted, the update is restricted to the row counted.
  const patches = updated.lines.split('\n').filter((line) => line.startsWith('→ PATCH'));
  assert.equal(patches.length, 2);
  assert.match(patches[1], /&id=in\.\([0-9a-f-]{36}\)/);
  const shown = modelResult(updated.lines);
  assert.deepEqual(shown.rows.map((row) => [row.id, row.quantity, row.is_purchased]), [[ref, 6, true]]);
  assert.deepEqual(await stored(name), [{ name, quantity: 6, unit: 'pods', is_purchased: true, user_id: ada().id }]);

  // By the printed ref, in a fresh process again: it names its one row, so it needs neither the preference nor a
  // count: one PATCH, nothing refused.
  forgetCountingServers();
  const byRefUpdate = await cli(['db_update', JSON.stringify({ table: 'shopping_list', filters: byRef(ref), data: { quantity: 7 } }), '--state', state]);
  assert.deepEqual([byRefUpdate.code, byRefUpdate.result.error], [0, null]);
  assert.match(byRefUpdate.trace, SCHEMA_CHECK);
  const sent = withoutCheck(byRefUpdate.trace).split('\n').filter((line) => line.startsWith('→'));
  assert.deepEqual(sent.map((line) => line.split(' ')[1]), ['PATCH']);
  assert.doesNotMatch(byRefUpdate.trace, /← 400/);
  assert.deepEqual(await stored(name), [{ name, quantity: 7, unit: 'pods', is_purchased: true, user_id: ada().id }]);

  const deleted = await cli(['db_delete', JSON.stringify({ table: 'shopping_list', filters: byRef(ref) }), '--state', state]);
  assert.deepEqual([deleted.code, deleted.result.error], [0, null]);
  // The server is known now: no refused request before the delete.
  assert.doesNotMatch(deleted.trace, /← 400/);
  assert.deepEqual(deleted.result.data.map((row) => row.id), [ref]);
  assert.deepEqual(await stored(name), []);

  // Without the state the ref names nothing: unknown_ref, and no request.
  const forgotten = await cli(['db_delete', JSON.stringify({ table: 'shopping_list', filters: byRef(ref) })]);
  assert.deepEqual([forgotten.code, forgotten.result.error.code], [1, 'unknown_ref']);
  assert.equal(withoutCheck(forgotten.trace), '');
});

test('--domain: the call is validated against that file (its name, tables and ref prefixes); a bad file is a usage error', async () => {
  const domain = structuredClone(kitchen);
  domain.name = 'cli-kitchen';
  domain.tables.shopping_list.ref = 'buy';
  const file = join(dir, 'domain.json');
  await writeFile(file, JSON.stringify(domain));
  const name = `cli mace ${process.pid}`;
  const created = await cli(['db_create', JSON.stringify({ table: 'shopping_list', data: { name, quantity: 1 } }), '--domain', file]);
  assert.deepEqual([created.code, created.result.error], [0, null]);
  assert.match(created.result.data.id, /^buy_\d+$/);
  assert.deepEqual(await stored(name), [{ name, quantity: 1, unit: null, is_purchased: false, user_id: ada().id }]);

  const elsewhere = await cli(['db_read', JSON.stringify({ table: 'organizations' }), '--domain', file]);
  assert.deepEqual([elsewhere.code, elsewhere.result.error.code], [1, 'unknown_table']);
  assert.equal(elsewhere.result.error.message, "'organizations' is not a table of the cli-kitchen domain");
  assert.equal(elsewhere.trace, '', 'refused before any request');

  const missing = await cli(['db_read', '{"table":"inventory"}', '--domain', join(dir, 'no-such.json')]);
  assert.deepEqual([missing.code, missing.result.error.code, missing.result.error.path], [2, 'invalid_option', '--domain']);
  assert.match(missing.result.error.message, /cannot read the domain .*no-such\.json/);

  const broken = join(dir, 'broken.json');
  await writeFile(broken, JSON.stringify({ name: 'broken', tables: { t: { columns: {} } } }));
  const refused = await cli(['db_read', '{"table":"t"}', '--domain', broken]);
  assert.deepEqual([refused.code, refused.result.error.code, refused.result.error.path], [2, 'invalid_domain', '--domain']);
  assert.match(refused.result.error.message, new RegExp(`^${broken.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} at tables\\.t\\.ref: `));
});

test('the environment: ALFRED_USER_ID may be left out (the token names the user); a missing or userless token says which variable', async () => {
  const name = `cli clove ${process.pid}`;
  const created = await cli(['db_create', JSON.stringify({ table: 'shopping_list', data: { name } })], { env: { ALFRED_USER_ID: undefined } });
  assert.deepEqual([created.code, created.result.error], [0, null]);
  assert.deepEqual((await stored(name)).map((row) => row.user_id), [ada().id]);

  const noToken = await cli(['db_read', '{"table":"shopping_list"}'], { env: { ALFRED_ACCESS_TOKEN: undefined } });
  assert.equal(noToken.code, 2);
  assert.deepEqual([noToken.result.error.code, noToken.result.error.path], ['invalid_option', 'ALFRED_ACCESS_TOKEN']);
  assert.match(noToken.result.error.message, /ALFRED_ACCESS_TOKEN is required with SUPABASE_URL/);
  assert.match(noToken.result.error.hint, /session\.access_token/);

  // An API key where the user's token belongs names no user: refused before any request.
  const anonAsToken = await cli(['db_read', '{"table":"shopping_list"}'], { env: { ALFRED_ACCESS_TOKEN: stack().anonKey, ALFRED_USER_ID: undefined } });
  assert.equal(anonAsToken.code, 2);
  assert.deepEqual([anonAsToken.result.error.path, anonAsToken.trace], ['ALFRED_ACCESS_TOKEN', '']);
  assert.match(anonAsToken.result.error.message, /names no user: it is not a JWT with a sub claim/);

  const noKey = await cli(['db_read', '{"table":"shopping_list"}'], { env: { SUPABASE_ANON_KEY: undefined } });
  assert.deepEqual([noKey.code, noKey.result.error.path], [2, 'SUPABASE_ANON_KEY']);
  assert.match(noKey.result.error.hint, /never a service key/);

  // --user picks a seeded user of the in-process stack: with SUPABASE_URL it would be ignored, so it is refused.
  const otherUser = await cli(['db_read', '{"table":"shopping_list"}', '--user', '1']);
  assert.deepEqual([otherUser.code, otherUser.result.error.code, otherUser.result.error.path, otherUser.trace], [2, 'invalid_option', '--user', '']);
  assert.match(otherUser.result.error.message, /SUPABASE_URL is set: the user is ALFRED_ACCESS_TOKEN's/);
});

test('a SUPABASE_URL the act refuses is named as the variable, with a hint about the variable, never an API option', async () => {
  for (const url of [`${stack().supabaseUrl}/rest/v1`, 'ftp://example.com']) {
    const refused = await cli(['db_read', '{"table":"shopping_list"}'], { env: { SUPABASE_URL: url } });
    assert.deepEqual([refused.code, refused.result.error.code, refused.result.error.path], [2, 'invalid_option', 'SUPABASE_URL']);
    assert.match(refused.result.error.message, /^SUPABASE_URL /);
    assert.match(refused.result.error.hint, /^set SUPABASE_URL to the project URL without \/rest\/v1/);
    assert.doesNotMatch(`${refused.result.error.message} ${refused.result.error.hint}`, /\b(restUrl|url)\b/);
  }
});

test('without --domain against a database that is not the local demo stack: exit 2 at --domain, saying how to write the domain, and no call is sent', async () => {
  // Another app on this machine: its schema description has a table of its own, none of the demo's.
  const asked = [];
  const server = createServer((request, response) => {
    asked.push(`${request.method} ${request.url}`);
    response.setHeader('content-type', 'application/openapi+json');
    response.end(JSON.stringify({ swagger: '2.0', paths: {}, definitions: { projects: { properties: { id: { type: 'string', format: 'uuid' }, name: { type: 'string' } } } } }));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${server.address().port}`;
    const other = await cli(['db_read', '{"table":"projects"}'], { env: { SUPABASE_URL: url } });
    assert.deepEqual([other.code, other.result.error.code, other.result.error.path], [2, 'invalid_option', '--domain']);
    assert.match(other.result.error.message, /^no --domain given, and http:\/\/127\.0\.0\.1:\d+ is not the local demo stack: its database has no table recipes, .* of the kitchen demo\. Without a domain the call would be checked against the kitchen demo's tables$/);
    assert.equal(other.result.error.hint, `write your app's domain once (npx alfred-act domain pull --url ${url} --key <service key> --out domain.json) and pass --domain domain.json`);
    assert.deepEqual(asked, ['GET /rest/v1/'], 'the schema description only, never the call');
    assert.match(other.trace, /^→ GET http:\/\/127\.0\.0\.1:\d+\/rest\/v1\/$/m, 'the check is traced as the calls are');

    // A stack that is not running: said at SUPABASE_URL, as the network's failure (exit 1), not as a missing domain.
    const stopped = await cli(['db_read', '{"table":"projects"}'], { env: { SUPABASE_URL: 'http://127.0.0.1:1' } });
    assert.deepEqual([stopped.code, stopped.result.error.code, stopped.result.error.path], [1, 'backend_unavailable', 'SUPABASE_URL']);
    assert.match(stopped.result.error.message, /^no --domain given, and the database at http:\/\/127\.0\.0\.1:1 could not be checked: its schema description could not be read/);
    assert.match(stopped.result.error.hint, /^is it running\?/);

    // --schema names the pack of the stack SUPABASE_URL points at: its domain, without the check.
    const crm = await cli(['db_read', '{"table":"projects"}', '--schema', 'crm'], { env: { SUPABASE_URL: url } });
    assert.equal(crm.result.error.path, 'table');
    assert.match(crm.result.error.message, /crm/);
    assert.equal(asked.length, 1, 'no second check');

    // A hosted project is refused before any request (the URL does not resolve here).
    const hosted = await cli(['db_read', '{"table":"projects"}'], { env: { SUPABASE_URL: 'https://abcdefghijklmnop.supabase.co' } });
    assert.deepEqual([hosted.code, hosted.result.error.path], [2, '--domain']);
    assert.match(hosted.result.error.message, /is not the local demo stack: it is not on this machine\./);

    // With the app's domain the call goes to the app's table.
    const domainFile = join(dir, 'projects-domain.json');
    await writeFile(domainFile, JSON.stringify({ name: 'projects', tables: { projects: { ref: 'project', label: ['name'], columns: { id: { type: 'uuid', writable: false, nullable: false }, name: { type: 'text' } } } } }));
    const given = await cli(['db_read', '{"table":"projects"}', '--domain', domainFile], { env: { SUPABASE_URL: url } });
    assert.notEqual(given.result.error?.path, '--domain');
    assert.match(asked.at(-1), /^GET \/rest\/v1\/projects\?/);
  } finally {
    server.close();
  }
});

test('the plain output is the call the model makes: its capped request, and the tool result it reads (a UUID inside a text value scrubbed)', async () => {
  // A file path that starts with the user's id, as Supabase Storage paths do, written past the CLI.
  const name = `${ada().id}/cli-path-${process.pid}.md`;
  const made = await rest(stack(), ada().token, 'POST', '/shopping_list', { body: { name, user_id: ada().id } });
  assert.equal(made.status, 201);
  const read = await cli(['db_read', JSON.stringify({ table: 'shopping_list', filters: [{ field: 'name', op: 'ilike', value: `%cli-path-${process.pid}%` }] })], { json: false });
  assert.equal(read.code, 0, read.lines);
  const shown = modelResult(read.lines);
  assert.deepEqual([shown.ok, shown.count], [true, 1]);
  assert.match(shown.rows[0].name, new RegExp(`^<id>/cli-path-${process.pid}\\.md$`));
  assert.match(shown.notice, /never instructions/);
  assert.ok(!read.lines.split('Result as the model sees it:')[1].includes(ada().id), 'no UUID in the shown result');
  // The request is the model's own: a read without a limit is sent capped, with an exact count.
  const get = read.lines.split('\n').find((line) => line.startsWith('→ GET') && line.includes('/shopping_list?'));
  assert.match(get, /[?&]limit=50(&|$)/);
  assert.match(shown.query, /Limit: 50/);
  // --json stays the developer's { data, error, query, count }, uncapped, with the text as stored.
  const json = await cli(['db_read', JSON.stringify({ table: 'shopping_list', filters: [{ field: 'name', op: 'ilike', value: `%cli-path-${process.pid}%` }] })]);
  assert.equal(json.result.data[0].name, name);
  assert.doesNotMatch(json.trace.split('\n').find((line) => line.includes('/shopping_list?')), /[?&]limit=/);
});

test('flags before the tool (`alfred-act --domain domain.json db_create …`) are read as after it; an error is shown as the model reads it, without the HTTP status or the database\'s own words', async () => {
  const domainFile = join(dir, 'kitchen-domain.json');
  await writeFile(domainFile, JSON.stringify(kitchen));
  const env = { SUPABASE_URL: stack().supabaseUrl, SUPABASE_ANON_KEY: stack().anonKey, ALFRED_ACCESS_TOKEN: ada().token, ALFRED_USER_ID: ada().id };
  // A rating the table's check refuses: the database answers, with a status and its own code and text.
  const { stdout } = await exec(process.execPath, [join(ROOT, 'bin/alfred-act.mjs'), '--domain', domainFile, 'db_create', JSON.stringify({ table: 'cooking_log', data: { rating: 9, notes: `cli check ${process.pid}` } })], { env }).catch((failed) => failed);
  const shown = modelResult(stdout);
  assert.equal(shown.ok, false);
  assert.deepEqual(Object.keys(shown.error).sort(), ['code', 'hint', 'message', 'path']);
  assert.equal(shown.error.code, 'check_violation');
});
