// The safety options of an act (docs/safety-controls.md): what the agent may
// do (readOnly, tables), what needs the host's approval (approve), how many
// rows one update or delete may change (maxAffected), and who hears about
// every request (onAudit, tracer). Checked once, when the act is made; a
// mistyped option is `invalid_option`, never ignored.
import { AlfredError } from '../errors.js';
import { codes } from '../../dist/error-codes.mjs';

/** `createAct`'s safety options, in the order the docs give them. */
export const POLICY_OPTION_NAMES = Object.freeze(['readOnly', 'tables', 'approve', 'maxAffected', 'onAudit', 'tracer']);

/** The approval policies that are not a function. */
export const APPROVE_MODES = Object.freeze(['none', 'deletes', 'changes', 'writes']);

/**
 * The modes as a refusal names them, for every reader of `--approve` /
 * `ALFRED_APPROVE`.
 *
 * @example
 * APPROVE_MODES_TEXT // 'none, deletes, changes or writes'
 */
export const APPROVE_MODES_TEXT = `${APPROVE_MODES.slice(0, -1).join(', ')} or ${APPROVE_MODES.at(-1)}`;

/**
 * Which writes wait for a person on each surface when the developer gives
 * no `approve` (docs/safety-controls.md holds the same table, and a test
 * holds the two equal). The surfaces that hand the tools to a model the
 * developer does not script (the AI SDK and OpenAI adapters, MCP over stdio
 * and the worker's /mcp) ask before updates and deletes; the developer's own
 * calls (`act.execute`, `act.callTool`), the Act loop, the worker's
 * /act/execute and the CLI run what they are given. `createAct({ approve })`
 * (or the surface's own option) given in so many words wins everywhere,
 * `'none'` included.
 *
 * @example
 * APPROVE_DEFAULTS.ai // 'changes'
 */
export const APPROVE_DEFAULTS = Object.freeze({
  execute: 'none',
  loop: 'none',
  actExecute: 'none',
  cli: 'none',
  ai: 'changes',
  openai: 'changes',
  mcp: 'changes',
  workerMcp: 'changes',
});

/**
 * @internal The key under which a surface names itself in the options of
 * `act.callToolText` / `act.execute` (`{ [SURFACE]: 'ai' }`): the act then
 * applies that surface's default approval unless its own `approve` was given.
 * A symbol, so no JSON a model or a host sends can set it.
 */
export const SURFACE = Symbol('alfred-act surface');

/**
 * @internal The key of an act's `[EXPLICIT_POLICY]`: `{ approve }`, whether
 * the developer gave `approve` in so many words.
 */
export const EXPLICIT_POLICY = Symbol('alfred-act explicit policy');

/**
 * The approval mode a surface applies to `act`: the act's `approve` when the
 * developer gave one (a function included), else the surface's default
 * (APPROVE_DEFAULTS).
 *
 * @example
 * surfaceApprove(core.createAct({ url, apiKey }), 'ai') // 'changes'
 * surfaceApprove(core.createAct({ url, apiKey, approve: 'none' }), 'ai') // 'none'
 */
export function surfaceApprove(act, surface) {
  const approve = act?.policy?.approve ?? 'none';
  const given = act?.[EXPLICIT_POLICY]?.approve === true;
  return given || !Object.hasOwn(APPROVE_DEFAULTS, surface) ? approve : APPROVE_DEFAULTS[surface];
}

/**
 * How many rows one update or delete may change unless `maxAffected` says
 * otherwise: enough for the batch edits an assistant makes ("mark these 12
 * items bought"), far below "every row of the table".
 */
export const DEFAULT_MAX_AFFECTED = 50;

/** The most `maxAffected` may be (PostgREST's own rows per request are bounded by the server anyway). */
export const MAX_MAX_AFFECTED = 1_000_000;

const invalidOption = (path, message, hint = '') => new AlfredError({ code: codes.invalid_option, path, message, hint });

