// The act's fault handling: a write whose answer was lost or that the core
// failed on after sending is an unknown outcome, never "no effect"; a create
// of unknown outcome is retried with the same row ids; a server that refuses
// the max-affected preference (or names a version before 13 in any answer)
// is remembered, and every act on it counts instead.
import { randomUuid } from '../uuid.js';
import { CALLS_FUNCTION, CHANGES_ROWS, WRITE_TOOLS } from '../policy/tool-effects.js';
import { OUTCOME_UNKNOWN_HINT } from '../../dist/core-rules.mjs';
import { codes } from '../../dist/error-codes.mjs';

// A create's rows: `data` as given, or as the JSON text a strict tool sends
// it in (the core reads that text the same way).
function rowsOf(params) {
  let data = params?.data;
  if (typeof data === 'string') {
    try {
      data = JSON.parse(data);
    } catch {
      return []; // the core reports the data
    }
  }
  if (Array.isArray(data)) return data;
  return data && typeof data === 'object' ? [data] : [];
}

// The tools that may write, and those that change the rows their filters
// select: the core's tool effects (policy/tool-effects.js).
export { CHANGES_ROWS, WRITE_TOOLS };

/**
 * Whether a call may change data: a create, update or delete, or a
 * `db_call` of a function the domain does not mark as a read (an unknown
 * function counts as a write; the core refuses it before any request).
 *
 * @example
 * callWrites(domain, 'db_call', { function: 'get_accounts' }) // false when domain.functions.get_accounts.read
 */
export function callWrites(domain, tool, params) {
  if (!CALLS_FUNCTION.has(tool)) return WRITE_TOOLS.has(tool);
  const name = params && typeof params === 'object' ? params.function : undefined;
  const fn = typeof name === 'string' && domain?.functions && Object.hasOwn(domain.functions, name) ? domain.functions[name] : null;
  return fn?.read !== true;
}

export const WRITE_METHODS = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

// The core failed (a throw from the execution handle, or its own
// internal_error / out_of_memory result) after the write's request was sent:
// the database may have applied it, so this is an unknown outcome, with the
// status that arrived, never "no effect". The hint is the core's for the
// same case (execution_writes.cpp, outcome_unknown): a table the user cannot
// read is not offered to db_read, and a repeat is called safe only for a
// create that sent its row ids (`rowIds`).
export function coreFailedAfterWrite(tool, params, answer, failure, { domain, rowIds } = {}) {
  const table = typeof params?.table === 'string' ? params.table.slice(0, 80) : '?';
  const arrived = answer.status ? `HTTP ${answer.status}` : 'no answer';
  const why = `${failure.code}: ${String(failure.message ?? '').slice(0, 300)}`;
  const again = rowIds ? 'a repeated db_create of the same data reuses its row ids, so it cannot insert a second row' : 'do not send it again; tell the user it may have been saved';
  const unreadable = tool !== 'db_call' && domain?.tables && Object.hasOwn(domain.tables, table) && domain.tables[table]?.readable === false;
  return {
    code: codes.write_outcome_unknown,
    path: '',
    message: `${tool} on ${table}: the outcome is unknown; the request was sent and the core failed while taking the database's answer (${arrived}): ${why}`,
    hint: unreadable ? `${table} cannot be read to check: ${again}` : rowIds ? `${OUTCOME_UNKNOWN_HINT}; ${again}` : OUTCOME_UNKNOWN_HINT,
    ...(answer.status ? { status: answer.status } : {}),
  };
}

// PostgREST before 13 refuses `Prefer: handling=strict, max-affected=N` with
// 400 PGRST122, before running anything: the act then counts instead.
export const maxAffectedUnsupported = (result) => result?.error?.code === codes.bad_request && result.error.dbCode === 'PGRST122';
// The servers (by URL) this process has seen refuse the preference: a new
// act on one of them (a worker makes one per request) counts from its first
// write instead of being refused once more. Bounded: the oldest goes first.
const countingServers = new Set();
const MAX_COUNTING_SERVERS = 64;
export const serverKey = (location) => location.url ?? location.restUrl ?? '';
/** @internal Forgets the servers seen to refuse max-affected (tests that watch the first write). */
export function forgetCountingServers() {
  countingServers.clear();
}
export function rememberCounting(key) {
  countingServers.delete(key);
  countingServers.add(key);
  if (countingServers.size > MAX_COUNTING_SERVERS) countingServers.delete(countingServers.values().next().value);
}

