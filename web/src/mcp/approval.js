// Confirmation of a write through the MCP client: when the act refuses a
// call with `approval_required` (its policy: `approve`), the server shows the
// user the call's preview (how many rows, their refs and labels) through the
// client's elicitation, and runs the call approved only on an explicit yes.
// Fails closed: a client that cannot ask, a dismissed form, a timeout or an
// answer that is not a yes send nothing. Transport-free: the stdio server
// asks with `elicitation/create` (server.js), the worker's /mcp with a
// multi round-trip request (2026-07-28) or `elicitation/create` on the
// call's event stream (2025 sessions).
import { CHANGES_ROWS, callWrites } from '../act/faults.js';
import { APPROVE_DEFAULTS, needsApproval } from '../policy/options.js';
import { modelJson } from '../model-json.js';
import { checkedResultLimits } from '../result-limits.js';
import { toolArguments, toolResult } from '../tools.js';
import { codes } from '../../dist/error-codes.mjs';

/** The approve mode of an MCP server by default: updates and deletes ask first (APPROVE_DEFAULTS.mcp). */
export const DEFAULT_APPROVE = APPROVE_DEFAULTS.mcp;
/** The key of the confirmation in an MRTR `inputRequests` / `inputResponses` map. */
export const CONFIRM_KEY = 'confirm_write';

const VERBS = { db_create: 'Create', db_update: 'Update', db_delete: 'Delete' };
const SHOWN_ROWS = 10;
const LABEL_CHARS = 60;

/**
 * The act options of a server's policy (`readOnly`, `tables`, `approve`,
 * `maxAffected`, `confirm`) as createAct takes them: `{ data, error }`.
 * `confirm: false` (`--no-confirm`) runs writes unasked (`approve: 'none'`);
 * otherwise `approve` defaults to `defaultApprove` (the surface's,
 * APPROVE_DEFAULTS; DEFAULT_APPROVE for the stdio server).
 *
 * @example
 * actPolicy({ readOnly: false, confirm: true }) // { data: { approve: 'changes' }, error: null }
 */
export function actPolicy({ readOnly, tables, approve, maxAffected, onAudit, tracer, confirm = true } = {}, defaultApprove = DEFAULT_APPROVE) {
  if (typeof confirm !== 'boolean') return { data: null, error: { code: codes.invalid_option, path: 'confirm', message: 'confirm must be true or false', hint: 'confirm: false runs writes without asking the user' } };
  if (confirm === false && approve !== undefined && approve !== 'none') {
    return { data: null, error: { code: codes.invalid_option, path: 'confirm', message: `confirm: false runs writes without asking, and approve: ${JSON.stringify(typeof approve === 'function' ? 'a function' : approve)} asks before some: give one of them`, hint: 'drop approve, or drop confirm: false' } };
  }
  const options = { approve: confirm === false ? 'none' : (approve ?? defaultApprove) };
  if (readOnly !== undefined) options.readOnly = readOnly;
  if (tables !== undefined && tables !== null) options.tables = tables;
  if (maxAffected !== undefined && maxAffected !== null) options.maxAffected = maxAffected;
  if (onAudit !== undefined && onAudit !== null) options.onAudit = onAudit;
  if (tracer !== undefined && tracer !== null) options.tracer = tracer;
  return { data: options, error: null };
}

// A previewed row is the preview read's key and label columns (a create's:
// the row as given); the preview a stateless server signs keeps only each
// row's `ref`. A row is named by its ref and by the table's label columns
// (`labels`), or, for a table without any, by its text values but the key.
const refOf = (row) => (typeof row?.ref === 'string' ? row.ref : typeof row?.id === 'string' ? row.id : null);

function labelOf(row, labels) {
  const values = labels ? labels.map((column) => row?.[column]) : Object.entries(row ?? {}).filter(([column]) => column !== 'id').map(([, value]) => value);
  const shown = values.filter((value) => (typeof value === 'string' && value !== '') || (labels && typeof value === 'number')).map(String);
  return shown.length ? shown.join(' ') : null;
}

// A row as the question names it: its ref and its label, quoted as JSON
// (escaped), so nothing in the label reads as part of the question.
function describeRow(row, labels) {
  const ref = refOf(row);
  const label = labelOf(row, labels);
  if (ref && label) return `${ref} ${quoted(label)}`;
  return ref ?? (label ? quoted(label) : 'a row');
}

