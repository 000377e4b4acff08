// Loads the demo data: the ingredient catalog and two users' kitchens (Ada's
// full, Ben's small). Ids are derived from natural keys (ids.mjs), dates from
// `today`, recipe embeddings from the embedder (lexical by default), all in
// one transaction as the superuser, before any client connects.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { embeddingText, lexicalEmbedder } from '../../../web/src/embedder.js';
import { readPackDomain } from '../../../db/packs.mjs';
import { ADA_RECIPES } from './ada-recipes.mjs';
import * as ada from './ada-kitchen.mjs';
import * as ben from './ben.mjs';
import { CATALOG } from './catalog.mjs';
import { SEED_USERS, seedUuid } from '../../../db/seed/ids.mjs';

const KITCHENS = [
  {
    user: SEED_USERS[0],
    recipes: ADA_RECIPES,
    inventory: ada.ADA_INVENTORY,
    shopping: ada.ADA_SHOPPING,
    mealPlan: ada.ADA_MEAL_PLAN,
    tasks: ada.ADA_TASKS,
    preferences: ada.ADA_PREFERENCES,
    staples: ada.ADA_ASSUMED_STAPLES,
    cookingLog: ada.ADA_COOKING_LOG,
  },
  {
    user: SEED_USERS[1],
    recipes: ben.BEN_RECIPES,
    inventory: ben.BEN_INVENTORY,
    shopping: ben.BEN_SHOPPING,
    mealPlan: ben.BEN_MEAL_PLAN,
    tasks: ben.BEN_TASKS,
    preferences: ben.BEN_PREFERENCES,
    staples: ben.BEN_ASSUMED_STAPLES,
    cookingLog: ben.BEN_COOKING_LOG,
  },
];

// Insertion order follows the foreign keys.
const TABLES = [
  'auth.users',
  'public.ingredients',
  'public.recipes',
  'public.recipe_ingredients',
  'public.inventory',
  'public.shopping_list',
  'public.meal_plans',
  'public.tasks',
  'public.preferences',
  'public.cooking_log',
];

const isoDay = (today, days) => new Date(today.getTime() + days * 86_400_000).toISOString().slice(0, 10);
const vectorText = (vector) => `[${vector.join(',')}]`;

/**
 * What the default seed of `today` depends on: this folder's files, the
 * embedder's source, the pack's domain.json (which columns are embedded) and
 * the day (dates in the seed are relative to it).
 * Snapshots of a seeded database are cached under this key.
 */
export function seedKey(today = new Date()) {
  const hash = createHash('sha256');
  const seedDir = fileURLToPath(new URL('./', import.meta.url));
  for (const file of readdirSync(seedDir).filter((f) => f.endsWith('.mjs')).sort()) {
    hash.update(file).update(readFileSync(`${seedDir}/${file}`));
  }
  hash.update(readFileSync(new URL('../../../web/src/embedder.js', import.meta.url)));
  // The recipes' embedding text follows the domain's middleware.semantic.text.
  hash.update(readFileSync(new URL('../domain.json', import.meta.url)));
  return `${isoDay(today, 0)}-${hash.digest('hex').slice(0, 16)}`;
}

/** Catalog lookup by lower-cased name or alias. */
function catalogIndex(ingredients) {
  const index = new Map();
  for (const row of ingredients) {
    for (const key of [row.name, ...row.aliases]) {
      if (!index.has(key.toLowerCase())) index.set(key.toLowerCase(), row);
    }
  }
  return index;
}

