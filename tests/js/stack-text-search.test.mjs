// The local stack's default text search configuration is hosted Supabase's,
// pg_catalog.english (db/pglite.mjs, SUPABASE_SERVER_SETTINGS): a `search`
// filter without a language stems as it does on a hosted project. On the
// real stack (PostgREST 12 on PGlite), through PostgREST and through the act.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SUPABASE_SERVER_SETTINGS } from '../../db/pglite.mjs';
import { catalogFacts } from '../../web/src/pull/catalog.js';
import { loadCore, pullDomain } from '../../web/src/index.node.js';
import { ADA, sharedSqlStack } from './support/sql-stack.mjs';

const SQL = `
create table public.notes (id bigint generated always as identity primary key, body text not null, user_id uuid not null default auth.uid());
alter table public.notes enable row level security;
create policy "own notes" on public.notes for all to authenticated using (user_id = auth.uid()) with check (user_id = auth.uid());
insert into public.notes (body, user_id) values ('Bake the sourdough bread', '${ADA.id}'), ('Water the plants', '${ADA.id}');

create function public.text_search_config() returns text language sql stable as $$ select current_setting('default_text_search_config') $$;

-- A migration that changes the setting for the rest of its session: the
-- sessions after it start from the server's again.
set default_text_search_config = 'pg_catalog.simple';
`;

const core = await loadCore();
const stack = sharedSqlStack({ sql: SQL, inspect: (query) => catalogFacts(query) });
const asAda = async (path) => {
  const response = await fetch(`${stack().supabaseUrl}/rest/v1/${path}`, { headers: { apikey: stack().anonKey, authorization: `Bearer ${stack().token}` } });
  assert.equal(response.status, 200, path);
  return response.json();
};

test('hosted Supabase\'s default: pg_catalog.english in the sessions PostgREST opens, after a migration that set another', async () => {
  assert.deepEqual(SUPABASE_SERVER_SETTINGS, { default_text_search_config: 'pg_catalog.english' });
  assert.equal(await asAda('rpc/text_search_config'), 'pg_catalog.english');
});

test('regression: a search without a language stems as in English ("breads baking" finds "Bake the sourdough bread")', async () => {
  const bodies = async (filter) => (await asAda(`notes?select=body&body=${encodeURIComponent(filter)}`)).map((row) => row.body);
  assert.deepEqual(await bodies('wfts.breads baking'), ['Bake the sourdough bread']);
  assert.deepEqual(await bodies('wfts(english).breads baking'), ['Bake the sourdough bread']);
  // A language given still wins: simple does not stem.
  assert.deepEqual(await bodies('wfts(simple).breads baking'), []);
  // English drops stop words: "the" alone is no query, and matches nothing.
  assert.deepEqual(await bodies('wfts.the'), []);
});

test('the act\'s search filter without a language finds the stemmed words, as on hosted Supabase', async () => {
  const { data: domain, error } = await pullDomain({ url: stack().supabaseUrl, apiKey: stack().anonKey, accessToken: stack().token, core, catalog: stack().inspected });
  assert.equal(error, null);
  const act = core.createAct({ url: stack().supabaseUrl, apiKey: stack().anonKey, accessToken: stack().token, userId: ADA.id, domain });
  const found = await act.execute('db_read', { table: 'notes', filters: [{ field: 'body', op: 'search', value: 'breads baking' }], columns: ['body'] });
  assert.equal(found.error, null, JSON.stringify(found.error));
  assert.deepEqual(found.data.map((row) => row.body), ['Bake the sourdough bread']);
});