/**
 * The elicitation that asks the user about `preview` (`{ tool, table, count,
 * rows, labels? }`, `labels` the table's label columns that name a row): a
 * form with one yes/no field, `confirm`, false by default; its message says
 * what would change, naming up to ten rows by ref and label.
 *
 * @example
 * confirmationRequest({ tool: 'db_delete', table: 'recipes', count: 1, rows: [{ id: 'recipe_3', name: 'Shakshuka' }], labels: ['name'] })
 * // { mode: 'form', message: 'Delete 1 row of recipes: recipe_3 "Shakshuka"?', requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean', … } }, required: ['confirm'] } }
 */
export function confirmationRequest(preview) {
  if (preview.tool === 'db_call') return callConfirmation(preview);
  const { tool, table, count } = preview;
  const verb = VERBS[tool] ?? tool;
  const rows = Array.isArray(preview.rows) ? preview.rows : [];
  // A table without label columns: its rows are named by their text values.
  const given = Array.isArray(preview.labels) ? preview.labels.filter((column) => typeof column === 'string') : [];
  const labels = given.length ? given : null;
  const shown = rows.slice(0, SHOWN_ROWS).map((row) => describeRow(row, labels));
  const more = count - shown.length;
  const list = shown.length > 0 ? `: ${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}` : '';
  const rowsText = `${count} row${count === 1 ? '' : 's'}`;
  return {
    mode: 'form',
    message: `${verb} ${rowsText} of ${table}${list}?`,
    requestedSchema: {
      type: 'object',
      properties: { confirm: { type: 'boolean', title: `${verb} ${rowsText}`, description: `Allow ${tool} on ${table} to change the database`, default: false } },
      required: ['confirm'],
    },
  };
}

// A text from the database or the model, quoted so that nothing in it can
// read as part of the question around it, and cut to a line.
function quoted(text) {
  const value = String(text);
  return modelJson(value.length > LABEL_CHARS ? `${value.slice(0, LABEL_CHARS - 1)}…` : value);
}

// An argument's value in the question: text quoted, a number, true, false
// or null as it is, a list by its elements (the first few), anything else
// as its JSON, quoted.
const LIST_ITEMS = 5;
function argumentValue(value) {
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  if (Array.isArray(value)) {
    const items = value.slice(0, LIST_ITEMS).map((item) => (Array.isArray(item) ? quoted(JSON.stringify(item)) : argumentValue(item)));
    return `[${items.join(', ')}${value.length > LIST_ITEMS ? `, … ${value.length - LIST_ITEMS} more` : ''}]`;
  }
  return quoted(typeof value === 'string' ? value : JSON.stringify(value));
}

// "Run archive_project (it changes data) with project_id = "project_2"
// ("Apollo")?": a function's call, each argument with the label of the row
// it names.
function callConfirmation(preview) {
  const args = Object.entries(preview.args ?? {}).map(([name, value]) => {
    const label = preview.argumentLabels?.[name];
    return `${name} = ${argumentValue(value)}${label ? ` (${quoted(label)})` : ''}`;
  });
  const name = String(preview.function);
  return {
    mode: 'form',
    message: `Run ${name} (it changes data)${args.length ? ` with ${args.join(', ')}` : ''}?`,
    requestedSchema: {
      type: 'object',
      properties: { confirm: { type: 'boolean', title: `Run ${name}`, description: `Allow the function ${name} to change the database`, default: false } },
      required: ['confirm'],
    },
  };
}

/**
 * The user's answer to confirmationRequest: `'accept'` only for an accepted
 * form whose `confirm` is true; an accepted form without it is `'decline'`,
 * anything else (a dismissed form, no answer) `'cancel'`.
 *
 * @example
 * answerOf({ action: 'accept', content: { confirm: true } }) // 'accept'
 */
export function answerOf(result) {
  if (result?.action === 'accept') return result.content?.confirm === true ? 'accept' : 'decline';
  return result?.action === 'decline' ? 'decline' : 'cancel';
}

function declined(name, preview, answer) {
  const { tool, table, count } = preview;
  if (tool === 'db_call') {
    return {
      ok: false,
      tool: String(name),
      table: null,
      function: preview.function,
      error: {
        code: codes.approval_declined,
        path: '',
        message: `the user ${answer === 'decline' ? 'declined' : 'did not confirm'} calling ${preview.function}; nothing was sent`,
        hint: 'nothing was changed; do not send this call again unless the user asks for it',
      },
    };
  }
  return {
    ok: false,
    tool: String(name),
    table,
    error: {
      code: codes.approval_declined,
      path: '',
      message: `the user ${answer === 'decline' ? 'declined' : 'did not confirm'} ${tool} on ${table} (${count} row${count === 1 ? '' : 's'}); nothing was sent`,
      hint: 'nothing was changed; do not send this call again unless the user asks for it',
    },
  };
}

