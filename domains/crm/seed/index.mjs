// Loads the CRM demo data for the two seed users: organizations, contacts,
// deals, tasks and an activity log. Ids come from natural keys, dates from
// `today`, all in one transaction as the superuser, before any client connects.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SEED_USERS, seedUuid } from '../../../db/seed/ids.mjs';
import { CRM_DATA } from './data.mjs';

// Insertion order follows the foreign keys.
const TABLES = ['auth.users', 'public.organizations', 'public.contacts', 'public.deals', 'public.tasks', 'public.activity_log'];

const isoDay = (today, days) => new Date(today.getTime() + days * 86_400_000).toISOString().slice(0, 10);

/** What the seed of `today` depends on: this folder's files and the day. */
export function seedKey(today = new Date()) {
  const hash = createHash('sha256');
  const seedDir = fileURLToPath(new URL('./', import.meta.url));
  for (const file of readdirSync(seedDir).filter((f) => f.endsWith('.mjs')).sort()) {
    hash.update(file).update(readFileSync(`${seedDir}/${file}`));
  }
  return `${isoDay(today, 0)}-${hash.digest('hex').slice(0, 16)}`;
}

/** Every row to insert, by table. */
export function buildSeedRows({ today = new Date() } = {}) {
  const rows = Object.fromEntries(TABLES.map((table) => [table, []]));
  rows['auth.users'] = SEED_USERS.map(({ id, email }) => ({ id, email }));
  CRM_DATA.forEach((data, index) => {
    const owner_id = SEED_USERS[index].id;
    const organizationId = (name) => (name === null ? null : seedUuid('organization', owner_id, name));
    const contactId = (first) => (first === null ? null : seedUuid('contact', owner_id, first));
    const dealId = (title) => (title === null ? null : seedUuid('deal', owner_id, title));
    for (const [name, industry, website, employee_count, tags, address] of data.organizations) {
      rows['public.organizations'].push({ id: organizationId(name), owner_id, name, industry, website, employee_count, tags, address });
    }
    for (const [first_name, last_name, email, organization, job_title, preferred_channels, tags, contacted] of data.contacts) {
      rows['public.contacts'].push({
        id: contactId(first_name),
        owner_id,
        organization_id: organizationId(organization),
        first_name,
        last_name,
        email,
        job_title,
        preferred_channels,
        tags,
        last_contacted_on: contacted === null ? null : isoDay(today, contacted),
      });
    }
    for (const [title, organization, contact, stage, amount, probability, closes] of data.deals) {
      rows['public.deals'].push({
        id: dealId(title),
        owner_id,
        organization_id: organizationId(organization),
        primary_contact_id: contactId(contact),
        title,
        stage,
        amount,
        probability,
        expected_close_on: closes === null ? null : isoDay(today, closes),
      });
    }
    for (const [title, deal, contact, status, due, notes] of data.tasks) {
      rows['public.tasks'].push({
        id: seedUuid('task', owner_id, title),
        owner_id,
        deal_id: dealId(deal),
        contact_id: contactId(contact),
        title,
        status,
        due_at: due === null ? null : `${isoDay(today, due)}T09:00:00Z`,
        notes,
      });
    }
    for (const summary of data.activity) rows['public.activity_log'].push({ owner_id, summary });
  });
  return rows;
}

/**
 * Inserts the seed into `db` (a PGlite handle, superuser) unless seed user 1
 * already exists (a data dir opened again). Returns the row counts inserted.
 */
export async function seedDatabase(db, options) {
  const { rows: present } = await db.query('select 1 from auth.users where id = $1', [SEED_USERS[0].id]);
  if (present.length > 0) return {};
  const rows = buildSeedRows(options);
  const counts = {};
  await db.transaction(async (tx) => {
    for (const table of TABLES) {
      const columns = [...new Set(rows[table].flatMap(Object.keys))].map((c) => `"${c}"`).join(', ');
      await tx.query(`insert into ${table} (${columns}) select ${columns} from jsonb_populate_recordset(null::${table}, $1::jsonb)`, [
        JSON.stringify(rows[table]),
      ]);
      counts[table] = rows[table].length;
    }
  });
  return counts;
}
