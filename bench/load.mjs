// Bounded load test of the edge worker: the worker in workerd in front of
// the local stack, 8 and 64 concurrent clients each sending read tool calls
// (POST /act/execute) for a fixed time, against the same tool calls sent
// straight to PostgREST in the same run: the exact HTTP requests the
// executor sends for each call, recorded once (rounds kept: requests the
// executor sends together are sent together); and the same requests
// through a hand-written proxy worker in workerd (bench/proxy-worker.js:
// the caller's JWT verified, each request passed on), the floor of any
// worker on that path, which tells workerd's own share from alfred-act's.
//
//   npm run bench:load                 (5 s per run; LOAD_SECONDS=n to change)
//
// The stack runs in its own process (PGlite is single-threaded and serves
// PostgREST over one connection), so both paths are bounded by it.
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createAct } from '../web/src/index.node.js';
import { startWorkerd } from '../scripts/serve-worker.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SECONDS = Number(process.env.LOAD_SECONDS ?? 5);
const CONCURRENCY = [8, 64];
const TARGET_RATIO = 0.9;

// Read tool calls as a model writes them: filters, ordering, limits, columns.
const TOOL_CALLS = [
  { table: 'inventory', filters: [{ field: 'location', op: '=', value: 'fridge' }], order_by: 'name', order_dir: 'asc' },
  { table: 'recipes', columns: ['name', 'cuisine'], limit: 10 },
  { table: 'shopping_list', filters: [{ field: 'is_purchased', op: '=', value: false }] },
  { table: 'tasks', order_by: 'due_date', order_dir: 'asc', limit: 20 },
  { table: 'inventory', filters: [{ field: 'expiry_date', op: '<=', value: '2099-12-31' }], columns: ['name', 'quantity', 'unit'], limit: 20 },
];

/** `node db/stack.mjs start` in a child process; resolves to its exported settings and a stop(). */
async function startStackProcess() {
  const child = spawn(process.execPath, ['db/stack.mjs', 'start'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const settings = await new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk) => (output += chunk));
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const exports = Object.fromEntries([...output.matchAll(/^export (\w+)=(.*)$/gm)].map(([, name, value]) => [name, value]));
      if (exports.ALFRED_USER_ID) resolve(exports);
    });
    exited.then((code) => reject(new Error(`the stack exited (code ${code}):\n${output}`)));
  });
  return {
    ...settings,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The HTTP requests the executor sends for `params`, grouped in the rounds it sends them in. */
async function recordRounds(stack, params) {
  const rounds = [];
  let inFlight = 0;
  const recordingFetch = async (url, init) => {
    // The executor starts all requests of a round before awaiting any.
    if (inFlight === 0) rounds.push([]);
    rounds.at(-1).push({ url, method: init.method, headers: init.headers, body: init.body });
    inFlight += 1;
    try {
      return await fetch(url, init);
    } finally {
      inFlight -= 1;
    }
  };
  const act = createAct({ url: stack.SUPABASE_URL, apiKey: stack.SUPABASE_ANON_KEY, accessToken: stack.ALFRED_ACCESS_TOKEN, userId: stack.ALFRED_USER_ID, fetch: recordingFetch });
  const { error, data } = await act.execute('db_read', params);
  if (error) throw new Error(`tool call ${JSON.stringify(params)} failed: ${error.message}`);
  (await act.ready).registry.delete();
  return { rounds, rows: data.length };
}

async function direct(rounds) {
  for (const round of rounds) {
    await Promise.all(
      round.map(async ({ url, method, headers, body }) => {
        const response = await fetch(url, { method, headers, body });
        const parsed = await response.json();
        if (response.status !== 200 || !Array.isArray(parsed)) throw new Error(`PostgREST ${response.status}`);
      }),
    );
  }
}

// The same PostgREST requests through the hand-written proxy worker
// (bench/proxy-worker.js), round by round.
async function throughProxy(proxy, token, rounds) {
  for (const round of rounds) {
    await Promise.all(
      round.map(async ({ url }) => {
        const { pathname, search } = new URL(url);
        const response = await fetch(`${proxy.url}/proxy`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ path: `${pathname.replace(/^\/rest\/v1/, '')}${search}` }),
        });
        const parsed = await response.json();
        if (response.status !== 200 || !Array.isArray(parsed.data)) throw new Error(`proxy ${response.status}`);
      }),
    );
  }
}

