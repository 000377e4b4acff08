// Migrations: db/migrations/NNN_name.sql (the Supabase bootstrap), then a
// domain pack's or an app's own (`supabase/migrations/<timestamp>_name.sql`,
// the layout `supabase init` makes), each applied once per database, in its
// own transaction, statement by statement (db/sql-statements.mjs) so a
// failure names the file and the line. What was applied is recorded (with a
// checksum) in supabase_migrations, the table the Supabase CLI uses, so a data
// dir opened again gets only the new files and a file edited after it was
// applied is an error instead of a silent mismatch.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runSqlText } from './sql-statements.mjs';

export const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

/**
 * alfred-act's own table, `act_sessions` (the MCP server's `--store
 * supabase` and the worker's `ALFRED_MCP_STORE=supabase` keep sessions
 * there): applied after the bootstrap only when the stack is asked for it
 * (`startStack({ sessions })`), so an app's schema has no table it does not use.
 */
export const SESSIONS_MIGRATIONS_DIR = fileURLToPath(new URL('./sessions/', import.meta.url));

const MIGRATION_FILE = /^(\d+)_(.+)\.sql$/;

const sha256 = (text) => createHash('sha256').update(text).digest('hex');

/**
 * The migration files of `dirs`, each folder in order, files sorted by name:
 * `{ version, name, sql, checksum, path }` (`path` as the folder was given,
 * for messages). The stack passes the bootstrap folder (db/migrations) and
 * then the domain pack's or the app's own. A `.sql` file whose name does not
 * start with digits and an underscore is left out, as the Supabase CLI skips
 * it. Throws when a folder is missing or two files share a version.
 *
 * @example
 * const migrations = readMigrations(MIGRATIONS_DIR, 'supabase/migrations')
 */
export function readMigrations(...dirs) {
  const migrations = (dirs.length > 0 ? dirs : [MIGRATIONS_DIR]).flatMap(readMigrationDir);
  const seen = new Map();
  for (const migration of migrations) {
    const other = seen.get(migration.version);
    if (other) {
      throw new Error(
        `migrations ${other.path} and ${migration.path} have the same version ${migration.version}: ` +
          'rename one (the bootstrap uses 001 to 099; `supabase migration new` names files by timestamp)',
      );
    }
    seen.set(migration.version, migration);
  }
  return migrations;
}

function readMigrationDir(dir) {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new Error(`migrations folder ${dir} does not exist`);
  return readdirSync(dir)
    .filter((file) => MIGRATION_FILE.test(file))
    .sort()
    .map((file) => {
      const path = join(dir, file);
      const sql = readFileSync(path, 'utf8');
      const [, version, name] = file.match(MIGRATION_FILE);
      return { version, name, sql, checksum: sha256(sql), path };
    });
}

/** One hash over every migration's name and content: the snapshot cache key. */
export const migrationsHash = (migrations) =>
  sha256(migrations.map((m) => `${m.version}_${m.name}\n${m.checksum}`).join('\n'));

// Supabase's postgres role runs with the extensions schema on its search
// path, so published migrations and seeds call uuid_generate_v4(), crypt()
// and gen_salt() unqualified.
const SUPABASE_SEARCH_PATH = 'set search_path to "$user", public, extensions';

// Each file starts from the session a new connection has, and the session is
// left so after the last: a `supabase db dump` sets the search path to '',
// check_function_bodies and row_security off for the rest of its session, the
// files after it are written for the default one, and PGlite's one session
// is the one PostgREST's requests run in afterwards.
const FRESH_SESSION = `reset all; ${SUPABASE_SEARCH_PATH}`;

const LEDGER = `
  create schema if not exists supabase_migrations;
  create table if not exists supabase_migrations.schema_migrations (
    version text primary key,
    name text not null,
    checksum text not null,
    applied_at timestamptz not null default now()
  );
  create table if not exists supabase_migrations.seed_files (
    path text primary key,
    hash text not null
  );`;

