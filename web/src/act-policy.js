// The act's policy for writes, as far as the MCP server and the worker need
// it: read-only, a table allow-list, approval before writes (with a preview
// of the rows they would touch, from one read with the same filters) and a
// cap on the rows an update or a delete may touch. A minimal form of the
// act-level policy; Act#execute (act.js) applies it before any write is sent.
import { AlfredError } from './errors.js';

/** The approval modes: which tools need the user's approval. */
const APPROVAL_MODES = {
  none: [],
  // Destructive calls: an update overwrites values, a delete removes rows.
  deletes: ['db_update', 'db_delete'],
  writes: ['db_create', 'db_update', 'db_delete'],
};
const WRITES = new Set(APPROVAL_MODES.writes);
// Rows a preview lists at most (its count is exact up to maxAffected + 1).
const PREVIEW_ROWS = 50;
const VERBS = { db_create: 'create', db_update: 'update', db_delete: 'delete' };

const invalid = (path, message, hint = '') => new AlfredError({ code: 'invalid_option', path, message, hint });

/**
 * The policy options of createAct, checked: `{ readOnly, tables, approve,
 * maxAffected }` → a policy, or null when none is set. Throws AlfredError
 * (`invalid_option`) for a value it cannot use.
 *
 * @example
 * readPolicy({ approve: 'deletes', maxAffected: 20 }, domain) // { readOnly: false, tables: null, approve: 'deletes', maxAffected: 20 }
 */
export function readPolicy({ readOnly, tables, approve, maxAffected }, domain) {
  if (readOnly === undefined && tables === undefined && approve === undefined && maxAffected === undefined) return null;
  if (readOnly !== undefined && typeof readOnly !== 'boolean') throw invalid('readOnly', 'readOnly must be true or false');
  let allowed = null;
  if (tables !== undefined && tables !== null) {
    if (!Array.isArray(tables) || tables.length === 0 || !tables.every((table) => typeof table === 'string')) {
      throw invalid('tables', 'tables must be a non-empty list of table names', `tables of this domain: ${Object.keys(domain?.tables ?? {}).join(', ')}`);
    }
    const unknown = tables.filter((table) => !Object.hasOwn(domain?.tables ?? {}, table));
    if (unknown.length > 0) throw invalid('tables', `the domain has no table ${unknown.join(', ')}`, `tables of this domain: ${Object.keys(domain?.tables ?? {}).join(', ')}`);
    allowed = [...tables];
  }
  const mode = approve ?? 'none';
  if (typeof mode !== 'function' && !Object.hasOwn(APPROVAL_MODES, mode)) {
    throw invalid('approve', `approve must be none, deletes, writes or a function, got ${JSON.stringify(mode)}`, "'deletes' asks before updates and deletes, 'writes' before creates too");
  }
  if (maxAffected !== undefined && maxAffected !== null && (!Number.isSafeInteger(maxAffected) || maxAffected < 1)) {
    throw invalid('maxAffected', 'maxAffected must be a whole number ≥ 1');
  }
  return { readOnly: readOnly ?? false, tables: allowed, approve: mode, maxAffected: maxAffected ?? null };
}

/** Whether `tool` needs approval under `policy` (a function approves every write it is asked about). */
export function needsApproval(policy, tool) {
  if (!policy || !WRITES.has(tool)) return false;
  return typeof policy.approve === 'function' ? true : APPROVAL_MODES[policy.approve].includes(tool);
}

const refusal = (code, path, message, hint, extra = {}) => ({ data: null, error: { code, path, message, hint, ...extra }, query: null, count: null });

/**
 * The refusal of a call the policy forbids outright (read-only, a table off
 * the allow-list), or null.
 */
