// Writes the row-translation benchmark's PostgREST bodies (the same as
// bench/translate-rows.mjs translates) to a folder, for the native
// micro-benchmark bench/native/translate_rows.cpp.
// Run: node bench/native/write-fixtures.mjs <folder> [rows=1000]
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { catalog, mealPlans, recipesWithIngredients } from '../fixtures/postgrest-responses.mjs';

const [folder = 'build/bench-fixtures', rowsText = '1000'] = process.argv.slice(2);
const rows = Number(rowsText);
mkdirSync(folder, { recursive: true });
const recipes = recipesWithIngredients(rows);
const labels = recipesWithIngredients(200);
const plans = mealPlans(rows, labels.recipeIds, { userId: recipes.userId });
writeFileSync(join(folder, 'recipes.json'), recipes.text);
writeFileSync(join(folder, 'recipe-labels.json'), labels.text);
writeFileSync(join(folder, 'meal-plans.json'), plans.text);
writeFileSync(join(folder, 'catalog.json'), JSON.stringify(catalog()));
writeFileSync(join(folder, 'user-id.txt'), recipes.userId);
console.log(`wrote ${rows} recipes and meal plans to ${folder}`);
