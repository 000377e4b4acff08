// `alfred-act mcp` over stdio, driven by @modelcontextprotocol/sdk's own
// Client and StdioClientTransport (which spawn the CLI), against the local
// stack (PGlite + PostgREST) with its two seeded users. Every write is read
// back from the database as the user.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mcpClient } from './support/mcp-client.mjs';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { signJwt } from '../../db/jwt.mjs';
import { loadCore, mcpToolList } from '../../web/src/index.node.js';
import { rest, sharedStack } from './support/stack.mjs';
import { ROOT, SCRATCH } from './support/paths.mjs';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const stack = sharedStack();
const ada = () => stack().users[0];
const ben = () => stack().users[1];

let scratch;
before(async () => {
  await mkdir(SCRATCH, { recursive: true });
  scratch = await mkdtemp(join(SCRATCH, 'mcp-stdio-'));
});
after(() => rm(scratch, { recursive: true, force: true }));


// The server's environment is built from scratch; NODE_OPTIONS alone is kept,
// so tests/matrix/run.sh's peer set reaches the server's imports too.
const nodeOptions = process.env.NODE_OPTIONS ? { NODE_OPTIONS: process.env.NODE_OPTIONS } : {};

/**
 * A connected SDK client whose server is `alfred-act mcp` with `args` and
 * `env`. `elicit(params)`: the client declares elicitation and answers each
 * `elicitation/create` with it (the requests are kept in `client.asked`).
 */
async function connect(t, { token = ada().token, args = [], env = {}, elicit } = {}) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['bin/alfred-act.mjs', 'mcp', ...args],
    cwd: ROOT,
    env: { PATH: process.env.PATH, ...nodeOptions, SUPABASE_URL: stack().supabaseUrl, SUPABASE_ANON_KEY: stack().anonKey, ...(token ? { SUPABASE_ACCESS_TOKEN: token } : {}), ...env },
    stderr: 'pipe',
  });
  const client = mcpClient({ name: 'alfred-act-test', version: '1.0.0' }, elicit ? { capabilities: { elicitation: {} } } : {});
  client.asked = [];
  if (elicit) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      client.asked.push(request.params);
      return elicit(request.params);
    });
  }
  await client.connect(transport);
  t.after(() => client.close());
  return client;
}

/**
 * tools/call → `{ isError, body }`, body the parsed JSON text of the result,
 * which is also the result's structuredContent.
 */
async function call(client, name, args) {
  const result = await client.callTool({ name, arguments: args });
  assert.equal(result.content.length, 1, JSON.stringify(result));
  assert.equal(result.content[0].type, 'text');
  // No result shown to the model may hold a UUID.
  assert.doesNotMatch(result.content[0].text, UUID);
  const body = JSON.parse(result.content[0].text);
  assert.deepEqual(result.structuredContent, body);
  return { isError: result.isError, body };
}

const ACCEPT = () => ({ action: 'accept', content: { confirm: true } });

