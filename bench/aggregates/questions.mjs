// The aggregates benchmark's questions: what people ask about their data
// ("how many open tasks do I have?", "total deal amount per stage"), each as
// the one db_aggregate call a model would make, and the SQL that answers it.
// The SQL runs through PostgREST as the signed-in user (bench_truth,
// schemas.mjs), so row-level security decides what it counts exactly as it
// decides for the tool. Where each schema's stack comes from, which users
// ask and the rows added to thin demo data: schemas.mjs.
//
// A truth query names its columns as the tool names its result: the group
// columns, then one column per metric keyed `count`, `count_distinct_<field>`,
// `sum_<field>`, `avg_<field>`, `min_<field>`, `max_<field>`. Sums, averages
// and numeric minima are cast to text so decimals compare exactly; averages
// are rounded to 6 places as the tool rounds them. A `_<column>_label` column
// is compared with the label the tool gives a foreign-key group. Ordered
// questions list every group in order; the limit is applied when comparing,
// so that groups tied at the cut may come in either order.

const DAY_MS = 86_400_000;
/** The ISO date `days` from today (UTC): the packs' seeds date their rows from the day the stack starts. */
export const isoDay = (days, today = new Date()) => new Date(today.getTime() + days * DAY_MS).toISOString().slice(0, 10);
const IN_7_DAYS = isoDay(7);
const TODAY = isoDay(0);

/** A filter clause as the model writes it. */
export const where = (field, op, value = null) => ({ field, op, value });

/**
 * The questions: `{ id, schema, text, params, truth }`. `params` is the
 * db_aggregate call; `truth` the SQL whose rows are the answer.
 */
