// The embedded local Supabase: PGlite (migrated, seeded) served over the
// Postgres wire protocol by pglite-socket to exactly one client, PostgREST 12.
// Library (startStack) and CLI (`node db/stack.mjs start`).
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { pathToFileURL } from 'node:url';
import { anonKey, newJwtSecret, postgrestJwtSecret, serviceKey, userToken } from './jwt.mjs';
import { loadPack } from './packs.mjs';
import { openDatabase } from './pglite.mjs';
import { freePort } from './ports.mjs';
import { startPostgrest } from './postgrest.mjs';
import { startRestGateway } from './rest-proxy.mjs';
import { SEED_USERS } from './seed/ids.mjs';

const since = (start) => Math.round(performance.now() - start);

/**
 * Starts a local Supabase-like stack and resolves when PostgREST answers an
 * authenticated request.
 *
 * - `schema`: the domain pack whose migrations and seed make the database,
 *   a folder under domains/: `kitchen` (default) or `crm`.
 * - `host`: interface for both servers (loopback only by default).
 * - `pgPort`, `httpPort` (PostgREST), `apiPort` (the Supabase URL, which
 *   serves PostgREST under /rest/v1): default to free ports.
 * - `dataDir`: a folder kept between runs; default in memory.
 * - `seed`: load the pack's demo data for the two demo users (skipped when a
 *   data dir already has them).
 * - `jwtSecret`: HS256 secret; a random one by default.
 * - `jwks`: a JWK set (`{ keys: [...] }`, public keys) whose ES256 / RS256
 *   tokens PostgREST accepts too, as a Supabase project with asymmetric
 *   signing keys does; the HS256 secret keeps working alongside.
 * - `quiet`: false streams PostgREST's output to stderr (it is always kept
 *   and shown when start-up fails).
 *
 * Resolves to `{ supabaseUrl, restUrl, url, schema, anonKey, serviceKey, jwtSecret, users: [{ id, email, token }],
 * pgPort, httpPort, apiPort, timings, exited, reload(), postgrestOutput(), stopPostgrest(), startPostgrest(), stop() }`.
 * `supabaseUrl` is what `createClient(supabaseUrl, anonKey)` and `createAct({ url })` take (PostgREST under
 * /rest/v1); `restUrl` is the bare PostgREST root, and `url` the same root, kept for callers
 * that fetch it directly. `exited` resolves if PostgREST ever stops.
 *
 * @example
 * const stack = await startStack()
 * const [ada] = stack.users
 * const response = await fetch(`${stack.supabaseUrl}/rest/v1/recipes?select=name`, { headers: { apikey: stack.anonKey, authorization: `Bearer ${ada.token}` } })
 * await stack.stop()
 */
export async function startStack({
  schema = 'kitchen',
  host = '127.0.0.1',
  pgPort,
  httpPort,
  apiPort,
  dataDir,
  seed = true,
  jwtSecret = newJwtSecret(),
  jwks,
  quiet = true,
} = {}) {
  const started = performance.now();
  const timings = {};
  const pack = await loadPack(schema);
  // Everything that talks to PGlite directly (migrations, seed) happens
  // before the socket opens: afterwards PostgREST must be its only client.
  const today = new Date();
  const { db, source, timings: dbTimings } = await openDatabase({
    dataDir,
    migrations: pack.migrations(),
    snapshotName: pack.name,
    seed: seed ? { key: pack.seed.key(today), run: (database) => pack.seed.run(database, { today }) } : undefined,
  });
  timings.database = { source, ...dbTimings };

  let socket;
  let postgrest;
  let gateway;
  const closeAll = async () => {
    await gateway?.stop();
    await postgrest?.stop();
    await socket?.stop();
    if (!db.closed) await db.close();
  };
  try {
    const serveAt = performance.now();
    pgPort ??= await freePort(host);
    // A port found free may be taken by another process before PostgREST
    // binds it (parallel test suites): with ports of our own choosing, a
    // PostgREST that exits during start-up is started again on fresh ones.
    const choosePorts = httpPort === undefined || httpPort === null;
    httpPort ??= await freePort(host);
    let adminPort = await freePort(host);
    socket = new PGLiteSocketServer({ db, host, port: pgPort, maxConnections: 1 });
    await socket.start();

    const keys = { anonKey: anonKey(jwtSecret), serviceKey: serviceKey(jwtSecret) };
    const users = seed ? SEED_USERS.map(({ id, email }) => ({ id, email, token: userToken({ id, email }, jwtSecret) })) : [];
    const probeToken = users[0]?.token ?? keys.serviceKey;
    const servePostgrest = () =>
      startPostgrest({
        host,
        pgPort,
        httpPort,
        adminPort,
        jwtSecret: postgrestJwtSecret(jwtSecret, jwks),
        quiet,
        probe: { path: `/${pack.probeTable}?select=id&limit=1`, headers: { apikey: keys.anonKey, authorization: `Bearer ${probeToken}` } },
      });
    for (let attempt = 1; ; attempt++) {
      try {
        postgrest = await servePostgrest();
        break;
      } catch (cause) {
        if (!choosePorts || attempt === 3 || !/PostgREST exited/.test(cause.message)) throw cause;
        httpPort = await freePort(host);
        adminPort = await freePort(host);
      }
    }
    gateway = await startRestGateway({ host, port: apiPort ?? (await freePort(host)), restUrl: postgrest.url });
    timings.serve = since(serveAt);
    timings.total = since(started);

    let stopping;
    return {
      supabaseUrl: gateway.url,
      restUrl: postgrest.url,
      url: postgrest.url,
      schema: pack.name,
      ...keys,
      jwtSecret,
      users,
      pgPort,
      httpPort,
      apiPort: Number(new URL(gateway.url).port),
      timings,
      exited: postgrest.exited,
      /** Makes PostgREST re-read the schema cache (SIGUSR1). */
      reload: () => postgrest.reload(),
      /** The last 64 KB PostgREST wrote, for diagnosing a failed request. */
      postgrestOutput: () => postgrest.output(),
      /**
       * Stops PostgREST alone (the database keeps its data): requests to `url`
       * are then refused, as when a server goes down mid-session.
       */
      stopPostgrest: () => postgrest.stop(),
      /** Starts PostgREST again on the same port after `stopPostgrest()`. */
      async startPostgrest() {
        await postgrest.stop();
        postgrest = await servePostgrest();
      },
      /** Stops PostgREST, the socket and PGlite; safe to call twice. */
      stop: () => (stopping ??= closeAll()),
    };
  } catch (error) {
    await closeAll().catch(() => {});
    throw error;
  }
}

