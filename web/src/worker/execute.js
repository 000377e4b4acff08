// POST /act/execute: one tool call for the caller, as JSON.
import { TOOL_NAMES as TOOLS } from '../tools.js';
import { invalid } from './http.js';
import { callerState } from './state.js';

// A value with every UUID a text of it holds shown as its ref (or `<id>`),
// through the core's scrubber over its JSON text.
function withoutUuids(core, value, registry) {
  if (value === null || value === undefined) return value;
  const text = JSON.stringify(value);
  const scrubbed = core.withoutUuids(text, { registry });
  return scrubbed === text ? value : JSON.parse(scrubbed);
}

/**
 * The outcome of `act.execute` as a model may read it: no UUID in `data`
 * (a storage path, a pasted id: shown as its ref or `<id>`) or in the
 * error's preview rows, and no `error.raw` (the database's own text, with
 * the real ids). The developer's copy is `raw`, given only when asked.
 *
 * @example
 * modelSafeOutcome(core, await act.execute('db_read', params), act.registry)
 */
export function modelSafeOutcome(core, outcome, registry) {
  const { data, error, query, count } = outcome;
  let safeError = error;
  if (error) {
    const { raw: _raw, ...rest } = error;
    safeError = rest;
    if (rest.preview) safeError = { ...rest, preview: withoutUuids(core, rest.preview, registry) };
  }
  return { data: withoutUuids(core, data, registry), error: safeError, query, count };
}

/**
 * Body `{ tool, params, state?, approved?, preview?, raw? }` → `{ data, error, query, count, state, raw? }`.
 * A refused or failed tool call (an unknown tool included) is a 200 whose `error` is the executor's
 * `{ code, path, message, hint }`: it is the tool result an agent feeds
 * back to its model, not a fault of the HTTP request, and holds no UUID
 * (modelSafeOutcome). `raw: true` adds `raw: { data, error }`, the
 * developer's copy as the database answered (real ids in text and in the
 * database's error text): for logs, never for a model. Under a policy that
 * asks before writes (ALFRED_APPROVE), a write is `approval_required` with
 * `error.preview`; the host asks its user and sends the same call with
 * `approved: true` and the `preview` it showed (each request builds a new
 * act, which checks the rows against that preview: `preview_changed` when
 * the write would now touch others). `signal` (the request's) stops the call's remaining
 * database requests when the client hangs up.
 */
export async function executeToolCall({ body, core, config, caller, signal, policy = {} }) {
  const { tool, params, state, approved = false, preview, raw = false } = body;
  // A tool name the model made up is answered by the act (unknown_tool, a tool result); a body without one is a bad request.
  if (typeof tool !== 'string') return { error: invalid('tool', `tool must be one of ${TOOLS.join(', ')}`) };
  if (typeof raw !== 'boolean') return { error: invalid('raw', 'raw must be true or false') };
  if (params === null || typeof params !== 'object' || Array.isArray(params)) return { error: invalid('params', 'params must be an object') };
  if (typeof approved !== 'boolean') return { error: invalid('approved', 'approved must be true or false') };
  if (preview !== undefined && (preview === null || typeof preview !== 'object' || Array.isArray(preview))) return { error: invalid('preview', 'preview must be the error.preview object the approval was given for') };
  const { data: start, error } = callerState(state);
  if (error) return { error };
  const { data: act, error: actError } = createCallerAct(core, config, caller, start.registry, policy);
  if (actError) return { error: actError };
  try {
    const result = await act.execute(tool, params, { signal, approved, ...(preview === undefined ? {} : { preview }) });
    const answer = { ...modelSafeOutcome(core, result, act.registry), state: start.withRegistry(act.registry.toJSON()) };
    if (raw) answer.raw = { data: result.data, error: result.error?.raw ? { ...result.error, ...result.error.raw } : (result.error ?? null) };
    return { data: answer };
  } finally {
    act.registry.delete();
  }
}

/**
 * An executor that sends the anon key as `apikey` and the caller's JWT as
 * the bearer, so PostgREST applies row-level security as that user, under
 * `policy` (readOnly, tables, approve, maxAffected). A damaged registry
 * state is a 400.
 */
export function createCallerAct(core, config, caller, registryState, policy = {}) {
  try {
    const act = core.createAct({
      ...(config.restUrl ? { restUrl: config.restUrl } : { url: config.supabaseUrl }),
      apiKey: config.anonKey,
      accessToken: caller.accessToken,
      userId: caller.userId,
      state: registryState,
      ...policy,
    });
    return { data: act, error: null };
  } catch (cause) {
    if (cause?.name !== 'AlfredError') throw cause;
    const { code, message, path, hint } = cause;
    return { data: null, error: { status: 400, code, message, path: path && path !== 'state' ? `state.${path}` : 'state', hint } };
  }
}
