// A tool result for the model: the time from PostgREST's response bytes to
// the text a model receives, for the same responses, interleaved in one
// process. Run: node bench/tool-result.mjs (npm run bench:tool-result).
//
// - alfred-act      act.callTool('db_read', args), serialized as the OpenAI
//                   adapter and the MCP server hand it over (JSON text): the
//                   call validated, the request built, the bytes translated in
//                   WebAssembly (refs, labels), the result for the model
// - supabase-js     what a developer writes by hand: supabase.from(table)
//                   .select(…) with the same filters, then every UUID replaced
//                   by a short id through a Map, then JSON.stringify(rows)
//
// Both sides get the same bytes from a fetch that answers at once (no
// network): what is timed is the work on either side of the wire. Each pair
// is checked to carry the same rows before anything is timed; the size of
// either text is given too, in bytes and in tokens (o200k_base, npm
// gpt-tokenizer), alfred-act's over the hand-written tool's. Responses: 10,
// 100 and 1,000 recipes with their ingredients; 10, 100 and 1,000 meal plans whose
// recipe foreign keys get labels (the registry has read the recipes, as an
// earlier call of the conversation would have). Target: alfred-act ≥ 2×
// faster. Environment: BENCH_ROUNDS (7).
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { createClient } from '@supabase/supabase-js';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { loadCore } from '../web/src/index.node.js';
import { catalog, mealPlans, recipesWithIngredients } from './fixtures/postgrest-responses.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];

// A user token whose sub is the fixtures' user (the signature is not checked here).
const jwtFor = (sub) => {
  const part = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ role: 'authenticated', sub })}.c2lnbmF0dXJl`;
};

// A fetch that answers as PostgREST would: the main response for its table,
// and the label lookups of the tables its foreign keys point at (the catalog
// of ingredients, the recipes) from `labels`.
const encoder = new TextEncoder();
const LABELS = { ingredients: encoder.encode(JSON.stringify(catalog())) };
const answering = (table, bytes, count, labels = LABELS) => async (url) => {
  const path = new URL(String(url)).pathname.split('/').pop();
  const body = path === table ? bytes : labels[path] ?? encoder.encode('[]');
  return new Response(body, { status: 200, headers: { 'content-type': 'application/json; charset=utf-8', 'content-range': `0-${count - 1}/*` } });
};

// supabase-js's realtime client wants a WebSocket class at construction on Node 20; none is opened here.
class NoSocket {}

/** The hand-written tool: supabase-js, then UUIDs → short ids, then JSON text. */
function handWrittenTool(supabase, table, select, userId, limit) {
  return async () => {
    const { data, error } = await supabase.from(table).select(select).eq('user_id', userId).limit(limit);
    if (error) throw new Error(error.message);
    const ids = new Map();
    const short = (value) => {
      let id = ids.get(value);
      if (!id) ids.set(value, (id = `id_${ids.size + 1}`));
      return id;
    };
    const walk = (value) => {
      if (typeof value === 'string') return UUID.test(value) ? short(value) : value;
      if (Array.isArray(value)) return value.map(walk);
      if (value && typeof value === 'object') {
        const out = {};
        for (const key of Object.keys(value)) if (key !== 'user_id') out[key] = walk(value[key]);
        return out;
      }
      return value;
    };
    return JSON.stringify(walk(data));
  };
}

const core = await loadCore();
const cases = [];
for (const n of [10, 100, 1000]) {
  const recipes = recipesWithIngredients(n);
  cases.push({ title: `${n} recipes with ingredients`, table: 'recipes', select: '*,recipe_ingredients(*)', n, bytes: recipes.bytes, userId: recipes.userId });
  const plans = mealPlans(n, recipes.recipeIds, { userId: recipes.userId });
  cases.push({ title: `${n} meal plans (FK labels)`, table: 'meal_plans', select: '*', n, bytes: plans.bytes, userId: recipes.userId, warm: recipes });
}

console.log(`a tool result for the model: alfred-act vs a hand-written supabase-js tool, same bytes, Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model.split(' ')[0] ?? 'cpu'}`);
console.log(`median of ${ROUNDS} interleaved rounds\n`);
console.log('response                            alfred-act ms  supabase-js ms  supabase-js / alfred-act  text bytes alfred / hand-written  tokens alfred / hand-written');
console.log('----------------------------------  -------------  --------------  ------------------------  --------------------------------  ----------------------------');
for (const c of cases) {
  const token = jwtFor(c.userId);
  let fetchBytes = answering(c.table, c.bytes, c.n);
  const act = core.createAct({
    url: 'https://bench.supabase.co',
    apiKey: 'anon-key',
    accessToken: token,
    fetch: (...args) => fetchBytes(...args),
    resultLimits: { rows: c.n, chars: 16 << 20 },
  });
  if (c.warm) {
    // An earlier call read the recipes: their labels are known.
    fetchBytes = answering('recipes', c.warm.bytes, c.warm.recipeIds.length);
    const earlier = await act.execute('db_read', { table: 'recipes', limit: c.warm.recipeIds.length });
    if (earlier.error) throw new Error(earlier.error.message);
    fetchBytes = answering(c.table, c.bytes, c.n, { ...LABELS, recipes: c.warm.bytes });
  }
  const args = { table: c.table, limit: c.n };
  const alfred = () => act.callToolText('db_read', args);
  const supabase = createClient('https://bench.supabase.co', 'anon-key', {
    global: { fetch: (...a) => fetchBytes(...a), headers: { Authorization: `Bearer ${token}` } },
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: NoSocket },
  });
  const byHand = handWrittenTool(supabase, c.table, c.select, c.userId, c.n);

  // The same rows on both sides.
  const ourText = await alfred();
  const theirText = await byHand();
  const ours = JSON.parse(ourText);
  const theirs = JSON.parse(theirText);
  if (!ours.ok) throw new Error(`${c.title}: ${JSON.stringify(ours.error)}`);
  const names = (rows) => rows.map((row) => row.name ?? `${row.date} ${row.meal_type}`).join('|');
  if (ours.rows.length !== c.n || theirs.length !== c.n || names(ours.rows) !== names(theirs)) {
    throw new Error(`${c.title}: the two sides carry different rows (${ours.rows.length} vs ${theirs.length})`);
  }

  const times = { alfred: [], hand: [] };
  const reps = c.n >= 1000 ? 3 : 20;
  for (let round = 0; round < ROUNDS + 1; round++) {
    for (const [side, run] of round % 2 ? [['alfred', alfred], ['hand', byHand]] : [['hand', byHand], ['alfred', alfred]]) {
      const started = performance.now();
      for (let i = 0; i < reps; i++) await run();
      if (round > 0) times[side].push((performance.now() - started) / reps);
    }
  }
  const a = median(times.alfred);
  const h = median(times.hand);
  const size = (ourSize, theirSize) => `${ourSize} / ${theirSize} = ${(ourSize / theirSize).toFixed(3)}`;
  const bytes = size(encoder.encode(ourText).length, encoder.encode(theirText).length);
  const tokens = size(encode(ourText).length, encode(theirText).length);
  console.log(`${c.title.padEnd(34)}  ${a.toFixed(2).padStart(13)}  ${h.toFixed(2).padStart(14)}  ${(h / a).toFixed(2).padStart(23)}×  ${bytes.padStart(32)}  ${tokens.padStart(28)}`);
}
console.log('\ntarget: supabase-js / alfred-act ≥ 2.00× (alfred-act at least twice as fast) at 100 and 1,000 rows');
