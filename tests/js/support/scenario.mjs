// Helpers for the user-level scenarios (tests/js/scenarios/): an act per
// user on a shared local stack, the database read back independently as the
// user, whole-kitchen snapshots for "nothing was written", and the check that
// nothing the model sees (rows, query record, error) carries a UUID.
import assert from 'node:assert/strict';
import { before } from 'node:test';
import { loadCore } from '../../../web/src/index.node.js';
import { recordingFetch } from './recording-fetch.mjs';
import { rest, sharedStack } from './stack.mjs';

export const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** The user-owned tables of the kitchen domain, with the columns a snapshot keeps. */
export const OWN_TABLES = ['recipes', 'recipe_ingredients', 'inventory', 'shopping_list', 'meal_plans', 'tasks', 'preferences', 'cooking_log'];

/** Today and a day offset, as YYYY-MM-DD (the seed's dates are relative to the stack's start day). */
export const isoDay = (days = 0) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** A name no other scenario uses: `label` plus a short stamp. */
let counter = 0;
export const unique = (label) => `${label} ${process.pid.toString(36)}${(++counter).toString(36)}`;

function hasKeyDeep(value, key) {
  if (Array.isArray(value)) return value.some((item) => hasKeyDeep(item, key));
  if (value && typeof value === 'object') return Object.entries(value).some(([k, v]) => k === key || hasKeyDeep(v, key));
  return false;
}

/**
 * What the model sees (data, error without its developer-only `raw`, query
 * record) has no UUID and no owner column. `allow` lists UUIDs the model itself wrote, which an error may quote.
 */
export function assertModelFacing(result, { allow = [] } = {}) {
  for (const part of ['data', 'error', 'query']) {
    // error.raw is the database's own text, kept for the developer and never shown to the model.
    const value = part === 'error' && result.error ? { ...result.error, raw: undefined } : result[part];
    let text = JSON.stringify(value ?? null);
    for (const own of allow) text = text.split(own).join('(own)');
    assert.doesNotMatch(text, UUID, `no UUID in ${part}: ${text.slice(0, 400)}`);
  }
  assert.ok(!hasKeyDeep(result.data, 'user_id'), 'no user_id in data');
  return result;
}

/** A successful call: no error, nothing model-facing with a UUID. */
export function ok(result) {
  assert.equal(result.error, null, `unexpected error: ${JSON.stringify(result.error)}`);
  return assertModelFacing(result);
}

/**
 * The scenario kit for one test file: one shared seeded stack, the core, an
 * act per user with a recording fetch, and ground-truth reads as the user.
 *
 * @example
 * const kit = scenarioKit()
 * test('…', async () => { const { act, fetch } = kit.actFor(); … await kit.db('/inventory?select=name') })
 */
export function scenarioKit(options) {
  const stack = sharedStack(options);
  let core;
  before(async () => {
    core = await loadCore();
  });
  const kit = {
    stack,
    get core() {
      return core;
    },
    ada: () => stack().users[0],
    ben: () => stack().users[1],

    /** A fresh act (own registry) for `user` (Ada by default), with a recording fetch. */
    actFor({ user = kit.ada(), fetch = recordingFetch(), ...rest_ } = {}) {
      const act = core.createAct({ restUrl: stack().url, apiKey: stack().anonKey, accessToken: user.token, userId: user.id, fetch, ...rest_ });
      return { act, fetch };
    },

    /** Rows of `path` as `user` sees them through PostgREST: the independent read. */
    async db(path, user = kit.ada()) {
      const { status, body } = await rest(stack(), user.token, 'GET', path);
      assert.equal(status, 200, `GET ${path}: ${JSON.stringify(body)}`);
      return body;
    },

    /** The rows of `tables` (every user-owned table by default) `user` sees, by table, ordered by id. */
    async snapshot(user = kit.ada(), tables = OWN_TABLES) {
      const rows = await Promise.all(tables.map((table) => kit.db(`/${table}?select=*&order=id`, user)));
      return Object.fromEntries(tables.map((table, i) => [table, rows[i]]));
    },

    /**
     * Both users' rows of `tables` (all by default): "nothing was written" is
     * this, equal before and after. Name the tables a scenario could touch to
     * keep it quick; `ingredients` reads the shared catalog.
     */
    async everything(tables = [...OWN_TABLES, 'ingredients']) {
      const [ada, ben] = await Promise.all([kit.snapshot(kit.ada(), tables), kit.snapshot(kit.ben(), tables)]);
      return { ada, ben };
    },
  };
  return kit;
}

