// The extensions the stack's PGlite can create, as a PGlite `extensions`
// map: pgvector, every extension of PGlite's contrib set that a Supabase
// project offers (so an app's `create extension if not exists pg_trgm with
// schema extensions` works as there), and the SQL-only extensions of
// db/stand-ins for those PGlite cannot run (pg_net, http, pg_cron, pg_tle,
// pg_graphql, supabase_vault, pgsodium) or that are plain SQL (pgjwt). A
// bundle is unpacked when the database opens and costs little until CREATE
// EXTENSION loads it. Which ones the bootstrap creates is in db/migrations.
import { amcheck } from '@electric-sql/pglite/contrib/amcheck';
import { bloom } from '@electric-sql/pglite/contrib/bloom';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { citext } from '@electric-sql/pglite/contrib/citext';
import { cube } from '@electric-sql/pglite/contrib/cube';
import { dict_int } from '@electric-sql/pglite/contrib/dict_int';
import { dict_xsyn } from '@electric-sql/pglite/contrib/dict_xsyn';
import { earthdistance } from '@electric-sql/pglite/contrib/earthdistance';
import { fuzzystrmatch } from '@electric-sql/pglite/contrib/fuzzystrmatch';
import { hstore } from '@electric-sql/pglite/contrib/hstore';
import { intarray } from '@electric-sql/pglite/contrib/intarray';
import { isn } from '@electric-sql/pglite/contrib/isn';
import { lo } from '@electric-sql/pglite/contrib/lo';
import { ltree } from '@electric-sql/pglite/contrib/ltree';
import { moddatetime } from '@electric-sql/pglite/contrib/moddatetime';
import { pageinspect } from '@electric-sql/pglite/contrib/pageinspect';
import { pg_buffercache } from '@electric-sql/pglite/contrib/pg_buffercache';
import { pg_freespacemap } from '@electric-sql/pglite/contrib/pg_freespacemap';
import { pg_stat_statements } from '@electric-sql/pglite/contrib/pg_stat_statements';
import { pg_surgery } from '@electric-sql/pglite/contrib/pg_surgery';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { pg_visibility } from '@electric-sql/pglite/contrib/pg_visibility';
import { pg_walinspect } from '@electric-sql/pglite/contrib/pg_walinspect';
import { pgcrypto } from '@electric-sql/pglite/contrib/pgcrypto';
import { seg } from '@electric-sql/pglite/contrib/seg';
import { tablefunc } from '@electric-sql/pglite/contrib/tablefunc';
import { tcn } from '@electric-sql/pglite/contrib/tcn';
import { tsm_system_rows } from '@electric-sql/pglite/contrib/tsm_system_rows';
import { tsm_system_time } from '@electric-sql/pglite/contrib/tsm_system_time';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { uuid_ossp } from '@electric-sql/pglite/contrib/uuid_ossp';
import { vector } from '@electric-sql/pglite-pgvector';
import { standIns } from './stand-ins/index.mjs';

/** PGlite's contrib extensions that Supabase offers too, by their PGlite names. */
export const CONTRIB = {
  amcheck, bloom, btree_gin, btree_gist, citext, cube, dict_int, dict_xsyn, earthdistance, fuzzystrmatch, hstore,
  intarray, isn, lo, ltree, moddatetime, pageinspect, pg_buffercache, pg_freespacemap, pg_stat_statements,
  pg_surgery, pg_trgm, pg_visibility, pg_walinspect, pgcrypto, seg, tablefunc, tcn, tsm_system_rows,
  tsm_system_time, unaccent, uuid_ossp,
};

/**
 * Every extension the stack's database can create, for `PGlite.create({ extensions })`.
 *
 * @example
 * const db = await PGlite.create({ dataDir, extensions: EXTENSIONS })
 */
export const EXTENSIONS = { vector, ...CONTRIB, standIns };
