// Row-translation speed: PostgREST response bodies of 100, 1 000 and 10 000
// rows (recipes with their recipe_ingredients, meal plans with recipe FKs)
// turned into model-facing rows, next to bare JSON.parse of the same bytes.
// Run: node bench/translate-rows.mjs (npm run bench:rows).
//
// Every side starts from the bytes fetch's arrayBuffer() gives and ends with
// JS objects:
// - JSON.parse      JSON.parse(new TextDecoder().decode(bytes)) — what response.json() does
// - pure JS         the same, then a walk over the objects: UUIDs → refs through a Map,
//                   owner and hidden columns dropped, FK labels added
// - alfred-act      registry.translateRows(table, bytes): bytes copied into WASM memory,
//                   translated there in one pass, the model-facing text decoded and JSON.parse'd
// "cold" registries have never seen the rows (every id registers a new ref);
// "warm" ones translated the same response before (every id is a lookup).
// Meal plans are translated by a registry that already read the 200 recipes
// they point at, so their FKs get labels.
//
// Sides run interleaved; each sample repeats a side enough times to last a
// few milliseconds, the reported time is the median per translation.
// Environment: BENCH_ROUNDS (7), BENCH_SIZES ("100,1000,10000").
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { isDeepStrictEqual } from 'node:util';
import { loadCore, kitchen } from '../web/src/index.node.js';
import { MAX_INPUT_BYTES } from '../web/src/limits.js';
import { mealPlans, recipesWithIngredients } from './fixtures/postgrest-responses.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const SIZES = (process.env.BENCH_SIZES ?? '100,1000,10000').split(',').map(Number);

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

// --- the pure-JS translation ----------------------------------------------------

/** Refs and labels the way a straightforward JS port would keep them. */
class JsRegistry {
  refs = new Map(); // uuid → { ref, label }
  counters = new Map();

