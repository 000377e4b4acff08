// One MCP session's tool calls: the session's ref registry is loaded from the
// store, the call runs as the caller (their token, under row-level security),
// and the registry is stored back. Used by the stdio server and by the edge
// worker's /mcp route alike.
import { runConfirmedCall } from './approval.js';
import { restrictDomain } from '../policy/tables.js';
import { DATABASE_TOOLS, SCHEMA_TOOL, coreDomain, domainName, mcpSchemaResult, mcpToolError, mcpToolResult, schemaDescription } from './tools.js';
import { codes } from '../../dist/error-codes.mjs';

/**
 * A new session id: 32 random bytes, base64url (not UUID-shaped, so no
 * scrubber or reader mistakes it for a row id).
 */
export function newSessionId() {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * Stores a fresh session for `caller`: `{ data: state, error }`.
 *
 * @example
 * const sessionId = newSessionId()
 * await openSession({ store, sessionId, caller: { userId, accessToken }, protocolVersion: '2025-06-18' })
 */
export async function openSession({ store, sessionId, caller, protocolVersion = null, clientCapabilities = null }) {
  const now = new Date().toISOString();
  const state = { userId: caller.userId, registry: null, protocolVersion, clientCapabilities, createdAt: now, updatedAt: now };
  try {
    await store.put(sessionId, state, caller);
    return { data: state, error: null };
  } catch (cause) {
    return { data: null, error: storeFailure(cause) };
  }
}

/**
 * The session's state for `caller`: `{ data: state | null, error }`. A
 * session stored for another user is null, as one that never existed.
 */
export async function findSession({ store, sessionId, caller }) {
  try {
    const state = await store.get(sessionId, caller);
    if (!state || state.userId !== caller.userId) return { data: null, error: null };
    return { data: state, error: null };
  } catch (cause) {
    return { data: null, error: storeFailure(cause) };
  }
}

/** Forgets the session: `{ data: true, error }`. */
export async function closeSession({ store, sessionId, caller }) {
  try {
    await store.delete(sessionId, caller);
    return { data: true, error: null };
  } catch (cause) {
    return { data: null, error: storeFailure(cause) };
  }
}

// Calls of one session run one after another within a process, so two
// concurrent calls never start from the same registry and hand out the same
// ref twice. Across processes a store must serialize them itself.
const running = new Map();

function serialized(key, task) {
  const previous = running.get(key) ?? Promise.resolve();
  const current = previous.then(task, task);
  const settled = current.then(
    () => {},
    () => {},
  );
  running.set(key, settled);
  settled.then(() => {
    if (running.get(key) === settled) running.delete(key);
  });
  return current;
}

const CANNOT_ASK = async () => ({ action: 'unavailable' });

/**
 * Runs one `tools/call` in a session: resolves to an MCP CallToolResult
 * whose text is the tool result for the model (`act.callTool`'s shape);
 * never rejects for bad arguments, a missing session or a database failure
 * (those are `isError` results with `code`, `path`, `message`, `hint`).
 * `actOptions` are createAct's (url, apiKey, accessToken, userId, domain,
 * fetch, and the policy: readOnly, tables, approve, maxAffected); the caller
 * is `{ userId, accessToken }` from them. A write the act holds for approval
 * is put to the user through `confirmation(preview)` (approval.js:
 * runConfirmedCall); without one, the client cannot be asked and the write
 * is not sent (`approval_required`).
 *
 * @example
 * const result = await callSessionTool({ core, store, sessionId, actOptions, name: 'db_read', args: { table: 'inventory' } })
 * // { content: [{ type: 'text', text: '{"ok":true,"tool":"db_read","table":"inventory","count":4,"rows":[{"id":"inv_1",…}],"query":"Query: …"}' }], structuredContent: { ok: true, … }, isError: false }
 */
export async function callSessionTool({ core, store, sessionId, actOptions, name, args, signal, confirmation = CANNOT_ASK }) {
  const early = schemaOrUnknown(core, actOptions, name, args);
  if (early) return early;
  const caller = { userId: actOptions.userId, accessToken: actOptions.accessToken };
  const { data, error } = await withStoredRegistry({ core, store, sessionId, caller, actOptions, missing: 'refuse', run: (act) => runConfirmedCall({ core, act, name, args, signal, confirmation }) });
  if (error) return mcpToolError(name, error);
  return answerWithNote(data.outcome.result ?? pendingAsUnasked(name, data.outcome.pending), data.note, data.outcome.text);
}

/**
 * The id under which a server without sessions (MCP 2026-07-28) keeps one
 * user's refs in a session store: one registry per user and domain, so the
 * refs a user's model saw resolve in that user's next call, whichever
 * request, isolate or conversation it comes from.
 *
 * @example
 * userRefsId(crm) // 'alfred-act-refs:crm'
 */
export const userRefsId = (domain) => `alfred-act-refs:${domainName(domain)}`.slice(0, 128);

/**
 * One `tools/call` without a session (MCP 2026-07-28): the caller's refs
 * are loaded from `store` under userRefsId (a fresh registry when there are
 * none, or they expired) and stored back after the call. Resolves to
 * `{ result }` (a CallToolResult) or `{ pending: preview }` when
 * `confirmation` answered `pending` (the server asks the user and the client
 * calls again; nothing was sent). A ref that no longer resolves because the
 * stored refs expired is `refs_expired`, saying how to get fresh ones.
 *
 * @example
 * const { result, pending } = await callUserTool({ core, store, actOptions, name: 'db_delete', args, confirmation })
 */
export async function callUserTool({ core, store, actOptions, name, args, signal, confirmation = CANNOT_ASK, approval = null }) {
  const early = schemaOrUnknown(core, actOptions, name, args);
  if (early) return { result: early };
  const caller = { userId: actOptions.userId, accessToken: actOptions.accessToken };
  const domain = actOptions.domain ?? coreDomain(core);
  const sessionId = userRefsId(domain);
  const { data, error } = await withStoredRegistry({
    core, store, sessionId, caller, actOptions, missing: 'create', approval,
    run: (act) => runConfirmedCall({ core, act, name, args, signal, confirmation }),
  });
  if (error) return { result: mcpToolError(name, error) };
  if (data.outcome.pending) return { pending: data.outcome.pending };
  const result = data.outcome.result;
  let text = data.outcome.text;
  if (!data.found && result?.error?.code === codes.unknown_ref && (await hadRefs(store, domain, caller))) {
    result.error = { ...result.error, code: codes.refs_expired, message: `${result.error.message}: no refs are kept for you on this server now`, hint: REFS_EXPIRED_HINT };
    text = undefined;
  }
  // Remembered apart from the refs, so that refs which expired can be told
  // from refs this user never had here.
  if (data.created) await rememberRefsKept(store, domain, caller);
  return { result: answerWithNote(result, data.note, text) };
}

// The id of the mark that refs were kept for a user on `domain` (it
// outlives them in a store that keeps rows until a clean-up, as
// act_sessions does).
const userSeenId = (domain) => `alfred-act-seen:${domainName(domain)}`.slice(0, 128);

async function rememberRefsKept(store, domain, caller) {
  try {
    await store.put(userSeenId(domain), { userId: caller.userId, registry: null, protocolVersion: null, refsKeptSince: new Date().toISOString() }, caller);
  } catch {
    // Only the difference between refs_expired and unknown_ref rests on it.
  }
}

async function hadRefs(store, domain, caller) {
  const { data } = await findSession({ store, sessionId: userSeenId(domain), caller });
  return Boolean(data);
}

const REFS_EXPIRED_HINT = 'refs from earlier calls expire after a day without a call: read the rows again (db_read with a filter on their names) to get current refs, then repeat the call with them';

/**
 * The domain a client of a server with `actOptions` is shown: the one
 * served, with only the allowed tables when `tables` restricts it.
 *
 * @example
 * shownDomain(core, { domain: crm, tables: ['deals'] }).tables // { deals }
 */
export function shownDomain(core, actOptions) {
  const domain = actOptions.domain ?? coreDomain(core);
  return Array.isArray(actOptions.tables) ? restrictDomain(domain, actOptions.tables) : domain;
}

// The argument some MCP clients add to a tool that takes none (their model
// is shown a tool with one parameter, and fills it with any text): a
// client's artifact that asks for nothing, not an option (docs/mcp.md).
const PLACEHOLDER_ARG = 'random_string';

// db_schema and an unknown tool need no session: their answer, or null.
// db_schema takes no arguments: one given is refused, never ignored (but
// for a client's placeholder, above).
function schemaOrUnknown(core, actOptions, name, args) {
  const domain = shownDomain(core, actOptions);
  if (name === SCHEMA_TOOL) {
    // Blank text is no arguments, as {} is.
    const given = typeof args === 'string' ? (args.trim() === '' ? undefined : parsedArgs(args)) : args;
    const named = (object) => Object.keys(object).filter((key) => !(key === PLACEHOLDER_ARG && typeof object[key] === 'string'));
    const extra = given === undefined || given === null ? [] : typeof given === 'object' && !Array.isArray(given) ? named(given) : [''];
    if (extra.length > 0) {
      const what = extra[0] === '' ? 'arguments that are not an object' : `the argument ${JSON.stringify(extra[0])}`;
      return mcpToolError(name, { code: codes.unknown_param, message: `${SCHEMA_TOOL} takes no arguments, but was given ${what}`, path: extra[0], hint: `call it with {}: it describes every table and function` });
    }
    const { data, error } = schemaDescription(core, domain);
    return error ? mcpToolError(name, error) : mcpSchemaResult(data);
  }
  const offered = DATABASE_TOOLS.filter((tool) => tool !== 'db_call' || Object.keys(domain?.functions ?? {}).length > 0);
  if (!offered.includes(name)) {
    return mcpToolError(name, { code: codes.unknown_tool, message: `there is no tool ${JSON.stringify(name)}`, path: 'name', hint: `tools: ${[...offered, SCHEMA_TOOL].join(', ')}` });
  }
  return null;
}

// Arguments given as JSON text, parsed; the text itself when it is not JSON.
function parsedArgs(text) {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

// A pending confirmation where the transport cannot come back for it: as a
// client that cannot be asked (nothing was sent).
function pendingAsUnasked(name, preview) {
  return { ok: false, tool: String(name), table: preview.table, error: { code: codes.approval_required, path: '', message: `${preview.tool} on ${preview.table} needs the user's confirmation and was not sent`, hint: 'nothing was sent' } };
}

// The result as a CallToolResult (`text`: the core's, when the result is
// the one it wrote), with a second text block when the refs could not be
// stored after the call.
function answerWithNote(result, note, text) {
  const answer = mcpToolResult(result, text);
  if (note) answer.content.push({ type: 'text', text: note });
  return answer;
}

// Approvals kept per user record, each until its confirmation expires: at
// most this many (the newest stay).
const MAX_KEPT_APPROVALS = 16;

// The approvals of `base` still within their time, with `id`'s answer added.
function keptApprovals(base, approval, answer) {
  const now = Date.now();
  const kept = Object.entries(base.approvals ?? {}).filter(([, entry]) => typeof entry?.exp === 'number' && entry.exp > now);
  if (approval && answer) kept.push([approval.id, { exp: approval.exp, ...answer }]);
  return Object.fromEntries(kept.slice(-MAX_KEPT_APPROVALS));
}

// Loads the registry stored under `sessionId` for `caller`, makes an act on
// it with `actOptions`, runs `run(act)`, stores the registry back. One at a
// time per user and id within a process, so two concurrent calls never start
// from the same registry and hand out the same ref twice (across processes a
// store must serialize them itself). `missing`: 'refuse' (a session that
// must exist) or 'create'. `approval` (`{ id, exp }`): a confirmation that
// may be used once; a second run with the same id is answered with what the
// first answered, and nothing runs. `{ data: { outcome, found, created,
// note }, error }`.
function withStoredRegistry({ core, store, sessionId, caller, actOptions, missing, run, approval = null }) {
  return serialized(`${caller.userId}\n${sessionId}`, async () => {
    const { data: session, error: findError } = await findSession({ store, sessionId, caller });
    if (findError) return { data: null, error: findError };
    if (!session && missing === 'refuse') return { data: null, error: sessionNotFound() };
    const used = approval ? session?.approvals?.[approval.id] : undefined;
    if (used && typeof used.text === 'string') {
      return { data: { outcome: { result: JSON.parse(used.text), text: used.text }, found: true, created: false, note: null }, error: null };
    }
    const now = new Date().toISOString();
    const base = session ?? { userId: caller.userId, registry: null, protocolVersion: null, createdAt: now, updatedAt: now };
    let act;
    try {
      act = core.createAct({ ...actOptions, state: base.registry ?? undefined });
    } catch (cause) {
      if (cause?.name !== 'AlfredError') throw cause;
      if (cause.path && !cause.path.startsWith('state')) return { data: null, error: { code: cause.code, message: cause.message, path: cause.path, hint: cause.hint ?? '' } };
      return { data: null, error: { code: cause.code, message: `the session's state is unusable: ${cause.message}`, path: 'session', hint: 'start a new session' } };
    }
    try {
      const outcome = await run(act);
      // An approval that ran is kept with its answer, so that it runs once.
      const answer = approval && outcome.result ? { text: outcome.text ?? JSON.stringify(outcome.result) } : null;
      const approvals = keptApprovals(base, approval, answer);
      const stored = { ...base, registry: act.registry.toJSON(), updatedAt: new Date().toISOString() };
      if (Object.keys(approvals).length > 0) stored.approvals = approvals;
      else delete stored.approvals;
      try {
        await store.put(sessionId, stored, caller);
      } catch (cause) {
        // The call ran (a write is done): it is reported as it happened, never
        // as a failure the model would retry, with what was lost said.
        return { data: { outcome, found: Boolean(session), created: false, note: `note: ${storeFailure(cause).message}; refs from this result may not resolve in later calls` }, error: null };
      }
      return { data: { outcome, found: Boolean(session), created: !session, note: null }, error: null };
    } finally {
      act.registry.delete();
    }
  });
}

export function sessionNotFound() {
  return { code: codes.session_not_found, message: 'this MCP session does not exist, has expired or belongs to another user', hint: 'initialize a new session' };
}

function storeFailure(cause) {
  return { code: codes.session_store_failed, message: `the session store failed: ${cause?.message ?? cause}` };
}
