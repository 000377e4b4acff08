// Tables users add rows to and may not read back, end to end on the real
// local stack (PostgREST 12 on PGlite): a feedback form with an INSERT
// policy only, a waitlist with a unique email, a support queue whose SELECT
// policy lets admins alone read it, pulled with the catalog and driven as a
// signed-in user (docs/own-schema.md#write-only-tables).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { catalogFacts } from '../../web/src/pull/catalog.js';
import { loadCore } from '../../web/src/index.node.js';
import { ADA, pulledDomain, sharedSqlStack } from './support/sql-stack.mjs';

const SQL = `
create table public.profiles (id uuid primary key references auth.users, is_admin boolean not null default false);
alter table public.profiles enable row level security;
create policy "own profile" on public.profiles for all to authenticated using (id = auth.uid());

-- Send, never read.
create table public.feedback (id bigint generated always as identity primary key, body text not null, user_id uuid not null default auth.uid());
alter table public.feedback enable row level security;
create policy "send feedback" on public.feedback for insert to authenticated with check (user_id = auth.uid());

-- A uuid key the act draws, and an email each may give once.
create table public.waitlist (id uuid primary key default gen_random_uuid(), email text not null unique, user_id uuid not null default auth.uid());
alter table public.waitlist enable row level security;
create policy "join" on public.waitlist for insert to authenticated with check (user_id = auth.uid());

-- Readable, by admins only: a user's own new ticket cannot be read back.
create table public.tickets (id uuid primary key default gen_random_uuid(), subject text not null, urgent boolean not null default false, user_id uuid not null default auth.uid());
alter table public.tickets enable row level security;
create policy "open tickets" on public.tickets for insert to authenticated with check (user_id = auth.uid() and not urgent);
create policy "admins read tickets" on public.tickets for select to authenticated using (exists (select 1 from public.profiles p where p.id = auth.uid() and p.is_admin));
`;

const core = await loadCore();
const stack = sharedSqlStack({ sql: SQL, inspect: (query) => catalogFacts(query) });
const service = async (path) => (await fetch(`${stack().restUrl}/${path}`, { headers: { apikey: stack().serviceKey, authorization: `Bearer ${stack().serviceKey}` } })).json();
const pulled = () => pulledDomain(stack(), core);
const actOf = (domain, options = {}) => core.createAct({ url: stack().supabaseUrl, apiKey: stack().anonKey, accessToken: stack().token, userId: ADA.id, domain, ...options });

test('the pull makes insert-only tables write-only, and the model is offered creates alone on them', async () => {
  const { domain, notes } = await pulled();
  assert.deepEqual([domain.tables.feedback.readable, domain.tables.feedback.writable], [false, ['create']]);
  assert.deepEqual([domain.tables.waitlist.readable, domain.tables.waitlist.writable], [false, ['create']]);
  // tickets has a SELECT policy: readable as far as the catalog tells.
  assert.equal(domain.tables.tickets.readable, undefined);
  assert.match(notes.find((note) => note.path === 'tables.feedback.readable').message, /^write-only: no row-level security policy lets a signed-in user read its rows/);
  const tools = actOf(domain).tools({ schema: 'inline' });
  const tablesOf = (name) => tools.find((tool) => tool.name === name)?.parameters.properties.table.enum;
  assert.ok(!tablesOf('db_read').includes('feedback') && !tablesOf('db_read').includes('waitlist'));
  assert.ok(tablesOf('db_create').includes('feedback') && tablesOf('db_create').includes('waitlist'));
});

test('"send feedback": saved as the user, counted, never read; a read is refused before any request', async () => {
  const { domain } = await pulled();
  const act = actOf(domain);
  const one = JSON.parse(await act.callToolText('db_create', { table: 'feedback', data: { body: 'The dark mode is great' } }));
  assert.deepEqual([one.ok, one.count, one.rows], [true, 1, []]);
  assert.match(one.query, /Note: saved in feedback, write-only: db_create adds rows, which cannot be read back/);
  const batch = await act.execute('db_create', { table: 'feedback', data: [{ body: 'Faster search' }, { body: 'Dark mode?' }] });
  assert.deepEqual([batch.error, batch.count], [null, 2]);
  const read = await act.execute('db_read', { table: 'feedback' });
  assert.equal(read.error.code, 'write_only_table');
  assert.deepEqual(await service('feedback?select=body,user_id&order=id'), [
    { body: 'The dark mode is great', user_id: ADA.id },
    { body: 'Faster search', user_id: ADA.id },
    { body: 'Dark mode?', user_id: ADA.id },
  ]);
});

test('"add me to the waitlist" twice: the second is a duplicate to tell the user; a lost answer retried saves once', async () => {
  const { domain } = await pulled();
  const act = actOf(domain);
  assert.equal((await act.execute('db_create', { table: 'waitlist', data: { email: 'ada@example.com' } })).error, null);
  const again = await act.execute('db_create', { table: 'waitlist', data: { email: 'ada@example.com' } });
  assert.equal(again.error.code, 'duplicate');
  assert.equal(again.error.hint, 'a row with this value already exists: tell the user');

  // The answer of the first attempt is lost after the database saved it.
  let drop = true;
  const lossy = actOf(domain, {
    fetch: async (url, init) => {
      const response = await fetch(url, init);
      if (init?.method === 'POST' && drop) {
        drop = false;
        throw new TypeError('socket hang up');
      }
      return response;
    },
  });
  const params = { table: 'waitlist', data: { email: 'lost@example.com' } };
  const lost = await lossy.execute('db_create', params);
  assert.equal(lost.error.code, 'write_outcome_unknown');
  assert.match(lost.error.hint, /^waitlist cannot be read to check: a repeated db_create of the same data reuses its row ids/);
  const retried = await lossy.execute('db_create', params);
  assert.equal(retried.error, null);
  assert.equal(retried.count, 1);
  assert.match(retried.query.notes.join('\n'), /inserted by an earlier attempt whose answer was lost \(same row ids\); nothing was inserted twice/);
  assert.deepEqual(await service('waitlist?select=email&email=eq.lost@example.com'), [{ email: 'lost@example.com' }]);
});

test('a ticket only admins may read: the create is sent again without the read-back, once; a row the policy refuses stays refused', async () => {
  const { domain } = await pulled();
  const sent = [];
  const audit = [];
  const act = actOf(domain, { fetch: (url, init) => (sent.push(init?.method ?? 'GET'), fetch(url, init)), onAudit: (entry) => audit.push(entry) });
  const opened = await act.execute('db_create', { table: 'tickets', data: { subject: 'Cannot log in' } });
  assert.equal(opened.error, null);
  assert.equal(opened.count, 1);
  assert.match(opened.query.notes.join('\n'), /saved in tickets; row-level security does not let this user read them back \(no refs\)/);
  assert.deepEqual(sent, ['POST', 'POST']);
  // The trail has both: the refused read-back, and the row saved without one.
  assert.deepEqual(audit.map(({ status, affected, error }) => ({ status, affected, error })), [
    { status: 403, affected: 0, error: 'permission_denied' },
    { status: 201, affected: 1, error: null },
  ]);
  const urgent = await act.execute('db_create', { table: 'tickets', data: { subject: 'Everything is down', urgent: true } });
  assert.equal(urgent.error.code, 'permission_denied');
  assert.deepEqual(await service('tickets?select=subject,user_id'), [{ subject: 'Cannot log in', user_id: ADA.id }]);
});
