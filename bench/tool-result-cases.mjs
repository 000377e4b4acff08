// The cases of the tool-result benchmark, runnable in any JS runtime (Node,
// Chromium): the time from PostgREST's response bytes to the text a model
// receives, for the same responses, alfred-act and a hand-written
// supabase-js tool interleaved in one process. bench/tool-result.mjs runs
// them in Node, bench/tool-result-browser.mjs in Chromium.
//
// - alfred-act      act.callToolText('db_read', args as the model's JSON
//                   text), what the OpenAI adapter and the MCP server hand
//                   over: the call validated, the request built, the bytes
//                   translated in WebAssembly (refs, labels), the result text
// - supabase-js     what a developer writes by hand: supabase.from(table)
//                   .select(…) with the same filters, then every UUID
//                   replaced by a short id through a Map, then
//                   JSON.stringify(rows)
//
// `BENCH_ASCII=1` runs the same rows in plain ASCII (accents written as
// 'e'), as English-only data is.
//
// Both sides get the rows their own request asks for from a fetch that
// answers at once (no network): what is timed is the work on either side of
// the wire. Each pair is checked to carry the same rows before anything is
// timed. Responses: 10, 100 and 1,000 recipes with their ingredients; as many
// meal plans whose recipe foreign keys get labels (the registry has read the
// recipes, as an earlier call of the conversation would have; alfred-act's
// read also asks for the recipes' names, which come embedded in its rows). The size of either
// text is given too: bytes, and tokens where the runtime can count them.
import { catalog, mealPlans, recipesWithIngredients } from './fixtures/postgrest-responses.mjs';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const encoder = new TextEncoder();

/** What alfred-act must reach, as supabase-js time / alfred-act time, by rows per response. */
export const TOOL_RESULT_TARGETS = { 10: 1.0, 100: 1.5, 1000: 2.0 };

const sorted = (values) => [...values].sort((a, b) => a - b);
const median = (values) => sorted(values)[values.length >> 1];

