// Per-execute overhead: everything act.execute() does besides the round trip
// (validation, ref translation, request building, crossing into WASM, row
// translation, the query record), measured as the median of execute() minus
// the median of the same request sent with a plain fetch (headers and body
// read), interleaved in one run. Target: overhead < 2% of the round trip.
import { performance } from 'node:perf_hooks';
import { startStack } from '../db/stack.mjs';
import { loadCore } from '../web/src/index.node.js';

const ITERATIONS = 300;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const READS = [
  ['inventory in the fridge', 'db_read', { table: 'inventory', filters: [{ field: 'location', op: '=', value: 'fridge' }], limit: 100 }],
  ['recipes (with ingredients)', 'db_read', { table: 'recipes', limit: 20 }],
  ['meal plans (FK labels)', 'db_read', { table: 'meal_plans', limit: 50 }],
];

const stack = await startStack();
try {
  const core = await loadCore();
  const [user] = stack.users;
  console.log(`alfred-act execute overhead vs local PostgREST round trip (${ITERATIONS} calls each, medians)\n`);
  console.log('read                          rows   round trip   execute total   overhead   overhead/round trip');
  for (const [title, tool, params] of READS) {
    let lastRequest;
    const recordingFetch = (url, init) => {
      lastRequest = { url, init };
      return fetch(url, init);
    };
    const act = core.createAct({ restUrl: stack.url, apiKey: stack.anonKey, accessToken: user.token, userId: user.id, fetch: recordingFetch });
    const warm = await act.execute(tool, params); // registers refs and labels, as earlier turns would
    if (warm.error) throw new Error(`${title}: ${warm.error.message}`);
    await act.execute(tool, params);
    const request = lastRequest;
    const totals = [];
    const trips = [];
    for (let i = 0; i < ITERATIONS; i++) {
      const started = performance.now();
      const result = await act.execute(tool, params);
      totals.push(performance.now() - started);
      if (result.error) throw new Error(result.error.message);
      const tripStart = performance.now();
      const response = await fetch(request.url, request.init);
      await response.arrayBuffer();
      trips.push(performance.now() - tripStart);
    }
    const overheads = [median(totals) - median(trips)];
    const rows = warm.count;
    const trip = median(trips);
    const overhead = overheads[0];
    console.log(
      `${title.padEnd(30)}${String(rows).padStart(4)}   ${trip.toFixed(2).padStart(7)} ms   ${median(totals).toFixed(2).padStart(10)} ms   ${(overhead * 1000).toFixed(0).padStart(5)} µs   ${((overhead / trip) * 100).toFixed(1).padStart(6)} %`,
    );
  }
} finally {
  await stack.stop();
}
