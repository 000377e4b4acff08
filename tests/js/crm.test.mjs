// A second, different real schema end to end: the CRM domain pack on the
// local stack (startStack({ schema: 'crm' }): owner_id, enum types, text[]
// tags, RLS on the owner), its domain pulled from PostgREST's description by
// the CLI and by pullDomain, then the Act as two signed-in users — reads,
// batch creates with children by ref, updates, deletes, each read back from
// the database — and a scripted runTurn that completes a plain CRM request.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, test } from 'node:test';
import { loadCore, pullDomain } from '../../web/src/index.node.js';
import { createChatModel } from '../../web/src/llm/index.js';
import { runTurn } from '../../web/src/loop/index.js';
import { readPackDomain } from '../../db/packs.mjs';
import { ROOT, SCRATCH } from './support/paths.mjs';
import { startScriptedModel } from './support/scripted-model.mjs';
import { rest, sharedStack } from './support/stack.mjs';
import { stepComplete, toolCall, where } from './support/decisions.mjs';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const KITCHEN_WORDS = /recipe|inventory|ingredient|pantry|fridge|freezer|meal|kitchen|cook|chicken|shopping|allerg|\binv_|\bri_|\bshop_/i;
const COMMITTED = readFileSync(join(ROOT, 'domains/crm/domain.json'), 'utf8');
const OVERRIDES = JSON.parse(readFileSync(join(ROOT, 'domains/crm/overrides.json'), 'utf8'));

const core = await loadCore();
const stack = sharedStack({ schema: 'crm' });
const ada = () => stack().users[0];
const ben = () => stack().users[1];
let domain;

// The domain every Act below uses: pulled once from the running CRM stack.
async function pulledDomain() {
  if (!domain) {
    const pulled = await pullDomain({ url: stack().supabaseUrl, apiKey: stack().anonKey, accessToken: ada().token, overrides: OVERRIDES, core });
    assert.equal(pulled.error, null);
    domain = pulled.data;
  }
  return domain;
}

beforeEach(pulledDomain);

const actFor = (user, options = {}) =>
  core.createAct({ url: stack().supabaseUrl, apiKey: stack().anonKey, accessToken: user.token, userId: user.id, domain, ...options });

/** PostgREST straight, as `user`: the ground truth. */
async function truth(user, path) {
  const { status, body } = await rest(stack(), user.token, 'GET', path);
  assert.equal(status, 200, JSON.stringify(body));
  return body;
}

function runCli(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin/alfred-act.mjs'), 'domain', ...args], { env: { ...process.env, SUPABASE_URL: '' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

test('alfred-act domain pull against the CRM stack writes exactly domains/crm/domain.json and says what it left out and that the catalog would add more', async (t) => {
  mkdirSync(SCRATCH, { recursive: true });
  const out = join(SCRATCH, `crm-domain-${process.pid}.json`);
  t.after(() => rmSync(out, { force: true }));
  const { supabaseUrl: url, anonKey } = stack();
  const { code, stderr } = await runCli(['pull', '--url', url, '--key', anonKey, '--token', ada().token, '--overrides', join(ROOT, 'domains/crm/overrides.json'), '--out', out]);
  assert.equal(code, 0, stderr);
  assert.equal(readFileSync(out, 'utf8'), COMMITTED);
  assert.equal(
    stderr,
    [
      'note: catalog: this local stack serves its catalog (policies, grants, references to auth.users, functions) to its service key only, not to this key; pass --key <the service key `stack start` printed> for owners that come out right',
      "note: tables.act_sessions: left out: alfred-act's own MCP session store (docs/mcp.md), not data for the model",
      "note: tables.organizations.columns.profile_embedding: hidden: type 'extensions.vector(8)' is not one the model can read or write (an embedding)",
      'note: no --db-url: owners and user ids come from auth.uid() defaults, foreign keys and column names alone, and no functions are offered; --db-url adds the row-level security policies, the references to auth.users and to other schemas, and the functions',
      `wrote ${out}: 6 tables (activity_log, contacts, deals, open_deals, organizations, tasks)`,
      '',
    ].join('\n'),
  );
  assert.deepEqual(JSON.parse(COMMITTED), domain, 'pullDomain and the CLI agree');
});

test('domain pull errors name the path and the fix, and exit 1', async () => {
  const { supabaseUrl: url, anonKey } = stack();
  const wrongOwner = await runCli(['pull', '--url', url, '--key', anonKey, '--token', ada().token, '--owner-column', 'user_id']);
  assert.equal(wrongOwner.code, 1);
  assert.equal(wrongOwner.stdout, '');
  assert.match(
    wrongOwner.stderr,
    /^error owner_column_not_found at owner_column: no table has a uuid column 'user_id'\nhint: the column that row level security compares with auth\.uid\(\); uuid columns: contact_id, deal_id, organization_id, owner_id, primary_contact_id\n$/m,
  );
  const badOverrides = join(SCRATCH, `crm-overrides-${process.pid}.json`);
  mkdirSync(SCRATCH, { recursive: true });
  (await import('node:fs')).writeFileSync(badOverrides, JSON.stringify({ tables: { deals: { columns: { stage: { value: ['x'] } } } } }));
  const typo = await runCli(['pull', '--url', url, '--key', anonKey, '--overrides', badOverrides]);
  rmSync(badOverrides, { force: true });
  assert.equal(typo.code, 1);
  assert.match(typo.stderr, /error invalid_domain at tables\.deals\.columns\.stage\.value: 'value' is not a domain setting\nhint: allowed here: type, required, writable, nullable, references, values; fix it in the overrides at "tables\.deals\.columns\.stage\.value"/);
  // A key pasted with a line break: the flag's mistake, not the network's, and nothing is fetched.
  const pasted = await runCli(['pull', '--url', url, '--key', `${anonKey}\nx`]);
  assert.equal(pasted.code, 1);
  assert.match(pasted.stderr, /^error invalid_option at --key: --key contains spaces, control or non-ASCII characters\nhint: pass the key or token exactly as issued\n$/m);
  const usage = await runCli(['push']);
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /^unknown command 'push': the one command is pull\n\nusage: alfred-act domain pull/);
  const stray = await runCli(['pull', '--url', url, anonKey]);
  assert.equal(stray.code, 2);
  assert.match(stray.stderr, /^unexpected argument 'eyJhbGci…' \(a value needs its flag, as --key KEY\)\n\nusage: alfred-act domain pull/);
});

