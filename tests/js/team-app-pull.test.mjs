// A team app in Midday's shape (a membership table read by a security
// definer function in a private schema, team columns the schema lets be
// NULL, a trigger that fills a slug in, functions returning a one-column
// table, helpers, a function that mints a key), pulled and used on the real
// local stack: the team column every create must give is required, a
// membership keyed with a drawn uuid is keyed by its unique columns and takes
// no creates its policy leaves open, a one-column table comes back as the
// objects PostgREST sends, helpers and secret-minting functions are left out,
// and invitations do not take the people's `user` refs (docs/own-schema.md,
// "Columns": required by the policies; docs/functions.md).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { catalogFacts } from '../../web/src/pull/catalog.js';
import { loadCore, pullDomain } from '../../web/src/index.node.js';
import { ADA, pulledDomain, sharedSqlStack } from './support/sql-stack.mjs';

const BEN = { id: 'b2f0ed00-0000-4000-8000-00000000000b', email: 'ben@example.com' };
const CAROL = { id: 'c3f0ed00-0000-4000-8000-00000000000c', email: 'carol@example.com' };
const TEAM_A = 'a0000000-0000-4000-8000-00000000000a';
const TEAM_B = 'b0000000-0000-4000-8000-00000000000b';

const SQL = `
insert into auth.users (id, email) values ('${ADA.id}', '${ADA.email}'), ('${BEN.id}', '${BEN.email}'), ('${CAROL.id}', '${CAROL.email}');
create schema private;
-- database.dev's handles: a domain over citext, on a table and in a view.
create extension if not exists citext with schema extensions;
create domain public.valid_name as extensions.citext check (length(value) <= 32);
create table public.handles (id bigint generated always as identity primary key, user_id uuid not null default auth.uid() references auth.users (id),
  handle public.valid_name not null unique);
alter table public.handles enable row level security;
create policy "own handles" on public.handles for all to authenticated using (user_id = auth.uid()) with check (user_id = auth.uid());
create view public.handle_list with (security_invoker = true) as select id, handle from public.handles;
create table public.teams (id uuid primary key default gen_random_uuid(), name text not null);
create table public.users_on_team (
  id uuid not null default gen_random_uuid(),
  user_id uuid not null references auth.users (id),
  team_id uuid not null references public.teams (id),
  role text,
  primary key (user_id, team_id, id),
  unique (user_id, team_id)
);
-- The same shape with no unique index on the other columns: a user logs many entries per project.
create table public.time_entries (
  id uuid not null default gen_random_uuid(),
  project_id uuid not null,
  user_id uuid not null references auth.users (id),
  hours numeric not null,
  primary key (project_id, user_id, id)
);
alter table public.time_entries enable row level security;
create policy "own entries" on public.time_entries for all to authenticated using (user_id = auth.uid()) with check (user_id = auth.uid());
create function private.my_teams() returns setof uuid language sql stable security definer set search_path = public
  as $$ select team_id from public.users_on_team where user_id = auth.uid() $$;
grant usage on schema private to authenticated;
alter table public.teams enable row level security;
alter table public.users_on_team enable row level security;
create policy "team read" on public.teams for select to authenticated using (id in (select private.my_teams()));
create policy "members read" on public.users_on_team for select to authenticated using (team_id in (select private.my_teams()));
-- Midday's: any signed-in user may add any membership; a restrictive MFA policy checks nothing of the row either.
create policy "members insert" on public.users_on_team for insert to authenticated with check (true);
create policy "mfa" on public.users_on_team as restrictive for insert to authenticated with check ((select auth.jwt() ->> 'aal') = 'aal2');
-- Followers: the insert policy only asks for a signed-in user.
create table public.followers (id bigint generated always as identity primary key, user_id uuid not null references auth.users (id),
  team_id uuid not null references public.teams (id));
alter table public.followers enable row level security;
create policy "followers read" on public.followers for select to authenticated using (team_id in (select private.my_teams()));
create policy "followers add" on public.followers for insert to authenticated with check ((select auth.uid()) is not null);
create policy "members delete" on public.users_on_team for delete to authenticated using (team_id in (select private.my_teams()));

create table public.projects (id uuid primary key default gen_random_uuid(), team_id uuid references public.teams (id), name text not null,
  created_at timestamptz not null default now());
alter table public.projects enable row level security;
create policy "projects" on public.projects for all to authenticated
  using (team_id in (select private.my_teams())) with check (team_id in (select private.my_teams()));

-- A team column the one create policy needs through EXISTS, and one a second permissive policy lets be empty.
create table public.notes (id bigint generated always as identity primary key, team_id uuid references public.teams (id), body text not null);
alter table public.notes enable row level security;
create policy "notes read" on public.notes for select to authenticated using (exists (select 1 from public.users_on_team m where m.team_id = notes.team_id and m.user_id = auth.uid()));
create policy "notes insert" on public.notes for insert to authenticated with check (exists (select 1 from public.users_on_team m where m.team_id = notes.team_id and m.user_id = auth.uid()));
create table public.drafts (id bigint generated always as identity primary key, team_id uuid references public.teams (id), body text not null);
alter table public.drafts enable row level security;
create policy "drafts team" on public.drafts for all to authenticated using (team_id in (select private.my_teams())) with check (team_id in (select private.my_teams()));
create policy "drafts loose" on public.drafts for insert to authenticated with check (team_id is null or body <> '');
-- A CASE inside the EXISTS lets a NULL through; a team column with a default is filled in by the database.
create table public.memos (id bigint generated always as identity primary key, team_id uuid references public.teams (id), body text not null);
alter table public.memos enable row level security;
create policy "memos" on public.memos for insert to authenticated with check (exists (select 1 from public.users_on_team m
  where case when memos.team_id is null then true else m.team_id = memos.team_id end));
create function private.first_team() returns uuid language sql stable security definer set search_path = public
  as $$ select team_id from public.users_on_team where user_id = auth.uid() limit 1 $$;
create table public.pins (id bigint generated always as identity primary key, team_id uuid default private.first_team() references public.teams (id), body text not null);
alter table public.pins enable row level security;
create policy "pins" on public.pins for all to authenticated using (team_id in (select private.my_teams())) with check (team_id in (select private.my_teams()));

-- A slug a BEFORE INSERT trigger always writes.
create table public.categories (id bigint generated always as identity primary key, team_id uuid not null references public.teams (id),
  slug text not null, name text not null, unique (team_id, slug));
create function public.set_slug() returns trigger language plpgsql as $$
begin
  new.slug := lower(replace(new.name, ' ', '-'));
  return new;
end $$;
create trigger set_slug before insert on public.categories for each row execute function public.set_slug();
alter table public.categories enable row level security;
create policy "categories" on public.categories for all to authenticated
  using (team_id in (select private.my_teams())) with check (team_id in (select private.my_teams()));

create table public.user_invites (id uuid primary key default gen_random_uuid(), team_id uuid not null references public.teams (id), email text not null);
alter table public.user_invites enable row level security;
create policy "invites" on public.user_invites for all to authenticated using (team_id in (select private.my_teams())) with check (team_id in (select private.my_teams()));

-- Functions returning one column: as a table, and as an OUT argument.
create function public.project_names(team_id uuid) returns table (name text) language sql stable
  as $$ select p.name from public.projects p where p.team_id = project_names.team_id order by p.name $$;
create function public.project_count(team_id uuid, out total bigint) language sql stable
  as $$ select count(*) from public.projects p where p.team_id = project_count.team_id $$;

-- A team taken as text (Midday's metrics take team_id text), compared with the key as text; a user taken as text.
create function public.project_total(team_id text) returns bigint language sql stable
  as $$ select count(*) from public.projects p where p.team_id::text = project_total.team_id $$;
create function public.entries_of(user_id text) returns bigint language sql stable
  as $$ select count(*) from public.time_entries e where e.user_id::text = entries_of.user_id $$;
-- A prefixed one; and one whose name alone names a table (no uuid column of that name): plain text.
create function public.project_total_of(p_team_id text) returns bigint language sql stable
  as $$ select count(*) from public.projects p where p.team_id::text = p_team_id $$;
create function public.invite_email(user_invite_id text) returns text language sql stable
  as $$ select email from public.user_invites i where i.id::text = user_invite_id $$;

-- Policies without an expression let nothing through (Quivr's "for all to public" with neither USING nor WITH CHECK):
-- one table has only such a policy, another a read policy beside one.
create table public.locked (id bigint generated always as identity primary key, note text not null);
alter table public.locked enable row level security;
create policy "anything" on public.locked for all to public;
create table public.read_only_notes (id bigint generated always as identity primary key, note text not null);
alter table public.read_only_notes enable row level security;
create policy "read" on public.read_only_notes for select to authenticated using (true);
create policy "anything" on public.read_only_notes for all to public;
-- Tables only the service role reaches (Quivr's brains and brains_users): one referenced only by another such is
-- left out too; one a readable table references stays, read-only.
create table public.vaults (id uuid primary key default gen_random_uuid(), name text not null);
create table public.vault_members (vault_id uuid not null references public.vaults (id), user_id uuid not null references auth.users (id));
create table public.shelves (id uuid primary key default gen_random_uuid(), name text not null);
create table public.books (id bigint generated always as identity primary key, shelf_id uuid references public.shelves (id), title text not null);
alter table public.vaults enable row level security;
alter table public.vault_members enable row level security;
alter table public.shelves enable row level security;
alter table public.books enable row level security;
create policy "books" on public.books for all to authenticated using (true) with check (true);

-- An integration's credentials (OAuth tokens as JSON): a secret by its name.
create table public.integrations (id bigint generated always as identity primary key, user_id uuid not null default auth.uid() references auth.users (id),
  provider text not null, credentials jsonb);
alter table public.integrations enable row level security;
create policy "own" on public.integrations for all to authenticated using (user_id = auth.uid()) with check (user_id = auth.uid());

-- A metric kept in three versions (Midday's get_burn_rate, _v2, _v3), and one whose latest version is a helper.
create function public.project_stats() returns bigint language sql stable as $$ select count(*) from public.projects $$;
create function public.project_stats_v2() returns bigint language sql stable as $$ select count(*) + 0 from public.projects $$;
create function public.project_stats_v3() returns bigint language sql stable as $$ select count(*) + 0 + 0 from public.projects $$;
create function public.team_label() returns text language sql stable as $$ select name from public.teams limit 1 $$;
create function public.team_label_v2() returns text language sql stable as $$ select 'team' $$;

-- Helpers that read no table (one through another), and a function that calls one that does.
create function public.make_code(size int) returns text language sql as $$ select substr(md5(random()::text), 1, size) $$;
create function public.team_code(size int) returns text language sql as $$ select upper(public.make_code(size)) $$;
create function public.team_total() returns bigint language sql stable as $$ select count(*) from public.teams $$;
create function public.team_total_text() returns text language sql stable as $$ select 'teams: ' || public.team_total()::text $$;
create function public.in_a_team() returns boolean language sql stable as $$ select private.first_team() is not null $$;
-- A function named for the secret it hands back, and one whose name only counts them.
create table public.api_keys (id bigint generated always as identity primary key, user_id uuid not null default auth.uid() references auth.users (id), key_hash text not null);
alter table public.api_keys enable row level security;
create policy "own keys" on public.api_keys for all to authenticated using (user_id = auth.uid()) with check (user_id = auth.uid());
create function public.new_api_key() returns text language plpgsql as $$
declare k text := md5(random()::text);
begin
  insert into public.api_keys (key_hash) values (md5(k));
  return k;
end $$;
create function public.api_key_count() returns integer language sql stable as $$ select count(*)::int from public.api_keys $$;
-- An overload left behind when an argument was added (database.dev's publish_package).
create table public.posts (id bigint generated always as identity primary key, title text not null, tags text[] not null default '{}');
alter table public.posts enable row level security;
create policy "posts" on public.posts for all to authenticated using (true) with check (true);
create function public.publish(title text) returns bigint language sql as $$ insert into public.posts (title) values (title) returning id $$;
create function public.publish(title text, tags text[] default '{}') returns bigint language sql as $$
  insert into public.posts (title, tags) values (title, tags) returning id
$$;
create function public.key_list() returns table (id bigint, key_hash text) language sql stable as $$ select id, key_hash from public.api_keys $$;
create function public.new_key_row() returns table (id bigint, secret text) language sql as $$
  insert into public.api_keys (key_hash) values (md5(random()::text)) returning id, key_hash
$$;

insert into public.teams (id, name) values ('${TEAM_A}', 'Acme'), ('${TEAM_B}', 'Beta');
insert into public.users_on_team (user_id, team_id, role) values ('${ADA.id}', '${TEAM_A}', 'owner'), ('${BEN.id}', '${TEAM_B}', 'owner'),
  ('${CAROL.id}', '${TEAM_A}', 'member');
insert into public.projects (team_id, name) values ('${TEAM_B}', 'Beta secret');
`;

