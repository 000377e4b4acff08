// A realistic kitchen turn for the prompt benchmark and the documented
// example: recipes with ingredients, the inventory, a meal plan and one
// generated recipe, read through a real registry from rows with v4 UUIDs
// (seeded, so every run sees the same text).

const RECIPES = [
  ['Butter Chicken', 'indian'], ['Chana Masala', 'indian'], ['Pad Thai', 'thai'], ['Green Curry', 'thai'],
  ['Shakshuka', 'middle eastern'], ['Falafel Bowl', 'middle eastern'], ['Carbonara', 'italian'],
  ['Mushroom Risotto', 'italian'], ['Margherita Pizza', 'italian'], ['Beef Tacos', 'mexican'],
  ['Black Bean Chili', 'mexican'], ['Teriyaki Salmon', 'japanese'], ['Miso Ramen', 'japanese'],
  ['Bibimbap', 'korean'], ['Kimchi Fried Rice', 'korean'], ['Greek Salad', 'greek'], ['Moussaka', 'greek'],
  ['Coq au Vin', 'french'], ['Ratatouille', 'french'], ['Pho', 'vietnamese'],
];
const INGREDIENTS = [
  ['chicken thighs', 'g'], ['onion', 'pcs'], ['garlic', 'cloves'], ['ginger', 'g'], ['tomatoes', 'g'],
  ['cream', 'ml'], ['butter', 'g'], ['rice', 'g'], ['chickpeas', 'g'], ['coconut milk', 'ml'], ['rice noodles', 'g'],
  ['eggs', 'pcs'], ['feta', 'g'], ['spaghetti', 'g'], ['parmesan', 'g'], ['mushrooms', 'g'], ['salmon', 'g'],
  ['soy sauce', 'ml'], ['beef mince', 'g'], ['black beans', 'g'], ['aubergine', 'pcs'], ['courgette', 'pcs'],
];
const LOCATIONS = ['fridge', 'freezer', 'pantry'];

/** A seeded generator of RFC 9562 version-4 UUIDs. */
export function uuidGenerator(seed = 20260209) {
  let state = seed >>> 0;
  const next = () => {
    state = (Math.imul(state ^ (state >>> 15), 2246822507) + 0x9e3779b9) >>> 0;
    state ^= state >>> 13;
    return state >>> 0;
  };
  return () => {
    const bytes = Array.from({ length: 16 }, () => next() & 0xff);
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    const hex = bytes.map((b) => b.toString(16).padStart(2, '0')).join('');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  };
}

function readItem(table, filters, rows, extra = {}) {
  return {
    tool: 'db_read', table, data: rows, error: null, count: rows.length,
    query: {
      tool: 'db_read', table,
      requested: { filters, or_filters: [], columns: extra.columns ?? null, limit: extra.limit ?? null, offset: null, order_by: extra.order_by ?? null, order_dir: extra.order_by ? 'asc' : null, data_columns: null, records: null },
      effective: null, notes: [], source: 'database', count: rows.length,
    },
  };
}

/**
 * Builds the session in `registry` and returns the prompt input of the
 * current step (analyze, step 3 of 4 of turn 2).
 */
