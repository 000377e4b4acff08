// `npm run bench`: every benchmark that has a target, one after another in
// fresh processes, then the targets side by side. Each bench prints its own
// table (what it measures and how: the header comment of its file) and a
// `@summary` line of figures that is read here, not shown.
//
//   request building, size, cold start   bench/build-requests.mjs
//   the fixed cost of a call             bench/fixed-cost.mjs
//   a tool result for the model          bench/tool-result.mjs (Node), bench/tool-result-browser.mjs (Chromium)
//   execute's overhead                   bench/execute.mjs        (starts the local stack)
//   the worker under load                bench/load.mjs           (starts the local stack and workerd)
//
// BENCH_ONLY=fixed-cost,tool-result runs some of them; BENCH_QUICK=1 leaves out
// the two that start the local stack.
import { spawn } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { TOOL_RESULT_TARGETS } from './tool-result-cases.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BENCHES = [
  ['build-requests', 'bench/build-requests.mjs'],
  ['fixed-cost', 'bench/fixed-cost.mjs'],
  ['tool-result', 'bench/tool-result.mjs'],
  ['tool-result-browser', 'bench/tool-result-browser.mjs'],
  ['execute', 'bench/execute.mjs', { stack: true }],
  ['load', 'bench/load.mjs', { stack: true }],
];
const only = process.env.BENCH_ONLY?.split(',');
const quick = process.env.BENCH_QUICK === '1';

// Runs one bench, its output shown as it comes but for its @summary line.
function run(file) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file], { cwd: ROOT, env: { ...process.env, BENCH_SUMMARY: '1' }, stdio: ['ignore', 'pipe', 'inherit'] });
    let pending = '';
    const summary = {};
    child.stdout.on('data', (chunk) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop();
      for (const line of lines) {
        if (line.startsWith('@summary ')) Object.assign(summary, JSON.parse(line.slice(9)));
        else console.log(line);
      }
    });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(summary) : reject(new Error(`${file} exited with ${code}`))));
  });
}

const started = Date.now();
const figures = {};
const failed = [];
for (const [name, file, { stack = false } = {}] of BENCHES) {
  if (only ? !only.includes(name) : quick && stack) continue;
  console.log(`\n=== ${name} (${file}) ===\n`);
  try {
    const summary = await run(file);
    for (const [key, value] of Object.entries(summary)) figures[key] = key === 'toolResult' ? { ...figures.toolResult, ...value } : value;
  } catch (cause) {
    failed.push(`${name}: ${cause.message}`);
    console.log(`(failed: ${cause.message})`);
  }
}

// --- the targets ---------------------------------------------------------------

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const range = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `${sorted[0].toFixed(2)} / ${sorted[sorted.length >> 1].toFixed(2)} / ${sorted[sorted.length - 1].toFixed(2)}`;
};
const rows = [];
const target = (what, figure, goal, met) => rows.push([what, figure, goal, met === null ? '' : met ? 'met' : 'MISSED']);

for (const [runtime, results] of Object.entries(figures.toolResult ?? {})) {
  for (const r of results) {
    const goal = TOOL_RESULT_TARGETS[r.n];
    if (goal === undefined) continue;
    target(`tool result, ${r.title}, ${runtime === 'node' ? 'Node' : 'Chromium'} (× by hand)`, r.ratios.map((x) => x.toFixed(2)).join(' / '), `≥ ${goal.toFixed(1)}×`, r.ratios[1] >= goal);
  }
}
if (figures.fixedCost) {
  const [low, mid, high] = figures.fixedCost.fixedUs;
  target('fixed cost of a one-row read, Node (µs)', `${low.toFixed(1)} / ${mid.toFixed(1)} / ${high.toFixed(1)}`, '≤ 25 µs', mid <= 25);
}
if (figures.requestRatios) {
  target('request building, Node (× postgrest-js, five requests)', range(figures.requestRatios), '≥ 1.0×', Math.min(...figures.requestRatios) >= 1);
  target('the runtime module, wasm + its JS (the one module today)', kb(figures.coreGzip), '≤ 120 KB', figures.coreGzip <= 120 * 1024);
  target('the whole module, wasm + its JS', kb(figures.coreGzip), '≤ 150 KB', figures.coreGzip <= 150 * 1024);
  target('size budget the tests enforce', kb(figures.coreGzip), `≤ ${kb(figures.sizeBudget)}`, figures.coreGzip <= figures.sizeBudget);
  const ratio = figures.coldMs / figures.postgrestImportMs;
  target('import + loadCore(), fresh Node process (× postgrest-js import)', `${figures.coldMs.toFixed(1)} ms, ${ratio.toFixed(2)}×`, '≤ 2×', ratio <= 2);
  if (figures.firstCallMs !== undefined) {
    target('the first tool call after loadCore (createAct + read), warm-up on / off (ms)', `${figures.firstCallMs.toFixed(1)} / ${figures.firstCallColdMs.toFixed(1)}`, '(printed)', null);
  }
}
if (figures.workerRatios) {
  for (const [clients, ratio] of Object.entries(figures.workerRatios)) {
    target(`worker / direct PostgREST, ${clients} clients`, ratio.toFixed(2), clients === '64' ? '≥ 0.9×' : '', clients === '64' ? ratio >= 0.9 : null);
    // The floor: a hand-written worker that only verifies the token and passes the request on.
    const proxy = figures.proxyRatios?.[clients];
    if (proxy !== undefined) target(`  a hand-written proxy worker / direct, ${clients} clients`, proxy.toFixed(2), '(printed)', null);
  }
  target('first request in a fresh workerd isolate (CPU ms)', figures.firstRequest.cpuMs.toFixed(0), '(printed)', null);
}
if (figures.executeOverheads) {
  target('execute overhead (share of a local round trip, three reads)', figures.executeOverheads.map((x) => `${(x * 100).toFixed(1)} %`).join(' / '), '< 2 %', Math.max(...figures.executeOverheads) < 0.02);
}

console.log(`\n=== targets (Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model.split(' ')[0] ?? 'cpu'}, load average ${loadavg()[0].toFixed(2)}, ${new Date().toISOString().slice(0, 10)}) ===\n`);
console.log('min / median / max where three figures are given (rounds of one run); ratios are alfred-act against the other side');
const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((row) => row[i].length), 4));
for (const row of rows) console.log(row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  '));
console.log(`\n${rows.filter((row) => row[3] === 'met').length} met, ${rows.filter((row) => row[3] === 'MISSED').length} missed; ${((Date.now() - started) / 1000).toFixed(0)} s`);
if (failed.length > 0) {
  console.log(`benches that failed: ${failed.join('; ')}`);
  process.exitCode = 1;
}