/** Runs the CLI to its exit with `env`: `{ code, stdout, stderr }`. */
async function runCli(args, env) {
  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, ['bin/alfred-act.mjs', 'mcp', ...args], { cwd: ROOT, env: { PATH: process.env.PATH, ...nodeOptions, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  child.stdin.end();
  const code = await new Promise((resolve) => child.once('exit', resolve));
  return { code, stdout, stderr };
}

test('tools/list: the database tools and db_schema, each with an object input schema', async (t) => {
  const client = await connect(t);
  const { tools } = await client.listTools();
  assert.deepEqual(
    tools.map((tool) => tool.name),
    ['db_read', 'db_create', 'db_update', 'db_delete', 'db_aggregate', 'db_schema'],
  );
  // The core's own definitions, as they are: no copy of a schema in the MCP layer.
  const core = await loadCore();
  for (const [index, definition] of core.toolDefinitions().entries()) {
    assert.deepEqual(tools[index], JSON.parse(JSON.stringify({ ...mcpToolList(core, core.kitchen)[index], description: definition.description, inputSchema: definition.parameters })));
  }
  assert.equal(tools[4].inputSchema.type, 'object');
  // What a host decides from: titles, annotations and the result's schema.
  assert.deepEqual(
    tools.map(({ name, title, annotations }) => [name, title, annotations]),
    [
      ['db_read', 'Read rows', { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }],
      ['db_create', 'Create rows', { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false }],
      ['db_update', 'Update rows', { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false }],
      ['db_delete', 'Delete rows', { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false }],
      ['db_aggregate', 'Count and total rows', { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }],
      ['db_schema', 'Database schema', { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }],
    ],
  );
  for (const tool of tools.slice(0, 5)) assert.deepEqual(tool.outputSchema.required, ['ok', 'tool', 'table']);

  const schema = await client.callTool({ name: 'db_schema', arguments: {} });
  assert.equal(schema.isError, false);
  // An argument is refused, never ignored: the tool takes none.
  const narrowed = await client.callTool({ name: 'db_schema', arguments: { table: 'inventory' } });
  assert.equal(narrowed.isError, true);
  assert.deepEqual(narrowed.structuredContent.error, { code: 'unknown_param', path: 'table', message: 'db_schema takes no arguments, but was given the argument "table"', hint: 'call it with {}: it describes every table and function' });
  // The placeholder a client adds to a tool of no parameters asks for nothing: the schema, as for {}.
  const placeholder = await client.callTool({ name: 'db_schema', arguments: { random_string: 'x' } });
  assert.equal(placeholder.isError, false);
  assert.deepEqual(placeholder.structuredContent, schema.structuredContent);
  const withTable = await client.callTool({ name: 'db_schema', arguments: { random_string: 'x', table: 'inventory' } });
  assert.equal(withTable.structuredContent.error.path, 'table');
  assert.deepEqual(schema.structuredContent, { schema: schema.content[0].text });
  assert.match(schema.content[0].text, /^# Database schema\n/);
  assert.match(schema.content[0].text, /### inventory \(refs inv_N\)\n- id: ref \(inv_N\), read-only\n/);
  assert.match(schema.content[0].text, /- meal_type: text, required, one of: breakfast, lunch, dinner, snack, other\n/);
  const { resources } = await client.listResources();
  assert.deepEqual(resources.map((resource) => resource.uri), ['alfred-act://schema']);
  const { contents } = await client.readResource({ uri: 'alfred-act://schema' });
  assert.equal(contents[0].text, schema.content[0].text);
});

test('--schema inline: the whole schema in the tool list, as the core defines it', async (t) => {
  const client = await connect(t, { args: ['--schema', 'inline'] });
  const { tools } = await client.listTools();
  const core = await loadCore();
  const inline = core.toolDefinitions({ schema: 'inline' });
  for (const [index, definition] of inline.entries()) {
    const { name, description, inputSchema } = tools[index];
    assert.deepEqual({ name, description, inputSchema }, JSON.parse(JSON.stringify({ name: definition.name, description: definition.description, inputSchema: definition.parameters })));
  }
  assert.match(tools[0].description, /### inventory \(refs inv_N\)\n/);
  // The compact default is under 40 % of it (db_aggregate, db_update and
  // db_delete name the tables db_read lists either way).
  const compact = JSON.stringify(core.toolDefinitions());
  assert.ok(compact.length * 2.5 < JSON.stringify(inline).length, `${compact.length} vs ${JSON.stringify(inline).length}`);
});

test('reads and writes by ref as the signed-in user; the database holds exactly what was written', async (t) => {
  const client = await connect(t, { elicit: ACCEPT });
  const recipes = await call(client, 'db_read', { table: 'recipes', columns: ['name'], order_by: 'name' });
  assert.equal(recipes.isError, false);
  const truth = await rest(stack(), ada().token, 'GET', '/recipes?select=name&order=name.asc');
  assert.deepEqual(recipes.body.rows.map((row) => row.name), truth.body.map((row) => row.name));
  for (const row of recipes.body.rows) assert.match(row.id, /^recipe_\d+$/);
  assert.equal(recipes.body.count, truth.body.length);
  assert.equal(recipes.body.table, 'recipes');
  assert.match(recipes.body.query, /^Query: Table: recipes/);

  const created = await call(client, 'db_create', { table: 'recipes', data: { name: 'MCP Shakshuka', instructions: ['Simmer the sauce.', 'Poach the eggs.'], servings: 2 } });
  assert.equal(created.isError, false, JSON.stringify(created.body));
  const [recipe] = created.body.rows;
  assert.match(recipe.id, /^recipe_\d+$/);
  const linked = await call(client, 'db_create', { table: 'recipe_ingredients', data: [{ recipe_id: recipe.id, name: 'eggs', quantity: 4, unit: 'pcs' }] });
  assert.equal(linked.isError, false, JSON.stringify(linked.body));
  assert.equal(linked.body.rows[0].recipe_id, recipe.id);
  const updated = await call(client, 'db_update', { table: 'recipes', filters: [{ field: 'id', op: '=', value: recipe.id }], data: { servings: 3 } });
  assert.equal(updated.isError, false, JSON.stringify(updated.body));
  assert.deepEqual(updated.body.rows.map((row) => [row.id, row.servings]), [[recipe.id, 3]]);

  const stored = await rest(stack(), ada().token, 'GET', "/recipes?select=id,servings,user_id,recipe_ingredients(name,quantity,unit)&name=eq.MCP%20Shakshuka");
  assert.equal(stored.body.length, 1);
  assert.equal(stored.body[0].user_id, ada().id);
  assert.equal(stored.body[0].servings, 3);
  assert.deepEqual(stored.body[0].recipe_ingredients, [{ name: 'eggs', quantity: 4, unit: 'pcs' }]);

  const deleted = await call(client, 'db_delete', { table: 'recipe_ingredients', filters: [{ field: 'recipe_id', op: '=', value: recipe.id }] });
  assert.equal(deleted.isError, false, JSON.stringify(deleted.body));
  assert.equal(deleted.body.rows.length, 1);
  const left = await rest(stack(), ada().token, 'GET', `/recipe_ingredients?select=id&recipe_id=eq.${stored.body[0].id}`);
  assert.deepEqual(left.body, []);
  // The update and the delete asked first (the creates did not), showing the rows by ref and label.
  assert.deepEqual(client.asked.map((asked) => asked.message), [`Update 1 row of recipes: ${recipe.id} "MCP Shakshuka"?`, `Delete 1 row of recipe_ingredients: ${linked.body.rows[0].id} "eggs"?`]);
});

test('strict-mode arguments (every field, null where unused, data as JSON text) run like the plain form', async (t) => {
  const client = await connect(t);
  const unused = { filters: null, or_filters: null, columns: null, limit: null, offset: null, order_by: null, order_dir: null };
  const created = await call(client, 'db_create', { table: 'tasks', ...unused, data: JSON.stringify({ title: 'Strict MCP task', category: 'prep' }) });
  assert.equal(created.isError, false, JSON.stringify(created.body));
  assert.match(created.body.rows[0].id, /^task_\d+$/);
  const read = await call(client, 'db_read', { table: 'tasks', ...unused, filters: [{ field: 'id', op: '=', value: created.body.rows[0].id }], columns: ['title', 'category'], data: null });
  assert.deepEqual(read.body.rows, [{ id: created.body.rows[0].id, title: 'Strict MCP task', category: 'prep' }]);
  const stored = await rest(stack(), ada().token, 'GET', '/tasks?select=title,category,user_id&title=eq.Strict%20MCP%20task');
  assert.deepEqual(stored.body, [{ title: 'Strict MCP task', category: 'prep', user_id: ada().id }]);
  const broken = await call(client, 'db_create', { table: 'tasks', ...unused, data: '{"title":' });
  assert.equal(broken.isError, true);
  assert.equal(broken.body.error.path, 'data');
  assert.match(broken.body.error.hint, /JSON text/);
});

test('an invalid call is an isError result with code, path and hint, and sends no request', async (t) => {
  const client = await connect(t);
  const wrongColumn = await call(client, 'db_read', { table: 'inventory', filters: [{ field: 'colour', op: '=', value: 'red' }] });
  assert.equal(wrongColumn.isError, true);
  assert.equal(wrongColumn.body.error.path, 'filters[0].field');
  assert.equal(typeof wrongColumn.body.error.code, 'string');
  assert.match(wrongColumn.body.error.hint, /location/);

  const unknownRef = await call(client, 'db_update', { table: 'inventory', filters: [{ field: 'id', op: '=', value: 'inv_999' }], data: { quantity: 1 } });
  assert.equal(unknownRef.isError, true);
  assert.equal(unknownRef.body.error.path, 'filters[0].value');
  assert.ok(unknownRef.body.error.hint);

  const unknownTool = await call(client, 'db_drop', { table: 'inventory' });
  assert.deepEqual(unknownTool, {
    isError: true,
    body: { ok: false, tool: 'db_drop', table: null, error: { code: 'unknown_tool', path: 'name', message: 'there is no tool "db_drop"', hint: 'tools: db_read, db_create, db_update, db_delete, db_aggregate, db_schema' } },
  });
});

test("two users: each session sees its own rows, and one user's refs mean nothing in the other's session", async (t) => {
  const [adaClient, benClient] = await Promise.all([connect(t), connect(t, { token: ben().token })]);
  const adas = await call(adaClient, 'db_read', { table: 'recipes', columns: ['name'], order_by: 'name' });
  const bens = await call(benClient, 'db_read', { table: 'recipes', columns: ['name'], order_by: 'name' });
  const benTruth = await rest(stack(), ben().token, 'GET', '/recipes?select=name&order=name.asc');
  assert.deepEqual(bens.body.rows.map((row) => row.name), benTruth.body.map((row) => row.name));
  assert.notDeepEqual(adas.body.rows.map((row) => row.name), bens.body.rows.map((row) => row.name));

  // Ada's last recipe ref is past every ref Ben's session has handed out.
  const adaRef = adas.body.rows.at(-1).id;
  const adaRecipe = adas.body.rows.at(-1).name;
  assert.ok(Number(adaRef.split('_')[1]) > bens.body.rows.length);
  const attempt = await call(benClient, 'db_update', { table: 'recipes', filters: [{ field: 'id', op: '=', value: adaRef }], data: { name: 'taken over' } });
  assert.equal(attempt.isError, true);
  assert.equal(attempt.body.error.path, 'filters[0].value');
  const still = await rest(stack(), ada().token, 'GET', `/recipes?select=name&name=eq.${encodeURIComponent(adaRecipe)}`);
  assert.equal(still.body.length, 1, "Ada's recipe is untouched");
  const taken = await rest(stack(), ada().token, 'GET', '/recipes?select=name&name=eq.taken%20over');
  assert.deepEqual(taken.body, []);
});

test('the token comes from a command or a file when the server is configured with one', async (t) => {
  const file = join(scratch, 'token');
  await writeFile(file, `${ben().token}\n`);
  const fromFile = await connect(t, { token: null, args: ['--token-file', file] });
  const fromCommand = await connect(t, { token: null, env: { ALFRED_TOKEN_COMMAND: `cat '${file}'` } });
  const truth = await rest(stack(), ben().token, 'GET', '/inventory?select=name&order=name.asc');
  for (const client of [fromFile, fromCommand]) {
    const { isError, body } = await call(client, 'db_read', { table: 'inventory', columns: ['name'], order_by: 'name' });
    assert.equal(isError, false);
    assert.deepEqual(body.rows.map((row) => row.name), truth.body.map((row) => row.name));
  }
});

test('a service key is refused at startup, as the access token or as the anon key, and nothing is written to stdout', async () => {
  const { supabaseUrl: url, anonKey, serviceKey } = stack();
  const asToken = await runCli([], { SUPABASE_URL: url, SUPABASE_ANON_KEY: anonKey, SUPABASE_ACCESS_TOKEN: serviceKey });
  assert.equal(asToken.code, 1);
  assert.equal(asToken.stdout, '');
  assert.match(asToken.stderr, /service-role key, which bypasses row-level security/);
  const asKey = await runCli(['--url', url, '--anon-key', serviceKey, '--access-token', ada().token], {});
  assert.equal(asKey.code, 2);
  assert.equal(asKey.stdout, '');
  assert.match(asKey.stderr, /the anon key given is a service-role key/);
  const anonAsToken = await runCli([], { SUPABASE_URL: url, SUPABASE_ANON_KEY: anonKey, SUPABASE_ACCESS_TOKEN: anonKey });
  assert.equal(anonAsToken.code, 1);
  assert.match(anonAsToken.stderr, /has role "anon", not a signed-in user's/);
  const twoSources = await runCli(['--access-token', ada().token, '--token-file', '/dev/null'], { SUPABASE_URL: url, SUPABASE_ANON_KEY: anonKey });
  assert.equal(twoSources.code, 2);
  assert.match(twoSources.stderr, /give one token source, not --access-token and --token-file/);
});

test('an expired token gives the database refusal as an isError result', async (t) => {
  const expired = signJwt({ sub: ada().id, role: 'authenticated', aud: 'authenticated', exp: Math.floor(Date.now() / 1000) - 3600 }, stack().jwtSecret);
  const client = await connect(t, { token: expired });
  const { isError, body } = await call(client, 'db_read', { table: 'inventory' });
  assert.equal(isError, true);
  assert.equal(body.error.code, 'unauthorized');
});

test('--store supabase keeps the session in act_sessions under RLS: refs survive a restart, and only their user sees the row', async (t) => {
  const sessionId = 'stdio-session-0123456789';
  const args = ['--store', 'supabase', '--session', sessionId];
  const first = await connect(t, { args });
  const { body } = await call(first, 'db_read', { table: 'inventory', columns: ['name'], order_by: 'name', limit: 2 });
  const [{ id: ref, name }] = body.rows;
  await first.close();

  const again = await connect(t, { args });
  const byRef = await call(again, 'db_read', { table: 'inventory', columns: ['name'], filters: [{ field: 'id', op: '=', value: ref }] });
  assert.equal(byRef.isError, false, JSON.stringify(byRef.body));
  assert.deepEqual(byRef.body.rows, [{ id: ref, name }]);

  const adasRows = await rest(stack(), ada().token, 'GET', `/act_sessions?select=id,user_id,state&id=eq.${sessionId}`);
  assert.equal(adasRows.status, 200);
  assert.equal(adasRows.body.length, 1);
  assert.equal(adasRows.body[0].user_id, ada().id);
  assert.equal(adasRows.body[0].state.userId, ada().id);
  assert.equal(adasRows.body[0].state.registry.format, 'alfred-act/registry');
  const bensView = await rest(stack(), ben().token, 'GET', `/act_sessions?select=id&id=eq.${sessionId}`);
  assert.deepEqual(bensView.body, []);

  // Ben resuming Ada's session id starts a session of his own: her refs do not resolve.
  const benClient = await connect(t, { token: ben().token, args });
  const stolen = await call(benClient, 'db_read', { table: 'inventory', filters: [{ field: 'id', op: '=', value: ref }] });
  assert.equal(stolen.isError, true);
  assert.equal(stolen.body.error.path, 'filters[0].value');
  const bothRows = await rest(stack(), stack().serviceKey, 'GET', `/act_sessions?select=user_id&id=eq.${sessionId}&order=user_id`);
  assert.deepEqual(bothRows.body.map((row) => row.user_id).sort(), [ada().id, ben().id].sort());
});

test('with no --domain or --pull against the local demo stack: the kitchen demo, said on stderr and in serverInfo', async (t) => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['bin/alfred-act.mjs', 'mcp'],
    cwd: ROOT,
    env: { PATH: process.env.PATH, SUPABASE_URL: stack().supabaseUrl, SUPABASE_ANON_KEY: stack().anonKey, SUPABASE_ACCESS_TOKEN: ada().token },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr.on('data', (chunk) => (stderr += chunk));
  const client = mcpClient({ name: 'alfred-act-test', version: '1.0.0' });
  await client.connect(transport);
  t.after(() => client.close());
  assert.deepEqual(client.getServerVersion(), { name: 'alfred-act', title: 'alfred-act: kitchen domain', version: '0.1.0' });
  await client.listTools();
  assert.match(stderr, /^alfred-act mcp: no --domain or --pull: serving the kitchen demo domain, as http:\/\/127\.0\.0\.1:\d+ is the local demo stack\nalfred-act mcp: serving the kitchen domain \(the demo; 9 tables: recipes, /);
});

test('read-only over a domain of functions none of which reads (basejump\'s volatile reads): db_schema alone, and stderr says why and what to do', async (t) => {
  const domainFile = join(scratch, 'teams.json');
  await writeFile(domainFile, JSON.stringify({
    name: 'teams',
    tables: { accounts: { ref: 'account', exposed: false, label: ['name'], columns: { id: { type: 'uuid' }, name: { type: 'text' } } } },
    functions: { get_accounts: { returns: { type: 'json' } } },
  }));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['bin/alfred-act.mjs', 'mcp', '--domain', domainFile, '--read-only'],
    cwd: ROOT,
    env: { PATH: process.env.PATH, ...nodeOptions, SUPABASE_URL: stack().supabaseUrl, SUPABASE_ANON_KEY: stack().anonKey, SUPABASE_ACCESS_TOKEN: ada().token },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr.on('data', (chunk) => (stderr += chunk));
  const client = mcpClient({ name: 'alfred-act-test', version: '1.0.0' });
  await client.connect(transport);
  t.after(() => client.close());
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((tool) => tool.name), ['db_schema']);
  assert.match(stderr, /alfred-act mcp: read-only, and this domain has no table the API serves and no function marked as a read: the model can call nothing but db_schema\. Mark the reads with "read": true/);
});

/** Ada's shopping-list rows named `name`, read back as Ada. */
async function shoppingRows(name) {
  const { body } = await rest(stack(), ada().token, 'GET', `/shopping_list?select=name,quantity&name=eq.${encodeURIComponent(name)}`);
  return body;
}

test('a delete asks the user with its preview: accepted, the row is gone; declined or dismissed, it stays and the model reads why', async (t) => {
  const answers = [{ action: 'decline' }, { action: 'cancel' }, { action: 'accept', content: { confirm: false } }, ACCEPT()];
  const client = await connect(t, { elicit: () => answers.shift() });
  const created = await call(client, 'db_create', { table: 'shopping_list', data: { name: 'stdio confirm saffron', quantity: 1 } });
  assert.equal(created.isError, false, JSON.stringify(created.body));
  assert.deepEqual(client.asked, [], 'a create does not ask by default');
  const ref = created.body.rows[0].id;
  const del = { table: 'shopping_list', filters: [{ field: 'id', op: '=', value: ref }] };

  for (const [answer, message] of [
    ['decline', 'the user declined db_delete on shopping_list (1 row); nothing was sent'],
    ['cancel', 'the user did not confirm db_delete on shopping_list (1 row); nothing was sent'],
    ['accept without a yes', 'the user declined db_delete on shopping_list (1 row); nothing was sent'],
  ]) {
    const refused = await call(client, 'db_delete', del);
    assert.equal(refused.isError, true, answer);
    assert.deepEqual(refused.body.error, { code: 'approval_declined', path: '', message, hint: 'nothing was changed; do not send this call again unless the user asks for it' }, answer);
    assert.deepEqual(await shoppingRows('stdio confirm saffron'), [{ name: 'stdio confirm saffron', quantity: 1 }], `${answer}: the row is still there`);
  }
  const deleted = await call(client, 'db_delete', del);
  assert.equal(deleted.isError, false, JSON.stringify(deleted.body));
  assert.deepEqual(deleted.body.rows.map((row) => row.id), [ref]);
  assert.deepEqual(await shoppingRows('stdio confirm saffron'), []);

  // What the user was shown, each time: the call, the count, the row by ref and label.
  assert.equal(client.asked.length, 4);
  for (const asked of client.asked) {
    assert.equal(asked.message, `Delete 1 row of shopping_list: ${ref} "stdio confirm saffron"?`);
    assert.deepEqual(asked.requestedSchema, {
      type: 'object',
      properties: { confirm: { type: 'boolean', title: 'Delete 1 row', description: 'Allow db_delete on shopping_list to change the database', default: false } },
      required: ['confirm'],
    });
  }
});

test('rows added while the user decides are not written: the approved delete is refused with preview_changed', async (t) => {
  const client = await connect(t, {
    elicit: async () => {
      // Another row now matches the delete's filter.
      await rest(stack(), ada().token, 'POST', '/shopping_list', { body: { name: 'stdio moving target', quantity: 2 } });
      return ACCEPT();
    },
  });
  await call(client, 'db_create', { table: 'shopping_list', data: { name: 'stdio moving target', quantity: 1 } });
  const attempt = await call(client, 'db_delete', { table: 'shopping_list', filters: [{ field: 'name', op: '=', value: 'stdio moving target' }] });
  assert.equal(attempt.isError, true);
  assert.equal(attempt.body.error.code, 'preview_changed', JSON.stringify(attempt.body));
  assert.equal(client.asked.length, 1);
  assert.deepEqual((await shoppingRows('stdio moving target')).map((row) => row.quantity).sort(), [1, 2], 'nothing was deleted');
});

test('fails closed: a client that cannot elicit gets approval_required and nothing is written; --no-confirm writes unasked', async (t) => {
  const plain = await connect(t);
  const created = await call(plain, 'db_create', { table: 'shopping_list', data: { name: 'stdio closed cumin', quantity: 1 } });
  const del = { table: 'shopping_list', filters: [{ field: 'id', op: '=', value: created.body.rows[0].id }] };
  const refused = await call(plain, 'db_delete', del);
  assert.equal(refused.isError, true);
  assert.equal(refused.body.error.code, 'approval_required');
  assert.match(refused.body.error.message, /^deleting 1 row of shopping_list needs the user's approval; nothing was changed/);
  assert.match(refused.body.error.hint, /^nothing was sent: this MCP client cannot ask the user to confirm/);
  const update = await call(plain, 'db_update', { ...del, data: { quantity: 9 } });
  assert.equal(update.body.error.code, 'approval_required');
  assert.deepEqual(await shoppingRows('stdio closed cumin'), [{ name: 'stdio closed cumin', quantity: 1 }]);

  const unasked = await connect(t, { args: ['--no-confirm'] });
  const mine = await call(unasked, 'db_read', { table: 'shopping_list', columns: ['name'], filters: [{ field: 'name', op: '=', value: 'stdio closed cumin' }] });
  const deleted = await call(unasked, 'db_delete', { table: 'shopping_list', filters: [{ field: 'id', op: '=', value: mine.body.rows[0].id }] });
  assert.equal(deleted.isError, false, JSON.stringify(deleted.body));
  assert.deepEqual(await shoppingRows('stdio closed cumin'), []);
});

test('--read-only, --tables, --approve writes and --max-affected reach the act; refused calls write nothing', async (t) => {
  const readOnly = await connect(t, { env: { ALFRED_READ_ONLY: 'true' } });
  const { tools } = await readOnly.listTools();
  assert.deepEqual(tools.map((tool) => tool.name), ['db_read', 'db_aggregate', 'db_schema']);
  const refused = await call(readOnly, 'db_create', { table: 'shopping_list', data: { name: 'stdio read-only nutmeg', quantity: 1 } });
  assert.equal(refused.body.error.code, 'read_only');
  assert.deepEqual(await shoppingRows('stdio read-only nutmeg'), []);

  const narrow = await connect(t, { args: ['--tables', 'shopping_list,inventory'] });
  // The other tables are named nowhere the client or its model reads.
  const hidden = /\b(recipes|recipe_ingredients|ingredients|meal_plans|tasks|preferences|cooking_log)\b/;
  const shown = [
    JSON.stringify((await narrow.listTools()).tools),
    narrow.getInstructions(),
    (await narrow.callTool({ name: 'db_schema', arguments: {} })).content[0].text,
    (await narrow.readResource({ uri: 'alfred-act://schema' })).contents[0].text,
  ];
  for (const text of shown) {
    assert.match(text, /shopping_list/);
    assert.doesNotMatch(text, hidden);
  }
  const other = await call(narrow, 'db_read', { table: 'recipes' });
  assert.equal(other.body.error.code, 'unknown_table');
  assert.doesNotMatch(other.body.error.hint, hidden);
  assert.equal((await call(narrow, 'db_read', { table: 'inventory', limit: 1 })).isError, false);

  const asksFirst = await connect(t, { args: ['--approve', 'writes'], elicit: ACCEPT });
  const made = await call(asksFirst, 'db_create', { table: 'shopping_list', data: { name: 'stdio asked mace', quantity: 3 } });
  assert.equal(made.isError, false, JSON.stringify(made.body));
  assert.deepEqual(asksFirst.asked.map((asked) => asked.message), ['Create 1 row of shopping_list: "stdio asked mace"?']);
  assert.deepEqual(await shoppingRows('stdio asked mace'), [{ name: 'stdio asked mace', quantity: 3 }]);

  const capped = await connect(t, { args: ['--max-affected', '2', '--no-confirm'] });
  const before = await rest(stack(), ada().token, 'GET', '/inventory?select=name,notes&order=name');
  assert.ok(before.body.length > 2);
  const wide = await call(capped, 'db_update', { table: 'inventory', filters: [{ field: 'quantity', op: '>=', value: 0 }], data: { notes: 'capped' } });
  assert.equal(wide.body.error.code, 'too_many_rows');
  assert.match(wide.body.error.message, /(at most 2 may be touched by one call|over the limit of 2 \(maxAffected\); nothing was changed)$/);
  const after = await rest(stack(), ada().token, 'GET', '/inventory?select=name,notes&order=name');
  assert.deepEqual(after.body, before.body);

  const conflict = await runCli(['--no-confirm', '--approve', 'writes', '--access-token', ada().token], { SUPABASE_URL: stack().supabaseUrl, SUPABASE_ANON_KEY: stack().anonKey });
  assert.equal(conflict.code, 2);
  assert.match(conflict.stderr, /--no-confirm runs writes without asking, and --approve writes asks before some: give one of them/);
});

test('a message larger than the SDK buffer is answered with an error naming its id, and the server serves on', async (t) => {
  const client = await connect(t);
  const huge = 'x'.repeat(11 * 1024 * 1024);
  await assert.rejects(
    client.callTool({ name: 'db_read', arguments: { table: 'inventory', filters: [{ field: 'name', op: '=', value: huge }] } }),
    (error) => error.code === -32600 && /the message is \d+ bytes, over the 10485760 bytes this server reads/.test(error.message),
  );
  const { isError, body } = await call(client, 'db_read', { table: 'inventory', columns: ['name'], limit: 1 });
  assert.equal(isError, false);
  assert.equal(body.rows.length, 1);
});

test('a 2026-07-28 client (the SDK v2, negotiating) is served by the stdio server in the 2025 revision it falls back to', async (t) => {
  const { Client: ClientV2 } = await import('@modelcontextprotocol/client');
  const { StdioClientTransport: StdioV2 } = await import('@modelcontextprotocol/client/stdio');
  const { CfWorkerJsonSchemaValidator } = await import('@modelcontextprotocol/client/validators/cf-worker');
  const transport = new StdioV2({
    command: process.execPath,
    args: ['bin/alfred-act.mjs', 'mcp'],
    cwd: ROOT,
    env: { PATH: process.env.PATH, ...nodeOptions, SUPABASE_URL: stack().supabaseUrl, SUPABASE_ANON_KEY: stack().anonKey, SUPABASE_ACCESS_TOKEN: ada().token },
    stderr: 'pipe',
  });
  const client = new ClientV2({ name: 'v2-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' }, jsonSchemaValidator: new CfWorkerJsonSchemaValidator() });
  await client.connect(transport);
  t.after(() => client.close());
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((tool) => tool.name), ['db_read', 'db_create', 'db_update', 'db_delete', 'db_aggregate', 'db_schema']);
  const result = await client.callTool({ name: 'db_read', arguments: { table: 'inventory', columns: ['name'], order_by: 'name', limit: 1 } });
  const truth = await rest(stack(), ada().token, 'GET', '/inventory?select=name&order=name.asc&limit=1');
  assert.deepEqual(result.structuredContent.rows.map((row) => row.name), truth.body.map((row) => row.name));
});
