// The database: PGlite (PostgreSQL 18 in WASM) with pgvector and pgcrypto,
// migrated in-process. A new database starts from a cached snapshot of the
// migrated state (PGlite's dumpDataDir/loadDataDir) instead of running initdb
// and the migrations again: about 1.5 s instead of about 4 s. The snapshot is
// keyed by the migration files and the PGlite versions, so it is rebuilt when
// either changes.
import { PGlite } from '@electric-sql/pglite';
import { pgcrypto } from '@electric-sql/pglite/contrib/pgcrypto';
import { vector } from '@electric-sql/pglite-pgvector';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { applyMigrations, migrationsHash, readMigrations } from './migrations.mjs';

const EXTENSIONS = { vector, pgcrypto };
export const SNAPSHOT_DIR = fileURLToPath(new URL('../node_modules/.cache/alfred-stack/', import.meta.url));

function packageVersion(name) {
  let dir = dirname(createRequire(import.meta.url).resolve(name));
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;
}

/** Path of the snapshot for these migrations and this PGlite build. */
export function snapshotPath(migrations = readMigrations()) {
  const key = createHash('sha256')
    .update(migrationsHash(migrations))
    .update(`pglite ${packageVersion('@electric-sql/pglite')} pgvector ${packageVersion('@electric-sql/pglite-pgvector')}`)
    .digest('hex')
    .slice(0, 24);
  return join(SNAPSHOT_DIR, `${key}.tgz`);
}

const isMemory = (dataDir) => !dataDir || dataDir.startsWith('memory://');

/**
 * Opens (or creates) the database and brings it to the current migrations.
 * `dataDir`: a folder (kept between runs) or undefined/'memory://'.
 * Returns `{ db, source, timings }`; `source` says how it was made:
 * `snapshot`, `initdb` (snapshot written for next time) or `existing`.
 */
export async function openDatabase({ dataDir, useSnapshot = true } = {}) {
  const migrations = readMigrations();
  const timings = {};
  const started = performance.now();
  const existing = !isMemory(dataDir) && existsSync(join(dataDir, 'PG_VERSION'));
  const snapshot = snapshotPath(migrations);
  const location = isMemory(dataDir) ? 'memory://' : dataDir;

  let db;
  let source;
  if (existing) {
    db = await PGlite.create({ dataDir: location, extensions: EXTENSIONS });
    source = 'existing';
  } else if (useSnapshot && existsSync(snapshot)) {
    db = await PGlite.create({ dataDir: location, loadDataDir: new Blob([readFileSync(snapshot)]), extensions: EXTENSIONS });
    source = 'snapshot';
  } else {
    db = await PGlite.create({ dataDir: location, extensions: EXTENSIONS });
    source = 'initdb';
  }
  timings.open = performance.now() - started;

  const migrated = performance.now();
  const applied = await applyMigrations(db, migrations);
  timings.migrate = performance.now() - migrated;

  if (source === 'initdb' && useSnapshot) {
    const dumped = performance.now();
    await writeSnapshot(db, snapshot);
    timings.snapshot = performance.now() - dumped;
  }
  return { db, source, applied, timings };
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