test('reads: enum filters, fuzzy names, labels of foreign keys, refs instead of UUIDs, only the caller\'s rows', async () => {
  const act = actFor(ada());
  const open = await act.execute('db_read', { table: 'deals', filters: [where('stage', 'in', ['proposal', 'negotiation'])], order_by: 'amount', order_dir: 'desc' });
  assert.equal(open.error, null);
  const expected = await truth(ada(), '/deals?select=title,amount&stage=in.(proposal,negotiation)&order=amount.desc');
  assert.deepEqual(open.data.map((row) => [row.title, row.amount]), expected.map((row) => [row.title, row.amount]));
  const [fleet] = open.data;
  assert.match(fleet.id, /^deal_\d+$/);
  assert.match(fleet.organization_id, /^org_\d+$/);
  assert.equal(fleet._organization_id_label, 'Acme Robotics');
  assert.equal(fleet._primary_contact_id_label, 'Grace Hopper', 'label_format {first_name} {last_name}');
  assert.equal(fleet.owner_id, 'me', 'row-level security decides; the owner shows as me');
  assert.doesNotMatch(JSON.stringify(open), UUID);

  // `name = acme` is fuzzy on organizations (a name-like label matches loosely by default); Ben's Acme is not Ada's.
  const acme = await act.execute('db_read', { table: 'organizations', filters: [where('name', '=', 'acme')] });
  assert.deepEqual(acme.data.map((row) => [row.name, row.tags]), [['Acme Robotics', ['enterprise', 'priority']]]);
  assert.deepEqual(acme.query.notes, ['name = "acme" matched as a part of the name, ignoring case and accents (name ilike *acme*)']);

  // Enum arrays and their values are checked before any request.
  const emailable = await act.execute('db_read', { table: 'contacts', filters: [where('preferred_channels', 'contains', ['email'])] });
  const emailTruth = await truth(ada(), '/contacts?select=first_name&preferred_channels=cs.%7Bemail%7D&order=first_name');
  assert.deepEqual(emailable.data.map((row) => row.first_name).sort(), emailTruth.map((row) => row.first_name));
  let sent = 0;
  const counting = actFor(ada(), { fetch: (...args) => ((sent += 1), fetch(...args)) });
  const fax = await counting.execute('db_read', { table: 'contacts', filters: [where('preferred_channels', 'contains', ['fax'])] });
  assert.equal(fax.error.code, 'invalid_value');
  assert.match(fax.error.hint, /email, phone, video, in_person/);
  const closed = await counting.execute('db_update', { table: 'deals', filters: [where('title', '=', 'Acme: pilot')], data: { stage: 'closed' } });
  assert.equal(closed.error.code, 'invalid_value');
  assert.match(closed.error.hint, /lead, qualified, proposal, negotiation, won, lost/);
  const ghost = await counting.execute('db_read', { table: 'invoices' });
  assert.equal(ghost.error.code, 'unknown_table');
  assert.equal(sent, 0, 'no request for refused calls');
});

