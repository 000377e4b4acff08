// The policy between a tool call and the core: refuses writes on a
// read-only act, and holds writes that need approval until the host gives
// it. A held write sends nothing: the act reads the rows it would change
// (the preview), keeps that preview, and answers `approval_required`. The
// host approves with `execute(tool, params, { approved: true })`: the rows
// are read again, the write is refused (`preview_changed`) if it would now
// change a row the preview did not show, and otherwise it runs restricted to
// the rows just read, so nothing else can be changed in between.
import { needsApproval } from './options.js';
import {
  MAX_APPROVED_ROWS,
  PreviewStore,
  callKey,
  callPreview,
  createPreview,
  keyColumns,
  pinned,
  previewRead,
  unseenRows,
  writePreview,
} from './preview.js';
import { CALLS_FUNCTION, CREATES_ROWS, ROW_WRITE_TOOLS } from './tool-effects.js';
import { callWrites } from '../act/faults.js';
import { codes } from '../../dist/error-codes.mjs';

const VERBS = { db_create: 'creating', db_update: 'changing', db_delete: 'deleting' };
// What a held write does, for the messages: rows of a table, or a function's call.
const whatOf = (preview) =>
  preview.tool === 'db_call' ? `calling ${preview.function} (it changes data)` : `${VERBS[preview.tool]} ${rowsOf(preview.count)} of ${preview.table}`;

const refused = (error) => ({ data: null, error, query: null, count: null });
const rowsOf = (count) => `${count} ${count === 1 ? 'row' : 'rows'}`;
// The preview as the host gets it (a copy: the act keeps its own).
const copy = (preview) => structuredClone(preview);

function readOnlyError(tool, params) {
  if (CALLS_FUNCTION.has(tool)) {
    return {
      code: codes.read_only,
      path: 'function',
      message: `this assistant may only read: ${String(params?.function).slice(0, 80)} changes data, so it is refused and nothing was sent`,
      hint: 'call only functions that read, or db_read; tell the user that changes cannot be made here',
    };
  }
  return {
    code: codes.read_only,
    path: '',
    message: `this assistant may only read: ${tool} is refused and nothing was sent`,
    hint: 'use db_read; tell the user that changes cannot be made here',
  };
}

/**
 * The `approval_required` error of a held write, with its preview: held
 * (the host asks), `denied` (the user said no) or a `failure` of the asking.
 *
 * @example
 * approvalError(preview, { denied: true }).message // "the user denied deleting 2 rows of inventory; nothing was changed"
 */
export function approvalError(preview, { denied = false, failure = null } = {}) {
  const what = whatOf(preview);
  if (failure) {
    return {
      code: codes.approval_required,
      path: '',
      message: `${what} needs the user's approval, and asking for it failed (${failure}); nothing was changed`,
      hint: 'tell the user the change could not be approved; do not repeat the call',
      preview: copy(preview),
    };
  }
  if (denied) {
    return {
      code: codes.approval_required,
      path: '',
      message: `the user denied ${what}; nothing was changed`,
      hint: 'do not repeat the call; ask the user what they want instead',
      preview: copy(preview),
    };
  }
  return {
    code: codes.approval_required,
    path: '',
    message: `${what} needs the user's approval; nothing was changed`,
    hint: 'the app asks the user with this preview; tell the user what the change would do, and do not repeat the call unless they approve it',
    preview: copy(preview),
  };
}

function changedError(preview, unseen, approvedCount) {
  return {
    code: codes.preview_changed,
    path: '',
    message: `${VERBS[preview.tool]} rows of ${preview.table} would now change ${rowsOf(unseen)} the approved preview did not show (${preview.count} now, ${approvedCount} approved); nothing was changed`,
    hint: 'show the new preview (error.preview) to the user and ask again',
    preview: copy(preview),
  };
}

// A filter that names rows by ref, from the refs the preview read.
function narrowingExample(key, refs) {
  const shown = refs.filter((ref) => typeof ref === 'string').slice(0, 2);
  return `"filters": [{"field": ${JSON.stringify(key)}, "op": "in", "value": ${JSON.stringify(shown.length ? shown : ['…'])}}]`;
}

