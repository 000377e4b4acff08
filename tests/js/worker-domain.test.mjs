// The edge worker on a developer's own domain: `createHandler({ domain })`
// from `alfred-act/worker`, run as the worker template (worker/src/index.js
// with a domain.json beside it) in workerd and in Deno, in front of the local
// stack with the CRM schema — once with the CRM pack (domains/crm) and once
// with the domain `alfred-act domain pull` writes from that stack. Every write
// through /act/execute is read back from the database as the user. Then the
// same entry in Node, and what it refuses: no domain, a domain the core refuses.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { mcpClient } from './support/mcp-client.mjs';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createHandler } from 'alfred-act/worker';
import { readPackDomain } from '../../db/packs.mjs';
import { startStack } from '../../db/local-stack.mjs';
import { startDeno, startWorkerd } from '../../scripts/serve-worker.mjs';
import { exec, ROOT, SCRATCH } from './support/paths.mjs';
import { rest } from './support/stack.mjs';
import { post } from './support/worker-client.mjs';
import { where } from './support/decisions.mjs';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const CRM_TABLES = ['activity_log', 'contacts', 'deals', 'open_deals', 'organizations', 'tasks'];
const crm = readPackDomain('crm');

let stack;
let scratch;
let pulledFile;
const workers = {};
const ada = () => stack.users[0];
const ben = () => stack.users[1];

before(async () => {
  stack = await startStack({ schema: 'crm' });
  await mkdir(SCRATCH, { recursive: true });
  scratch = await mkdtemp(join(SCRATCH, 'worker-domain-'));
  // The file a developer writes for their own project, with the package's CLI.
  pulledFile = join(scratch, 'domain.json');
  await exec(process.execPath, [join(ROOT, 'bin/alfred-act.mjs'), 'domain', 'pull', '--url', stack.supabaseUrl, '--key', stack.anonKey, '--token', ada().token, '--name', 'my-app', '--out', pulledFile], {
    env: { SUPABASE_URL: '' },
  });
  const env = { SUPABASE_URL: stack.supabaseUrl, SUPABASE_ANON_KEY: stack.anonKey, SUPABASE_JWT_SECRET: stack.jwtSecret };
  [workers.crmWorkerd, workers.crmDeno, workers.pulledWorkerd, workers.pulledDeno] = await Promise.all([
    startWorkerd({ env, domain: crm }),
    startDeno({ env, domain: crm }),
    startWorkerd({ env, domain: pulledFile }),
    startDeno({ env, domain: pulledFile }),
  ]);
});

