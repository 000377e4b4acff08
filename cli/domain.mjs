// `alfred-act domain pull`: derives a domain from a live database through
// PostgREST's OpenAPI description (and the catalog's policies, privileges,
// references and functions, read as `alfred-act mcp --pull` reads them:
// web/src/pull/catalog-source.js), merges overrides and validates it with the
// core (docs/own-schema.md). Prints the domain JSON (or writes --out), with
// --types also its TypeScript types (docs/types.md), and the notes on what was
// left out; exit 1 with path, message and hint on an error.
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { formatDomain } from '../web/src/pull/index.js';
import { domainTypes } from '../web/src/domain-types.js';
import { NO_CATALOG_NOTE, openPullCatalog } from '../web/src/pull/catalog-source.js';
import { projectName } from '../web/src/project-name.js';
import { loadCore, pullDomain } from '../web/src/index.node.js';

export const DOMAIN_USAGE = `usage: alfred-act domain pull [--url URL] [--key KEY] [--token JWT] [--db-url POSTGRES_URL]
                              [--owner-column NAME] [--overrides FILE] [--out FILE] [--types FILE]
                              [--name NAME] [--schema PACK]

  Derives a domain from the database behind URL (the Supabase URL; PostgREST is under /rest/v1),
  from PostgREST's OpenAPI description, and checks it with the core's domain parser. Per table it
  finds the key (uuid, integer or text; several columns for a join table; none: read-only), the
  owner column (any name) and whether the model may write; notes on stderr say what it left out
  or could not decide, and why.

  --url URL            default SUPABASE_URL; without either, a fresh local stack (--schema)
  --key KEY            the API key sent as apikey (default SUPABASE_ANON_KEY). Hosted Supabase
                       describes the schema only for a secret (service-role) key: pass it here;
                       it is used for this one request, never stored, never used by the Act
  --token JWT          a signed-in user's JWT, sent as the bearer (default ALFRED_ACCESS_TOKEN;
                       optional)
  --db-url URL         the database itself (postgres://…, default SUPABASE_DB_URL): read-only
                       catalog queries add the row-level security policies (the owner column
                       each compares with auth.uid()), which tables the authenticated role may
                       write, views, references to auth.users and to other schemas, and the
                       functions the model may call, which PostgREST does not describe. Needs
                       the pg package (npm install pg). A local stack's own catalog is read
                       with its service key (--key) without it
  --owner-column NAME  the owner column of every table that has a uuid column of that name
                       (per table: "owner" in the overrides)
  --overrides FILE     JSON merged on top of what was derived (per table, per column; null removes)
  --out FILE           write the domain there instead of printing it
  --types FILE         also write the domain's TypeScript types there (domain.d.ts): createAct<Domain>()
                       then rejects a table, column, value or function the domain does not have
  --name NAME          the domain's name (default: the overrides' "name", else the "name" of
                       ./package.json, else the first label of the URL's host)
  --schema PACK        the local stack's domain pack when no URL is given: kitchen (default) or crm`;

async function readJson(file, what) {
  let text;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    throw new Error(`cannot read ${what} ${file}: ${cause.message}`);
  }
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new Error(`${what} ${file} is not JSON: ${cause.message}`);
  }
}

function writeError(stderr, error) {
  stderr.write(`error ${error.code}${error.path ? ` at ${error.path}` : ''}: ${error.message}\n${error.hint ? `hint: ${error.hint}\n` : ''}`);
}

/** Runs `domain <subcommand> …`; resolves to the exit code. */
export async function runDomainCommand(argv, { env = process.env, stdout = process.stdout, stderr = process.stderr, cwd = process.cwd() } = {}) {
  const { flags, exitCode } = readDomainArgs(argv, { stdout, stderr });
  if (!flags) return exitCode;
  let overrides;
  try {
    overrides = flags.overrides ? await readJson(flags.overrides, 'overrides file') : undefined;
  } catch (cause) {
    stderr.write(`${cause.message}\n`);
    return 1;
  }
  let stack = null;
  let close = async () => {};
  try {
    const pulled = await pullSource({ flags, env, stderr });
    if (pulled.error) {
      writeError(stderr, pulled.error);
      return 1;
    }
    ({ stack, close } = pulled);
    const { source, facts } = pulled;
    const core = await loadCore();
    const { data: domain, error, notes } = await pullDomain({
      ...source,
      core,
      overrides,
      catalog: facts,
      ownerColumn: flags['owner-column'],
      name: flags.name,
      defaultName: await projectName(cwd),
    });
    for (const line of noteLines(notes)) stderr.write(`${line}\n`);
    if (error) {
      // The options pullDomain names are this command's flags.
      const flag = { apiKey: '--key', accessToken: '--token' }[error.path];
      writeError(stderr, flag ? { ...error, path: flag, message: error.message.replace(error.path, flag) } : error);
      return 1;
    }
    if (!facts) stderr.write(`note: ${NO_CATALOG_NOTE}\n`);
    const text = `${formatDomain(domain)}\n`;
    if (flags.types) {
      await writeFile(flags.types, domainTypes(core, domain));
      stderr.write(`wrote ${flags.types}: import type { Domain } from it and pass it to createAct<Domain>()\n`);
    }
    if (flags.out) {
      await writeFile(flags.out, text);
      const functions = Object.keys(domain.functions ?? {});
      const called = functions.length > 0 ? `, ${functions.length} function${functions.length > 1 ? 's' : ''} (${functions.join(', ')})` : '';
      const tables = Object.keys(domain.tables);
      stderr.write(`wrote ${flags.out}: ${tables.length} table${tables.length === 1 ? '' : 's'} (${tables.join(', ')})${called}\n`);
    } else {
      stdout.write(text);
    }
    return 0;
  } finally {
    await close();
    await stack?.stop();
  }
}

