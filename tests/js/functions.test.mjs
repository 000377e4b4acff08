// db_call end to end against real PostgREST on the local stack, on a team
// schema shaped as basejump apps are: accounts and memberships in a schema
// the API does not expose, projects that belong to accounts, row-level
// security through membership, and the app's logic in functions (a
// definer list of the user's teams, a business rule that writes, a count, a
// search by meaning, a rule that refuses with its own message). Every write
// is read back as the service role; every result the model would see is
// checked for UUIDs.
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startStack } from '../../db/local-stack.mjs';
import { loadCore } from '../../web/src/index.node.js';
import { SCRATCH } from './support/paths.mjs';
import { rest } from './support/stack.mjs';

const BOUNDED = { timeout: 120_000 };
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const ADA = '11111111-1111-4111-8111-111111111111';
const BEN = '22222222-2222-4222-8222-222222222222';
const ACME = 'aaaaaaaa-0000-4000-8000-000000000001';
const BETA = 'aaaaaaaa-0000-4000-8000-000000000002';
const SOLO = 'aaaaaaaa-0000-4000-8000-000000000003';

const MIGRATION = `
create schema teams;
grant usage on schema teams to authenticated;
create table teams.accounts (id uuid primary key default gen_random_uuid(), name text not null, slug text unique);
create table teams.account_user (account_id uuid references teams.accounts(id), user_id uuid references auth.users(id),
  account_role text not null default 'member', primary key (account_id, user_id));
alter table teams.accounts enable row level security;
alter table teams.account_user enable row level security;

create function teams.has_role_on_account(account uuid) returns boolean
  language sql security definer set search_path = '' stable as $$
  select exists (select 1 from teams.account_user au where au.account_id = account and au.user_id = auth.uid())
$$;
grant execute on function teams.has_role_on_account(uuid) to authenticated;

create table public.projects (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references teams.accounts(id),
  name text not null,
  status text not null default 'active' check (status in ('active', 'archived')),
  created_at timestamptz not null default now()
);
alter table public.projects enable row level security;
create policy "members read" on public.projects for select to authenticated using (teams.has_role_on_account(account_id));
create policy "members write" on public.projects for insert to authenticated with check (teams.has_role_on_account(account_id));
create policy "members change" on public.projects for update to authenticated using (teams.has_role_on_account(account_id));
grant select, insert, update on public.projects to authenticated;

create table public.documents (id uuid primary key default gen_random_uuid(), title text not null, embedding extensions.vector(3));
alter table public.documents enable row level security;
create policy "everyone reads" on public.documents for select to authenticated using (true);
grant select on public.documents to authenticated;

-- As basejump writes it: volatile (nobody wrote stable), security definer, json.
create function public.get_accounts() returns json language sql security definer set search_path = '' as $$
  select coalesce(json_agg(json_build_object('account_id', a.id, 'name', a.name, 'slug', a.slug, 'role', au.account_role)
    order by a.name), '[]'::json)
  from teams.accounts a join teams.account_user au on au.account_id = a.id where au.user_id = auth.uid()
$$;
grant execute on function public.get_accounts() to authenticated;

comment on function public.archive_project is null;
`;

const FUNCTIONS = `
create function public.archive_project(project_id uuid) returns public.projects language plpgsql as $$
declare archived public.projects;
begin
  update public.projects set status = 'archived' where id = project_id returning * into archived;
  if archived.id is null then raise exception 'No project you can change has that id'; end if;
  return archived;
end $$;

create function public.count_projects(status text default null) returns integer language sql stable as $$
  select count(*)::int from public.projects p where count_projects.status is null or p.status = count_projects.status
$$;

-- Volatile, as a function nobody marked is; the domain calls it a read.
create function public.sneaky_stamp() returns integer language plpgsql as $$
begin
  insert into public.projects (account_id, name) values ('${ACME}', 'written by a read');
  return 1;
end $$;

create function public.rename_project(project_id uuid, new_name text) returns void language plpgsql as $$
begin
  if length(trim(new_name)) = 0 then raise exception 'A project needs a name'; end if;
  update public.projects set name = new_name where id = project_id;
end $$;

create function public.match_documents(query_embedding extensions.vector(3), match_count int default 5)
  returns setof public.documents language sql stable as $$
  select * from public.documents order by embedding operator(extensions.<=>) query_embedding limit match_count
$$;
`;