export const QUESTIONS = [
  // ── the kitchen demo ──────────────────────────────────────────────────
  {
    id: 'K1',
    schema: 'kitchen',
    text: 'How many open tasks do I have?',
    params: { table: 'tasks', filters: [where('completed', '=', false)], metrics: [{ fn: 'count' }] },
    truth: 'select count(*) as count from tasks where not completed',
  },
  {
    id: 'K2',
    schema: 'kitchen',
    text: 'How many tasks are there per category?',
    params: { table: 'tasks', group_by: ['category'], metrics: [{ fn: 'count' }] },
    truth: 'select category, count(*) as count from tasks group by category',
  },
  {
    id: 'K3',
    schema: 'kitchen',
    text: 'How many items are in each storage location?',
    params: { table: 'inventory', group_by: ['location'], metrics: [{ fn: 'count' }] },
    truth: 'select location, count(*) as count from inventory group by location',
  },
  {
    id: 'K4',
    schema: 'kitchen',
    text: 'The earliest expiry date per location',
    params: { table: 'inventory', group_by: ['location'], metrics: [{ fn: 'min', field: 'expiry_date' }] },
    truth: 'select location, min(expiry_date) as min_expiry_date from inventory group by location',
  },
  {
    id: 'K5',
    schema: 'kitchen',
    text: 'Count distinct units in my fridge',
    params: { table: 'inventory', filters: [where('location', '=', 'fridge')], metrics: [{ fn: 'count_distinct', field: 'unit' }] },
    truth: "select count(distinct unit) as count_distinct_unit from inventory where location = 'fridge'",
  },
  {
    id: 'K6',
    schema: 'kitchen',
    text: 'How many grams of food are in my fridge?',
    params: { table: 'inventory', filters: [where('location', '=', 'fridge'), where('unit', '=', 'g')], metrics: [{ fn: 'sum', field: 'quantity' }] },
    truth: "select sum(quantity)::text as sum_quantity from inventory where location = 'fridge' and unit = 'g'",
  },
  {
    id: 'K7',
    schema: 'kitchen',
    text: 'Categories with at least 2 items',
    params: { table: 'inventory', group_by: ['category'], metrics: [{ fn: 'count' }], having: [{ metric: 0, op: '>=', value: 2 }] },
    truth: 'select category, count(*) as count from inventory group by category having count(*) >= 2',
  },
  {
    id: 'K8',
    schema: 'kitchen',
    text: 'How much of my shopping list is bought, and how much is not?',
    params: { table: 'shopping_list', group_by: ['is_purchased'], metrics: [{ fn: 'count' }] },
    truth: 'select is_purchased, count(*) as count from shopping_list group by is_purchased',
  },
  {
    id: 'K9',
    schema: 'kitchen',
    text: 'The 3 recipes I plan the most servings of',
    params: { table: 'meal_plans', group_by: ['recipe_id'], metrics: [{ fn: 'sum', field: 'servings' }], order_by: { metric: 0, dir: 'desc' }, limit: 3 },
    truth: `select m.recipe_id, r.name as _recipe_id_label, sum(m.servings)::text as sum_servings
            from meal_plans m left join recipes r on r.id = m.recipe_id
            group by m.recipe_id, r.name order by sum(m.servings) desc nulls last`,
  },
  {
    id: 'K10',
    schema: 'kitchen',
    text: 'How many meals have I planned per day?',
    params: { table: 'meal_plans', group_by: ['date'], metrics: [{ fn: 'count' }] },
    truth: 'select date, count(*) as count from meal_plans group by date',
  },
  {
    id: 'K11',
    schema: 'kitchen',
    text: 'Average rating per recipe I cooked',
    params: { table: 'cooking_log', group_by: ['recipe_id'], metrics: [{ fn: 'avg', field: 'rating' }, { fn: 'count' }] },
    truth: `select c.recipe_id, r.name as _recipe_id_label, round(avg(c.rating), 6)::text as avg_rating, count(*) as count
            from cooking_log c left join recipes r on r.id = c.recipe_id group by c.recipe_id, r.name`,
  },
  {
    id: 'K12',
    schema: 'kitchen',
    text: 'How many times have I cooked?',
    params: { table: 'cooking_log', metrics: [{ fn: 'count' }] },
    truth: 'select count(*) as count from cooking_log',
  },
  {
    id: 'K13',
    schema: 'kitchen',
    text: 'Recipes per difficulty, with their average prep time',
    params: { table: 'recipes', group_by: ['difficulty'], metrics: [{ fn: 'count' }, { fn: 'avg', field: 'prep_time_minutes' }] },
    truth: 'select difficulty, count(*) as count, round(avg(prep_time_minutes), 6)::text as avg_prep_time_minutes from recipes group by difficulty',
  },
  {
    id: 'K14',
    schema: 'kitchen',
    text: 'Cuisines with more than one recipe, most recipes first, and their longest cook time',
    params: {
      table: 'recipes',
      group_by: ['cuisine'],
      metrics: [{ fn: 'count' }, { fn: 'max', field: 'cook_time_minutes' }],
      having: [{ metric: 0, op: '>', value: 1 }],
      order_by: { metric: 0, dir: 'desc' },
    },
    truth: `select cuisine, count(*) as count, max(cook_time_minutes)::text as max_cook_time_minutes
            from recipes group by cuisine having count(*) > 1 order by count(*) desc`,
  },
  {
    id: 'K15',
    schema: 'kitchen',
    text: 'How many items expire within a week or are in the freezer?',
    params: { table: 'inventory', or_filters: [where('expiry_date', '<=', IN_7_DAYS), where('location', '=', 'freezer')], metrics: [{ fn: 'count' }] },
    truth: `select count(*) as count from inventory where expiry_date <= '${IN_7_DAYS}' or location = 'freezer'`,
  },
  {
    id: 'K16',
    schema: 'kitchen',
    text: 'Meals planned this week, per meal type',
    params: { table: 'meal_plans', filters: [where('date', '>=', TODAY), where('date', '<', IN_7_DAYS)], group_by: ['meal_type'], metrics: [{ fn: 'count' }] },
    truth: `select meal_type, count(*) as count from meal_plans where date >= '${TODAY}' and date < '${IN_7_DAYS}' group by meal_type`,
  },
  {
    id: 'K17',
    schema: 'kitchen',
    text: 'The first recipe name, alphabetically, per difficulty',
    params: { table: 'recipes', group_by: ['difficulty'], metrics: [{ fn: 'min', field: 'name' }] },
    truth: 'select difficulty, min(name) as min_name from recipes group by difficulty',
  },

  {
    id: 'K18',
    schema: 'kitchen',
    text: 'How much lime and "oat milk, barista edition" is on my shopping list?',
    params: {
      table: 'shopping_list',
      filters: [where('name', 'in', ['lime', 'oat milk, barista edition'])],
      group_by: ['unit'],
      metrics: [{ fn: 'count' }, { fn: 'sum', field: 'quantity' }],
    },
    truth: "select unit, count(*) as count, sum(quantity)::text as sum_quantity from shopping_list where name in ('lime', 'oat milk, barista edition') group by unit",
  },

  // ── the CRM pack ──────────────────────────────────────────────────────
  {
    id: 'C1',
    schema: 'crm',
    text: 'Total deal amount per stage',
    params: { table: 'deals', group_by: ['stage'], metrics: [{ fn: 'sum', field: 'amount' }] },
    truth: 'select stage, sum(amount)::text as sum_amount from deals group by stage',
  },
  {
    id: 'C2',
    schema: 'crm',
    text: 'Top 3 organizations by number of deals',
    params: { table: 'deals', group_by: ['organization_id'], metrics: [{ fn: 'count' }], order_by: { metric: 0, dir: 'desc' }, limit: 3 },
    truth: `select d.organization_id, o.name as _organization_id_label, count(*) as count
            from deals d join organizations o on o.id = d.organization_id group by d.organization_id, o.name order by count(*) desc`,
  },
  {
    id: 'C3',
    schema: 'crm',
    text: 'How many open tasks do I have?',
    params: { table: 'tasks', filters: [where('status', '=', 'open')], metrics: [{ fn: 'count' }] },
    truth: "select count(*) as count from tasks where status = 'open'",
  },
  {
    id: 'C4',
    schema: 'crm',
    text: 'How many tasks per status?',
    params: { table: 'tasks', group_by: ['status'], metrics: [{ fn: 'count' }] },
    truth: 'select status, count(*) as count from tasks group by status',
  },
  {
    id: 'C5',
    schema: 'crm',
    text: 'Average deal amount per stage, for stages with at least 5 deals',
    params: { table: 'deals', group_by: ['stage'], metrics: [{ fn: 'avg', field: 'amount' }, { fn: 'count' }], having: [{ metric: 1, op: '>=', value: 5 }] },
    truth: 'select stage, round(avg(amount), 6)::text as avg_amount, count(*) as count from deals group by stage having count(*) >= 5',
  },
  {
    id: 'C6',
    schema: 'crm',
    text: 'The largest deal per organization, largest first',
    params: { table: 'deals', group_by: ['organization_id'], metrics: [{ fn: 'max', field: 'amount' }], order_by: { metric: 0, dir: 'desc' } },
    truth: `select d.organization_id, o.name as _organization_id_label, max(d.amount)::text as max_amount
            from deals d join organizations o on o.id = d.organization_id group by d.organization_id, o.name order by max(d.amount) desc nulls last`,
  },
  {
    id: 'C7',
    schema: 'crm',
    text: 'The value and size of my open pipeline (not archived, neither won nor lost)',
    params: {
      table: 'deals',
      filters: [where('is_archived', '=', false), where('stage', 'not_in', ['won', 'lost'])],
      metrics: [{ fn: 'sum', field: 'amount' }, { fn: 'count' }],
    },
    truth: "select sum(amount)::text as sum_amount, count(*) as count from deals where not is_archived and stage not in ('won', 'lost')",
  },
  {
    id: 'C8',
    schema: 'crm',
    text: 'Archived and active deals: how many, and their total',
    params: { table: 'deals', group_by: ['is_archived'], metrics: [{ fn: 'count' }, { fn: 'sum', field: 'amount' }] },
    truth: 'select is_archived, count(*) as count, sum(amount)::text as sum_amount from deals group by is_archived',
  },
  {
    id: 'C9',
    schema: 'crm',
    text: 'The earliest expected close date per stage',
    params: { table: 'deals', group_by: ['stage'], metrics: [{ fn: 'min', field: 'expected_close_on' }] },
    truth: 'select stage, min(expected_close_on) as min_expected_close_on from deals group by stage',
  },
  {
    id: 'C10',
    schema: 'crm',
    text: 'How many different organizations have deals in proposal or negotiation?',
    params: { table: 'deals', filters: [where('stage', 'in', ['proposal', 'negotiation'])], metrics: [{ fn: 'count_distinct', field: 'organization_id' }] },
    truth: "select count(distinct organization_id) as count_distinct_organization_id from deals where stage in ('proposal', 'negotiation')",
  },
  {
    id: 'C11',
    schema: 'crm',
    text: 'Days on which at least 2 deals are expected to close',
    params: { table: 'deals', group_by: ['expected_close_on'], metrics: [{ fn: 'count' }], having: [{ metric: 0, op: '>=', value: 2 }] },
    truth: 'select expected_close_on, count(*) as count from deals group by expected_close_on having count(*) >= 2',
  },
  {
    id: 'C12',
    schema: 'crm',
    text: 'Contacts per organization',
    params: { table: 'contacts', group_by: ['organization_id'], metrics: [{ fn: 'count' }] },
    truth: `select c.organization_id, o.name as _organization_id_label, count(*) as count
            from contacts c left join organizations o on o.id = c.organization_id group by c.organization_id, o.name`,
  },
  {
    id: 'C13',
    schema: 'crm',
    text: 'Deals that are leads or qualified, or worth more than 80,000: how many, and their total',
    params: {
      table: 'deals',
      or_filters: [where('stage', 'in', ['lead', 'qualified']), where('amount', '>', 80000)],
      metrics: [{ fn: 'count' }, { fn: 'sum', field: 'amount' }],
    },
    truth: "select count(*) as count, sum(amount)::text as sum_amount from deals where stage in ('lead', 'qualified') or amount > 80000",
  },
  {
    id: 'C14',
    schema: 'crm',
    text: 'Organizations per industry, with their total head count',
    params: { table: 'organizations', group_by: ['industry'], metrics: [{ fn: 'count' }, { fn: 'sum', field: 'employee_count' }] },
    truth: 'select industry, count(*) as count, sum(employee_count)::text as sum_employee_count from organizations group by industry',
  },
  {
    id: 'C15',
    schema: 'crm',
    text: 'How many activities have I logged?',
    params: { table: 'activity_log', metrics: [{ fn: 'count' }] },
    truth: 'select count(*) as count from activity_log',
  },
  {
    id: 'C16',
    schema: 'crm',
    text: 'When did I log my first and my last activity?',
    params: { table: 'activity_log', metrics: [{ fn: 'min', field: 'happened_at' }, { fn: 'max', field: 'happened_at' }] },
    truth: 'select min(happened_at) as min_happened_at, max(happened_at) as max_happened_at from activity_log',
  },
  {
    id: 'C17',
    schema: 'crm',
    text: 'Won deals: how many, their total and their average',
    params: { table: 'deals', filters: [where('stage', '=', 'won')], metrics: [{ fn: 'count' }, { fn: 'sum', field: 'amount' }, { fn: 'avg', field: 'amount' }] },
    truth: "select count(*) as count, sum(amount)::text as sum_amount, round(avg(amount), 6)::text as avg_amount from deals where stage = 'won'",
  },

  {
    id: 'C18',
    schema: 'crm',
    text: 'Deals worth more than 100 million: how many, their total, average and latest close date',
    params: {
      table: 'deals',
      filters: [where('amount', '>', 100000000)],
      metrics: [{ fn: 'count' }, { fn: 'sum', field: 'amount' }, { fn: 'avg', field: 'amount' }, { fn: 'max', field: 'expected_close_on' }],
    },
    truth: `select count(*) as count, sum(amount)::text as sum_amount, round(avg(amount), 6)::text as avg_amount,
            max(expected_close_on) as max_expected_close_on from deals where amount > 100000000`,
  },
  {
    id: 'C19',
    schema: 'crm',
    text: 'Stages with deals at 2 or more organizations, most organizations first',
    params: {
      table: 'deals',
      group_by: ['stage'],
      metrics: [{ fn: 'count' }, { fn: 'count_distinct', field: 'organization_id' }],
      having: [{ metric: 1, op: '>=', value: 2 }],
      order_by: { metric: 1, dir: 'desc' },
    },
    truth: `select stage, count(*) as count, count(distinct organization_id) as count_distinct_organization_id
            from deals group by stage having count(distinct organization_id) >= 2 order by count(distinct organization_id) desc`,
  },
  {
    id: 'C20',
    schema: 'crm',
    text: 'Stages whose deals total more than 150,000.50, largest total first',
    params: {
      table: 'deals',
      group_by: ['stage'],
      metrics: [{ fn: 'sum', field: 'amount' }],
      having: [{ metric: 0, op: '>', value: 150000.5 }],
      order_by: { metric: 0, dir: 'desc' },
    },
    truth: 'select stage, sum(amount)::text as sum_amount from deals group by stage having sum(amount) > 150000.50 order by sum(amount) desc',
  },

  // ── letsrunit (a basejump team app) ───────────────────────────────────
  {
    id: 'L1',
    schema: 'letsrunit',
    text: 'How many runs failed?',
    params: { table: 'runs', filters: [where('status', '=', 'failed')], metrics: [{ fn: 'count' }] },
    truth: "select count(*) as count from runs where status = 'failed'",
  },
  {
    id: 'L2',
    schema: 'letsrunit',
    text: 'How many runs per status?',
    params: { table: 'runs', group_by: ['status'], metrics: [{ fn: 'count' }] },
    truth: 'select status, count(*) as count from runs group by status',
  },
  {
    id: 'L3',
    schema: 'letsrunit',
    text: 'Runs per project, most first',
    params: { table: 'runs', group_by: ['project_id'], metrics: [{ fn: 'count' }], order_by: { metric: 0, dir: 'desc' } },
    truth: `select r.project_id, p.name as _project_id_label, count(*) as count
            from runs r join projects p on p.id = r.project_id group by r.project_id, p.name order by count(*) desc`,
  },
  {
    id: 'L4',
    schema: 'letsrunit',
    text: 'The 2 projects with the most failed or errored runs',
    params: {
      table: 'runs',
      filters: [where('status', 'in', ['failed', 'error'])],
      group_by: ['project_id'],
      metrics: [{ fn: 'count' }],
      order_by: { metric: 0, dir: 'desc' },
      limit: 2,
    },
    truth: `select r.project_id, p.name as _project_id_label, count(*) as count
            from runs r join projects p on p.id = r.project_id where r.status in ('failed', 'error')
            group by r.project_id, p.name order by count(*) desc`,
  },
  {
    id: 'L5',
    schema: 'letsrunit',
    text: 'When did the latest run of each type start?',
    params: { table: 'runs', group_by: ['type'], metrics: [{ fn: 'max', field: 'started_at' }] },
    truth: 'select type, max(started_at) as max_started_at from runs group by type',
  },
  {
    id: 'L6',
    schema: 'letsrunit',
    text: 'When did the first run start, and how many runs have started?',
    params: { table: 'runs', metrics: [{ fn: 'min', field: 'started_at' }, { fn: 'count', field: 'started_at' }] },
    truth: 'select min(started_at) as min_started_at, count(started_at) as count_started_at from runs',
  },
  {
    id: 'L7',
    schema: 'letsrunit',
    text: 'How many features are enabled, and how many are not?',
    params: { table: 'features', group_by: ['enabled'], metrics: [{ fn: 'count' }] },
    truth: 'select enabled, count(*) as count from features group by enabled',
  },
  {
    id: 'L8',
    schema: 'letsrunit',
    text: 'How many different targets were tested per project?',
    params: { table: 'runs', filters: [where('type', '=', 'test')], group_by: ['project_id'], metrics: [{ fn: 'count_distinct', field: 'target' }] },
    truth: `select r.project_id, p.name as _project_id_label, count(distinct r.target) as count_distinct_target
            from runs r join projects p on p.id = r.project_id where r.type = 'test' group by r.project_id, p.name`,
  },
  {
    id: 'L9',
    schema: 'letsrunit',
    text: 'How many projects are public, and how many private?',
    params: { table: 'projects', group_by: ['visibility'], metrics: [{ fn: 'count' }] },
    truth: 'select visibility, count(*) as count from projects group by visibility',
  },
  {
    id: 'L10',
    schema: 'letsrunit',
    text: 'Journal entry types with at least 4 entries',
    params: { table: 'journal_entries', group_by: ['type'], metrics: [{ fn: 'count' }], having: [{ metric: 0, op: '>=', value: 4 }] },
    truth: 'select type, count(*) as count from journal_entries group by type having count(*) >= 4',
  },
  {
    id: 'L11',
    schema: 'letsrunit',
    text: 'How many runs are queued or running, or never started?',
    params: { table: 'runs', or_filters: [where('status', 'in', ['queued', 'running']), where('started_at', 'is_null')], metrics: [{ fn: 'count' }] },
    truth: "select count(*) as count from runs where status in ('queued', 'running') or started_at is null",
  },
  {
    id: 'L12',
    schema: 'letsrunit',
    text: 'Features per path, for enabled features',
    params: { table: 'features', filters: [where('enabled', '=', true)], group_by: ['path'], metrics: [{ fn: 'count' }] },
    truth: 'select path, count(*) as count from features where enabled group by path',
  },
  {
    id: 'L13',
    schema: 'letsrunit',
    text: 'Runs per type and status',
    params: { table: 'runs', group_by: ['type', 'status'], metrics: [{ fn: 'count' }] },
    truth: 'select type, status, count(*) as count from runs group by type, status',
  },

  {
    id: 'L14',
    schema: 'letsrunit',
    text: 'Runs per project and status',
    params: { table: 'runs', group_by: ['project_id', 'status'], metrics: [{ fn: 'count' }] },
    truth: `select r.project_id, p.name as _project_id_label, r.status, count(*) as count
            from runs r join projects p on p.id = r.project_id group by r.project_id, p.name, r.status`,
  },
  {
    id: 'L15',
    schema: 'letsrunit',
    text: 'How many projects have a login, how many not, and how many are unknown?',
    params: { table: 'projects', group_by: ['login_available'], metrics: [{ fn: 'count' }], count: 'exact' },
    truth: 'select login_available, count(*) as count from projects group by login_available',
  },
  {
    id: 'L16',
    schema: 'letsrunit',
    text: 'The 2 projects whose first run started earliest, with their runs and distinct targets',
    params: {
      table: 'runs',
      group_by: ['project_id'],
      metrics: [{ fn: 'min', field: 'started_at' }, { fn: 'count' }, { fn: 'count_distinct', field: 'target' }],
      order_by: { metric: 0, dir: 'asc' },
      limit: 2,
    },
    truth: `select r.project_id, p.name as _project_id_label, min(r.started_at) as min_started_at, count(*) as count,
            count(distinct r.target) as count_distinct_target
            from runs r join projects p on p.id = r.project_id group by r.project_id, p.name order by min(r.started_at) asc nulls last`,
  },

  // ── Chatbot UI ────────────────────────────────────────────────────────
  {
    id: 'U1',
    schema: 'chatbot-ui',
    text: 'How many files can I see?',
    params: { table: 'files', metrics: [{ fn: 'count' }] },
    truth: 'select count(*) as count from files',
  },
  {
    id: 'U2',
    schema: 'chatbot-ui',
    text: 'Files per type, with their total size',
    params: { table: 'files', group_by: ['type'], metrics: [{ fn: 'count' }, { fn: 'sum', field: 'size' }] },
    truth: 'select type, count(*) as count, sum(size)::text as sum_size from files group by type',
  },
  {
    id: 'U3',
    schema: 'chatbot-ui',
    text: 'The 5 files with the most tokens in their items',
    params: { table: 'file_items', group_by: ['file_id'], metrics: [{ fn: 'sum', field: 'tokens' }], order_by: { metric: 0, dir: 'desc' }, limit: 5 },
    truth: `select i.file_id, f.name as _file_id_label, sum(i.tokens)::text as sum_tokens
            from file_items i left join files f on f.id = i.file_id group by i.file_id, f.name order by sum(i.tokens) desc`,
  },
  {
    id: 'U4',
    schema: 'chatbot-ui',
    text: 'How many files are shared, and how many private?',
    params: { table: 'files', group_by: ['sharing'], metrics: [{ fn: 'count' }] },
    truth: 'select sharing, count(*) as count from files group by sharing',
  },
  {
    id: 'U5',
    schema: 'chatbot-ui',
    text: 'Average item size in tokens per file, for files with at least 3 items',
    params: { table: 'file_items', group_by: ['file_id'], metrics: [{ fn: 'avg', field: 'tokens' }, { fn: 'count' }], having: [{ metric: 1, op: '>=', value: 3 }] },
    truth: `select i.file_id, f.name as _file_id_label, round(avg(i.tokens), 6)::text as avg_tokens, count(*) as count
            from file_items i left join files f on f.id = i.file_id group by i.file_id, f.name having count(*) >= 3`,
  },
  {
    id: 'U6',
    schema: 'chatbot-ui',
    text: 'How many chats per model?',
    params: { table: 'chats', group_by: ['model'], metrics: [{ fn: 'count' }] },
    truth: 'select model, count(*) as count from chats group by model',
  },
  {
    id: 'U7',
    schema: 'chatbot-ui',
    text: 'How many messages per role?',
    params: { table: 'messages', group_by: ['role'], metrics: [{ fn: 'count' }] },
    truth: 'select role, count(*) as count from messages group by role',
  },
  {
    id: 'U8',
    schema: 'chatbot-ui',
    text: 'The 3 chats with the most messages',
    params: { table: 'messages', group_by: ['chat_id'], metrics: [{ fn: 'count' }], order_by: { metric: 0, dir: 'desc' }, limit: 3 },
    truth: `select m.chat_id, c.name as _chat_id_label, count(*) as count
            from messages m left join chats c on c.id = m.chat_id group by m.chat_id, c.name order by count(*) desc`,
  },
  {
    id: 'U9',
    schema: 'chatbot-ui',
    text: 'PDFs or files over 1 MB: how many, and the largest size',
    params: { table: 'files', or_filters: [where('type', '=', 'pdf'), where('size', '>', 1000000)], metrics: [{ fn: 'count' }, { fn: 'max', field: 'size' }] },
    truth: "select count(*) as count, max(size)::text as max_size from files where type = 'pdf' or size > 1000000",
  },
  {
    id: 'U10',
    schema: 'chatbot-ui',
    text: 'How many different models answered in my chats?',
    params: { table: 'messages', filters: [where('role', '=', 'assistant')], metrics: [{ fn: 'count_distinct', field: 'model' }] },
    truth: "select count(distinct model) as count_distinct_model from messages where role = 'assistant'",
  },
  {
    id: 'U11',
    schema: 'chatbot-ui',
    text: 'How many chats include my profile context, and how many do not?',
    params: { table: 'chats', group_by: ['include_profile_context'], metrics: [{ fn: 'count' }] },
    truth: 'select include_profile_context, count(*) as count from chats group by include_profile_context',
  },
  {
    id: 'U12',
    schema: 'chatbot-ui',
    text: 'The latest message per chat',
    params: { table: 'messages', group_by: ['chat_id'], metrics: [{ fn: 'max', field: 'created_at' }] },
    truth: `select m.chat_id, c.name as _chat_id_label, max(m.created_at) as max_created_at
            from messages m left join chats c on c.id = m.chat_id group by m.chat_id, c.name`,
  },
  {
    id: 'U13',
    schema: 'chatbot-ui',
    text: 'Files named like "file 1…": total tokens and smallest size',
    params: { table: 'files', filters: [where('name', 'ilike', '%file 1%')], metrics: [{ fn: 'sum', field: 'tokens' }, { fn: 'min', field: 'size' }] },
    truth: "select sum(tokens)::text as sum_tokens, min(size)::text as min_size from files where name ilike '%file 1%'",
  },
  {
    id: 'U14',
    schema: 'chatbot-ui',
    text: 'Chats per model, with and without my profile context',
    params: { table: 'chats', group_by: ['model', 'include_profile_context'], metrics: [{ fn: 'count' }] },
    truth: 'select model, include_profile_context, count(*) as count from chats group by model, include_profile_context',
  },
];

/** The questions of one schema. */
export const questionsOf = (schema) => QUESTIONS.filter((question) => question.schema === schema);

/** The metric keys of a call, as the tool names them in its rows. */
export const metricKeys = (params) => params.metrics.map((m) => (m.field ? `${m.fn}_${m.field}` : m.fn));

/** Whether a question asks only for counts of rows (no field, no distinct). */
export const countsRowsOnly = (params) => params.metrics.every((m) => m.fn === 'count' && !m.field);
