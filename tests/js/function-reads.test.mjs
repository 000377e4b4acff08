// Which volatile functions the pull offers as reads (docs/functions.md,
// "Reads nobody marked STABLE"), on the real local stack: a body with no
// write of its own, calling nothing that may write, called by GET (which
// PostgREST runs read-only) is a read; bodies that write in ways a text
// search misses stay writes, and a read by GET that writes after all is
// refused by the database, never run, even for a read-only act.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { catalogFacts } from '../../web/src/pull/catalog.js';
import { loadCore } from '../../web/src/index.node.js';
import { pulledDomain, sharedSqlStack } from './support/sql-stack.mjs';

const SQL = `
create table public.items (id bigint generated always as identity primary key, name text not null, embedding extensions.vector(3));
create table public.search_log (id bigint generated always as identity primary key, q text not null);
alter table public.items enable row level security;
alter table public.search_log enable row level security;
create policy "items" on public.items for all to authenticated using (true) with check (true);
create policy "log" on public.search_log for all to authenticated using (true) with check (true);
insert into public.items (name, embedding) values ('bread', '[1,0,0]'), ('butter', '[0,1,0]');

-- Reads nobody marked stable: by GET, a read.
create function public.item_names() returns setof text language plpgsql as $$
begin
  return query select name from public.items order by random();
end $$;
-- The same by POST (an embedding): a write, with a note.
create function public.match_items(query_embedding extensions.vector(3)) returns setof public.items language plpgsql as $$
begin
  return query select * from public.items order by embedding operator(extensions.<=>) query_embedding limit 1;
end $$;

-- Writes a text search could miss: each stays a write.
create function public."logSearch"(q text) returns void language sql as $$ insert into public.search_log (q) values (q) $$;
create function public.quoted_call() returns void language sql as $$ select "logSearch"('quoted') $$;
create function public.atomic_write() returns void language sql begin atomic insert into public.search_log (q) values ('atomic'); end;
create function public.escaped_write() returns integer language sql as $$ select length(E'it\\'s'); insert into public.search_log (q) values ('escaped'); select 1 $$;
create function public.select_into() returns integer language sql as $$ select 1 as a into public.made_by_select; select 1 $$;

-- A stable function that writes anyway, wrapped by a volatile one whose text shows no write: read by GET, so the
-- database refuses the write.
create function public.log_quietly() returns integer language plpgsql stable as $$
begin
  insert into public.search_log (q) values ('stable');
  return 1;
end $$;
create function public.count_items() returns integer language sql as $$ select public.log_quietly() + (select count(*)::int from public.items) $$;
-- An operator whose function writes: the body names no function at all.
create function public.log_sum(a integer, b integer) returns integer language plpgsql as $$
begin
  insert into public.search_log (q) values ('operator');
  return a + b;
end $$;
create operator public.#~# (leftarg = integer, rightarg = integer, function = public.log_sum);
create function public.op_sum() returns integer language sql as $$ select 1 operator(public.#~#) 2 $$;

-- A search returning each row's embedding beside it (Quivr's match_vectors): a call selects the other columns.
create function public.items_like(query_embedding extensions.vector(3))
  returns table (id bigint, name text, embedding extensions.vector, similarity double precision) language sql stable as $$
  select i.id, i.name, i.embedding, 1 - (i.embedding operator(extensions.<=>) query_embedding) from public.items i order by 4 desc
$$;

-- A body whose comparison does not fit its types (a key compared with text): PostgreSQL's 42883 at run time.
create function public.item_named(p_name text) returns setof public.items language plpgsql stable as $$
begin
  return query select * from public.items where id = p_name;
end $$;

-- An argument whose prefix hides nothing: p_id names no table.
create function public.item_by_id(p_id uuid) returns setof public.items language sql stable as $$ select * from public.items where false $$;
`;

const core = await loadCore();
const stack = sharedSqlStack({ sql: SQL, inspect: (query) => catalogFacts(query) });
const noteOf = (notes, path) => notes.find((note) => note.path === path)?.message;

