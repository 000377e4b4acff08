// Extensions a Supabase project offers and PGlite cannot run (they need a
// background worker, libcurl, libsodium or a shared library): pg_net, http,
// pg_cron, pg_tle, pg_graphql, supabase_vault and pgsodium, stood in by
// extensions made only of SQL, and pgjwt, which is plain SQL and works. Each
// is a control file and a script in this folder with the real one's schemas,
// types and function signatures, so an app's `create extension if not exists
// pg_net with schema extensions` and its calls to net.http_post load and run;
// every script says in its header what it does not do (nothing is ever sent,
// scheduled or encrypted). They are given to PGlite as an extension ({ name,
// setup }, as pglite's own are), whose init writes the files into PGlite's
// extension directory when the database opens; the files are not part of the
// data dir, so they are written at every open.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const DIR = fileURLToPath(new URL('./', import.meta.url));
const EXTENSION_FILE = /^[a-z_]+(\.control|--[\d.]+\.sql)$/;

let files;
/** The stand-ins' files, `[{ name, text }]` in name order (read once). */
export function standInFiles() {
  files ??= readdirSync(DIR)
    .filter((name) => EXTENSION_FILE.test(name))
    .sort()
    .map((name) => ({ name, text: readFileSync(join(DIR, name), 'utf8') }));
  return files;
}

/** One hash over the stand-ins' files: part of a migrated snapshot's key, since their objects are in it. */
export const standInsHash = () => createHash('sha256').update(standInFiles().map((file) => `${file.name}\n${file.text}`).join('\n')).digest('hex');

/**
 * The PGlite extension that makes the stand-ins available to CREATE
 * EXTENSION: `PGlite.create({ extensions: { standIns } })`.
 *
 * @example
 * const db = await PGlite.create({ extensions: { vector, standIns } })
 * await db.exec('create extension if not exists pg_net with schema extensions')
 */
export const standIns = {
  name: 'alfred-act stand-ins',
  setup: async (pg) => ({
    init: async () => {
      const { rows } = await pg.query("select setting from pg_config where name = 'SHAREDIR'");
      const extensionDir = `${rows[0].setting}/extension`;
      for (const file of standInFiles()) pg.Module.FS.writeFile(`${extensionDir}/${file.name}`, file.text);
    },
  }),
};