const SEED = `
insert into auth.users (id, email) values ('${ADA}', 'ada@example.com'), ('${BEN}', 'ben@example.com');
insert into teams.accounts (id, name, slug) values ('${ACME}', 'Acme Research', 'acme'), ('${BETA}', 'Beta Labs', 'beta'), ('${SOLO}', 'Solo', 'solo');
insert into teams.account_user (account_id, user_id, account_role) values
  ('${ACME}', '${ADA}', 'owner'), ('${BETA}', '${ADA}', 'member'), ('${ACME}', '${BEN}', 'member'), ('${SOLO}', '${BEN}', 'owner');
insert into public.projects (account_id, name) values ('${ACME}', 'Apollo'), ('${BETA}', 'Hermes'), ('${SOLO}', 'Ben''s secret');
insert into public.documents (title, embedding) values ('Lisbon contract', '[1,0,0]'), ('Berlin lease', '[0,1,0]'), ('Tokyo memo', '[0,0,1]');
`;

// The domain as a pull with these overrides writes it: get_accounts opted in
// (a definer) and marked a read (volatile only by omission).
const DOMAIN = {
  name: 'teams',
  tables: {
    accounts: { ref: 'account', exposed: false, label: ['name'], columns: { id: { type: 'uuid' }, name: { type: 'text' } } },
    projects: {
      ref: 'project',
      label: ['name'],
      columns: {
        id: { type: 'uuid', writable: false, nullable: false },
        account_id: { type: 'uuid', required: true, references: 'accounts' },
        name: { type: 'text', required: true },
        status: { type: 'text', nullable: false, values: ['active', 'archived'] },
        created_at: { type: 'timestamp', writable: false, nullable: false },
      },
    },
    documents: { ref: 'doc', label: ['title'], hidden: ['embedding'], writable: false, columns: { id: { type: 'uuid' }, title: { type: 'text' }, embedding: { type: 'text' } } },
  },
  functions: {
    get_accounts: { description: 'The teams the signed-in user belongs to.', read: true, returns: { type: 'json' } },
    archive_project: {
      description: 'Archives a project instead of deleting it.',
      args: { project_id: { type: 'uuid', required: true, references: 'projects' } },
      returns: { table: 'projects' },
    },
    count_projects: { read: true, args: { status: { type: 'text', values: ['active', 'archived'] } }, returns: { type: 'integer' } },
    sneaky_stamp: { read: true, returns: { type: 'integer' } },
    rename_project: {
      args: { project_id: { type: 'uuid', required: true, references: 'projects' }, new_name: { type: 'text', required: true } },
      returns: { type: 'void' },
    },
    match_documents: {
      read: true,
      args: { query_embedding: { type: 'vector', required: true }, match_count: { type: 'integer' } },
      returns: { table: 'documents', set: true },
    },
  },
};

// A three-dimensional embedder: which of three cities the text names.
const embedder = {
  async embed(texts) {
    return texts.map((text) => ['lisbon', 'berlin', 'tokyo'].map((city) => (text.toLowerCase().includes(city) ? 1 : 0.01)));
  },
};

/** A result the model may see: no error, no UUID anywhere. */
function ok(result) {
  assert.equal(result.error, null, `unexpected error: ${JSON.stringify(result.error)}`);
  assert.doesNotMatch(JSON.stringify({ data: result.data, query: result.query }), UUID);
  return result;
}