/**
 * Applies the migrations `db` has not seen, each in its own transaction.
 * Returns the versions applied. Throws when an applied file has changed, and
 * a SqlFileError (file, line, statement, PostgreSQL's message) when a
 * statement fails; that migration is rolled back, the earlier ones stay.
 *
 * @example
 * const applied = await applyMigrations(db, readMigrations(MIGRATIONS_DIR, 'supabase/migrations'))
 */
export async function applyMigrations(db, migrations) {
  await db.exec(SUPABASE_SEARCH_PATH);
  await db.exec(LEDGER);
  const { rows } = await db.query('select version, name, checksum from supabase_migrations.schema_migrations');
  const applied = new Map(rows.map((row) => [row.version, row]));
  const versions = [];
  for (const migration of migrations) {
    const recorded = applied.get(migration.version);
    if (recorded?.checksum === migration.checksum) continue;
    if (recorded !== undefined && recorded.name !== migration.name) {
      throw new Error(
        `this database was migrated with ${recorded.version}_${recorded.name}.sql, not ${migration.version}_${migration.name}.sql: ` +
          'it belongs to another domain pack or app; start it with that one (startStack({ schema }) or { migrations }) or use another data dir',
      );
    }
    if (recorded !== undefined) {
      throw new Error(
        `migration ${migration.version}_${migration.name}.sql changed after it was applied to this database; ` +
          'start from a new data dir (or add a new migration instead of editing an applied one)',
      );
    }
    await db.exec(FRESH_SESSION);
    await inTransaction(db, async () => {
      await runSqlText(db, migration.sql, { file: migration.path ?? `${migration.version}_${migration.name}.sql`, what: 'migration' });
      await db.query('insert into supabase_migrations.schema_migrations (version, name, checksum) values ($1, $2, $3)', [
        migration.version,
        migration.name,
        migration.checksum,
      ]);
    });
    versions.push(migration.version);
  }
  await db.exec(FRESH_SESSION);
  return versions;
}

/**
 * Runs the seed files (`{ path, sql }`) once per database, in one
 * transaction, statement by statement, and records each in
 * supabase_migrations.seed_files (path, hash) as the Supabase CLI does.
 * A file recorded before is not run again; resolves to
 * `{ ran: [paths], skipped: [{ path, changed }] }` (`changed`: its content
 * differs from the one that was run).
 *
 * @example
 * await applySeedFiles(db, [{ path: 'supabase/seed.sql', sql: readFileSync('supabase/seed.sql', 'utf8') }])
 */
export async function applySeedFiles(db, files) {
  await db.exec(SUPABASE_SEARCH_PATH);
  await db.exec(LEDGER);
  const { rows } = await db.query('select path, hash from supabase_migrations.seed_files');
  const recorded = new Map(rows.map((row) => [row.path, row.hash]));
  const ran = [];
  const skipped = [];
  const pending = files.filter((file) => {
    if (!recorded.has(file.path)) return true;
    skipped.push({ path: file.path, changed: recorded.get(file.path) !== sha256(file.sql) });
    return false;
  });
  if (pending.length === 0) return { ran, skipped };
  await inTransaction(db, async () => {
    for (const file of pending) {
      await db.exec(FRESH_SESSION);
      await runSqlText(db, file.sql, { file: file.path, what: 'seed' });
      await db.query('insert into supabase_migrations.seed_files (path, hash) values ($1, $2)', [file.path, sha256(file.sql)]);
      ran.push(file.path);
    }
  });
  await db.exec(FRESH_SESSION);
  return { ran, skipped };
}

// A file may end the transaction itself (`begin; … commit;`, as some
// published migrations do): PostgreSQL then warns at our commit, and the rest
// runs in autocommit, as it would under the Supabase CLI.
async function inTransaction(db, work) {
  await db.exec('begin');
  try {
    await work();
  } catch (error) {
    await db.exec('rollback').catch(() => {});
    throw error;
  }
  await db.exec('commit');
}
