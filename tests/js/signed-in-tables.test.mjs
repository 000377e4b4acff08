// Tables without an owner column that only signed-in users may read (the
// sections of a user's documents, reached through their parent's owner),
// end to end on the real local stack: the pull marks them `signed_in`, and a
// call without a user's session is `not_signed_in` instead of an empty list
// the model would take for "you have none" (docs/own-schema.md#signed-in-tables).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { catalogFacts } from '../../web/src/pull/catalog.js';
import { loadCore } from '../../web/src/index.node.js';
import { ADA, pulledDomain, sharedSqlStack } from './support/sql-stack.mjs';

const SQL = `
create table public.documents (id bigint generated always as identity primary key, name text not null, created_by uuid not null default auth.uid() references auth.users);
alter table public.documents enable row level security;
create policy "own documents" on public.documents for all to authenticated using (created_by = auth.uid()) with check (created_by = auth.uid());

create table public.document_sections (id bigint generated always as identity primary key, document_id bigint not null references public.documents, content text not null);
alter table public.document_sections enable row level security;
create policy "sections of own documents" on public.document_sections for all to authenticated
  using (document_id in (select id from public.documents where created_by = auth.uid()));

-- Everyone may read the topics, signed in or not.
create table public.topics (id bigint generated always as identity primary key, name text not null);
alter table public.topics enable row level security;
create policy "anyone reads topics" on public.topics for select to anon, authenticated using (true);

-- Supabase's older policy templates (its slack clone): for everyone, but only a signed-in user passes.
create table public.announcements (id bigint generated always as identity primary key, title text not null);
alter table public.announcements enable row level security;
create policy "logged-in read" on public.announcements for select using (auth.role() = 'authenticated');
create table public.notices (id bigint generated always as identity primary key, title text not null);
alter table public.notices enable row level security;
create policy "signed-in read" on public.notices for select using ((select auth.uid()) is not null);
-- ORed with a column: a visitor reads the public rows.
create table public.posts (id bigint generated always as identity primary key, title text not null, is_public boolean not null default false);
alter table public.posts enable row level security;
create policy "public or signed in" on public.posts for select using (is_public or auth.role() = 'authenticated');

-- A waitlist anyone may join, signed in or not, and nobody reads.
create table public.waitlist (id uuid primary key default gen_random_uuid(), email text not null unique);
alter table public.waitlist enable row level security;
create policy "anyone joins" on public.waitlist for insert to anon, authenticated with check (true);

insert into auth.users (id, email) values ('${ADA.id}', '${ADA.email}');
insert into public.topics (name) values ('Baking');
insert into public.documents (name, created_by) values ('recipes.md', '${ADA.id}');
insert into public.document_sections (document_id, content) values (1, 'Bake the sourdough bread');
`;

const core = await loadCore();
const stack = sharedSqlStack({ sql: SQL, users: [], inspect: (query) => catalogFacts(query) });
const pulled = async () => (await pulledDomain(stack(), core)).domain;

test('the pull marks a table without an owner that anon may not read as signed_in, and leaves public ones alone', async () => {
  const domain = await pulled();
  assert.equal(domain.tables.document_sections.signed_in, true);
  assert.equal(domain.tables.topics.signed_in, undefined);
  // A policy for everyone whose condition only a signed-in user passes; not when it is ORed with another.
  assert.deepEqual(['announcements', 'notices', 'posts'].map((table) => domain.tables[table].signed_in), [true, true, undefined]);
  // A write-only table is not: its creates may be anyone's.
  assert.deepEqual([domain.tables.waitlist.readable, domain.tables.waitlist.signed_in], [false, undefined]);
  // An owner already says so.
  assert.deepEqual([domain.tables.documents.owner, domain.tables.documents.signed_in], ['created_by', undefined]);
});

test('without a session, a read or a count of the sections is not_signed_in, never an empty list; topics still read', async () => {
  const domain = await pulled();
  let sent = 0;
  const anonymous = core.createAct({ url: stack().supabaseUrl, apiKey: stack().anonKey, domain, fetch: (url, init) => (sent++, fetch(url, init)) });
  const read = await anonymous.execute('db_read', { table: 'document_sections' });
  assert.deepEqual([read.error?.code, read.error?.message], ['not_signed_in', "document_sections is for signed-in users only, and no signed-in user's access token was given"]);
  const counted = await anonymous.execute('db_aggregate', { table: 'document_sections', metrics: [{ fn: 'count' }] });
  assert.equal(counted.error?.code, 'not_signed_in');
  assert.equal(sent, 0);
  const topics = await anonymous.execute('db_read', { table: 'topics' });
  assert.equal(topics.error, null);
  assert.deepEqual(topics.data.map((row) => row.name), ['Baking']);

  const joined = await anonymous.execute('db_create', { table: 'waitlist', data: { email: 'visitor@example.com' } });
  assert.deepEqual([joined.error, joined.count], [null, 1]);

  const signedIn = core.createAct({ url: stack().supabaseUrl, apiKey: stack().anonKey, accessToken: stack().token, domain });
  const mine = await signedIn.execute('db_read', { table: 'document_sections' });
  assert.equal(mine.error, null);
  assert.deepEqual(mine.data.map((row) => row.content), ['Bake the sourdough bread']);
});
