-- Row level security: a signed-in user sees and changes only rows whose
-- user_id is theirs (auth.uid()), the usual Supabase owner policy. Besides,
-- a row may only point at recipes and meal plans the user can see. (The new row's columns are written table.column inside the
-- sub-queries: a bare parent_recipe_id in a sub-query over recipes would mean
-- the inner row's.) The EXISTS sub-queries run under the caller's own RLS, so a foreign
-- key into another user's recipe fails the policy (403 42501) instead of
-- silently linking across accounts.
-- anon keeps Supabase's table privileges but has no policy: it sees no rows
-- and cannot write. service_role bypasses RLS.

-- The catalog: readable by signed-in users, written only by migrations/seed.
alter table public.ingredients enable row level security;
revoke insert, update, delete, truncate on public.ingredients from anon, authenticated;
create policy ingredients_select on public.ingredients
  for select to authenticated using (true);

-- recipes
alter table public.recipes enable row level security;
create policy recipes_select on public.recipes
  for select to authenticated using (user_id = auth.uid());
create policy recipes_insert on public.recipes
  for insert to authenticated with check (
    user_id = auth.uid()
    and (parent_recipe_id is null
         or exists (select from public.recipes p where p.id = recipes.parent_recipe_id)));
create policy recipes_update on public.recipes
  for update to authenticated using (user_id = auth.uid()) with check (
    user_id = auth.uid()
    and (parent_recipe_id is null
         or exists (select from public.recipes p where p.id = recipes.parent_recipe_id)));
create policy recipes_delete on public.recipes
  for delete to authenticated using (user_id = auth.uid());

-- recipe_ingredients: the recipe must be the user's too.
alter table public.recipe_ingredients enable row level security;
create policy recipe_ingredients_select on public.recipe_ingredients
  for select to authenticated using (user_id = auth.uid());
create policy recipe_ingredients_insert on public.recipe_ingredients
  for insert to authenticated with check (
    user_id = auth.uid()
    and exists (select from public.recipes r where r.id = recipe_ingredients.recipe_id));
create policy recipe_ingredients_update on public.recipe_ingredients
  for update to authenticated using (user_id = auth.uid()) with check (
    user_id = auth.uid()
    and exists (select from public.recipes r where r.id = recipe_ingredients.recipe_id));
create policy recipe_ingredients_delete on public.recipe_ingredients
  for delete to authenticated using (user_id = auth.uid());

-- meal_plans: recipe_id, when set, must be the user's recipe.
alter table public.meal_plans enable row level security;
create policy meal_plans_select on public.meal_plans
  for select to authenticated using (user_id = auth.uid());
create policy meal_plans_insert on public.meal_plans
  for insert to authenticated with check (
    user_id = auth.uid()
    and (recipe_id is null or exists (select from public.recipes r where r.id = meal_plans.recipe_id)));
create policy meal_plans_update on public.meal_plans
  for update to authenticated using (user_id = auth.uid()) with check (
    user_id = auth.uid()
    and (recipe_id is null or exists (select from public.recipes r where r.id = meal_plans.recipe_id)));
create policy meal_plans_delete on public.meal_plans
  for delete to authenticated using (user_id = auth.uid());

-- tasks: recipe_id and meal_plan_id, when set, must be the user's.
alter table public.tasks enable row level security;
create policy tasks_select on public.tasks
  for select to authenticated using (user_id = auth.uid());
create policy tasks_insert on public.tasks
  for insert to authenticated with check (
    user_id = auth.uid()
    and (recipe_id is null or exists (select from public.recipes r where r.id = tasks.recipe_id))
    and (meal_plan_id is null or exists (select from public.meal_plans m where m.id = tasks.meal_plan_id)));
create policy tasks_update on public.tasks
  for update to authenticated using (user_id = auth.uid()) with check (
    user_id = auth.uid()
    and (recipe_id is null or exists (select from public.recipes r where r.id = tasks.recipe_id))
    and (meal_plan_id is null or exists (select from public.meal_plans m where m.id = tasks.meal_plan_id)));
create policy tasks_delete on public.tasks
  for delete to authenticated using (user_id = auth.uid());

-- cooking_log: recipe_id and from_meal_plan_id, when set, must be the user's.
alter table public.cooking_log enable row level security;
create policy cooking_log_select on public.cooking_log
  for select to authenticated using (user_id = auth.uid());
create policy cooking_log_insert on public.cooking_log
  for insert to authenticated with check (
    user_id = auth.uid()
    and (recipe_id is null or exists (select from public.recipes r where r.id = cooking_log.recipe_id))
    and (from_meal_plan_id is null or exists (select from public.meal_plans m where m.id = cooking_log.from_meal_plan_id)));
create policy cooking_log_update on public.cooking_log
  for update to authenticated using (user_id = auth.uid()) with check (
    user_id = auth.uid()
    and (recipe_id is null or exists (select from public.recipes r where r.id = cooking_log.recipe_id))
    and (from_meal_plan_id is null or exists (select from public.meal_plans m where m.id = cooking_log.from_meal_plan_id)));
create policy cooking_log_delete on public.cooking_log
  for delete to authenticated using (user_id = auth.uid());

-- Tables with no references to other user-owned rows: owner only.
do $$
declare
  t text;
begin
  foreach t in array array['inventory', 'shopping_list', 'preferences'] loop
    execute format('alter table public.%I enable row level security', t);
    execute format('create policy %I on public.%I for select to authenticated using (user_id = auth.uid())', t || '_select', t);
    execute format('create policy %I on public.%I for insert to authenticated with check (user_id = auth.uid())', t || '_insert', t);
    execute format('create policy %I on public.%I for update to authenticated using (user_id = auth.uid()) with check (user_id = auth.uid())', t || '_update', t);
    execute format('create policy %I on public.%I for delete to authenticated using (user_id = auth.uid())', t || '_delete', t);
  end loop;
end
$$;
