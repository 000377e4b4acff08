// Tool calls to start from in manual mode: what a model would write, some
// of them wrong on purpose to show the errors it would get back.

export const MANUAL_EXAMPLES = [
  {
    label: 'Fridge, soonest expiry first',
    tool: 'db_read',
    params: { table: 'inventory', filters: [{ field: 'location', op: '=', value: 'fridge' }], columns: ['name', 'quantity', 'unit', 'expiry_date'], order_by: 'expiry_date', order_dir: 'asc' },
  },
  {
    label: "This week's meal plan (foreign keys with labels)",
    tool: 'db_read',
    params: { table: 'meal_plans', columns: ['date', 'meal_type', 'recipe_id', 'servings'], order_by: 'date', limit: 7 },
  },
  {
    label: 'Recipes with their ingredients',
    tool: 'db_read',
    params: { table: 'recipes', columns: ['name', 'cuisine', 'recipe_ingredients(name, quantity, unit)'], limit: 3 },
  },
  {
    label: 'Semantic search: something like a spicy chicken curry',
    tool: 'db_read',
    params: { table: 'recipes', filters: [{ field: '_semantic', op: 'similar', value: 'spicy chicken curry' }], columns: ['name', 'cuisine'], limit: 3 },
  },
  {
    label: 'Add to the shopping list (linked to the catalog)',
    tool: 'db_create',
    params: { table: 'shopping_list', data: { name: 'coconut milk', quantity: 2, unit: 'can' } },
  },
  {
    label: 'Update by ref (read the fridge first)',
    tool: 'db_update',
    params: { table: 'inventory', filters: [{ field: 'id', op: '=', value: 'inv_1' }], data: { quantity: 250 } },
  },
  {
    label: 'Refused: a ref that was never handed out',
    tool: 'db_read',
    params: { table: 'recipes', filters: [{ field: 'id', op: '=', value: 'recipe_999' }] },
  },
  {
    label: 'Refused: delete without a filter',
    tool: 'db_delete',
    params: { table: 'inventory', filters: [] },
  },
];
