// The worker's policy on writes, from its variables or createHandler's
// options: ALFRED_READ_ONLY, ALFRED_TABLES, ALFRED_APPROVE,
// ALFRED_MAX_AFFECTED, ALFRED_CONFIRM. Every route's act gets `readOnly`,
// `tables` and `maxAffected`; `approve` is the configured one for /act/*
// (none by default: the host that calls /act/execute asks its user and sends
// `approved: true`), and for /mcp the one the client confirms through
// elicitation (updates and deletes by default; `confirm: false` runs them
// unasked).
import { actPolicy } from '../mcp/approval.js';
import { APPROVE_DEFAULTS, readPolicySettings } from '../policy/options.js';

/**
 * The write policy from the worker's variables, by the rule every surface
 * reads them with (readPolicySettings, the policy table in
 * web/src/policy/options.js): `{ data: { readOnly?, tables?, approve?,
 * maxAffected?, confirm? }, error: message }`.
 *
 * @example
 * readWorkerPolicy({ ALFRED_READ_ONLY: 'true' }) // { data: { readOnly: true }, error: null }
 */
export function readWorkerPolicy(env = {}) {
  const { data, error } = readPolicySettings('worker', { env });
  return error ? { data: null, error: error.message } : { data, error: null };
}

/**
 * The act options of each surface for `policy` (createHandler's options over
 * the variables'): `{ data: { act, mcp }, error }`, `act` for /act/execute and
 * /act/turn, `mcp` for /mcp (confirmed through the client).
 *
 * @example
 * surfacePolicies({ readOnly: false }) // { data: { act: { readOnly: false, approve: 'none' }, mcp: { readOnly: false, approve: 'changes' } }, error: null }
 */
export function surfacePolicies(policy = {}) {
  const { confirm, approve, ...shared } = policy;
  const { data: mcp, error } = actPolicy({ ...shared, approve, confirm }, APPROVE_DEFAULTS.workerMcp);
  if (error) return { data: null, error };
  const act = { ...Object.fromEntries(Object.entries(shared).filter(([, value]) => value !== undefined)), approve: approve ?? APPROVE_DEFAULTS.actExecute };
  return { data: { act, mcp }, error: null };
}
