// A document app where users share documents with each other, in the shape
// of open-source apps built on Supabase (a notebook app's schema, written
// here in our own words): documents whose content is bytea and given by the
// app's own client, a permissions table without a primary key (a unique pair
// of document and user), whose user_id is the user a document is shared
// with rather than its owner, policies that read through a security definer
// function and through the documents table, workspaces with a
// case-insensitive unique name, updated_at granted column by column, and a
// trigger that refuses some updates, attachments whose every row needs a file
// uploaded to Supabase Storage. On the real local stack (PostgREST 12
// on PGlite): the pull reads all of it right (docs/own-schema.md), and Ada
// shares a document with Bob as a model would.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { catalogFacts } from '../../web/src/pull/catalog.js';
import { loadCore } from '../../web/src/index.node.js';
import { runTurn } from '../../web/src/loop/index.js';
import { ADA, pulledDomain, sharedSqlStack } from './support/sql-stack.mjs';

const BOB = { id: 'b0b0b0b0-0000-4000-8000-00000000000b', email: 'bob@example.com' };

const SQL = `
create table public.documents (
  id uuid primary key default gen_random_uuid(),
  nano_id text not null unique,
  title text,
  data bytea not null,
  public_access_level text not null default 'no-access' check (public_access_level in ('no-access', 'read', 'write')),
  user_id uuid not null default auth.uid() references auth.users,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now());
alter table public.documents enable row level security;

create table public.document_permissions (
  document_id uuid not null references public.documents on delete cascade,
  user_id uuid not null references auth.users,
  access_level text not null check (access_level in ('read', 'write')),
  unique (document_id, user_id));
alter table public.document_permissions enable row level security;

create function public.access_of(uid uuid, doc public.documents) returns text
  language plpgsql stable security definer set search_path = public as $$
begin
  if doc.user_id = uid then return 'write'; end if;
  return coalesce((select access_level from public.document_permissions p where p.document_id = doc.id and p.user_id = uid), doc.public_access_level);
end $$;

create policy "read documents" on public.documents for select using (access_of(auth.uid(), documents) in ('read', 'write'));
create policy "create own documents" on public.documents for insert to authenticated with check (user_id = auth.uid());
create policy "update documents" on public.documents for update using (access_of(auth.uid(), documents) = 'write');
create policy "delete own documents" on public.documents for delete using (user_id = auth.uid());
revoke update on table public.documents from authenticated;
grant update (title, data, public_access_level, updated_at) on table public.documents to authenticated;

create policy "owners share" on public.document_permissions for all to authenticated
  using ((select user_id from public.documents where id = document_id) = auth.uid())
  with check ((select user_id from public.documents where id = document_id) = auth.uid());
create policy "see what is shared with you" on public.document_permissions for select to authenticated using (user_id = auth.uid());

create function public.only_owner_changes_access() returns trigger language plpgsql as $$
begin
  if new.public_access_level <> old.public_access_level and auth.uid() <> old.user_id then
    raise exception 'Only the owner may change who can read this document';
  end if;
  return new;
end $$;
create trigger only_owner_changes_access before update on public.documents for each row execute function public.only_owner_changes_access();

-- Who a document mentions: the document's owner decides, the user is only named.
create table public.mentions (
  id bigint generated always as identity primary key,
  document_id uuid not null references public.documents on delete cascade,
  user_id uuid not null references auth.users);
alter table public.mentions enable row level security;
create policy "owners mention" on public.mentions for all to authenticated
  using ((select user_id from public.documents where id = document_id) = auth.uid());

create table public.workspaces (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  owner_user_id uuid not null default auth.uid() references auth.users,
  document_nano_id text not null references public.documents (nano_id) on delete cascade,
  created_at timestamptz not null default now());
create unique index workspaces_name_key on public.workspaces (lower(name));
alter table public.workspaces enable row level security;
create policy "anyone reads workspaces" on public.workspaces for select using (true);
create policy "own workspace" on public.workspaces for insert to authenticated with check (owner_user_id = auth.uid());

-- Supabase Studio's policy templates: anyone signed in inserts, each updates and deletes their own.
create table public.todos (
  id bigint generated by default as identity primary key,
  task text not null,
  points integer[] not null default '{}',
  user_id uuid not null references auth.users);
alter table public.todos enable row level security;
create policy "signed-in users insert" on public.todos for insert to authenticated with check (true);
create policy "read own" on public.todos for select using (auth.uid() = user_id);
create policy "update own" on public.todos for update using (auth.uid() = user_id);
create policy "delete own" on public.todos for delete using (auth.uid() = user_id);

-- A model a user adds with its own API key (a secret the model must not read,
-- NOT NULL without a default): the app's client makes these rows.
create table public.models (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users,
  name text not null,
  api_key text not null);
alter table public.models enable row level security;
create policy "own models" on public.models for all to authenticated using (user_id = auth.uid()) with check (user_id = auth.uid());

-- Files uploaded to Supabase Storage: an upload makes each storage.objects row,
-- and the app's client (or a trigger on the upload) the row that points at it.
create table public.attachments (
  id uuid primary key default gen_random_uuid(),
  file_id uuid not null references storage.objects (id),
  caption text,
  user_id uuid not null default auth.uid() references auth.users);
alter table public.attachments enable row level security;
create policy "own attachments" on public.attachments for all to authenticated using (user_id = auth.uid()) with check (user_id = auth.uid());
create table public.albums (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  cover_id uuid references storage.objects (id),
  user_id uuid not null default auth.uid() references auth.users);
alter table public.albums enable row level security;
create policy "own albums" on public.albums for all to authenticated using (user_id = auth.uid()) with check (user_id = auth.uid());

-- An array every row must have, with no default ('{}' is a default PostgREST does not describe).
create domain public.paths as text[] default '{}';
create table public.notes (
  attachments public.paths not null,
  id bigint generated by default as identity primary key,
  body text not null,
  image_paths text[] not null,
  tags text[] not null default '{}',
  extra jsonb not null default '{}'::jsonb,
  user_id uuid not null default auth.uid() references auth.users);
alter table public.notes enable row level security;
create policy "own notes" on public.notes for all to authenticated using (user_id = auth.uid()) with check (user_id = auth.uid());
-- A link table: a note's files, each an uploaded file linked again, not made.
create table public.note_files (
  note_id bigint not null references public.notes on delete cascade,
  file_id uuid not null references storage.objects (id),
  primary key (note_id, file_id));
alter table public.note_files enable row level security;
create policy "own note files" on public.note_files for all to authenticated
  using ((select user_id from public.notes where id = note_id) = auth.uid())
  with check ((select user_id from public.notes where id = note_id) = auth.uid());

-- No primary key, a unique seat number the app gives.
create table public.seats (seat_no integer not null unique, holder text);
alter table public.seats enable row level security;
create policy "seats" on public.seats for all to authenticated using (true) with check (true);

-- A list function of many rows: what the model reads is capped as a read's rows are.
create function public.suggested_titles(how_many integer) returns setof text language sql stable
  as $$ select 'Idea ' || g from generate_series(1, how_many) g $$;

insert into auth.users (id, email) values ('${ADA.id}', '${ADA.email}'), ('${BOB.id}', '${BOB.email}');
insert into public.documents (nano_id, title, data, user_id) values
  ('dAda1', 'Bread recipes', '\\x00', '${ADA.id}'), ('dBob1', 'Bob''s home', '\\x00', '${BOB.id}');
insert into public.workspaces (name, owner_user_id, document_nano_id) values ('bob_space', '${BOB.id}', 'dBob1');
`;