describe('db_call on a team app: functions as the signed-in user, membership deciding', () => {
  let stack;
  let core;
  const actFor = (user, options = {}) =>
    core.createAct({ url: stack.supabaseUrl, apiKey: stack.anonKey, accessToken: user.token, embedder, ...options });
  const db = async (path) => {
    const { status, body } = await rest(stack, stack.serviceKey, 'GET', path);
    assert.equal(status, 200, JSON.stringify(body));
    return body;
  };
  let ada;
  let ben;

  before(async () => {
    const dir = join(SCRATCH, `functions-${process.pid}`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(join(dir, 'migrations'), { recursive: true });
    writeFileSync(join(dir, 'migrations', '20260101000000_teams.sql'), MIGRATION.replace('comment on function public.archive_project is null;', ''));
    writeFileSync(join(dir, 'migrations', '20260101000001_functions.sql'), FUNCTIONS);
    writeFileSync(join(dir, 'seed.sql'), SEED);
    stack = await startStack({
      migrations: join(dir, 'migrations'),
      seed: join(dir, 'seed.sql'),
      users: [
        { id: ADA, email: 'ada@example.com', password: 'ada-password' },
        { id: BEN, email: 'ben@example.com', password: 'ben-password' },
      ],
    });
    core = await loadCore({ domain: DOMAIN });
    ada = stack.users.find((user) => user.id === ADA);
    ben = stack.users.find((user) => user.id === BEN);
  }, BOUNDED);
  after(() => stack?.stop());

  test('"which teams am I in?": get_accounts by GET, each team a ref labelled with its name', BOUNDED, async () => {
    const act = actFor(ada);
    const teams = ok(await act.execute('db_call', { function: 'get_accounts' }));
    assert.deepEqual(teams.data, [
      { account_id: 'account_1', name: 'Acme Research', slug: 'acme', role: 'owner' },
      { account_id: 'account_2', name: 'Beta Labs', slug: 'beta', role: 'member' },
    ]);
    const other = ok(await actFor(ben).execute('db_call', { function: 'get_accounts' }));
    assert.deepEqual(other.data.map((team) => team.name), ['Acme Research', 'Solo']);
  });

  test('"create a project in Beta Labs": the team from get_accounts, its ref written back in the create', BOUNDED, async () => {
    const act = actFor(ada);
    const teams = ok(await act.execute('db_call', { function: 'get_accounts' })).data;
    const beta = teams.find((team) => team.name === 'Beta Labs');
    const missing = await act.execute('db_create', { table: 'projects', data: { name: 'Orion' } });
    assert.equal(missing.error.code, 'missing_column', 'refused before any request, not answered by RLS');
    assert.equal(missing.query.source, 'none');
    const created = ok(await act.execute('db_create', { table: 'projects', data: { name: 'Orion', account_id: beta.account_id } }));
    assert.equal(created.data.account_id, beta.account_id);
    assert.equal(created.data._account_id_label, 'Beta Labs');
    const [row] = await db('/projects?name=eq.Orion&select=account_id');
    assert.equal(row.account_id, BETA);
  });

  test('a team the user is not in: its ref is never given, and RLS refuses a create there', BOUNDED, async () => {
    const act = actFor(ben);
    ok(await act.execute('db_call', { function: 'get_accounts' }));
    const invented = await act.execute('db_create', { table: 'projects', data: { name: 'Spy', account_id: 'account_9' } });
    assert.equal(invented.error.code, 'unknown_ref');
    const raw = await act.execute('db_create', { table: 'projects', data: { name: 'Spy', account_id: BETA } });
    assert.ok(['raw_id', 'invented_uuid'].includes(raw.error.code), raw.error.code);
    assert.deepEqual(await db('/projects?name=eq.Spy'), []);
  });

  test('the app fixes the active team: creates and function calls get it, the model cannot give another', BOUNDED, async () => {
    const act = actFor(ada, { context: { account_id: ACME } });
    assert.equal(JSON.stringify(act.tools()).includes('account_id*'), false, 'not offered as a required column');
    const created = ok(await act.execute('db_create', { table: 'projects', data: { name: 'Gemini' } }));
    assert.equal(created.data._account_id_label ?? created.data.account_id.startsWith('account_'), true);
    const [row] = await db('/projects?name=eq.Gemini&select=account_id');
    assert.equal(row.account_id, ACME);
    const overridden = await act.execute('db_create', { table: 'projects', data: { name: 'Other', account_id: 'account_1' } });
    assert.equal(overridden.error.code, 'system_column');
  });

  test('"archive Apollo instead of deleting it": a function that writes, by POST, its row back with refs', BOUNDED, async () => {
    const act = actFor(ada);
    ok(await act.execute('db_call', { function: 'get_accounts' }));
    const [apollo] = ok(await act.execute('db_read', { table: 'projects', filters: [{ field: 'name', op: '=', value: 'Apollo' }] })).data;
    const archived = ok(await act.execute('db_call', { function: 'archive_project', args: { project_id: apollo.id } }));
    assert.equal(archived.data.length, 1);
    assert.deepEqual([archived.data[0].id, archived.data[0].status, archived.data[0]._account_id_label], [apollo.id, 'archived', 'Acme Research']);
    const [row] = await db('/projects?name=eq.Apollo&select=status');
    assert.equal(row.status, 'archived');
  });

  test('the function refuses with its own words: the model reads them with a code, the data is untouched', BOUNDED, async () => {
    const act = actFor(ada);
    const [hermes] = ok(await act.execute('db_read', { table: 'projects', filters: [{ field: 'name', op: '=', value: 'Hermes' }] })).data;
    const refused = await act.execute('db_call', { function: 'rename_project', args: { project_id: hermes.id, new_name: '   ' } });
    assert.equal(refused.error.code, 'function_error');
    assert.equal(refused.error.message, 'calling rename_project failed: A project needs a name');
    const renamed = ok(await act.execute('db_call', { function: 'rename_project', args: { project_id: hermes.id, new_name: 'Hermes II' } }));
    assert.deepEqual(renamed.data, []);
    assert.deepEqual(await db('/projects?name=eq.Hermes II&select=name'), [{ name: 'Hermes II' }]);
  });

  test('a function the domain marks a read is sent by GET: if it writes, the database refuses it, nothing is written', BOUNDED, async () => {
    const before = (await db('/projects?select=id')).length;
    const refused = await actFor(ada).execute('db_call', { function: 'sneaky_stamp' });
    assert.equal(refused.error.dbCode, '25006', JSON.stringify(refused.error));
    assert.equal(refused.error.code, 'read_only_transaction');
    assert.equal((await db('/projects?select=id')).length, before);
  });

  test('a count by a read function, as each user (RLS decides): a value row', BOUNDED, async () => {
    const ben_count = ok(await actFor(ben).execute('db_call', { function: 'count_projects', args: {} }));
    const truth = await rest(stack, ben.token, 'GET', '/projects?select=id');
    assert.deepEqual(ben_count.data, [{ value: truth.body.length }]);
  });

  test('search by meaning: the text is embedded by the act, the function gets the vector, rows come back as refs', BOUNDED, async () => {
    const act = actFor(ada);
    const found = ok(await act.execute('db_call', { function: 'match_documents', args: { query_embedding: 'the Lisbon deal', match_count: 1 } }));
    assert.equal(found.data.length, 1);
    assert.equal(found.data[0].title, 'Lisbon contract');
    assert.match(found.data[0].id, /^doc_\d+$/);
    assert.equal('embedding' in found.data[0], false);
    const text = await act.callToolText('db_call', { function: 'match_documents', args: { query_embedding: 'tokyo', match_count: 1 } });
    assert.doesNotMatch(text, /0\.01/, 'the model never sees an embedding');
    assert.match(text, /Tokyo memo/);
  });

  test('read-only acts call only functions that read; the tool list offers only those', BOUNDED, async () => {
    const act = actFor(ada, { readOnly: true });
    const call = act.tools().find((tool) => tool.name === 'db_call');
    assert.deepEqual(call.parameters.properties.function.enum, ['get_accounts', 'count_projects', 'sneaky_stamp', 'match_documents']);
    const refused = await act.execute('db_call', { function: 'archive_project', args: { project_id: 'project_1' } });
    assert.equal(refused.error.code, 'read_only');
    ok(await act.execute('db_call', { function: 'get_accounts' }));
  });

  test("approve: 'writes' holds a function that changes data, with a preview naming it and its arguments' labels", BOUNDED, async () => {
    const asked = [];
    const act = actFor(ada, { approve: async (call, preview) => (asked.push({ call, preview }), false) });
    const [gemini] = ok(await act.execute('db_read', { table: 'projects', filters: [{ field: 'name', op: '=', value: 'Gemini' }] })).data;
    const held = await act.execute('db_call', { function: 'archive_project', args: { project_id: gemini.id } });
    assert.equal(held.error.code, 'approval_required');
    assert.equal(asked.length, 1);
    assert.deepEqual(asked[0].preview, {
      tool: 'db_call',
      table: 'projects',
      count: 1,
      rows: [],
      function: 'archive_project',
      description: 'Archives a project instead of deleting it.',
      args: { project_id: gemini.id },
      argumentLabels: { project_id: 'Gemini' },
    });
    assert.deepEqual([asked[0].call.tool, asked[0].call.function, asked[0].call.table], ['db_call', 'archive_project', 'projects']);
    const [row] = await db('/projects?name=eq.Gemini&select=status');
    assert.equal(row.status, 'active', 'denied: nothing changed');
    ok(await act.execute('db_call', { function: 'get_accounts' }));
    assert.equal(asked.length, 1, 'a read function is never held');
  });

  test('the model reads a db_call result with the function named and the query as text', BOUNDED, async () => {
    const act = actFor(ada);
    const result = await act.callTool('db_call', JSON.stringify({ function: 'count_projects', args: { status: 'archived' } }));
    assert.equal(result.ok, true);
    assert.equal(result.tool, 'db_call');
    assert.equal(result.function, 'count_projects');
    assert.equal(result.table, null);
    assert.equal(result.query, 'Query: Function: count_projects | Args: status = archived\nOutcome: 1 row returned');
    const wrong = await act.callTool('db_call', { function: 'count_projects', args: { state: 'x' } });
    assert.deepEqual([wrong.ok, wrong.error.code, wrong.error.path], [false, 'unknown_argument', 'args.state']);
  });
});
