-- Extensions the stack installs before an app's migrations although a new
-- Supabase project does not have them: vector (001 puts it in `extensions`,
-- so that the domain packs and apps that enabled it from the dashboard rather
-- than in a migration still load). On Supabase an app's own
-- `create extension vector` (with or without `if not exists`, `with schema
-- extensions` or `with schema public`) installs it where it says; here it
-- would fail with 'extension "vector" already exists', or silently leave it
-- in `extensions`. So the stack's copy gives way: when a CREATE EXTENSION
-- names a provided extension that nothing uses yet, the stack's copy is
-- dropped just before the statement runs, and the statement then does exactly
-- what it does on Supabase. A copy something already depends on (a column
-- made while relying on it) stays, and the statement meets it as it would
-- meet a dashboard-enabled extension. Either way the extension is the app's
-- from then on: a second `create extension vector` fails as on Supabase.

create schema if not exists alfred_stack;
revoke all on schema alfred_stack from public;

create table if not exists alfred_stack.provided_extensions (
  name text primary key
);
insert into alfred_stack.provided_extensions (name) values ('vector') on conflict do nothing;

-- The extension names the current statement creates, as written: a quoted
-- name unquoted, an unquoted one lowercased. Comments are left out first, so
-- a commented-out CREATE EXTENSION is not read.
create or replace function alfred_stack.created_extensions(statement text) returns setof text
language sql immutable
as $$
  select case when m[1] like '"%' then replace(substr(m[1], 2, length(m[1]) - 2), '""', '"') else lower(m[1]) end
  from regexp_matches(
    regexp_replace(statement, '--[^\n]*|/\*.*?\*/', ' ', 'g'),
    'create\s+extension\s+(?:if\s+not\s+exists\s+)?("(?:[^"]|"")+"|[a-z_][a-z0-9_$]*)',
    'gi') as m
$$;

create or replace function alfred_stack.yield_provided_extension() returns event_trigger
language plpgsql
as $$
declare
  extension_name text;
begin
  for extension_name in
    select distinct created.name
    from alfred_stack.created_extensions(current_query()) as created(name)
    join alfred_stack.provided_extensions as provided on provided.name = created.name
  loop
    delete from alfred_stack.provided_extensions where name = extension_name;
    begin
      execute format('drop extension %I', extension_name);
      raise notice 'the local stack''s own % extension gave way to this CREATE EXTENSION', extension_name;
    exception when dependent_objects_still_exist then
      raise notice 'the local stack''s % extension is kept: objects already depend on it', extension_name;
    end;
  end loop;
end
$$;

create event trigger alfred_stack_yield_provided_extension
  on ddl_command_start when tag in ('CREATE EXTENSION')
  execute function alfred_stack.yield_provided_extension();
