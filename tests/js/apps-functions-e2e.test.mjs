// Four published apps whose data API goes through Postgres functions, end to
// end as a model uses them: letsrunit (a team app on basejump: projects
// belong to accounts in a schema the API does not expose, membership decides),
// basejump as published (functions and no table: teams and invitations),
// supabase-tenant-rbac (rbac.has_permission in the policies decides per group)
// and Chatbot UI (retrieval with match_file_items_local over vector(384)).
// Each app's migrations as published and our seeds run in the local stack
// (tests/apps/*/SOURCE.md); `domain pull` derives the domain with no
// overrides (an opt-in only where a security definer function is wanted);
// two users sign in with supabase-js and the everyday requests run as tool
// calls, on every surface a model reaches them through: act.execute,
// act.callTool, the AI SDK and OpenAI adapters, MCP (the SDK's client, in
// process), the worker's /act/execute (its Node entry in process, which
// takes an embedder object; the template in workerd once) and the Act loop.
// Every write is read back as the service role, and every result the model
// would see is checked for UUIDs. Faults of the core are `todo` tests.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createClient } from '@supabase/supabase-js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { generateText, stepCountIs } from 'ai';
import * as aiTest from 'ai/test';
import OpenAI from 'openai';
import { startStack } from '../../db/local-stack.mjs';
import { lexicalEmbedder, loadCore, pullDomain } from '../../web/src/index.node.js';
import { aiToolApproval, aiTools } from '../../web/src/adapters/ai.js';
import { openaiTools, runToolCalls } from '../../web/src/adapters/openai.js';
import { createMcpServer } from '../../web/src/mcp/server.js';
import { mcpInstructions } from '../../web/src/mcp/tools.js';
import { createHandler } from '../../web/src/worker/index.node.js';
import { createChatModel } from '../../web/src/llm/index.js';
import { runStep } from '../../web/src/loop/index.js';
import { mcpClient } from './support/mcp-client.mjs';
import { ROOT } from './support/paths.mjs';
import { completionBody, startScriptedModel, toolCallsBody } from './support/scripted-model.mjs';
import { stepComplete, toolCall } from './support/decisions.mjs';
import { rest } from './support/stack.mjs';
import { post } from './support/worker-client.mjs';
import { startWorkerd } from '../../scripts/serve-worker.mjs';

const APPS = join(ROOT, 'tests/apps');
const STACK_START = { timeout: 60_000 };
const BOUNDED = { timeout: 20_000 };
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const where = (field, op, value = null) => ({ field, op, value });
// The pull's note on a volatile function whose body only reads (web/src/pull/functions.js).
const VOLATILE_READ =
  'offered as a read though volatile (the default when a function does not say stable): its body changes no data and calls no function that may, and a call goes by GET, which PostgREST runs read-only. If it only reads, mark it stable (create or replace function … stable); if it changes data, say "read": false in the overrides';

class NoRealtimeSocket {
  constructor() {
    throw new Error('realtime is not used by these tests');
  }
}
const realtime = { transport: globalThis.WebSocket ?? NoRealtimeSocket };

let core;
before(async () => {
  core = await loadCore();
});

/**
 * The app's stack (its migrations, then `seeds` of its supabase folder), a
 * pull of its domain (`pull(overrides)`, from PostgREST's description and the
 * catalog the stack read), its users signed in with supabase-js, and the
 * database as the service role sees it.
 */
async function appUnderTest(name, { seeds = ['seed.sql'], users = [] } = {}) {
  const dir = join(APPS, name, 'supabase');
  const stack = await startStack({ migrations: join(dir, 'migrations'), seed: seeds.map((seed) => join(dir, seed)), users });
  const clients = [];
  return {
    stack,
    /** `pullDomain` as `domain pull` runs it on this stack: `{ data, error, notes }`, never failing here. */
    async pull(overrides, catalog = stack.catalog) {
      const pulled = await pullDomain({ url: stack.supabaseUrl, apiKey: stack.serviceKey, catalog, core, name, ...(overrides ? { overrides } : {}) });
      assert.equal(pulled.error, null, JSON.stringify(pulled.error));
      return pulled;
    },
    /** `{ supabase, user, token }` of `email` signed in through the stack's /auth/v1. */
    async signIn(email, password) {
      const supabase = createClient(stack.supabaseUrl, stack.anonKey, { realtime, auth: { persistSession: false, autoRefreshToken: false } });
      clients.push(supabase);
      const { data, error } = await supabase.auth.signInWithPassword({ email, password });
      assert.equal(error, null, `${email} signs in`);
      return { supabase, user: data.user, token: data.session.access_token };
    },
    /** Rows as the database holds them, past RLS. */
    async db(path) {
      const { status, body } = await rest(stack, stack.serviceKey, 'GET', path);
      assert.equal(status, 200, `GET ${path}: ${JSON.stringify(body)}`);
      return body;
    },
    /** PostgREST straight, as `token`: what the app itself gets. */
    async asUser(token, method, path, body) {
      const answer = await rest(stack, token, method, path, body === undefined ? {} : { body });
      assert.equal(answer.status, 200, `${method} ${path}: ${JSON.stringify(answer.body)}`);
      return answer.body;
    },
    async stop() {
      for (const supabase of clients) await supabase.auth.signOut().catch(() => {});
      await stack.stop();
    },
  };
}

/** Fails when `value` (anything the model would see) holds a UUID. */
function noUuid(value, what = 'what the model sees') {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  assert.doesNotMatch(text, UUID, `${what} has a UUID: ${text.slice(0, 400)}`);
  return value;
}

/** A result the model may see: no error, no UUID in its data or its query record. */
function ok(result) {
  assert.equal(result.error, null, `unexpected error: ${JSON.stringify(result.error)}`);
  noUuid({ data: result.data, query: result.query });
  return result;
}

/** A refused call: the code expected, nothing but refs in what the model reads. */
function refused(result, code) {
  assert.equal(result.error?.code, code, `expected ${code}: ${JSON.stringify(result.error ?? result.data)}`);
  const { raw, ...forModel } = result.error;
  noUuid({ error: forModel, query: result.query });
  return result.error;
}

/** The UUID a ref of `act`'s registry stands for. */
const uuidOf = (act, ref) => act.registry.toJSON().refs.find((entry) => entry.ref === ref)?.uuid;

/** An MCP client connected in process to `createMcpServer(options)`; `asked` records each confirmation, answered by `answer(request)`. */
async function mcpSession(t, options, answer = () => ({ action: 'accept', content: { confirm: true } })) {
  const { data, error } = await createMcpServer({ core, ...options });
  assert.equal(error, null, JSON.stringify(error));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await data.server.connect(serverSide);
  const client = mcpClient({ name: 'alfred-act-apps', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  const asked = [];
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    asked.push(request.params);
    return answer(request.params);
  });
  await client.connect(clientSide);
  t.after(() => client.close());
  /** tools/call → `{ isError, body }`, the JSON text parsed; the text holds no UUID. */
  const call = async (name, args) => {
    const result = await client.callTool({ name, arguments: args });
    assert.equal(result.content.length, 1, JSON.stringify(result));
    noUuid(result.content[0].text, `MCP ${name}`);
    return { isError: result.isError === true, body: JSON.parse(result.content[0].text) };
  };
  return { client, call, asked };
}

/** The worker's Node entry in process: POST /act/execute as `token`, `{ status, body }`. */
function workerFor(domain, env, options = {}) {
  const handler = createHandler({ domain, ...options });
  return async (token, body) => {
    const response = await handler.fetch(
      new Request('http://worker.test/act/execute', { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) }),
      env,
    );
    const answer = { status: response.status, body: await response.json() };
    noUuid({ data: answer.body.data, query: answer.body.query, error: answer.body.error }, 'the worker\'s answer');
    return answer;
  };
}

// The AI SDK's own mock language model, of the interface its major speaks.
const MockLanguageModel = aiTest.MockLanguageModelV4 ?? aiTest.MockLanguageModelV3 ?? aiTest.MockLanguageModelV2;
const specification = new MockLanguageModel().specificationVersion;
const finish = (unified, raw) => (specification === 'v2' ? unified : { unified, raw });
const usage = specification === 'v2'
  ? { inputTokens: 10, outputTokens: 5, totalTokens: 15 }
  : { inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 5, text: 5, reasoning: undefined } };
let aiCallId = 0;
const aiToolCall = (toolName, input) => ({
  content: [{ type: 'tool-call', toolCallId: `call_${++aiCallId}`, toolName, input: JSON.stringify(input) }],
  finishReason: finish('tool-calls', 'tool_calls'),
  usage,
  warnings: [],
});
const aiText = (value) => ({ content: [{ type: 'text', text: value }], finishReason: finish('stop', 'stop'), usage, warnings: [] });
/** The last tool result the SDK put into the prompt, as the model reads it, or null. */
function lastAiToolResult(prompt) {
  const message = prompt.at(-1);
  if (message?.role !== 'tool') return null;
  const part = message.content.find((item) => item.type === 'tool-result');
  return part.output.type === 'json' ? part.output.value : JSON.parse(part.output.value);
}

