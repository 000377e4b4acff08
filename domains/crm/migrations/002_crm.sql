-- A small CRM: organizations, their contacts, deals and tasks. It differs from
-- the kitchen on purpose where a pulled domain could go wrong: the owner column
-- is owner_id (not user_id), deal stages, task statuses and contact channels
-- are Postgres enum types (the kitchen uses text with checks), tags are text[],
-- and there is a table without a uuid id and a view, which the domain pull
-- leaves out. owner_id defaults to the caller, so inserts may omit it; RLS
-- (003) still checks it.

create type public.deal_stage as enum ('lead', 'qualified', 'proposal', 'negotiation', 'won', 'lost');
create type public.task_status as enum ('open', 'in_progress', 'done', 'cancelled');
create type public.contact_channel as enum ('email', 'phone', 'video', 'in_person');

create table public.organizations (
  id uuid primary key default gen_random_uuid(),
  owner_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  name text not null,
  industry text,
  website text,
  employee_count integer,
  tags text[] not null default '{}',
  address jsonb,
  -- For a similarity search the CRM does not have yet: never shown to the model.
  profile_embedding extensions.vector(8),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index organizations_owner_id on public.organizations (owner_id);

create table public.contacts (
  id uuid primary key default gen_random_uuid(),
  owner_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  organization_id uuid references public.organizations (id) on delete set null,
  first_name text not null,
  last_name text,
  email text,
  phone text,
  job_title text,
  preferred_channels public.contact_channel[] not null default '{}',
  tags text[] not null default '{}',
  last_contacted_on date,
  created_at timestamptz not null default now()
);
create index contacts_owner_id on public.contacts (owner_id);
create index contacts_organization_id on public.contacts (organization_id);

create table public.deals (
  id uuid primary key default gen_random_uuid(),
  owner_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  organization_id uuid not null references public.organizations (id) on delete cascade,
  primary_contact_id uuid references public.contacts (id) on delete set null,
  title text not null,
  stage public.deal_stage not null default 'lead',
  amount numeric(12, 2),
  probability smallint check (probability between 0 and 100),
  expected_close_on date,
  is_archived boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index deals_owner_id on public.deals (owner_id);
create index deals_organization_id on public.deals (organization_id);

create table public.tasks (
  id uuid primary key default gen_random_uuid(),
  owner_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  deal_id uuid references public.deals (id) on delete cascade,
  contact_id uuid references public.contacts (id) on delete set null,
  title text not null,
  status public.task_status not null default 'open',
  due_at timestamptz,
  notes text,
  created_at timestamptz not null default now(),
  -- Full-text search over the title and notes ("find the tasks about the
  -- discount"): searched with op search, never read or written.
  search tsvector generated always as (to_tsvector('english', title || ' ' || coalesce(notes, ''))) stored
);
create index tasks_owner_id on public.tasks (owner_id);
create index tasks_search on public.tasks using gin (search);
create index tasks_deal_id on public.tasks (deal_id);

-- An append-only log keyed by a bigint: no uuid id, so no refs; the pull skips it.
create table public.activity_log (
  id bigint generated always as identity primary key,
  owner_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  happened_at timestamptz not null default now(),
  summary text not null
);

-- A view over deals (SECURITY INVOKER: the caller's RLS applies). PostgREST
-- describes it like a table; the pull leaves views out unless an override
-- names them.
create view public.open_deals with (security_invoker = true) as
  select id, owner_id, organization_id, title, stage, amount, expected_close_on
  from public.deals
  where stage not in ('won', 'lost') and not is_archived;

create schema if not exists private;
create function private.touch_updated_at() returns trigger
language plpgsql
as $$
begin
  new.updated_at := now();
  return new;
end
$$;
create trigger organizations_updated_at before update on public.organizations
  for each row execute function private.touch_updated_at();
create trigger deals_updated_at before update on public.deals
  for each row execute function private.touch_updated_at();
