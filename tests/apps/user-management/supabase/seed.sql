-- Written for alfred-act's tests; not part of the published example, which
-- has no seed. Two users with passwords (bcrypt through pgcrypto's crypt(),
-- as Supabase seeds write them); the example's on_auth_user_created trigger
-- makes their profiles from raw_user_meta_data. Ada also has an avatar in
-- the example's avatars bucket.
insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
  raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
values
  ('00000000-0000-0000-0000-000000000000', '5e0c7a11-0000-4000-8000-00000000a0a1', 'authenticated', 'authenticated',
   'ada@example.com', crypt('ada-password', gen_salt('bf')), now(),
   '{"provider": "email", "providers": ["email"]}', '{"full_name": "Ada Lovelace", "avatar_url": "ada.png"}', now(), now()),
  ('00000000-0000-0000-0000-000000000000', '5e0c7a11-0000-4000-8000-00000000b0b2', 'authenticated', 'authenticated',
   'ben@example.com', crypt('ben-password', gen_salt('bf')), now(),
   '{"provider": "email", "providers": ["email"]}', '{"full_name": "Ben Okafor"}', now(), now());

update profiles set username = 'ada', website = 'https://ada.example' where id = '5e0c7a11-0000-4000-8000-00000000a0a1';
update profiles set username = 'ben' where id = '5e0c7a11-0000-4000-8000-00000000b0b2';

insert into storage.objects (bucket_id, name, owner)
values ('avatars', 'ada.png', '5e0c7a11-0000-4000-8000-00000000a0a1');