test('the activity log (a bigint key) and the open_deals view (its id a ref of deals): read, appended to, read back', async () => {
  const act = actFor(ada());
  const log = await act.execute('db_read', { table: 'activity_log', order_by: 'id', columns: ['id', 'owner_id', 'summary'] });
  assert.equal(log.error, null);
  const logTruth = await truth(ada(), '/activity_log?select=id,summary&order=id');
  assert.deepEqual(log.data, logTruth.map((row, i) => ({ id: `act_${i + 1}`, owner_id: 'me', summary: row.summary })));
  const added = await act.execute('db_create', { table: 'activity_log', data: { summary: 'Called Lena about the pilot' } });
  assert.equal(added.error, null);
  assert.deepEqual([added.data.id, added.data.owner_id, added.data.summary], [`act_${logTruth.length + 1}`, 'me', 'Called Lena about the pilot']);
  const [last] = await truth(ada(), '/activity_log?select=id,owner_id,summary&order=id.desc&limit=1');
  assert.deepEqual([last.owner_id, last.summary, last.id > logTruth.at(-1).id], [ada().id, 'Called Lena about the pilot', true]);

  // The view's rows carry the refs of the deals they show; the view itself is read-only.
  const deals = await act.execute('db_read', { table: 'deals', columns: ['id', 'title'] });
  const open = await act.execute('db_read', { table: 'open_deals', columns: ['id', 'owner_id', 'title', 'stage'], order_by: 'title' });
  assert.equal(open.error, null);
  const openTruth = await truth(ada(), '/open_deals?select=title,stage&order=title');
  assert.deepEqual(open.data.map((row) => [row.title, row.stage, row.owner_id]), openTruth.map((row) => [row.title, row.stage, 'me']));
  const refOf = new Map(deals.data.map((row) => [row.title, row.id]));
  for (const row of open.data) assert.equal(row.id, refOf.get(row.title), row.title);
  const refused = await act.execute('db_update', { table: 'open_deals', filters: [where('title', '=', open.data[0].title)], data: { stage: 'won' } });
  assert.equal(refused.error.code, 'read_only_table');
});

test('creates: an organization, then its deals and a task in one batch by ref; generated content saved with its children; read back', async () => {
  const act = actFor(ada());
  const org = await act.execute('db_create', { table: 'organizations', data: { name: 'Globex', industry: 'energy', tags: ['new', 'eu'] } });
  assert.equal(org.error, null);
  assert.match(org.data.id, /^org_\d+$/);
  const contacts = await act.execute('db_read', { table: 'contacts', filters: [where('first_name', '=', 'Lena')] });
  const lena = contacts.data[0].id;
  const deals = await act.execute('db_create', {
    table: 'deals',
    data: [
      { title: 'Globex: pilot', organization_id: org.data.id, primary_contact_id: lena, stage: 'qualified', amount: 15000, expected_close_on: '2027-03-31' },
      { title: 'Globex: rollout', organization_id: org.data.id },
    ],
  });
  assert.equal(deals.error, null);
  assert.equal(deals.count, 2);
  const [pilot, rollout] = deals.data;
  const task = await act.execute('db_create', { table: 'tasks', data: [{ title: 'Send the Globex pilot contract', deal_id: pilot.id, contact_id: lena, due_at: '2027-01-15T09:00:00Z' }] });
  assert.equal(task.error, null);

  const [orgRow] = await truth(ada(), '/organizations?select=id,owner_id,name,tags&name=eq.Globex');
  assert.deepEqual([orgRow.owner_id, orgRow.tags], [ada().id, ['new', 'eu']]);
  const dealRows = await truth(ada(), `/deals?select=title,stage,amount,owner_id,organization_id,contacts(first_name)&organization_id=eq.${orgRow.id}&order=title`);
  assert.deepEqual(dealRows, [
    { title: 'Globex: pilot', stage: 'qualified', amount: 15000, owner_id: ada().id, organization_id: orgRow.id, contacts: { first_name: 'Lena' } },
    { title: 'Globex: rollout', stage: 'lead', amount: null, owner_id: ada().id, organization_id: orgRow.id, contacts: null },
  ]);
  const [taskRow] = await truth(ada(), '/tasks?select=title,status,deals(title)&title=eq.Send%20the%20Globex%20pilot%20contract');
  assert.deepEqual(taskRow, { title: 'Send the Globex pilot contract', status: 'open', deals: { title: 'Globex: pilot' } });
  assert.match(rollout.id, /^deal_\d+$/);

  // Generated, unsaved content: the organization by its gen_ ref, then its deal pointing at it.
  const { data: genRef } = act.registry.registerGenerated('organizations', { name: 'Initech', industry: 'software' }, { domain });
  assert.equal(genRef, 'gen_org_1');
  const saved = await act.execute('db_create', { table: 'organizations', data: { id: genRef, name: 'Initech', industry: 'software' } });
  assert.equal(saved.error, null);
  const child = await act.execute('db_create', { table: 'deals', data: { title: 'Initech: licences', organization_id: genRef } });
  assert.equal(child.error, null);
  assert.equal(child.data.organization_id, saved.data.id);
  const [initech] = await truth(ada(), '/organizations?select=name,deals(title)&name=eq.Initech');
  assert.deepEqual(initech, { name: 'Initech', deals: [{ title: 'Initech: licences' }] });
});

