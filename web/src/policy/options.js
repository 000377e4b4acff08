// The safety options of an act (docs/safety-controls.md): what the agent may
// do (readOnly, tables), what needs the host's approval (approve), how many
// rows one update or delete may change (maxAffected), and who hears about
// every request (onAudit, tracer). Checked once, when the act is made; a
// mistyped option is `invalid_option`, never ignored.
import { AlfredError } from '../errors.js';
import { APPROVAL_TOOLS } from './tool-effects.js';
import { codes } from '../../dist/error-codes.mjs';

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

// What each approve mode holds, for the hints.
const APPROVE_HINT = "'deletes' asks before every delete, 'changes' before every update and delete, 'writes' before every create, update and delete";

function checkedApprove(approve) {
  if (approve === undefined || approve === null) return 'none';
  if (typeof approve === 'function' || APPROVE_MODES.includes(approve)) return approve;
  throw invalidOption(
    'approve',
    `approve must be 'none', 'deletes', 'changes', 'writes' or a function (call, preview) => boolean, got ${typeof approve === 'string' ? JSON.stringify(approve.slice(0, 40)) : describe(approve)}`,
    APPROVE_HINT,
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
 * Whether `tool` needs the host's approval under `approve` (APPROVAL_TOOLS,
 * from the core's tool effects; a function is asked for every write).
 * `db_call` is asked about only for functions that change data (the gate
 * lets reads through first).
 *
 * @example
 * needsApproval('deletes', 'db_update') // false
 */
export function needsApproval(approve, tool) {
  const held = typeof approve === 'function' ? APPROVAL_TOOLS.writes : APPROVAL_TOOLS[approve];
  return held !== undefined && held.includes(tool);
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


/** The spellings a policy variable or flag value takes for true and false (any case). */
export const BOOLEAN_WORDS = Object.freeze({ true: true, false: false, 1: true, 0: false, on: true, off: false, yes: true, no: false });
// In the order a person reads them (an object lists its number keys first).
const BOOLEAN_LIST = 'true, false, 1, 0, on, off, yes, no';

const quotedText = (text) => JSON.stringify(text.slice(0, 40));

// The parsers of the table below: `(text, name)` → `{ value }` or `{ error:
// { message, hint } }`, `name` the flag or variable the text came from.
function parseBoolean(text, name) {
  const word = text.trim().toLowerCase();
  if (Object.hasOwn(BOOLEAN_WORDS, word)) return { value: BOOLEAN_WORDS[word] };
  return { error: { message: `${name} must be one of ${BOOLEAN_LIST} (any case), got ${quotedText(text)}`, hint: `${name}=true or ${name}=false` } };
}

function parseTables(text, name) {
  const tables = text.split(',').map((table) => table.trim()).filter(Boolean);
  if (tables.length > 0) return { value: tables };
  return { error: { message: `${name} must name tables, separated by commas, got ${quotedText(text)}`, hint: `${name}=deals,contacts` } };
}

function parseApprove(text, name) {
  const mode = text.trim().toLowerCase();
  if (APPROVE_MODES.includes(mode)) return { value: mode };
  return { error: { message: `${name} must be one of ${APPROVE_MODES.join(', ')}, got ${quotedText(text)}`, hint: APPROVE_HINT } };
}

function parseMaxAffected(text, name) {
  const digits = text.trim();
  const number = Number(digits);
  if (/^\d+$/.test(digits) && number <= MAX_MAX_AFFECTED) return { value: number };
  return { error: { message: `${name} must be a whole number from 0 to ${MAX_MAX_AFFECTED} (0: no limit), got ${quotedText(text)}`, hint: `${name}=${DEFAULT_MAX_AFFECTED}` } };
}

/** The surfaces that read the policy from flags and environment variables: the CLI (`alfred-act <tool>`), the MCP server over stdio (`alfred-act mcp`) and the worker. */
export const POLICY_READERS = Object.freeze(['cli', 'mcp', 'worker']);

/**
 * The policy options, one row each: the option's name (createAct's unless
 * `actOption` is false; createMcpServer and createHandler take every one),
 * its command-line flag (`flagValue`:
 * what a boolean flag sets), its environment variable, the parser of a
 * flag's or variable's text, its default (`approve`'s: per surface,
 * APPROVE_DEFAULTS), what it means, and which readers take it from flags
 * and variables (POLICY_READERS). docs/safety-controls.md holds the same
 * table, and a test holds the two equal. A new option is one row.
 *
 * @example
 * POLICY_TABLE.find((row) => row.option === 'maxAffected').variable // 'ALFRED_MAX_AFFECTED'
 */
export const POLICY_TABLE = Object.freeze(
  [
    {
      option: 'readOnly',
      flag: '--read-only',
      flagValue: true,
      variable: 'ALFRED_READ_ONLY',
      parse: parseBoolean,
      default: false,
      meaning: 'creates, updates, deletes and functions that change data are refused (read_only) before any request',
      readers: POLICY_READERS,
    },
    {
      option: 'tables',
      flag: '--tables',
      variable: 'ALFRED_TABLES',
      parse: parseTables,
      default: null,
      meaning: 'only these tables exist (comma-separated); others are unknown_table and named nowhere',
      readers: POLICY_READERS,
    },
    {
      option: 'approve',
      flag: '--approve',
      variable: 'ALFRED_APPROVE',
      parse: parseApprove,
      default: APPROVE_DEFAULTS,
      meaning: `which writes wait for the user's approval: ${APPROVE_MODES.join(', ')}`,
      readers: POLICY_READERS,
    },
    {
      option: 'maxAffected',
      flag: '--max-affected',
      variable: 'ALFRED_MAX_AFFECTED',
      parse: parseMaxAffected,
      default: DEFAULT_MAX_AFFECTED,
      meaning: 'the most rows one update or delete may change (0: no limit); over it the call is too_many_rows',
      readers: POLICY_READERS,
    },
    {
      option: 'confirm',
      flag: '--no-confirm',
      flagValue: false,
      variable: 'ALFRED_CONFIRM',
      parse: parseBoolean,
      default: true,
      meaning: "false: MCP runs writes without asking through the client's elicitation (approve none)",
      readers: ['mcp', 'worker'],
      // The MCP servers' option (createMcpServer, createHandler), not createAct's.
      actOption: false,
    },
    { option: 'onAudit', flag: null, variable: null, parse: null, default: null, meaning: '(entry) => void, once per request sent and per refused call', readers: [] },
    { option: 'tracer', flag: null, variable: null, parse: null, default: null, meaning: 'an OpenTelemetry tracer: one span per call', readers: [] },
  ].map((row) => Object.freeze({ flagValue: undefined, actOption: true, ...row, readers: Object.freeze([...row.readers]) })),
);

/** `createAct`'s safety options, in the order the docs give them (the policy table's but `confirm`). */
export const POLICY_OPTION_NAMES = Object.freeze(POLICY_TABLE.filter((row) => row.actOption).map((row) => row.option));

/**
 * An option's default on `surface` (a key of APPROVE_DEFAULTS): `approve`'s
 * is the surface's, every other option's the same everywhere.
 *
 * @example
 * policyDefault('approve', 'mcp') // 'changes'
 * policyDefault('maxAffected', 'cli') // 50
 */
export function policyDefault(option, surface) {
  const row = POLICY_TABLE.find((entry) => entry.option === option);
  if (!row) throw new TypeError(`no policy option ${option}`);
  return row.default === APPROVE_DEFAULTS ? APPROVE_DEFAULTS[surface] : row.default;
}

const rowsOf = (reader) => POLICY_TABLE.filter((row) => row.readers.includes(reader));

/** The environment variables `reader` (POLICY_READERS) takes its policy from. */
export const policyVariables = (reader) => rowsOf(reader).map((row) => row.variable);

/**
 * `parseArgs` options for the policy flags `reader` takes (POLICY_READERS).
 *
 * @example
 * policyFlags('cli') // { 'read-only': { type: 'boolean' }, tables: { type: 'string' }, approve: …, 'max-affected': … }
 */
export function policyFlags(reader) {
  return Object.fromEntries(rowsOf(reader).map((row) => [row.flag.slice(2), { type: row.flagValue === undefined ? 'string' : 'boolean' }]));
}

/**
 * The policy one reader (POLICY_READERS) takes from its flags (`parseArgs`'s
 * values, policyFlags) and environment, by the one rule every surface
 * follows: a flag wins over its variable; a value that is empty is not
 * given; booleans are BOOLEAN_WORDS, approve one of APPROVE_MODES,
 * maxAffected a whole number (0: no limit). Only the options given are set.
 * `{ data: { readOnly?, tables?, approve?, maxAffected?, confirm? }, error:
 * { code, path, message, hint } }`, `path` (and the message) naming the
 * flag or variable that was wrong.
 *
 * @example
 * readPolicySettings('worker', { env: { ALFRED_READ_ONLY: 'on', ALFRED_MAX_AFFECTED: '0' } })
 * // { data: { readOnly: true, maxAffected: 0 }, error: null }
 */
export function readPolicySettings(reader, { flags = {}, env = {} } = {}) {
  if (!POLICY_READERS.includes(reader)) throw new TypeError(`no policy reader ${reader}`);
  const data = {};
  const given = {};
  for (const row of rowsOf(reader)) {
    const flag = flags[row.flag.slice(2)];
    if (row.flagValue !== undefined && flag === true) {
      data[row.option] = row.flagValue;
      given[row.option] = { path: row.flag, as: row.flag };
      continue;
    }
    const fromFlag = typeof flag === 'string' && flag.trim() !== '';
    const [name, text] = fromFlag ? [row.flag, flag] : [row.variable, env[row.variable]];
    if (text === undefined || text === null || String(text).trim() === '') continue;
    const { value, error } = row.parse(String(text), name);
    if (error) return { data: null, error: { code: codes.invalid_option, path: name, ...error } };
    data[row.option] = value;
    given[row.option] = { path: name, as: fromFlag ? `${name} ${text}` : `${name}=${text}` };
  }
  // Two options that say opposite things: neither wins silently.
  if (data.confirm === false && data.approve !== undefined && data.approve !== 'none') {
    const message = `${given.confirm.as} runs writes without asking, and ${given.approve.as} asks before some: give one of them`;
    return { data: null, error: { code: codes.invalid_option, path: given.confirm.path, message, hint: `drop ${given.approve.path} or ${given.confirm.path}` } };
  }
  return { data, error: null };
}

/**
 * The CLI's safety options from its flags (`--read-only`, `--tables a,b`,
 * `--approve MODE`, `--max-affected N`) and, where a flag is absent, the
 * environment (`ALFRED_READ_ONLY`, `ALFRED_TABLES`, `ALFRED_APPROVE`,
 * `ALFRED_MAX_AFFECTED`): readPolicySettings('cli'), throwing its error as
 * an `AlfredError` (`invalid_option`). Only the options given are set;
 * `createAct` checks them.
 *
 * @example
 * policyFromFlags({ 'read-only': true, tables: 'deals,contacts' }, {}) // { readOnly: true, tables: ['deals', 'contacts'] }
 */
export function policyFromFlags(flags = {}, env = {}) {
  const { data, error } = readPolicySettings('cli', { flags, env });
  if (error) throw new AlfredError(error);
  return data;
}

/** `parseArgs` options for the flags `policyFromFlags` reads (policyFlags('cli')). */
export const POLICY_FLAGS = Object.freeze(policyFlags('cli'));
