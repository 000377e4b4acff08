// `alfred-act stack start` (and `node db/stack.mjs start`): runs the embedded
// local Supabase in the foreground, on a domain pack or on the developer's own
// supabase/migrations and seed, with email sign-in, until Ctrl-C or SIGTERM.
// Prints the Supabase URL, the keys, each user signed in, and export lines.
import { parseArgs } from 'node:util';
import { importStack } from './backend.mjs';

// Supabase Auth's shortest password; the stack checks it too (db/local-stack.mjs), this names the flag.
const MIN_PASSWORD_LENGTH = 6;

const USERS_SHOWN = 10;

/**
 * The usage text, for `program` (`alfred-act stack` or `node db/stack.mjs`).
 *
 * @example
 * console.error(stackUsage('node db/stack.mjs'))
 */
export const stackUsage = (program = 'alfred-act stack') => `usage: ${program} start [--migrations DIR] [--seed FILE] [--user EMAIL:PASSWORD ...]
           [--sessions] [--access-token-hook FUNCTION] [--data DIR] [--api-port N] [--schema PACK] [--no-seed]
           [--port N] [--pg-port N] [--no-aggregates] [--verbose]

  Runs a local Supabase (PostgREST 12 on PGlite, with email and password sign-in under /auth/v1)
  in the foreground until Ctrl-C (SIGINT) or SIGTERM.

  --migrations DIR     your app's migrations, as \`supabase init\` lays them out (supabase/migrations:
                       <timestamp>_name.sql), applied in file-name order after the Supabase bootstrap
  --seed FILE          a SQL file run once per database after the migrations (supabase/seed.sql);
                       may be given more than once
  --sessions           with --migrations: add alfred-act's act_sessions table, where \`alfred-act mcp
                       --store supabase\` and the worker's ALFRED_MCP_STORE=supabase keep sessions
                       (a domain pack has it already)
  --user EMAIL:PASSWORD[:METADATA]
                       a user to create (or whose password to set), signed in at start; repeatable;
                       the password at least 6 characters; METADATA a JSON object the app's sign-up
                       trigger reads (raw_user_meta_data), as in --user 'ada@example.com:pw-ada-1:{"handle":"ada"}'
  --access-token-hook FUNCTION
                       a custom access token hook, as config.toml's [auth.hook.custom_access_token]
                       (public.custom_access_token_hook, or its pg-functions://postgres/public/… uri)
  --schema PACK        instead of --migrations: a domain pack under domains/, kitchen (default) or crm,
                       seeded with its two demo users unless --no-seed
  --data DIR           keep the database in DIR (default: in memory)
  --api-port N         the Supabase URL's port (e.g. 54321, where \`supabase start\` puts it; default: a free one)
  --port N             PostgREST's own port; --pg-port N the Postgres wire port (default: free ones)
  --no-aggregates      run PostgREST without aggregate functions (db-aggregates-enabled off), as a
                       project that has not enabled them
  --verbose            stream PostgREST's log to stderr

  The JWT secret is PGRST_JWT_SECRET when set, else random (tokens are valid for this run).
  kill -USR1 <pid> reloads PostgREST's schema cache.`;

const PORT = (flag, text) => {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < 1 || n > 65535) throw new Error(`${flag} needs a port number (1-65535), got ${JSON.stringify(text)}`);
  return n;
};

/**
 * The startStack options of `start`'s arguments. Throws with the option's name
 * for a wrong value.
 *
 * @example
 * stackOptions(['--migrations', 'supabase/migrations', '--user', 'ada@example.com:secret-1'])
 * // { migrations: 'supabase/migrations', users: [{ email: 'ada@example.com', password: 'secret-1' }] }
 */