test('updates and deletes by ref change exactly those rows; the database agrees', async () => {
  const act = actFor(ada());
  const read = await act.execute('db_read', { table: 'deals', filters: [where('title', '=', 'Blue Harbor: cold storage')] });
  const [deal] = read.data;
  const before = await truth(ada(), '/deals?select=title,stage,probability&order=title');
  const updated = await act.execute('db_update', { table: 'deals', filters: [where('id', '=', deal.id)], data: { stage: 'proposal', probability: 55 } });
  assert.equal(updated.error, null);
  assert.equal(updated.count, 1);
  const after = await truth(ada(), '/deals?select=title,stage,probability&order=title');
  assert.deepEqual(after, before.map((row) => (row.title === 'Blue Harbor: cold storage' ? { ...row, stage: 'proposal', probability: 55 } : row)));

  const tasks = await act.execute('db_read', { table: 'tasks', filters: [where('status', '=', 'cancelled')] });
  assert.equal(tasks.data.length, 1);
  const tasksBefore = await truth(ada(), '/tasks?select=title&order=title');
  const deleted = await act.execute('db_delete', { table: 'tasks', filters: [where('id', 'in', tasks.data.map((row) => row.id))] });
  assert.equal(deleted.error, null);
  assert.equal(deleted.count, 1);
  const tasksAfter = await truth(ada(), '/tasks?select=title&order=title');
  assert.deepEqual(tasksAfter, tasksBefore.filter((row) => row.title !== 'Find the decision-maker'));

  // A filter that selects everything is refused before any request.
  const all = await act.execute('db_delete', { table: 'tasks', filters: [where('id', 'is_not_null')] });
  assert.equal(all.error.code, 'missing_filter');
  assert.equal((await truth(ada(), '/tasks?select=id')).length, tasksAfter.length);
});

test('two users: each sees only their own rows; one user\'s refs mean nothing to the other; a matching filter changes nothing of the other\'s', async () => {
  const adaAct = actFor(ada());
  const benAct = actFor(ben());
  const adaDeals = await adaAct.execute('db_read', { table: 'deals' });
  const benDeals = await benAct.execute('db_read', { table: 'deals' });
  assert.deepEqual(benDeals.data.map((row) => row.title).sort(), ['Acme: rocket skates', 'Zephyr: lounge upgrade']);
  assert.ok(adaDeals.data.every((row) => !benDeals.data.some((other) => other.title === row.title)));

  // Ben's registry has never seen Ada's rows: her refs are unknown to him, refused before any request.
  const benFresh = actFor(ben());
  const stolen = await benFresh.execute('db_update', { table: 'deals', filters: [where('id', '=', adaDeals.data[0].id)], data: { stage: 'lost' } });
  assert.equal(stolen.error.code, 'unknown_ref');

  // A filter naming Ada's deal by title updates nothing of hers.
  const adaBefore = await truth(ada(), '/deals?select=title,stage&order=title');
  const byTitle = await benAct.execute('db_update', { table: 'deals', filters: [where('title', '=', 'Acme: robot arm fleet')], data: { stage: 'lost' } });
  assert.equal(byTitle.error, null);
  assert.equal(byTitle.count, 0);
  assert.deepEqual(await truth(ada(), '/deals?select=title,stage&order=title'), adaBefore);

  // Ben cannot attach a task to Ada's contact: he has no ref for it, and RLS would refuse the UUID anyway.
  const { status } = await rest(stack(), ben().token, 'POST', '/tasks', {
    body: { title: 'sneaky', contact_id: (await truth(ada(), '/contacts?select=id&first_name=eq.Grace'))[0].id },
    prefer: 'return=representation',
  });
  assert.equal(status, 403);
});