const core = await loadCore();
const stack = sharedSqlStack({ sql: SQL, inspect: (query) => catalogFacts(query), users: [] });
const noteOf = (notes, path) => notes.find((note) => note.path === path)?.message;

test('the pull: a team column the create policies need is required; one a permissive policy lets be empty is not', async () => {
  const { domain, notes } = await pulledDomain(stack(), core);
  assert.deepEqual(domain.tables.projects.columns.team_id, { type: 'uuid', required: true, references: 'teams' });
  assert.match(noteOf(notes, 'tables.projects.columns.team_id'), /^required: the table allows NULL, but the row-level security a create must pass needs it \(\(team_id IN \( SELECT private\.my_teams\(\)/);
  assert.equal(domain.tables.notes.columns.team_id.required, true, 'an EXISTS that compares notes.team_id needs it too');
  assert.equal(domain.tables.drafts.columns.team_id.required, undefined, 'a second permissive policy lets it be NULL');
  assert.equal(noteOf(notes, 'tables.drafts.columns.team_id'), undefined);
  // Required team columns embed: a team's projects.
  assert.equal(domain.tables.teams.relations?.projects, 'projects');
});

test('the pull: policies that let a NULL through, or a default that fills the column in, leave it optional', async () => {
  const { domain } = await pulledDomain(stack(), core);
  assert.equal(domain.tables.memos.columns.team_id.required, undefined, 'a CASE in the EXISTS');
  assert.equal(domain.tables.pins.columns.team_id.required, undefined, 'a default');
  // A NOT NULL column a BEFORE INSERT trigger sets stays required: a trigger may also only normalize it.
  assert.equal(domain.tables.categories.columns.slug.required, true);
});

test('the pull: without a table of users, a user_… table does not take the people\'s user refs', async () => {
  const { domain } = await pulledDomain(stack(), core);
  assert.notEqual(domain.tables.user_invites.ref, 'user');
  assert.equal(domain.tables.teams.ref, 'team');
});

test('the pull: a function returning a one-column table and one with an OUT argument give objects', async () => {
  const { domain } = await pulledDomain(stack(), core);
  assert.deepEqual(domain.functions.project_names.returns, { type: 'json', set: true });
  assert.deepEqual(domain.functions.project_count.returns, { type: 'json' });
});

test('as Ada: a project is created in her team once the model names it, and the functions answer as PostgREST does', async () => {
  const { domain } = await pulledDomain(stack(), core);
  const { supabaseUrl, anonKey, token } = stack();
  const act = core.createAct({ url: supabaseUrl, apiKey: anonKey, accessToken: token, domain });
  const missing = await act.execute('db_create', { table: 'projects', data: { name: 'Website' } });
  assert.equal(missing.error?.code, 'missing_column', 'named before any request, not a row-level security refusal');
  assert.match(missing.error.message, /team_id/);
  const teams = await act.execute('db_read', { table: 'teams' });
  assert.deepEqual(teams.data.map((row) => row.name), ['Acme']);
  const team = teams.data[0].id;
  const made = await act.execute('db_create', { table: 'projects', data: { name: 'Website', team_id: team } });
  assert.equal(made.error, null);
  const category = await act.execute('db_create', { table: 'categories', data: { name: 'Office Supplies', slug: 'office', team_id: team } });
  assert.equal(category.error, null, JSON.stringify(category.error));
  assert.equal(category.data.slug, 'office-supplies');
  const names = await act.execute('db_call', { function: 'project_names', args: { team_id: team } });
  assert.equal(names.error, null);
  assert.deepEqual(names.data, [{ name: 'Website' }]);
  const count = await act.execute('db_call', { function: 'project_count', args: { team_id: team } });
  assert.deepEqual(count.data, [{ total: 1 }], JSON.stringify(count));
  // A team taken as text takes the team's ref, sent as its uuid's text; Beta's ref is no key Ada can name.
  assert.deepEqual(domain.functions.project_total.args.team_id, { type: 'text', required: true, references: 'teams' });
  const total = JSON.parse(await act.callToolText('db_call', JSON.stringify({ function: 'project_total', args: { team_id: team } })));
  assert.equal(total.ok, true, JSON.stringify(total));
  assert.deepEqual(total.rows, [{ value: 1 }]);
  assert.match(total.query, /team_id = team_1/);
  const raw = await act.execute('db_call', { function: 'project_total', args: { team_id: 'Acme' } });
  assert.equal(raw.error?.code, 'not_a_ref');
  // The people's ids stay uuid arguments: a user taken as text is plain text; so is a name that only names a table.
  assert.equal(domain.functions.entries_of.args.user_id.references, undefined);
  assert.equal(domain.functions.invite_email.args.user_invite_id.references, undefined);
  assert.equal(domain.functions.project_total_of.args.p_team_id.references, 'teams');
  const { notes } = await pulledDomain(stack(), core);
  assert.match(noteOf(notes, 'functions.project_total.args.team_id'), /^a ref of teams, sent as its uuid's text \(uuid columns named team_id reference teams\); if it takes something else, give "references": null in the overrides$/);
  // Beta's projects stay Beta's.
  const all = await act.execute('db_read', { table: 'projects' });
  assert.deepEqual(all.data.map((row) => row.name), ['Website']);
});

test('the pull: a membership table keyed with a drawn uuid is keyed by its other columns, and takes no creates its policy leaves open', async () => {
  const { domain, notes } = await pulledDomain(stack(), core);
  const members = domain.tables.users_on_team;
  assert.deepEqual(members.key, ['user_id', 'team_id']);
  assert.deepEqual(members.writable, ['delete']);
  assert.match(noteOf(notes, 'tables.users_on_team.key'), /^user_id, team_id: unique, and the rest of its primary key, id, is a uuid the database draws/);
  assert.match(noteOf(notes, 'tables.users_on_team.writable'), /^no creates: a row-level security policy lets any signed-in user add any row \(its check names no column of the row\), and its rows name users \(user_id\)/);
  // Without a unique index on the other columns, they name many rows: read-only, as any hidden key column leaves a table.
  assert.deepEqual([domain.tables.time_entries.key, domain.tables.time_entries.writable], [[], false]);
  assert.deepEqual(domain.tables.followers.writable, false, 'auth.uid() IS NOT NULL checks nothing of the row either');
});

test('as Ada: she removes Carol from her team; neither she nor the model can add anyone to Beta', async () => {
  const { domain } = await pulledDomain(stack(), core);
  const { supabaseUrl, anonKey, token } = stack();
  const act = core.createAct({ url: supabaseUrl, apiKey: anonKey, accessToken: token, domain });
  const teams = await act.execute('db_read', { table: 'teams' });
  const join = await act.execute('db_create', { table: 'users_on_team', data: { user_id: 'me', team_id: teams.data[0].id, role: 'owner' } });
  assert.equal(join.error?.code, 'read_only_table');
  const members = await act.execute('db_read', { table: 'users_on_team', order_by: 'role' });
  assert.deepEqual(members.data.map((row) => row.role), ['member', 'owner']);
  const carol = members.data[0];
  assert.match(carol.user_id, /^user_\d+$/);
  const removed = await act.execute('db_delete', { table: 'users_on_team', filters: [{ field: 'user_id', op: '=', value: carol.user_id }, { field: 'team_id', op: '=', value: carol.team_id }] });
  assert.equal(removed.error, null, JSON.stringify(removed.error));
  assert.equal(removed.count, 1);
  const left = await act.execute('db_read', { table: 'users_on_team' });
  assert.deepEqual(left.data.map((row) => row.user_id), ['me']);
});

test('the pull: a policy with neither USING nor WITH CHECK lets nothing through; credentials are a secret', async () => {
  const { domain, notes } = await pulledDomain(stack(), core);
  assert.equal(domain.tables.locked, undefined);
  assert.match(noteOf(notes, 'tables.locked'), /^left out: no row-level security policy lets a signed-in user read its rows, and none may add rows to it/);
  assert.equal(domain.tables.read_only_notes.writable, false);
  assert.equal(domain.tables.read_only_notes.readable, undefined);
  assert.deepEqual(domain.tables.integrations.hidden, ['credentials']);
  assert.deepEqual([domain.tables.vaults, domain.tables.vault_members], [undefined, undefined]);
  assert.match(noteOf(notes, 'tables.vaults'), /^left out: no row-level security policy lets a signed-in user read its rows/);
  assert.equal(domain.tables.shelves.writable, false);
  assert.equal(domain.tables.books.columns.shelf_id.references, 'shelves');
});

test('the pull: a function kept beside later versions of itself is left out unless opted in; the latest offered is kept', async () => {
  const { domain, notes } = await pulledDomain(stack(), core);
  assert.deepEqual(['project_stats', 'project_stats_v2', 'project_stats_v3'].map((name) => Boolean(domain.functions[name])), [false, false, true]);
  assert.equal(noteOf(notes, 'functions.project_stats_v2'), 'left out: an older version of project_stats_v3, which is offered; opt in with functions.project_stats_v2.expose: true in the overrides');
  // team_label_v2 is a helper, left out: team_label is the latest offered.
  assert.deepEqual(['team_label', 'team_label_v2'].map((name) => Boolean(domain.functions[name])), [true, false]);
  const { supabaseUrl, anonKey, token } = stack();
  const { data, error } = await pullDomain({ url: supabaseUrl, apiKey: anonKey, accessToken: token, core, catalog: stack().inspected, overrides: { functions: { project_stats: { expose: true } } } });
  assert.equal(error, null);
  assert.deepEqual(['project_stats', 'project_stats_v2', 'project_stats_v3'].map((name) => Boolean(data.functions[name])), [true, false, true]);
});

test('the pull: helpers whose bodies read no table are left out unless opted in; a function calling one that reads is offered', async () => {
  const { domain, notes } = await pulledDomain(stack(), core);
  assert.deepEqual(['make_code', 'team_code', 'team_total', 'team_total_text', 'in_a_team'].map((name) => Boolean(domain.functions[name])), [false, false, true, true, true]);
  assert.match(noteOf(notes, 'functions.team_code'), /^left out: a helper: its body reads and writes no table, so it computes what the model can \(or draws ids and codes\); opt in with functions\.team_code\.expose: true in the overrides$/);
  const { supabaseUrl, anonKey, token } = stack();
  const { data, error } = await pullDomain({ url: supabaseUrl, apiKey: anonKey, accessToken: token, core, catalog: stack().inspected, overrides: { functions: { make_code: { expose: true } } } });
  assert.equal(error, null);
  assert.deepEqual(data.functions.make_code.args, { size: { type: 'integer', required: true } });
});

test('the pull: a function named for the secret it returns is left out unless opted in; one that counts them is offered', async () => {
  const { domain, notes } = await pulledDomain(stack(), core);
  assert.equal(domain.functions.new_api_key, undefined);
  assert.match(noteOf(notes, 'functions.new_api_key'), /^left out: its name says it returns a secret \(an API key, a token, a password\), which the model must not read; opt in with functions\.new_api_key\.expose: true/);
  assert.deepEqual(domain.functions.api_key_count.returns, { type: 'integer' });
  // A result column named for a secret keeps the function out too; one that only lists keys' hashes is offered.
  assert.equal(domain.functions.new_key_row, undefined);
  assert.match(noteOf(notes, 'functions.new_key_row'), /^left out: its result's secret is named for a secret \(an API key, a token, a password\), which the model must not read; opt in/);
  assert.ok(domain.functions.key_list);
});

test('the pull: a column of a domain type is its base type (citext: text), in a table and in a view', async () => {
  const { domain } = await pulledDomain(stack(), core);
  assert.deepEqual(domain.tables.handles.columns.handle, { type: 'text', required: true });
  assert.equal(domain.tables.handle_list.columns.handle.type, 'text');
  assert.equal(domain.tables.handles.hidden, undefined);
  const { supabaseUrl, anonKey, token } = stack();
  const act = core.createAct({ url: supabaseUrl, apiKey: anonKey, accessToken: token, domain });
  const made = await act.execute('db_create', { table: 'handles', data: { handle: 'Ada' } });
  assert.equal(made.error, null, JSON.stringify(made.error));
  const found = await act.execute('db_read', { table: 'handle_list', filters: [{ field: 'handle', op: '=', value: 'ada' }] });
  assert.deepEqual(found.data.map((row) => row.handle), ['Ada'], 'citext compares without case');
});


test('the pull: overloads are left out until the overrides choose one by its arguments, which are then all required', async () => {
  const { domain, notes } = await pulledDomain(stack(), core);
  assert.equal(domain.functions.publish, undefined);
  assert.match(noteOf(notes, 'functions.publish'), /choose one with functions\.publish\.overload: \[its argument names\] in the overrides$/);
  const { supabaseUrl, anonKey, token } = stack();
  const pull = (overload) => pullDomain({ url: supabaseUrl, apiKey: anonKey, accessToken: token, core, catalog: stack().inspected, overrides: { functions: { publish: { overload } } } });
  const wrong = await pull(['title', 'body']);
  assert.deepEqual([wrong.error.code, wrong.error.path, wrong.error.hint], ['invalid_overrides', 'functions.publish.overload', 'one of ["title"] or ["title","tags"]']);
  const chosen = await pull(['tags', 'title']);
  assert.equal(chosen.error, null);
  assert.deepEqual(chosen.data.functions.publish.args, { title: { type: 'text', required: true }, tags: { type: 'text[]', required: true } });
  assert.equal(chosen.notes.find((note) => note.path === 'functions.publish')?.message, 'overloaded: the overrides chose publish(title text, tags text[]); every argument is required, so PostgREST tells it from the others');
  // The smaller one cannot be told apart: a call with its one argument fits the other, whose second has a default.
  const smaller = await pull(['title']);
  assert.deepEqual([smaller.error.code, smaller.error.message], ['invalid_overrides', 'a call with every argument of publish(title text) fits publish(title text, tags text[]) too: PostgREST cannot tell them apart']);
  const dropped = await pullDomain({ url: supabaseUrl, apiKey: anonKey, accessToken: token, core, catalog: stack().inspected, overrides: { functions: { publish: { overload: ['title', 'tags'], args: { tags: null } } } } });
  assert.equal(dropped.error.path, 'functions.publish.args.tags');
  const act = core.createAct({ url: supabaseUrl, apiKey: anonKey, accessToken: token, domain: chosen.data });
  const made = await act.execute('db_call', { function: 'publish', args: { title: 'Hello', tags: ['news'] } });
  assert.equal(made.error, null, JSON.stringify(made.error));
  const fewer = await act.execute('db_call', { function: 'publish', args: { title: 'Hello' } });
  assert.equal(fewer.error?.code, 'missing_argument', JSON.stringify(fewer.error));
});