function describe(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function checkedApprove(approve) {
  if (approve === undefined || approve === null) return 'none';
  if (typeof approve === 'function' || APPROVE_MODES.includes(approve)) return approve;
  throw invalidOption(
    'approve',
    `approve must be 'none', 'deletes', 'changes', 'writes' or a function (call, preview) => boolean, got ${typeof approve === 'string' ? JSON.stringify(approve.slice(0, 40)) : describe(approve)}`,
    "'deletes' asks before every delete, 'changes' before every update and delete, 'writes' before every create, update and delete",
  );
}

function checkedTables(tables) {
  if (tables === undefined || tables === null) return null;
  if (!Array.isArray(tables) || tables.length === 0 || !tables.every((name) => typeof name === 'string' && name !== '')) {
    throw invalidOption('tables', `tables must be a non-empty list of table names, got ${Array.isArray(tables) ? 'a list with something else' : describe(tables)}`, "for example ['deals', 'contacts']");
  }
  return [...new Set(tables)];
}

function checkedMaxAffected(value) {
  if (value === undefined || value === null) return DEFAULT_MAX_AFFECTED;
  if (!Number.isSafeInteger(value) || value < 0 || value > MAX_MAX_AFFECTED) {
    throw invalidOption('maxAffected', `maxAffected must be a whole number from 0 to ${MAX_MAX_AFFECTED} (0: no limit), got ${typeof value === 'number' ? value : describe(value)}`);
  }
  return value;
}

function checkedTracer(tracer) {
  if (tracer === undefined || tracer === null) return null;
  if (typeof tracer !== 'object' || typeof tracer.startSpan !== 'function') {
    throw invalidOption('tracer', 'tracer must be an OpenTelemetry Tracer (an object with startSpan)', "trace.getTracer('alfred-act') from @opentelemetry/api");
  }
  return tracer;
}

/**
 * The act's policy from its options, checked: `{ readOnly, tables, approve,
 * maxAffected, onAudit, tracer }` with the defaults filled in. Throws
 * `AlfredError` (`invalid_option`) for a value of the wrong type.
 *
 * @example
 * checkedPolicy({ readOnly: true }) // { readOnly: true, tables: null, approve: 'none', approveGiven: false, maxAffected: 50, onAudit: null, tracer: null }
 */
export function checkedPolicy(options) {
  const { readOnly = false, onAudit = null } = options;
  if (typeof readOnly !== 'boolean') throw invalidOption('readOnly', `readOnly must be true or false, got ${describe(readOnly)}`);
  if (onAudit !== null && typeof onAudit !== 'function') throw invalidOption('onAudit', `onAudit must be a function (entry) => void, got ${describe(onAudit)}`);
  return {
    readOnly,
    tables: checkedTables(options.tables),
    approve: checkedApprove(options.approve),
    // Whether the developer said which writes wait (a surface's own default
    // applies only when not: APPROVE_DEFAULTS).
    approveGiven: options.approve !== undefined && options.approve !== null,
    maxAffected: checkedMaxAffected(options.maxAffected),
    onAudit,
    tracer: checkedTracer(options.tracer),
  };
}

/**
 * Whether `tool` needs the host's approval under `approve` (a function is
 * asked for every create, update and delete). `db_call` is asked about only
 * for functions that change data (the gate lets reads through first).
 *
 * @example
 * needsApproval('deletes', 'db_update') // false
 */
export function needsApproval(approve, tool) {
  if (approve === 'none') return false;
  // A function that changes data may create, change or delete: every mode
  // that asks before anything asks before it.
  if (tool === 'db_call') return true;
  if (approve === 'deletes') return tool === 'db_delete';
  if (approve === 'changes') return tool === 'db_update' || tool === 'db_delete';
  return tool === 'db_create' || tool === 'db_update' || tool === 'db_delete';
}

/**
 * The options `execute(tool, params, options)` takes from the host:
 * `{ signal, approved, preview }`, checked. `approved` is the host's word
 * (never a tool argument); `preview` is the `error.preview` the host showed
 * when it lost the act that made it. `surface` is the surface that calls
 * (`options[SURFACE]`, internal), null for the developer's own call.
 *
 * @example
 * checkedExecuteOptions({ approved: true }) // { signal: undefined, approved: true, preview: null, surface: null }
 */
export function checkedExecuteOptions(options) {
  if (options === undefined || options === null) return { signal: undefined, approved: false, preview: null, surface: null };
  if (typeof options !== 'object') throw invalidOption('', `execute's options must be an object, got ${describe(options)}`, '{ signal, approved, preview }');
  const { signal, approved = false, preview = null } = options;
  if (typeof approved !== 'boolean') throw invalidOption('approved', `approved must be true or false, got ${describe(approved)}`);
  if (preview !== null && (typeof preview !== 'object' || Array.isArray(preview))) {
    throw invalidOption('preview', `preview must be the error.preview an approval_required result carried, got ${describe(preview)}`);
  }
  const surface = options[SURFACE] ?? null;
  if (surface !== null && !Object.hasOwn(APPROVE_DEFAULTS, surface)) throw invalidOption('', `unknown surface ${String(surface).slice(0, 40)}`);
  return { signal, approved, preview, surface };
}

/**
 * The safety options from command-line flags (`--read-only`, `--tables
 * a,b`, `--approve MODE`, `--max-affected N`) and, where a flag is absent,
 * the environment (`ALFRED_READ_ONLY=1`, `ALFRED_TABLES`, `ALFRED_APPROVE`,
 * `ALFRED_MAX_AFFECTED`). `flags` is `parseArgs`'s values with
 * `POLICY_FLAGS`. Only the options given are set; `createAct` checks them.
 *
 * @example
 * policyFromFlags({ 'read-only': true, tables: 'deals,contacts' }, {}) // { readOnly: true, tables: ['deals', 'contacts'] }
 */
export function policyFromFlags(flags = {}, env = {}) {
  const out = {};
  const readOnly = flags['read-only'] ?? (env.ALFRED_READ_ONLY === undefined ? undefined : env.ALFRED_READ_ONLY);
  if (readOnly !== undefined && readOnly !== false) {
    if (readOnly === true || /^(1|true|yes)$/i.test(String(readOnly))) out.readOnly = true;
    else if (!/^(0|false|no|)$/i.test(String(readOnly))) throw invalidOption('--read-only', `ALFRED_READ_ONLY must be 1 or 0, got ${JSON.stringify(String(readOnly).slice(0, 20))}`);
  }
  const tables = flags.tables ?? env.ALFRED_TABLES;
  if (tables !== undefined && tables !== '') out.tables = String(tables).split(',').map((name) => name.trim()).filter(Boolean);
  const approve = flags.approve ?? env.ALFRED_APPROVE;
  if (approve !== undefined && approve !== '') {
    if (!APPROVE_MODES.includes(approve)) throw invalidOption('--approve', `--approve must be ${APPROVE_MODES_TEXT}, got ${JSON.stringify(String(approve).slice(0, 40))}`);
    out.approve = approve;
  }
  const maxAffected = flags['max-affected'] ?? env.ALFRED_MAX_AFFECTED;
  if (maxAffected !== undefined && maxAffected !== '') {
    if (!/^\d{1,7}$/.test(String(maxAffected))) throw invalidOption('--max-affected', `--max-affected must be a whole number (0: no limit), got ${JSON.stringify(String(maxAffected).slice(0, 20))}`);
    out.maxAffected = Number(maxAffected);
  }
  return out;
}

/** `parseArgs` options for the flags `policyFromFlags` reads. */
export const POLICY_FLAGS = Object.freeze({
  'read-only': { type: 'boolean' },
  tables: { type: 'string' },
  approve: { type: 'string' },
  'max-affected': { type: 'string' },
});
