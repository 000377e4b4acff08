-- Ours, for alfred-act's tests, run after seed.sql. The app as published lets
-- a signed-in user read projects and nothing more: its server writes them
-- with the service key. These are the policies a basejump app gives a table
-- an account owns when its members may write it themselves, in the form of
-- the app's own select policy: any member creates and renames its projects,
-- only its owners delete them.

create policy "Account members can insert" on public.projects
    for insert
    to authenticated
    with check (
    (account_id IN ( SELECT basejump.get_accounts_with_role()))
    );

create policy "Account members can update" on public.projects
    for update
    to authenticated
    using (
    (account_id IN ( SELECT basejump.get_accounts_with_role()))
    );

create policy "Account owners can delete" on public.projects
    for delete
    to authenticated
    using (
    (account_id IN ( SELECT basejump.get_accounts_with_role('owner')))
    );