const core = await loadCore();
const stack = sharedSqlStack({ sql: SQL, inspect: (query) => catalogFacts(query), users: [] });
const noteOf = (notes, path) => notes.find((note) => note.path === path)?.message;
const actOf = (domain, user) => core.createAct({ url: stack().supabaseUrl, apiKey: stack().anonKey, accessToken: stack().tokenOf(user), userId: user.id, domain });
const call = async (act, tool, params) => JSON.parse(await act.callToolText(tool, params));

test('the pull: a unique pair is the key, a user shared with is no owner, a create nobody can make is not offered', async () => {
  const { domain, notes } = await pulledDomain(stack(), core);
  const permissions = domain.tables.document_permissions;
  assert.deepEqual([permissions.key, permissions.owner, permissions.signed_in, permissions.writable], [['document_id', 'user_id'], undefined, true, undefined]);
  assert.deepEqual(permissions.columns.user_id, { type: 'uuid', required: true, references: 'auth.users' });
  assert.equal(noteOf(notes, 'tables.document_permissions.key'), 'document_id, user_id: no primary key, so its unique constraint on these columns names each row');
  assert.match(noteOf(notes, 'tables.document_permissions.owner'), /^no owner: user_id is compared with auth.uid\(\) in the policies that read rows but not in those a create must pass/);
  assert.equal(domain.tables.mentions.owner, undefined);
  assert.match(noteOf(notes, 'tables.mentions.owner'), /^no owner: user_id holds user ids and is named like an owner column, but no row-level security policy of the table names it/);
  // data is bytea, which the model cannot write, and every create needs it.
  const documents = domain.tables.documents;
  assert.deepEqual([documents.owner, documents.writable, documents.hidden], ['user_id', ['update', 'delete'], ['data']]);
  assert.match(noteOf(notes, 'tables.documents.writable'), /^no creates: every create needs data \(NOT NULL without a default\), which the model cannot give/);
  // A secret every create needs: hidden, and no creates (a row's own key is no value the app fixes for every write).
  assert.deepEqual([domain.tables.models.hidden, domain.tables.models.writable], [['api_key'], ['update', 'delete']]);
  assert.match(noteOf(notes, 'tables.models.writable'), /^no creates: every create needs api_key \(NOT NULL without a default\), which the model cannot give/);
  // Every create needs a file, which only an upload makes: no creates; a file a row may leave out keeps them.
  assert.deepEqual([domain.tables.attachments.writable, domain.tables.attachments.columns.file_id], [['update', 'delete'], { type: 'uuid', required: true, references: 'objects' }]);
  assert.match(noteOf(notes, 'tables.attachments.writable'), /^no creates: every create needs file_id \(NOT NULL without a default\), a file of storage\.objects, which an upload to Supabase Storage makes, not the model/);
  assert.deepEqual([domain.tables.albums.writable, domain.tables.albums.columns.cover_id], [undefined, { type: 'uuid', references: 'objects' }]);
  // A file that is part of a link table's key is linked again: creates kept.
  assert.deepEqual([domain.tables.note_files.key, domain.tables.note_files.columns.file_id.references], [['note_id', 'file_id'], 'objects']);
  assert.ok(!Array.isArray(domain.tables.note_files.writable) || domain.tables.note_files.writable.includes('create'), JSON.stringify(domain.tables.note_files));
  assert.equal(noteOf(notes, 'tables.note_files.writable'), undefined);
  // The core points the model at the rows that show a file's refs.
  const refused = await call(actOf(domain, ADA), 'db_read', { table: 'objects' });
  assert.equal(refused.error.code, 'unknown_table');
  assert.equal(refused.error.hint, 'read albums, attachments, note_files (their rows show object refs)');
  // The catalog says which NOT NULL array has no default: that one is required; '{}' defaults are not.
  const columns = domain.tables.notes.columns;
  assert.deepEqual([columns.image_paths.required, columns.tags.required, columns.extra.required], [true, undefined, undefined]);
  // A domain type's own default counts.
  assert.deepEqual(columns.attachments, { type: 'text[]', nullable: false });
  // updated_at is granted column by column: the app's client sets it.
  assert.equal(documents.columns.updated_at.writable, undefined);
  assert.equal(documents.columns.created_at.writable, false);
  // Studio's templates: the column "update own" and "delete own" compare is the owner; an array's
  // hidden '{}' default keeps the creates.
  assert.deepEqual([domain.tables.todos.owner, domain.tables.todos.writable], ['user_id', undefined]);
  // A unique key the app gives is required, not the database's to fill in.
  assert.deepEqual([domain.tables.seats.key, domain.tables.seats.columns.seat_no], ['seat_no', { type: 'integer', required: true }]);
  // A unique name is matched exactly, never loosely.
  assert.equal(domain.tables.workspaces.middleware, undefined);
});