export function stackOptions(args, env = process.env) {
  const { values } = parseArgs({
    args,
    options: {
      migrations: { type: 'string' },
      seed: { type: 'string', multiple: true },
      user: { type: 'string', multiple: true },
      'access-token-hook': { type: 'string' },
      schema: { type: 'string' },
      data: { type: 'string' },
      'api-port': { type: 'string' },
      port: { type: 'string' },
      'pg-port': { type: 'string' },
      'no-seed': { type: 'boolean' },
      sessions: { type: 'boolean' },
      verbose: { type: 'boolean' },
      'no-aggregates': { type: 'boolean' },
    },
  });
  const options = {};
  if (values.migrations !== undefined) options.migrations = values.migrations;
  if (values.schema !== undefined) options.schema = values.schema;
  if (values.migrations !== undefined && values.schema !== undefined) throw new Error('give --migrations (your app) or --schema (a domain pack), not both');
  if (values.seed !== undefined) {
    if (values.migrations === undefined) throw new Error('--seed FILE goes with --migrations; a domain pack seeds itself (--no-seed turns that off)');
    options.seed = values.seed.length === 1 ? values.seed[0] : values.seed;
  }
  if (values['no-seed']) {
    if (values.seed !== undefined) throw new Error('give --seed or --no-seed, not both');
    options.seed = false;
  }
  if (values.user !== undefined) {
    options.users = values.user.map((spec) => {
      const colon = spec.indexOf(':');
      if (colon < 1) throw new Error(`--user needs EMAIL:PASSWORD, got ${JSON.stringify(spec)}`);
      const email = spec.slice(0, colon);
      const { password, metadata } = passwordAndMetadata(spec.slice(colon + 1));
      if (password.length < MIN_PASSWORD_LENGTH) throw new Error(`--user ${email}: the password must be at least ${MIN_PASSWORD_LENGTH} characters (Supabase Auth's minimum)`);
      return metadata ? { email, password, user_metadata: metadata } : { email, password };
    });
  }
  if (values.sessions) options.sessions = true;
  if (values['access-token-hook'] !== undefined) options.accessTokenHook = values['access-token-hook'];
  if (values.data !== undefined) options.dataDir = values.data;
  if (values['api-port'] !== undefined) options.apiPort = PORT('--api-port', values['api-port']);
  if (values.port !== undefined) options.httpPort = PORT('--port', values.port);
  if (values['pg-port'] !== undefined) options.pgPort = PORT('--pg-port', values['pg-port']);
  if (values.verbose) options.quiet = false;
  if (values['no-aggregates']) options.aggregates = false;
  if (env.PGRST_JWT_SECRET) options.jwtSecret = env.PGRST_JWT_SECRET;
  return options;
}

// A signed-in user as `start` prints them; one without a password (a seed's)
// says how to act as them and how to give them one.
function userLines(u) {
  const lines = [`  user ${u.email}`, `    id    ${u.id}`, `    token ${u.token}`];
  if (u.hasPassword === false) lines.push(`    (no password: act with its token, or give --user ${u.email}:PASSWORD to sign in with signInWithPassword)`);
  return lines.join('\n');
}

/**
 * What `start` prints once the stack answers: the URLs, the keys, each user
 * with id and access token (the first ten), notes, and the export lines.
 *
 * @example
 * console.log(describeStack(await startStack({ migrations: 'supabase/migrations' })))
 */
