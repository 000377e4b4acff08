// The early calls of a process: what the tool-result bench's steady state
// does not show. An agent makes tens of calls in a session, not thousands,
// and while a process is young both sides run code the engine has not
// optimized yet (V8 compiles JavaScript and WebAssembly lazily, then again
// with its optimizing compilers once a function is hot). Each side runs in
// fresh processes of its own, one call after another on the same response
// (bench/tool-result-cases.mjs: alfred-act's act.callToolText against the
// hand-written supabase-js tool), and prints the mean time of a call per
// stretch of the process's life: the first call, calls 2–10, 11–100, …
// Medians over BENCH_PROCESSES (5) processes per side of each process's mean
// per stretch. No target: it tells what the other benches' ratios mean for a
// young process. Before its first call each side is set up and the process
// idles 50 ms (an agent's first call comes after its model's first answer,
// and the package warms itself up then). With "meal plans" the act has made
// one untimed read of the recipes first (their labels are known), which the
// hand-written side has no use for.
// Run: node bench/early-calls.mjs (npm run bench:early).
// Environment: BENCH_PROCESSES (5), BENCH_CASE ("10 recipes", or "<n> recipes"
// or "<n> meal plans"), BENCH_CALLS (10000: the stretches up to it).
import { spawnSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

const STRETCHES = [1, 10, 100, 1000, 10000];
const child = process.env.EARLY_CALLS_SIDE;

if (child) {
  // One process: one side, its calls timed per stretch.
  const [n, ...words] = (process.env.BENCH_CASE ?? '10 recipes').split(' ');
  const table = { recipes: 'recipes', 'meal plans': 'meal_plans' }[words.join(' ')];
  if (!table || !(Number(n) > 0)) throw new Error(`BENCH_CASE must be "<n> recipes" or "<n> meal plans", not "${process.env.BENCH_CASE}"`);
  const { toolResultCases, sidesOf } = await import('./tool-result-cases.mjs');
  const c = toolResultCases([Number(n)]).find((item) => item.table === table);
  const alfred = child === 'alfred';
  const core = alfred ? await (await import('alfred-act')).loadCore() : null;
  const createClient = alfred ? null : (await import('@supabase/supabase-js')).createClient;
  const sides = await sidesOf(core, createClient, c);
  const call = alfred ? sides.alfred : sides.byHand;
  // An agent's first call comes after its model's first answer: the runtime has been idle.
  await new Promise((resolve) => setTimeout(resolve, 50));
  const calls = Number(process.env.BENCH_CALLS ?? 10000);
  const means = [];
  let done = 0;
  let last;
  for (const upto of STRETCHES.filter((k) => k <= calls)) {
    const started = performance.now();
    for (; done < upto; done++) last = await call();
    means.push(((performance.now() - started) * 1000) / (upto - (means.length ? STRETCHES[means.length - 1] : 0)));
  }
  // Every call read the same rows; the last one's text says whether they came.
  const rows = alfred ? JSON.parse(last).rows : JSON.parse(last);
  if (rows?.length !== c.n) throw new Error(`the ${child} side did not read ${c.n} rows: ${String(last).slice(0, 300)}`);
  console.log(JSON.stringify(means));
} else {
  const processes = Number(process.env.BENCH_PROCESSES ?? 5);
  const caseName = process.env.BENCH_CASE ?? '10 recipes';
  const file = fileURLToPath(import.meta.url);
  const runs = { alfred: [], hand: [] };
  // The sides alternate, so that a change in the machine's load reaches both.
  for (let i = 0; i < processes; i++) {
    for (const side of i % 2 ? ['hand', 'alfred'] : ['alfred', 'hand']) {
      const out = spawnSync(process.execPath, [file], { env: { ...process.env, EARLY_CALLS_SIDE: side }, encoding: 'utf8' });
      if (out.status !== 0) throw new Error(`the ${side} process failed: ${out.stderr}`);
      runs[side].push(JSON.parse(out.stdout.trim().split('\n').pop()));
    }
  }
  const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
  const at = (side, k) => median(runs[side].map((means) => means[k]));
  console.log(`the early calls of a fresh process: ${caseName}, alfred-act vs a hand-written supabase-js tool, Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model.split(' ')[0] ?? 'cpu'}, load average ${loadavg()[0].toFixed(2)}`);
  console.log(`mean µs per call over each stretch of the process's calls, median of ${processes} processes per side\n`);
  console.log('calls            alfred-act µs  supabase-js µs  supabase-js / alfred-act');
  console.log('---------------  -------------  --------------  ------------------------');
  STRETCHES.forEach((upto, k) => {
    if (runs.alfred[0][k] === undefined) return;
    const label = k === 0 ? 'the first' : `${STRETCHES[k - 1] + 1}–${upto}`;
    const [ours, theirs] = [at('alfred', k), at('hand', k)];
    console.log(`${label.padEnd(15)}  ${ours.toFixed(0).padStart(13)}  ${theirs.toFixed(0).padStart(14)}  ${(theirs / ours).toFixed(2).padStart(24)}`);
  });
}
