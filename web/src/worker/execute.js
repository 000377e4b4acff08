// POST /act/execute: one tool call for the caller, as JSON.
import { TOOL_NAMES as TOOLS } from '../tools.js';
import { invalid } from './http.js';
import { callerState } from './state.js';

/**
 * Body `{ tool, params, state?, approved?, preview? }` → `{ data, error, query, count, state }`.
 * A refused or failed tool call is a 200 whose `error` is the executor's
 * `{ code, path, message, hint }`: it is the tool result an agent feeds
 * back to its model, not a fault of the HTTP request. Under a policy that
 * asks before writes (ALFRED_APPROVE), a write is `approval_required` with
 * `error.preview`; the host asks its user and sends the same call with
 * `approved: true` and the `preview` it showed (each request builds a new
 * act, which checks the rows against that preview: `preview_changed` when
 * the write would now touch others). `signal` (the request's) stops the call's remaining
 * database requests when the client hangs up.
 */
export async function executeToolCall({ body, core, config, caller, signal, policy = {} }) {
  const { tool, params, state, approved = false, preview } = body;
  if (!TOOLS.includes(tool)) return { error: invalid('tool', `tool must be one of ${TOOLS.join(', ')}`) };
  if (params === null || typeof params !== 'object' || Array.isArray(params)) return { error: invalid('params', 'params must be an object') };
  if (typeof approved !== 'boolean') return { error: invalid('approved', 'approved must be true or false') };
  if (preview !== undefined && (preview === null || typeof preview !== 'object' || Array.isArray(preview))) return { error: invalid('preview', 'preview must be the error.preview object the approval was given for') };
  const { data: start, error } = callerState(state);
  if (error) return { error };
  const { data: act, error: actError } = createCallerAct(core, config, caller, start.registry, policy);
  if (actError) return { error: actError };
  try {
    const result = await act.execute(tool, params, { signal, approved, ...(preview === undefined ? {} : { preview }) });
    return { data: { ...result, state: start.withRegistry(act.registry.toJSON()) } };
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
    return { data: null, error: { status: 400, code, message, path: path ? `state.${path}` : 'state', hint } };
  }
}
