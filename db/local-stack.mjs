// The embedded local Supabase: PGlite (migrated, seeded) served over the
// Postgres wire protocol by pglite-socket to exactly one client, PostgREST 12,
// behind a gateway that serves PostgREST under /rest/v1 and a small
// GoTrue-compatible sign-in under /auth/v1. The database is a domain pack's
// (domains/<schema>/) or a developer's own app's (`supabase/migrations`,
// `supabase/seed.sql`). The library only (startStack, also `alfred-act/stack`):
// its command line is cli/stack.mjs (`alfred-act stack start`, and
// `node db/stack.mjs start` through the script entry db/stack.mjs).
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { accessTokenClaims, accessTokenHookEvent, createAuthHandler, hookedClaims } from './auth.mjs';
import { anonKey, newJwtSecret, postgrestJwtSecret, serviceKey, signJwt } from './jwt.mjs';
import { applySeedFiles, MIGRATIONS_DIR, readMigrations, SESSIONS_MIGRATIONS_DIR } from './migrations.mjs';
import { loadPack } from './packs.mjs';
import { openDatabase } from './pglite.mjs';
import { freePort } from './ports.mjs';
import { startPostgrest } from './postgrest.mjs';
import { openRestGateway } from './rest-proxy.mjs';
import { catalogFacts } from '../web/src/pull/catalog.js';

export { SqlFileError } from './sql-statements.mjs';

const since = (start) => Math.round(performance.now() - start);
const sha256 = (text) => createHash('sha256').update(text).digest('hex');
const TEN_YEARS_S = 10 * 365 * 24 * 3600;
const MIN_PASSWORD_LENGTH = 6;

/**
 * Starts a local Supabase-like stack and resolves when PostgREST answers an
 * authenticated request.
 *
 * The database, one of:
 * - `schema`: a domain pack under domains/, `kitchen` (the default) or
 *   `crm`: its migrations and, with `seed` (default true), its demo data for
 *   the two demo users (skipped when a data dir already has them);
 * - `migrations`: the folder of a developer's own migrations, in the layout
 *   `supabase init` makes (`supabase/migrations/<timestamp>_name.sql`),
 *   applied in file-name order after the Supabase bootstrap (db/migrations),
 *   read where they are. `seed`: a SQL file (`supabase/seed.sql`) or a list
 *   of them, run once per database as postgres after the migrations. A
 *   failing statement rejects with a SqlFileError that names the file, the
 *   line, the statement and PostgreSQL's message.
 *
 * Either way:
 * - `sessions`: whether the database has `public.act_sessions`, the table
 *   where the MCP server (`--store supabase`) and the worker
 *   (`ALFRED_MCP_STORE=supabase`) keep sessions as the user
 *   (db/sessions/010_act_sessions.sql, applied after the bootstrap). Default:
 *   true for a domain pack (its demo serves those), false for your own
 *   migrations (your schema gets no table it does not use).
 * - `users`: `[{ email, password, id?, user_metadata? }]` to create in
 *   auth.users (bcrypt password, confirmed; the app's `on auth.users` triggers
 *   run), or whose password to set when the seed made that email.
 * - `host`: interface for the servers (loopback only by default).
 * - `pgPort`, `httpPort` (PostgREST), `apiPort` (the Supabase URL, which
 *   serves PostgREST under /rest/v1 and sign-in under /auth/v1): free ports
 *   by default.
 * - `dataDir`: a folder kept between runs; default in memory.
 * - `jwtSecret`: HS256 secret; a random one by default. `jwtExpiry`: seconds
 *   a signed-in access token lives (default 3600, as on Supabase).
 * - `accessTokenHook`: a custom access token hook, the function
 *   (`public.custom_access_token_hook`, or config.toml's
 *   `pg-functions://postgres/public/custom_access_token_hook`) every access
 *   token's claims go through, as with `[auth.hook.custom_access_token]`.
 * - `jwks`: a JWK set (`{ keys: [...] }`, public keys) whose ES256 / RS256
 *   tokens PostgREST accepts too, as a Supabase project with asymmetric
 *   signing keys does; the HS256 secret keeps working alongside.
 * - `aggregates`: false runs PostgREST with aggregate functions off
 *   (`db-aggregates-enabled`, on by default here), as a hosted project
 *   without them answers `count()` or `sum()` in a select.
 * - `sql`: SQL text (or a list) run as postgres on every start, after the
 *   migrations and the seed, before PostgREST reads the schema: a test's or
 *   a bench's own fixtures. Write it to run again (`create or replace`).
 * - `quiet`: false streams PostgREST's output to stderr (it is always kept
 *   and shown when start-up fails).
 *
 * Resolves to `{ supabaseUrl, restUrl, url, authUrl, schema, migrations, anonKey, serviceKey, jwtSecret,
 * users: [{ id, email, token, refreshToken }], notes, catalog, pgPort, httpPort, apiPort, timings, exited, reload(),
 * postgrestOutput(), stopPostgrest(), startPostgrest(), stop() }`.
 * `supabaseUrl` is what `createClient(supabaseUrl, anonKey)` and `createAct({ url })` take; `restUrl` is the
 * bare PostgREST root, and `url` the same root, kept for callers that fetch it directly. `users` are every
 * user of auth.users (those of `users` first, then by creation), each signed in: `token` is the access token of
 * a session made at start (valid for ten years, for scripts), `refreshToken` that session's refresh token.
 * `notes` says what was skipped (a seed already run on this data dir). `exited` resolves if PostgREST stops.
 *
 * @example
 * const stack = await startStack({ migrations: 'supabase/migrations', seed: 'supabase/seed.sql', users: [{ email: 'ada@example.com', password: 'ada-password' }] })
 * const supabase = createClient(stack.supabaseUrl, stack.anonKey)
 * await supabase.auth.signInWithPassword({ email: 'ada@example.com', password: 'ada-password' })
 * await stack.stop()
 */
