// Per-execute overhead: everything act.execute() does besides the round trip
// (validation, ref translation, request building, crossing into WASM, row
// translation, the query record), next to what a user would run instead:
// @supabase/postgrest-js sending the same request and parsing its rows. The
// three sides run interleaved in one process against the local stack:
//   fetch         the same request with a plain fetch, body read as bytes
//   postgrest-js  the same URL through PostgrestClient (rows JSON-parsed)
//   alfred-act    act.execute(tool, params) (rows translated for the model)
// Reported: medians, and alfred-act's overhead over each. Target: overhead
// < 2% of a round trip. Run: node bench/execute.mjs (npm run bench:execute).
import { performance } from 'node:perf_hooks';
import { PostgrestClient } from '@supabase/postgrest-js';
import { startStack } from '../db/local-stack.mjs';
import { loadCore } from '../web/src/index.node.js';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 300);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const READS = [
  ['inventory in the fridge', 'db_read', { table: 'inventory', filters: [{ field: 'location', op: '=', value: 'fridge' }], limit: 100 }],
  ['recipes (with ingredients)', 'db_read', { table: 'recipes', limit: 20 }],
  ['meal plans (FK labels)', 'db_read', { table: 'meal_plans', limit: 50 }],
];

// The request the act sent, through postgrest-js: same table, select and
// query parameters, same headers; awaited like any postgrest-js query.
function postgrestJsQuery(client, url) {
  const parsed = new URL(url);
  const table = decodeURIComponent(parsed.pathname.split('/').pop());
  const builder = client.from(table).select(parsed.searchParams.get('select') ?? '*');
  for (const [key, value] of parsed.searchParams) if (key !== 'select') builder.url.searchParams.append(key, value);
  return builder;
}

const stack = await startStack();
try {
  const core = await loadCore();
  const [user] = stack.users;
  console.log(`alfred-act execute vs postgrest-js and a plain fetch of the same request, local stack (${ITERATIONS} calls each, interleaved, medians)\n`);
  const overheads = [];
  console.log('read                          rows   fetch      postgrest-js   alfred-act   over postgrest-js        over fetch');
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
    const client = new PostgrestClient(stack.url, { headers: request.init.headers });
    const check = await postgrestJsQuery(client, request.url);
    if (check.error || check.data.length !== warm.count) throw new Error(`${title}: postgrest-js gave ${check.error?.message ?? `${check.data.length} rows`}`);
    const sides = {
      fetch: async () => {
        const response = await fetch(request.url, request.init);
        await response.arrayBuffer();
      },
      postgrestJs: async () => {
        const { error } = await postgrestJsQuery(client, request.url);
        if (error) throw new Error(error.message);
      },
      alfred: async () => {
        const result = await act.execute(tool, params);
        if (result.error) throw new Error(result.error.message);
      },
    };
    const times = { fetch: [], postgrestJs: [], alfred: [] };
    const order = Object.keys(sides);
    for (let i = 0; i < ITERATIONS; i++) {
      for (const name of i % 2 ? [...order].reverse() : order) {
        const started = performance.now();
        await sides[name]();
        times[name].push(performance.now() - started);
      }
    }
    const [trip, pjs, ours] = [median(times.fetch), median(times.postgrestJs), median(times.alfred)];
    const over = (base) => `${((ours - base) * 1000).toFixed(0).padStart(5)} µs ${(((ours - base) / trip) * 100).toFixed(1).padStart(5)} %`;
    overheads.push((ours - trip) / trip);
    console.log(
      `${title.padEnd(30)}${String(warm.count).padStart(4)}   ${trip.toFixed(2).padStart(5)} ms   ${pjs.toFixed(2).padStart(7)} ms   ${ours.toFixed(2).padStart(7)} ms   ${over(pjs)}   ${over(trip)}`,
    );
  }
  console.log('\noverhead = alfred-act median minus the other side\'s, and as a share of the fetch round trip (target < 2 %)');
  // bench/index.mjs sums the benches up from this line.
  if (process.env.BENCH_SUMMARY === '1') console.log(`@summary ${JSON.stringify({ executeOverheads: overheads })}`);
} finally {
  await stack.stop();
}