async function throughWorker(worker, token, params) {
  const response = await fetch(`${worker.url}/act/execute`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ tool: 'db_read', params }),
  });
  const parsed = await response.json();
  if (response.status !== 200 || parsed.error || !Array.isArray(parsed.data)) {
    throw new Error(`worker ${response.status}: ${JSON.stringify(parsed.error)}`);
  }
}

/**
 * `clients` loops, each calling `call(i)` back to back for `seconds`; adds
 * to `totals`. Throughput counts the calls completed inside the window; the
 * calls still running at its end are awaited (their latency and errors
 * count) but not counted as done in time, so the next slice starts from idle and the drain, which is longest
 * for whichever path is slower per call, does not skew the rate.
 */
async function runSlice(clients, seconds, call, totals) {
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      for (let i = client; performance.now() < deadline; i += clients) {
        const start = performance.now();
        try {
          await call(i);
          const end = performance.now();
          totals.latencies.push(end - start);
          if (end <= deadline) totals.completed += 1;
        } catch (error) {
          totals.errors.set(error.message, (totals.errors.get(error.message) ?? 0) + 1);
        }
      }
    }),
  );
  totals.seconds += seconds;
}

const newTotals = () => ({ latencies: [], completed: 0, errors: new Map(), seconds: 0, cpuSeconds: 0 });

