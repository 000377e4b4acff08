// db/migrations/NNN_name.sql, applied in order, each once per database. What
// was applied is recorded (with a checksum) in supabase_migrations, the table
// the Supabase CLI uses, so a data dir opened again gets only the new files and
// a file edited after it was applied is an error instead of a silent mismatch.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

const sha256 = (text) => createHash('sha256').update(text).digest('hex');

/**
 * The migration files of `dirs`, each folder in order, files sorted by name:
 * `{ version, name, sql, checksum }`. The stack passes the bootstrap folder
 * (db/migrations) and then the domain pack's own.
 */
export function readMigrations(...dirs) {
  return (dirs.length > 0 ? dirs : [MIGRATIONS_DIR]).flatMap(readMigrationDir);
}

function readMigrationDir(dir) {
  return readdirSync(dir)
    .filter((file) => /^\d+_.+\.sql$/.test(file))
    .sort()
    .map((file) => {
      const sql = readFileSync(`${dir}/${file}`, 'utf8');
      const [, version, name] = file.match(/^(\d+)_(.+)\.sql$/);
      return { version, name, sql, checksum: sha256(sql) };
    });
}

/** One hash over every migration's name and content: the snapshot cache key. */
export const migrationsHash = (migrations) =>
  sha256(migrations.map((m) => `${m.version}_${m.name}\n${m.checksum}`).join('\n'));

const LEDGER = `
  create schema if not exists supabase_migrations;
  create table if not exists supabase_migrations.schema_migrations (
    version text primary key,
    name text not null,
    checksum text not null,
    applied_at timestamptz not null default now()
  );`;

/**
 * Applies the migrations `db` has not seen, each in its own transaction.
 * Returns the versions applied. Throws when an applied file has changed.
 */
export async function applyMigrations(db, migrations) {
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
          'it belongs to another domain pack; start it with that pack (startStack({ schema })) or use another data dir',
      );
    }
    if (recorded !== undefined) {
      throw new Error(
        `migration ${migration.version}_${migration.name}.sql changed after it was applied to this database; ` +
          'start from a new data dir (or add a new migration instead of editing an applied one)',
      );
    }
    await db.transaction(async (tx) => {
      await tx.exec(migration.sql);
      await tx.query('insert into supabase_migrations.schema_migrations (version, name, checksum) values ($1, $2, $3)', [
        migration.version,
        migration.name,
        migration.checksum,
      ]);
    });
    versions.push(migration.version);
  }
  return versions;
}