  ref(uuid, prefix, label) {
    let entry = this.refs.get(uuid);
    if (!entry) {
      const n = (this.counters.get(prefix) ?? 0) + 1;
      this.counters.set(prefix, n);
      entry = { ref: `${prefix}_${n}`, label: '' };
      this.refs.set(uuid, entry);
    }
    if (label) entry.label = label;
    return entry;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function labelOf(config, row) {
  if (config.label_format) {
    let complete = true;
    const text = config.label_format.replace(/\{(\w+)(?:\|(\w+))?\}/g, (_, name, filter) => {
      const value = row[name];
      if (value === null || value === undefined || value === '') complete = false;
      if (filter === 'mon_day' && typeof value === 'string') {
        const month = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][Number(value.slice(5, 7)) - 1];
        return month ? `${month} ${value.slice(8, 10)}` : value;
      }
      return String(value ?? '');
    });
    if (complete && text) return text;
  }
  for (const name of config.label ?? []) if (row[name] !== null && row[name] !== undefined && row[name] !== '') return String(row[name]);
  return '';
}

// `enclosing`: the ids of the rows these are embedded in that show their own
// label; a key to one of them gets no label, nor does a label equal to the
// row's own (docs/results-for-models.md).
function translateJs(domain, tableName, rows, registry, enclosing = []) {
  const config = domain.tables[tableName];
  const prefixOf = (name) => domain.tables[name].ref;
  const translateRow = (row) => {
    const out = {};
    const own = labelOf(config, row);
    const id = typeof row.id === 'string' ? row.id.toLowerCase() : null;
    const inner = own && id ? [...enclosing, id] : enclosing;
    for (const key of Object.keys(row)) {
      const value = row[key];
      if ((key === domain.owner_column && config.user_owned) || config.hidden?.includes(key)) continue;
      const column = config.columns[key];
      if (!column) {
        const target = config.relations?.[key];
        if (target) out[key] = Array.isArray(value) ? translateJs(domain, target, value, registry, inner) : null;
        continue;
      }
      if (column.type === 'uuid') {
        // A user id (the owner column, a reference to auth.users): `me` for the
        // signed-in user, left out otherwise; no one is signed in here.
        if (key !== 'id' && !domain.tables[column.references]) continue;
        if (value === null) out[key] = null;
        else if (typeof value === 'string' && UUID.test(value)) {
          const uuid = value.toLowerCase();
          if (key === 'id') {
            out[key] = registry.ref(uuid, config.ref, labelOf(config, row)).ref;
          } else {
            const entry = registry.ref(uuid, prefixOf(column.references));
            out[key] = entry.ref;
            if (entry.label && entry.label !== entry.ref && entry.label !== own && !enclosing.includes(uuid)) out[`_${key}_label`] = entry.label;
          }
        }
        continue;
      }
      out[key] = value;
    }
    return out;
  };
  return rows.map(translateRow);
}

// --- setup -----------------------------------------------------------------------

// The largest input one call may take (also the default).
const core = await loadCore({ maxInputBytes: MAX_INPUT_BYTES });
const decoder = new TextDecoder();
const recipesFor200 = recipesWithIngredients(200, { seed: 99 });

function alfredRegistry(kind) {
  const registry = core.createRegistry();
  if (kind === 'meal_plans') registry.translateRows('recipes', recipesFor200.bytes);
  return registry;
}
function jsRegistry(kind) {
  const registry = new JsRegistry();
  if (kind === 'meal_plans') translateJs(kitchen, 'recipes', JSON.parse(recipesFor200.text), registry);
  return registry;
}

const cases = [];
// Responses over the most one call may take are refused by design (a Worker
// has 128 MB for everything; docs/limits-and-faults.md): listed, not timed.
const overLimit = [];
for (const size of SIZES) {
  const recipes = recipesWithIngredients(size);
  for (const c of [
    { kind: 'recipes', label: `recipes + ingredients`, size, bytes: recipes.bytes },
    { kind: 'meal_plans', label: `meal plans (FK labels)`, size, bytes: mealPlans(size, recipesFor200.recipeIds).bytes },
  ])
    (c.bytes.length > MAX_INPUT_BYTES ? overLimit : cases).push(c);
}

// Both translations must agree before anything is timed.
for (const c of cases) {
  const ours = alfredRegistry(c.kind);
  const { data, error } = ours.translateRows(c.kind, c.bytes);
  if (error) throw new Error(`${c.kind} ${c.size}: ${JSON.stringify(error)}`);
  const theirs = translateJs(kitchen, c.kind, JSON.parse(decoder.decode(c.bytes)), jsRegistry(c.kind));
  if (!isDeepStrictEqual(data, theirs)) throw new Error(`${c.kind} ${c.size}: alfred-act and the pure-JS translation differ`);
  if (/[0-9a-f]{8}-[0-9a-f]{4}-/i.test(JSON.stringify(data))) throw new Error(`${c.kind} ${c.size}: a UUID survived`);
  ours.delete();
}

// --- timing ------------------------------------------------------------------------

let sink = 0;

// One sample: `repeat` runs of `run(state)` with states made beforehand
// (outside the timing); returns ms per run.
function sample(repeat, makeState, run) {
  const states = Array.from({ length: repeat }, makeState);
  const start = performance.now();
  for (let i = 0; i < repeat; i++) sink += run(states[i]) ? 1 : 0;
  const elapsed = (performance.now() - start) / repeat;
  for (const state of states) state?.delete?.();
  return elapsed;
}

const results = [];
const started = performance.now();
for (const c of cases) {
  const table = c.kind;
  const warmAlfred = alfredRegistry(c.kind);
  warmAlfred.translateRows(table, c.bytes);
  const warmJs = jsRegistry(c.kind);
  translateJs(kitchen, table, JSON.parse(decoder.decode(c.bytes)), warmJs);

  const sides = {
    parse: [() => null, () => JSON.parse(decoder.decode(c.bytes))],
    jsCold: [() => jsRegistry(c.kind), (r) => translateJs(kitchen, table, JSON.parse(decoder.decode(c.bytes)), r)],
    jsWarm: [() => warmJs, (r) => translateJs(kitchen, table, JSON.parse(decoder.decode(c.bytes)), r)],
    alfredCold: [() => alfredRegistry(c.kind), (r) => r.translateRows(table, c.bytes).data],
    alfredWarm: [() => null, () => warmAlfred.translateRows(table, c.bytes).data],
  };
  // Each sample lasts ~10 ms or one run; warm-up runs calibrate it.
  for (const [, [make, run]] of Object.entries(sides)) sample(2, make, run);
  const once = sample(1, sides.parse[0], sides.parse[1]);
  const repeat = Math.max(1, Math.round(10 / Math.max(once, 0.01)));
  const times = Object.fromEntries(Object.keys(sides).map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round++)
    for (const [name, [make, run]] of Object.entries(sides)) times[name].push(sample(repeat, make, run));
  warmAlfred.delete();
  results.push({ ...c, ...Object.fromEntries(Object.entries(times).map(([name, list]) => [name, median(list)])) });
}

// --- report ------------------------------------------------------------------------

const ms = (value) => (value < 1 ? value.toFixed(3) : value < 10 ? value.toFixed(2) : value.toFixed(1));
const mb = (bytes) => `${(bytes / 1e6).toFixed(bytes < 1e6 ? 2 : 1)} MB`;
const header = ['response', 'rows', 'size', 'JSON.parse', 'pure JS cold', 'pure JS warm', 'alfred cold', 'alfred warm', 'cold/parse', 'warm/parse'];
const rows = results.map((r) => [
  r.label,
  r.size.toLocaleString('en-US'),
  mb(r.bytes.length),
  ms(r.parse),
  ms(r.jsCold),
  ms(r.jsWarm),
  ms(r.alfredCold),
  ms(r.alfredWarm),
  (r.alfredCold / r.parse).toFixed(2),
  (r.alfredWarm / r.parse).toFixed(2),
]);
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
const line = (cells) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
console.log(
  `row translation: median ms per response of ${ROUNDS} interleaved rounds (${((performance.now() - started) / 1000).toFixed(1)} s, ` +
    `Node ${process.versions.node}, ${cpus().length} CPUs)\n`,
);
console.log(line(header));
console.log(widths.map((w) => '-'.repeat(w)).join('  '));
for (const row of rows) console.log(line(row));
for (const c of overLimit)
  console.log(`${c.label.padEnd(widths[0])}  ${c.size.toLocaleString('en-US').padStart(widths[1])}  ${mb(c.bytes.length).padStart(widths[2])}  over the ${MAX_INPUT_BYTES >> 20} MiB one call may take: refused (input_too_large), not timed`);
console.log('\nratio = alfred-act / JSON.parse of the same bytes (target ≤ 1.30)');
if (sink < 0) console.log(sink);