/** The ref → UUID map of an act's registry. */
export function uuids(act) {
  return new Map(act.registry.toJSON().refs.map((entry) => [entry.ref, entry.uuid]));
}

/** The UUID behind `ref` in `act`'s registry (asserting it is known). */
export function uuidOf(act, ref) {
  const uuid = uuids(act).get(ref);
  assert.match(uuid ?? '', UUID, `${ref} is registered`);
  return uuid;
}

/**
 * A refused call: the error code, no data, no HTTP request sent, and nothing
 * model-facing with a UUID except the ones in `allow`.
 */
export function refused(result, code, fetch, { allow } = {}) {
  assert.equal(result.error?.code, code, JSON.stringify(result.error));
  assert.equal(result.data, null);
  assert.ok(result.error.message.length > 0 && typeof result.error.hint === 'string');
  if (fetch) assert.deepEqual(fetch.requests.map((r) => `${r.method} ${r.url}`), [], 'no request was sent');
  return assertModelFacing(result, { allow });
}

/** Rows of `after` whose id is not in `before`. */
export const added = (before, after) => after.filter((row) => !before.some((old) => old.id === row.id));

/** `rows` keeping only `keys`, sorted by the first key (code point order): stable comparisons. */
export function pick(rows, ...keys) {
  return rows
    .map((row) => Object.fromEntries(keys.map((key) => [key, row[key]])))
    .sort((a, b) => (String(a[keys[0]]) < String(b[keys[0]]) ? -1 : String(a[keys[0]]) > String(b[keys[0]]) ? 1 : 0));
}

/** The first user message of a chat request the loop sent: the assembled Act prompt. */
export const userPrompt = (body) => body.messages.find((message) => message.role === 'user').content;

/**
 * The rows in a prompt as the model reads them, from its `` - `ref` | key: value | … `` lines:
 * `[{ ref, key: value, …, children? }]`, embedded rows both under their parent and on their own,
 * each ref once (the first occurrence: step data comes before the entity snapshot).
 *
 * @example
 * promptRows(userPrompt(body)).find((row) => row.name === 'egg') // { ref: 'inv_5', name: 'egg', quantity: '10', … }
 */
export function promptRows(text) {
  const rows = new Map();
  let parent = null;
  for (const line of text.split('\n')) {
    const match = /^(\s*)- `([a-z_]+_\d+)`((?: \| .*)?)$/.exec(line);
    if (!match) continue;
    const [, indent, ref, rest] = match;
    const fields = { ref };
    for (const part of rest.split(' | ').slice(1)) {
      const colon = part.indexOf(': ');
      if (colon > 0) fields[part.slice(0, colon)] = part.slice(colon + 2);
    }
    if (indent === '') parent = fields;
    else if (parent) (parent.children ??= []).push(fields);
    if (!rows.has(ref)) rows.set(ref, fields);
  }
  return [...rows.values()];
}

/** The content of a generated artifact as the prompt's Generated Artifacts section shows it. */
export function promptArtifact(text, ref) {
  const match = new RegExp(`#### \`${ref}\`[^\\n]*\\n\`\`\`json\\n(.*)\\n\`\`\``).exec(text);
  assert.ok(match, `${ref} is in the prompt's Generated Artifacts`);
  return JSON.parse(match[1]);
}
