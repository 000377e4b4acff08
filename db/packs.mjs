// Domain packs: the folders under domains/ that bring a database schema
// (migrations) and demo data (seed) for the local stack. The stack knows no
// pack by name; `startStack({ schema })` loads domains/<schema>/pack.mjs.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MIGRATIONS_DIR, readMigrations, SESSIONS_MIGRATIONS_DIR } from './migrations.mjs';

export const DOMAINS_DIR = fileURLToPath(new URL('../domains/', import.meta.url));

/**
 * The pack `name`: `{ name, probeTable, migrations({ sessions }), seed: { key(today), run(db, { today }) } }`.
 * `migrations()` is the bootstrap (db/migrations), alfred-act's `act_sessions`
 * (db/sessions; not with `{ sessions: false }`), then the pack's own.
 * Throws for a name that is not a pack folder.
 */
export async function loadPack(name) {
  const file = `${DOMAINS_DIR}${name}/pack.mjs`;
  if (typeof name !== 'string' || !/^[a-z][a-z0-9_]*$/.test(name) || !existsSync(file)) {
    throw new Error(`unknown schema ${JSON.stringify(name)}: it must name a domain pack folder with a pack.mjs under domains/ (${listPacks().join(', ')})`);
  }
  const { default: pack } = await import(pathToFileURL(file).href);
  return {
    ...pack,
    migrations: ({ sessions = true } = {}) =>
      readMigrations(MIGRATIONS_DIR, ...(sessions ? [SESSIONS_MIGRATIONS_DIR] : []), ...(pack.migrationsDir ? [pack.migrationsDir] : [])),
  };
}

/** The pack folders under domains/. */
export function listPacks() {
  return readdirSync(DOMAINS_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(`${DOMAINS_DIR}${entry.name}/pack.mjs`))
    .map((entry) => entry.name)
    .sort();
}

/**
 * A pack's domain as the package and the tests use it: its domain.json, with
 * its prompts/<slot>.md files as `prompt_examples` (each file's text without
 * its final newline). Slots without a file are derived from the tables by the
 * core (core/include/alfred/domain/prompt_examples.h).
 */
export function readPackDomain(name) {
  const dir = `${DOMAINS_DIR}${name}/`;
  const domain = JSON.parse(readFileSync(`${dir}domain.json`, 'utf8'));
  const promptsDir = `${dir}prompts/`;
  if (!existsSync(promptsDir)) return domain;
  const examples = {};
  for (const file of readdirSync(promptsDir).filter((f) => f.endsWith('.md')).sort()) {
    examples[file.slice(0, -3)] = readFileSync(`${promptsDir}${file}`, 'utf8').replace(/\n$/, '');
  }
  return Object.keys(examples).length > 0 ? { ...domain, prompt_examples: examples } : domain;
}
