// A read that meets rows the session has not met (a conversation's first
// read of a table, or a read after another table's): how many round trips it
// takes and how long, on the local stack, with every request held back by a
// simulated network latency (a hosted project is tens of milliseconds away).
// Each case starts from a fresh act, as a new conversation does, after the
// reads it names; the same read again (every row known) is shown beside it.
// Run: node bench/first-read.mjs (npm run bench:first-read). Environment:
// BENCH_RTT_MS (25; 0 for the local stack alone), BENCH_ITERATIONS (15),
// BENCH_TREE (another checkout with its web/dist built, to compare builds).
import { startStack } from '../db/local-stack.mjs';

const TREE = process.env.BENCH_TREE ?? new URL('..', import.meta.url).pathname;
const { loadCore } = await import(`${TREE.replace(/\/$/, '')}/web/src/index.node.js`);
const RTT_MS = Number(process.env.BENCH_RTT_MS ?? 25);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 15);
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// The reads a first question about each kind of row makes, and reads after
// an earlier one that met some of the rows their foreign keys point at.
const READS = [
  ['meal plans (recipe labels)', { table: 'meal_plans', limit: 20 }],
  ['tasks (recipe and meal plan labels)', { table: 'tasks', limit: 20 }],
  ['recipes with their ingredients', { table: 'recipes', limit: 10 }],
  ['cooking log', { table: 'cooking_log', limit: 20 }],
  ['inventory (no label shown)', { table: 'inventory', columns: ['name', 'quantity'], limit: 20 }],
  ['meal plans, after 3 recipes', { table: 'meal_plans', limit: 20 }, { table: 'recipes', limit: 3 }],
  ['tasks, after 2 recipes', { table: 'tasks', limit: 20 }, { table: 'recipes', limit: 2 }],
];

const stack = await startStack();
try {
  const core = await loadCore();
  const [user] = stack.users;
  console.log(`a read that meets rows the session has not met, local stack, ${RTT_MS} ms added to every request, median of ${ITERATIONS}\n`);
  console.log('read                                  requests   ms   | same read again: requests   ms');
  for (const [title, params, before] of READS) {
    const first = { requests: [], ms: [] };
    const next = { requests: [], ms: [] };
    for (let i = 0; i < ITERATIONS; i++) {
      let requests = 0;
      const fetchWithLatency = async (url, init) => {
        requests++;
        await sleep(RTT_MS);
        return fetch(url, init);
      };
      const act = core.createAct({ restUrl: stack.url, apiKey: stack.anonKey, accessToken: user.token, userId: user.id, fetch: fetchWithLatency });
      if (before) {
        const earlier = await act.execute('db_read', before);
        if (earlier.error) throw new Error(`${title}: ${earlier.error.message}`);
      }
      for (const side of [first, next]) {
        requests = 0;
        const started = performance.now();
        const result = await act.execute('db_read', params);
        side.ms.push(performance.now() - started);
        if (result.error) throw new Error(`${title}: ${result.error.message}`);
        side.requests.push(requests);
      }
    }
    console.log(`${title.padEnd(38)}${String(median(first.requests)).padStart(8)}  ${median(first.ms).toFixed(1).padStart(5)}   | ${String(median(next.requests)).padStart(24)}  ${median(next.ms).toFixed(1).padStart(5)}`);
  }
} finally {
  await stack.stop();
}
