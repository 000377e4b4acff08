-- Written for alfred-act's tests. Two users with passwords (bcrypt through
-- pgcrypto's crypt(), as Supabase seeds write them); Ada has a private and a
-- public note, Ben a private one and a comment on Ada's public note.
insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
  raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
values
  ('00000000-0000-0000-0000-000000000000', '9c41f5e2-0000-4000-8000-00000000a0a1', 'authenticated', 'authenticated',
   'ada@example.com', crypt('ada-password', gen_salt('bf')), now(),
   '{"provider": "email", "providers": ["email"]}', '{}', now(), now()),
  ('00000000-0000-0000-0000-000000000000', '9c41f5e2-0000-4000-8000-00000000b0b2', 'authenticated', 'authenticated',
   'ben@example.com', crypt('ben-password', gen_salt('bf')), now(),
   '{"provider": "email", "providers": ["email"]}', '{}', now(), now());

insert into notes (title, body, is_public, user_id)
values
  ('Ada''s diary', 'private thoughts', false, '9c41f5e2-0000-4000-8000-00000000a0a1'),
  ('Analytical engine', 'notes for everyone', true, '9c41f5e2-0000-4000-8000-00000000a0a1'),
  ('Ben''s list', 'groceries', false, '9c41f5e2-0000-4000-8000-00000000b0b2');

insert into comments (note_id, body, author_id)
select id, 'Fascinating!', '9c41f5e2-0000-4000-8000-00000000b0b2' from notes where title = 'Analytical engine';
