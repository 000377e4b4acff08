-- Ours, for alfred-act's tests (the app's own seed.sql is empty). Two users,
-- whose personal accounts basejump's on_auth_user_created trigger makes; the
-- tests give them passwords with startStack({ users }). One team account,
-- Acme, that both belong to: Ada as its owner, Ben as a member (membership
-- rows written here, since a seed has no auth.uid() for basejump's
-- add_current_user_to_new_account trigger to use). Projects in each personal
-- account and in the team, one of Ben's public, and features and runs under
-- them.

insert into auth.users (id, email) values
  ('0a0a0a0a-0000-4000-8000-00000000000a', 'ada@example.com'),
  ('0b0b0b0b-0000-4000-8000-00000000000b', 'ben@example.com');

insert into basejump.accounts (id, name, slug, personal_account, primary_owner_user_id) values
  ('acacacac-0000-4000-8000-0000000000ac', 'Acme Robotics', 'acme', false, '0a0a0a0a-0000-4000-8000-00000000000a');

insert into basejump.account_user (account_id, user_id, account_role) values
  ('acacacac-0000-4000-8000-0000000000ac', '0a0a0a0a-0000-4000-8000-00000000000a', 'owner'),
  ('acacacac-0000-4000-8000-0000000000ac', '0b0b0b0b-0000-4000-8000-00000000000b', 'member');

-- A personal account's id is its owner's user id (basejump.run_new_user_setup).
insert into public.projects (id, account_id, name, url, visibility, created_by) values
  ('00000000-0000-4000-8000-0000000000a1', '0a0a0a0a-0000-4000-8000-00000000000a', 'Ada''s notebook', 'https://notebook.example', 'private', '0a0a0a0a-0000-4000-8000-00000000000a'),
  ('00000000-0000-4000-8000-0000000000b1', '0b0b0b0b-0000-4000-8000-00000000000b', 'Ben''s shop', 'https://shop.example', 'private', '0b0b0b0b-0000-4000-8000-00000000000b'),
  ('00000000-0000-4000-8000-0000000000b2', '0b0b0b0b-0000-4000-8000-00000000000b', 'Ben''s blog', 'https://blog.example', 'public', '0b0b0b0b-0000-4000-8000-00000000000b'),
  ('00000000-0000-4000-8000-0000000000c1', 'acacacac-0000-4000-8000-0000000000ac', 'Acme storefront', 'https://acme.example', 'private', '0a0a0a0a-0000-4000-8000-00000000000a');

insert into public.features (project_id, name, path) values
  ('00000000-0000-4000-8000-0000000000a1', 'Sign in', '/login'),
  ('00000000-0000-4000-8000-0000000000b1', 'Checkout', '/cart'),
  ('00000000-0000-4000-8000-0000000000c1', 'Search', '/search');

insert into public.runs (project_id, type, target, status, started_at, finished_at) values
  ('00000000-0000-4000-8000-0000000000a1', 'test', 'https://notebook.example/login', 'passed', now() - interval '2 hours', now() - interval '2 hours'),
  ('00000000-0000-4000-8000-0000000000b1', 'explore', 'https://shop.example', 'failed', now() - interval '1 hour', now() - interval '1 hour'),
  ('00000000-0000-4000-8000-0000000000b2', 'generate', 'https://blog.example', 'queued', null, null),
  ('00000000-0000-4000-8000-0000000000c1', 'test', 'https://acme.example/search', 'running', now(), null);
