// Column privileges end to end on the real local stack (PostgREST 12 on
// PGlite), as Supabase's column-level security guide writes them: a posts
// table users may read but for one column, give a category on a new row and
// never change it, pin and unpin but not create pinned, and never set its
// moderation status. PostgreSQL refuses a whole statement that names a
// column the role may not use, `select=*` included, so the pull reads the
// grants from the catalog and every request names the columns it may
// (docs/own-schema.md#column-privileges).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { catalogFacts } from '../../web/src/pull/catalog.js';
import { domainTypes, loadCore } from '../../web/src/index.node.js';
import { ADA, pulledDomain, sharedSqlStack } from './support/sql-stack.mjs';

const BOB = { id: 'b0b0b0b0-0000-4000-8000-00000000000b', email: 'bob@example.com' };

const SQL = `
create table public.posts (
  id bigint generated always as identity primary key,
  title text not null,
  body text,
  category text not null default 'general',
  pinned boolean not null default false,
  status text not null default 'draft',
  internal_score integer not null default 0,
  user_id uuid not null default auth.uid() references auth.users);
alter table public.posts enable row level security;
create policy "own posts" on public.posts for all to authenticated using (user_id = auth.uid()) with check (user_id = auth.uid());
revoke select, insert, update on table public.posts from authenticated;
grant select (id, title, body, category, pinned, status, user_id) on table public.posts to authenticated;
grant insert (title, body, category, user_id) on table public.posts to authenticated;
grant update (title, body, pinned) on table public.posts to authenticated;

create table public.comments (
  id bigint generated always as identity primary key,
  post_id bigint not null references public.posts on delete cascade,
  body text not null,
  user_id uuid not null default auth.uid() references auth.users);
alter table public.comments enable row level security;
create policy "own comments" on public.comments for all to authenticated using (user_id = auth.uid()) with check (user_id = auth.uid());

-- A review's verdict is the moderators': users cannot give it, and every review needs one.
create table public.reviews (
  id bigint generated always as identity primary key,
  post_id bigint not null references public.posts on delete cascade,
  verdict text not null,
  user_id uuid not null default auth.uid() references auth.users);
alter table public.reviews enable row level security;
create policy "own reviews" on public.reviews for all to authenticated using (user_id = auth.uid()) with check (user_id = auth.uid());
revoke insert on table public.reviews from authenticated;
grant insert (post_id, user_id) on table public.reviews to authenticated;

-- No update at all, and inserts of two columns: status can be set by no write users make.
create table public.events (id bigint generated always as identity primary key, title text not null, status text not null default 'new', user_id uuid not null default auth.uid() references auth.users);
alter table public.events enable row level security;
create policy "own events" on public.events for all to authenticated using (user_id = auth.uid()) with check (user_id = auth.uid());
revoke insert, update on table public.events from authenticated;
grant insert (title, user_id) on table public.events to authenticated;

-- The owner column users may not give, though every create the act makes sets it.
create table public.memos (id bigint generated always as identity primary key, title text not null, user_id uuid not null default auth.uid() references auth.users);
alter table public.memos enable row level security;
create policy "own memos" on public.memos for all to authenticated using (user_id = auth.uid()) with check (user_id = auth.uid());
revoke insert on table public.memos from authenticated;
grant insert (title) on table public.memos to authenticated;

insert into auth.users (id, email) values ('${BOB.id}', '${BOB.email}');
insert into public.posts (title, category, status, internal_score, user_id) values ('Bob''s draft', 'news', 'draft', 9, '${BOB.id}');
`;

const core = await loadCore();
const stack = sharedSqlStack({ sql: SQL, inspect: (query) => catalogFacts(query) });
const service = async (path) => (await fetch(`${stack().restUrl}/${path}`, { headers: { apikey: stack().serviceKey, authorization: `Bearer ${stack().serviceKey}` } })).json();
const pulled = () => pulledDomain(stack(), core);
const noteOf = (notes, path) => notes.find((note) => note.path === path)?.message;

test('the pull reads column privileges: a column users may not read is hidden, and each column takes the writes granted on it', async () => {
  const { domain, notes } = await pulled();
  const posts = domain.tables.posts;
  assert.deepEqual(posts.hidden, ['internal_score']);
  assert.equal(noteOf(notes, 'tables.posts.columns.internal_score'), 'hidden: column privileges keep signed-in users from reading it (no SELECT on the column)');
  assert.deepEqual(
    Object.fromEntries(['title', 'body', 'category', 'pinned', 'status'].map((column) => [column, posts.columns[column].writable])),
    { title: undefined, body: undefined, category: ['create'], pinned: ['update'], status: false },
  );
  assert.equal(noteOf(notes, 'tables.posts.columns.category'), 'set on create only: column privileges let users give it on a new row, not change it');
  assert.equal(noteOf(notes, 'tables.posts.columns.pinned'), 'not on create: column privileges let users change it, not give it on a new row');
  // A column every create needs and users may not give: creates cannot succeed, and the pull says so.
  assert.deepEqual(domain.tables.reviews.columns.verdict.writable, ['update']);
  assert.equal(noteOf(notes, 'tables.reviews.columns.verdict'), 'column privileges keep users from giving it on a new row, and every create needs it (NOT NULL without a default)');
  // So the model is offered no create of reviews, and the pull says why.
  assert.deepEqual(domain.tables.reviews.writable, ['update', 'delete']);
  assert.match(noteOf(notes, 'tables.reviews.writable'), /^no creates: every create needs verdict \(NOT NULL without a default\), which the model cannot give/);
  // A column no write of its table may set is read-only, not ["update"] on a table that takes no update.
  assert.equal(domain.tables.events.columns.status.writable, false);
  assert.equal(noteOf(notes, 'tables.events.columns.status'), undefined);
  assert.match(noteOf(notes, 'tables.memos.columns.user_id'), /^the owner column, which every create sets to the signed-in user, and column privileges keep users from giving it: the database refuses every create/);
  // Tables without column privileges are pulled as before.
  assert.equal(domain.tables.comments.hidden, undefined);
  assert.equal(domain.tables.comments.columns.body.writable, undefined);
});