test('"share my bread recipes with Bob so he can edit them": Ada shares by refs, Bob edits, the trigger keeps access hers', async () => {
  const { domain } = await pulledDomain(stack(), core);
  const ada = actOf(domain, ADA);
  // "bob" is not a workspace's name: = matches the unique name exactly.
  assert.equal((await call(ada, 'db_read', { table: 'workspaces', filters: [{ field: 'name', op: '=', value: 'bob' }] })).rows.length, 0);
  const workspace = await call(ada, 'db_read', { table: 'workspaces', filters: [{ field: 'name', op: '=', value: 'bob_space' }] });
  const bob = workspace.rows[0].owner_user_id;
  assert.match(bob, /^user_\d+$/);
  const mine = await call(ada, 'db_read', { table: 'documents', filters: [{ field: 'title', op: '=', value: 'bread' }] });
  const doc = mine.rows[0].id;
  const shared = await call(ada, 'db_create', { table: 'document_permissions', data: { document_id: doc, user_id: bob, access_level: 'write' } });
  assert.equal(shared.ok, true, JSON.stringify(shared));
  assert.equal(JSON.stringify(shared).includes(BOB.id), false);

  const bobs = actOf(domain, BOB);
  const seen = await call(bobs, 'db_read', { table: 'documents', columns: ['title', 'public_access_level'], order_by: 'title' });
  assert.deepEqual(seen.rows.map((row) => row.title), ["Bob's home", 'Bread recipes']);
  const edited = await bobs.execute('db_update', { table: 'documents', filters: [{ field: 'title', op: '=', value: 'Bread recipes' }], data: { title: 'Bread and rolls', updated_at: '2026-11-30T10:00:00Z' } });
  assert.deepEqual([edited.error, edited.count], [null, 1]);
  // The trigger's RAISE on a table write is the database's rule, not a function the model called.
  const opened = await bobs.execute('db_update', { table: 'documents', filters: [{ field: 'title', op: '=', value: 'Bread and rolls' }], data: { public_access_level: 'read' } });
  assert.deepEqual([opened.error.code, opened.error.message], ['rule_violation', 'db_update on documents failed: Only the owner may change who can read this document']);

  // What may not be done is refused before any request, with what may.
  const created = await ada.execute('db_create', { table: 'documents', data: { nano_id: 'dAda2', title: 'Rye' } });
  assert.equal(created.error.code, 'read_only_table');
  const renamed = await ada.execute('db_update', { table: 'documents', filters: [{ field: 'id', op: '=', value: doc }], data: { nano_id: 'dNew' } });
  assert.deepEqual([renamed.error.code, renamed.error.hint], ['read_only_column', 'columns db_update may set on documents: title, public_access_level, updated_at']);

  // Ada takes the share back by its two refs; Bob no longer sees the document.
  const unshared = await ada.execute('db_delete', { table: 'document_permissions', filters: [{ field: 'document_id', op: '=', value: doc }, { field: 'user_id', op: '=', value: bob }] });
  assert.deepEqual([unshared.error, unshared.count], [null, 1]);
  const after = await call(bobs, 'db_read', { table: 'documents', columns: ['title'] });
  assert.deepEqual(after.rows.map((row) => row.title), ["Bob's home"]);
});

