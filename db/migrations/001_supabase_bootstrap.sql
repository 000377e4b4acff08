-- A Supabase-shaped database: the API roles, the auth schema PostgREST's JWT
-- claims are read through, an extensions schema, and Supabase's default
-- privileges on public. Runs in-process, as postgres, before the socket opens.

-- Roles. PostgREST switches to one of the first three per request (the JWT's
-- "role" claim, anon without a JWT). authenticator exists for parity with
-- Supabase; over pglite-socket every connection is postgres anyway, which is
-- why auth.check_request() below is installed as PostgREST's pre-request hook.
do $$
begin
  if not exists (select from pg_roles where rolname = 'anon') then
    create role anon nologin noinherit;
  end if;
  if not exists (select from pg_roles where rolname = 'authenticated') then
    create role authenticated nologin noinherit;
  end if;
  if not exists (select from pg_roles where rolname = 'service_role') then
    create role service_role nologin noinherit bypassrls;
  end if;
  if not exists (select from pg_roles where rolname = 'authenticator') then
    create role authenticator login noinherit;
  end if;
end
$$;
grant anon, authenticated, service_role to authenticator;

-- Extensions live in their own schema, as on Supabase; PostgREST gets it on
-- its search path through db-extra-search-path.
create schema if not exists extensions;
grant usage on schema extensions to anon, authenticated, service_role;
create extension if not exists vector with schema extensions;
create extension if not exists pgcrypto with schema extensions;

-- auth: users and the JWT claim accessors RLS policies use.
create schema if not exists auth;
grant usage on schema auth to anon, authenticated, service_role;

create table if not exists auth.users (
  id uuid primary key default gen_random_uuid(),
  email text unique,
  created_at timestamptz not null default now()
);
grant select on auth.users to service_role;

-- The claims PostgREST set for this request (empty outside a request).
create or replace function auth.jwt() returns jsonb
language sql stable
as $$
  select coalesce(nullif(current_setting('request.jwt.claims', true), ''), '{}')::jsonb
$$;

-- The caller's user id: the JWT's sub, null for anon and service_role keys.
create or replace function auth.uid() returns uuid
language sql stable
as $$
  select nullif(auth.jwt() ->> 'sub', '')::uuid
$$;

create or replace function auth.role() returns text
language sql stable
as $$
  select nullif(auth.jwt() ->> 'role', '')
$$;

-- PostgREST's db-pre-request hook. Every socket connection is the superuser
-- postgres, so a JWT claiming "role": "postgres" (or any other role) would be
-- honoured by SET ROLE; only the three API roles may run a request.
create or replace function auth.check_request() returns void
language plpgsql stable
as $$
begin
  if current_user not in ('anon', 'authenticated', 'service_role') then
    raise sqlstate 'PT403' using
      message = format('JWT role %s is not allowed', current_user),
      hint = 'Use a key whose role is anon, authenticated or service_role';
  end if;
end
$$;

grant execute on function auth.jwt(), auth.uid(), auth.role()
  to anon, authenticated, service_role;
-- Whatever role a forged or mistaken JWT names must be able to reach the hook,
-- so that the refusal is this clear message rather than a permission error.
grant usage on schema auth to public;
grant execute on function auth.check_request() to public;

-- Supabase's defaults: the API roles may use public and every object created
-- in it; row level security is what narrows access.
grant usage on schema public to anon, authenticated, service_role;
alter default privileges in schema public grant all on tables to anon, authenticated, service_role;
alter default privileges in schema public grant all on sequences to anon, authenticated, service_role;
alter default privileges in schema public grant all on functions to anon, authenticated, service_role;
