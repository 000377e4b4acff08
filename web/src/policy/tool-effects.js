// What each tool may do to the data, as the safety controls read it: which
// tools write, which change the rows their filters select (maxAffected), which
// delete, which call a function, and which writes each `approve` mode holds.
// Every fact comes from the core's own tool table (`TOOL_EFFECTS`, generated
// from the core's effect_of() at build time, as `STEP_TOOLS` is), never from
// a list kept here: a new tool is one line in the core.
import { TOOL_EFFECTS, TOOL_NAMES } from '../../dist/core-rules.mjs';

const having = (...facts) => new Set(TOOL_NAMES.filter((tool) => facts.some((fact) => TOOL_EFFECTS[tool][fact])));

/** The tools that insert rows (`db_create`). */
export const CREATES_ROWS = having('createsRows');
/** The tools that change the rows their filters select (`db_update`, `db_delete`): maxAffected bounds them. */
export const CHANGES_ROWS = having('changesRows');
/** The tools that delete the rows they select (`db_delete`). */
export const DELETES_ROWS = having('deletesRows');
/** The tools that call one of the domain's functions (`db_call`): a write unless the function reads. */
export const CALLS_FUNCTION = having('callsFunction');
/** The tools that write whatever their arguments: creates, updates and deletes (a read-only act offers none of them). */
export const ROW_WRITE_TOOLS = having('createsRows', 'changesRows');
/** The tools that may write: the row writes and `db_call` (which writes unless its function reads). */
export const WRITE_TOOLS = having('createsRows', 'changesRows', 'callsFunction');

/**
 * The tools each `approve` mode holds for the host's approval, in the core's
 * order: `'deletes'` the deletes, `'changes'` every tool that changes
 * selected rows, `'writes'` every row write; every mode but `'none'` holds a
 * function that changes data (it may create, change or delete).
 *
 * @example
 * APPROVAL_TOOLS.changes // ['db_update', 'db_delete', 'db_call']
 */
export const APPROVAL_TOOLS = Object.freeze({
  none: Object.freeze([]),
  deletes: Object.freeze(TOOL_NAMES.filter((tool) => DELETES_ROWS.has(tool) || CALLS_FUNCTION.has(tool))),
  changes: Object.freeze(TOOL_NAMES.filter((tool) => CHANGES_ROWS.has(tool) || CALLS_FUNCTION.has(tool))),
  writes: Object.freeze(TOOL_NAMES.filter((tool) => WRITE_TOOLS.has(tool))),
});