export async function startStack({
  schema,
  migrations,
  seed,
  sessions,
  users = [],
  host = '127.0.0.1',
  pgPort,
  httpPort,
  apiPort,
  dataDir,
  jwtSecret = newJwtSecret(),
  jwtExpiry = 3600,
  accessTokenHook,
  jwks,
  aggregates = true,
  sql = [],
  quiet = true,
} = {}) {
  const started = performance.now();
  const timings = {};
  const database = await databaseSource({ schema, migrations, seed, sessions });
  const newUsers = checkUsers(users);
  const hook = hookFunction(accessTokenHook);
  const notes = [];
  // Everything that talks to PGlite directly (migrations, seed, users, the
  // sessions of the users' tokens) happens before the socket opens:
  // afterwards PostgREST must be its only client.
  const { db, source, timings: dbTimings } = await openDatabase({
    dataDir,
    migrations: database.migrations,
    snapshotName: database.snapshotName,
    seed: database.seed && { key: database.seed.key, sql: database.seed.sql, run: (opened) => database.seed.run(opened, notes) },
    sql: [sql].flat(),
  });
  await runOwnSql(db, sql);
  timings.database = { source, ...dbTimings };

  const servers = { db, socket: null, postgrest: null, gateway: null };
  try {
    // The Supabase URL's port is bound first and held (the users' tokens
    // name it as their issuer); it serves once PostgREST runs.
    servers.gateway = await openRestGateway({ host, port: apiPort ?? 0 });
    const supabaseUrl = servers.gateway.url;
    const issuer = `${supabaseUrl}/auth/v1`;
    await configureHook(db, hook);
    const usersAt = performance.now();
    const signedIn = await signInUsers(db, newUsers, { jwtSecret, issuer, hook });
    timings.users = since(usersAt);
    // What `domain pull` reads from the catalog (policies, references to
    // auth.users, grants), read while PGlite still has no other client.
    const catalogAt = performance.now();
    const catalog = await catalogFacts((sql) => db.query(sql));
    timings.catalog = since(catalogAt);

    const serveAt = performance.now();
    pgPort = await openSocket(servers, { host, pgPort });
    const keys = { anonKey: anonKey(jwtSecret), serviceKey: serviceKey(jwtSecret) };
    const probe = database.probeTable
      ? { path: `/${database.probeTable}?select=id&limit=1`, headers: { apikey: keys.anonKey, authorization: `Bearer ${signedIn[0]?.token ?? keys.serviceKey}` } }
      : { path: '/', headers: { apikey: keys.serviceKey, authorization: `Bearer ${keys.serviceKey}` } };
    const rest = await serveRest(servers, { host, pgPort, httpPort, jwtSecret: postgrestJwtSecret(jwtSecret, jwks), aggregates, quiet, probe });
    const { postgrest } = servers;
    const auth = createAuthHandler({ restUrl: postgrest.url, serviceKey: keys.serviceKey, jwtSecret, jwks, issuer, jwtExpiry, accessTokenHook: hook !== null });
    servers.gateway.serve({ restUrl: postgrest.url, auth, catalog: { facts: catalog, serviceKey: keys.serviceKey } });
    timings.serve = since(serveAt);
    timings.total = since(started);
    const fields = { authUrl: issuer, schema: database.schema, migrations: database.migrationsDir, keys, jwtSecret, users: signedIn, notes, catalog, pgPort, httpPort: rest.httpPort, timings };
    return stackHandle(servers, fields, rest.servePostgrest);
  } catch (error) {
    await closeServers(servers).catch(() => {});
    throw error;
  }
}

