// The kitchen domain pack: recipes, their ingredients, a shared ingredient
// catalog, inventory, shopping list, meal plans, tasks, preferences and a
// cooking log, for the local stack (db/local-stack.mjs, the default schema).
import { fileURLToPath } from 'node:url';
import { seedDatabase, seedKey } from './seed/index.mjs';

export default {
  name: 'kitchen',
  migrationsDir: fileURLToPath(new URL('./migrations/', import.meta.url)),
  probeTable: 'recipes',
  seed: { key: seedKey, run: (db, { today }) => seedDatabase(db, { today }) },
};