test('the pull: a volatile read called by GET is a read; by POST, or writing in a way a text search misses, a write', async () => {
  const { domain, notes } = await pulledDomain(stack(), core);
  const read = (name) => domain.functions[name]?.read;
  assert.deepEqual(['item_names', 'count_items', 'op_sum', 'match_items'].map(read), [true, true, true, false]);
  assert.match(noteOf(notes, 'functions.item_names'), /^offered as a read though volatile .* a call goes by GET, which PostgREST runs read-only/);
  assert.match(noteOf(notes, 'functions.match_items'), /^offered as a function that changes data .*: its arguments go by POST \(an embedding, or a name such as limit\)/);
  // Each of these writes; none is a read.
  const facts = stack().inspected.functions;
  const fact = (name) => facts.find((fn) => fn.name === name);
  assert.deepEqual(['quoted_call', 'atomic_write', 'escaped_write', 'select_into'].map((name) => [name, read(name) ?? 'left out']), [
    ['quoted_call', false],
    ['atomic_write', false],
    ['escaped_write', false],
    ['select_into', false],
  ]);
  // How each was seen: a quoted call followed, an atomic body unread (no text), an E-string and SELECT INTO as writes.
  assert.deepEqual(fact('quoted_call').volatileCalls, ['logSearch']);
  assert.deepEqual([fact('atomic_write').writes, fact('atomic_write').volatileCalls], [null, null]);
  assert.deepEqual([fact('escaped_write').writes, fact('select_into').writes], [true, true]);
  // p_id: no table is named `ids`, and `id` alone names none: left out, with the note asking for it.
  assert.equal(domain.functions.item_by_id, undefined);
  assert.match(noteOf(notes, 'functions.item_by_id'), /^left out: its uuid argument p_id takes keys of a table the pull cannot tell/);
});

test('a read by GET whose body writes after all (through an operator, a stable function) is refused by the database, even for a read-only act: nothing is written', async () => {
  const { domain } = await pulledDomain(stack(), core);
  const act = core.createAct({ url: stack().supabaseUrl, apiKey: stack().anonKey, accessToken: stack().token, domain, readOnly: true });
  const names = await act.execute('db_call', { function: 'item_names' });
  assert.equal(names.error, null);
  assert.deepEqual(names.data.map((row) => Object.values(row)[0]).sort(), ['bread', 'butter']);
  const summed = await act.execute('db_call', { function: 'op_sum' });
  assert.equal(summed.error?.code, 'read_only_transaction');
  // PostgreSQL refuses a stable function's insert itself.
  const counted = await act.execute('db_call', { function: 'count_items' });
  assert.match(counted.error?.message ?? '', /INSERT is not allowed in a non-volatile function/);
  const refused = await act.execute('db_call', { function: 'quoted_call' });
  assert.equal(refused.error?.code, 'read_only');
  const logged = await fetch(`${stack().supabaseUrl}/rest/v1/search_log?select=q`, { headers: { apikey: stack().serviceKey, authorization: `Bearer ${stack().serviceKey}` } });
  assert.deepEqual(await logged.json(), []);
});

test("a body whose operator does not fit its values (42883, which PostgREST answers 404) is the function's failure, not a row missing", async () => {
  const { domain } = await pulledDomain(stack(), core);
  const act = core.createAct({ url: stack().supabaseUrl, apiKey: stack().anonKey, accessToken: stack().token, domain });
  const { error } = await act.execute('db_call', { function: 'item_named', args: { p_name: 'bread' } });
  assert.equal(error?.code, 'function_error');
  assert.equal(error?.status, 404);
  assert.match(error?.message ?? '', /^calling item_named failed: operator does not exist: bigint = text/);
  assert.equal(error?.hint, 'the function failed inside: try other argument values, or tell the user');
  const text = JSON.parse(await act.callToolText('db_call', JSON.stringify({ function: 'item_named', args: { p_name: 'bread' } })));
  assert.equal(text.error.code, 'function_error');
  assert.doesNotMatch(JSON.stringify(text), /explicit type casts/);
});

test("a function's result columns that hold embeddings are not selected: the model reads the others", async () => {
  const { domain, notes } = await pulledDomain(stack(), core);
  assert.deepEqual(domain.functions.items_like.returns, { type: 'json', set: true, columns: ['id', 'name', 'similarity'] });
  assert.equal(noteOf(notes, 'functions.items_like.returns.columns'), 'id, name, similarity: a call selects these, not embedding, an embedding whose numbers the model has no use for');
  const embedder = { dimensions: 3, embed: async (texts) => texts.map(() => [1, 0, 0]) };
  const act = core.createAct({ url: stack().supabaseUrl, apiKey: stack().anonKey, accessToken: stack().token, domain, embedder });
  const { data, error } = await act.execute('db_call', { function: 'items_like', args: { query_embedding: 'bread' } });
  assert.equal(error, null, JSON.stringify(error));
  assert.deepEqual(data.map((row) => Object.keys(row).sort()), [['id', 'name', 'similarity'], ['id', 'name', 'similarity']]);
  assert.equal(data[0].name, 'bread');
});
