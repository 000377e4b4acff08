// The extensions the stack's PGlite can create, as a PGlite `extensions`
// map: pgvector, every extension of PGlite's contrib set that a Supabase
// project offers (so an app's `create extension if not exists pg_trgm with
// schema extensions` works as there), and the SQL-only extensions of
// db/stand-ins for those PGlite cannot run (pg_net, http, pg_cron, pg_tle,
// pg_graphql, supabase_vault, pgsodium) or that are plain SQL (pgjwt). PGlite
// unpacks every bundle it is given when the database opens (all of the contrib
// set: about 0.25 s more per start), so a database gets the contrib bundles
// its SQL names and no others. Which extensions the bootstrap creates is in
// db/migrations.
import { pg_stat_statements } from '@electric-sql/pglite/contrib/pg_stat_statements';
import { pgcrypto } from '@electric-sql/pglite/contrib/pgcrypto';
import { uuid_ossp } from '@electric-sql/pglite/contrib/uuid_ossp';
import { vector } from '@electric-sql/pglite-pgvector';
import { standIns } from './stand-ins/index.mjs';

/** PGlite's contrib extensions that Supabase offers too, by their PGlite names (`@electric-sql/pglite/contrib/<name>`). */
export const CONTRIB = [
  'amcheck', 'bloom', 'btree_gin', 'btree_gist', 'citext', 'cube', 'dict_int', 'dict_xsyn', 'earthdistance', 'fuzzystrmatch',
  'hstore', 'intarray', 'isn', 'lo', 'ltree', 'moddatetime', 'pageinspect', 'pg_buffercache', 'pg_freespacemap',
  'pg_stat_statements', 'pg_surgery', 'pg_trgm', 'pg_visibility', 'pg_walinspect', 'pgcrypto', 'seg', 'tablefunc', 'tcn',
  'tsm_system_rows', 'tsm_system_time', 'unaccent', 'uuid_ossp',
];

// Always given: what the bootstrap creates (db/migrations 001, 016, 017).
const ALWAYS = { vector, pgcrypto, uuid_ossp, pg_stat_statements, standIns };

// A contrib bundle's extension name, as CREATE EXTENSION spells it.
const extensionName = (bundle) => (bundle === 'uuid_ossp' ? 'uuid-ossp' : bundle);

/**
 * The extensions for a database built from `sqlTexts` (its migrations' and
 * seeds' SQL), for `PGlite.create({ extensions })`: those the bootstrap
 * needs, and each contrib extension whose name the texts contain as a word
 * (a commented-out mention costs a bundle, never a missing one). Resolves
 * once the named bundles' modules are imported.
 *
 * @example
 * const db = await PGlite.create({ dataDir, extensions: await extensionsFor(migrations.map((m) => m.sql)) })
 */
export async function extensionsFor(sqlTexts) {
  const text = sqlTexts.join('\n').toLowerCase();
  const named = CONTRIB.filter((bundle) => !(bundle in ALWAYS) && new RegExp(`(^|[^a-z0-9_$-])${extensionName(bundle)}($|[^a-z0-9_$-])`).test(text));
  const loaded = await Promise.all(named.map(async (bundle) => [bundle, (await import(`@electric-sql/pglite/contrib/${bundle}`))[bundle]]));
  return { ...ALWAYS, ...Object.fromEntries(loaded) };
}