function tooManyRows(tool, table, count, limit, example, { approval }) {
  const kind = tool === 'db_update' ? 'update' : 'delete';
  return {
    code: codes.too_many_rows,
    path: 'filters',
    message: approval
      ? `this ${kind} would change ${count} rows of ${table}, over the ${limit} rows one approved write may change; nothing was changed`
      : `this ${kind} would change ${count} rows of ${table}, over the limit of ${limit} (maxAffected); nothing was changed`,
    hint: `narrow the filters to the rows meant (by ref, e.g. ${example}), or change at most ${limit} rows per call`,
  };
}

// The columns an update sets, as the write's record names them.
const dataColumns = (tool, params) => {
  let { data } = params ?? {};
  if (typeof data === 'string') {
    try {
      data = JSON.parse(data);
    } catch {
      return null;
    }
  }
  return tool === 'db_update' && data && typeof data === 'object' && !Array.isArray(data) ? Object.keys(data) : null;
};

// The answer to an update or delete whose preview read selected no row:
// nothing is sent and nobody is asked. The query is the write's as the
// read ran it, with the outcome said.
function nothingMatched(tool, params, read) {
  const record = read.query;
  // The preview read matched fuzzy columns exactly (`in` one value, as the
  // write matches them); the model reads the filters it wrote.
  const asWritten = (shown, written) =>
    Array.isArray(shown) && Array.isArray(written) && shown.length === written.length
      ? shown.map((filter, i) =>
          filter?.op === 'in' && Array.isArray(filter.value) && filter.value.length === 1 && String(written[i]?.op).trim().toLowerCase() !== 'in'
            ? { ...filter, op: '=', value: filter.value[0] }
            : filter)
      : shown;
  const requested = record?.requested && {
    ...record.requested,
    filters: asWritten(record.requested.filters, params.filters),
    or_filters: asWritten(record.requested.or_filters, params.or_filters),
  };
  const query = record && {
    ...record,
    tool,
    requested: requested && { ...requested, columns: null, limit: null, offset: null, order_by: null, order_dir: null, data_columns: dataColumns(tool, params), records: null },
    effective: null,
    notes: [...(record.notes ?? []).filter((note) => !note.startsWith('no row matched')), 'no row matched the filters (it may not exist, or may belong to another user), so nothing was sent and nobody was asked'],
    count: 0,
  };
  return { data: [], error: null, query, count: 0 };
}

// Whether the host's `preview` (error.preview it showed) fits this call.
function hostBaseline(preview, tool, table) {
  if (!preview) return null;
  // A create's preview is its own data: nothing to compare.
  if (CREATES_ROWS.has(tool) && preview.tool === tool && preview.table === table) return null;
  if (preview.tool !== tool || preview.table !== table || !Array.isArray(preview.keys) || !Number.isSafeInteger(preview.count)) {
    return { error: { code: codes.invalid_option, path: 'preview', message: `preview is not the error.preview of this ${tool} on ${table}`, hint: 'pass the preview the approval_required result carried, or leave it out' } };
  }
  return preview;
}

/**
 * The policy of one act. `execute(call, io)` runs a call through it: `io`
 * is `{ run(tool, params), validate(tool, params), trail }` from the act:
 * `run` executes a call in the core (a read for a preview, or the write),
 * `validate` checks one without sending anything, `trail` records the
 * approval for the audit entries.
 *
 * @example
 * const gate = new Gate(policy, domain)
 * const result = await gate.execute({ tool, params, approved, preview }, { run, validate, trail })
 */
export class Gate {
  #policy;
  #domain;
  #previews = new PreviewStore();

  constructor(policy, domain) {
    this.#policy = policy;
    this.#domain = domain;
  }

