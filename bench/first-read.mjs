// A read that meets rows the session has not met (a conversation's first
// read of a table, or a read after another table's): how many round trips it
// takes and how long, on the local stack, with every request held back by a
// simulated network latency (a hosted project is tens of milliseconds away).
// Each case starts from a fresh act, as a new conversation does, after the
// reads it names; the same read again (every row known) is shown beside it.
// Then a write by ref, the most common write an agent makes ("mark it done",
// "remove the milk"), after the read or create that gave the ref: the local
// stack runs PostgREST 12, so maxAffected is checked by count there. Last, a
// model's message that asks for three tables at once, through the OpenAI
// adapter's runToolCalls.
// Run: node bench/first-read.mjs (npm run bench:first-read). Environment:
// BENCH_RTT_MS (25; 0 for the local stack alone), BENCH_ITERATIONS (15),
// BENCH_TREE (another checkout with its web/dist built, to compare builds).
import { startStack } from '../db/local-stack.mjs';

const TREE = process.env.BENCH_TREE ?? new URL('..', import.meta.url).pathname;
const { loadCore } = await import(`${TREE.replace(/\/$/, '')}/web/src/index.node.js`);
const { runToolCalls } = await import(`${TREE.replace(/\/$/, '')}/web/src/adapters/openai.js`);
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
  // A fresh act (a new conversation) whose every request is held back by the
  // latency, and counted: `sent.requests`, reset between the parts timed.
  const latencyAct = () => {
    const sent = { requests: 0 };
    const fetchWithLatency = async (url, init) => {
      sent.requests++;
      await sleep(RTT_MS);
      return fetch(url, init);
    };
    return { sent, act: core.createAct({ restUrl: stack.url, apiKey: stack.anonKey, accessToken: user.token, userId: user.id, fetch: fetchWithLatency }) };
  };
  console.log(`a read that meets rows the session has not met, local stack, ${RTT_MS} ms added to every request, median of ${ITERATIONS}\n`);
  console.log('read                                  requests   ms   | same read again: requests   ms');
  for (const [title, params, before] of READS) {
    const first = { requests: [], ms: [] };
    const next = { requests: [], ms: [] };
    for (let i = 0; i < ITERATIONS; i++) {
      const { sent, act } = latencyAct();
      if (before) {
        const earlier = await act.execute('db_read', before);
        if (earlier.error) throw new Error(`${title}: ${earlier.error.message}`);
      }
      for (const side of [first, next]) {
        sent.requests = 0;
        const started = performance.now();
        const result = await act.execute('db_read', params);
        side.ms.push(performance.now() - started);
        if (result.error) throw new Error(`${title}: ${result.error.message}`);
        side.requests.push(sent.requests);
      }
    }
    console.log(`${title.padEnd(38)}${String(median(first.requests)).padStart(8)}  ${median(first.ms).toFixed(1).padStart(5)}   | ${String(median(next.requests)).padStart(24)}  ${median(next.ms).toFixed(1).padStart(5)}`);
  }

  console.log(`\na write by ref (maxAffected 50, by count on PostgREST 12), ${RTT_MS} ms added to every request, median of ${ITERATIONS}\n`);
  console.log('write                                 requests   ms');
  const WRITES = [
    ['update by ref, after a read', async (act, i) => {
      const read = await act.callTool('db_read', { table: 'inventory', limit: 1 });
      return ['db_update', { table: 'inventory', filters: [{ field: 'id', op: '=', value: read.rows[0].id }], data: { quantity: 100 + i } }];
    }],
    ['delete by ref, after a create', async (act, i) => {
      const made = await act.callTool('db_create', { table: 'inventory', data: { name: `bench crumbs ${i}`, quantity: 1, unit: 'g', location: 'pantry' } });
      return ['db_delete', { table: 'inventory', filters: [{ field: 'id', op: '=', value: made.rows[0].id }] }];
    }],
  ];
  for (const [title, setUp] of WRITES) {
    const write = { requests: [], ms: [] };
    for (let i = 0; i < ITERATIONS; i++) {
      const { sent, act } = latencyAct();
      const [tool, params] = await setUp(act, i);
      sent.requests = 0;
      const started = performance.now();
      const result = await act.execute(tool, params);
      write.ms.push(performance.now() - started);
      if (result.error || result.count !== 1) throw new Error(`${title}: ${JSON.stringify(result.error ?? result.count)}`);
      write.requests.push(sent.requests);
    }
    console.log(`${title.padEnd(38)}${String(median(write.requests)).padStart(8)}  ${median(write.ms).toFixed(1).padStart(5)}`);
  }

  console.log(`\none model message with three reads (inventory, recipes, meal plans), runToolCalls, ${RTT_MS} ms added to every request, median of ${ITERATIONS}\n`);
  const calls = [['inventory', 20], ['recipes', 5], ['meal_plans', 20]].map(([table, limit], i) => ({
    id: `call_${i}`,
    type: 'function',
    function: { name: 'db_read', arguments: JSON.stringify({ table, limit }) },
  }));
  const message = { requests: [], ms: [] };
  for (let i = 0; i < ITERATIONS; i++) {
    const { sent, act } = latencyAct();
    const started = performance.now();
    const replies = await runToolCalls(act, calls);
    message.ms.push(performance.now() - started);
    if (replies.some((reply) => !JSON.parse(reply.content).ok)) throw new Error(`three reads: ${replies.map((reply) => reply.content.slice(0, 200)).join(' | ')}`);
    message.requests.push(sent.requests);
  }
  console.log(`${'three reads in one message'.padEnd(38)}${String(median(message.requests)).padStart(8)}  ${median(message.ms).toFixed(1).padStart(5)}`);
} finally {
  await stack.stop();
}
