// The database: PGlite (PostgreSQL 18 in WASM) with the extensions of
// db/extensions.mjs (pgvector, the contrib set Supabase offers, the stand-ins
// of db/stand-ins), migrated and seeded in-process. A new database starts
// from a cached snapshot (PGlite's dumpDataDir/loadDataDir, gzipped tarballs
// under node_modules/.cache/alfred-stack/) instead of running initdb, the
// migrations and the seed again. Two layers: the migrated state, keyed by the
// migration files, the stand-ins and the PGlite build, and the seeded state on
// top of it, keyed also by the seed's own key (its files and the day). Either
// is rebuilt when its key changes.
import { PGlite } from '@electric-sql/pglite';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { extensionsFor } from './extensions.mjs';
import { applyMigrations, migrationsHash, readMigrations } from './migrations.mjs';
import { standInsHash } from './stand-ins/index.mjs';

export const SNAPSHOT_DIR = fileURLToPath(new URL('../node_modules/.cache/alfred-stack/', import.meta.url));

function packageVersion(name) {
  let dir = dirname(createRequire(import.meta.url).resolve(name));
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;
}

/** Cache key of the migrated database: the migration files, the stand-in extensions and the PGlite build. */
export function migratedKey(migrations = readMigrations()) {
  return createHash('sha256')
    .update(migrationsHash(migrations))
    .update(standInsHash())
    .update(`pglite ${packageVersion('@electric-sql/pglite')} pgvector ${packageVersion('@electric-sql/pglite-pgvector')}`)
    .digest('hex')
    .slice(0, 24);
}

/**
 * Server settings of hosted Supabase that PGlite's own defaults differ on,
 * given to the backend as start parameters (`-c name=value`, as a
 * postgresql.conf line would be). default_text_search_config: hosted
 * Supabase has 'pg_catalog.english', PGlite 'pg_catalog.simple', under which
 * a text search without a language does not stem ("breads baking" would miss
 * "Bake the sourdough bread"). A start parameter, because PGlite is one
 * backend that every session of the stack shares (PostgREST's through the
 * socket included): it never starts another that would read an `ALTER
 * DATABASE … SET`, and `reset all` returns to a start parameter.
 */
export const SUPABASE_SERVER_SETTINGS = Object.freeze({ default_text_search_config: 'pg_catalog.english' });

const START_PARAMS = [...PGlite.defaultStartParams, ...Object.entries(SUPABASE_SERVER_SETTINGS).flatMap(([name, value]) => ['-c', `${name}=${value}`])];

const snapshotFile = (name) => join(SNAPSHOT_DIR, `${name}.tgz`);
const isMemory = (dataDir) => !dataDir || dataDir.startsWith('memory://');

/**
 * Opens (or creates) the database, brings it to the current migrations and,
 * when `seed` is given, runs `seed.run(db)`.
 *
 * - `dataDir`: a folder (kept between runs) or undefined/'memory://'.
 * - `migrations`: `readMigrations(...)` of the bootstrap and the domain pack
 *   (default: db/migrations alone).
 * - `snapshotName`: the domain pack's name; snapshots are kept per pack, so
 *   stacks of two packs do not evict each other's.
 * - `seed`: `{ key, run(db), sql? }`. A new database whose seed `key` was seen
 *   before starts from the snapshot taken after that seed instead of seeding
 *   again; `key` must change whenever what `run` inserts would. `sql`: the
 *   seed files' text, when there are files, read (with the migrations') for
 *   the contrib extensions they name.
 * - `sql`: other SQL the caller will run on this database itself, read for the
 *   contrib extensions it names too (PGlite takes an extension's bundle only
 *   when it opens).
 *
 * Resolves to `{ db, source, applied, timings }`; `source` is how it was made:
 * `existing` (a data dir opened again), `seeded-snapshot`, `snapshot`
 * (migrated state) or `initdb` (nothing cached yet).
 */
export async function openDatabase({ dataDir, seed, migrations = readMigrations(), snapshotName = 'base', useSnapshot = true, sql = [] } = {}) {
  const migratedName = `${snapshotName}-${migratedKey(migrations)}`;
  const migratedSnapshot = snapshotFile(migratedName);
  const seededSnapshot = seed && useSnapshot ? snapshotFile(`${migratedName}-seed-${seed.key}`) : null;
  const location = isMemory(dataDir) ? 'memory://' : dataDir;
  const timings = {};
  let mark = performance.now();
  const lap = (name) => {
    const now = performance.now();
    timings[name] = Math.round(now - mark);
    mark = now;
  };

  let source;
  let image = null;
  if (!isMemory(dataDir) && existsSync(join(dataDir, 'PG_VERSION'))) source = 'existing';
  else if (seededSnapshot && (image = readIfPresent(seededSnapshot))) source = 'seeded-snapshot';
  else if (useSnapshot && (image = readIfPresent(migratedSnapshot))) source = 'snapshot';
  else source = 'initdb';
  const db = await PGlite.create({
    dataDir: location,
    startParams: START_PARAMS,
    extensions: await extensionsFor([...migrations.map((migration) => migration.sql), ...(seed?.sql ?? []), ...sql]),
    // node:zlib inflates the tarball several times faster than PGlite's own
    // gzip path, so PGlite gets the plain tar.
    ...(image ? { loadDataDir: new Blob([gunzipSync(image)]) } : {}),
  });
  lap('open');

  const applied = await applyMigrations(db, migrations);
  lap('migrate');
  if (source === 'initdb' && useSnapshot) {
    await writeSnapshot(db, migratedSnapshot);
    removeSuperseded(migratedSnapshot, `${snapshotName}-`);
    lap('snapshot');
  }
  if (seed && source !== 'seeded-snapshot') {
    await seed.run(db);
    lap('seed');
    if (seededSnapshot && source !== 'existing') {
      await writeSnapshot(db, seededSnapshot);
      removeSuperseded(seededSnapshot, `${basename(migratedSnapshot, '.tgz')}-seed-`);
      lap('seedSnapshot');
    }
  }
  return { db, source, applied, timings };
}

// Another process may remove a superseded snapshot between a check and a read.
function readIfPresent(path) {
  try {
    return readFileSync(path);
  } catch (error) {
    if (error.code === 'ENOENT') return null;
    throw error;
  }
}

// Snapshots of older migrations, and seeded snapshots of other days, are
// never read again: each write removes the files `keep` supersedes (those
// starting with `prefix`, except `keep` and anything still being written).
function removeSuperseded(keep, prefix) {
  for (const file of readdirSync(SNAPSHOT_DIR)) {
    if (file.startsWith(prefix) && !file.startsWith(basename(keep, '.tgz')) && file.endsWith('.tgz')) {
      rmSync(join(SNAPSHOT_DIR, file), { force: true });
    }
  }
}

// Written under a temporary name and renamed: test processes that start
// stacks in parallel may build the same snapshot at the same time.
async function writeSnapshot(db, path) {
  const blob = await db.dumpDataDir('gzip');
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, Buffer.from(await blob.arrayBuffer()));
  renameSync(temporary, path);
}
