// Runs the worker template (worker/src/index.js, worker/deno.js) on
// 127.0.0.1 in the real runtimes from npm — workerd (a generated capnp
// config, the .wasm as a wasm module as wrangler uploads it) and Deno — with
// `alfred-act/worker` resolved to this repository's web/src/worker and the
// domain written next to it as domain.json, for the tests, the load test and
// local use:
//   node scripts/serve-worker.mjs workerd|deno [--domain FILE]   (config from the environment; PORT)
import { spawn, execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join, posix, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { kitchen } from '../web/src/kitchen.js';
import { WORKER_VARIABLES } from '../web/src/worker/variables.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SCRATCH = join(ROOT, '.scratch');
const bin = (name) => join(ROOT, 'node_modules/.bin', name);
const DENO_ENV = { DENO_DIR: join(SCRATCH, 'deno-dir'), DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' };
const READY_TIMEOUT_MS = 30_000;
// What the template imports, and this repository's files standing in for the installed package.
const PACKAGE_ENTRIES = {
  workerd: { 'alfred-act/worker': 'web/src/worker/index.workerd.js', 'alfred-act/worker/durable': 'web/src/worker/durable.js' },
  deno: { 'alfred-act/worker': 'web/src/worker/index.deno.js' },
};

// The domain as the template's domain.json: an object, or a file's text
// (checked by the core when the worker loads it, as on Cloudflare). By
// default the kitchen demo, the local stack's own schema.
async function domainText(domain = kitchen) {
  if (typeof domain === 'string') return readFile(domain, 'utf8');
  return `${JSON.stringify(domain, null, 2)}\n`;
}

/**
 * Serves the worker template in workerd. `env` holds the worker's variables
 * (plain text bindings); `domain` the domain it serves (an object or a file
 * path; default the kitchen demo); `port` the first instance's port (by
 * default the kernel picks a free one as workerd binds, so no other process
 * can take it in between). Resolves once workerd has said which ports it
 * listens on and /health answers (with any status), to
 * `{ url, urls, runtime, pid, stop(), output(), exited }`.
 *
 * `script` (a path) serves that module worker instead of the template, alone
 * (it imports nothing): bench/load.mjs's hand-written proxy.
 *
 * `durableLimits: true` serves the template's src/durable.js instead, its
 * limits counted in the LimitCounter Durable Object (in memory) bound as
 * LIMITS, as on Cloudflare; `instances: n` then runs n copies of the worker,
 * each its own isolate on its own port (`urls`), sharing those Durable Objects.
 *
 * @example
 * const worker = await startWorkerd({ env: { SUPABASE_URL, SUPABASE_ANON_KEY, SUPABASE_JWT_SECRET }, domain: 'domain.json' })
 * await fetch(`${worker.url}/health`); await worker.stop()
 */
export async function startWorkerd({ env, port, domain, durableLimits = false, instances = 1, script } = {}) {
  if (instances > 1 && !durableLimits) throw new Error('startWorkerd: several instances only with durableLimits (they share nothing else)');
  // Port 0: the kernel's choice at bind time, reported on the control descriptor.
  const ports = Array.from({ length: instances }, (_, index) => (index === 0 ? (port ?? 0) : 0));
  await mkdir(SCRATCH, { recursive: true });
  const dir = await mkdtemp(join(SCRATCH, 'workerd-'));
  await writeFile(join(dir, 'domain.json'), await domainText(domain));
  const config = await writeWorkerdConfig(dir, { env, ports, durableLimits, script });
  return startProcess({
    runtime: 'workerd',
    command: bin('workerd'),
    // workerd writes {"event":"listen","socket":"http0","port":N} per socket to fd 3 once it listens.
    args: ['serve', config, `--control-fd=${CONTROL_FD}`],
    cwd: dir,
    listening: (child) => workerdPorts(child, ports.length),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  });
}

const CONTROL_FD = 3;

// The URLs of workerd's sockets http0…http<count-1>, from its control messages.
function workerdPorts(child, count) {
  const found = new Map();
  let pending = '';
  return new Promise((resolve) => {
    child.stdio[CONTROL_FD].on('data', (chunk) => {
      pending += chunk;
      let newline;
      while ((newline = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, newline);
        pending = pending.slice(newline + 1);
        let message;
        try {
          message = JSON.parse(line);
        } catch {
          continue;
        }
        const index = /^http(\d+)$/.exec(message.socket ?? '')?.[1];
        if (message.event === 'listen' && index !== undefined && Number.isInteger(message.port)) found.set(Number(index), message.port);
      }
      if (found.size === count) resolve(Array.from({ length: count }, (_, index) => `http://127.0.0.1:${found.get(index)}`));
    });
  });
}

/**
 * Serves the worker template with `deno run deno.js` (a copy of worker/deno.js
 * and worker/src/index.js next to the domain), network limited to 127.0.0.1
 * and the hosts it is configured with. Same options (but the Durable Objects)
 * and result as startWorkerd; without a `port`, Deno binds port 0 and the
 * URL is the one its start-up line gives.
 *
 * @example
 * const worker = await startDeno({ env, domain: crmDomain })
 */
export async function startDeno({ env, port = 0, domain } = {}) {
  await mkdir(SCRATCH, { recursive: true });
  const dir = await mkdtemp(join(SCRATCH, 'deno-'));
  await mkdir(join(dir, 'src'));
  await copyFile(join(ROOT, 'worker/deno.js'), join(dir, 'deno.js'));
  await copyFile(join(ROOT, 'worker/src/index.js'), join(dir, 'src/index.js'));
  await writeFile(join(dir, 'domain.json'), await domainText(domain));
  const imports = Object.fromEntries(Object.entries(PACKAGE_ENTRIES.deno).map(([specifier, path]) => [specifier, pathToFileURL(join(ROOT, path)).href]));
  await writeFile(join(dir, 'deno.json'), `${JSON.stringify({ imports }, null, 2)}\n`);
  const hosts = new Set(['127.0.0.1']);
  for (const name of ['SUPABASE_URL', 'SUPABASE_REST_URL', 'SUPABASE_JWKS_URL', 'OPENAI_BASE_URL']) if (env?.[name] && URL.canParse(env[name])) hosts.add(new URL(env[name]).hostname);
  if (env?.OPENAI_API_KEY && !env.OPENAI_BASE_URL) hosts.add('api.openai.com');
  const allowEnv = [...WORKER_VARIABLES, 'PORT'].join(',');
  return startProcess({
    runtime: 'deno',
    command: bin('deno'),
    args: ['run', `--allow-net=${[...hosts].join(',')}`, `--allow-env=${allowEnv}`, '--no-prompt', '--config', join(dir, 'deno.json'), join(dir, 'deno.js')],
    cwd: ROOT,
    env: { ...DENO_ENV, ...onlyWorkerVariables(env), PORT: String(port) },
    listening: denoUrl,
    cleanup: () => rm(dir, { recursive: true, force: true }),
  });
}

// The URL of deno.js's start-up line ("… listening on http://127.0.0.1:N").
function denoUrl(child) {
  let printed = '';
  return new Promise((resolve) => {
    const read = (chunk) => {
      printed = (printed + chunk).slice(-4096);
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(printed)?.[1];
      if (url) {
        child.stdout.off('data', read);
        resolve([url]);
      }
    };
    child.stdout.on('data', read);
  });
}

const onlyWorkerVariables = (env = {}) =>
  Object.fromEntries(WORKER_VARIABLES.filter((name) => typeof env[name] === 'string').map((name) => [name, env[name]]));

/**
 * A capnp config for `workerd serve` in `dir` (which holds domain.json): the
 * template's entry as the main module, domain.json as a JSON module, the
 * package's workerd entry graph as modules under their repository paths
 * (with a one-line module where the template's `alfred-act/worker` import
 * lands), `env` as text bindings, one HTTP socket per port on 127.0.0.1 (one
 * worker service each), and outbound access to loopback (workerd's default
 * "internet" service refuses private and local addresses). With
 * `durableLimits`, the first service defines the LimitCounter namespace
 * (in-memory storage) and every service binds it.
 */
async function writeWorkerdConfig(dir, { env, ports, durableLimits, script }) {
  const main = durableLimits ? 'src/durable.js' : 'src/index.js';
  const entries = script ? [] : Object.entries(PACKAGE_ENTRIES.workerd).filter(([specifier]) => durableLimits || !specifier.endsWith('/durable'));
  const packageModules = await packageGraph(entries.map(([, path]) => path));
  const embed = (path) => JSON.stringify(relative(dir, path));
  const modules = script
    ? [`(name = "worker.js", esModule = embed ${embed(script)})`]
    : [`(name = ${JSON.stringify(main)}, esModule = embed ${embed(join(ROOT, 'worker', main))})`, `(name = "domain.json", json = embed ${embed(join(dir, 'domain.json'))})`];
  // workerd resolves a bare specifier as a module name next to the
  // importing module: a one-line module there stands in for the package's
  // "workerd" condition.
  for (const [specifier, path] of entries) {
    const name = posix.join('src', specifier);
    const file = join(dir, `${specifier.replace(/\//g, '-')}.js`);
    await writeFile(file, `export * from '${posix.relative(posix.dirname(name), path)}';\n`);
    modules.push(`(name = ${JSON.stringify(name)}, esModule = embed ${embed(file)})`);
  }
  modules.push(...packageModules.map(({ kind, path }) => `(name = ${JSON.stringify(path)}, ${kind === 'wasm' ? 'wasm' : 'esModule'} = embed ${embed(join(ROOT, path))})`));
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

// The entries' static import graphs as Deno resolves them (wasm imports
// included), as repository paths; the .wasm is the package's own build.
// workerd's built-in modules (cloudflare:workers) are its own.
async function packageGraph(entries) {
  const seen = new Map();
  for (const entry of entries) {
    const { stdout } = await promisify(execFile)(bin('deno'), ['info', '--json', join(ROOT, entry)], {
      env: { ...process.env, ...DENO_ENV },
      maxBuffer: 16 << 20,
    });
    for (const { kind, specifier, error } of JSON.parse(stdout).modules) {
      if (specifier.startsWith('cloudflare:')) continue;
      if (kind !== 'esm' && kind !== 'wasm') throw new Error(`workerd cannot load ${specifier} (${kind}${error ? `: ${error}` : ''})`);
      const path = relative(ROOT, fileURLToPath(specifier));
      seen.set(path, { kind, path });
    }
  }
  return [...seen.values()];
}

// Spawns a worker runtime; `listening(child)` resolves to the URLs it listens
// on (its first is the worker's `url`), read from what the runtime says, not
// from a port chosen beforehand: a port picked free and bound later can be
// taken in between, and /health would then be answered by another server.
async function startProcess({ runtime, command, args, cwd, env = {}, listening, cleanup }) {
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk) => {
    output = (output + chunk).slice(-65_536);
  };
  child.stdout.setEncoding('utf8');
  child.stdio[CONTROL_FD].setEncoding('utf8');
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
  let urls;
  try {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    urls = await untilReady(listening(child), deadline, exited, () => output, 'say which port it listens on');
    await untilReady(waitForHealth(urls[0], deadline), deadline, exited, () => output, `answer ${urls[0]}/health`);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: urls[0], urls, runtime, pid: child.pid, stop, output: () => output, exited };
}

// `step`, or an error when the process exits first or the deadline passes.
async function untilReady(step, deadline, exited, output, what) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the worker did not ${what} within ${READY_TIMEOUT_MS} ms:\n${output()}`)), Math.max(0, deadline - Date.now()));
  });
  const gone = exited.then(({ code, signal }) => {
    throw new Error(`the worker exited before it was ready (code ${code}, signal ${signal}):\n${output()}`);
  });
  try {
    return await Promise.race([step, late, gone]);
  } finally {
    clearTimeout(timer);
  }
}

async function waitForHealth(url, deadline) {
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`${url}/health`);
      await response.arrayBuffer();
      // Any answer means the server is up; a misconfigured worker says so with a 500.
      return;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no answer from ${url}/health`);
}

async function main(argv) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: { domain: { type: 'string' } } });
  } catch (cause) {
    console.error(cause.message);
    return 2;
  }
  const [runtime] = parsed.positionals;
  const start = { workerd: startWorkerd, deno: startDeno }[runtime];
  if (!start || parsed.positionals.length !== 1) {
    console.error('usage: node scripts/serve-worker.mjs workerd|deno [--domain FILE]   (SUPABASE_URL, SUPABASE_ANON_KEY, SUPABASE_JWT_SECRET, OPENAI_* from the environment; PORT;\n       the domain from --domain or ALFRED_DOMAIN, else the kitchen demo of the local stack)');
    return 2;
  }
  const domain = parsed.values.domain ?? process.env.ALFRED_DOMAIN;
  const worker = await start({ env: process.env, domain, port: process.env.PORT ? Number(process.env.PORT) : 8787 });
  console.log(`alfred-act worker (${runtime}) listening on ${worker.url}, serving ${domain ?? 'the kitchen demo domain'}`);
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