// `preview_changed` when `current` would touch rows `approved` did not show.
function changedSince(name, approved, current) {
  if (!CHANGES_ROWS.has(current.tool)) return null;
  const shown = new Set((approved.rows ?? []).map(refOf));
  const added = (current.rows ?? []).map(refOf).filter((ref) => !shown.has(ref));
  if (added.length === 0 && current.count <= approved.count) return null;
  return {
    ok: false,
    tool: String(name),
    table: current.table,
    error: {
      code: codes.preview_changed,
      path: '',
      message: `${current.tool} on ${current.table} would now touch ${current.count} rows${added.length > 0 ? `, including ${added.slice(0, 5).join(', ')}` : ''}, not the ${approved.count} the user approved; nothing was sent`,
      hint: 'the rows changed since the user confirmed: call again to show the user the new preview',
    },
  };
}

const cannotAskHint =
  'nothing was sent: this MCP client cannot ask the user to confirm (it declared no elicitation capability). Tell the user what the call would change; the server runs such writes only once confirmed';

/**
 * Runs one database tool call on `act` with the user's confirmation where
 * the act asks for approval. `confirmation(preview)` decides:
 *   `{ action: 'accept', preview? }` — run it approved (`preview`: the one the
 *     user saw, when it was shown in an earlier request; the call is refused
 *     with `preview_changed` if it would now touch rows it did not show);
 *   `{ action: 'decline' | 'cancel' }` — `approval_declined`, nothing sent;
 *   `{ action: 'unavailable' }` — the client cannot ask: `approval_required`;
 *   `{ action: 'pending' }` — ask and come back later (MRTR): resolves to
 *     `{ pending: preview }` with nothing sent.
 * Resolves to `{ result }` (the tool result for the model) or `{ pending }`.
 *
 * @example
 * const { result } = await runConfirmedCall({ core, act, name: 'db_delete', args, confirmation: async (preview) => ({ action: answerOf(await server.elicitInput(confirmationRequest(preview))) }) })
 */
export async function runConfirmedCall({ core, act, name, args, signal, confirmation }) {
  // Calls the policy never holds (reads, and writes it lets through) take the
  // model's path: the read limit and the caps on what reaches the model.
  const approve = act.policy?.approve ?? 'none';
  const { params, error } = toolArguments(args ?? {});
  // The core's text goes to the client as it is (no parse and stringify).
  if (typeof approve === 'function' || !needsApproval(approve, name) || (!error && !callWrites(act.domain, name, params))) {
    const text = await act.callToolText(name, args ?? {}, { signal });
    return { result: JSON.parse(text), text };
  }
  const resultLimits = checkedResultLimits(act.resultLimits);
  const forModel = (outcome) => toolResult(core, name, outcome, { registry: act.registry, resultLimits, table: params?.table });
  if (error) return { result: forModel({ data: null, error, query: null, count: null }) };
  const outcome = await act.execute(name, params, { signal });
  const held = outcome?.error?.code === codes.approval_required ? outcome.error.preview : null;
  // The user is shown each row by its ref and the table's label columns.
  const preview = held && (held.tool === 'db_call' ? held : { ...held, labels: act.domain?.tables?.[held.table]?.label ?? [] });
  if (!preview) return { result: forModel(outcome) };
  const answer = await confirmation(preview);
  if (answer.action === 'pending') return { pending: preview };
  if (answer.action === 'unavailable') {
    const result = forModel(outcome);
    if (result.error) result.error.hint = cannotAskHint;
    return { result };
  }
  if (answer.action !== 'accept') return { result: declined(name, preview, answer.action) };
  const changed = answer.preview ? changedSince(name, answer.preview, preview) : null;
  if (changed) return { result: changed };
  // The act reads the rows again and refuses (preview_changed) a write that
  // would now touch rows the user was not shown; the preview the user saw
  // in an earlier request (MRTR) is the one it checks against.
  const approved = await act.execute(name, params, { signal, approved: true, preview: answer.preview ?? preview });
  return { result: forModel(approved) };
}