test("Bob signs in on the page where Ada was: her refs, labels and rows never reach his calls or his prompt", async () => {
  const { domain } = await pulledDomain(stack(), core);
  const ada = actOf(domain, ADA);
  assert.equal((await call(ada, 'db_read', { table: 'documents', columns: ['title'] })).ok, true);
  const saved = ada.registry.toJSON();
  assert.equal(saved.user, ADA.id);
  // A server that restores Ada's conversation for Bob: refused as the act is made.
  assert.throws(() => core.createAct({ url: stack().supabaseUrl, apiKey: stack().anonKey, accessToken: stack().tokenOf(BOB), domain, state: saved }), { code: 'state_of_another_user' });
  assert.throws(() => core.createAct({ url: stack().supabaseUrl, apiKey: stack().anonKey, accessToken: stack().tokenOf(BOB), domain, state: JSON.stringify(saved) }), { code: 'state_of_another_user' });
  // A long-lived act whose session changes from Ada to Bob.
  let session = stack().tokenOf(ADA);
  let sent = 0;
  const page = core.createAct({ url: stack().supabaseUrl, apiKey: stack().anonKey, accessToken: () => session, domain, state: saved, fetch: (url, init) => (sent++, fetch(url, init)) });
  assert.deepEqual(await page.checkSession(), { data: { userId: ADA.id }, error: null });
  session = stack().tokenOf(BOB);
  const checked = await page.checkSession();
  assert.equal(checked.error.code, 'state_of_another_user');
  const before = sent;
  const refused = await call(page, 'db_read', { table: 'documents', columns: ['title'] });
  assert.deepEqual([refused.ok, refused.error.code, sent], [false, 'state_of_another_user', before]);
  const model = { complete: () => assert.fail('no prompt may be built for Bob with Ada\'s refs') };
  const turn = await runTurn({ core, act: page, model, replyTurn: null, turn: { userMessage: 'what are my documents?', steps: [{ description: 'Read the documents', type: 'read' }] } });
  assert.deepEqual([turn.status, turn.error.code], ['error', 'state_of_another_user']);
  // Bob's own act starts with no refs and reads his rows.
  const bobs = actOf(domain, BOB);
  assert.equal((await call(bobs, 'db_read', { table: 'documents', columns: ['title'] })).ok, true);
  assert.equal(bobs.registry.toJSON().user, BOB.id);
});