after(async () => {
  await Promise.all(Object.values(workers).map((worker) => worker.stop()));
  await stack?.stop();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

const execute = (worker, body, token = ada().token) => post(worker, '/act/execute', body, { token });

/** PostgREST straight, as `user`: the ground truth. */
async function truth(user, path) {
  const { status, body } = await rest(stack, user.token, 'GET', path);
  assert.equal(status, 200, JSON.stringify(body));
  return body;
}

for (const runtime of ['workerd', 'deno']) {
  describe(`the CRM pack in ${runtime}`, () => {
    const worker = () => workers[runtime === 'workerd' ? 'crmWorkerd' : 'crmDeno'];

    test('/health names the domain served', async () => {
      const response = await fetch(`${worker().url}/health`);
      assert.deepEqual(await response.json(), { ok: true, model: false, domain: 'crm' });
    });

    test('/act/execute writes by ref through the domain: an organization, a deal linked to it, an update; the database holds exactly that, for its owner only', async () => {
      const name = `Worker Org ${runtime}`;
      const org = await execute(worker(), { tool: 'db_create', params: { table: 'organizations', data: { name, industry: 'logistics', tags: ['edge'] } } });
      assert.equal(org.status, 200);
      assert.equal(org.body.error, null, JSON.stringify(org.body.error));
      const orgRef = org.body.data.id;
      assert.match(orgRef, /^org_\d+$/);
      const deal = await execute(worker(), {
        tool: 'db_create',
        params: { table: 'deals', data: { organization_id: orgRef, title: `Edge rollout ${runtime}`, stage: 'proposal', amount: 1200 } },
        state: org.body.state,
      });
      assert.equal(deal.body.error, null, JSON.stringify(deal.body.error));
      assert.match(deal.body.data.id, /^deal_\d+$/);
      assert.equal(deal.body.data.organization_id, orgRef);
      const won = await execute(worker(), { tool: 'db_update', params: { table: 'deals', filters: [where('id', '=', deal.body.data.id)], data: { stage: 'won' } }, state: deal.body.state });
      assert.equal(won.body.error, null, JSON.stringify(won.body.error));
      assert.deepEqual(won.body.data.map((row) => [row.id, row.stage]), [[deal.body.data.id, 'won']]);
      assert.doesNotMatch(JSON.stringify([org.body.data, deal.body.data, won.body.data]), UUID);

      const stored = await truth(ada(), `/deals?select=title,stage,amount,owner_id,organizations(name,industry,tags)&title=eq.${encodeURIComponent(`Edge rollout ${runtime}`)}`);
      assert.deepEqual(stored, [{ title: `Edge rollout ${runtime}`, stage: 'won', amount: 1200, owner_id: ada().id, organizations: { name, industry: 'logistics', tags: ['edge'] } }]);
      assert.deepEqual(await truth(ben(), `/organizations?select=id&name=eq.${encodeURIComponent(name)}`), []);
      // Ada's state sent with Ben's token: her refs and labels are not his (docs/sessions.md, "One user's refs").
      const borrowed = await execute(worker(), { tool: 'db_read', params: { table: 'organizations' }, state: won.body.state }, ben().token);
      assert.deepEqual([borrowed.status, borrowed.body.error.code, borrowed.body.error.path], [400, 'state_of_another_user', 'state']);
    });

    test("a table of another domain is the CRM's unknown_table, naming its tables", async () => {
      const { status, body } = await execute(worker(), { tool: 'db_read', params: { table: 'recipes' } });
      assert.equal(status, 200);
      assert.equal(body.error.code, 'unknown_table');
      assert.equal(body.error.message, "'recipes' is not a table of the crm domain");
      assert.deepEqual(body.error.hint.replace(/^one of: /, '').split(', ').sort(), CRM_TABLES);
    });

    test('/mcp serves the CRM: initialize names it, tools/list has its tables, db_schema describes them', async (t) => {
      const transport = new StreamableHTTPClientTransport(new URL(`${worker().url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${ada().token}` } } });
      const client = mcpClient({ name: 'alfred-act-test', version: '1.0.0' });
      await client.connect(transport);
      t.after(() => client.close());
      assert.deepEqual(client.getServerVersion(), { name: 'alfred-act', title: 'alfred-act: crm domain', version: '0.1.0' });
      assert.match(client.getInstructions(), /^This server serves the crm domain \(tables: activity_log, contacts, deals, open_deals, organizations, tasks\)/);
      const { tools } = await client.listTools();
      const read = tools.find((tool) => tool.name === 'db_read');
      assert.deepEqual([...read.inputSchema.properties.table.enum].sort(), CRM_TABLES);
      const { resources } = await client.listResources();
      assert.deepEqual(resources.map(({ name, title }) => [name, title]), [['crm schema', 'Database schema: crm']]);
      const schema = await client.callTool({ name: 'db_schema', arguments: {} });
      assert.match(schema.content[0].text, /### deals \(refs deal_N\)/);
      assert.doesNotMatch(schema.content[0].text, /recipe/);
    });
  });

  describe(`a domain from \`alfred-act domain pull\` in ${runtime}`, () => {
    const worker = () => workers[runtime === 'workerd' ? 'pulledWorkerd' : 'pulledDeno'];

    test('/health names the pulled domain (--name my-app)', async () => {
      assert.equal(JSON.parse(await readFile(pulledFile, 'utf8')).name, 'my-app');
      const response = await fetch(`${worker().url}/health`);
      assert.deepEqual(await response.json(), { ok: true, model: false, domain: 'my-app' });
    });

    test('/act/execute creates a task and reads it back by ref; the database holds it for its owner', async () => {
      const title = `Pulled-domain follow-up ${runtime}`;
      const created = await execute(worker(), { tool: 'db_create', params: { table: 'tasks', data: { title, status: 'in_progress', notes: 'from the edge' } } });
      assert.equal(created.body.error, null, JSON.stringify(created.body.error));
      const ref = created.body.data.id;
      assert.match(ref, /^task_\d+$/);
      const read = await execute(worker(), { tool: 'db_read', params: { table: 'tasks', columns: ['title', 'status', 'notes'], filters: [where('id', '=', ref)] }, state: created.body.state });
      assert.deepEqual(read.body.data, [{ id: ref, title, status: 'in_progress', notes: 'from the edge' }]);
      assert.deepEqual(await truth(ada(), `/tasks?select=title,status,notes,owner_id&title=eq.${encodeURIComponent(title)}`), [{ title, status: 'in_progress', notes: 'from the edge', owner_id: ada().id }]);
      assert.deepEqual(await truth(ben(), `/tasks?select=id&title=eq.${encodeURIComponent(title)}`), []);
    });
  });
}

describe("alfred-act/worker's createHandler in Node", () => {
  const env = () => ({ SUPABASE_URL: stack.supabaseUrl, SUPABASE_ANON_KEY: stack.anonKey, SUPABASE_JWT_SECRET: stack.jwtSecret });
  const request = (body, token = ada().token) =>
    new Request('http://worker.test/act/execute', { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) });

  test('serves the domain it is given: a write through /act/execute is in the database', async () => {
    const handler = createHandler({ domain: crm });
    const response = await handler.fetch(request({ tool: 'db_create', params: { table: 'contacts', data: { first_name: 'Node', last_name: 'Handler', preferred_channels: ['email'] } } }), env());
    assert.equal(response.status, 200);
    const { data, error } = await response.json();
    assert.equal(error, null);
    assert.match(data.id, /^contact_\d+$/);
    assert.deepEqual(await truth(ada(), '/contacts?select=first_name,last_name,preferred_channels,owner_id&last_name=eq.Handler'), [
      { first_name: 'Node', last_name: 'Handler', preferred_channels: ['email'], owner_id: ada().id },
    ]);
  });

  test('refuses to be created without a domain: never a demo by default', () => {
    for (const options of [undefined, {}, { domain: null }, { domain: [] }, { domain: 'domain.json' }]) {
      assert.throws(() => createHandler(options), (error) => error.name === 'AlfredError' && error.code === 'invalid_option' && error.path === 'domain' && /domain pull/.test(error.hint), JSON.stringify(options));
    }
  });

  test('a domain the core refuses: /health still answers, every other route is a 500 naming the path into the domain', async () => {
    const broken = structuredClone(crm);
    broken.tables.deals.columns.stage.type = 'colour';
    const handler = createHandler({ domain: broken });
    const health = await handler.fetch(new Request('http://worker.test/health'), env());
    assert.deepEqual(await health.json(), { ok: true, model: false, domain: 'crm' });
    const response = await handler.fetch(request({ tool: 'db_read', params: { table: 'deals' } }), env());
    assert.equal(response.status, 500);
    const { error } = await response.json();
    assert.equal(error.code, 'core_unavailable');
    assert.equal(error.path, 'domain.tables.deals.columns.stage.type');
    assert.match(error.message, /colour/);
    // The refusal is kept: the next request answers the same, with no second load.
    const again = await handler.fetch(request({ tool: 'db_read', params: { table: 'deals' } }), env());
    assert.deepEqual([again.status, (await again.json()).error], [500, error]);
  });
});
