// The aggregates benchmark's schemas: the kitchen demo, the CRM pack, and
// two published apps whose schemas this project did not design (letsrunit, a
// basejump team app, and Chatbot UI): how each stack starts, the domain the
// act uses, the two users who ask, and the rows each schema's `sql` adds, as
// postgres at start, where its demo data is thin. Every stack also gets
// bench_truth, the function the ground truth runs through.
import { SEED_USERS } from '../../db/seed/ids.mjs';

/**
 * The function the ground truth runs through: the caller's SQL, run with the
 * caller's rights (RLS applies), its rows as one JSON array. Installed by
 * startStack({ sql }) on the benchmark's stacks only; the domain never
 * offers it to a model.
 */
export const BENCH_TRUTH_SQL = `
create or replace function public.bench_truth(query text) returns jsonb
language plpgsql volatile security invoker as $$
declare
  answer jsonb;
begin
  execute format('select coalesce(jsonb_agg(t), ''[]''::jsonb) from (%s) t', query) into answer;
  return answer;
end
$$;
revoke execute on function public.bench_truth(text) from public, anon;
grant execute on function public.bench_truth(text) to authenticated;
`;

// The two demo users of the kitchen and CRM packs.
const [ADA, BEN] = SEED_USERS.map((user) => user.id);

// Ada cooks a lot: 1,100 log entries, more than the 1,000 rows the tool
// computes from when the server does not aggregate. Ben logs 40. A few
// fractional quantities make sums that binary floats get wrong.
const KITCHEN_SQL = `
insert into public.cooking_log (user_id, recipe_id, cooked_at, servings, rating)
select owner.id, recipe.id, now() - g * interval '5 hours', 1 + g % 4, 1 + (g * 7 + g / 3) % 5
from (values ('${ADA}'::uuid, 1100), ('${BEN}'::uuid, 40)) as owner(id, entries)
cross join lateral generate_series(1, owner.entries) as g
join lateral (
  select id from public.recipes where user_id = owner.id order by name offset g % (select count(*) from public.recipes where user_id = owner.id) limit 1
) as recipe on true;

insert into public.inventory (user_id, name, quantity, unit, location, category, expiry_date) values
  ('${ADA}', 'saffron', 0.1, 'g', 'fridge', 'spices', current_date + 200),
  ('${ADA}', 'vanilla bean', 0.2, 'g', 'fridge', 'baking', current_date + 90),
  ('${ADA}', 'yeast', 7.05, 'g', 'fridge', 'baking', current_date + 8),
  ('${BEN}', 'chili flakes', 0.35, 'g', 'fridge', 'spices', current_date + 100),
  ('${BEN}', 'sesame seeds', 0.7, 'g', 'pantry', 'spices', current_date + 150),
  ('${BEN}', 'nori', 0.3, 'g', 'pantry', null, null);
`;

// More deals (with cents, a few without an amount), tasks and, for Ada,
// 1,200 activity entries: over the bound again.
const CRM_SQL = `
insert into public.deals (owner_id, organization_id, title, stage, amount, probability, expected_close_on, is_archived)
select owner.id, org.id, 'Bench deal ' || g,
  (array['lead', 'qualified', 'proposal', 'negotiation', 'won', 'lost'])[1 + (g * 5) % 6]::public.deal_stage,
  case when g % 11 = 0 then null else ((g * 104729) % 9000000) / 100.0 + (g % 3) * 0.10 end,
  (g * 13) % 101, current_date + (g % 17), g % 7 = 0
from (values ('${ADA}'::uuid, 60), ('${BEN}'::uuid, 25)) as owner(id, deals)
cross join lateral generate_series(1, owner.deals) as g
join lateral (
  select id from public.organizations where owner_id = owner.id order by name offset (g * g) % (select count(*) from public.organizations where owner_id = owner.id) limit 1
) as org on true;

insert into public.tasks (owner_id, title, status, due_at)
select owner.id, 'Bench task ' || g, (array['open', 'in_progress', 'done', 'cancelled'])[1 + (g * 3) % 4]::public.task_status,
  case when g % 5 = 0 then null else now() + (g - 10) * interval '1 day' end
from (values ('${ADA}'::uuid, 30), ('${BEN}'::uuid, 12)) as owner(id, tasks)
cross join lateral generate_series(1, owner.tasks) as g;

insert into public.activity_log (owner_id, happened_at, summary)
select owner.id, now() - g * interval '37 minutes', 'Bench activity ' || g
from (values ('${ADA}'::uuid, 1200), ('${BEN}'::uuid, 9)) as owner(id, entries)
cross join lateral generate_series(1, owner.entries) as g;
`;

