// Ada's kitchen (seed user 1) apart from recipes. Dates are days from the
// day the stack starts (`expires: 3` = in three days, `-1` = yesterday), so
// "what expires soon" and "this week's plan" always have answers.

// [name, quantity, unit, location, expires (days) or null, notes?]
export const ADA_INVENTORY = [
  ['chicken thigh', 800, 'g', 'fridge', 2],
  ['ground beef', 500, 'g', 'freezer', 60],
  ['salmon fillet', 2, 'piece', 'freezer', 45],
  ['shrimp', 400, 'g', 'freezer', 90, 'raw, peeled'],
  ['egg', 10, 'piece', 'fridge', 12],
  ['milk', 1000, 'ml', 'fridge', 4],
  ['butter', 250, 'g', 'fridge', 30],
  ['greek yogurt', 500, 'g', 'fridge', -1, 'check before using'],
  ['cheddar', 300, 'g', 'fridge', 25],
  ['parmesan', 120, 'g', 'fridge', 40],
  ['heavy cream', 200, 'ml', 'fridge', 3],
  ['spinach', 150, 'g', 'fridge', 1],
  ['bell pepper', 3, 'piece', 'fridge', 6],
  ['tomato', 4, 'piece', 'pantry', 4],
  ['onion', 5, 'piece', 'pantry', null],
  ['garlic', 2, 'head', 'pantry', null],
  ['ginger', 60, 'g', 'fridge', 14],
  ['lemon', 2, 'piece', 'fridge', 10],
  ['rice', 2000, 'g', 'pantry', null],
  ['spaghetti', 500, 'g', 'pantry', null],
  ['canned tomatoes', 3, 'can', 'pantry', 400],
  ['chickpeas', 2, 'can', 'pantry', 500],
  ['coconut milk', 1, 'can', 'pantry', 300],
  ['olive oil', 750, 'ml', 'pantry', null],
  ['soy sauce', 1, 'bottle', 'pantry', null],
  ['garam masala', 1, 'jar', 'pantry', null],
  ['frozen peas', 400, 'g', 'freezer', 120],
];

// [name, quantity, unit, source, purchased]
export const ADA_SHOPPING = [
  ['red curry paste', 1, 'jar', 'Thai Red Chicken Curry', false],
  ['thai basil', 1, 'bunch', 'Thai Red Chicken Curry', false],
  ['lime', 3, 'piece', 'manual', false],
  ['rice noodles', 400, 'g', 'Pad Thai with Shrimp', false],
  ['bean sprouts', 200, 'g', 'Pad Thai with Shrimp', false],
  ['tamarind paste', 1, 'jar', 'Pad Thai with Shrimp', false],
  ['greek yogurt', 500, 'g', 'manual', true],
  ['oat milk, barista edition', 1, 'l', 'manual', false],
];

// [day, meal_type, recipe name or null, servings, notes?]
export const ADA_MEAL_PLAN = [
  [0, 'dinner', 'Butter Chicken', 4],
  [1, 'breakfast', 'Overnight Oats', 1],
  [1, 'dinner', 'Salmon Teriyaki', 2],
  [2, 'dinner', 'Thai Red Chicken Curry', 4],
  [3, 'lunch', 'Greek Salad', 2],
  [3, 'dinner', 'Spaghetti Carbonara', 2],
  [4, 'dinner', 'Chana Masala', 4, 'double batch for lunches'],
  [5, 'breakfast', 'Banana Pancakes', 3],
  [5, 'dinner', null, 2, 'eating out'],
  [6, 'dinner', 'Chili con Carne', 6],
];

// [title, due (days), category, completed, recipe name?, meal plan [day, meal_type]?]
export const ADA_TASKS = [
  ['Marinate chicken for butter chicken', 0, 'prep', false, 'Butter Chicken', [0, 'dinner']],
  ['Buy curry paste and Thai basil', 1, 'shopping', false, 'Thai Red Chicken Curry', null],
  ['Soak oats overnight', 0, 'prep', false, 'Overnight Oats', [1, 'breakfast']],
  ['Defrost salmon', 1, 'prep', true, 'Salmon Teriyaki', [1, 'dinner']],
  ['Clean out the fridge', 5, 'cleanup', false, null, null],
];

export const ADA_PREFERENCES = {
  dietary_restrictions: [],
  allergies: ['tree nuts'],
  favorite_cuisines: ['indian', 'thai', 'italian'],
  disliked_ingredients: ['cilantro'],
  cooking_skill_level: 'intermediate',
  household_adults: 2,
  household_kids: 1,
  household_babies: 0,
  nutrition_goals: ['more vegetables', 'high protein'],
  cooking_frequency: '5 nights a week',
  available_equipment: ['oven', 'stovetop', 'wok', 'dutch oven', 'blender'],
  time_budget_minutes: 45,
  preferred_complexity: 'moderate',
  planning_rhythm: ['plan on sunday', 'shop on monday'],
  current_vibes: ['cozy', 'spicy food'],
  subdomain_guidance: { recipes: 'Prefer one-pot dinners on weeknights.', shopping: 'Group by store aisle.' },
};
// Catalog names resolved to ids at seed time.
export const ADA_ASSUMED_STAPLES = ['salt', 'black pepper', 'olive oil', 'garlic', 'onion'];

// [days ago, recipe name, servings, rating, notes, from meal plan?]
export const ADA_COOKING_LOG = [
  [-3, 'Chana Masala', 4, 5, 'Added spinach at the end: great.'],
  [-1, 'Spaghetti Carbonara', 2, 4, 'A little too salty; less pecorino next time.'],
];