// `domain pull`'s flags, or the exit code when there is nothing to pull
// (--help, a usage error).
function readDomainArgs(argv, { stdout, stderr }) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        url: { type: 'string' },
        key: { type: 'string' },
        token: { type: 'string' },
        'db-url': { type: 'string' },
        'owner-column': { type: 'string' },
        overrides: { type: 'string' },
        out: { type: 'string' },
        types: { type: 'string' },
        name: { type: 'string' },
        schema: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (cause) {
    stderr.write(`${cause.message}\n\n${DOMAIN_USAGE}\n`);
    return { exitCode: 2 };
  }
  const { values: flags, positionals } = parsed;
  if (flags.help) {
    stdout.write(`${DOMAIN_USAGE}\n`);
    return { exitCode: 0 };
  }
  if (positionals[0] !== 'pull' || positionals.length > 1) {
    // Say which word was not understood: a value given without its flag reads as one.
    const word = positionals[0] !== 'pull' ? positionals[0] : positionals[1];
    // A key pasted without its flag is not echoed whole into a terminal's or a CI's log.
    const stray = word !== undefined && word.length > 24 ? `${word.slice(0, 8)}…` : word;
    const why = stray === undefined ? 'domain needs a command: pull' : positionals[0] !== 'pull' ? `unknown command '${stray}': the one command is pull` : `unexpected argument '${stray}' (a value needs its flag, as --key KEY)`;
    stderr.write(`${why}\n\n${DOMAIN_USAGE}\n`);
    return { exitCode: 2 };
  }
  return { flags };
}

// Where the domain is pulled from: --url (or SUPABASE_URL), else a fresh
// local stack (`stack`, for the caller to stop); and the catalog, read as
// every pull reads it (openPullCatalog: --db-url, else a local stack's own
// for its service key), or the fresh stack's. `{ source, facts, close,
// stack }`, or `{ error }` for a database that cannot be read.
async function pullSource({ flags, env, stderr }) {
  const dbUrl = flags['db-url'] ?? env.SUPABASE_DB_URL;
  const url = flags.url ?? env.SUPABASE_URL;
  if (url) {
    const source = { url, apiKey: flags.key ?? env.SUPABASE_ANON_KEY ?? '', accessToken: flags.token ?? env.ALFRED_ACCESS_TOKEN ?? '' };
    const { data, error } = await openPullCatalog({ url, apiKey: source.apiKey, dbUrl });
    if (error) return { error };
    for (const note of data.notes) stderr.write(`note: ${note.path}: ${note.message}\n`);
    return { source, facts: data.catalog, close: data.close, stack: null };
  }
  const { data, error } = dbUrl ? await openPullCatalog({ dbUrl }) : { data: null, error: null };
  if (error) return { error };
  const { startStack } = await import('../db/local-stack.mjs');
  const stack = await startStack({ schema: flags.schema ?? 'kitchen' });
  const source = { url: stack.supabaseUrl, apiKey: stack.anonKey, accessToken: stack.users[0].token };
  stderr.write(`no --url or SUPABASE_URL: pulled from a fresh local stack (${stack.schema} schema)\n`);
  return { source, facts: data?.catalog ?? stack.catalog, close: data?.close ?? (async () => {}), stack };
}

/**
 * The pull's notes as the command prints them: one line per message, the
 * paths of notes that say the same thing together (Midday's 42 functions
 * offered as reads though volatile make one line, not 42).
 *
 * @example
 * noteLines([{ path: 'functions.a', message: 'm' }, { path: 'functions.b', message: 'm' }]) // ['note: functions.a, functions.b: m']
 */
export function noteLines(notes) {
  const paths = new Map();
  for (const { path, message } of notes) paths.set(message, [...(paths.get(message) ?? []), path]);
  return [...paths].map(([message, at]) => `note: ${at.join(', ')}: ${message}`);
}
