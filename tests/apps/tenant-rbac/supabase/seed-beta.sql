-- Ours, for alfred-act's tests, run after the app's own seed.sql: a second
-- group, Beta, with a row of its own. Eve, who is in no group in the app's
-- seed, owns Beta; Carol, an editor in Alpha, is only a viewer in Beta, so the
-- same user may write one group's data and not the other's.

insert into rbac.groups (id, name, metadata, created_at)
values ('f2222222-2222-2222-2222-222222222222', 'Beta', '{}', now());

insert into rbac.members (group_id, user_id, roles) values
  ('f2222222-2222-2222-2222-222222222222', 'eeeeeeee-0000-0000-0000-000000000001', array['owner']),
  ('f2222222-2222-2222-2222-222222222222', 'cccccccc-0000-0000-0000-000000000001', array['viewer']);

insert into public.sensitive_data (id, "data", owned_by_group)
values ('5eed0000-0000-4000-8000-00000000be7a', 'group beta data', 'f2222222-2222-2222-2222-222222222222');
