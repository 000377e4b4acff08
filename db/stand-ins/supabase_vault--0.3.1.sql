-- Supabase Vault, as the local stack stands it in: vault.secrets,
-- vault.decrypted_secrets, vault.create_secret and vault.update_secret with
-- Vault's columns and signatures, so that migrations which store a secret
-- (a project URL or a service key for a pg_net webhook) and functions which
-- read it back run. NOT encrypted: the secret is kept as given, in the
-- `secret` column as well as in `decrypted_secret`, in the data dir and its
-- snapshots. Use throwaway values locally.

create table vault.secrets (
  id uuid primary key default gen_random_uuid(),
  name text,
  description text not null default '',
  secret text not null,
  key_id uuid,
  nonce bytea,
  created_at timestamptz not null default current_timestamp,
  updated_at timestamptz not null default current_timestamp
);
comment on table vault.secrets is 'Supabase Vault''s secrets, NOT encrypted on the local stack (stand-in)';
create unique index on vault.secrets using btree (name) where name is not null;

create view vault.decrypted_secrets as
  select s.id, s.name, s.description, s.secret, s.secret as decrypted_secret, s.key_id, s.nonce, s.created_at, s.updated_at
  from vault.secrets as s;

create function vault.create_secret(new_secret text, new_name text = null, new_description text = '', new_key_id uuid = null)
returns uuid
language sql
security definer
set search_path = ''
as $$
  insert into vault.secrets (secret, name, description) values (new_secret, new_name, new_description)
  returning id
$$;

create function vault.update_secret(secret_id uuid, new_secret text = null, new_name text = null, new_description text = null,
  new_key_id uuid = null)
returns void
language sql
security definer
set search_path = ''
as $$
  update vault.secrets as s
  set secret = coalesce(new_secret, s.secret),
    name = coalesce(new_name, s.name),
    description = coalesce(new_description, s.description),
    updated_at = now()
  where s.id = secret_id
$$;

revoke all on function vault.create_secret(text, text, text, uuid), vault.update_secret(uuid, text, text, text, uuid) from public;
revoke all on schema vault from public;
grant usage on schema vault to service_role;
grant select on vault.decrypted_secrets to service_role;
grant execute on function vault.create_secret(text, text, text, uuid), vault.update_secret(uuid, text, text, text, uuid) to service_role;