export function kitchenTurn(registry, { recipes = 20, ingredientsPerRecipe = 8, inventory = 30, mealPlan = 7 } = {}) {
  const uuid = uuidGenerator();
  const user = uuid();
  const catalog = INGREDIENTS.map(() => uuid());

  registry.setTurn(1);
  const pantryRows = Array.from({ length: inventory }, (_, i) => {
    const k = i % INGREDIENTS.length;
    return {
      id: uuid(), user_id: user, ingredient_id: catalog[k], name: INGREDIENTS[k][0], quantity: 1 + (i % 5) * 100,
      unit: INGREDIENTS[k][1], location: LOCATIONS[i % 3], expiry_date: `2026-02-${String(10 + (i % 18)).padStart(2, '0')}`,
      created_at: '2026-02-01T10:00:00+00:00', updated_at: '2026-02-01T10:00:00+00:00',
    };
  });
  const pantry = registry.translateRows('inventory', pantryRows).data;

  registry.setTurn(2);
  const recipeRows = RECIPES.slice(0, recipes).map(([name, cuisine], i) => {
    const id = uuid();
    return {
      id, user_id: user, name, cuisine, difficulty: ['easy', 'medium', 'hard'][i % 3], prep_time_minutes: 10 + (i % 4) * 10,
      cook_time_minutes: 15 + (i % 3) * 15, servings: 2 + (i % 3) * 2, occasions: i % 2 ? ['weeknight'] : ['weekend', 'guests'],
      parent_recipe_id: null, created_at: '2026-01-20T18:30:00+00:00',
      recipe_ingredients: Array.from({ length: ingredientsPerRecipe }, (_, j) => {
        const k = (i * 3 + j) % INGREDIENTS.length;
        return { id: uuid(), recipe_id: id, ingredient_id: catalog[k], name: INGREDIENTS[k][0], quantity: 50 * (1 + (j % 4)), unit: INGREDIENTS[k][1] };
      }),
    };
  });
  const recipeList = registry.translateRows('recipes', recipeRows).data;
  const planRows = Array.from({ length: mealPlan }, (_, i) => ({
    id: uuid(), user_id: user, date: `2026-02-${String(9 + i).padStart(2, '0')}`, meal_type: 'dinner',
    recipe_id: recipeRows[(i * 3) % recipeRows.length].id, servings: 2, notes: null, created_at: '2026-02-08T09:00:00+00:00',
  }));
  const plan = registry.translateRows('meal_plans', planRows).data;
  registry.registerGenerated('recipes', {
    name: 'Lemon Herb Chicken', cuisine: 'mediterranean', servings: 2, prep_time_minutes: 15, cook_time_minutes: 25,
    instructions: ['Marinate the chicken in lemon, garlic and thyme.', 'Roast at 200 °C for 25 minutes.'],
    recipe_ingredients: [{ name: 'chicken thighs', quantity: 500, unit: 'g' }, { name: 'lemon', quantity: 1, unit: 'pcs' }],
  });

  return {
    step: { type: 'analyze', description: 'Pick 3 dinners for the free days that use what expires first', index: 2, total: 4, subdomain: 'meal_plans' },
    user_message: 'Plan the rest of my week around what expires first, and keep the lemon chicken idea.',
    today: '2026-02-09',
    plan: ['Read recipes with ingredients', 'Read this week\'s meal plan', 'Pick 3 dinners for the free days that use what expires first', 'Save the meal plan'],
    conversation: [
      { role: 'user', text: 'What\'s expiring in my kitchen?' },
      { role: 'assistant', text: 'Cream, feta and mushrooms expire this week.' },
      { role: 'user', text: 'Plan the rest of my week around what expires first, and keep the lemon chicken idea.' },
    ],
    previous_turns: [{ turn: 1, steps: [{ index: 0, type: 'read', description: 'Read the inventory', summary: `${inventory} items`, results: [readItem('inventory', [], pantry)] }] }],
    previous_steps: [
      { index: 0, type: 'read', description: 'Read recipes with ingredients', summary: `${recipes} recipes`, results: [readItem('recipes', [], recipeList, { columns: ['*', 'recipe_ingredients(name, quantity, unit, ingredient_id)'] })] },
      { index: 1, type: 'read', description: 'Read this week\'s meal plan', summary: `${mealPlan} dinners planned`, note: 'meal_1 to meal_7 are planned', results: [readItem('meal_plans', [{ field: 'date', op: '>=', value: '2026-02-09' }], plan, { order_by: 'date' })] },
    ],
    user_profile: { allergies: ['peanuts'], household_adults: 2, time_budget_minutes: 45 },
    subdomain_guidance: 'Weeknights: under 45 minutes. Fish on Fridays.',
  };
}