// startStack's `sql`: run as postgres on every start; a failure closes the database.
async function runOwnSql(db, sql) {
  try {
    for (const text of [sql].flat()) await db.exec(text);
  } catch (error) {
    await db.close();
    throw error;
  }
}

// Stops the gateway, PostgREST, the socket and PGlite, those that started.
async function closeServers({ db, socket, postgrest, gateway }) {
  await gateway?.stop();
  await postgrest?.stop();
  await socket?.stop();
  if (!db.closed) await db.close();
}

// Serves `servers.db` over the Postgres wire protocol (`servers.socket`);
// resolves to its port. A port found free may be taken by another process
// before it is bound (parallel test suites): a port of our own choosing is
// chosen again.
async function openSocket(servers, { host, pgPort }) {
  const choosePgPort = pgPort === undefined || pgPort === null;
  for (let attempt = 1; ; attempt++) {
    pgPort ??= await freePort(host);
    // PostgREST holds one connection (db-pool 1, no LISTEN channel). A
    // second slot lets it reconnect while the socket server is still
    // letting go of a connection that dropped; pglite-socket keeps a
    // transaction on the connection that opened it.
    servers.socket = new PGLiteSocketServer({ db: servers.db, host, port: pgPort, maxConnections: 2 });
    try {
      await servers.socket.start();
      return pgPort;
    } catch (cause) {
      if (!choosePgPort || attempt === 3 || cause?.code !== 'EADDRINUSE') throw cause;
      pgPort = undefined;
    }
  }
}

// Starts PostgREST on the socket (`servers.postgrest`); resolves to
// `{ httpPort, servePostgrest }`, the latter starting it again on the same
// ports. With ports of our own choosing, a PostgREST that exits during
// start-up (its port taken meanwhile) is started again on fresh ones.
async function serveRest(servers, { host, pgPort, httpPort, jwtSecret, aggregates, quiet, probe }) {
  const choosePorts = httpPort === undefined || httpPort === null;
  httpPort ??= await freePort(host);
  let adminPort = await freePort(host);
  const servePostgrest = () => startPostgrest({ host, pgPort, httpPort, adminPort, jwtSecret, aggregates, quiet, probe });
  for (let attempt = 1; ; attempt++) {
    try {
      servers.postgrest = await servePostgrest();
      return { httpPort, servePostgrest };
    } catch (cause) {
      if (!choosePorts || attempt === 3 || !/PostgREST exited/.test(cause.message)) throw cause;
      httpPort = await freePort(host);
      adminPort = await freePort(host);
    }
  }
}

// What startStack resolves to (see there), over the running `servers`.
function stackHandle(servers, { authUrl, schema, migrations, keys, jwtSecret, users, notes, catalog, pgPort, httpPort, timings }, servePostgrest) {
  const { gateway } = servers;
  let stopping;
  return {
    supabaseUrl: gateway.url,
    restUrl: servers.postgrest.url,
    url: servers.postgrest.url,
    authUrl,
    schema,
    migrations,
    ...keys,
    jwtSecret,
    users,
    notes,
    /** The catalog facts `domain pull` reads (also served for the service key at /alfred/v1/catalog). */
    catalog,
    pgPort,
    httpPort,
    apiPort: Number(new URL(gateway.url).port),
    timings,
    exited: servers.postgrest.exited,
    /** Makes PostgREST re-read the schema cache (SIGUSR1). */
    reload: () => servers.postgrest.reload(),
    /** The last 64 KB PostgREST wrote, for diagnosing a failed request. */
    postgrestOutput: () => servers.postgrest.output(),
    /**
     * Stops PostgREST alone (the database keeps its data): requests to `url`
     * are then refused, as when a server goes down mid-session.
     */
    stopPostgrest: () => servers.postgrest.stop(),
    /** Starts PostgREST again on the same port after `stopPostgrest()`. */
    async startPostgrest() {
      await servers.postgrest.stop();
      servers.postgrest = await servePostgrest();
    },
    /** Stops the gateway, PostgREST, the socket and PGlite; safe to call twice. */
    stop: () => (stopping ??= closeServers(servers)),
  };
}

