// Act prompt numbers on a realistic kitchen turn (bench/kitchen-turn.mjs:
// 20 recipes with 8 ingredients each, 30 inventory items, a 7-day meal plan,
// one generated recipe): tokens of the user prompt with refs against the
// same prompt with every ref replaced by the UUID it stands for (o200k_base,
// npm gpt-tokenizer), and the assembly time per call through the package.
// Run: node bench/prompt-tokens.mjs. Environment: BENCH_PROMPT_CALLS (2000).
import { performance } from 'node:perf_hooks';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { loadCore } from '../web/src/index.node.js';
import { kitchenTurn } from './kitchen-turn.mjs';
import { startStack } from '../db/local-stack.mjs';

const CALLS = Number(process.env.BENCH_PROMPT_CALLS ?? 2000);

const core = await loadCore();
const registry = core.createRegistry();
const input = kitchenTurn(registry);
const { data: prompt, error } = core.buildActPrompt(input, { registry });
if (error) throw new Error(`${error.code} at ${error.path}: ${error.message}`);

// The same text as a system without refs would show it: each ref replaced
// by its row's UUID (pending gen_ refs have none and stay).
const uuidOf = new Map(registry.toJSON().refs.filter((r) => r.uuid).map((r) => [r.ref, r.uuid]));
const withUuids = (text) => text.replace(/\b(?:gen_)?[a-z]+_\d+\b/g, (ref) => uuidOf.get(ref) ?? ref);

// A section's text: from its numbered heading to the next one.
function section(text, title) {
  const start = text.search(new RegExp(`^## \\d+\\. ${title}$`, 'm'));
  if (start < 0) throw new Error(`no section ${title}`);
  const rest = text.slice(start + 1);
  const end = rest.search(/^## \d+\. /m);
  return end < 0 ? rest : rest.slice(0, end);
}

const parts = [
  ['data section (Data Available)', section(prompt.user, 'Data Available')],
  ['entity section (Entities in Context)', section(prompt.user, 'Entities in Context')],
];
parts.push(['entity + data sections', parts[0][1] + parts[1][1]]);
parts.push(['whole user prompt', prompt.user]);

console.log('Act prompt tokens (o200k_base), refs vs the same content with UUIDs');
console.log('turn: 20 recipes × 8 ingredients, 30 inventory items, 7 meal-plan rows, 1 generated recipe (analyze step)\n');
const rows = parts.map(([name, text]) => {
  const refs = encode(text).length;
  const uuids = encode(withUuids(text)).length;
  return { name, refs, uuids, saved: 1 - refs / uuids };
});
const pad = (s, n) => String(s).padEnd(n);
const num = (s, n) => String(s).padStart(n);
console.log(`${pad('part', 38)}${num('refs', 8)}${num('UUIDs', 8)}${num('refs/UUIDs', 12)}${num('smaller', 9)}`);
for (const r of rows)
  console.log(`${pad(r.name, 38)}${num(r.refs.toLocaleString('en'), 8)}${num(r.uuids.toLocaleString('en'), 8)}${num((r.refs / r.uuids).toFixed(2), 12)}${num(`${(r.saved * 100).toFixed(0)} %`, 9)}`);
const target = rows[2].saved >= 0.3;
console.log(`target: ref version ≥ 30 % smaller in the entity and data sections (${target ? 'met' : 'missed'})`);
console.log(`system prompt: ${encode(prompt.system).length.toLocaleString('en')} tokens; user prompt ${prompt.user.length.toLocaleString('en')} characters\n`);

// Assembly: core.buildActPrompt as a caller uses it (registry state out of
// WASM, input JSON in, both prompts back), after a warm-up.
for (let i = 0; i < 200; i++) core.buildActPrompt(input, { registry });
const times = [];
for (let round = 0; round < 5; round++) {
  const start = performance.now();
  for (let i = 0; i < CALLS / 5; i++) core.buildActPrompt(input, { registry });
  times.push(((performance.now() - start) * 1000) / (CALLS / 5));
}
times.sort((a, b) => a - b);
console.log(`assembly: ${times[2].toFixed(1)} µs per core.buildActPrompt call (median of 5 rounds of ${CALLS / 5}; input ${JSON.stringify(input).length.toLocaleString('en')} bytes of JSON)`);

// One local PostgREST round trip (a typical read on the embedded stack), the
// yardstick of the 5 % target.
const stack = await startStack();
try {
  const [user] = stack.users;
  const url = `${stack.url}/inventory?select=*&user_id=eq.${user.id}&location=eq.fridge&limit=100`;
  const headers = { apikey: stack.anonKey, authorization: `Bearer ${user.token}` };
  for (let i = 0; i < 20; i++) await (await fetch(url, { headers })).arrayBuffer();
  const trips = [];
  for (let i = 0; i < 200; i++) {
    const start = performance.now();
    await (await fetch(url, { headers })).arrayBuffer();
    trips.push((performance.now() - start) * 1000);
  }
  trips.sort((a, b) => a - b);
  const trip = trips[trips.length >> 1];
  const share = (times[2] / trip) * 100;
  console.log(`local PostgREST round trip: ${trip.toFixed(0)} µs (median of 200); assembly is ${share.toFixed(1)} % of it (target < 5 %: ${share < 5 ? 'met' : 'missed'})`);
} finally {
  await stack.stop();
}
registry.delete();
