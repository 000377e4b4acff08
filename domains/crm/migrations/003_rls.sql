-- Row level security: a signed-in user sees and changes only rows whose
-- owner_id is theirs. A row may only point at organizations, contacts and
-- deals the user can see (the EXISTS sub-queries run under the caller's own
-- RLS), so a foreign key into another user's rows fails the policy (403
-- 42501) instead of linking across accounts. anon has no policy: no rows.

alter table public.organizations enable row level security;
create policy organizations_select on public.organizations
  for select to authenticated using (owner_id = auth.uid());
create policy organizations_insert on public.organizations
  for insert to authenticated with check (owner_id = auth.uid());
create policy organizations_update on public.organizations
  for update to authenticated using (owner_id = auth.uid()) with check (owner_id = auth.uid());
create policy organizations_delete on public.organizations
  for delete to authenticated using (owner_id = auth.uid());

alter table public.contacts enable row level security;
create policy contacts_select on public.contacts
  for select to authenticated using (owner_id = auth.uid());
create policy contacts_insert on public.contacts
  for insert to authenticated with check (
    owner_id = auth.uid()
    and (organization_id is null
         or exists (select from public.organizations o where o.id = contacts.organization_id)));
create policy contacts_update on public.contacts
  for update to authenticated using (owner_id = auth.uid()) with check (
    owner_id = auth.uid()
    and (organization_id is null
         or exists (select from public.organizations o where o.id = contacts.organization_id)));
create policy contacts_delete on public.contacts
  for delete to authenticated using (owner_id = auth.uid());

alter table public.deals enable row level security;
create policy deals_select on public.deals
  for select to authenticated using (owner_id = auth.uid());
create policy deals_insert on public.deals
  for insert to authenticated with check (
    owner_id = auth.uid()
    and exists (select from public.organizations o where o.id = deals.organization_id)
    and (primary_contact_id is null
         or exists (select from public.contacts c where c.id = deals.primary_contact_id)));
create policy deals_update on public.deals
  for update to authenticated using (owner_id = auth.uid()) with check (
    owner_id = auth.uid()
    and exists (select from public.organizations o where o.id = deals.organization_id)
    and (primary_contact_id is null
         or exists (select from public.contacts c where c.id = deals.primary_contact_id)));
create policy deals_delete on public.deals
  for delete to authenticated using (owner_id = auth.uid());

alter table public.tasks enable row level security;
create policy tasks_select on public.tasks
  for select to authenticated using (owner_id = auth.uid());
create policy tasks_insert on public.tasks
  for insert to authenticated with check (
    owner_id = auth.uid()
    and (deal_id is null or exists (select from public.deals d where d.id = tasks.deal_id))
    and (contact_id is null or exists (select from public.contacts c where c.id = tasks.contact_id)));
create policy tasks_update on public.tasks
  for update to authenticated using (owner_id = auth.uid()) with check (
    owner_id = auth.uid()
    and (deal_id is null or exists (select from public.deals d where d.id = tasks.deal_id))
    and (contact_id is null or exists (select from public.contacts c where c.id = tasks.contact_id)));
create policy tasks_delete on public.tasks
  for delete to authenticated using (owner_id = auth.uid());

alter table public.activity_log enable row level security;
create policy activity_log_select on public.activity_log
  for select to authenticated using (owner_id = auth.uid());
create policy activity_log_insert on public.activity_log
  for insert to authenticated with check (owner_id = auth.uid());
