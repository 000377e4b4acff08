-- The database half of the local sign-in (db/auth.mjs serves /auth/v1 on the
-- stack's gateway). Once the socket is open PostgREST is the database's only
-- client, so the sign-in endpoint reads and writes users through these
-- functions, called over PostgREST with the service key and the profile
-- alfred_auth. PostgREST exposes this schema next to public; only
-- service_role may use it. Everything a sign-in changes happens here, in the
-- database: passwords are checked with pgcrypto's crypt() against
-- auth.users.encrypted_password (bcrypt, as Supabase writes it), a sign-up
-- inserts into auth.users (so `after insert on auth.users` triggers run), and
-- sessions and refresh tokens are rows of auth.sessions and
-- auth.refresh_tokens, kept in a data dir like everything else.
--
-- Each function returns jsonb: `{ "user": …, "session_id": …,
-- "refresh_token": … }` on success, `{ "error": "<GoTrue error code>" }` when
-- the request is refused. db/auth.mjs signs the access token and shapes the
-- answer as GoTrue does.
create schema if not exists alfred_auth;
revoke all on schema alfred_auth from public;
grant usage on schema alfred_auth to service_role;
alter default privileges in schema alfred_auth revoke execute on functions from public;

-- A user as GoTrue returns it (GET /user, the `user` of a session).
create or replace function alfred_auth.user_json(u auth.users) returns jsonb
language sql stable
set search_path = ''
as $$
  select jsonb_build_object(
    'id', u.id,
    'aud', coalesce(nullif(u.aud, ''), 'authenticated'),
    'role', coalesce(nullif(u.role, ''), 'authenticated'),
    'email', coalesce(u.email, ''),
    'email_confirmed_at', u.email_confirmed_at,
    'phone', coalesce(u.phone, ''),
    'confirmed_at', u.confirmed_at,
    'last_sign_in_at', u.last_sign_in_at,
    'app_metadata', coalesce(u.raw_app_meta_data, '{}'::jsonb),
    'user_metadata', coalesce(u.raw_user_meta_data, '{}'::jsonb),
    'identities', coalesce((
      select jsonb_agg(jsonb_build_object(
        'identity_id', i.id, 'id', i.provider_id, 'user_id', i.user_id, 'identity_data', i.identity_data,
        'provider', i.provider, 'last_sign_in_at', i.last_sign_in_at, 'created_at', i.created_at,
        'updated_at', i.updated_at, 'email', i.email) order by i.created_at)
      from auth.identities i where i.user_id = u.id), '[]'::jsonb),
    'created_at', u.created_at,
    'updated_at', u.updated_at,
    'is_anonymous', coalesce(u.is_anonymous, false)
  )
$$;

-- A new session for `u` with its first refresh token.
create or replace function alfred_auth.issue_session(u auth.users) returns jsonb
language plpgsql
set search_path = ''
as $$
declare
  new_session uuid := gen_random_uuid();
  token text := translate(encode(extensions.gen_random_bytes(18), 'base64'), '+/', '-_');
begin
  insert into auth.sessions (id, user_id, created_at, updated_at, aal) values (new_session, u.id, now(), now(), 'aal1');
  insert into auth.refresh_tokens (token, user_id, revoked, session_id, created_at, updated_at)
    values (token, u.id::text, false, new_session, now(), now());
  return jsonb_build_object('user', alfred_auth.user_json(u), 'session_id', new_session, 'refresh_token', token);
end
$$;

-- Creates the user `p_email` with `p_password` (confirmed, provider email,
-- with its email identity), or, when that email exists, sets its password.
-- Returns the id. The stack calls it in-process for `users` / --user.
create or replace function alfred_auth.ensure_user(p_email text, p_password text, p_id uuid default null, p_user_metadata jsonb default null)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  found_id uuid;
  hash text := extensions.crypt(p_password, extensions.gen_salt('bf'));
begin
  select id into found_id from auth.users where lower(email) = lower(p_email) order by created_at limit 1;
  if found_id is not null then
    update auth.users set encrypted_password = hash, updated_at = now(),
      raw_user_meta_data = case when p_user_metadata is null then raw_user_meta_data else p_user_metadata end
      where id = found_id;
    return found_id;
  end if;
  found_id := coalesce(p_id, gen_random_uuid());
  insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
    raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
  values ('00000000-0000-0000-0000-000000000000', found_id, 'authenticated', 'authenticated', lower(p_email), hash, now(),
    '{"provider": "email", "providers": ["email"]}', coalesce(p_user_metadata, '{}'::jsonb), now(), now());
  insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
  values (found_id::text, found_id,
    jsonb_build_object('sub', found_id::text, 'email', lower(p_email), 'email_verified', true, 'phone_verified', false),
    'email', null, now(), now());
  return found_id;
end
$$;

-- POST /auth/v1/token?grant_type=password
create or replace function alfred_auth.sign_in_with_password(p_email text, p_password text) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  u auth.users;
  matches boolean := false;
begin
  select * into u from auth.users
    where lower(email) = lower(p_email) and deleted_at is null and not is_sso_user
    order by created_at limit 1;
  if u.id is not null and coalesce(u.encrypted_password, '') <> '' then
    begin
      matches := u.encrypted_password = extensions.crypt(p_password, u.encrypted_password);
    exception when others then
      matches := false; -- not a hash crypt() knows
    end;
  end if;
  if not matches then
    return jsonb_build_object('error', 'invalid_credentials');
  end if;
  if u.banned_until is not null and u.banned_until > now() then
    return jsonb_build_object('error', 'user_banned');
  end if;
  update auth.users set last_sign_in_at = now() where id = u.id returning * into u;
  return alfred_auth.issue_session(u);
end
$$;

-- POST /auth/v1/token?grant_type=refresh_token. A token is used once: it is
-- revoked and its child returned. Presenting a revoked one again ends its
-- session, as GoTrue's refresh token reuse detection does.
create or replace function alfred_auth.refresh_session(p_refresh_token text) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  old auth.refresh_tokens;
  u auth.users;
  token text := translate(encode(extensions.gen_random_bytes(18), 'base64'), '+/', '-_');
begin
  select * into old from auth.refresh_tokens where refresh_tokens.token = p_refresh_token for update;
  if old.id is null or old.session_id is null then
    return jsonb_build_object('error', 'refresh_token_not_found');
  end if;
  if old.revoked then
    delete from auth.sessions where id = old.session_id;
    return jsonb_build_object('error', 'refresh_token_already_used');
  end if;
  select * into u from auth.users where id = old.user_id::uuid;
  if u.id is null or u.deleted_at is not null then
    return jsonb_build_object('error', 'refresh_token_not_found');
  end if;
  if u.banned_until is not null and u.banned_until > now() then
    return jsonb_build_object('error', 'user_banned');
  end if;
  update auth.refresh_tokens set revoked = true, updated_at = now() where id = old.id;
  insert into auth.refresh_tokens (token, user_id, revoked, parent, session_id, created_at, updated_at)
    values (token, old.user_id, false, old.token, old.session_id, now(), now());
  update auth.sessions set refreshed_at = now(), updated_at = now() where id = old.session_id;
  return jsonb_build_object('user', alfred_auth.user_json(u), 'session_id', old.session_id, 'refresh_token', token);
end
$$;

-- GET /auth/v1/user, for a verified access token: the user, if the token's
-- session (when it names one) still exists.
create or replace function alfred_auth.get_user(p_user_id uuid, p_session_id uuid default null) returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  u auth.users;
begin
  if p_session_id is not null and not exists (select from auth.sessions where id = p_session_id and user_id = p_user_id) then
    return jsonb_build_object('error', 'session_not_found');
  end if;
  select * into u from auth.users where id = p_user_id and deleted_at is null;
  if u.id is null then
    return jsonb_build_object('error', 'user_not_found');
  end if;
  return jsonb_build_object('user', alfred_auth.user_json(u));
end
$$;

-- POST /auth/v1/logout?scope=global|local|others: ends the sessions (their
-- refresh tokens go with them).
create or replace function alfred_auth.sign_out(p_user_id uuid, p_session_id uuid, p_scope text default 'global') returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  ended int;
begin
  if p_scope = 'local' then
    delete from auth.sessions where id = p_session_id and user_id = p_user_id;
  elsif p_scope = 'others' then
    delete from auth.sessions where user_id = p_user_id and id is distinct from p_session_id;
  else
    delete from auth.sessions where user_id = p_user_id;
  end if;
  get diagnostics ended = row_count;
  return jsonb_build_object('ended', ended);
end
$$;

-- POST /auth/v1/signup with email and password: a confirmed user (as a local
-- Supabase with email confirmations off makes it) and a session.
create or replace function alfred_auth.sign_up(p_email text, p_password text, p_data jsonb default null) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  u auth.users;
  new_id uuid;
begin
  if exists (select from auth.users where lower(email) = lower(p_email)) then
    return jsonb_build_object('error', 'user_already_exists');
  end if;
  new_id := alfred_auth.ensure_user(p_email, p_password, null, coalesce(p_data, '{}'::jsonb));
  update auth.users set last_sign_in_at = now() where id = new_id returning * into u;
  return alfred_auth.issue_session(u);
end
$$;

grant execute on function
  alfred_auth.sign_in_with_password(text, text),
  alfred_auth.refresh_session(text),
  alfred_auth.get_user(uuid, uuid),
  alfred_auth.sign_out(uuid, uuid, text),
  alfred_auth.sign_up(text, text, jsonb)
  to service_role;

-- A custom access token hook (Supabase's [auth.hook.custom_access_token]):
-- the function named in alfred_auth.hooks, which the stack writes at start
-- (in-process, before the socket opens), so no caller can name another. It
-- gets GoTrue's event `{ user_id, claims, authentication_method }` and
-- answers `{ claims }`, or `{ error: { http_code, message } }`. It runs with
-- this function's owner's rights, not as supabase_auth_admin as on Supabase
-- (a security definer function cannot SET ROLE).
create table if not exists alfred_auth.hooks (
  name text primary key check (name = 'custom_access_token'),
  function regproc not null
);

create or replace function alfred_auth.run_access_token_hook(p_event jsonb) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  hook regproc;
  answer jsonb;
begin
  select function into hook from alfred_auth.hooks where name = 'custom_access_token';
  if hook is null then
    return jsonb_build_object('claims', p_event -> 'claims');
  end if;
  execute format('select %s($1)', hook) using p_event into answer;
  return answer;
end
$$;

grant execute on function alfred_auth.run_access_token_hook(jsonb) to service_role;
