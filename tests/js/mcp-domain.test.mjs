// `alfred-act mcp` on a developer's own domain, over stdio with the MCP SDK's
// own Client, against the local stack with the CRM schema: a domain file
// (--domain, ALFRED_DOMAIN), a domain pulled at start (--pull, with and
// without a secret key: the key goes with the one schema request and never
// with a tool call), and what the server refuses to start with: no domain
// against a database that is not the local demo stack, a domain file that
// does not load, a pull that fails. Writes are read back from the database.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mcpClient } from './support/mcp-client.mjs';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startRecordingProxy } from './support/recording-proxy.mjs';
import { ROOT, SCRATCH } from './support/paths.mjs';
import { rest, sharedStack } from './support/stack.mjs';
import { NO_CATALOG_NOTE } from '../../web/src/pull/catalog-source.js';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const CRM_FILE = join(ROOT, 'domains/crm/domain.json');
const CRM_TABLES = ['activity_log', 'contacts', 'deals', 'open_deals', 'organizations', 'tasks'];
const stack = sharedStack({ schema: 'crm' });
const ada = () => stack().users[0];
const ben = () => stack().users[1];

let scratch;
before(async () => {
  await mkdir(SCRATCH, { recursive: true });
  scratch = await mkdtemp(join(SCRATCH, 'mcp-domain-'));
});
after(() => rm(scratch, { recursive: true, force: true }));

const userEnv = (url = stack().supabaseUrl) => ({ PATH: process.env.PATH, SUPABASE_URL: url, SUPABASE_ANON_KEY: stack().anonKey, SUPABASE_ACCESS_TOKEN: ada().token });

/** A connected SDK client whose server is `alfred-act mcp` with `args` and `env`; `stderr()` is what the server said there. */
async function connect(t, { args = [], env = userEnv() } = {}) {
  const transport = new StdioClientTransport({ command: process.execPath, args: ['bin/alfred-act.mjs', 'mcp', ...args], cwd: ROOT, env, stderr: 'pipe' });
  let stderr = '';
  transport.stderr.on('data', (chunk) => (stderr += chunk));
  const client = mcpClient({ name: 'alfred-act-test', version: '1.0.0' });
  await client.connect(transport);
  t.after(() => client.close());
  return { client, stderr: () => stderr };
}

/** tools/call → `{ isError, body }`, body the parsed JSON text of the result. */
async function call(client, name, args) {
  const result = await client.callTool({ name, arguments: args });
  assert.equal(result.content.length, 1, JSON.stringify(result));
  assert.doesNotMatch(result.content[0].text, UUID);
  return { isError: result.isError, body: JSON.parse(result.content[0].text) };
}

