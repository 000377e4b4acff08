// The package as it is published and installed: `npm publish --dry-run` is
// clean, the tarball installs into an empty project with no build step and no
// Emscripten, the library runs there against the local stack, and the CLI
// ships as its bin (--json, --state with a persistent stack, validation
// without a database).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { installPackedConsumer } from './support/consumer.mjs';
import { exec, ROOT, SCRATCH } from './support/paths.mjs';
import { sharedStack } from './support/stack.mjs';

const stack = sharedStack();
let consumer;

before(async () => {
  consumer = await installPackedConsumer();
});

after(async () => {
  if (consumer) await rm(dirname(consumer), { recursive: true, force: true });
});

// The machine's own npm configuration is not the package's business.
async function cleanNpmEnv() {
  const userconfig = join(await mkdtemp(join(SCRATCH, 'npmrc-')), 'npmrc');
  await writeFile(userconfig, '');
  return { npm_config_userconfig: userconfig, npm_config_update_notifier: 'false' };
}

test('npm publish --dry-run is clean and ships what the package needs, nothing else', { timeout: 120_000 }, async () => {
  const { stdout, stderr } = await exec('npm', ['publish', '--dry-run', '--json'], { env: await cleanNpmEnv(), timeout: 100_000 });
  // Not being logged in to the registry is the only thing a dry run may warn about.
  const warnings = stderr.split('\n').filter((line) => /^npm (warn|WARN|error|ERR)/.test(line) && !/requires you to be logged in/.test(line));
  assert.deepEqual(warnings, []);
  const report = JSON.parse(stdout);
  const files = (report['alfred-act'] ?? report).files.map((file) => file.path).sort();
  for (const needed of ['LICENSE', 'CHANGELOG.md', 'README.md', 'bin/alfred-act.mjs', 'cli/tool-call.mjs', 'cli/backend.mjs', 'db/stack.mjs',
    'web/dist/alfred_core.wasm', 'web/dist/alfred_core.mjs', 'web/dist/kitchen.mjs', 'web/dist/core-rules.mjs', 'web/dist/error-codes.mjs', 'web/dist/decision-schema.mjs', 'web/index.d.ts', 'web/loop.d.ts', 'web/alfred_core.wasm.d.ts', 'docs/bundlers.md']) {
    assert.ok(files.includes(needed), `${needed} is not in the tarball`);
  }
  assert.deepEqual(files.filter((file) => /^(tests|core|wasm|build|scripts|bench|worker|\.scratch)\//.test(file) || file.endsWith('.cpp')), []);
});

test('the manifest: license, repository, engines, keywords, bin, no install scripts', async () => {
  const manifest = JSON.parse(await readFile(join(consumer, 'node_modules/alfred-act/package.json'), 'utf8'));
  assert.equal(manifest.license, 'MIT');
  assert.equal(manifest.repository.type, 'git');
  assert.match(manifest.engines.node, /^>=20/);
  assert.ok(manifest.keywords.includes('supabase'));
  assert.deepEqual(manifest.bin, { 'alfred-act': 'bin/alfred-act.mjs' });
  assert.deepEqual(Object.keys(manifest.scripts ?? {}).filter((name) => /install|prepare/.test(name)), []);
  assert.equal(manifest.dependencies, undefined);
  // Every peer (the local stack's packages, the adapters' frameworks) is optional.
  assert.deepEqual(Object.keys(manifest.peerDependenciesMeta).sort(), Object.keys(manifest.peerDependencies).sort());
  assert.ok(Object.values(manifest.peerDependenciesMeta).every((meta) => meta.optional === true));
});

test('the installed tarball runs against the local stack with no build (ESM, from node_modules)', { timeout: 120_000 }, async () => {
  const { supabaseUrl: url, anonKey, users } = stack();
  const script = `import { createAct, loadCore } from 'alfred-act';
const entry = import.meta.resolve('alfred-act');
const core = await loadCore();
const act = core.createAct({ url: process.env.URL, apiKey: process.env.KEY, accessToken: process.env.TOKEN, userId: process.env.USER_ID });
const read = await act.execute('db_read', { table: 'recipes', columns: ['name'], order_by: 'name', limit: 2 });
const lazy = createAct({ url: process.env.URL, apiKey: process.env.KEY, accessToken: process.env.TOKEN, userId: process.env.USER_ID });
const again = await lazy.execute('db_read', { table: 'recipes', columns: ['name'], order_by: 'name', limit: 2 });
console.log(JSON.stringify({ entry, error: read.error, refs: read.data.map((row) => row.id), same: JSON.stringify(again.data) === JSON.stringify(read.data) }));
`;
  await writeFile(join(consumer, 'installed.mjs'), script);
  const { stdout } = await exec(process.execPath, ['installed.mjs'], {
    cwd: consumer,
    env: { URL: url, KEY: anonKey, TOKEN: users[0].token, USER_ID: users[0].id },
    timeout: 100_000,
  });
  const result = JSON.parse(stdout);
  assert.deepEqual(result, {
    entry: `file://${join(consumer, 'node_modules/alfred-act/web/src/index.node.js')}`,
    error: null,
    refs: ['recipe_1', 'recipe_2'],
    same: true,
  });
});

const cli = (args, env = {}) =>
  exec(join(consumer, 'node_modules/.bin/alfred-act'), args, { cwd: consumer, env: { SUPABASE_URL: '', ...env }, timeout: 100_000 }).then(
    (done) => ({ code: 0, ...done }),
    (failed) => ({ code: failed.code, stdout: failed.stdout, stderr: failed.stderr }),
  );

test('the bin: a refused call comes back as JSON without starting a database', { timeout: 120_000 }, async () => {
  // The consumer has no local-stack packages: starting one would fail loudly.
  const { code, stdout, stderr } = await cli(['db_read', '{"table":"nope"}', '--json']);
  assert.equal(stderr, '');
  assert.equal(code, 1);
  const result = JSON.parse(stdout);
  assert.deepEqual(result.error, {
    code: 'unknown_table',
    message: "'nope' is not a table of the kitchen domain",
    path: 'table',
    hint: 'one of: recipes, recipe_ingredients, ingredients, inventory, shopping_list, meal_plans, tasks, preferences, cooking_log',
  });
  assert.equal(result.data, null);
});

test('the bin: --state with an in-memory stack and bad params are usage errors (exit 2), as JSON under --json', { timeout: 300_000 }, async () => {
  const state = await cli(['db_read', '{"table":"recipes"}', '--state', 'refs.json', '--json']);
  assert.equal(state.code, 2);
  assert.equal(JSON.parse(state.stdout).error.path, '--state');
  const params = await cli(['db_read', '{table}', '--json']);
  assert.equal(params.code, 2);
  assert.equal(JSON.parse(params.stdout).error.code, 'invalid_params');
  const user = await cli(['db_read', '{}', '--user', '7']);
  assert.deepEqual({ code: user.code, stderr: user.stderr }, { code: 2, stderr: 'alfred-act: --user must be 0 or 1, not "7"\n' });
});

test('the bin against a running stack: --json prints only JSON, the trace goes to stderr, --state keeps a create for the next call', { timeout: 300_000 }, async () => {
  const { url, supabaseUrl, anonKey, users } = stack();
  const env = { SUPABASE_URL: supabaseUrl, SUPABASE_ANON_KEY: anonKey, ALFRED_ACCESS_TOKEN: users[0].token, ALFRED_USER_ID: users[0].id };
  const stateFile = join(consumer, 'refs.json');
  const created = await cli(['db_create', '{"table":"shopping_list","data":{"name":"bin test saffron","quantity":2}}', '--json', '--state', stateFile], env);
  assert.equal(created.code, 0, created.stderr);
  const row = JSON.parse(created.stdout).data;
  assert.match(row.id, /^shop_\d+$/);
  assert.match(created.stderr, /^→ POST http:\/\/127\.0\.0\.1:\d+\/rest\/v1\/shopping_list/m);
  const read = await cli(['db_read', JSON.stringify({ table: 'shopping_list', filters: [{ field: 'id', op: '=', value: row.id }] }), '--json', '--state', stateFile], env);
  assert.equal(read.code, 0, read.stderr);
  assert.deepEqual(JSON.parse(read.stdout).data.map((found) => [found.id, found.name, found.quantity]), [[row.id, 'bin test saffron', 2]]);
  // Read back from the database itself.
  const response = await fetch(`${url}/shopping_list?name=eq.bin%20test%20saffron&select=name,quantity`, {
    headers: { apikey: anonKey, authorization: `Bearer ${users[0].token}` },
  });
  assert.deepEqual(await response.json(), [{ name: 'bin test saffron', quantity: 2 }]);
});

test('the CLI with --data-dir: a create is still there on the next call, on a new local stack', { timeout: 420_000 }, async () => {
  const dir = await mkdtemp(join(SCRATCH, 'cli-data-'));
  try {
    const args = ['--json', '--data-dir', join(dir, 'db'), '--state', join(dir, 'refs.json')];
    const run = (tool, params) =>
      exec(process.execPath, [join(ROOT, 'bin/alfred-act.mjs'), tool, JSON.stringify(params), ...args], { env: { SUPABASE_URL: '' }, timeout: 200_000 });
    const created = JSON.parse((await run('db_create', { table: 'shopping_list', data: { name: 'persisted saffron', quantity: 3 } })).stdout);
    assert.equal(created.error, null);
    const read = JSON.parse((await run('db_read', { table: 'shopping_list', filters: [{ field: 'id', op: '=', value: created.data.id }] })).stdout);
    assert.deepEqual(read.data.map((row) => [row.id, row.name, row.quantity]), [[created.data.id, 'persisted saffron', 3]]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