// A user token whose sub is the fixtures' user (the signature is not checked here).
function jwtFor(sub) {
  const part = (value) => btoa(JSON.stringify(value)).replaceAll('=', '').replaceAll('+', '-').replaceAll('/', '_');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ role: 'authenticated', sub })}.c2lnbmF0dXJl`;
}

// A fetch that answers as PostgREST would: the main response for its table
// (`withLabels` where the read asks for its foreign keys' labels, as
// alfred-act's does: `_label_recipe_id:recipe_id(name)`), and the label
// lookups of the tables its foreign keys point at (the catalog of
// ingredients, the recipes) from `labels`.
const LABELS = { ingredients: encoder.encode(JSON.stringify(catalog())) };
const answering = (table, bytes, count, labels = LABELS, withLabels = null) => async (url) => {
  const parsed = new URL(String(url));
  const path = parsed.pathname.split('/').pop();
  const main = withLabels && parsed.searchParams.get('select')?.includes('_label_') ? withLabels : bytes;
  const body = path === table ? main : (labels[path] ?? encoder.encode('[]'));
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

// The same bytes with every character past ASCII written as 'e' (the
// fixtures' names have accents: Crème, brûlée): rows of plain English text.
const asciiOnly = (bytes) => encoder.encode(new TextDecoder().decode(bytes).replace(/[^\x00-\x7f]/g, 'e'));

/**
 * The responses timed: `{ title, table, select, n, bytes, withLabels?, userId, warm? }`
 * (`withLabels`: the same rows as the read that asks for their labels gets them).
 * With `ascii`, every text is plain ASCII.
 */
export function toolResultCases(sizes = [10, 100, 1000], { ascii = false } = {}) {
  const cases = [];
  const text = ascii ? asciiOnly : (bytes) => bytes;
  const suffix = ascii ? ', ASCII' : '';
  const labels = ascii ? { ingredients: asciiOnly(LABELS.ingredients) } : LABELS;
  for (const n of sizes) {
    const recipes = recipesWithIngredients(n);
    const recipeBytes = text(recipes.bytes);
    cases.push({ title: `${n} recipes with ingredients${suffix}`, table: 'recipes', select: '*,recipe_ingredients(*)', n, bytes: recipeBytes, userId: recipes.userId, labels });
    const plans = mealPlans(n, recipes.recipeIds, { userId: recipes.userId });
    const plansWithLabels = mealPlans(n, recipes.recipeIds, { userId: recipes.userId, recipeNames: recipes.recipeNames });
    cases.push({ title: `${n} meal plans (FK labels)${suffix}`, table: 'meal_plans', select: '*', n, bytes: text(plans.bytes), withLabels: text(plansWithLabels.bytes), userId: recipes.userId, warm: { ...recipes, bytes: recipeBytes }, labels });
  }
  return cases;
}

/**
 * The two sides of case `c` (toolResultCases'), each an async function that
 * makes one call and resolves with the text for the model: `alfred`
 * (act.callToolText with the arguments as a model's JSON text) and `byHand`
 * (the hand-written supabase-js tool), answered by the same in-process fetch.
 * Where the case has an earlier read (`warm`), the act has made it. A side
 * whose `core` or `createClient` is null is left out.
 */
export async function sidesOf(core, createClient, c) {
  const token = jwtFor(c.userId);
  let fetchBytes = answering(c.table, c.bytes, c.n, c.labels);
  const sides = {};
  if (core) {
    const act = core.createAct({
      url: 'https://bench.supabase.co',
      apiKey: 'anon-key',
      accessToken: token,
      fetch: (...args) => fetchBytes(...args),
      resultLimits: { rows: c.n, chars: 16 << 20 },
    });
    if (c.warm) {
      // An earlier call read the recipes: their labels are known.
      fetchBytes = answering('recipes', c.warm.bytes, c.warm.recipeIds.length, c.labels);
      const earlier = await act.execute('db_read', { table: 'recipes', limit: c.warm.recipeIds.length });
      if (earlier.error) throw new Error(earlier.error.message);
    }
    // The arguments as a model sends them: JSON text.
    const args = JSON.stringify({ table: c.table, limit: c.n });
    sides.alfred = () => act.callToolText('db_read', args);
  }
  // After the earlier read, the labels of the recipes it read are answered too.
  if (c.warm) fetchBytes = answering(c.table, c.bytes, c.n, { ...c.labels, recipes: c.warm.bytes }, c.withLabels);
  if (createClient) {
    const supabase = createClient('https://bench.supabase.co', 'anon-key', {
      global: { fetch: (...a) => fetchBytes(...a), headers: { Authorization: `Bearer ${token}` } },
      auth: { persistSession: false, autoRefreshToken: false },
      realtime: { transport: NoSocket },
    });
    sides.byHand = handWrittenTool(supabase, c.table, c.select, c.userId, c.n);
  }
  return sides;
}

/**
 * Times every case: `[{ title, n, alfredMs, handMs, ratios: [min, median, max], textBytes: { alfred, hand },
 * tokens? }]`. `ratio` is supabase-js time / alfred-act time of one round
 * (both sides interleaved), over `rounds` rounds. `countTokens(text)`, when
 * given, sizes either text in tokens too. `log(result)` is called per case.
 */
export async function runToolResultCases({ loadCore, createClient, rounds = 7, sizes, ascii = false, countTokens, log = () => {} }) {
  const core = await loadCore();
  const results = [];
  for (const c of toolResultCases(sizes, { ascii })) {
    const { alfred, byHand } = await sidesOf(core, createClient, c);

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

    // Each sample lasts about 20 ms.
    let reps = 1;
    for (const started = performance.now(); performance.now() - started < 20; reps++) await byHand();
    const times = { alfred: [], hand: [] };
    const ratios = [];
    for (let round = 0; round < rounds + 1; round++) {
      const sample = {};
      for (const [side, run] of round % 2 ? [['alfred', alfred], ['hand', byHand]] : [['hand', byHand], ['alfred', alfred]]) {
        const started = performance.now();
        for (let i = 0; i < reps; i++) await run();
        sample[side] = (performance.now() - started) / reps;
      }
      if (round === 0) continue; // warm-up
      times.alfred.push(sample.alfred);
      times.hand.push(sample.hand);
      ratios.push(sample.hand / sample.alfred);
    }
    const ordered = sorted(ratios);
    const result = {
      title: c.title,
      n: c.n,
      alfredMs: median(times.alfred),
      handMs: median(times.hand),
      ratios: [ordered[0], median(ratios), ordered[ordered.length - 1]],
      textBytes: { alfred: encoder.encode(ourText).length, hand: encoder.encode(theirText).length },
      ...(countTokens ? { tokens: { alfred: countTokens(ourText), hand: countTokens(theirText) } } : {}),
    };
    results.push(result);
    log(result);
  }
  return results;
}

/** The table the benches print for `results`. */
export function toolResultLines(results) {
  const lines = [
    'response                                alfred-act ms  supabase-js ms  supabase-js / alfred-act (min med max)  target  text: bytes, tokens alfred / by hand',
    '--------------------------------------  -------------  --------------  ---------------------------------------  ------  -----------------------------------',
  ];
  for (const r of results) {
    const [low, mid, high] = r.ratios.map((x) => x.toFixed(2));
    const target = TOOL_RESULT_TARGETS[r.n];
    const met = target === undefined ? '' : `${mid >= target ? '≥' : '<'} ${target.toFixed(1)}`;
    lines.push(
      `${r.title.padEnd(38)}  ${r.alfredMs.toFixed(3).padStart(13)}  ${r.handMs.toFixed(3).padStart(14)}  ${`${low}  ${mid}  ${high}`.padStart(39)}  ${met.padStart(6)}  ${`${(r.textBytes.alfred / r.textBytes.hand).toFixed(3)}×${r.tokens ? `, ${(r.tokens.alfred / r.tokens.hand).toFixed(3)}×` : ''}`.padStart(35)}`,
    );
  }
  return lines;
}
