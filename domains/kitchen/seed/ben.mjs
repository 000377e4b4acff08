// Ben's kitchen (seed user 2): smaller, and different from Ada's, except for
// a recipe with the same name ("Butter Chicken") so isolation tests can tell
// whose row they got. Same shapes as ada-recipes.mjs and ada-kitchen.mjs.

export const BEN_RECIPES = [
  {
    name: 'Butter Chicken',
    description: "Ben's version: smoky, with charred chicken and extra chili.",
    cuisine: 'indian',
    difficulty: 'medium',
    prep_time_minutes: 30,
    cook_time_minutes: 30,
    servings: 2,
    tags: ['curry', 'chicken', 'grill'],
    flavor_tags: ['spicy', 'rich'],
    instructions: ['Char the chicken on a grill pan.', 'Simmer in tomato, butter and chili sauce.', 'Finish with cream.'],
    ingredients: [
      ['chicken breast', 400, 'g'],
      ['butter', 40, 'g'],
      ['canned tomatoes', 1, 'can'],
      ['chili powder', 2, 'tsp'],
      ['heavy cream', 80, 'ml'],
    ],
  },
  {
    name: 'Miso Ramen',
    description: 'Rich miso broth with ramen noodles, egg and scallions.',
    cuisine: 'japanese',
    difficulty: 'medium',
    prep_time_minutes: 15,
    cook_time_minutes: 20,
    servings: 2,
    tags: ['soup', 'noodles'],
    flavor_tags: ['umami', 'savory'],
    instructions: ['Whisk miso paste into hot stock.', 'Cook the noodles and soft-boil the eggs.', 'Assemble with scallions and sesame oil.'],
    ingredients: [
      ['miso paste', 3, 'tbsp'],
      ['chicken stock', 1000, 'ml'],
      ['ramen noodles', 250, 'g'],
      ['egg', 2, 'piece'],
      ['scallion', 2, 'piece'],
      ['sesame oil', 1, 'tsp'],
    ],
  },
  {
    name: 'Guacamole',
    description: 'Chunky avocado dip with lime, jalapeño and cilantro.',
    cuisine: 'mexican',
    difficulty: 'easy',
    prep_time_minutes: 10,
    cook_time_minutes: 0,
    servings: 4,
    tags: ['dip', 'vegan', 'no-cook'],
    flavor_tags: ['tangy', 'spicy'],
    instructions: ['Mash the avocados.', 'Fold in lime juice, red onion, jalapeño, cilantro and salt.'],
    ingredients: [
      ['avocado', 3, 'piece'],
      ['lime', 1, 'piece'],
      ['red onion', 0.25, 'piece'],
      ['jalapeño', 1, 'piece'],
      ['cilantro', 0.5, 'bunch'],
      ['salt', 0.5, 'tsp'],
    ],
  },
  {
    name: 'Kimchi Fried Rice',
    description: 'Day-old rice fried with kimchi and gochujang, topped with a fried egg.',
    cuisine: 'korean',
    difficulty: 'easy',
    prep_time_minutes: 5,
    cook_time_minutes: 10,
    servings: 2,
    tags: ['rice', 'quick', 'leftovers'],
    flavor_tags: ['spicy', 'umami'],
    instructions: ['Fry the kimchi in sesame oil.', 'Add the rice and gochujang; fry until crisp.', 'Top with a fried egg.'],
    ingredients: [
      ['rice', 300, 'g', 'cooked, day-old'],
      ['kimchi', 150, 'g'],
      ['gochujang', 1, 'tbsp'],
      ['sesame oil', 1, 'tbsp'],
      ['egg', 2, 'piece'],
    ],
  },
  {
    name: 'Lemon Herb Roast Chicken',
    description: 'Whole roast chicken with lemon, garlic, rosemary and thyme.',
    cuisine: 'french',
    difficulty: 'medium',
    prep_time_minutes: 15,
    cook_time_minutes: 75,
    servings: 4,
    tags: ['roast', 'chicken', 'sunday'],
    flavor_tags: ['savory', 'light'],
    instructions: ['Stuff the chicken with lemon, garlic and herbs.', 'Rub with butter and salt.', 'Roast at 200 °C for 75 minutes; rest 15.'],
    ingredients: [
      ['whole chicken', 1, 'piece'],
      ['lemon', 1, 'piece'],
      ['garlic', 1, 'head'],
      ['rosemary', 2, 'sprig'],
      ['thyme', 4, 'sprig'],
      ['butter', 30, 'g'],
    ],
  },
];

export const BEN_INVENTORY = [
  ['avocado', 3, 'piece', 'pantry', 3],
  ['kimchi', 400, 'g', 'fridge', 30],
  ['egg', 6, 'piece', 'fridge', 9],
  ['rice', 1000, 'g', 'pantry', null],
  ['whole chicken', 1, 'piece', 'freezer', 80],
  ['milk', 500, 'ml', 'fridge', 2],
  ['lime', 4, 'piece', 'fridge', 12],
  ['gochujang', 1, 'jar', 'fridge', 200],
];

export const BEN_SHOPPING = [
  ['miso paste', 1, 'tub', 'Miso Ramen', false],
  ['ramen noodles', 2, 'pack', 'Miso Ramen', false],
  ['cilantro', 1, 'bunch', 'Guacamole', false],
];

export const BEN_MEAL_PLAN = [
  [0, 'lunch', 'Kimchi Fried Rice', 1],
  [2, 'dinner', 'Miso Ramen', 2],
  [6, 'dinner', 'Lemon Herb Roast Chicken', 4, 'friends over'],
];

export const BEN_TASKS = [
  ['Take the chicken out of the freezer', 5, 'prep', false, 'Lemon Herb Roast Chicken', [6, 'dinner']],
  ['Buy miso paste', 1, 'shopping', false, 'Miso Ramen', null],
];

export const BEN_PREFERENCES = {
  dietary_restrictions: ['pescatarian on weekdays'],
  allergies: [],
  favorite_cuisines: ['japanese', 'korean', 'mexican'],
  disliked_ingredients: ['olives'],
  cooking_skill_level: 'beginner',
  household_adults: 1,
  household_kids: 0,
  household_babies: 0,
  nutrition_goals: [],
  cooking_frequency: 'a few times a week',
  available_equipment: ['stovetop', 'oven', 'rice cooker'],
  time_budget_minutes: 20,
  preferred_complexity: 'simple',
  planning_rhythm: [],
  current_vibes: ['quick', 'spicy food'],
  subdomain_guidance: {},
};
export const BEN_ASSUMED_STAPLES = ['salt', 'soy sauce', 'rice'];

export const BEN_COOKING_LOG = [[-2, 'Kimchi Fried Rice', 1, 4, null]];