// Runs, features and journal entries under the four seeded projects: Ada's
// notebook, Ben's shop, Ben's public blog and the Acme team's storefront.
const LETSRUNIT_SQL = `
insert into public.runs (project_id, type, target, status, started_at, finished_at)
select project.id, (array['explore', 'generate', 'test'])[1 + g % 3]::public.run_type,
  project.url || '/page-' || (g % 4),
  (array['queued', 'running', 'passed', 'failed', 'error', 'passed', 'failed'])[1 + (g * 3) % 7]::public.run_status,
  case when (g * 3) % 7 = 0 then null else now() - (g * 97 + length(project.name)) * interval '1 minute' end,
  null
from (values ('00000000-0000-4000-8000-0000000000a1'::uuid, 25), ('00000000-0000-4000-8000-0000000000b1'::uuid, 18),
             ('00000000-0000-4000-8000-0000000000b2'::uuid, 12), ('00000000-0000-4000-8000-0000000000c1'::uuid, 30)) as runs(project_id, n)
join public.projects as project on project.id = runs.project_id
cross join lateral generate_series(1, runs.n) as g;

insert into public.features (project_id, name, path, enabled)
select project_id, 'Bench feature ' || g, (array['/', '/login', '/cart', '/search'])[1 + g % 4], g % 3 <> 0
from (values ('00000000-0000-4000-8000-0000000000a1'::uuid, 4), ('00000000-0000-4000-8000-0000000000b1'::uuid, 3),
             ('00000000-0000-4000-8000-0000000000b2'::uuid, 2), ('00000000-0000-4000-8000-0000000000c1'::uuid, 5)) as features(project_id, n)
cross join lateral generate_series(1, features.n) as g;

insert into public.journal_entries (run_id, type, message)
select run.id, (array['debug', 'info', 'title', 'warn', 'error', 'prepare', 'start', 'success', 'failure'])[1 + (g + run.n) % 9]::public.journal_entry_type,
  'step ' || g
from (select id, row_number() over (order by project_id, target, started_at nulls first, id) as n from public.runs) as run
cross join lateral generate_series(1, (run.n % 4)::int) as g;
`;

const CHATBOT_TESTER = 'e9fc7e46-a8a5-4fd4-8ba7-af485013e6fa';
const CHATBOT_BEN = '0b0b0b0b-0000-4000-8000-00000000000b';

// Files (some shared), their items, chats in each user's Home workspace
// (some shared) and messages in them.
const CHATBOT_SQL = `
insert into public.files (user_id, name, description, file_path, size, tokens, type, sharing)
select owner.id, owner.prefix || ' file ' || g, 'bench', owner.id || '/bench-' || g,
  (g * 7919) % 2000000 + 1000, (g * 37) % 900 + 10,
  (array['pdf', 'text/plain', 'text/markdown', 'docx'])[1 + (g * 3) % 4],
  case when g % 4 = 0 then 'public' else 'private' end
from (values ('${CHATBOT_TESTER}'::uuid, 'Tester', 20), ('${CHATBOT_BEN}'::uuid, 'Ben', 14)) as owner(id, prefix, files)
cross join lateral generate_series(1, owner.files) as g;

insert into public.file_items (file_id, user_id, content, tokens, sharing)
select file.id, file.user_id, 'chunk ' || g || ' of ' || file.name, (g * 53 + file.tokens) % 400 + 5, file.sharing
from public.files as file
cross join lateral generate_series(1, (file.tokens % 5)::int) as g
where file.description = 'bench';

insert into public.chats (user_id, workspace_id, name, model, prompt, temperature, context_length, embeddings_provider,
  include_profile_context, include_workspace_instructions, sharing)
select owner.id, home.id, 'Bench chat ' || g, (array['gpt-4-turbo-preview', 'gpt-3.5-turbo', 'claude-3-opus'])[1 + (g * 2) % 3],
  'You are a helpful assistant.', 0.5, 4096, 'openai', g % 2 = 0, true, case when g % 5 = 0 then 'public' else 'private' end
from (values ('${CHATBOT_TESTER}'::uuid, 9), ('${CHATBOT_BEN}'::uuid, 6)) as owner(id, chats)
join public.workspaces as home on home.user_id = owner.id and home.is_home
cross join lateral generate_series(1, owner.chats) as g;

insert into public.messages (chat_id, user_id, content, image_paths, model, role, sequence_number, created_at)
select chat.id, chat.user_id, 'message ' || g, '{}', chat.model, case when g % 2 = 1 then 'user' else 'assistant' end, g,
  now() - (100 - g) * interval '1 minute' - length(chat.name) * interval '1 second'
from public.chats as chat
cross join lateral generate_series(1, (length(chat.name) * 7) % 9 + 1) as g;
`;

/**
 * The schemas, each with how its stack starts, which users ask, and the
 * domain the act uses: a pack's committed domain.json, or pulled from the
 * running app as `domain pull` does.
 */
export const SCHEMAS = [
  {
    name: 'kitchen',
    stack: { schema: 'kitchen' },
    domain: { pack: 'kitchen' },
    users: [
      { name: 'ada', email: 'ada@example.com' },
      { name: 'ben', email: 'ben@example.com' },
    ],
    sql: KITCHEN_SQL,
  },
  {
    name: 'crm',
    stack: { schema: 'crm' },
    domain: { pack: 'crm' },
    users: [
      { name: 'ada', email: 'ada@example.com' },
      { name: 'ben', email: 'ben@example.com' },
    ],
    sql: CRM_SQL,
  },
  {
    name: 'letsrunit',
    stack: {
      app: 'letsrunit',
      seeds: ['seed.sql', 'seed-member-writes.sql'],
      users: [
        { email: 'ada@example.com', password: 'ada-password' },
        { email: 'ben@example.com', password: 'ben-password' },
      ],
    },
    domain: { pull: true },
    users: [
      { name: 'ada', email: 'ada@example.com' },
      { name: 'ben', email: 'ben@example.com' },
    ],
    sql: LETSRUNIT_SQL,
  },
  {
    name: 'chatbot-ui',
    stack: { app: 'chatbot-ui', seeds: ['seed.sql', 'seed-file-items.sql'], users: [{ email: 'ben@example.com', password: 'ben-password' }] },
    domain: { pull: true },
    users: [
      { name: 'tester', email: 'test@test.com' },
      { name: 'ben', email: 'ben@example.com' },
    ],
    sql: CHATBOT_SQL,
  },
];