/** Every row to insert, by table. Pure apart from the embedder call. */
export async function buildSeedRows({ today = new Date(), embedder = lexicalEmbedder } = {}) {
  const rows = Object.fromEntries(TABLES.map((table) => [table, []]));
  rows['auth.users'] = SEED_USERS.map(({ id, email }) => ({ id, email }));
  rows['public.ingredients'] = CATALOG.map((item) => ({ id: seedUuid('ingredient', item.name), ...item }));
  const catalog = catalogIndex(rows['public.ingredients']);
  const link = (name) => catalog.get(name.toLowerCase()) ?? null;

  for (const kitchen of KITCHENS) {
    const user_id = kitchen.user.id;
    const recipeId = (name) => {
      if (name === null) return null;
      if (!kitchen.recipes.some((recipe) => recipe.name === name)) throw new Error(`seed: ${name} is not a recipe of ${kitchen.user.email}`);
      return seedUuid('recipe', user_id, name);
    };
    const mealPlanId = ([day, mealType]) => seedUuid('meal_plan', user_id, day, mealType);

    const domain = readPackDomain('kitchen');
    const vectors = await embedder.embed(kitchen.recipes.map((recipe) => embeddingText(domain, 'recipes', recipe)));
    kitchen.recipes.forEach((recipe, i) => {
      const { ingredients, parent = null, ...columns } = recipe;
      const id = recipeId(recipe.name);
      rows['public.recipes'].push({
        tags: [],
        occasions: null,
        health_tags: null,
        flavor_tags: null,
        equipment_tags: null,
        ...columns,
        id,
        user_id,
        parent_recipe_id: recipeId(parent),
        embedding: vectorText(vectors[i]),
      });
      ingredients.forEach(([name, quantity, unit, notes = null, optional = false], position) => {
        const item = link(name);
        rows['public.recipe_ingredients'].push({
          id: seedUuid('recipe_ingredient', id, position),
          user_id,
          recipe_id: id,
          ingredient_id: item?.id ?? null,
          name,
          quantity,
          unit,
          notes,
          is_optional: optional,
          category: item?.category ?? null,
        });
      });
    });

    for (const [name, quantity, unit, location, expires, notes = null] of kitchen.inventory) {
      const item = link(name);
      rows['public.inventory'].push({
        id: seedUuid('inventory', user_id, name),
        user_id,
        ingredient_id: item?.id ?? null,
        name,
        quantity,
        unit,
        location,
        category: item?.category ?? null,
        notes,
        expiry_date: expires === null ? null : isoDay(today, expires),
        purchase_date: expires === null ? null : isoDay(today, -3),
      });
    }

    for (const [name, quantity, unit, source, is_purchased] of kitchen.shopping) {
      const item = link(name);
      rows['public.shopping_list'].push({
        id: seedUuid('shopping_list', user_id, name),
        user_id,
        ingredient_id: item?.id ?? null,
        name,
        quantity,
        unit,
        category: item?.category ?? null,
        is_purchased,
        source,
        notes: null,
      });
    }

    for (const [day, meal_type, recipe, servings, notes = null] of kitchen.mealPlan) {
      rows['public.meal_plans'].push({
        id: mealPlanId([day, meal_type]),
        user_id,
        date: isoDay(today, day),
        meal_type,
        recipe_id: recipeId(recipe),
        servings,
        notes,
      });
    }

    for (const [title, due, category, completed, recipe, mealPlan] of kitchen.tasks) {
      rows['public.tasks'].push({
        id: seedUuid('task', user_id, title),
        user_id,
        title,
        due_date: isoDay(today, due),
        category,
        completed,
        recipe_id: recipeId(recipe),
        meal_plan_id: mealPlan ? mealPlanId(mealPlan) : null,
      });
    }

    rows['public.preferences'].push({
      id: seedUuid('preferences', user_id),
      user_id,
      ...kitchen.preferences,
      assumed_staples: kitchen.staples.map((name) => link(name).id),
    });

    for (const [daysAgo, recipe, servings, rating, notes, mealPlan] of kitchen.cookingLog) {
      rows['public.cooking_log'].push({
        id: seedUuid('cooking_log', user_id, daysAgo, recipe),
        user_id,
        recipe_id: recipeId(recipe),
        cooked_at: `${isoDay(today, daysAgo)}T19:00:00Z`,
        servings,
        rating,
        notes,
        from_meal_plan_id: mealPlan ? mealPlanId(mealPlan) : null,
      });
    }
  }
  return rows;
}

/**
 * Inserts the seed into `db` (a PGlite handle, superuser) unless seed user 1
 * already exists (a data dir opened again). Returns the row counts inserted.
 */
export async function seedDatabase(db, options) {
  const { rows: present } = await db.query('select 1 from auth.users where id = $1', [SEED_USERS[0].id]);
  if (present.length > 0) return {};
  const rows = await buildSeedRows(options);
  const counts = {};
  await db.transaction(async (tx) => {
    for (const table of TABLES) {
      const columns = [...new Set(rows[table].flatMap(Object.keys))].map((c) => `"${c}"`).join(', ');
      // Records built from JSON: one statement per table, every key a column.
      await tx.query(`insert into ${table} (${columns}) select ${columns} from jsonb_populate_recordset(null::${table}, $1::jsonb)`, [
        JSON.stringify(rows[table]),
      ]);
      counts[table] = rows[table].length;
    }
  });
  return counts;
}