function summary({ latencies, completed, errors, seconds, cpuSeconds }) {
  const sorted = latencies.toSorted((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  const errorCount = [...errors.values()].reduce((sum, n) => sum + n, 0);
  return {
    calls: sorted.length,
    errors: errorCount,
    errorKinds: errors,
    perSecond: completed / seconds,
    p50: at(0.5),
    p95: at(0.95),
    cpuMsPerCall: (cpuSeconds * 1000) / sorted.length,
  };
}

// CPU time (user + system) a process has used, from /proc; 0 elsewhere.
function cpuSecondsOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

const pad = (value, width) => String(value).padStart(width);

async function main() {
  const stack = await startStackProcess();
  let worker;
  let proxy;
  try {
    // Every client is the same user: the per-user limits (120 requests a
    // minute, 4 at once by default) are raised past the load, so the worker's
    // throughput is measured with its limiting still on the path.
    const limits = { ALFRED_REQUESTS_PER_MINUTE: '100000000', ALFRED_CONCURRENT_REQUESTS: '1000' };
    const project = { SUPABASE_URL: stack.SUPABASE_URL, SUPABASE_ANON_KEY: stack.SUPABASE_ANON_KEY, SUPABASE_JWT_SECRET: stack.SUPABASE_JWT_SECRET };
    worker = await startWorkerd({ env: { ...project, ...limits } });
    proxy = await startWorkerd({ env: project, script: fileURLToPath(new URL('./proxy-worker.js', import.meta.url)) });
    const token = stack.ALFRED_ACCESS_TOKEN;
    // The first request into a fresh isolate: its CPU in workerd (the core
    // compiled and loaded, the domain read) and its wall time, before anything warmed it.
    const firstCpuBefore = cpuSecondsOf(worker.pid);
    const firstStarted = performance.now();
    await throughWorker(worker, token, TOOL_CALLS[0]);
    const first = { wallMs: performance.now() - firstStarted, cpuMs: (cpuSecondsOf(worker.pid) - firstCpuBefore) * 1000 };
    const recorded = [];
    for (const params of TOOL_CALLS) recorded.push(await recordRounds(stack, params));
    const paths = {
      direct: (i) => direct(recorded[i % recorded.length].rounds),
      worker: (i) => throughWorker(worker, token, TOOL_CALLS[i % TOOL_CALLS.length]),
      proxy: (i) => throughProxy(proxy, token, recorded[i % recorded.length].rounds),
    };
    const pidOf = { worker: worker.pid, proxy: proxy.pid };

    console.log(`load: ${TOOL_CALLS.length} read tool calls round-robin, ${SECONDS} s per path and concurrency (1 s slices, interleaved), worker in workerd vs PostgREST direct, and vs a hand-written proxy worker in workerd (bench/proxy-worker.js: the JWT verified, the same requests passed through)`);
    for (const [index, params] of TOOL_CALLS.entries()) {
      const { rounds, rows } = recorded[index];
      const requests = rounds.map((round) => round.length).join('+');
      console.log(`  ${index + 1}. ${params.table.padEnd(14)} ${pad(rows, 3)} rows, ${requests} request(s) per call: ${new URL(rounds[0][0].url).search.slice(0, 90)}`);
    }
    // Warm both paths (JIT, the worker's core, PostgREST's schema cache).
    for (const call of Object.values(paths)) await runSlice(8, 1, call, newTotals());

    // Each path runs SECONDS in one-second slices, interleaved A B B A …, so
    // that a change in the machine's load (other processes, PGlite's GC)
    // falls on both paths alike.
    const results = [];
    for (const clients of CONCURRENCY) {
      const totals = { direct: newTotals(), worker: newTotals(), proxy: newTotals() };
      const names = Object.keys(totals);
      for (let slice = 0; slice < SECONDS; slice += 1) {
        // Each path first in turn, then the others.
        const order = names.map((_, at) => names[(slice + at) % names.length]);
        for (const path of order) {
          const pid = pidOf[path] ?? worker.pid;
          const cpuBefore = cpuSecondsOf(pid);
          await runSlice(clients, Math.min(1, SECONDS - slice), paths[path], totals[path]);
          totals[path].cpuSeconds += cpuSecondsOf(pid) - cpuBefore;
        }
      }
      results.push({ clients, direct: summary(totals.direct), worker: summary(totals.worker), proxy: summary(totals.proxy) });
    }

    console.log('');
    console.log('clients  path    tool calls  errors  calls/s  p50 ms   p95 ms  workerd CPU ms/call');
    console.log('-------  ------  ----------  ------  -------  ------  -------  -------------------');
    let failed = false;
    for (const { clients, direct: d, worker: w, proxy: p } of results) {
      for (const [path, r] of [['direct', d], ['worker', w], ['proxy ', p]]) {
        console.log(`${pad(clients, 7)}  ${path}  ${pad(r.calls, 10)}  ${pad(r.errors, 6)}  ${pad(r.perSecond.toFixed(1), 7)}  ${pad(r.p50.toFixed(1), 6)}  ${pad(r.p95.toFixed(1), 7)}  ${path === 'direct' ? '' : pad(r.cpuMsPerCall.toFixed(2), 19)}`.trimEnd());
        for (const [message, count] of r.errorKinds) console.log(`         ${count} × ${message}`);
        failed ||= r.errors > 0;
      }
    }
    console.log('');
    for (const { clients, direct: d, worker: w, proxy: p } of results) {
      const ratio = w.perSecond / d.perSecond;
      const verdict = ratio >= TARGET_RATIO ? 'met' : 'missed';
      console.log(`${pad(clients, 2)} clients: worker/direct throughput ${ratio.toFixed(2)} (target ≥ ${TARGET_RATIO}: ${verdict}), errors ${w.errors + d.errors + p.errors} (target 0); the proxy/direct ${(p.perSecond / d.perSecond).toFixed(2)}, worker/proxy ${(w.perSecond / p.perSecond).toFixed(2)}`);
    }
    console.log(`first request into a fresh isolate: ${first.cpuMs.toFixed(0)} ms of workerd CPU (10 ms resolution), ${first.wallMs.toFixed(0)} ms end to end`);
    // bench/index.mjs sums the benches up from this line.
    if (process.env.BENCH_SUMMARY === '1') {
      const ratios = Object.fromEntries(results.map(({ clients, direct: d, worker: w }) => [clients, w.perSecond / d.perSecond]));
      const proxyRatios = Object.fromEntries(results.map(({ clients, direct: d, proxy: p }) => [clients, p.perSecond / d.perSecond]));
      console.log(`@summary ${JSON.stringify({ workerRatios: ratios, proxyRatios, firstRequest: first, errors: results.reduce((sum, r) => sum + r.worker.errors + r.direct.errors + r.proxy.errors, 0) })}`);
    }
    return failed ? 1 : 0;
  } finally {
    await worker?.stop();
    await proxy?.stop();
    await stack.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
