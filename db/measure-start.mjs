// Cold start of the local stack: `node db/measure-start.mjs [runs]` starts and
// stops a seeded in-memory stack in a fresh Node process per run and prints
// the median of each phase, from process start to the first authenticated
// request PostgREST answered. The first run of a day (or after a migration
// or seed change) also builds the snapshots; it is reported separately.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const RUN = `
const importStart = performance.now();
const { startStack } = await import(${JSON.stringify(new URL('./stack.mjs', import.meta.url).href)});
const imported = performance.now() - importStart;
const stack = await startStack();
const ready = performance.now();
const stopAt = performance.now();
await stack.stop();
console.log(JSON.stringify({ ...stack.timings, import: Math.round(imported), processToReady: Math.round(ready), stop: Math.round(performance.now() - stopAt) }));
`;

const runs = Number(process.argv[2] ?? 5);
const results = [];
for (let i = 0; i < runs; i++) {
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', RUN], { cwd: fileURLToPath(new URL('..', import.meta.url)) });
  const result = JSON.parse(output.toString().trim().split('\n').at(-1));
  results.push(result);
  console.log(`run ${i + 1}: ${JSON.stringify(result)}`);
}
const warm = results.filter((r) => r.database.source === 'seeded-snapshot');
const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
if (warm.length) {
  const phases = { processToReady: (r) => r.processToReady, import: (r) => r.import, open: (r) => r.database.open, serve: (r) => r.serve, stop: (r) => r.stop };
  console.log(`median of ${warm.length} runs from the seeded snapshot (ms):`, Object.fromEntries(Object.entries(phases).map(([name, get]) => [name, median(warm.map(get))])));
}
