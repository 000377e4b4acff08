// `alfred-act domain pull`: derives a domain from a live database through
// PostgREST's OpenAPI description (and, with --db-url, the catalog's
// policies, privileges and references into auth.users), merges overrides and
// validates it with the core (docs/own-schema.md). Prints the domain JSON (or
// writes --out) and the notes on what was left out; exit 1 with path,
// message and hint on an error.
import { CATALOG_PATH } from '../db/rest-proxy.mjs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { formatDomain } from '../web/src/domain-pull.js';
import { projectName } from '../web/src/project-name.js';
import { loadCore, pullDomain } from '../web/src/index.node.js';
import { codes } from '../web/dist/error-codes.mjs';

export const DOMAIN_USAGE = `usage: alfred-act domain pull [--url URL] [--key KEY] [--token JWT] [--db-url POSTGRES_URL]
                              [--owner-column NAME] [--overrides FILE] [--out FILE] [--name NAME]
                              [--schema PACK]

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
  --db-url URL         the database itself (postgres://…, default SUPABASE_DB_URL): four
                       read-only catalog queries add the row-level security policies (the owner
                       column each compares with auth.uid()), which tables the authenticated
                       role may write, views, and references to auth.users, which PostgREST does
                       not describe. Needs the pg package (npm install pg)
  --owner-column NAME  the owner column of every table that has a uuid column of that name
                       (per table: "owner" in the overrides)
  --overrides FILE     JSON merged on top of what was derived (per table, per column; null removes)
  --out FILE           write the domain there instead of printing it
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

// The project's name: `name` of ./package.json, without an npm scope.
// Where a database URL points, without its password, for messages.
function databaseAt(dbUrl) {
  try {
    const url = new URL(dbUrl);
    return `${url.hostname}${url.port ? `:${url.port}` : ''}`;
  } catch {
    return 'the --db-url';
  }
}

/**
 * A connected node-postgres client for `dbUrl`, or `{ error }` (pg missing, no
 * connection).
 */
async function connectCatalog(dbUrl) {
  let pg;
  try {
    ({ default: pg } = await import('pg'));
  } catch {
    return { error: { code: codes.invalid_option, path: 'db_url', message: '--db-url needs the pg package, which is not installed', hint: 'npm install pg (an optional peer dependency of alfred-act), or pull without --db-url' } };
  }
  // Client-side timeouts: a startup parameter such as statement_timeout is refused by some poolers.
  const client = new pg.Client({ connectionString: dbUrl, connectionTimeoutMillis: 15_000, query_timeout: 15_000 });
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (cause) {
    await client.end().catch(() => {});
    return {
      error: {
        code: codes.network_error,
        path: 'db_url',
        message: `cannot connect to the database at ${databaseAt(dbUrl)}: ${cause.message}`,
        hint: 'the connection string of Supabase\'s Connect dialog (Session pooler or direct), with the password; or pull without --db-url',
      },
    };
  }
  return { client };
}

function writeError(stderr, error) {
  stderr.write(`error ${error.code}${error.path ? ` at ${error.path}` : ''}: ${error.message}\n${error.hint ? `hint: ${error.hint}\n` : ''}`);
}

// The catalog facts a local stack (`alfred-act stack start`) serves for its
// service key, read from its database before PostgREST connected; nothing
// for any other server (only loopback URLs are asked).
async function localStackCatalog(url, key, stderr) {
  let host;
  try {
    host = new URL(url).hostname;
  } catch {
    return undefined;
  }
  if (!key || !/^(localhost|127(\.\d{1,3}){3}|\[::1\])$/.test(host)) return undefined;
  try {
    const response = await fetch(new URL(CATALOG_PATH, url), { headers: { apikey: key }, signal: AbortSignal.timeout(5000) });
    // A local stack that refuses the key: its PostgREST takes any key, so the
    // pull goes on, but without the catalog owners are guessed (say so).
    if (response.status === 401) {
      stderr.write(
        'note: catalog: this local stack serves its catalog (policies, grants, references to auth.users) to its service key ' +
          'only, not to this key; pass --key <the service key `stack start` printed> for owners that come out right\n',
      );
    }
    if (!response.ok) return undefined;
    const facts = await response.json();
    stderr.write('note: catalog: read from the local stack\n');
    return facts;
  } catch {
    return undefined;
  }
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
  const dbUrl = flags['db-url'] ?? env.SUPABASE_DB_URL;
  let catalog = null;
  if (dbUrl) {
    const connected = await connectCatalog(dbUrl);
    if (connected.error) {
      writeError(stderr, connected.error);
      return 1;
    }
    catalog = connected.client;
  }
  let stack = null;
  try {
    const pulled = await pullSource({ flags, env, catalog, stderr });
    stack = pulled.stack;
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
    for (const note of notes) stderr.write(`note: ${note.path}: ${note.message}\n`);
    if (error) {
      // The options pullDomain names are this command's flags.
      const flag = { apiKey: '--key', accessToken: '--token' }[error.path];
      writeError(stderr, flag ? { ...error, path: flag, message: error.message.replace(error.path, flag) } : error);
      return 1;
    }
    if (!facts) {
      stderr.write('note: no --db-url: owners and user ids come from auth.uid() defaults, foreign keys and column names alone; --db-url adds the row-level security policies and the references to auth.users\n');
    }
    const text = `${formatDomain(domain)}\n`;
    if (flags.out) {
      await writeFile(flags.out, text);
      stderr.write(`wrote ${flags.out}: ${Object.keys(domain.tables).length} tables (${Object.keys(domain.tables).join(', ')})\n`);
    } else {
      stdout.write(text);
    }
    return 0;
  } finally {
    await catalog?.end().catch(() => {});
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
    stderr.write(`${DOMAIN_USAGE}\n`);
    return { exitCode: 2 };
  }
  return { flags };
}

// Where the domain is pulled from: --url (or SUPABASE_URL), else a fresh
// local stack (`stack`, for the caller to stop); and the catalog facts: those
// of the local stack's database read before PostgREST connected (a stack that
// offers them), else those --db-url reads.
async function pullSource({ flags, env, catalog, stderr }) {
  let facts = catalog ? (sql) => catalog.query(sql) : undefined;
  const url = flags.url ?? env.SUPABASE_URL;
  if (url) {
    const source = { url, apiKey: flags.key ?? env.SUPABASE_ANON_KEY ?? '', accessToken: flags.token ?? env.ALFRED_ACCESS_TOKEN ?? '' };
    facts ??= await localStackCatalog(url, source.apiKey, stderr);
    return { source, facts, stack: null };
  }
  const { startStack } = await import('../db/stack.mjs');
  const stack = await startStack({ schema: flags.schema ?? 'kitchen' });
  const source = { url: stack.supabaseUrl, apiKey: stack.anonKey, accessToken: stack.users[0].token };
  facts ??= stack.catalog;
  stderr.write(`no --url or SUPABASE_URL: pulled from a fresh local stack (${stack.schema} schema)\n`);
  return { source, facts, stack };
}
