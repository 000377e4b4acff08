-- The kitchen tables: the columns of core/domains/kitchen.json, with their
-- types, defaults, checks and foreign keys. recipes.parent_recipe_id is
-- ON DELETE SET NULL, so deleting a recipe keeps its variants (with NO ACTION
-- the delete would fail with 23503).
-- user_id defaults to the caller, so an insert may leave it out; RLS (003)
-- still checks it.

-- Shared ingredient catalog: not user-owned, read-only through the API.
create table public.ingredients (
  id uuid primary key default gen_random_uuid(),
  name text not null unique,
  aliases text[] not null default '{}',
  category text,
  default_unit text,
  nutrition_per_100g jsonb,
  flavor_compounds text[],
  embedding extensions.vector(1536),
  is_system boolean not null default true,
  created_at timestamptz not null default now(),
  parent_category text not null default 'pantry'
    check (parent_category in ('produce', 'protein', 'dairy', 'grains', 'pantry', 'spices', 'baking', 'specialty')),
  family text not null,
  cuisines text[] not null default '{}',
  tier integer not null default 2 check (tier in (1, 2, 3))
);

create table public.recipes (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  name text not null,
  description text,
  cuisine text,
  difficulty text,
  prep_time_minutes integer,
  cook_time_minutes integer,
  servings integer,
  instructions text[] not null,
  tags text[] not null default '{}',
  source_url text,
  embedding extensions.vector(1536),
  is_system boolean not null default false,
  created_at timestamptz not null default now(),
  parent_recipe_id uuid references public.recipes (id) on delete set null,
  occasions text[],
  health_tags text[],
  flavor_tags text[]
    check (flavor_tags <@ array['spicy', 'mild', 'savory', 'sweet', 'tangy', 'rich', 'light', 'umami', 'other']),
  equipment_tags text[]
);
create index recipes_user_id on public.recipes (user_id);
create index recipes_parent_recipe_id on public.recipes (parent_recipe_id);

create table public.recipe_ingredients (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  recipe_id uuid not null references public.recipes (id) on delete cascade,
  ingredient_id uuid references public.ingredients (id),
  name text not null,
  quantity numeric,
  unit text,
  notes text,
  is_optional boolean not null default false,
  category text
);
create index recipe_ingredients_recipe_id on public.recipe_ingredients (recipe_id);
create index recipe_ingredients_user_id on public.recipe_ingredients (user_id);

create table public.inventory (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  ingredient_id uuid references public.ingredients (id),
  name text not null,
  quantity numeric not null,
  unit text not null,
  location text,
  category text,
  notes text,
  expiry_date date,
  purchase_date date,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index inventory_user_id on public.inventory (user_id);

create table public.shopping_list (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  ingredient_id uuid references public.ingredients (id),
  name text not null,
  quantity numeric,
  unit text,
  category text,
  is_purchased boolean not null default false,
  source text,
  notes text,
  created_at timestamptz not null default now()
);
create index shopping_list_user_id on public.shopping_list (user_id);

create table public.meal_plans (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  date date not null,
  meal_type text not null check (meal_type in ('breakfast', 'lunch', 'dinner', 'snack', 'other')),
  recipe_id uuid references public.recipes (id) on delete set null,
  notes text,
  servings integer not null default 1,
  created_at timestamptz not null default now()
);
create index meal_plans_user_id on public.meal_plans (user_id);
create index meal_plans_recipe_id on public.meal_plans (recipe_id);

create table public.tasks (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  title text not null,
  due_date date,
  category text check (category in ('prep', 'shopping', 'cleanup', 'other')),
  completed boolean not null default false,
  recipe_id uuid references public.recipes (id) on delete set null,
  meal_plan_id uuid references public.meal_plans (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index tasks_user_id on public.tasks (user_id);
create index tasks_recipe_id on public.tasks (recipe_id);
create index tasks_meal_plan_id on public.tasks (meal_plan_id);

-- One row per user.
create table public.preferences (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null unique default auth.uid() references auth.users (id) on delete cascade,
  dietary_restrictions text[],
  allergies text[],
  favorite_cuisines text[],
  disliked_ingredients text[],
  cooking_skill_level text default 'intermediate',
  household_adults integer default 1,
  household_kids integer default 0,
  household_babies integer default 0,
  nutrition_goals text[],
  cooking_frequency text,
  available_equipment text[],
  time_budget_minutes integer default 30,
  preferred_complexity text default 'moderate',
  planning_rhythm text[],
  current_vibes text[],
  subdomain_guidance jsonb default '{}',
  assumed_staples uuid[],
  updated_at timestamptz not null default now()
);

create table public.cooking_log (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  recipe_id uuid references public.recipes (id) on delete set null,
  cooked_at timestamptz not null default now(),
  servings integer,
  rating integer check (rating between 1 and 5),
  notes text,
  from_meal_plan_id uuid references public.meal_plans (id) on delete set null,
  created_at timestamptz not null default now()
);
create index cooking_log_user_id on public.cooking_log (user_id);
create index cooking_log_recipe_id on public.cooking_log (recipe_id);
create index cooking_log_from_meal_plan_id on public.cooking_log (from_meal_plan_id);

-- updated_at follows every update. The function lives outside public so
-- PostgREST does not list it.
create schema if not exists private;
create function private.touch_updated_at() returns trigger
language plpgsql
as $$
begin
  new.updated_at := now();
  return new;
end
$$;
create trigger inventory_updated_at before update on public.inventory
  for each row execute function private.touch_updated_at();
create trigger tasks_updated_at before update on public.tasks
  for each row execute function private.touch_updated_at();
create trigger preferences_updated_at before update on public.preferences
  for each row execute function private.touch_updated_at();