  /** Whether `tool` is offered at all (`readOnly` offers reads only, and db_call for the functions that read). */
  offers(tool) {
    return !(this.#policy.readOnly && ROW_WRITE_TOOLS.has(tool));
  }

  async execute({ tool, params, approved, preview, approve = this.#policy.approve }, io) {
    if (!callWrites(this.#domain, tool, params)) return io.run(tool, params);
    if (this.#policy.readOnly) return refused(readOnlyError(tool, params));
    if (!needsApproval(approve, tool)) return io.run(tool, params);
    io.trail.approved = false;
    const invalid = io.validate(tool, params);
    if (invalid) return refused(invalid);
    if (CALLS_FUNCTION.has(tool)) return this.#heldCall(params, approved, approve, io);
    const table = params.table;
    const key = callKey(tool, params);

    if (approved) {
      // What the user saw: the preview the host passes, else the one kept.
      const given = hostBaseline(preview, tool, table);
      if (given?.error) return refused(given.error);
      const kept = this.#previews.take(key);
      const baseline = given ?? kept;
      io.trail.approved = true;
      return this.#runApproved(tool, params, key, baseline, io);
    }
    const taken = await this.#preview(tool, params, io);
    if (taken.result) return taken.result;
    // Nothing to change: nobody is asked about nothing.
    if (taken.read) return nothingMatched(tool, params, taken.read);
    if (typeof approve !== 'function') {
      this.#previews.put(key, taken.preview);
      return refused(approvalError(taken.preview));
    }
    let answer;
    try {
      answer = await approve({ tool, table, params: JSON.parse(JSON.stringify(params)) }, copy(taken.preview));
    } catch (cause) {
      return refused(approvalError(taken.preview, { failure: String(cause?.message ?? cause).slice(0, 200) }));
    }
    if (answer !== true) return refused(approvalError(taken.preview, { denied: true }));
    io.trail.approved = true;
    return this.#runApproved(tool, params, key, taken.preview, io);
  }

  // A function that changes data, held: what it would do is its name and
  // arguments (refs with their labels); approved, it runs as it is.
  async #heldCall(params, approved, approve, io) {
    if (approved) {
      io.trail.approved = true;
      return io.run('db_call', params);
    }
    const preview = callPreview(this.#domain, params, io.labelOf);
    if (typeof approve !== 'function') return refused(approvalError(preview));
    let answer;
    try {
      answer = await approve({ tool: 'db_call', table: preview.table, function: preview.function, params: JSON.parse(JSON.stringify(params)) }, copy(preview));
    } catch (cause) {
      return refused(approvalError(preview, { failure: String(cause?.message ?? cause).slice(0, 200) }));
    }
    if (answer !== true) return refused(approvalError(preview, { denied: true }));
    io.trail.approved = true;
    return io.run('db_call', params);
  }

  // The preview of a write: a create's rows, or one read of the rows an
  // update or delete would change. `{ preview }`, `{ read }` (the read)
  // when it selects no row, or `{ result }` when the read failed or the
  // write would change more rows than it may.
  async #preview(tool, params, io) {
    const table = params.table;
    if (CREATES_ROWS.has(tool)) return { preview: createPreview(table, params) };
    const { maxAffected } = this.#policy;
    const limit = Math.min(MAX_APPROVED_ROWS, maxAffected > 0 ? maxAffected : MAX_APPROVED_ROWS);
    const read = await io.run('db_read', previewRead(this.#domain, params, limit + 1));
    if (read.error) return { result: read };
    const keys = keyColumns(this.#domain, table);
    const preview = writePreview(tool, table, params, read, keys);
    if (preview.count === 0 && preview.keys.length === 0) return { read };
    if (preview.count > limit) {
      const example = narrowingExample(keys[0], preview.keys);
      const approval = !(maxAffected > 0 && maxAffected <= MAX_APPROVED_ROWS);
      return { result: refused(tooManyRows(tool, table, preview.count, limit, example, { approval })) };
    }
    return { preview };
  }

  // An approved write: a create runs as it is; an update or delete reads its
  // rows again, is refused if they are not the ones `baseline` showed, and
  // runs restricted to them (by ref, when the key is one column).
  async #runApproved(tool, params, key, baseline, io) {
    if (CREATES_ROWS.has(tool)) return io.run(tool, params);
    const current = await this.#preview(tool, params, io);
    if (current.result) return current.result;
    if (current.read) return nothingMatched(tool, params, current.read);
    if (baseline) {
      const unseen = unseenRows(current.preview, baseline);
      if (unseen !== null) {
        this.#previews.put(key, current.preview, { replace: true });
        return refused(changedError(current.preview, unseen, baseline.count));
      }
    }
    const keys = keyColumns(this.#domain, params.table);
    if (keys.length !== 1 || current.preview.keys.some((identity) => identity === null)) return io.run(tool, params);
    return io.run(tool, pinned(params, keys[0], current.preview.keys));
  }
}