describe('letsrunit (a team app on basejump): teams from get_accounts, projects written in a team, membership deciding', () => {
  const ADA = '0a0a0a0a-0000-4000-8000-00000000000a';
  const BEN = '0b0b0b0b-0000-4000-8000-00000000000b';
  const ACME = 'acacacac-0000-4000-8000-0000000000ac';
  // Our seed-member-writes.sql adds these to the app's policies (tests/apps/letsrunit/SOURCE.md).
  const MEMBER_WRITE_POLICIES = ['Account members can insert', 'Account members can update', 'Account owners can delete'];
  const DEFINER_FUNCTIONS = ['accept_invitation', 'can_access_project', 'get_account_billing_status', 'get_account_members', 'is_account_member', 'lookup_invitation', 'update_account_user_role'];
  // The opt-in: get_account_members is security definer (it reads the members'
  // emails); basejump's reads, volatile only because nobody wrote stable, are
  // reads already (their bodies change nothing), and saying so settles it.
  const OPT_IN = {
    functions: {
      get_account_members: { expose: true, read: true },
      get_accounts: { read: true },
      get_account: { read: true },
      current_user_account_role: { read: true },
    },
  };
  let app;
  let everyday;
  let optedIn;
  let ada;
  let ben;
  const tag = process.pid.toString(36);
  const actOf = (user, options = {}) => core.createAct({ supabase: user.supabase, domain: everyday.data, ...options });
  const teamsOf = async (act) => ok(await act.execute('db_call', { function: 'get_accounts' })).data;
  const teamNamed = async (act, name) => {
    const team = (await teamsOf(act)).find((row) => row.name === name);
    assert.ok(team, `${name} is among the user's teams`);
    return team;
  };

  before(async () => {
    app = await appUnderTest('letsrunit', {
      seeds: ['seed.sql', 'seed-member-writes.sql'],
      users: [
        { email: 'ada@example.com', password: 'ada-password' },
        { email: 'ben@example.com', password: 'ben-password' },
      ],
    });
    [everyday, optedIn, ada, ben] = await Promise.all([
      app.pull(),
      app.pull(OPT_IN),
      app.signIn('ada@example.com', 'ada-password'),
      app.signIn('ben@example.com', 'ben-password'),
    ]);
    assert.deepEqual([ada.user.id, ben.user.id], [ADA, BEN]);
  }, STACK_START);
  after(() => app?.stop());

  test('the pull with no overrides: accounts unexposed, projects.account_id required with references, the functions offered and the definer ones left out with notes', BOUNDED, () => {
    const { data: domain, notes } = everyday;
    const noteOn = (path) => notes.filter((note) => note.path === path).map((note) => note.message);
    assert.deepEqual(domain.tables.accounts, { ref: 'account', exposed: false, label: ['name'], columns: { id: { type: 'uuid' }, name: { type: 'text' } } });
    assert.deepEqual(noteOn('tables.accounts'), [
      'not exposed: basejump.accounts is in a schema the API does not serve, so the model never reads or writes it; functions such as create_account(), get_account(), get_accounts(), get_personal_account(), update_account() hand out its refs',
    ]);
    const projects = domain.tables.projects;
    assert.deepEqual(projects.columns.account_id, { type: 'uuid', required: true, references: 'accounts' });
    assert.equal(projects.writable, undefined, 'the members\' policies let a signed-in user write projects');
    assert.deepEqual(projects.relations, { features: 'features', runs: 'runs' });
    assert.deepEqual(Object.keys(domain.tables).sort(), ['accounts', 'features', 'invitations', 'journal_entries', 'projects', 'runs']);
    // basejump.invitations: no column references it; delete_invitation's argument names it.
    assert.deepEqual(domain.tables.invitations, { ref: 'inv', exposed: false, label: ['account_role'], columns: { id: { type: 'uuid' }, account_role: { type: 'text' } } });
    assert.match(noteOn('tables.invitations')[0], /it is the table the arguments delete_invitation\(invitation_id\) name \(no column references it\)/);
    for (const table of ['features', 'runs', 'journal_entries']) {
      assert.equal(domain.tables[table].writable, false);
      assert.deepEqual(noteOn(`tables.${table}.writable`), ['read-only: no row-level security policy lets a signed-in user insert, update or delete its rows']);
    }
    assert.deepEqual(domain.tables.runs.columns.project_id, { type: 'uuid', required: true, references: 'projects' });

    // basejump's API in public: invoker functions are offered, each argument
    // that takes an account's key a ref of accounts; reads are volatile, and
    // reads all the same, their bodies changing nothing.
    assert.deepEqual(Object.keys(domain.functions), [
      'create_account', 'create_invitation', 'current_user_account_role', 'delete_invitation', 'get_account', 'get_account_by_slug',
      'get_account_invitations', 'get_accounts', 'get_personal_account', 'remove_account_member', 'update_account',
    ]);
    assert.deepEqual(domain.functions.delete_invitation.args, { invitation_id: { type: 'uuid', required: true, references: 'invitations' } });
    assert.deepEqual(domain.functions.get_accounts, { read: true, args: {}, returns: { type: 'json' } });
    assert.deepEqual(domain.functions.current_user_account_role, { read: true, args: { account_id: { type: 'uuid', required: true, references: 'accounts' } }, returns: { type: 'json' } });
    assert.deepEqual(domain.functions.create_account, { read: false, args: { slug: { type: 'text' }, name: { type: 'text' } }, returns: { type: 'json' } });
    assert.deepEqual(domain.functions.remove_account_member.args.user_id, { type: 'uuid', required: true, references: 'auth.users' });
    assert.deepEqual(domain.functions.create_invitation.args.account_role, { type: 'text', required: true, values: ['owner', 'admin', 'member', 'viewer'] });
    for (const name of DEFINER_FUNCTIONS) {
      assert.equal(domain.functions[name], undefined, name);
      assert.deepEqual(noteOn(`functions.${name}`), [
        `left out: security definer: runs with its owner's rights, so row-level security does not protect what it touches; opt in with functions.${name}.expose: true in the overrides`,
      ]);
    }
    assert.match(noteOn('functions.get_account_id')[0], /^left out: it returns a uuid, the key of a table the pull cannot tell/);
    assert.deepEqual(noteOn('functions.delete_invitation'), []);
    assert.deepEqual(noteOn('functions.reap_stale_runs').map((message) => message.split(':')[0]), ['security definer without a pinned search_path', 'left out']);
    assert.match(noteOn('functions.service_role_upsert_customer_subscription')[0], /^left out: the authenticated role may not execute it/);
    // basejump's reads say nothing of their volatility: the pull offers them as reads, as their bodies show, and says why and how to say otherwise.
    const readsOffered = notes.filter((note) => note.message.startsWith('offered as a read')).map((note) => note.path);
    assert.deepEqual(readsOffered, ['current_user_account_role', 'get_account', 'get_account_by_slug', 'get_account_invitations', 'get_accounts', 'get_personal_account'].map((name) => `functions.${name}`));
    assert.deepEqual(noteOn('functions.get_accounts'), [VOLATILE_READ]);
    for (const name of ['create_account', 'create_invitation', 'delete_invitation', 'remove_account_member', 'update_account']) assert.deepEqual(noteOn(`functions.${name}`), [], `${name} writes`);
  });

  test('the opt-in for a definer function: get_account_members offered, as a read, with its account argument a ref', BOUNDED, () => {
    const { data: domain, notes } = optedIn;
    assert.deepEqual(domain.functions.get_account_members, {
      read: true,
      args: { account_id: { type: 'uuid', required: true, references: 'accounts' }, results_limit: { type: 'integer' }, results_offset: { type: 'integer' } },
      returns: { type: 'json' },
    });
    assert.equal(notes.some((note) => note.path === 'functions.get_account_members'), false, 'no note on a function opted in (its search_path is pinned)');
    assert.deepEqual(notes.filter((note) => note.message === VOLATILE_READ).map((note) => note.path), ['functions.get_account_by_slug', 'functions.get_account_invitations', 'functions.get_personal_account'], 'read: true settles it');
    assert.deepEqual(['get_accounts', 'get_account', 'current_user_account_role'].map((name) => domain.functions[name].read), [true, true, true]);
    for (const name of DEFINER_FUNCTIONS.filter((n) => n !== 'get_account_members')) assert.equal(domain.functions[name], undefined, name);
  });

  test('as published (no member write policies), projects are read-only: a create is refused before any request', BOUNDED, async () => {
    const facts = structuredClone(app.stack.catalog);
    facts.tables.projects.policies = facts.tables.projects.policies.filter((policy) => !MEMBER_WRITE_POLICIES.includes(policy.name));
    const published = await app.pull(undefined, facts);
    assert.equal(published.data.tables.projects.writable, false);
    assert.deepEqual(published.notes.filter((note) => note.path === 'tables.projects.writable').map((note) => note.message), [
      'read-only: no row-level security policy lets a signed-in user insert, update or delete its rows',
    ]);
    const act = core.createAct({ supabase: ben.supabase, domain: published.data });
    const acme = await teamNamed(act, 'Acme Robotics');
    const create = await act.execute('db_create', { table: 'projects', data: { name: `Refused ${tag}`, account_id: acme.account_id } });
    const error = refused(create, 'read_only_table');
    assert.equal(create.query.source, 'none');
    assert.match(error.message, /projects/);
    assert.deepEqual(await app.db(`/projects?name=eq.Refused%20${tag}`), []);
  });

  test('"which teams am I in?": get_accounts as each user, each team a ref of accounts standing for its row; the team they share is one row', BOUNDED, async () => {
    const adaAct = actOf(ada);
    const benAct = actOf(ben);
    const [adas, bens] = [await teamsOf(adaAct), await teamsOf(benAct)];
    const view = (rows) => rows.map((row) => [row.name, row.account_role, row.personal_account, row.is_primary_owner]).sort();
    assert.deepEqual(view(adas), [['Acme Robotics', 'owner', false, true], ['ada', 'owner', true, true]]);
    assert.deepEqual(view(bens), [['Acme Robotics', 'member', false, false], ['ben', 'owner', true, true]]);
    for (const row of [...adas, ...bens]) assert.match(row.account_id, /^account_\d+$/);
    // Each ref stands for the account the app's own call names, as each user.
    for (const [act, user, rows] of [[adaAct, ada, adas], [benAct, ben, bens]]) {
      const truth = await app.asUser(user.token, 'POST', '/rpc/get_accounts', {});
      for (const row of rows) assert.equal(uuidOf(act, row.account_id), truth.find((t) => t.name === row.name).account_id, row.name);
    }
    assert.equal(uuidOf(adaAct, adas.find((r) => r.name === 'Acme Robotics').account_id), ACME);
    assert.equal(uuidOf(benAct, bens.find((r) => r.name === 'Acme Robotics').account_id), ACME);
    assert.equal(uuidOf(adaAct, adas.find((r) => r.personal_account).account_id), ADA, 'basejump keys a personal account by its owner\'s user id');
  });

  test('"create a project in Acme Robotics", "rename it", "delete it": a member creates and renames, only an owner deletes (RLS decides)', BOUNDED, async () => {
    const act = actOf(ben);
    const acme = await teamNamed(act, 'Acme Robotics');
    const name = `Launch site ${tag}`;
    const missing = await act.execute('db_create', { table: 'projects', data: { name } });
    assert.match(refused(missing, 'missing_column').message, /account_id/);
    assert.equal(missing.query.source, 'none', 'refused before any request');
    const created = ok(await act.execute('db_create', { table: 'projects', data: { name, account_id: acme.account_id, url: 'https://launch.example' } }));
    assert.deepEqual([created.data.account_id, created.data._account_id_label, created.data.name, created.data.created_by], [acme.account_id, 'Acme Robotics', name, 'me']);
    assert.match(created.data.id, /^project_\d+$/);
    assert.deepEqual(await app.db(`/projects?name=eq.${encodeURIComponent(name)}&select=account_id,created_by,visibility`), [{ account_id: ACME, created_by: BEN, visibility: 'private' }]);

    const renamed = ok(await act.execute('db_update', { table: 'projects', filters: [where('id', '=', created.data.id)], data: { name: `${name} II` } }));
    assert.deepEqual([renamed.count, renamed.data[0].name], [1, `${name} II`]);
    assert.deepEqual(await app.db(`/projects?name=like.Launch%20site%20${tag}*&select=name,updated_by`), [{ name: `${name} II`, updated_by: BEN }]);

    // A member may not delete (the policy asks for an owner): nothing is deleted.
    const notHis = ok(await act.execute('db_delete', { table: 'projects', filters: [where('id', '=', created.data.id)] }));
    assert.deepEqual([notHis.count, notHis.data], [0, []]);
    assert.equal((await app.db(`/projects?name=eq.${encodeURIComponent(`${name} II`)}&select=id`)).length, 1);
    // Ada, Acme's owner, finds it by its name and deletes it.
    const owner = actOf(ada);
    const [found] = ok(await owner.execute('db_read', { table: 'projects', filters: [where('name', '=', `${name} II`)] })).data;
    assert.equal(found._account_id_label ?? null, null, 'labels of an unexposed table come from its functions; Ada has not called one yet');
    const deleted = ok(await owner.execute('db_delete', { table: 'projects', filters: [where('id', '=', found.id)] }));
    assert.equal(deleted.count, 1);
    assert.deepEqual(await app.db(`/projects?name=like.Launch%20site%20${tag}*&select=id`), []);
  });

  test('a team the user is not in: the ref reached through a public project is refused by RLS, a raw or invented one before any request; nothing is written', BOUNDED, async () => {
    const act = actOf(ada);
    await teamsOf(act);
    const [blog] = ok(await act.execute('db_read', { table: 'projects', filters: [where('name', '=', 'Ben\'s blog')] })).data;
    assert.equal(blog.visibility, 'public');
    assert.match(blog.account_id, /^account_\d+$/, 'Ben\'s personal account, seen through his public project');
    assert.equal(uuidOf(act, blog.account_id), BEN);
    const name = `Sneaky ${tag}`;
    const denied = await act.execute('db_create', { table: 'projects', data: { name, account_id: blog.account_id } });
    assert.match(refused(denied, 'permission_denied').message, /row-level security/);
    const raw = await act.execute('db_create', { table: 'projects', data: { name, account_id: BEN } });
    refused(raw, 'raw_id');
    const invented = await act.execute('db_create', { table: 'projects', data: { name, account_id: 'account_99' } });
    refused(invented, 'unknown_ref');
    assert.deepEqual([raw.query.source, invented.query.source], ['none', 'none']);
    assert.deepEqual(await app.db(`/projects?name=eq.${encodeURIComponent(name)}`), []);
  });

  test('the app fixes the active team (context.account_id): creates land in it, functions get it, the model can give neither', BOUNDED, async () => {
    const act = actOf(ben, { context: { account_id: ACME } });
    const create = act.tools().find((tool) => tool.name === 'db_create');
    assert.doesNotMatch(JSON.stringify(create), /account_id\*/, 'not offered as a required column');
    const call = act.tools().find((tool) => tool.name === 'db_call');
    assert.match(call.description, /- current_user_account_role\(\) /, 'the argument the app sets is not offered');
    const name = `Active team ${tag}`;
    const created = ok(await act.execute('db_create', { table: 'projects', data: { name } }));
    assert.match(created.data.account_id, /^account_\d+$/);
    assert.deepEqual(await app.db(`/projects?name=eq.${encodeURIComponent(name)}&select=account_id,created_by`), [{ account_id: ACME, created_by: BEN }]);
    refused(await act.execute('db_create', { table: 'projects', data: { name: 'Elsewhere', account_id: created.data.account_id } }), 'system_column');
    const role = ok(await act.execute('db_call', { function: 'current_user_account_role', args: {} }));
    assert.deepEqual(role.data, [{ account_role: 'member', is_primary_owner: false, is_personal_account: false }]);
    refused(await act.execute('db_call', { function: 'current_user_account_role', args: { account_id: created.data.account_id } }), 'system_column');
  });

  test('the team functions a member calls: get_account, get_account_by_slug, current_user_account_role; refusals in the app\'s own words', BOUNDED, async () => {
    const act = actOf(ben);
    const acme = await teamNamed(act, 'Acme Robotics');
    const [account] = ok(await act.execute('db_call', { function: 'get_account', args: { account_id: acme.account_id } })).data;
    assert.deepEqual([account.account_id, account.name, account.slug, account.account_role, account.personal_account], [acme.account_id, 'Acme Robotics', 'acme', 'member', false]);
    const [bySlug] = ok(await act.execute('db_call', { function: 'get_account_by_slug', args: { slug: 'acme' } })).data;
    assert.equal(bySlug.account_id, acme.account_id, 'the same team, the same ref');
    const role = ok(await act.execute('db_call', { function: 'current_user_account_role', args: { account_id: acme.account_id } }));
    assert.deepEqual(role.data, [{ account_role: 'member', is_primary_owner: false, is_personal_account: false }]);
    assert.deepEqual(role.query.source, 'database');

    // Ada reaches Ben's personal account only through his public project: the function refuses her.
    const adaAct = actOf(ada);
    const [blog] = ok(await adaAct.execute('db_read', { table: 'projects', filters: [where('name', '=', 'Ben\'s blog')] })).data;
    const notHers = await adaAct.execute('db_call', { function: 'current_user_account_role', args: { account_id: blog.account_id } });
    assert.equal(refused(notHers, 'function_error').message, 'calling current_user_account_role failed: Not found');
    const getIt = await adaAct.execute('db_call', { function: 'get_account', args: { account_id: blog.account_id } });
    assert.equal(refused(getIt, 'function_error').message, 'calling get_account failed: Not found', 'get_account asks current_user_account_role first');
    const wrongType = await act.execute('db_call', { function: 'get_account', args: { account_id: 'project_1' } });
    assert.ok(['ref_type_mismatch', 'unknown_ref'].includes(refused(wrongType, wrongType.error.code).code));
  });

  test('get_account_members (opted in): the owner reads the team\'s members; a member is refused in the app\'s words', BOUNDED, async () => {
    const act = core.createAct({ supabase: ada.supabase, domain: optedIn.data });
    const acme = await teamNamed(act, 'Acme Robotics');
    const members = ok(await act.execute('db_call', { function: 'get_account_members', args: { account_id: acme.account_id } }));
    assert.deepEqual(members.data.map((m) => [m.name, m.email, m.account_role, m.is_primary_owner]).sort(), [
      ['ada', 'ada@example.com', 'owner', true],
      ['ben', 'ben@example.com', 'member', false],
    ]);
    assert.equal(members.query.requested.args.account_id, acme.account_id);
    const member = core.createAct({ supabase: ben.supabase, domain: optedIn.data });
    const bensAcme = await teamNamed(member, 'Acme Robotics');
    const denied = await member.execute('db_call', { function: 'get_account_members', args: { account_id: bensAcme.account_id } });
    assert.equal(refused(denied, 'function_error').message, 'calling get_account_members failed: Only account owners can access this function');
  });

  test('"make Ben an owner of the crew", then "remove Ben from it": get_account_members gives Ben a ref labelled by his name, and the role and member functions take it; the model reads no UUID', { ...BOUNDED }, async () => {
    // update_account_user_role is security definer too: opted in here only.
    const roles = await app.pull({ functions: { ...OPT_IN.functions, update_account_user_role: { expose: true } } });
    const act = core.createAct({ supabase: ada.supabase, domain: roles.data });
    const [crew] = ok(await act.execute('db_call', { function: 'create_account', args: { name: `Crew ${tag}`, slug: `crew-${tag}` } })).data;
    // Ben joins as the app's own screens do: an invitation Ada makes, accepted by Ben.
    const crewId = (await app.asUser(ada.token, 'POST', '/rpc/get_accounts', {})).find((row) => row.name === `Crew ${tag}`).account_id;
    const { token } = await app.asUser(ada.token, 'POST', '/rpc/create_invitation', { account_id: crewId, account_role: 'member', invitation_type: 'one_time' });
    await app.asUser(ben.token, 'POST', '/rpc/accept_invitation', { lookup_invitation_token: token });
    const members = async () => ok(await act.execute('db_call', { function: 'get_account_members', args: { account_id: crew.account_id } })).data;
    const listed = await members();
    assert.deepEqual(listed.map((m) => [m.name, m.account_role, m.user_id.replace(/\d+$/, 'N')]).sort(), [['ada', 'owner', 'me'], ['ben', 'member', 'user_N']]);
    const bensRef = listed.find((m) => m.name === 'ben').user_id;
    // A model that writes the name where the ref belongs is told the ref.
    const byName = await act.execute('db_call', { function: 'update_account_user_role', args: { account_id: crew.account_id, user_id: 'ben', new_account_role: 'owner' } });
    assert.equal(refused(byName, 'not_a_ref').hint, `use the ref ${bensRef}`);
    const text = await act.callToolText('db_call', JSON.stringify({ function: 'update_account_user_role', args: { account_id: crew.account_id, user_id: bensRef, new_account_role: 'owner' } }));
    noUuid(text);
    assert.deepEqual((await members()).map((m) => [m.name, m.account_role]).sort(), [['ada', 'owner'], ['ben', 'owner']]);
    // The ref outlives the act: a later request (the worker's, MCP's) restores it from the state.
    const later = core.createAct({ supabase: ada.supabase, domain: roles.data, state: JSON.parse(JSON.stringify(act.registry.toJSON())) });
    ok(await later.execute('db_call', { function: 'remove_account_member', args: { account_id: crew.account_id, user_id: bensRef } }));
    assert.deepEqual((await members()).map((m) => m.name), ['ada']);
    const truth = await app.asUser(ben.token, 'POST', '/rpc/get_accounts', {});
    assert.equal(truth.some((row) => row.name === `Crew ${tag}`), false, 'Ben is no longer in the crew');
    // A UUID pasted for a member is refused, and names the ref the registry holds for it.
    const pasted = await act.execute('db_call', { function: 'remove_account_member', args: { account_id: crew.account_id, user_id: ben.user.id } });
    assert.equal(refused(pasted, 'raw_id').hint, `use the ref ${bensRef}`);
  });

  test('"start a team called Ben\'s band and a project in it": create_account\'s result gives the new team\'s ref, the create uses it', BOUNDED, async () => {
    const act = actOf(ben);
    const name = `Ben's band ${tag}`;
    const [team] = ok(await act.execute('db_call', { function: 'create_account', args: { name, slug: `band-${tag}` } })).data;
    assert.deepEqual([team.name, team.slug, team.account_role, team.personal_account], [name, `band-${tag}`, 'owner', false]);
    assert.match(team.account_id, /^account_\d+$/);
    const project = ok(await act.execute('db_create', { table: 'projects', data: { name: `Tour ${tag}`, account_id: team.account_id } }));
    assert.equal(project.data._account_id_label, name);
    const truth = await app.asUser(ben.token, 'POST', '/rpc/get_accounts', {});
    const made = truth.find((row) => row.name === name);
    assert.equal(uuidOf(act, team.account_id), made.account_id);
    assert.deepEqual(await app.db(`/projects?name=eq.Tour%20${tag}&select=account_id`), [{ account_id: made.account_id }]);
    const adas = await app.asUser(ada.token, 'POST', '/rpc/get_accounts', {});
    assert.equal(adas.some((row) => row.name === name), false, 'only its creator is in it');
  });

  test('"rename Ben\'s band to The Band": update_account\'s answer relabels the team, so the reads and creates after it name it by its new name', BOUNDED, async () => {
    const act = actOf(ben);
    const name = `Rename me ${tag}`;
    const [team] = ok(await act.execute('db_call', { function: 'create_account', args: { name, slug: `rename-${tag}` } })).data;
    const project = ok(await act.execute('db_create', { table: 'projects', data: { name: `Demo ${tag}`, account_id: team.account_id } }));
    assert.equal(project.data._account_id_label, name);
    const renamed = `The Band ${tag}`;
    const [updated] = ok(await act.execute('db_call', { function: 'update_account', args: { account_id: team.account_id, name: renamed } })).data;
    assert.deepEqual([updated.account_id, updated.name], [team.account_id, renamed]);
    const [read] = ok(await act.execute('db_read', { table: 'projects', filters: [where('id', '=', project.data.id)] })).data;
    assert.equal(read._account_id_label, renamed, 'not the name it had when the session met it');
    const text = await act.callToolText('db_read', JSON.stringify({ table: 'projects', filters: [{ field: 'id', op: '=', value: project.data.id }] }));
    assert.match(text, new RegExp(`"_account_id_label":"${renamed}"`));
    assert.doesNotMatch(text, new RegExp(name));
  });

  test('a personal account (keyed by its owner\'s user id) reads as a ref of accounts in projects, as get_accounts gives it', { ...BOUNDED }, async () => {
    const act = actOf(ada);
    const personal = (await teamsOf(act)).find((row) => row.personal_account);
    const [notebook] = ok(await act.execute('db_read', { table: 'projects', filters: [where('name', '=', 'Ada\'s notebook')] })).data;
    assert.equal(notebook.account_id, personal.account_id);
  });

  // --- the same requests on every surface ----------------------------------

  test('act.callTool: the model\'s text for "which teams am I in?" (strict arguments) and the create that uses its ref', BOUNDED, async () => {
    const act = actOf(ben);
    const teams = await act.callTool('db_call', JSON.stringify({ function: 'get_accounts', args: null }));
    noUuid(teams);
    const truth = await app.asUser(ben.token, 'POST', '/rpc/get_accounts', {});
    assert.deepEqual([teams.ok, teams.tool, teams.function, teams.table, teams.count], [true, 'db_call', 'get_accounts', null, truth.length]);
    assert.equal(teams.query, `Query: Function: get_accounts | Args: none\nOutcome: ${truth.length} rows returned`);
    assert.deepEqual(teams.rows.map((row) => row.name).sort(), truth.map((row) => row.name).sort());
    const acme = teams.rows.find((row) => row.name === 'Acme Robotics');
    const role = await act.callTool('db_call', { function: 'current_user_account_role', args: JSON.stringify({ account_id: acme.account_id }) });
    assert.deepEqual(noUuid(role).rows, [{ account_role: 'member', is_primary_owner: false, is_personal_account: false }]);
    assert.equal(role.query, `Query: Function: current_user_account_role | Args: account_id = ${acme.account_id}\nOutcome: 1 row returned`);
    const name = `Call tool ${tag}`;
    const text = await act.callToolText('db_create', JSON.stringify({ table: 'projects', data: JSON.stringify({ name, account_id: acme.account_id }) }));
    noUuid(text);
    const created = JSON.parse(text);
    assert.deepEqual([created.ok, created.rows[0].account_id, created.rows[0]._account_id_label], [true, acme.account_id, 'Acme Robotics']);
    assert.deepEqual(await app.db(`/projects?name=eq.${encodeURIComponent(name)}&select=account_id,created_by`), [{ account_id: ACME, created_by: BEN }]);
    const wrong = await act.callTool('db_call', { function: 'get_acounts' });
    assert.deepEqual([wrong.ok, wrong.error.code, wrong.error.path], [false, 'unknown_function', 'function']);
    assert.match(wrong.error.hint, /get_accounts/);
  });

  test('AI SDK: a scripted model asks get_accounts, creates the project in the team it names, and answers; the row is in the database', BOUNDED, async () => {
    const act = actOf(ben, { approve: 'none' });
    const name = `AI SDK ${tag}`;
    const seen = [];
    const model = new MockLanguageModel({
      doGenerate: async ({ prompt }) => {
        const result = lastAiToolResult(prompt);
        seen.push(result);
        if (result === null) return aiToolCall('db_call', { function: 'get_accounts', args: null });
        if (result.tool === 'db_call') {
          const acme = result.rows.find((row) => row.name === 'Acme Robotics');
          return aiToolCall('db_create', { table: 'projects', data: JSON.stringify({ name, account_id: acme.account_id }) });
        }
        return aiText(`Created ${result.rows[0].id} in ${result.rows[0]._account_id_label}`);
      },
    });
    const tools = aiTools(act);
    assert.deepEqual(Object.keys(tools), ['db_read', 'db_create', 'db_update', 'db_delete', 'db_call', 'db_aggregate']);
    assert.equal(tools.db_call.needsApproval, undefined, 'approve: none asks for nothing');
    // By default the adapters hold changes: create_account would be put to
    // the user; get_accounts, volatile but a read by its body, is not.
    const held = aiTools(actOf(ben));
    assert.equal(await held.db_call.needsApproval({ function: 'get_accounts', args: null }, { toolCallId: 'probe' }), false);
    assert.equal(await held.db_call.needsApproval({ function: 'create_account', args: { name: 'probe' } }, { toolCallId: 'probe' }), true);
    const result = await generateText({ model, tools, stopWhen: stepCountIs(5), prompt: 'Create a project called AI SDK in Acme Robotics.' });
    noUuid(seen.slice(1), 'the tool results the model read');
    const outcomes = result.steps.flatMap((step) => step.toolResults.map((item) => item.output));
    assert.deepEqual(outcomes.map((o) => [o.tool, o.ok]), [['db_call', true], ['db_create', true]]);
    assert.match(result.text, /^Created project_\d+ in Acme Robotics$/);
    assert.deepEqual(await app.db(`/projects?name=eq.${encodeURIComponent(name)}&select=account_id,created_by`), [{ account_id: ACME, created_by: BEN }]);
    // The SDK sent the core's db_call schema: the function names as an enum.
    const sent = model.doGenerateCalls[0].tools.find((tool) => tool.name === 'db_call');
    assert.deepEqual(sent.inputSchema, act.tools({ strict: true }).find((tool) => tool.name === 'db_call').parameters);
  });

  test('AI SDK 7 toolApproval (aiToolApproval): a function that changes data is put to the user with a reason naming it and its arguments', { ...BOUNDED, skip: specification !== 'v4' && 'toolApproval is AI SDK 7\'s' }, async () => {
    const act = core.createAct({ supabase: ben.supabase, domain: optedIn.data, approve: 'writes' });
    const previews = [];
    const toolApproval = aiToolApproval(act, { onPreview: (preview) => previews.push(preview) });
    assert.deepEqual(Object.keys(toolApproval), ['db_create', 'db_update', 'db_delete', 'db_call']);
    const name = `Reasoned band ${tag}`;
    const model = new MockLanguageModel({
      doGenerate: async ({ prompt }) => {
        const result = lastAiToolResult(prompt);
        if (result === null) return aiToolCall('db_call', { function: 'create_account', args: JSON.stringify({ name, slug: `reasoned-${tag}` }) });
        return aiText(JSON.stringify(result));
      },
    });
    const first = await generateText({ model, tools: aiTools(act), toolApproval, stopWhen: stepCountIs(4), prompt: 'Start a team.' });
    const request = first.content.find((part) => part.type === 'tool-approval-request');
    assert.ok(request, `the user is asked: ${JSON.stringify(first.content.map((part) => part.type))}`);
    assert.equal(request.reason, `Run create_account (it changes data) with name = ${JSON.stringify(name)}, slug = "reasoned-${tag}"`);
    assert.deepEqual(previews.map((preview) => [preview.tool, preview.function]), [['db_call', 'create_account']]);
    assert.equal((await app.asUser(ben.token, 'POST', '/rpc/get_accounts', {})).some((row) => row.name === name), false);
    // A function that reads is not put to the user (nor run to decide): it runs once, as the tool.
    const sent = [];
    const reader = new MockLanguageModel({
      doGenerate: async ({ prompt }) => {
        const result = lastAiToolResult(prompt);
        if (result === null) return aiToolCall('db_call', { function: 'get_accounts', args: null });
        sent.push(result);
        return aiText('done');
      },
    });
    const read = await generateText({ model: reader, tools: aiTools(act), toolApproval, stopWhen: stepCountIs(4), prompt: 'Which teams am I in?' });
    assert.equal(read.content.some((part) => part.type === 'tool-approval-request'), false);
    assert.deepEqual([sent.length, sent[0].ok, sent[0].function], [1, true, 'get_accounts']);
    assert.equal(previews.length, 1);
  });

  test('AI SDK approval: under approve: writes a function that changes data asks (needsApproval), one that reads does not; approved, create_account runs', { ...BOUNDED, skip: specification === 'v2' && 'AI SDK 5 has no tool approval' }, async () => {
    const act = core.createAct({ supabase: ben.supabase, domain: optedIn.data, approve: 'writes' });
    const tools = aiTools(act);
    assert.equal(typeof tools.db_call.needsApproval, 'function');
    assert.deepEqual([await tools.db_call.needsApproval({ function: 'get_accounts', args: null }), await tools.db_call.needsApproval({ function: 'create_account', args: '{}' })], [false, true]);
    const name = `Approved band ${tag}`;
    const seen = [];
    const model = new MockLanguageModel({
      doGenerate: async ({ prompt }) => {
        const result = lastAiToolResult(prompt);
        if (result === null) return aiToolCall('db_call', { function: 'create_account', args: JSON.stringify({ name, slug: `approved-${tag}` }) });
        seen.push(result);
        return aiText(`Made ${result.rows[0].account_id}`);
      },
    });
    const first = await generateText({ model, tools, stopWhen: stepCountIs(4), prompt: 'Start a team.' });
    const request = first.content.find((part) => part.type === 'tool-approval-request');
    assert.equal(request.toolCall.toolName, 'db_call');
    assert.equal((await app.asUser(ben.token, 'POST', '/rpc/get_accounts', {})).some((row) => row.name === name), false, 'held: nothing ran');
    const messages = [
      { role: 'user', content: 'Start a team.' },
      ...first.response.messages,
      { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved: true }] },
    ];
    const second = await generateText({ model, tools, stopWhen: stepCountIs(4), messages });
    assert.deepEqual([seen.length, seen[0].ok, seen[0].function], [1, true, 'create_account']);
    assert.match(second.text, /^Made account_\d+$/);
    assert.equal((await app.asUser(ben.token, 'POST', '/rpc/get_accounts', {})).filter((row) => row.name === name).length, 1);
  });

  test('MCP: db_call in tools/list with its annotations; a read function runs unasked, a write function asks the user first (declined: nothing; accepted: done)', BOUNDED, async (t) => {
    let answer = { action: 'decline' };
    const { client, call, asked } = await mcpSession(t, { domain: optedIn.data, url: app.stack.supabaseUrl, apiKey: app.stack.anonKey, accessToken: ben.token }, () => answer);
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name), ['db_read', 'db_create', 'db_update', 'db_delete', 'db_call', 'db_aggregate', 'db_schema']);
    const dbCall = tools.find((tool) => tool.name === 'db_call');
    assert.equal(dbCall.title, 'Call a database function');
    assert.deepEqual(dbCall.annotations, { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false });
    assert.match(dbCall.description, /- get_account_members\(account_id: ref of accounts, results_limit\?: integer, results_offset\?: integer\) \[reads\]/);

    const teams = await call('db_call', { function: 'get_accounts' });
    assert.equal(teams.isError, false);
    const acme = teams.body.rows.find((row) => row.name === 'Acme Robotics');
    assert.equal(asked.length, 0, 'a function that reads is never put to the user');
    const name = `MCP ${tag}`;
    const created = await call('db_create', { table: 'projects', data: { name, account_id: acme.account_id } });
    assert.deepEqual([created.isError, created.body.rows[0]._account_id_label], [false, 'Acme Robotics']);
    assert.deepEqual(await app.db(`/projects?name=eq.${encodeURIComponent(name)}&select=account_id`), [{ account_id: ACME }]);
    assert.equal(asked.length, 0, 'approve: changes (the default) does not hold a create');

    const band = { name: `MCP band ${tag}`, slug: `mcp-band-${tag}` };
    const declined = await call('db_call', { function: 'create_account', args: band });
    assert.deepEqual([declined.isError, declined.body.error.code], [true, 'approval_declined']);
    assert.equal(asked.length, 1);
    assert.equal(asked[0].message, `Run create_account (it changes data) with name = "${band.name}", slug = "${band.slug}"?`);
    const teamNames = async () => (await app.asUser(ben.token, 'POST', '/rpc/get_accounts', {})).map((row) => row.name);
    assert.equal((await teamNames()).includes(band.name), false, 'declined: nothing was sent');
    answer = { action: 'accept', content: { confirm: true } };
    const accepted = await call('db_call', { function: 'create_account', args: band });
    assert.deepEqual([accepted.isError, accepted.body.function, accepted.body.rows[0].name], [false, 'create_account', band.name]);
    assert.match(accepted.body.rows[0].account_id, /^account_\d+$/);
    assert.equal(asked.length, 2);
    assert.ok((await teamNames()).includes(band.name));
  });

  test('MCP: a read-only server lists db_call with only the functions that read, as read-only; a write function is refused unsent', BOUNDED, async (t) => {
    const { client, call, asked } = await mcpSession(t, { domain: optedIn.data, url: app.stack.supabaseUrl, apiKey: app.stack.anonKey, accessToken: ben.token, readOnly: true });
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name), ['db_read', 'db_call', 'db_aggregate', 'db_schema']);
    const dbCall = tools.find((tool) => tool.name === 'db_call');
    assert.deepEqual(dbCall.annotations, { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
    assert.deepEqual(dbCall.inputSchema.properties.function.enum, ['current_user_account_role', 'get_account', 'get_account_by_slug', 'get_account_invitations', 'get_account_members', 'get_accounts', 'get_personal_account']);
    const refusedCall = await call('db_call', { function: 'create_account', args: { name: 'Nope' } });
    assert.deepEqual([refusedCall.isError, refusedCall.body.error.code], [true, 'read_only']);
    assert.equal(asked.length, 0);
    assert.equal((await call('db_call', { function: 'get_accounts' })).isError, false);
  });

  test('MCP with no overrides: basejump\'s reads are volatile, but their bodies change nothing, so "which teams am I in?" is answered without asking; create_account is asked about', BOUNDED, async (t) => {
    const { client, call, asked } = await mcpSession(t, { domain: everyday.data, url: app.stack.supabaseUrl, apiKey: app.stack.anonKey, accessToken: ben.token });
    const { tools } = await client.listTools();
    const description = tools.find((tool) => tool.name === 'db_call').description;
    assert.match(description, /- get_accounts\(\) \[reads\]/);
    assert.match(description, /- create_account\(slug\?: text, name\?: text\) \[changes data\]/);
    const teams = await call('db_call', { function: 'get_accounts' });
    assert.deepEqual([teams.isError, teams.body.function], [false, 'get_accounts']);
    assert.deepEqual(asked, []);
  });

  test('the worker\'s /act/execute (Node entry, in process): get_accounts, then a create with its ref carried in the state; a write function held under ALFRED_APPROVE and run once approved', BOUNDED, async () => {
    const env = { SUPABASE_URL: app.stack.supabaseUrl, SUPABASE_ANON_KEY: app.stack.anonKey, SUPABASE_JWT_SECRET: app.stack.jwtSecret };
    const execute = workerFor(everyday.data, env);
    const teams = await execute(ben.token, { tool: 'db_call', params: { function: 'get_accounts' } });
    assert.equal(teams.status, 200);
    assert.equal(teams.body.error, null, JSON.stringify(teams.body.error));
    const acme = teams.body.data.find((row) => row.name === 'Acme Robotics');
    const name = `Worker ${tag}`;
    const created = await execute(ben.token, { tool: 'db_create', params: { table: 'projects', data: { name, account_id: acme.account_id } }, state: teams.body.state });
    assert.equal(created.body.error, null, JSON.stringify(created.body.error));
    assert.equal(created.body.data._account_id_label, 'Acme Robotics');
    assert.deepEqual(await app.db(`/projects?name=eq.${encodeURIComponent(name)}&select=account_id,created_by`), [{ account_id: ACME, created_by: BEN }]);
    // Without the state the ref means nothing: refs belong to the caller's registry.
    const stateless = await execute(ben.token, { tool: 'db_create', params: { table: 'projects', data: { name, account_id: acme.account_id } } });
    assert.equal(stateless.body.error.code, 'unknown_ref');

    const held = workerFor(everyday.data, { ...env, ALFRED_APPROVE: 'changes' });
    const band = { name: `Worker band ${tag}`, slug: `worker-band-${tag}` };
    const first = await held(ben.token, { tool: 'db_call', params: { function: 'create_account', args: band } });
    assert.equal(first.body.error.code, 'approval_required');
    assert.deepEqual([first.body.error.preview.tool, first.body.error.preview.function, first.body.error.preview.args], ['db_call', 'create_account', band]);
    const teamNames = async () => (await app.asUser(ben.token, 'POST', '/rpc/get_accounts', {})).map((row) => row.name);
    assert.equal((await teamNames()).includes(band.name), false);
    const approved = await held(ben.token, { tool: 'db_call', params: { function: 'create_account', args: band }, approved: true, preview: first.body.error.preview });
    assert.equal(approved.body.error, null, JSON.stringify(approved.body.error));
    assert.ok((await teamNames()).includes(band.name));
  });

  test('the worker template in workerd: /act/execute calls get_accounts and creates in the team it names, as the caller', { timeout: 30_000 }, async (t) => {
    const worker = await startWorkerd({ env: { SUPABASE_URL: app.stack.supabaseUrl, SUPABASE_ANON_KEY: app.stack.anonKey, SUPABASE_JWT_SECRET: app.stack.jwtSecret }, domain: everyday.data });
    t.after(() => worker.stop());
    const execute = async (body) => {
      const answer = await post(worker, '/act/execute', body, { token: ben.token });
      assert.equal(answer.status, 200);
      assert.equal(answer.body.error, null, JSON.stringify(answer.body.error));
      noUuid({ data: answer.body.data, query: answer.body.query }, 'the worker\'s answer');
      return answer.body;
    };
    const teams = await execute({ tool: 'db_call', params: { function: 'get_accounts' } });
    const acme = teams.data.find((row) => row.name === 'Acme Robotics');
    const name = `Workerd ${tag}`;
    const created = await execute({ tool: 'db_create', params: { table: 'projects', data: { name, account_id: acme.account_id } }, state: teams.state });
    assert.equal(created.data._account_id_label, 'Acme Robotics');
    assert.deepEqual(await app.db(`/projects?name=eq.${encodeURIComponent(name)}&select=account_id,created_by`), [{ account_id: ACME, created_by: BEN }]);
  });

  test('the Act loop: a read step calls get_accounts (a read, opted in) after a write function is refused in it; the step completes with the teams', BOUNDED, async () => {
    const act = core.createAct({ supabase: ben.supabase, domain: optedIn.data });
    const server = await startScriptedModel([
      toolCall('db_call', { function: 'create_account', args: JSON.stringify({ name: 'Not in a read' }) }),
      toolCall('db_call', { function: 'get_accounts', args: null }),
      stepComplete('Ben is in Acme Robotics and his own account'),
    ]);
    try {
      const model = createChatModel({ baseUrl: server.baseUrl, model: 'scripted', retryDelayMs: 10, maxRetries: 1 });
      const events = [];
      const result = await runStep({ core, act, model, step: { description: 'Find the teams I am in', type: 'read' }, context: { userMessage: 'Which teams am I in?' }, onEvent: (event) => events.push(event) });
      assert.equal(result.status, 'complete');
      assert.deepEqual(result.rejected.map((item) => item.reason), ['tool_not_allowed']);
      // The feedback names the function and why; db_call itself is allowed in a read step.
      const feedback = server.requests[1].body.messages.at(-1).content;
      assert.match(feedback, /^Tool result for db_call: ERROR\. The call had no effect\.\nError tool_not_allowed at function: create_account changes data, which a read step does not do\nHint: in a read step, call only functions that read/);
      assert.doesNotMatch(feedback, /Tool db_call is not allowed/);
      const executed = result.queries.at(-1);
      assert.equal(executed.error, null);
      const truth = await app.asUser(ben.token, 'POST', '/rpc/get_accounts', {});
      assert.deepEqual(executed.data.map((row) => row.name).sort(), truth.map((row) => row.name).sort());
      assert.ok(executed.data.some((row) => row.name === 'Acme Robotics'));
      for (const { body } of server.requests) for (const message of body.messages.filter((m) => m.role !== 'assistant')) noUuid(message.content, `the ${message.role} prompt`);
      assert.equal((await app.asUser(ben.token, 'POST', '/rpc/get_accounts', {})).some((row) => row.name === 'Not in a read'), false);
    } finally {
      await server.stop();
    }
  });
});

