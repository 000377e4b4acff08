-- Written for alfred-act's tests; not part of the published example, which
-- has no seed. Two users with passwords, inserted the way Supabase seeds
-- write them (bcrypt through pgcrypto's crypt()), with their email
-- identities, and a few todos each.
insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
  raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
values
  ('00000000-0000-0000-0000-000000000000', '7d0a1c62-0000-4000-8000-00000000a0a1', 'authenticated', 'authenticated',
   'ada@example.com', crypt('ada-password', gen_salt('bf')), now(),
   '{"provider": "email", "providers": ["email"]}', '{}', now(), now()),
  ('00000000-0000-0000-0000-000000000000', '7d0a1c62-0000-4000-8000-00000000b0b2', 'authenticated', 'authenticated',
   'ben@example.com', crypt('ben-password', gen_salt('bf')), now(),
   '{"provider": "email", "providers": ["email"]}', '{}', now(), now());

insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
select id::text, id, jsonb_build_object('sub', id::text, 'email', email), 'email', now(), now(), now()
from auth.users
where id in ('7d0a1c62-0000-4000-8000-00000000a0a1', '7d0a1c62-0000-4000-8000-00000000b0b2');

insert into todos (user_id, task, is_complete)
values
  ('7d0a1c62-0000-4000-8000-00000000a0a1', 'Buy oat milk', false),
  ('7d0a1c62-0000-4000-8000-00000000a0a1', 'Water the plants', true),
  ('7d0a1c62-0000-4000-8000-00000000a0a1', 'Call the plumber', false),
  ('7d0a1c62-0000-4000-8000-00000000b0b2', 'Renew passport', false);