// The gen_ ref each row of a create saves (`id: "gen_recipe_1"`), or null.
function savedRefs(rows) {
  return rows.map((row) => (row && typeof row === 'object' && typeof row.id === 'string' && row.id.startsWith('gen_') ? row.id : null));
}

// What each server (by URL) answered about aggregates (db_aggregate):
// 'on' or 'off', learned from its first aggregate (PGRST123 is off) and
// kept for the process, so a new act (one per request in a worker) neither
// asks again nor sends a request it knows is refused. Bounded as above.
const aggregateSupport = new Map();

/** @internal What the server at `key` is known to do with aggregates: 'on', 'off' or 'unknown'. */
export function aggregatesOf(key) {
  return aggregateSupport.get(key) ?? 'unknown';
}

/** @internal Keeps what an execution learned (`result.query.aggregates`) for the server at `key`. */
export function rememberAggregates(key, learned) {
  if (learned !== 'on' && learned !== 'off') return;
  aggregateSupport.delete(key);
  aggregateSupport.set(key, learned);
  if (aggregateSupport.size > MAX_COUNTING_SERVERS) aggregateSupport.delete(aggregateSupport.keys().next().value);
}

/** @internal Forgets what servers said of aggregates (tests that watch the first aggregate). */
export function forgetAggregateServers() {
  aggregateSupport.clear();
}

/** @internal Whether this process has seen the server at `key` refuse max-affected, or name a version before 13. */
export function isCounting(key) {
  return countingServers.has(key);
}

/**
 * @internal Learns from a response's `Server` header what the server at
 * `key` supports: a PostgREST before 13 (`postgrest/12.0.2`) does not take
 * the max-affected preference, so every act on it counts instead from its
 * first write, without a refused request. A server that names no version
 * (a gateway may replace the header) is learnt from its first refusal.
 *
 * @example
 * learnServer('https://abcd.supabase.co', 'postgrest/12.0.2'); isCounting('https://abcd.supabase.co') // true
 */
export function learnServer(key, server) {
  const version = /^postgrest\/(\d+)\./i.exec(typeof server === 'string' ? server.trim() : '');
  if (version && Number(version[1]) < 13 && !countingServers.has(key)) rememberCounting(key);
}

// Row ids for a create: the ones an earlier attempt of the same create (or
// of a save of the same gen_ artifact) used when its outcome was unknown,
// fresh ones otherwise. A retry thus sends the same ids, and the database
// refuses it as a duplicate instead of inserting twice.
export function createIds(registry, maxRows, tool, params) {
  if (tool !== 'db_create') return { rowIds: undefined };
  const rows = rowsOf(params);
  const count = rows.length;
  if (count === 0 || count > maxRows) return { rowIds: undefined };
  let key;
  try {
    key = JSON.stringify([tool, params]);
  } catch {
    return { rowIds: undefined }; // the core reports the params
  }
  const earlier = registry.uncertainIds(key);
  const saves = savedRefs(rows);
  const rowIds = Array.from({ length: count }, (_, i) => (saves[i] && registry.uncertainIds(saves[i])?.[0]) ?? earlier?.[i] ?? randomUuid());
  return { rowIds, key, saves };
}

// After the call: the ids of a create whose outcome is unknown are kept in
// the registry (under the call and each gen_ ref it saves), else forgotten.
// A repeat refused as a duplicate of those ids keeps them too: its rows may
// be the earlier attempt's (a write-only table's cannot be read to tell),
// and a further repeat must meet them again rather than insert anew.
export function settle(registry, { rowIds, key, saves }, result) {
  if (!rowIds) return;
  const code = result?.error?.code;
  const unknown = code === codes.write_outcome_unknown || (code === codes.duplicate && registry.uncertainIds(key) !== null);
  registry.setUncertain(key, unknown ? rowIds : null);
  saves.forEach((ref, i) => {
    if (!ref) return;
    if (unknown) registry.setUncertain(ref, [rowIds[i]]);
    else if (result?.error?.code !== codes.save_in_progress) registry.setUncertain(ref, null);
  });
}
