// The worker's policy on writes, from its variables or createHandler's
// options: ALFRED_READ_ONLY, ALFRED_TABLES, ALFRED_APPROVE,
// ALFRED_MAX_AFFECTED, ALFRED_CONFIRM. Every route's act gets `readOnly`,
// `tables` and `maxAffected`; `approve` is the configured one for /act/*
// (none by default: the host that calls /act/execute asks its user and sends
// `approved: true`), and for /mcp the one the client confirms through
// elicitation (updates and deletes by default; `confirm: false` runs them
// unasked).
import { actPolicy } from '../mcp/approval.js';
import { APPROVE_DEFAULTS, APPROVE_MODES, APPROVE_MODES_TEXT } from '../policy/options.js';

const TRUE_WORDS = new Set(['1', 'true', 'yes', 'on']);
const FALSE_WORDS = new Set(['0', 'false', 'no', 'off']);

function flag(env, name) {
  const text = env[name];
  if (text === undefined || text === '') return { value: undefined };
  const word = String(text).trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return { value: true };
  if (FALSE_WORDS.has(word)) return { value: false };
  return { error: `${name} must be true or false, got ${JSON.stringify(text)}` };
}

/**
 * The write policy from the worker's variables: `{ data: { readOnly?,
 * tables?, approve?, maxAffected?, confirm? }, error: message }`.
 *
 * @example
 * readWorkerPolicy({ ALFRED_READ_ONLY: 'true' }) // { data: { readOnly: true }, error: null }
 */
export function readWorkerPolicy(env = {}) {
  const policy = {};
  const readOnly = flag(env, 'ALFRED_READ_ONLY');
  if (readOnly.error) return { data: null, error: readOnly.error };
  if (readOnly.value !== undefined) policy.readOnly = readOnly.value;
  if (env.ALFRED_TABLES) {
    const tables = env.ALFRED_TABLES.split(',').map((table) => table.trim()).filter(Boolean);
    if (tables.length === 0) return { data: null, error: 'ALFRED_TABLES must name tables, separated by commas' };
    policy.tables = tables;
  }
  if (env.ALFRED_APPROVE) {
    if (!APPROVE_MODES.includes(env.ALFRED_APPROVE)) return { data: null, error: `ALFRED_APPROVE must be ${APPROVE_MODES_TEXT}, got ${JSON.stringify(env.ALFRED_APPROVE)}` };
    policy.approve = env.ALFRED_APPROVE;
  }
  if (env.ALFRED_MAX_AFFECTED) {
    const number = Number(env.ALFRED_MAX_AFFECTED);
    if (!/^\d+$/.test(env.ALFRED_MAX_AFFECTED.trim()) || !Number.isSafeInteger(number) || number < 1) return { data: null, error: `ALFRED_MAX_AFFECTED must be a whole number ≥ 1, got ${JSON.stringify(env.ALFRED_MAX_AFFECTED)}` };
    policy.maxAffected = number;
  }
  const confirm = flag(env, 'ALFRED_CONFIRM');
  if (confirm.error) return { data: null, error: confirm.error };
  if (confirm.value !== undefined) policy.confirm = confirm.value;
  return { data: policy, error: null };
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
