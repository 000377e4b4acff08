// The CRM domain pack: organizations, contacts, deals and tasks owned by the
// signed-in user through owner_id. The local stack's second schema
// (startStack({ schema: 'crm' })); its domain comes from `alfred-act domain
// pull` plus overrides.json (docs/own-schema.md).
import { fileURLToPath } from 'node:url';
import { seedDatabase, seedKey } from './seed/index.mjs';

export default {
  name: 'crm',
  migrationsDir: fileURLToPath(new URL('./migrations/', import.meta.url)),
  probeTable: 'organizations',
  seed: { key: seedKey, run: (db, { today }) => seedDatabase(db, { today }) },
};