/** Runs `alfred-act mcp` to its exit (stdin closed at once): `{ code, stdout, stderr }`. */
function runCli(args, env) {
  const child = spawn(process.execPath, ['bin/alfred-act.mjs', 'mcp', ...args], { cwd: ROOT, env: { PATH: process.env.PATH, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  child.stdin.end();
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}

const tableEnum = async (client) => {
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((tool) => tool.name), ['db_read', 'db_create', 'db_update', 'db_delete', 'db_aggregate', 'db_schema']);
  return [...tools[0].inputSchema.properties.table.enum].sort();
};

test('--domain FILE: the server names the domain (serverInfo, instructions, the schema resource), lists its tables and writes by ref as the user', async (t) => {
  const { client, stderr } = await connect(t, { args: ['--domain', CRM_FILE] });
  assert.deepEqual(client.getServerVersion(), { name: 'alfred-act', title: 'alfred-act: crm domain', version: '0.1.0' });
  assert.match(client.getInstructions(), /^This server serves the crm domain \(tables: activity_log, contacts, deals, open_deals, organizations, tasks\): .*row-level security decides.* refs \(act_1, contact_1\)/);
  assert.deepEqual(await tableEnum(client), CRM_TABLES);
  const { resources } = await client.listResources();
  assert.deepEqual(resources.map(({ uri, name, title }) => [uri, name, title]), [['alfred-act://schema', 'crm schema', 'Database schema: crm']]);
  assert.match(stderr(), new RegExp(`^alfred-act mcp: serving the crm domain \\(from ${CRM_FILE.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}; 6 tables: activity_log, contacts, deals, open_deals, organizations, tasks\\) for http://127\\.0\\.0\\.1:\\d+ over stdio`, 'm'));

  const org = await call(client, 'db_create', { table: 'organizations', data: { name: 'MCP Freight', industry: 'shipping' } });
  assert.equal(org.isError, false, JSON.stringify(org.body));
  const [{ id: orgRef }] = org.body.rows;
  assert.match(orgRef, /^org_\d+$/);
  const deal = await call(client, 'db_create', { table: 'deals', data: { organization_id: orgRef, title: 'MCP Freight renewal', stage: 'qualified', amount: 900 } });
  assert.equal(deal.isError, false, JSON.stringify(deal.body));
  assert.equal(deal.body.rows[0].organization_id, orgRef);
  const stored = await rest(stack(), ada().token, 'GET', '/deals?select=title,stage,amount,owner_id,organizations(name,industry)&title=eq.MCP%20Freight%20renewal');
  assert.deepEqual(stored.body, [{ title: 'MCP Freight renewal', stage: 'qualified', amount: 900, owner_id: ada().id, organizations: { name: 'MCP Freight', industry: 'shipping' } }]);
  const bens = await rest(stack(), ben().token, 'GET', '/organizations?select=id&name=eq.MCP%20Freight');
  assert.deepEqual(bens.body, []);
});

test('ALFRED_DOMAIN=FILE is the same as --domain', async (t) => {
  const { client } = await connect(t, { env: { ...userEnv(), ALFRED_DOMAIN: CRM_FILE } });
  assert.deepEqual(await tableEnum(client), CRM_TABLES);
  const kitchen = await call(client, 'db_read', { table: 'recipes' });
  assert.equal(kitchen.isError, true);
  assert.equal(kitchen.body.error.message, "'recipes' is not a table of the crm domain");
});

test('--pull derives the domain from the project at start (notes on stderr) and serves it', async (t) => {
  const { client, stderr } = await connect(t, { args: ['--pull'] });
  assert.deepEqual(await tableEnum(client), CRM_TABLES);
  // Named after the project it runs in (the package.json of its working directory).
  assert.equal(client.getServerVersion().title, 'alfred-act: alfred-act domain');
  assert.match(stderr(), /^alfred-act mcp: note: tables\.open_deals\.writable: read-only: a view/m);
  assert.match(stderr(), /^alfred-act mcp: serving the alfred-act domain \(pulled from http:\/\/127\.0\.0\.1:\d+; 6 tables/m);
  const created = await call(client, 'db_create', { table: 'tasks', data: { title: 'Pulled at start', status: 'open' } });
  assert.equal(created.isError, false, JSON.stringify(created.body));
  assert.match(created.body.rows[0].id, /^task_\d+$/);
  const stored = await rest(stack(), ada().token, 'GET', '/tasks?select=title,status,owner_id&title=eq.Pulled%20at%20start');
  assert.deepEqual(stored.body, [{ title: 'Pulled at start', status: 'open', owner_id: ada().id }]);
});

test('--pull --key SECRET: the secret key reads the schema once and goes with no other request; every tool call carries the anon key and the user token', async (t) => {
  const proxy = await startRecordingProxy(stack().supabaseUrl);
  t.after(() => proxy.stop());
  const secret = stack().serviceKey;
  const { client } = await connect(t, { args: ['--pull', '--key', secret], env: userEnv(proxy.url) });
  assert.deepEqual(await tableEnum(client), CRM_TABLES);
  const read = await call(client, 'db_read', { table: 'organizations', columns: ['name'], order_by: 'name' });
  assert.equal(read.isError, false, JSON.stringify(read.body));
  const truth = await rest(stack(), ada().token, 'GET', '/organizations?select=name&order=name.asc');
  assert.deepEqual(read.body.rows.map((row) => row.name), truth.body.map((row) => row.name));

  // The local stack's catalog, then the schema, as `alfred-act domain pull --key` reads them.
  const [catalogRequest, schemaRequest, ...calls] = proxy.requests;
  assert.deepEqual(catalogRequest, { method: 'GET', path: '/alfred/v1/catalog', authorization: null, apikey: secret });
  assert.deepEqual(schemaRequest, { method: 'GET', path: '/rest/v1/', authorization: null, apikey: secret });
  assert.ok(calls.length > 0);
  for (const request of calls) assert.deepEqual([request.apikey, request.authorization], [stack().anonKey, `Bearer ${ada().token}`], request.path);
});

test('--pull --key <service key> reads the local stack\'s catalog as `domain pull --key` does: one pull, the same domain (owners, user ids, writes)', async () => {
  const { resolveMcpDomain } = await import('../../web/src/mcp/domain.js');
  const { runDomainCommand } = await import('../../cli/domain.mjs');
  const { loadCore, pullDomain } = await import('../../web/src/index.node.js');
  const core = await loadCore();
  const mcpPull = (key) => resolveMcpDomain({ source: { pull: { key } }, url: stack().supabaseUrl, apiKey: stack().anonKey, accessToken: ada().token, core, pullDomain });
  const served = await mcpPull(stack().serviceKey);
  assert.equal(served.error, null, JSON.stringify(served.error));
  let stdout = '';
  let stderr = '';
  const code = await runDomainCommand(['pull', '--url', stack().supabaseUrl, '--key', stack().serviceKey], {
    env: {},
    stdout: { write: (text) => (stdout += text) },
    stderr: { write: (text) => (stderr += text) },
    cwd: ROOT,
  });
  assert.equal(code, 0, stderr);
  assert.deepEqual(served.data.domain, JSON.parse(stdout));
  const notes = served.data.notes.map(({ path, message }) => `note: ${path}: ${message}`);
  assert.deepEqual(notes, stderr.trimEnd().split('\n'));
  assert.equal(notes[0], 'note: catalog: read from the local stack');
  // Without the service key the local stack keeps its catalog, and the server says so.
  const guessed = await mcpPull(undefined);
  assert.equal(guessed.error, null);
  assert.deepEqual(guessed.data.notes[0], {
    path: 'catalog',
    message: 'this local stack serves its catalog (policies, grants, references to auth.users, functions) to its service key only, not to this key; pass --key <the service key `stack start` printed> for owners that come out right',
  });
  assert.deepEqual(guessed.data.notes.at(-1), { path: 'catalog', message: NO_CATALOG_NOTE });
});

test('no --domain or --pull against a database that is not the local demo stack: exit 2 naming --domain and --pull, nothing on stdout', async () => {
  const loopback = await runCli([], userEnv());
  assert.equal(loopback.code, 2);
  assert.equal(loopback.stdout, '');
  assert.match(loopback.stderr, /^alfred-act mcp: no domain given \(--domain or --pull\), and http:\/\/127\.0\.0\.1:\d+ is not the local demo stack: its database has no table recipes, table recipe_ingredients, table ingredients, table inventory, table shopping_list and \d+ more of the kitchen demo/);
  assert.match(loopback.stderr, /\nhint: pass --domain domain\.json \(the file `alfred-act domain pull --out domain\.json` writes; or ALFRED_DOMAIN=domain\.json\), or --pull to derive it from the project at start\n$/);

  // A hosted project is refused before any request (the URL does not resolve here).
  const hosted = await runCli([], { ...userEnv('https://abcdefghijklmnop.supabase.co') });
  assert.equal(hosted.code, 2);
  assert.equal(hosted.stdout, '');
  assert.match(hosted.stderr, /is not the local demo stack: it is not on this machine\. The server serves the tables of a domain and will not serve the kitchen demo's against another database\nhint: pass --domain/);

  const both = await runCli(['--domain', CRM_FILE, '--pull'], userEnv());
  assert.equal(both.code, 2);
  assert.match(both.stderr, /^alfred-act mcp: give --domain or --pull, not both\n/);
});

test('a domain file that does not load: exit 1, the file named, the core\'s path and hint', async () => {
  const missing = join(scratch, 'missing.json');
  const absent = await runCli(['--domain', missing], userEnv());
  assert.equal(absent.code, 1);
  assert.equal(absent.stdout, '');
  assert.equal(absent.stderr, `alfred-act mcp: the domain file ${missing} does not load: there is no such file\nhint: write it with \`alfred-act domain pull --out domain.json\`, or pass --pull\n`);

  const notJson = join(scratch, 'not-json.json');
  await writeFile(notJson, '{ "tables": ');
  const garbled = await runCli(['--domain', notJson], userEnv());
  assert.equal(garbled.code, 1);
  assert.match(garbled.stderr, new RegExp(`^alfred-act mcp: the domain file ${notJson.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} does not load: it is not JSON \\(`));

  const refused = join(scratch, 'refused.json');
  const domain = JSON.parse(await (await import('node:fs/promises')).readFile(CRM_FILE, 'utf8'));
  domain.tables.deals.columns.stage.valuez = ['won'];
  await writeFile(refused, JSON.stringify(domain));
  const typo = await runCli(['--domain', refused], userEnv());
  assert.equal(typo.code, 1);
  assert.equal(typo.stdout, '');
  assert.match(
    typo.stderr,
    new RegExp(`^alfred-act mcp: the domain file ${refused.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} does not load: 'valuez' is not a domain setting \\(at tables\\.deals\\.columns\\.stage\\.valuez\\)\nhint: allowed here: type, required, writable, nullable, references, values\n$`),
  );
});

test('a pull that fails: exit 1 with the path and the fix', async () => {
  const { code, stdout, stderr } = await runCli(['--pull', '--owner-column', 'user_id'], userEnv());
  assert.equal(code, 1);
  assert.equal(stdout, '');
  assert.match(stderr, /^alfred-act mcp: the domain could not be pulled from http:\/\/127\.0\.0\.1:\d+: no table has a uuid column 'user_id' \(at owner_column\)\nhint: the column that row level security compares with auth\.uid\(\); uuid columns: /m);
});
