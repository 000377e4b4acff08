// A short scripted tool-call session: what an Act step does, without a model.
// Reads, a generated recipe saved with its ingredients linked by gen_ ref,
// an update and a delete by ref, and an exclusion with not_in; each step's
// executed query is printed as the model would see it.

/** The session's tool calls; `generate` steps register content instead of calling a tool. */
export const SESSION = [
  { title: 'What is in the fridge?', tool: 'db_read', params: { table: 'inventory', filters: [{ field: 'location', op: '=', value: 'fridge' }], limit: 100 } },
  { title: 'Do I have eggs? (catalog lookup)', tool: 'db_read', params: { table: 'inventory', filters: [{ field: 'name', op: '=', value: 'eggs' }] } },
  { title: 'Find a cozy curry (semantic search)', tool: 'db_read', params: { table: 'recipes', filters: [{ field: '_semantic', op: 'similar', value: 'spicy chicken curry' }], columns: ['name', 'cuisine'], limit: 3 } },
  {
    title: 'Generate a recipe (not saved yet)',
    generate: {
      table: 'recipes',
      content: {
        name: 'Egg Fried Rice',
        cuisine: 'chinese',
        difficulty: 'easy',
        prep_time_minutes: 10,
        cook_time_minutes: 10,
        servings: 2,
        instructions: ['Scramble the eggs and set aside.', 'Fry the rice with soy sauce.', 'Fold the eggs back in.'],
      },
    },
  },
  { title: 'Read the generated recipe (answered from memory)', tool: 'db_read', params: { table: 'recipes', filters: [{ field: 'id', op: '=', value: 'gen_recipe_1' }] } },
  {
    title: 'Save it',
    tool: 'db_create',
    params: {
      table: 'recipes',
      data: { id: 'gen_recipe_1', name: 'Egg Fried Rice', cuisine: 'chinese', difficulty: 'easy', servings: 2, instructions: ['Scramble the eggs and set aside.', 'Fry the rice with soy sauce.', 'Fold the eggs back in.'] },
    },
  },
  {
    title: 'Link its ingredients by gen_ ref',
    tool: 'db_create',
    params: {
      table: 'recipe_ingredients',
      data: [
        { recipe_id: 'gen_recipe_1', name: 'eggs', quantity: 3, unit: 'piece' },
        { recipe_id: 'gen_recipe_1', name: 'rice', quantity: 300, unit: 'g' },
        { recipe_id: 'gen_recipe_1', name: 'soy sauce', quantity: 2, unit: 'tbsp' },
      ],
    },
  },
  { title: 'Use up two eggs (update by ref)', tool: 'db_update', params: { table: 'inventory', filters: [{ field: 'id', op: '=', value: '$eggs' }], data: { quantity: 8 } } },
  { title: 'Plan dinner with the new recipe', tool: 'db_create', params: { table: 'meal_plans', data: { date: '2026-11-24', meal_type: 'dinner', recipe_id: 'gen_recipe_1', servings: 2 } } },
  { title: 'Cancel that plan (delete by ref)', tool: 'db_delete', params: { table: 'meal_plans', filters: [{ field: 'id', op: '=', value: '$meal' }] } },
  { title: 'Everything in the fridge but the eggs and milk (exclusion)', tool: 'db_read', params: { table: 'inventory', filters: [{ field: 'location', op: '=', value: 'fridge' }, { field: 'id', op: 'not_in', value: ['$eggs', '$milk'] }] } },
];

// `$eggs` and friends stand for refs the session learned from earlier results.
function resolvePlaceholders(value, learned) {
  if (typeof value === 'string' && value.startsWith('$')) return learned[value.slice(1)] ?? value;
  if (Array.isArray(value)) return value.map((item) => resolvePlaceholders(item, learned));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolvePlaceholders(v, learned)]));
  return value;
}

function learn(result, learned) {
  const rows = Array.isArray(result.data) ? result.data : result.data ? [result.data] : [];
  for (const row of rows) {
    if (typeof row?.id !== 'string') continue;
    if (/^inv_/.test(row.id) && /^eggs?$/i.test(row.name ?? '')) learned.eggs ??= row.id;
    if (/^inv_/.test(row.id) && /^milk$/i.test(row.name ?? '')) learned.milk ??= row.id;
    if (/^meal_/.test(row.id)) learned.meal = row.id;
  }
}

/** Runs the session through `act`, printing each step with `print`; returns the results. */
export async function runSession({ core, act, print = console.log }) {
  const learned = {};
  const results = [];
  for (const [index, step] of SESSION.entries()) {
    print(`\n### Step ${index + 1}: ${step.title}`);
    if (step.generate) {
      const { data: ref, error } = act.registry.registerGenerated(step.generate.table, step.generate.content);
      print(error ? `generate failed: ${error.message}` : `Generated ${ref}: ${step.generate.content.name} (NOT YET SAVED)`);
      results.push({ generated: ref });
      continue;
    }
    const params = resolvePlaceholders(step.params, learned);
    print(`${step.tool} ${JSON.stringify(params)}`);
    const result = await act.execute(step.tool, params);
    learn(result, learned);
    print(core.renderQuery(result).data ?? JSON.stringify(result.query));
    if (result.error) print(`Error: ${result.error.code}: ${result.error.message}${result.error.hint ? ` (hint: ${result.error.hint})` : ''}`);
    else print(`Rows: ${summarizeRows(result.data)}`);
    results.push(result);
  }
  return results;
}

function summarizeRows(data) {
  const rows = Array.isArray(data) ? data : data ? [data] : [];
  const labels = rows.slice(0, 8).map((row) => `${row.id}${row.name ? ` ${row.name}` : row.date ? ` ${row.date}` : ''}`);
  return `${rows.length}${labels.length ? ` — ${labels.join(', ')}${rows.length > labels.length ? ', …' : ''}` : ''}`;
}