export function describeStack(stack) {
  const [user] = stack.users;
  const what = stack.schema ? `${stack.schema} schema` : `migrations from ${stack.migrations}`;
  const shown = stack.users.slice(0, USERS_SHOWN);
  return [
    `Local Supabase (PostgREST 12 on PGlite, ${what}) ready in ${(stack.timings.total / 1000).toFixed(1)} s (database: ${stack.timings.database.source})`,
    `  API URL       ${stack.supabaseUrl}   (createClient(url, anonKey), createAct({ url }))`,
    `  REST URL      ${stack.supabaseUrl}/rest/v1   (PostgREST; its bare root: ${stack.restUrl})`,
    `  Auth URL      ${stack.authUrl}   (email and password: signInWithPassword, refreshSession, getUser, signOut, signUp)`,
    `  Postgres      127.0.0.1:${stack.pgPort} (PostgREST's only connection; do not connect to it)`,
    `  anon key      ${stack.anonKey}`,
    `  service key   ${stack.serviceKey}`,
    ...(stack.users.length === 0 ? ['  no users (add one with --user EMAIL:PASSWORD, or sign up through /auth/v1)'] : []),
    ...shown.map(userLines),
    ...(stack.users.length > shown.length ? [`  … and ${stack.users.length - shown.length} more users`] : []),
    ...stack.notes.map((note) => `  note: ${note}`),
    '',
    `Your domain: npx alfred-act domain pull --url ${stack.supabaseUrl} --key ${stack.serviceKey} --out domain.json`,
    '  (the stack serves its catalog to that key: owners, policies and references to auth.users come out right)',
    '',
    `export SUPABASE_URL=${stack.supabaseUrl}`,
    `export SUPABASE_ANON_KEY=${stack.anonKey}`,
    `export SUPABASE_JWT_SECRET=${stack.jwtSecret}`,
    ...(user ? [`export ALFRED_ACCESS_TOKEN=${user.token}`, `export ALFRED_USER_ID=${user.id}`] : []),
  ].join('\n');
}

/**
 * Runs `stack start …`; resolves to the exit code once the stack has stopped
 * (0 after SIGINT / SIGTERM, 1 if PostgREST died or start-up failed, 2 for
 * wrong arguments).
 *
 * @example
 * process.exitCode = await runStackCommand(['start', '--migrations', 'supabase/migrations', '--seed', 'supabase/seed.sql'])
 */
export async function runStackCommand(argv, { program = 'alfred-act stack', env = process.env, stdout = process.stdout, stderr = process.stderr } = {}) {
  const [command, ...rest] = argv;
  if (command === '--help' || command === '-h' || command === 'help') {
    stdout.write(`${stackUsage(program)}\n`);
    return 0;
  }
  if (command !== 'start') {
    stderr.write(`${stackUsage(program)}\n`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    stdout.write(`${stackUsage(program)}\n`);
    return 0;
  }
  let options;
  try {
    options = stackOptions(rest, env);
  } catch (error) {
    stderr.write(`${program} start: ${error.message}\n\n${stackUsage(program)}\n`);
    return 2;
  }
  let stack;
  try {
    const { startStack } = await importStack();
    stack = await startStack(options);
  } catch (error) {
    stderr.write(`${error.message}\n`);
    return 1;
  }
  stdout.write(`${describeStack(stack)}\n`);

  const reload = () => stack.reload();
  process.on('SIGUSR1', reload);
  let shuttingDown = false;
  return new Promise((resolve) => {
    const shutDown = (signal) => {
      shuttingDown = true;
      stderr.write(`\n${signal}: stopping\n`);
      stack.stop().then(() => resolve(0));
    };
    process.once('SIGINT', shutDown);
    process.once('SIGTERM', shutDown);
    stack.exited.then(({ code, signal }) => {
      if (shuttingDown) return;
      stderr.write(`PostgREST exited (code ${code}, signal ${signal})\n${stack.postgrestOutput()}\n`);
      stack.stop().then(() => resolve(1));
    });
  }).finally(() => process.off('SIGUSR1', reload));
}

// A --user's text after the email: the password, and the metadata when it
// ends in :{…} that is a JSON object (a password may hold a colon).
function passwordAndMetadata(rest) {
  // The first :{ whose rest is a JSON object (nested objects hold more).
  for (let at = rest.indexOf(':{'); at >= 0; at = rest.indexOf(':{', at + 1)) {
    try {
      const metadata = JSON.parse(rest.slice(at + 1));
      if (metadata !== null && typeof metadata === 'object' && !Array.isArray(metadata)) return { password: rest.slice(0, at), metadata };
    } catch {
      // Not JSON from here: the colon is the password's.
    }
  }
  return { password: rest, metadata: null };
}