// What makes the database: `{ schema, migrationsDir, migrations, snapshotName, probeTable, seed: { key, sql?, run(db, notes) } }` (sql: an app's seed files).
async function databaseSource({ schema, migrations, seed, sessions }) {
  if (sessions !== undefined && typeof sessions !== 'boolean') throw new TypeError('startStack: sessions must be true or false');
  if (migrations !== undefined && migrations !== null) {
    if (schema !== undefined) throw new TypeError('startStack: give schema (a domain pack) or migrations (your app\'s folder), not both');
    if (typeof migrations !== 'string' || migrations === '') throw new TypeError('startStack: migrations must be the path of a folder (e.g. supabase/migrations)');
    if (seed === true) throw new TypeError('startStack: with migrations, seed is the path of a SQL file (e.g. supabase/seed.sql) or a list of them');
    const seedPaths = seed === undefined || seed === null || seed === false ? [] : [seed].flat();
    for (const path of seedPaths) {
      if (typeof path !== 'string' || path === '') throw new TypeError('startStack: seed must be the path of a SQL file or a list of them');
      if (!existsSync(path) || !statSync(path).isFile()) throw new Error(`seed file ${path} does not exist`);
    }
    const seedFiles = seedPaths.map((path) => ({ path, sql: readFileSync(path, 'utf8') }));
    return {
      schema: null,
      migrationsDir: migrations,
      migrations: readMigrations(MIGRATIONS_DIR, ...(sessions ? [SESSIONS_MIGRATIONS_DIR] : []), migrations),
      // Snapshots are kept per app folder (and with or without act_sessions),
      // so two apps do not evict each other's.
      snapshotName: `app-${sha256(resolve(migrations)).slice(0, 12)}${sessions ? '.sessions' : ''}`,
      probeTable: null,
      seed: seedFiles.length === 0 ? null : {
        // The day too: a seed's now() and current_date are frozen in the
        // seeded snapshot, so it is made again each day.
        key: `${new Date().toISOString().slice(0, 10)}-${sha256(seedFiles.map((file) => `${file.path}\n${sha256(file.sql)}`).join('\n')).slice(0, 16)}`,
        sql: seedFiles.map((file) => file.sql),
        run: async (db, notes) => {
          const { skipped } = await applySeedFiles(db, seedFiles);
          for (const { path, changed } of skipped) {
            notes.push(`seed ${path} was run on this database before${changed ? ' and has changed since: start from a new data dir to run it again' : ''}; not run again`);
          }
        },
      },
    };
  }
  if (typeof seed === 'string' || Array.isArray(seed)) throw new TypeError('startStack: a SQL seed file goes with migrations; a domain pack\'s seed is true or false');
  const pack = await loadPack(schema ?? 'kitchen');
  const today = new Date();
  return {
    schema: pack.name,
    migrationsDir: null,
    migrations: pack.migrations({ sessions: sessions ?? true }),
    snapshotName: sessions === false ? `${pack.name}.no-sessions` : pack.name,
    probeTable: pack.probeTable,
    seed: seed === false ? null : { key: pack.seed.key(today), run: (db) => pack.seed.run(db, { today }) },
  };
}