test('"write a post about bread, then pin it": every read and write names the columns it may, and succeeds', async () => {
  const { domain } = await pulled();
  const urls = [];
  const act = core.createAct({
    url: stack().supabaseUrl, apiKey: stack().anonKey, accessToken: stack().token, userId: ADA.id, domain,
    fetch: (url, init) => (urls.push(`${init?.method ?? 'GET'} ${decodeURIComponent(String(url))}`), fetch(url, init)),
  });
  const created = JSON.parse(await act.callToolText('db_create', { table: 'posts', data: { title: 'Bread', body: 'Flour, water, salt', category: 'baking' } }));
  assert.equal(created.ok, true, JSON.stringify(created.error));
  assert.deepEqual(created.rows, [{ id: 'post_1', title: 'Bread', body: 'Flour, water, salt', category: 'baking', pinned: false, status: 'draft', user_id: 'me' }]);
  const pinned = await act.execute('db_update', { table: 'posts', filters: [{ field: 'id', op: 'eq', value: 'post_1' }], data: { pinned: true } });
  assert.equal(pinned.error, null);
  assert.equal(pinned.count, 1);
  const comment = await act.execute('db_create', { table: 'comments', data: { post_id: 'post_1', body: 'Yum' } });
  assert.equal(comment.error, null);
  const read = JSON.parse(await act.callToolText('db_read', { table: 'comments', columns: ['body', 'posts(*)'] }));
  assert.equal(read.ok, true, JSON.stringify(read.error));
  assert.deepEqual(read.rows[0].posts, { id: 'post_1', title: 'Bread', body: 'Flour, water, salt', category: 'baking', pinned: true, status: 'draft', user_id: 'me' });
  const listed = JSON.parse(await act.callToolText('db_read', { table: 'posts' }));
  // Ada's post alone; Bob's draft and every internal_score stay out.
  assert.deepEqual(listed.rows.map((row) => row.title), ['Bread']);
  assert.ok(!JSON.stringify(listed).includes('internal_score'));
  const removed = await act.execute('db_delete', { table: 'comments', filters: [{ field: 'body', op: 'eq', value: 'Yum' }] });
  assert.equal(removed.error, null);
  assert.ok(urls.every((url) => !/select=\*(&|$)/.test(url) || url.includes('/comments')), urls.join('\n'));
  assert.deepEqual(await service('posts?select=title,category,pinned,status,user_id&order=id'), [
    { title: "Bob's draft", category: 'news', pinned: false, status: 'draft', user_id: BOB.id },
    { title: 'Bread', category: 'baking', pinned: true, status: 'draft', user_id: ADA.id },
  ]);
});

test('a write the column privileges refuse is refused before any request, with what may be done', async () => {
  const { domain } = await pulled();
  let sent = 0;
  const act = core.createAct({ url: stack().supabaseUrl, apiKey: stack().anonKey, accessToken: stack().token, userId: ADA.id, domain, fetch: (url, init) => (sent++, fetch(url, init)) });
  const recategorized = await act.execute('db_update', { table: 'posts', filters: [{ field: 'title', op: 'eq', value: 'Bread' }], data: { category: 'news' } });
  assert.deepEqual([recategorized.error.code, recategorized.error.message], ['read_only_column', 'category is set when a row is created and cannot be changed']);
  const pinnedAtBirth = await act.execute('db_create', { table: 'posts', data: { title: 'Rye', pinned: true } });
  assert.deepEqual([pinnedAtBirth.error.code, pinnedAtBirth.error.path], ['read_only_column', 'data.pinned']);
  const published = await act.execute('db_update', { table: 'posts', filters: [{ field: 'title', op: 'eq', value: 'Bread' }], data: { status: 'published' } });
  assert.equal(published.error.code, 'read_only_column');
  const scored = await act.execute('db_read', { table: 'posts', filters: [{ field: 'internal_score', op: 'gt', value: 1 }] });
  assert.equal(scored.error.code, 'unknown_column');
  assert.equal(sent, 0);
});

test('the tools, the schema and the types offer each column to the writes granted on it', async () => {
  const { domain } = await pulled();
  const act = core.createAct({ url: stack().supabaseUrl, apiKey: stack().anonKey, accessToken: stack().token, userId: ADA.id, domain });
  const schema = act.tools({ schema: 'inline' }).find((tool) => tool.name === 'db_read').description;
  assert.match(schema, /- category: text, set on create only\n/);
  assert.match(schema, /- pinned: boolean, not on create\n/);
  assert.match(schema, /- status: text, read-only\n/);
  const types = domainTypes(core, domain);
  const members = (name) => types.match(new RegExp(`posts: \\{[\\s\\S]*?${name}: \\{([\\s\\S]*?)\\n {6}\\}`))?.[1] ?? '';
  assert.match(members('Insert'), /category\?/);
  assert.doesNotMatch(members('Insert'), /pinned|status|internal_score/);
  assert.match(members('Update'), /pinned\?/);
  assert.doesNotMatch(members('Update'), /category|status|internal_score/);
});
