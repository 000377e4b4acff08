// Runs the worker on 127.0.0.1 in the real runtimes from npm — workerd (a
// generated capnp config, the .wasm as a wasm module as wrangler uploads it)
// and Deno (worker/deno.js) — for the tests, the load test and local use:
//   node worker/local.mjs workerd|deno   (config from the environment; PORT)
import { spawn, execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { freePort } from '../db/ports.mjs';
import { WORKER_VARIABLES } from './src/variables.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SCRATCH = join(ROOT, '.scratch');
const bin = (name) => join(ROOT, 'node_modules/.bin', name);
const DENO_ENV = { DENO_DIR: join(SCRATCH, 'deno-dir'), DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' };
const READY_TIMEOUT_MS = 30_000;

/**
 * Serves the worker in workerd. `env` holds the worker's variables (plain
 * text bindings); `port` defaults to a free one. Resolves once /health
 * answers (with any status), to `{ url, urls, runtime, pid, stop(), output(), exited }`.
 *
 * `durableLimits: true` serves src/durable.js instead, its limits counted in
 * the LimitCounter Durable Object (in memory) bound as LIMITS, as on
 * Cloudflare; `instances: n` then runs n copies of the worker, each its own
 * isolate on its own port (`urls`), sharing those Durable Objects.
 *
 * @example
 * const worker = await startWorkerd({ env: { SUPABASE_URL, SUPABASE_ANON_KEY } })
 * await fetch(`${worker.url}/health`); await worker.stop()
 */
export async function startWorkerd({ env, port, durableLimits = false, instances = 1 } = {}) {
  if (instances > 1 && !durableLimits) throw new Error('startWorkerd: several instances only with durableLimits (they share nothing else)');
  const ports = [port ?? (await freePort())];
  while (ports.length < instances) ports.push(await freePort());
  await mkdir(SCRATCH, { recursive: true });
  const dir = await mkdtemp(join(SCRATCH, 'workerd-'));
  const config = await writeWorkerdConfig(dir, { env, ports, durableLimits });
  const urls = ports.map((each) => `http://127.0.0.1:${each}`);
  const worker = await startProcess({
    runtime: 'workerd',
    command: bin('workerd'),
    args: ['serve', config],
    cwd: dir,
    url: urls[0],
    cleanup: () => rm(dir, { recursive: true, force: true }),
  });
  return { ...worker, urls };
}

/**
 * Serves the worker with `deno run worker/deno.js`, network limited to
 * 127.0.0.1 and the model's host. Same result as startWorkerd.
 */
export async function startDeno({ env, port } = {}) {
  port ??= await freePort();
  const hosts = new Set(['127.0.0.1']);
  for (const name of ['SUPABASE_URL', 'SUPABASE_REST_URL', 'SUPABASE_JWKS_URL', 'OPENAI_BASE_URL']) if (env?.[name] && URL.canParse(env[name])) hosts.add(new URL(env[name]).hostname);
  if (env?.OPENAI_API_KEY && !env.OPENAI_BASE_URL) hosts.add('api.openai.com');
  const allowEnv = [...WORKER_VARIABLES, 'PORT'].join(',');
  return startProcess({
    runtime: 'deno',
    command: bin('deno'),
    args: ['run', `--allow-net=${[...hosts].join(',')}`, `--allow-env=${allowEnv}`, '--no-prompt', '--config', 'worker/deno.json', 'worker/deno.js'],
    cwd: ROOT,
    env: { ...DENO_ENV, ...onlyWorkerVariables(env), PORT: String(port) },
    url: `http://127.0.0.1:${port}`,
  });
}

const onlyWorkerVariables = (env = {}) =>
  Object.fromEntries(WORKER_VARIABLES.filter((name) => typeof env[name] === 'string').map((name) => [name, env[name]]));

/**
 * A capnp config for `workerd serve`: the worker's files and the package's
 * workerd entry graph as modules, `env` as text bindings, one HTTP socket per
 * port on 127.0.0.1 (one worker service each), and outbound access to
 * loopback (workerd's default "internet" service refuses private and local
 * addresses). With `durableLimits`, the first service defines the
 * LimitCounter namespace (in-memory storage) and every service binds it.
 */
async function writeWorkerdConfig(dir, { env, ports, durableLimits }) {
  const main = durableLimits ? 'durable.js' : 'handler.js';
  // The first module is the worker's main module.
  const workerFiles = (await readdir(join(ROOT, 'worker/src')))
    .filter((name) => name.endsWith('.js'))
    .sort((a, b) => (b === main) - (a === main))
    .map((name) => `worker/src/${name}`);
  const packageModules = await packageGraph('web/src/index.workerd.js');
  // workerd resolves the bare 'alfred-act' next to the importing module: a
  // one-line module there stands in for the package's "workerd" condition.
  await writeFile(join(dir, 'alfred-act.js'), `export * from '${relative(dir, join(ROOT, 'web/src/index.workerd.js'))}';\n`);
  const embed = (path) => JSON.stringify(relative(dir, join(ROOT, path)));
  const modules = [
    ...workerFiles.map((path) => `(name = ${JSON.stringify(path)}, esModule = embed ${embed(path)})`),
    '(name = "worker/src/alfred-act", esModule = embed "alfred-act.js")',
    ...packageModules.map(({ kind, path }) => `(name = ${JSON.stringify(path)}, ${kind === 'wasm' ? 'wasm' : 'esModule'} = embed ${embed(path)})`),
  ];
  const textBindings = Object.entries(onlyWorkerVariables(env)).map(([name, value]) => `(name = ${JSON.stringify(name)}, text = ${JSON.stringify(value)})`);
  const names = ports.map((_, index) => (index === 0 ? 'main' : `copy${index}`));
  const workers = names.map((name, index) => {
    const bindings = [...textBindings];
    let durable = '';
    if (durableLimits) {
      bindings.push(`(name = "LIMITS", durableObjectNamespace = (className = "LimitCounter"${index === 0 ? '' : ', serviceName = "main"'}))`);
      if (index === 0) durable = `\n  durableObjectNamespaces = [(className = "LimitCounter", uniqueKey = "alfred-act-limits")],\n  durableObjectStorage = (inMemory = void),`;
    }
    return `const ${name} :Workerd.Worker = (
  modules = [
    ${modules.join(',\n    ')},
  ],
  bindings = [${bindings.join(', ')}],${durable}
  compatibilityDate = "2025-06-01",
  # request.signal aborts when the client disconnects (as in wrangler.jsonc).
  compatibilityFlags = ["enable_request_signal"],
);
`;
  });
  const config = `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    ${names.map((name) => `(name = "${name}", worker = .${name})`).join(',\n    ')},
    (name = "internet", network = (allow = ["public", "private", "local"])),
  ],
  sockets = [${ports.map((each, index) => `(name = "http${index}", address = "127.0.0.1:${each}", http = (), service = "${names[index]}")`).join(', ')}],
);

${workers.join('\n')}`;
  const path = join(dir, 'config.capnp');
  await writeFile(path, config);
  return path;
}

// The entry's static import graph as Deno resolves it (wasm imports
// included), as repo-relative paths; the .wasm is the package's own build.
async function packageGraph(entry) {
  const { stdout } = await promisify(execFile)(bin('deno'), ['info', '--json', join(ROOT, entry)], {
    env: { ...process.env, ...DENO_ENV },
    maxBuffer: 16 << 20,
  });
  return JSON.parse(stdout).modules.map(({ kind, specifier }) => {
    if (kind !== 'esm' && kind !== 'wasm') throw new Error(`workerd cannot load ${specifier} (${kind})`);
    return { kind, path: relative(ROOT, fileURLToPath(specifier)) };
  });
}

async function startProcess({ runtime, command, args, cwd, env = {}, url, cleanup }) {
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk) => {
    output = (output + chunk).slice(-65_536);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  // A parent that dies without stop() (an uncaught error) must not leave the server running.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  exited.then(() => process.removeListener('exit', killOnExit));
  let stopping;
  const stop = () =>
    (stopping ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
      await cleanup?.();
    })());
  try {
    await waitForHealth(url, exited, () => output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, runtime, pid: child.pid, stop, output: () => output, exited };
}

async function waitForHealth(url, exited, output) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let gone = null;
  exited.then((status) => {
    gone = status;
  });
  while (Date.now() < deadline) {
    if (gone) throw new Error(`the worker exited before it was ready (code ${gone.code}, signal ${gone.signal}):\n${output()}`);
    try {
      const response = await fetch(`${url}/health`);
      await response.arrayBuffer();
      // Any answer means the server is up; a misconfigured worker says so with a 500.
      return;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the worker did not answer ${url}/health within ${READY_TIMEOUT_MS} ms:\n${output()}`);
}

async function main([runtime]) {
  const start = { workerd: startWorkerd, deno: startDeno }[runtime];
  if (!start) {
    console.error('usage: node worker/local.mjs workerd|deno   (SUPABASE_URL, SUPABASE_ANON_KEY, OPENAI_* from the environment; PORT)');
    return 2;
  }
  const worker = await start({ env: process.env, port: process.env.PORT ? Number(process.env.PORT) : 8787 });
  console.log(`alfred-act worker (${runtime}) listening on ${worker.url}`);
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => worker.stop());
  const { code } = await worker.exited;
  return code ?? 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then((code) => process.exit(code), (error) => {
    console.error(error.message);
    process.exit(1);
  });
}
