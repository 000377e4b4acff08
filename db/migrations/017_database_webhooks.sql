-- Database webhooks, as the Supabase CLI's local database and self-hosted
-- Supabase have them from the start (a project gets them when webhooks are
-- enabled in the dashboard): pg_net and the trigger function
-- supabase_functions.http_request(url, method, headers, params, timeout_ms)
-- that the dashboard's webhooks, and the `supabase db diff` of them, attach
-- to tables. Here pg_net is the stack's stand-in (db/stand-ins: the request
-- is queued and its id returned, nothing is sent), and it is a provided
-- extension (015): an app's own `create extension pg_net` replaces it, as it
-- would install it on a project without webhooks.

create extension if not exists pg_net with schema extensions;
insert into alfred_stack.provided_extensions (name) values ('pg_net') on conflict do nothing;

create schema if not exists supabase_functions;
grant usage on schema supabase_functions to postgres, anon, authenticated, service_role;

-- One row per webhook call: the table, the trigger and pg_net's request id.
create table if not exists supabase_functions.hooks (
  id bigserial primary key,
  hook_table_id integer not null,
  hook_name text not null,
  created_at timestamptz not null default now(),
  request_id bigint
);
create index if not exists supabase_functions_hooks_request_id_idx on supabase_functions.hooks (request_id);
create index if not exists supabase_functions_hooks_h_table_id_h_name_idx on supabase_functions.hooks (hook_table_id, hook_name);
grant all on supabase_functions.hooks to postgres, anon, authenticated, service_role;
grant all on sequence supabase_functions.hooks_id_seq to postgres, anon, authenticated, service_role;

-- The trigger's arguments, all text: url, method ('GET' or 'POST', POST by
-- default), headers and params (JSON objects), timeout in ms (1000 by
-- default). A POST sends { type, table, schema, record, old_record }.
create or replace function supabase_functions.http_request() returns trigger
language plpgsql
as $$
declare
  url text := tg_argv[0];
  method text := coalesce(nullif(tg_argv[1], 'null'), 'POST');
  headers jsonb := coalesce(nullif(tg_argv[2], 'null')::jsonb, '{}'::jsonb);
  params jsonb := coalesce(nullif(tg_argv[3], 'null')::jsonb, '{}'::jsonb);
  timeout_ms integer := coalesce(nullif(tg_argv[4], 'null')::integer, 1000);
  request_id bigint;
begin
  if url is null or url = 'null' then
    raise exception 'url argument is missing';
  end if;
  if method = 'GET' then
    request_id := net.http_get(url, params, headers, timeout_ms);
  elsif method = 'POST' then
    request_id := net.http_post(
      url,
      jsonb_build_object('type', tg_op, 'table', tg_table_name, 'schema', tg_table_schema,
        'record', case when tg_op = 'DELETE' then null else to_jsonb(new) end,
        'old_record', case when tg_op = 'INSERT' then null else to_jsonb(old) end),
      params, headers, timeout_ms);
  else
    raise exception 'method argument % is invalid', method;
  end if;
  insert into supabase_functions.hooks (hook_table_id, hook_name, request_id) values (tg_relid, tg_name, request_id);
  return coalesce(new, old);
end
$$;
