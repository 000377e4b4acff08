// Where a pull's catalog facts come from, the same for every command that
// pulls (`alfred-act domain pull`, `alfred-act mcp --pull`), so both derive
// the same domain from the same project: the database itself when its URL is
// given (the catalog queries over node-postgres, an optional peer
// dependency), else the facts a local stack (db/local-stack.mjs) serves to its
// service key at LOCAL_CATALOG_PATH, else none. Node only (node-postgres).
import { codes } from '../../dist/error-codes.mjs';

/** Where a local stack serves its catalog facts, to its service key only. */
export const LOCAL_CATALOG_PATH = '/alfred/v1/catalog';

/** What a pull without the catalog lacks, for the commands to say. */
export const NO_CATALOG_NOTE =
  'no --db-url: owners and user ids come from auth.uid() defaults, foreign keys and column names alone, and no functions are offered; ' +
  '--db-url adds the row-level security policies, the references to auth.users and to other schemas, and the functions';

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

// Where a database URL points, without its password, for messages.
function databaseAt(dbUrl) {
  try {
    const url = new URL(dbUrl);
    return `${url.hostname}${url.port ? `:${url.port}` : ''}`;
  } catch {
    return 'the database URL';
  }
}

// A connected node-postgres client, or `{ error }` (pg missing, no connection).
async function connect(dbUrl) {
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
        hint: "the connection string of Supabase's Connect dialog (Session pooler or direct), with the password; or pull without --db-url",
      },
    };
  }
  return { client };
}

// The facts a local stack serves for `apiKey` (its service key), with the
// note saying so; nothing for a server that is not on this machine.
async function localStackCatalog(url, apiKey, fetchImpl) {
  let host;
  try {
    host = new URL(url).hostname;
  } catch {
    return { facts: undefined, notes: [] };
  }
  if (!apiKey || !LOOPBACK.test(host)) return { facts: undefined, notes: [] };
  try {
    const response = await fetchImpl(new URL(LOCAL_CATALOG_PATH, url), { headers: { apikey: apiKey }, signal: AbortSignal.timeout(5000) });
    // A local stack that refuses the key: its PostgREST takes any key, so the
    // pull goes on, but without the catalog owners are guessed (say so).
    if (response.status === 401) {
      const message =
        'this local stack serves its catalog (policies, grants, references to auth.users, functions) to its service key only, not to this key; ' +
        'pass --key <the service key `stack start` printed> for owners that come out right';
      return { facts: undefined, notes: [{ path: 'catalog', message }] };
    }
    if (!response.ok) return { facts: undefined, notes: [] };
    return { facts: await response.json(), notes: [{ path: 'catalog', message: 'read from the local stack' }] };
  } catch {
    return { facts: undefined, notes: [] };
  }
}

/**
 * The catalog a pull of `url` reads: with `dbUrl`, a query function over a
 * node-postgres connection to it; else, for a URL on this machine and a key,
 * the facts the local stack serves for that key. Resolves to
 * `{ data: { catalog, notes, close }, error }`: `catalog` is what
 * `pullDomain({ catalog })` takes (undefined for none), `notes` say where it
 * came from (`{ path: 'catalog', message }`), `close()` ends the connection.
 * `error` (pg missing, no connection) has `path` `db_url`.
 *
 * @example
 * const { data, error } = await openPullCatalog({ url, apiKey: secretKey, dbUrl: process.env.SUPABASE_DB_URL })
 * try { result = await pullDomain({ url, apiKey: secretKey, catalog: data.catalog }) } finally { await data.close() }
 */
export async function openPullCatalog({ url, apiKey, dbUrl, fetch: fetchImpl = globalThis.fetch }) {
  if (dbUrl) {
    const { client, error } = await connect(dbUrl);
    if (error) return { data: null, error };
    return { data: { catalog: (sql) => client.query(sql), notes: [], close: () => client.end().catch(() => {}) }, error: null };
  }
  const { facts, notes } = await localStackCatalog(url, apiKey, fetchImpl);
  return { data: { catalog: facts, notes, close: async () => {} }, error: null };
}