test('"suggest 500 titles": a function of many rows sends the model\'s cap, says how many there are, and pages with limit and offset', async () => {
  const { domain } = await pulledDomain(stack(), core);
  const urls = [];
  const act = core.createAct({ url: stack().supabaseUrl, apiKey: stack().anonKey, accessToken: stack().tokenOf(ADA), domain, fetch: (url, init) => (urls.push(decodeURIComponent(String(url))), fetch(url, init)) });
  const listed = await call(act, 'db_call', { function: 'suggested_titles', args: { how_many: 500 } });
  assert.equal(listed.ok, true, JSON.stringify(listed));
  assert.deepEqual([listed.count, listed.rows.length, listed.truncated, listed.rows[0]], [500, 50, true, { value: 'Idea 1' }]);
  assert.equal(listed.hint, 'The call returned 500 rows; this result shows 50. Page with limit and offset 50 to see the others.');
  assert.match(urls.at(-1), /\/rpc\/suggested_titles\?how_many=500&limit=50$/);
  assert.match(listed.query, /^Query: Function: suggested_titles \| Args: how_many = 500 \| Limit: 50\n/);
  // The next page, as the hint says: PostgREST pages the set the function returns.
  const page = await call(act, 'db_call', { function: 'suggested_titles', args: { how_many: 500 }, limit: 3, offset: 50 });
  assert.deepEqual(page.rows, [{ value: 'Idea 51' }, { value: 'Idea 52' }, { value: 'Idea 53' }]);
  assert.match(urls.at(-1), /\/rpc\/suggested_titles\?how_many=500&limit=3&offset=50$/);
  assert.match(page.query, /^Query: Function: suggested_titles \| Args: how_many = 500 \| Limit: 3 \| Offset: 50\n/);
  // The tool offers them: function and args first.
  const tool = core.toolDefinitions({ domain }).find((definition) => definition.name === 'db_call');
  assert.deepEqual(Object.keys(tool.parameters.properties), ['function', 'args', 'limit', 'offset']);
  // execute (not for a model) gets every row, as the function returns them.
  const all = await act.execute('db_call', { function: 'suggested_titles', args: { how_many: 500 } });
  assert.equal(all.data.length, 500);
});