function checkUsers(users) {
  if (!Array.isArray(users)) throw new TypeError('startStack: users must be a list of { email, password }');
  const seen = new Set();
  return users.map((user, index) => {
    const { email, password, id, user_metadata: metadata } = user ?? {};
    if (typeof email !== 'string' || !/^[^\s@]+@[^\s@]+$/.test(email)) throw new TypeError(`startStack: users[${index}].email must be an email address, got ${JSON.stringify(email)}`);
    if (typeof password !== 'string' || password.length < MIN_PASSWORD_LENGTH) {
      throw new TypeError(`startStack: users[${index}].password must be a string of at least ${MIN_PASSWORD_LENGTH} characters (Supabase Auth's minimum)`);
    }
    if (id !== undefined && !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) throw new TypeError(`startStack: users[${index}].id must be a UUID`);
    if (metadata !== undefined && (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata))) throw new TypeError(`startStack: users[${index}].user_metadata must be an object`);
    if (seen.has(email.toLowerCase())) throw new TypeError(`startStack: users lists ${email} twice`);
    seen.add(email.toLowerCase());
    return { email, password, id: id ?? null, metadata: metadata ?? null };
  });
}

// `schema.function` from either spelling; null without a hook.
function hookFunction(hook) {
  if (hook === undefined || hook === null) return null;
  const match = typeof hook === 'string' && /^(?:pg-functions:\/\/[^/]+\/([^/]+)\/([^/]+)|([A-Za-z_][\w$]*)\.([A-Za-z_][\w$]*))$/.exec(hook);
  if (!match) {
    throw new TypeError(`startStack: accessTokenHook must name a function, schema.function or pg-functions://postgres/schema/function, got ${JSON.stringify(hook)}`);
  }
  return match[1] ? `${match[1]}.${match[2]}` : `${match[3]}.${match[4]}`;
}

// Records the hook (or its absence) where alfred_auth.run_access_token_hook reads it.
async function configureHook(db, hook) {
  await db.exec('delete from alfred_auth.hooks');
  if (hook === null) return;
  const { rows } = await db.query('select to_regproc($1) is not null as found', [hook]);
  if (!rows[0].found) throw new Error(`the access token hook ${hook} is not a function in this database (is its migration there?)`);
  await db.query(`insert into alfred_auth.hooks (name, function) values ('custom_access_token', to_regproc($1))`, [hook]);
}

// Creates `newUsers` (or sets their passwords), then signs every user of
// auth.users in: one session each, `{ id, email, token, refreshToken,
// hasPassword }` (the condition alfred_auth.sign_in_with_password checks
// first: a seed's user may have none), the given users first in their
// order, then the rest by creation.
async function signInUsers(db, newUsers, { jwtSecret, issuer, hook }) {
  const givenIds = [];
  if (newUsers.length > 0) {
    await db.transaction(async (tx) => {
      for (const user of newUsers) {
        const { rows } = await tx.query('select alfred_auth.ensure_user($1, $2, $3, $4) as id', [user.email, user.password, user.id, user.metadata]).catch((error) => {
          // The app's own sign-up trigger on auth.users refused the user (a handle it reads from the metadata, say).
          const metadata = user.metadata ? `with user_metadata ${JSON.stringify(user.metadata)}` : 'with no user_metadata';
          throw new Error(`creating the user ${user.email} failed ${metadata}: ${error.message}; a trigger of the app on auth.users may need metadata (its sign-up form's fields): give them as --user EMAIL:PASSWORD:'{"handle":"ada"}', or users[].user_metadata in startStack`, { cause: error });
        });
        givenIds.push(rows[0].id);
      }
    });
  }
  const { rows } = await db.query(`
    select alfred_auth.issue_session(u) as session, coalesce(u.encrypted_password, '') <> '' as has_password
    from auth.users u
    where u.deleted_at is null
    order by array_position($1::uuid[], u.id) nulls last, u.created_at, u.email`, [givenIds]);
  const now = Math.floor(Date.now() / 1000);
  const signed = [];
  for (const { session: { user, session_id: sessionId, refresh_token: refreshToken }, has_password: hasPassword } of rows) {
    let claims = accessTokenClaims(user, { sessionId, method: 'password', issuer, now, exp: now + TEN_YEARS_S });
    if (hook) {
      const { rows: [{ answer }] } = await db.query('select alfred_auth.run_access_token_hook($1) as answer', [accessTokenHookEvent(claims, 'password')]);
      const hooked = hookedClaims(answer);
      if (hooked.error) throw new Error(`the access token hook ${hook} refused ${user.email}: ${hooked.error.message}`);
      claims = hooked.claims;
    }
    signed.push({ id: user.id, email: user.email, token: signJwt(claims, jwtSecret), refreshToken, hasPassword });
  }
  return signed;
}