export function forbiddenCall(policy, tool, params) {
  if (!policy) return null;
  if (policy.readOnly && WRITES.has(tool)) {
    return refusal('read_only', '', `${tool} is refused: this act is read-only, so nothing is created, updated or deleted`, 'only db_read runs here');
  }
  const table = params?.table;
  if (policy.tables && typeof table === 'string' && !policy.tables.includes(table)) {
    return refusal('unknown_table', 'table', `there is no table ${JSON.stringify(table.slice(0, 80))}`, `tables: ${policy.tables.join(', ')}`);
  }
  return null;
}

/**
 * The preview of a write: `{ tool, table, count, rows: [{ ref, label }] }`.
 * A create previews its own rows; an update or a delete reads the rows its
 * filters match (`read(params)` runs a db_read, as act.execute does).
 * Resolves to `{ preview }` or `{ error }` (the read's own refusal).
 */
export async function previewWrite({ tool, params, domain, policy, read }) {
  const table = params.table;
  const labels = domain?.tables?.[table]?.label ?? [];
  const label = (row) => labels.map((column) => row?.[column]).filter((value) => value !== undefined && value !== null && value !== '').join(' ') || null;
  if (tool === 'db_create') {
    const data = typeof params.data === 'string' ? safeJson(params.data) : params.data;
    const rows = (Array.isArray(data) ? data : data && typeof data === 'object' ? [data] : []).map((row) => ({ ref: null, label: label(row) }));
    return { preview: { tool, table, count: rows.length, rows: rows.slice(0, PREVIEW_ROWS) } };
  }
  const limit = previewLimit(policy);
  const readParams = { table, filters: params.filters ?? [], ...(params.or_filters ? { or_filters: params.or_filters } : {}), columns: labels.length > 0 ? [...labels] : undefined, limit };
  const outcome = await read(readParams);
  if (outcome.error) return { error: outcome };
  const rows = (Array.isArray(outcome.data) ? outcome.data : []).map((row) => ({ ref: row.id ?? null, label: label(row) }));
  return { preview: { tool, table, count: rows.length, rows: rows.slice(0, PREVIEW_ROWS) } };
}

// The rows a preview reads: enough to list them and to tell a count over maxAffected.
const previewLimit = (policy) => Math.max(PREVIEW_ROWS, (policy?.maxAffected ?? 0) + 1);

/** The refusal of a write the preview shows to touch more rows than maxAffected, or null. */
export function tooManyRows(policy, preview) {
  if (!policy?.maxAffected || preview.tool === 'db_create' || preview.count <= policy.maxAffected) return null;
  const count = preview.count >= previewLimit(policy) ? `${preview.count} or more` : String(preview.count);
  return refusal(
    'too_many_rows',
    'filters',
    `${preview.tool} on ${preview.table} would ${VERBS[preview.tool]} ${count} rows; at most ${policy.maxAffected} may be touched by one call`,
    'narrow the filters (a ref, or more conditions) so fewer rows match',
  );
}

/** `approval_required` for `preview`: nothing was sent. */
export function approvalRequired(preview) {
  const { tool, table, count } = preview;
  return refusal(
    'approval_required',
    '',
    `${tool} on ${table} would ${VERBS[tool]} ${count} row${count === 1 ? '' : 's'}; it needs the user's approval and was not sent`,
    "the host asks the user, then runs the same call with act.execute(tool, params, { approved: true })",
    { preview },
  );
}

/** `preview_changed`: the write would now touch rows `approved` did not show. Null when it would not. */
export function previewChanged(approved, current) {
  if (!approved || current.tool === 'db_create') return null;
  const shown = new Set(approved.rows.map((row) => row.ref));
  const added = current.rows.filter((row) => !shown.has(row.ref));
  if (added.length === 0 && current.count <= approved.count) return null;
  return refusal(
    'preview_changed',
    '',
    `${current.tool} on ${current.table} would now ${VERBS[current.tool]} ${current.count} rows, ${added.length > 0 ? `including ${added.slice(0, 5).map((row) => row.ref).join(', ')}, which the approved preview did not show` : `more than the ${approved.count} approved`}; nothing was sent`,
    'show the user the new preview and ask again',
    { preview: current },
  );
}

function safeJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
