-- A Supabase-shaped database: the API roles, the auth schema PostgREST's JWT
-- claims are read through (with auth.users, auth.identities, auth.sessions and
-- auth.refresh_tokens in the columns Supabase Auth gives them, so published
-- seeds and `after insert on auth.users` triggers work), an extensions
-- schema, and Supabase's default privileges on public. Runs in-process, as
-- postgres, before the socket opens.

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
  -- Supabase Auth's own role: migrations grant it what an auth hook reads.
  -- No JWT may name it (auth.check_request below).
  if not exists (select from pg_roles where rolname = 'supabase_auth_admin') then
    create role supabase_auth_admin nologin noinherit;
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
create extension if not exists "uuid-ossp" with schema extensions;

-- auth: users and the JWT claim accessors RLS policies use.
create schema if not exists auth;
grant usage on schema auth to anon, authenticated, service_role;

-- Supabase Auth's tables, with its column names and types. Everything is
-- nullable or has a default, so `insert into auth.users (id, email)` works as
-- well as a seed that fills every column. The local sign-in (db/auth.mjs,
-- migration 013) reads and writes them.
create table if not exists auth.users (
  instance_id uuid,
  id uuid primary key default gen_random_uuid(),
  aud varchar(255) default 'authenticated',
  role varchar(255) default 'authenticated',
  email varchar(255),
  encrypted_password varchar(255),
  email_confirmed_at timestamptz,
  invited_at timestamptz,
  confirmation_token varchar(255),
  confirmation_sent_at timestamptz,
  recovery_token varchar(255),
  recovery_sent_at timestamptz,
  email_change_token_new varchar(255),
  email_change varchar(255),
  email_change_sent_at timestamptz,
  last_sign_in_at timestamptz,
  raw_app_meta_data jsonb default '{"provider": "email", "providers": ["email"]}',
  raw_user_meta_data jsonb default '{}',
  is_super_admin boolean,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  phone text unique default null,
  phone_confirmed_at timestamptz,
  phone_change text default '',
  phone_change_token varchar(255) default '',
  phone_change_sent_at timestamptz,
  confirmed_at timestamptz generated always as (least(email_confirmed_at, phone_confirmed_at)) stored,
  email_change_token_current varchar(255) default '',
  email_change_confirm_status smallint default 0 check (email_change_confirm_status >= 0 and email_change_confirm_status <= 2),
  banned_until timestamptz,
  reauthentication_token varchar(255) default '',
  reauthentication_sent_at timestamptz,
  is_sso_user boolean not null default false,
  deleted_at timestamptz,
  is_anonymous boolean not null default false
);
create unique index if not exists users_email_partial_key on auth.users (email) where is_sso_user = false;
grant select on auth.users to service_role;

create table if not exists auth.identities (
  provider_id text not null,
  user_id uuid not null references auth.users (id) on delete cascade,
  identity_data jsonb not null,
  provider text not null,
  last_sign_in_at timestamptz,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  email text generated always as (lower(identity_data ->> 'email')) stored,
  id uuid primary key default gen_random_uuid(),
  unique (provider_id, provider)
);

create table if not exists auth.sessions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  factor_id uuid,
  aal text default 'aal1',
  not_after timestamptz,
  refreshed_at timestamp,
  user_agent text,
  ip inet,
  tag text
);

-- A refresh token is used once: refreshing revokes it and issues its child
-- (parent = the old token) in the same session.
create table if not exists auth.refresh_tokens (
  instance_id uuid,
  id bigserial primary key,
  token varchar(255) unique,
  user_id varchar(255),
  revoked boolean default false,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  parent varchar(255),
  session_id uuid references auth.sessions (id) on delete cascade
);

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

create or replace function auth.email() returns text
language sql stable
as $$
  select nullif(auth.jwt() ->> 'email', '')
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

grant execute on function auth.jwt(), auth.uid(), auth.role(), auth.email()
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