test('runTurn completes a plain CRM request with a scripted model: plan, read, write, reply; the database shows the result', async () => {
  let dealRef = null;
  const script = [
    {
      steps: [
        { description: 'Read the Nordlicht deals', type: 'read' },
        { description: 'Add a follow-up task to the Nordlicht pilot deal', type: 'write' },
      ],
    },
    toolCall('db_read', { table: 'deals', filters: [where('title', 'ilike', '%nordlicht%')] }),
    () => stepComplete('Found the Nordlicht pilot', null, `${dealRef} is the Nordlicht pilot`),
    () => toolCall('db_create', { table: 'tasks', data: { title: 'Ask Lena for a reference', deal_id: dealRef, due_at: '2027-01-20T10:00:00Z' } }),
    stepComplete('Added the follow-up task'),
    'I added a task to ask Lena for a reference, due 20 January.',
  ];
  const server = await startScriptedModel(script);
  try {
    const model = createChatModel({ baseUrl: server.baseUrl, model: 'scripted', retryDelayMs: 10, maxRetries: 0 });
    const result = await runTurn({
      core,
      act: actFor(ada()),
      model,
      turn: { userMessage: 'Remind me to ask Lena at Nordlicht for a reference' },
      onEvent: (event) => {
        if (event.type === 'result' && event.tool === 'db_read') dealRef = event.data[0].id;
      },
    });
    assert.equal(result.status, 'done', JSON.stringify(result.error));
    assert.match(dealRef, /^deal_\d+$/);
    assert.equal(result.reply, 'I added a task to ask Lena for a reference, due 20 January.');
    assert.deepEqual(result.steps.map((step) => [step.type, step.status]), [['read', 'complete'], ['write', 'complete']]);
    assert.equal(server.used, script.length);
    // The planner saw the CRM's tables and words, and no prompt carried a UUID or a kitchen word.
    const [plan] = server.requests;
    assert.match(plan.body.messages[0].content, /activity_log, contacts, deals, open_deals, organizations, tasks\.\n/);
    assert.match(plan.body.messages[0].content, /generate \(create new content such as a new organization, kept unsaved/);
    assert.match(server.requests.at(-1).body.messages[0].content, /^You are a helpful assistant\. .*refs such as act_1\)/);
    for (const { body } of server.requests) {
      for (const message of body.messages) {
        assert.doesNotMatch(message.content, UUID);
        assert.doesNotMatch(message.content, KITCHEN_WORDS, `${message.role}: ${message.content.match(KITCHEN_WORDS)?.[0]}`);
      }
    }
  } finally {
    await server.stop();
  }
  const [task] = await truth(ada(), '/tasks?select=title,status,owner_id,due_at,deals(title)&title=eq.Ask%20Lena%20for%20a%20reference');
  assert.deepEqual(task, { title: 'Ask Lena for a reference', status: 'open', owner_id: ada().id, due_at: '2027-01-20T10:00:00+00:00', deals: { title: 'Nordlicht: pilot' } });
});

test('the CRM pack\'s own prompt examples replace the derived ones; the rest stay derived from its tables', async () => {
  const pack = readPackDomain('crm');
  assert.deepEqual(pack.prompt_examples, {
    assistant_role: "a helpful sales assistant working in the user's CRM",
    planner_generate_example: 'a draft deal or a follow-up task',
  });
  const { data: examples } = core.promptExamples(pack);
  assert.equal(examples.assistant_role, pack.prompt_examples.assistant_role);
  assert.equal(examples.gen_ref, 'gen_org_1');
  assert.equal(core.promptExamples(await pulledDomain()).data.assistant_role, 'a helpful assistant');
  for (const type of ['read', 'write', 'analyze', 'generate']) {
    const { data, error } = core.buildActPrompt({ step: { type, description: 'Find the deals that close this month' }, user_message: 'Which deals close this month?' }, { domain: pack, registry: core.createRegistry(undefined, { domain: pack }) });
    assert.equal(error, null);
    assert.doesNotMatch(data.system + data.user, KITCHEN_WORDS);
    assert.doesNotMatch(data.system, /\{\{/);
  }
});