describe('basejump as published: a schema of functions and no table; the accounts and invitations their arguments name, teams and invitations as the user', () => {
  let app;
  let pulled;
  let ada;
  let ben;
  const tag = process.pid.toString(36);
  const actOf = (user, options = {}) => core.createAct({ supabase: user.supabase, domain: pulled.data, ...options });

  before(async () => {
    app = await appUnderTest('basejump', {
      seeds: [],
      users: [
        { email: 'ada@example.com', password: 'ada-password' },
        { email: 'ben@example.com', password: 'ben-password' },
      ],
    });
    [pulled, ada, ben] = await Promise.all([app.pull(), app.signIn('ada@example.com', 'ada-password'), app.signIn('ben@example.com', 'ben-password')]);
  }, STACK_START);
  after(() => app?.stop());

  test('the pull with no overrides: accounts and invitations (basejump\'s, not exposed) from the arguments that name them, and the functions that take their refs', BOUNDED, () => {
    const { data: domain, notes } = pulled;
    assert.deepEqual(domain.tables, {
      accounts: { ref: 'account', exposed: false, label: ['name'], columns: { id: { type: 'uuid' }, name: { type: 'text' } } },
      invitations: { ref: 'inv', exposed: false, label: ['account_role'], columns: { id: { type: 'uuid' }, account_role: { type: 'text' } } },
    });
    const references = Object.fromEntries(Object.entries(domain.functions).map(([name, fn]) => [name, Object.entries(fn.args).filter(([, arg]) => arg.references).map(([arg, { references: target }]) => `${arg} → ${target}`)]));
    assert.deepEqual(references, {
      create_account: [],
      create_invitation: ['account_id → accounts'],
      current_user_account_role: ['account_id → accounts'],
      delete_invitation: ['invitation_id → invitations'],
      get_account: ['account_id → accounts'],
      get_account_by_slug: [],
      get_account_invitations: ['account_id → accounts'],
      get_accounts: [],
      get_personal_account: [],
      remove_account_member: ['account_id → accounts', 'user_id → auth.users'],
      update_account: ['account_id → accounts'],
    });
    const noteOn = (path) => notes.filter((note) => note.path === path).map((note) => note.message);
    assert.deepEqual(noteOn('tables.invitations'), [
      'not exposed: basejump.invitations is in a schema the API does not serve, so the model never reads or writes it; functions such as create_invitation(), get_account_invitations() hand out its refs; it is the table the arguments delete_invitation(invitation_id) name (no column references it): if they take keys of another table, give that table as their "references" in the overrides',
    ]);
    assert.match(noteOn('tables.accounts')[0], /^not exposed: basejump\.accounts .* functions such as create_account\(\), get_account\(\), get_accounts\(\), get_personal_account\(\), update_account\(\) hand out its refs; it is the table the arguments create_invitation\(account_id\), /);
    // An MCP client is told the domain is served through its functions: no table for db_read.
    const instructions = mcpInstructions(domain);
    assert.match(instructions, /domain \(through its functions\).*refs \(account_1, inv_1\).*db_call runs the app's own functions/);
    assert.doesNotMatch(instructions, /db_read/);
  });

  test('without the catalog the description alone lists no table: the pull says to read the catalog; overrides that declare the tables whole make the domain', BOUNDED, async () => {
    const response = await fetch(`${app.stack.supabaseUrl}/rest/v1/`, { headers: { accept: 'application/openapi+json', apikey: app.stack.serviceKey } });
    const description = await response.json();
    assert.equal(description.definitions, undefined, 'PostgREST lists no definitions for a schema without tables');
    const bare = core.domainFromOpenApi(description);
    assert.equal(bare.error.code, 'invalid_openapi');
    assert.match(bare.error.message, /lists no table or view/);
    assert.match(bare.error.hint, /pull with the catalog/);
    // Facts read by an older catalogFacts (no namedTables): the tables are declared in the overrides.
    const { namedTables: _named, ...older } = app.stack.catalog;
    const declared = {
      tables: {
        accounts: { exposed: false, label: ['name'], columns: { id: { type: 'uuid' }, name: { type: 'text' } } },
        invitations: { exposed: false, columns: { id: { type: 'uuid' } } },
      },
    };
    const { data, error } = await pullDomain({ url: app.stack.supabaseUrl, apiKey: app.stack.serviceKey, catalog: older, core, overrides: declared });
    assert.equal(error, null, JSON.stringify(error));
    assert.deepEqual([data.tables.accounts.ref, data.tables.invitations.ref], ['account', 'inv']);
    assert.equal(data.functions.delete_invitation.args.invitation_id.references, 'invitations');
    const withoutThem = await pullDomain({ url: app.stack.supabaseUrl, apiKey: app.stack.serviceKey, catalog: older, core });
    assert.equal(withoutThem.error.code, 'invalid_openapi');
    assert.match(withoutThem.error.hint, /"exposed": false/);
    // A table the overrides name that the database does not have, without "exposed": false, is still refused.
    const misspelt = await pullDomain({ url: app.stack.supabaseUrl, apiKey: app.stack.serviceKey, catalog: older, core, overrides: { tables: { acounts: { label: ['name'] } } } });
    assert.equal(misspelt.error.code, 'invalid_overrides');
    assert.match(misspelt.error.hint, /"exposed": false/);
  });

  test('"start a team called Acme", "rename it Acme Corp", "invite a member", "delete the invitation": each a function call with the refs it gave; the model reads no UUID', BOUNDED, async () => {
    const act = actOf(ada);
    const [personal] = ok(await act.execute('db_call', { function: 'get_personal_account' })).data;
    assert.deepEqual([personal.account_id, personal.name, personal.personal_account], ['account_1', 'ada', true]);
    const [team] = ok(await act.execute('db_call', { function: 'create_account', args: { name: `Acme ${tag}`, slug: `acme-${tag}` } })).data;
    assert.match(team.account_id, /^account_\d+$/);
    const [renamed] = ok(await act.execute('db_call', { function: 'update_account', args: { account_id: team.account_id, name: `Acme Corp ${tag}` } })).data;
    assert.deepEqual([renamed.account_id, renamed.name], [team.account_id, `Acme Corp ${tag}`]);
    const [invitation] = ok(await act.execute('db_call', { function: 'create_invitation', args: { account_id: team.account_id, account_role: 'member', invitation_type: 'one_time' } })).data;
    assert.equal(typeof invitation.token, 'string');
    const listed = ok(await act.execute('db_call', { function: 'get_account_invitations', args: { account_id: team.account_id } })).data;
    assert.deepEqual(listed.map((row) => [row.account_role, row.invitation_type]), [['member', 'one_time']]);
    assert.match(listed[0].invitation_id, /^inv_\d+$/);
    ok(await act.execute('db_call', { function: 'delete_invitation', args: { invitation_id: listed[0].invitation_id } }));
    assert.deepEqual(ok(await act.execute('db_call', { function: 'get_account_invitations', args: { account_id: team.account_id } })).data, []);
    const text = await act.callToolText('db_call', JSON.stringify({ function: 'get_accounts', args: null }));
    noUuid(text);
    assert.match(text, new RegExp(`"account_id":"${team.account_id}","account_role":"owner","is_primary_owner":true,"name":"Acme Corp ${tag}"`));
  });

  test('the active team fixed by the app (context.account_id) must be its id: a ref or a name is refused when the act is made, not on the model\'s first call', BOUNDED, async () => {
    for (const given of ['account_2', 'Acme', 42]) {
      assert.throws(() => actOf(ada, { context: { account_id: given } }), (error) => error.code === 'invalid_option' && error.path === 'context.account_id' && /holds a uuid/.test(error.message), String(given));
    }
    const act = actOf(ada, { context: { account_id: ada.user.id } });
    const [role] = ok(await act.execute('db_call', { function: 'current_user_account_role', args: {} })).data;
    assert.deepEqual([role.account_role, role.is_personal_account], ['owner', true]);
  });

  test('Ben, given Ada\'s refs: her team is not his; the functions refuse in basejump\'s words, and he sees his own account only', BOUNDED, async () => {
    const adas = actOf(ada);
    const [team] = ok(await adas.execute('db_call', { function: 'create_account', args: { name: `Private ${tag}`, slug: `private-${tag}` } })).data;
    // Her state as saved is refused for Ben before any request (docs/sessions.md, "One user's refs")...
    const saved = adas.registry.toJSON();
    assert.equal(refused(await actOf(ben, { state: saved }).execute('db_call', { function: 'get_accounts' }), 'state_of_another_user').path, 'state');
    // ...and with its user taken out, the database still keeps her team from him.
    const { user: _ada, ...stolen } = saved;
    const act = actOf(ben, { state: stolen });
    const rename = await act.execute('db_call', { function: 'update_account', args: { account_id: team.account_id, name: 'Taken' } });
    assert.equal(refused(rename, 'function_error').message, 'calling update_account failed: Not found');
    const invite = await act.execute('db_call', { function: 'create_invitation', args: { account_id: team.account_id, account_role: 'owner', invitation_type: 'one_time' } });
    assert.ok(['permission_denied', 'function_error'].includes(refused(invite, invite.error.code).code));
    const bens = ok(await act.execute('db_call', { function: 'get_accounts' })).data;
    assert.deepEqual(bens.map((row) => [row.name, row.personal_account]), [['ben', true]]);
    const [adaView] = ok(await adas.execute('db_call', { function: 'get_account', args: { account_id: team.account_id } })).data;
    assert.equal(adaView.name, `Private ${tag}`, 'unchanged');
  });
});

describe('supabase-tenant-rbac: rbac.has_permission in the policies allows reads and writes in one group and refuses them in the other', () => {
  const ALPHA = 'f1111111-1111-1111-1111-111111111111';
  const BETA = 'f2222222-2222-2222-2222-222222222222';
  const ALPHA_ROW = '9baf6dc9-fdda-40cb-a708-cf8e59d8927b';
  const BETA_ROW = '5eed0000-0000-4000-8000-00000000be7a';
  const MEMBERS = ['alice', 'bob', 'carol', 'dave', 'eve'];
  let app;
  let pulled;
  const users = {};
  const tag = process.pid.toString(36);
  const actOf = (name, options = {}) => core.createAct({ supabase: users[name].supabase, domain: pulled.data, ...options });
  const dataOf = async (group) => (await app.db(`/sensitive_data?select=data&owned_by_group=eq.${group}&order=data`)).map((row) => row.data);
  /** The row whose data is `text`, as `act` reads it: its ref. */
  const refOf = async (act, text) => {
    const rows = ok(await act.execute('db_read', { table: 'sensitive_data', filters: [where('data', '=', text)] })).data;
    assert.equal(rows.length, 1, `one row reads ${text}`);
    return rows[0].id;
  };
  /** A row written past RLS, as the app's server would. */
  const seedRow = async (data, group) => {
    const { status } = await rest(app.stack, app.stack.serviceKey, 'POST', '/sensitive_data', { body: { data, owned_by_group: group } });
    assert.equal(status, 201);
  };

  before(async () => {
    // The app's seed makes the users with a hash that is not of the password its README names: the tests give them passwords.
    app = await appUnderTest('tenant-rbac', { seeds: ['seed.sql', 'seed-beta.sql'], users: MEMBERS.map((name) => ({ email: `${name}@example.local`, password: `${name}-password` })) });
    pulled = await app.pull();
    for (const name of MEMBERS) users[name] = await app.signIn(`${name}@example.local`, `${name}-password`);
  }, STACK_START);
  after(() => app?.stop());

  test('the pull with no overrides: sensitive_data writable (the write policies), its group column hidden (no foreign key names its table), no function in the exposed schema', BOUNDED, async () => {
    assert.deepEqual(pulled.data.tables, {
      sensitive_data: {
        ref: 'sen',
        // Its policies are the authenticated role's: without a session, not_signed_in.
        signed_in: true,
        hidden: ['owned_by_group'],
        columns: {
          id: { type: 'uuid', writable: false, nullable: false },
          data: { type: 'text', nullable: false },
          created_at: { type: 'timestamp', writable: false, nullable: false },
        },
      },
    });
    assert.deepEqual(pulled.notes, [
      {
        path: 'tables.sensitive_data.columns.owned_by_group',
        message:
          'hidden: a uuid column without a foreign key: add "references": "<table>" (or "auth.users" for a user id) in the overrides to use it; every create needs it (NOT NULL without a default) and the model cannot give it, so the database refuses the creates the model makes',
      },
    ]);
    // The app's functions (has_permission, create_group, …) live in rbac, which the API does not serve.
    assert.equal(Object.keys(pulled.data.functions ?? {}).length, 0);
    assert.deepEqual(actOf('carol').tools().map((tool) => tool.name), ['db_read', 'db_create', 'db_update', 'db_delete', 'db_aggregate']);
    const call = await actOf('carol').execute('db_call', { function: 'has_permission', args: {} });
    assert.equal(refused(call, 'unknown_function').hint, 'this database offers no functions to call; use db_read and the write tools');
  });

  test('"what data can I see?": each member reads their groups\' rows only, as the app itself reads them', BOUNDED, async () => {
    for (const [name, expected] of [['alice', ['group alpha data']], ['dave', ['group alpha data']], ['eve', ['group beta data']], ['carol', ['group alpha data', 'group beta data']]]) {
      const read = ok(await actOf(name).execute('db_read', { table: 'sensitive_data', columns: ['data'], order_by: 'data' }));
      const truth = await app.asUser(users[name].token, 'GET', '/sensitive_data?select=data&order=data');
      assert.deepEqual(read.data.map((row) => row.data), truth.map((row) => row.data), name);
      assert.ok(expected.every((text) => read.data.some((row) => row.data === text)), name);
      for (const row of read.data) assert.match(row.id, /^sen_\d+$/);
    }
  });

  test('"edit the Alpha row": an admin and an editor change it; a viewer\'s change and an editor\'s change in the group where she views touch nothing', BOUNDED, async () => {
    const text = `alpha edited by bob ${tag}`;
    const bob = actOf('bob');
    const alpha = await refOf(bob, 'group alpha data');
    const edited = ok(await bob.execute('db_update', { table: 'sensitive_data', filters: [where('id', '=', alpha)], data: { data: text } }));
    assert.deepEqual([edited.count, edited.data[0].data], [1, text]);
    assert.deepEqual(await app.db(`/sensitive_data?id=eq.${ALPHA_ROW}&select=data`), [{ data: text }]);

    const dave = actOf('dave');
    const viewer = ok(await dave.execute('db_update', { table: 'sensitive_data', filters: [where('id', '=', await refOf(dave, text))], data: { data: 'dave was here' } }));
    assert.deepEqual([viewer.count, viewer.data], [0, []], 'RLS: a viewer has no data.write');
    const carol = actOf('carol');
    const inBeta = ok(await carol.execute('db_update', { table: 'sensitive_data', filters: [where('id', '=', await refOf(carol, 'group beta data'))], data: { data: 'carol was here' } }));
    assert.deepEqual([inBeta.count, inBeta.data], [0, []], 'RLS: Carol only views Beta');
    const inAlpha = ok(await carol.execute('db_update', { table: 'sensitive_data', filters: [where('id', '=', await refOf(carol, text))], data: { data: `${text}, then carol` } }));
    assert.equal(inAlpha.count, 1, 'Carol edits Alpha');
    assert.deepEqual(await app.db(`/sensitive_data?id=in.(${ALPHA_ROW},${BETA_ROW})&select=data&order=data`), [{ data: `${text}, then carol` }, { data: 'group beta data' }]);
  });

  test('"delete it": an editor deletes an Alpha row; the same request in Beta, where she views, deletes nothing', BOUNDED, async () => {
    await seedRow(`alpha scratch ${tag}`, ALPHA);
    await seedRow(`beta scratch ${tag}`, BETA);
    const carol = actOf('carol');
    const deleted = ok(await carol.execute('db_delete', { table: 'sensitive_data', filters: [where('data', 'like', `% scratch ${tag}`)] }));
    assert.deepEqual(deleted.data.map((row) => row.data), [`alpha scratch ${tag}`]);
    assert.deepEqual(await dataOf(BETA), [`beta scratch ${tag}`, 'group beta data'].sort());
    assert.equal((await dataOf(ALPHA)).includes(`alpha scratch ${tag}`), false);
  });

  test('a create the model makes alone is refused by RLS (its group is hidden, so it cannot give one), nothing written', BOUNDED, async () => {
    const text = `carol alone ${tag}`;
    const alone = await actOf('carol').execute('db_create', { table: 'sensitive_data', data: { data: text } });
    // The database's words: the model cannot tell that the group was missing.
    assert.equal(refused(alone, 'permission_denied').hint, 'this user may not read or change these rows: tell the user');
    assert.equal(alone.query.source, 'database');
    const given = await actOf('carol').execute('db_create', { table: 'sensitive_data', data: { data: text, owned_by_group: 'x' } });
    refused(given, 'unknown_column');
    assert.deepEqual(await app.db(`/sensitive_data?data=eq.${encodeURIComponent(text)}`), []);
  });

  test('OpenAI adapter (Chat Completions): Carol\'s model reads, then edits a row of each group in one message; the permission function lets one through', BOUNDED, async (t) => {
    await seedRow(`alpha openai ${tag}`, ALPHA);
    // The host lets updates run without asking (the adapters hold them by
    // default): the permission function decides.
    const act = actOf('carol', { approve: 'none' });
    const toolResults = (body) => body.messages.filter((m) => m.role === 'tool').slice(-2).map((m) => JSON.parse(m.content));
    const model = await startScriptedModel([
      toolCallsBody([{ name: 'db_read', arguments: { table: 'sensitive_data', filters: [where('data', 'like', '%')], or_filters: null, columns: ['data'], limit: null, offset: null, order_by: 'data', order_dir: null, count: null } }]),
      (body) => {
        const [read] = body.messages.filter((m) => m.role === 'tool').map((m) => JSON.parse(m.content));
        const ref = (text) => read.rows.find((row) => row.data === text).id;
        return toolCallsBody([
          { name: 'db_update', arguments: { table: 'sensitive_data', filters: [where('id', '=', ref(`alpha openai ${tag}`))], data: JSON.stringify({ data: `alpha via openai ${tag}` }) } },
          { name: 'db_update', arguments: { table: 'sensitive_data', filters: [where('id', '=', ref('group beta data'))], data: JSON.stringify({ data: 'beta via openai' }) } },
        ]);
      },
      (body) => {
        const [alpha, beta] = toolResults(body);
        return { status: 200, body: completionBody(`alpha: ${alpha.count}, beta: ${beta.count}`) };
      },
    ]);
    t.after(() => model.stop());
    const client = new OpenAI({ apiKey: 'test-key', baseURL: model.baseUrl });
    const messages = [{ role: 'user', content: 'Mark my rows as edited.' }];
    let completion;
    for (let turn = 0; turn < 4; turn += 1) {
      completion = await client.chat.completions.create({ model: 'scripted', messages, tools: openaiTools(act) });
      const message = completion.choices[0].message;
      if (!message.tool_calls?.length) break;
      messages.push(message, ...(await runToolCalls(act, message.tool_calls)));
    }
    assert.equal(model.used, 3);
    for (const { body } of model.requests) for (const message of body.messages.filter((m) => m.role === 'tool')) noUuid(message.content, 'a tool message');
    assert.equal(completion.choices[0].message.content, 'alpha: 1, beta: 0');
    assert.deepEqual(await app.db(`/sensitive_data?data=eq.alpha%20via%20openai%20${tag}&select=owned_by_group`), [{ owned_by_group: ALPHA }]);
    const beta = await dataOf(BETA);
    assert.deepEqual([beta.includes('beta via openai'), beta.includes('group beta data')], [false, true]);
  });

  test('MCP: an update asks first (approve: changes); accepted, an editor\'s runs in Alpha; in Beta the same yes changes nothing, and the model reads 0 rows', BOUNDED, async (t) => {
    await seedRow(`alpha mcp ${tag}`, ALPHA);
    const { call, asked } = await mcpSession(t, { domain: pulled.data, url: app.stack.supabaseUrl, apiKey: app.stack.anonKey, accessToken: users.carol.token });
    const read = await call('db_read', { table: 'sensitive_data', columns: ['data'] });
    const ref = (text) => read.body.rows.find((row) => row.data === text).id;
    const alpha = await call('db_update', { table: 'sensitive_data', filters: [where('id', '=', ref(`alpha mcp ${tag}`))], data: { data: `alpha via mcp ${tag}` } });
    assert.deepEqual([alpha.isError, alpha.body.count], [false, 1]);
    assert.equal(asked.length, 1);
    assert.equal(asked[0].message, `Update 1 row of sensitive_data: ${ref(`alpha mcp ${tag}`)}?`, 'no label column: the user sees the ref only');
    assert.deepEqual(await app.db(`/sensitive_data?data=eq.alpha%20via%20mcp%20${tag}&select=owned_by_group`), [{ owned_by_group: ALPHA }]);
    const beta = await call('db_update', { table: 'sensitive_data', filters: [where('id', '=', ref('group beta data'))], data: { data: 'beta via mcp' } });
    assert.equal(asked.length, 2, 'Carol reads the Beta row, so the preview finds it and the user is asked');
    assert.deepEqual([beta.isError, beta.body.count, beta.body.rows], [false, 0, []]);
    assert.ok((await dataOf(BETA)).includes('group beta data'));
  });

  test('the worker\'s /act/execute (Node entry, in process): each member reads their own groups\' rows', BOUNDED, async () => {
    const execute = workerFor(pulled.data, { SUPABASE_URL: app.stack.supabaseUrl, SUPABASE_ANON_KEY: app.stack.anonKey, SUPABASE_JWT_SECRET: app.stack.jwtSecret });
    for (const name of ['dave', 'eve']) {
      const { status, body } = await execute(users[name].token, { tool: 'db_read', params: { table: 'sensitive_data', columns: ['data'] } });
      assert.equal(status, 200);
      const truth = await app.asUser(users[name].token, 'GET', '/sensitive_data?select=data');
      assert.deepEqual(body.data.map((row) => row.data).sort(), truth.map((row) => row.data).sort(), name);
    }
  });

  test('a context name no column or function argument takes is refused when the act is made', BOUNDED, () => {
    assert.throws(() => actOf('carol', { context: { group_id: ALPHA } }), (error) => error.code === 'invalid_option' && error.message === 'no column or function argument of the tenant-rbac domain is named group_id');
  });

  test('the app fixes the active group (context.owned_by_group): an editor creates in Alpha; in Beta, where she views, RLS refuses', { ...BOUNDED }, async () => {
    const text = `carol in alpha ${tag}`;
    ok(await actOf('carol', { context: { owned_by_group: ALPHA } }).execute('db_create', { table: 'sensitive_data', data: { data: text } }));
    assert.deepEqual(await app.db(`/sensitive_data?data=eq.${encodeURIComponent(text)}&select=owned_by_group`), [{ owned_by_group: ALPHA }]);
    refused(await actOf('carol', { context: { owned_by_group: BETA } }).execute('db_create', { table: 'sensitive_data', data: { data: `carol in beta ${tag}` } }), 'permission_denied');
    assert.deepEqual(await app.db(`/sensitive_data?data=eq.carol%20in%20beta%20${tag}`), []);
  });
});

describe('Chatbot UI: "find the passages about X" through match_file_items_local (vector(384)) with the app\'s embedder, RLS keeping each user\'s files', () => {
  const TESTER = 'e9fc7e46-a8a5-4fd4-8ba7-af485013e6fa';
  // The seed's items lie on the first two of 384 axes: Relativity (1, 0), Light
  // bulbs (0.8, 0.6), Photoelectric (0.6, 0.8), Dentist (0, 1). This embedder
  // puts "light" on the first axis and "dentist" on the second, so the
  // similarities (cosine) are exactly those coordinates.
  const axes = [/light/i, /dentist/i];
  const embedded = [];
  const embedder = {
    name: 'two-axes',
    dimensions: 384,
    async embed(texts) {
      embedded.push(...texts);
      return texts.map((text) => Array.from({ length: 384 }, (_, i) => (axes[i]?.test(text) ? 1 : 0)));
    },
  };
  const DELETE_AFTER_ARGS = {
    p_user_id: { type: 'uuid', required: true, references: 'auth.users' },
    p_chat_id: { type: 'uuid', required: true, references: 'chats' },
    p_sequence_number: { type: 'integer', required: true },
  };
  const LIGHT = [
    ['Relativity: the speed of light is the same for every observer.', 1],
    ['Light bulbs are replaced by facilities, not by the team.', 0.8],
    ['Photoelectric effect: light comes in quanta.', 0.6],
  ];
  let app;
  let pulled;
  let tester;
  let ben;
  let fileIds;
  const actOf = (user, options = {}) => core.createAct({ supabase: user.supabase, domain: pulled.data, embedder, ...options });
  const ranked = (rows) => rows.map((row) => [row.content, Math.round(row.similarity * 100) / 100]);
  /** The refs of the files `act`'s user reads ("my files"). */
  const myFiles = async (act) => ok(await act.execute('db_read', { table: 'files', columns: ['name'], order_by: 'name' })).data;

  before(async () => {
    app = await appUnderTest('chatbot-ui', { seeds: ['seed.sql', 'seed-file-items.sql'], users: [{ email: 'ben@example.com', password: 'ben-password' }] });
    [pulled, tester, ben] = await Promise.all([app.pull(), app.signIn('test@test.com', 'password'), app.signIn('ben@example.com', 'ben-password')]);
    assert.equal(tester.user.id, TESTER);
    fileIds = (await app.db('/files?select=id&order=name')).map((file) => file.id);
  }, STACK_START);
  after(() => app?.stop());

  test('the pull with no overrides: match_file_items_local offered with its vector argument, the embeddings hidden, definer and trigger functions left out with notes', BOUNDED, () => {
    const { data: domain, notes } = pulled;
    const noteOn = (path) => notes.filter((note) => note.path === path).map((note) => note.message);
    // Each search's size is the one of the column its body compares the argument with (local 384, OpenAI's 1536).
    const search = (dimensions) => ({ type: 'vector', dimensions, required: true });
    assert.deepEqual(domain.functions, {
      // p_user_id and p_chat_id read without their prefix: a user id, and a chat's key.
      delete_message_including_and_after: { read: false, args: DELETE_AFTER_ARGS, returns: { type: 'void' } },
      delete_messages_including_and_after: { read: false, args: DELETE_AFTER_ARGS, returns: { type: 'void' } },
      match_file_items_local: { read: false, args: { query_embedding: search(384), match_count: { type: 'integer' }, file_ids: { type: 'uuid[]', references: 'files' } }, returns: { type: 'json', set: true } },
      match_file_items_openai: { read: false, args: { query_embedding: search(1536), match_count: { type: 'integer' }, file_ids: { type: 'uuid[]', references: 'files' } }, returns: { type: 'json', set: true } },
    });
    assert.deepEqual(noteOn('functions.match_file_items_local.args.query_embedding.dimensions'), [
      "384: the size of the vector column its body compares it with (file_items.local_embedding: file_items.local_embedding is vector(384)); a function's argument carries none in the catalog, and an embedder of another size is refused before any request",
    ]);
    assert.deepEqual(domain.tables.file_items.hidden, ['local_embedding', 'openai_embedding']);
    assert.deepEqual(noteOn('tables.file_items.columns.local_embedding'), ['hidden: type \'extensions.vector(384)\' is not one the model can read or write (an embedding)']);
    assert.deepEqual(domain.tables.file_items.columns.file_id, { type: 'uuid', required: true, references: 'files' });
    for (const name of ['delete_storage_object', 'delete_storage_object_from_bucket', 'non_private_assistant_exists', 'non_private_file_exists', 'non_private_workspace_exists']) {
      assert.match(noteOn(`functions.${name}`).at(-1), /^left out: security definer: /, name);
      assert.match(noteOn(`functions.${name}`)[0], /^security definer without a pinned search_path/, name);
    }
    for (const name of ['create_profile_and_workspace', 'delete_old_file', 'update_updated_at_column']) assert.deepEqual(noteOn(`functions.${name}`).at(-1), 'left out: a trigger function: the database runs it, not a caller');
    assert.deepEqual(noteOn('functions.delete_messages_including_and_after'), [], 'it deletes: no note on its volatility');
    // Two arguments the pull cannot tell, in one note.
    assert.deepEqual(noteOn('functions.create_duplicate_messages_for_new_chat'), [
      'left out: its uuid arguments old_chat_id, new_chat_id, new_user_id take keys of tables the pull cannot tell (no column of those names references one): give "args": { "old_chat_id": { "references": "<table>" }, "new_chat_id": { "references": "<table>" }, "new_user_id": { "references": "<table>" } } in the overrides, "auth.users" for a user id',
    ]);
    // The searches are PL/pgSQL that nobody marked stable, and their embeddings go by POST, which PostgREST runs
    // read-only only for a stable function: offered as writes, with the note that says why and how to say otherwise.
    const byPost =
      'offered as a function that changes data (volatile, the default when a function does not say stable): its arguments go by POST (an embedding, or a name such as limit), which PostgREST runs read-only only for a stable function. Approval asks before it, and read-only acts and read steps leave it out. If it only reads, mark it stable (create or replace function … stable), or say "read": true in the overrides';
    assert.deepEqual([noteOn('functions.match_file_items_local'), noteOn('functions.match_file_items_openai')], [[byPost], [byPost]]);
    // An argument read without its prefix says so.
    assert.deepEqual(noteOn('functions.delete_messages_including_and_after.args.p_chat_id'), [
      'a ref of chats: read as chat_id (its name without the prefix); if it takes something else, give "references" in the overrides',
    ]);
    assert.ok(domain.tables.profiles.hidden.includes('openai_api_key'), 'a secret is hidden');
    assert.deepEqual(['assistants', 'files', 'file_items', 'workspaces'].map((table) => domain.tables[table].ref), ['assistant', 'file', 'fi', 'wor']);
  });

  test('"delete my messages in Chat 1 from the eighth on": the app\'s function with me and the chat\'s ref; Ben\'s call with his own id deletes nothing of hers', BOUNDED, async () => {
    const chatOf = async (act) => ok(await act.execute('db_read', { table: 'chats', columns: ['name'], filters: [where('name', '=', 'Chat 1')] })).data;
    const mine = actOf(tester);
    const [chat] = await chatOf(mine);
    const sequence = async () => (await app.db(`/messages?select=sequence_number&chat_id=eq.${(await app.db('/chats?select=id&name=eq.Chat%201'))[0].id}&order=sequence_number`)).map((row) => row.sequence_number);
    assert.deepEqual(await sequence(), [0, 1, 2, 3, 4, 5, 6, 7, 8]);
    const benAct = actOf(ben);
    assert.deepEqual(await chatOf(benAct), [], 'RLS: Ben does not see her chat');
    const refused = await benAct.execute('db_call', { function: 'delete_messages_including_and_after', args: { p_user_id: 'me', p_chat_id: chat.id, p_sequence_number: 0 } });
    assert.deepEqual([refused.error?.code, refused.query.source], ['unknown_ref', 'none']);
    ok(await mine.execute('db_call', { function: 'delete_messages_including_and_after', args: { p_user_id: 'me', p_chat_id: chat.id, p_sequence_number: 7 } }));
    assert.deepEqual(await sequence(), [0, 1, 2, 3, 4, 5, 6]);
  });

  test('an override that gives the search rows of file_items (it returns five of their columns) is refused by the pull, naming the columns it lacks', BOUNDED, async () => {
    const pulledWith = await pullDomain({ url: app.stack.supabaseUrl, apiKey: app.stack.serviceKey, catalog: app.stack.catalog, core, name: 'chatbot-ui', overrides: { functions: { match_file_items_local: { returns: { table: 'file_items', set: true } } } } });
    assert.equal(pulledWith.data, null);
    assert.deepEqual([pulledWith.error.code, pulledWith.error.path], ['invalid_overrides', 'functions.match_file_items_local.returns']);
    assert.equal(pulledWith.error.message, 'match_file_items_local returns id, file_id, content, tokens, similarity; rows of file_items also have user_id, created_at, updated_at, sharing, which a call asks for (PostgREST would answer that the column does not exist)');
  });

  test('"find the passages about light in my files": the files\' refs, then the function with the text; ranked exactly, each user\'s own files only', BOUNDED, async () => {
    const act = actOf(tester);
    const files = await myFiles(act);
    assert.deepEqual(files.map((file) => file.name), ['File 1', 'Handbook'], 'RLS: her own file and Ben\'s shared one');
    const found = ok(await act.execute('db_call', { function: 'match_file_items_local', args: { query_embedding: 'light', match_count: 5, file_ids: files.map((file) => file.id) } }));
    assert.deepEqual(ranked(found.data), LIGHT);
    const fileOf = Object.fromEntries(files.map((file) => [file.name, file.id]));
    assert.deepEqual(found.data.map((row) => row.file_id), [fileOf['File 1'], fileOf.Handbook, fileOf['File 1']], 'each passage names its file by ref');
    // Each passage's own key is a file item's, which nothing in the result names as such.
    assert.deepEqual(found.data.map((row) => row.id), ['<id>', '<id>', '<id>']);
    assert.deepEqual(found.query.requested.args, { match_count: 5, file_ids: files.map((file) => file.id), query_embedding: 'light' });
    assert.deepEqual(found.query.notes, ['query_embedding was sent as the embedding of the text given']);
    assert.equal(embedded.at(-1), 'light');

    const bens = actOf(ben);
    const hisFiles = await myFiles(bens);
    assert.deepEqual(hisFiles.map((file) => file.name), ['Ben notes', 'Handbook']);
    const his = ok(await bens.execute('db_call', { function: 'match_file_items_local', args: { query_embedding: 'light', match_count: 5, file_ids: hisFiles.map((file) => file.id) } }));
    assert.deepEqual(ranked(his.data), [['Light bulbs are replaced by facilities, not by the team.', 0.8], ['Dentist on Tuesday at nine.', 0]]);
    const top = ok(await bens.execute('db_call', { function: 'match_file_items_local', args: { query_embedding: 'dentist', match_count: 1, file_ids: hisFiles.map((file) => file.id) } }));
    assert.deepEqual(ranked(top.data), [['Dentist on Tuesday at nine.', 1]]);
  });

  test('RLS inside the function: with every file of the chat fixed by the app (context.file_ids), the tester never gets Ben\'s private passage; Ben does', BOUNDED, async () => {
    const search = { function: 'match_file_items_local', args: { query_embedding: 'when is the dentist?', match_count: 10 } };
    const hers = ok(await actOf(tester, { context: { file_ids: fileIds } }).execute('db_call', search));
    assert.deepEqual(ranked(hers.data), [
      ['Photoelectric effect: light comes in quanta.', 0.8],
      ['Light bulbs are replaced by facilities, not by the team.', 0.6],
      ['Relativity: the speed of light is the same for every observer.', 0],
    ]);
    const his = ok(await actOf(ben, { context: { file_ids: fileIds } }).execute('db_call', search));
    assert.deepEqual(his.data[0].content, 'Dentist on Tuesday at nine.');
    assert.deepEqual(his.data.map((row) => row.content).sort(), ['Dentist on Tuesday at nine.', 'Light bulbs are replaced by facilities, not by the team.']);
    // A ref of Ben's file is never the tester's to give.
    refused(await actOf(tester).execute('db_call', { function: 'match_file_items_local', args: { query_embedding: 'dentist', file_ids: ['file_3'] } }), 'unknown_ref');
  });

  test('act.callTool: the model reads the passages and the text it searched by, never an embedding', BOUNDED, async () => {
    const act = actOf(tester);
    const files = await myFiles(act);
    const text = await act.callToolText('db_call', JSON.stringify({ function: 'match_file_items_local', args: JSON.stringify({ query_embedding: 'light', match_count: 2, file_ids: files.map((file) => file.id) }) }));
    noUuid(text);
    assert.doesNotMatch(text, /\[(?:0, ?){5}/, 'no vector');
    const result = JSON.parse(text);
    assert.deepEqual([result.ok, result.function, result.count], [true, 'match_file_items_local', 2]);
    assert.equal(result.query, `Query: Function: match_file_items_local | Args: match_count = 2, file_ids = [${files.map((file) => file.id).join(', ')}], query_embedding = light | Limit: 50\nNote: query_embedding was sent as the embedding of the text given\nOutcome: 2 rows returned`);
    assert.deepEqual(ranked(result.rows), LIGHT.slice(0, 2));
  });

  test('no embedder given: a search by meaning is refused before any request, saying what to pass (the lexical one would rank the rows by chance)', BOUNDED, async () => {
    const act = core.createAct({ supabase: tester.supabase, domain: pulled.data });
    const files = await myFiles(act);
    const failed = await act.execute('db_call', { function: 'match_file_items_local', args: { query_embedding: 'light', file_ids: files.map((file) => file.id) } });
    assert.deepEqual([failed.error?.code, failed.query.source], ['embedding_failed', 'none']);
    assert.match(failed.error.message, /no embedder was given.*createAct\(\{ embedder \}\).*openAIEmbedder.*lexicalEmbedder/);
  });

  test('an embedder of another size (the lexical one, 1536 numbers): refused before any request, the pull having read the size from the body; without it, the database refuses the call and the model reads it with no hint', BOUNDED, async () => {
    const act = core.createAct({ supabase: tester.supabase, domain: pulled.data, embedder: lexicalEmbedder });
    const early = await act.execute('db_call', { function: 'match_file_items_local', args: { query_embedding: 'light' } });
    assert.deepEqual([early.error?.code, early.query.source], ['embedding_failed', 'none']);
    assert.match(early.error.message, /384/);
    const { functions } = pulled.data;
    const unsized = { ...pulled.data, functions: { ...functions, match_file_items_local: { ...functions.match_file_items_local, args: { ...functions.match_file_items_local.args, query_embedding: { type: 'vector', required: true } } } } };
    const late = core.createAct({ supabase: tester.supabase, domain: unsized, embedder: lexicalEmbedder });
    const files = await myFiles(late);
    const failed = await late.execute('db_call', { function: 'match_file_items_local', args: { query_embedding: 'light', file_ids: files.map((file) => file.id) } });
    const error = refused(failed, 'bad_request');
    assert.deepEqual([error.message, error.hint], ['calling match_file_items_local failed: different vector dimensions 384 and 1536', '']);
  });

  test('an embedder of another size is refused before any request, naming the argument\'s size and the embedder\'s', BOUNDED, async () => {
    // A function's argument carries no size in the catalog (vector(384) is vector there): the overrides may give it.
    const sized = await app.pull({ functions: { match_file_items_local: { args: { query_embedding: { dimensions: 384 } } } } });
    assert.equal(sized.error, null);
    assert.deepEqual(sized.data.functions.match_file_items_local.args.query_embedding, { type: 'vector', dimensions: 384, required: true });
    const act = core.createAct({ supabase: tester.supabase, domain: sized.data, embedder: lexicalEmbedder });
    const files = await myFiles(act);
    const failed = await act.execute('db_call', { function: 'match_file_items_local', args: { query_embedding: 'light', file_ids: files.map((file) => file.id) } });
    assert.equal(failed.query.source, 'none');
    assert.match(failed.error.message, /384/);
    assert.match(failed.error.message, /1536/);
  });

  test('MCP (createMcpServer({ embedder })): the search by text over the user\'s files; a function that changes data by the pull\'s reckoning (its embedding goes by POST) is confirmed first, its values as given', BOUNDED, async (t) => {
    const { client, call, asked } = await mcpSession(t, { domain: pulled.data, url: app.stack.supabaseUrl, apiKey: app.stack.anonKey, accessToken: tester.token, embedder });
    const { tools } = await client.listTools();
    assert.match(tools.find((tool) => tool.name === 'db_call').description, /- match_file_items_local\(query_embedding: text to search by meaning, match_count\?: integer, file_ids\?: ref of files\) \[changes data\]/);
    const files = await call('db_read', { table: 'files', columns: ['name'] });
    const found = await call('db_call', { function: 'match_file_items_local', args: { query_embedding: 'light', match_count: 3, file_ids: files.body.rows.map((file) => file.id) } });
    assert.equal(found.isError, false);
    assert.deepEqual(ranked(found.body.rows), LIGHT);
    // The question shows each value as the model gave it: a number as a number, a list by its refs.
    const [first, second] = files.body.rows.map((file) => file.id);
    assert.deepEqual(asked.map((request) => request.message), [`Run match_file_items_local (it changes data) with query_embedding = "light", match_count = 3, file_ids = ["${first}", "${second}"]?`]);

    // Said to be a read in the overrides, it is asked about nothing.
    const { functions } = pulled.data;
    const reading = { ...pulled.data, functions: { ...functions, match_file_items_local: { ...functions.match_file_items_local, read: true } } };
    const quiet = await mcpSession(t, { domain: reading, url: app.stack.supabaseUrl, apiKey: app.stack.anonKey, accessToken: tester.token, embedder });
    const quietFiles = await quiet.call('db_read', { table: 'files', columns: ['name'] });
    const read = await quiet.call('db_call', { function: 'match_file_items_local', args: { query_embedding: 'light', match_count: 3, file_ids: quietFiles.body.rows.map((file) => file.id) } });
    assert.deepEqual(ranked(read.body.rows), LIGHT);
    assert.deepEqual(quiet.asked, []);
  });

  test('the worker\'s /act/execute (createHandler({ embedder }), Node entry, in process): the files, then the search with their refs in the state', BOUNDED, async () => {
    const env = { SUPABASE_URL: app.stack.supabaseUrl, SUPABASE_ANON_KEY: app.stack.anonKey, SUPABASE_JWT_SECRET: app.stack.jwtSecret };
    for (const option of [embedder, () => embedder]) {
      const execute = workerFor(pulled.data, env, { embedder: option });
      const files = await execute(ben.token, { tool: 'db_read', params: { table: 'files', columns: ['name'] } });
      assert.equal(files.body.error, null, JSON.stringify(files.body.error));
      const found = await execute(ben.token, { tool: 'db_call', params: { function: 'match_file_items_local', args: { query_embedding: 'dentist', match_count: 1, file_ids: files.body.data.map((file) => file.id) } }, state: files.body.state });
      assert.equal(found.body.error, null, JSON.stringify(found.body.error));
      assert.deepEqual(ranked(found.body.data), [['Dentist on Tuesday at nine.', 1]]);
    }
    assert.throws(() => createHandler({ domain: pulled.data, embedder: { vectors: [] } }), (error) => error.code === 'invalid_option' && error.path === 'embedder');
  });
});
