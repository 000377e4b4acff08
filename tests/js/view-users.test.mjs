// database.dev's shape: tables in a private schema, served through views in
// public, accounts keyed by user ids. PostgREST describes a view's references
// to the views it serves, never to auth.users; the catalog follows a view over
// one table to that table's reference, so the accounts view holds user ids
// and the signed-in user is `me` in the rows that name it
// (docs/own-schema.md, "User ids").
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { catalogFacts } from '../../web/src/pull/catalog.js';
import { loadCore } from '../../web/src/index.node.js';
import { ADA, pulledDomain, sharedSqlStack } from './support/sql-stack.mjs';

const BEN = { id: 'b2f0ed00-0000-4000-8000-00000000000b', email: 'ben@example.com' };

const SQL = `
insert into auth.users (id, email) values ('${ADA.id}', '${ADA.email}'), ('${BEN.id}', '${BEN.email}');
create schema app;
create table app.accounts (id uuid primary key references auth.users (id), display_name text not null);
create table app.followers (id bigint generated always as identity primary key, account_id uuid not null references app.accounts (id), topic text not null);
create view public.accounts with (security_invoker = true) as select id, display_name from app.accounts;
create view public.topic_followers with (security_invoker = true) as select id, account_id, topic from app.followers;
-- A join names where each column comes from; a column renamed from another, or one of a UNION, says nothing.
create view public.named_followers with (security_invoker = true) as
  select f.id, f.account_id, a.display_name, a.id as account from app.followers f join app.accounts a on a.id = f.account_id;
create table app.notes (id uuid primary key default gen_random_uuid(), user_id uuid references auth.users (id), body text);
create view public.swapped with (security_invoker = true) as select id as user_id, user_id as id, body from app.notes where user_id is not null;
create view public.either with (security_invoker = true) as select user_id from app.notes union all select id from app.notes;
create view public.renamed with (security_invoker = true) as select id, user_id from app.notes;
alter view public.renamed rename column user_id to author;
alter view public.renamed rename column id to user_id;
grant usage on schema app to authenticated;
grant select on app.accounts, app.followers, app.notes to authenticated;
insert into app.accounts (id, display_name) values ('${ADA.id}', 'Ada'), ('${BEN.id}', 'Ben');
insert into app.followers (account_id, topic) values ('${ADA.id}', 'postgres'), ('${BEN.id}', 'postgres');
`;

const core = await loadCore();
const stack = sharedSqlStack({ sql: SQL, inspect: (query) => catalogFacts(query), users: [] });

test('the catalog: a view column shows the reference to auth.users of the column it comes from, and only that', () => {
  const { tables } = stack().inspected;
  const users = { schema: 'auth', table: 'users', column: 'id' };
  assert.deepEqual(tables.accounts.references, { id: users });
  assert.deepEqual(tables.named_followers.references, { account: users }, 'from app.accounts.id, under another name');
  assert.deepEqual(tables.swapped.references, { id: users }, 'id is app.notes.user_id; user_id is app.notes.id');
  assert.deepEqual(tables.either.references, {});
  assert.deepEqual(tables.renamed.references, {}, 'a column renamed since its rule was written says nothing');
});

test('the pull and an act: the accounts view is the table of users, so the signed-in user is me and others are their refs', async () => {
  const { domain, notes } = await pulledDomain(stack(), core);
  assert.equal(notes.find((note) => note.path === 'tables.either')?.message, 'left out: every column is hidden (see their notes), so it has nothing to show');
  assert.equal(domain.tables.topic_followers.columns.account_id.references, 'accounts');
  const { supabaseUrl, anonKey, token } = stack();
  const act = core.createAct({ url: supabaseUrl, apiKey: anonKey, accessToken: token, domain });
  const followers = await act.execute('db_read', { table: 'topic_followers', order_by: 'id' });
  assert.equal(followers.error, null, JSON.stringify(followers.error));
  assert.deepEqual(followers.data.map((row) => row.account_id), ['me', 'account_1']);
  // A view whose every column is hidden (a UNION of uuids that point nowhere) is left out, not a domain that fails.
  assert.equal(domain.tables.either, undefined);
  assert.equal(followers.data[1]._account_id_label, 'Ben');
});