function parseArgs(argv) {
  const options = {};
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${flag} needs a value`);
      return argv[++i];
    };
    const port = () => {
      const n = Number(value());
      if (!Number.isInteger(n) || n < 1 || n > 65535) throw new Error(`${flag} needs a port number (1-65535)`);
      return n;
    };
    if (flag === '--data') options.dataDir = value();
    else if (flag === '--schema') options.schema = value();
    else if (flag === '--port') options.httpPort = port();
    else if (flag === '--api-port') options.apiPort = port();
    else if (flag === '--pg-port') options.pgPort = port();
    else if (flag === '--no-seed') options.seed = false;
    else if (flag === '--verbose') options.quiet = false;
    else throw new Error(`unknown option ${flag}`);
  }
  return options;
}

const USAGE = `usage: node db/stack.mjs start [--schema PACK] [--data DIR] [--api-port N] [--port N] [--pg-port N] [--no-seed] [--verbose]
  Runs PGlite + PostgREST in the foreground until Ctrl-C (SIGINT) or SIGTERM.
  --schema PACK the domain pack under domains/ to migrate and seed: kitchen (default) or crm
  --data DIR   keep the database in DIR (default: in memory)
  --api-port N the Supabase URL's port (PostgREST under /rest/v1, e.g. 54321; default: a free one)
  --port N     PostgREST port (default: a free one); --pg-port N the Postgres wire port
  The JWT secret is PGRST_JWT_SECRET when set, else random (tokens are valid for this run).
  kill -USR1 <pid> reloads PostgREST's schema cache.`;

async function main(argv) {
  const [command, ...rest] = argv;
  if (command !== 'start') {
    console.error(USAGE);
    return 2;
  }
  const options = parseArgs(rest);
  if (process.env.PGRST_JWT_SECRET) options.jwtSecret = process.env.PGRST_JWT_SECRET;
  const stack = await startStack(options);
  const [user] = stack.users;
  const lines = [
    `Local Supabase (PostgREST 12 on PGlite, ${stack.schema} schema) ready in ${(stack.timings.total / 1000).toFixed(1)} s (database: ${stack.timings.database.source})`,
    `  API URL       ${stack.supabaseUrl}   (createClient(url, anonKey), createAct({ url }))`,
    `  REST URL      ${stack.supabaseUrl}/rest/v1   (PostgREST; its bare root: ${stack.restUrl})`,
    `  Postgres      127.0.0.1:${stack.pgPort} (PostgREST's only connection; do not connect to it)`,
    `  anon key      ${stack.anonKey}`,
    `  service key   ${stack.serviceKey}`,
    ...stack.users.map((u) => `  user ${u.email}\n    id    ${u.id}\n    token ${u.token}`),
    '',
    `export SUPABASE_URL=${stack.supabaseUrl}`,
    `export SUPABASE_ANON_KEY=${stack.anonKey}`,
    `export SUPABASE_JWT_SECRET=${stack.jwtSecret}`,
    ...(user ? [`export ALFRED_ACCESS_TOKEN=${user.token}`, `export ALFRED_USER_ID=${user.id}`] : []),
  ];
  console.log(lines.join('\n'));

  process.on('SIGUSR1', () => stack.reload());
  let shuttingDown = false;
  return new Promise((resolve) => {
    const shutDown = (signal) => {
      shuttingDown = true;
      console.error(`\n${signal}: stopping`);
      stack.stop().then(() => resolve(0));
    };
    process.once('SIGINT', shutDown);
    process.once('SIGTERM', shutDown);
    stack.exited.then(({ code, signal }) => {
      if (shuttingDown) return;
      console.error(`PostgREST exited (code ${code}, signal ${signal})\n${stack.postgrestOutput()}`);
      stack.stop().then(() => resolve(1));
    });
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error) => {
      console.error(error.message);
      process.exit(1);
    },
  );
}
