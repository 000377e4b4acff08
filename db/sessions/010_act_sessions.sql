-- MCP sessions kept in the user's own database (web/src/mcp/store.js,
-- SupabaseSessionStore): one row per session, read and written through
-- PostgREST as the user, so row-level security keeps each user to their own.
-- The primary key includes user_id: a session id chosen by one user says
-- nothing about another user's sessions. state is the session's JSON (the
-- ref registry among it), never shown to a model.
create table public.act_sessions (
  id text not null check (length(id) between 16 and 128),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  state jsonb not null,
  updated_at timestamptz not null default now(),
  primary key (user_id, id)
);

alter table public.act_sessions enable row level security;
revoke all on public.act_sessions from anon;
create policy act_sessions_select on public.act_sessions
  for select to authenticated using (user_id = auth.uid());
create policy act_sessions_insert on public.act_sessions
  for insert to authenticated with check (user_id = auth.uid());
create policy act_sessions_update on public.act_sessions
  for update to authenticated using (user_id = auth.uid()) with check (user_id = auth.uid());
create policy act_sessions_delete on public.act_sessions
  for delete to authenticated using (user_id = auth.uid());
