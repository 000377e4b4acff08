// Rows as the model saw them: a table whose ref cells (recipe_1, gen_recipe_1)
// and foreign-key label columns (_recipe_id_label) are marked, so a reader
// sees what the model works with instead of UUIDs.
import { h, prettyJson } from './dom.js';

const REF = /^(gen_)?[a-z]+_\d+$/;
const LABEL_COLUMN = /^_.+_label$/;
const MAX_ROWS = 50;

function cell(value) {
  if (value === null || value === undefined) return h('td', { class: 'null' }, 'null');
  if (typeof value === 'string' && REF.test(value)) return h('td', {}, h('code', { class: 'ref' }, value));
  if (typeof value === 'object') return h('td', { class: 'nested' }, h('code', {}, JSON.stringify(value)));
  return h('td', {}, String(value));
}

// Columns in first-seen order over all rows (rows of one read may differ).
function columnsOf(rows) {
  const columns = [];
  for (const row of rows) for (const key of Object.keys(row)) if (!columns.includes(key)) columns.push(key);
  return columns;
}

const isRow = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A tool result's data as a list of rows (a create of one row returns the row), or null. */
export function rowsOf(data) {
  if (isRow(data)) return [data];
  return Array.isArray(data) && data.every(isRow) ? data : null;
}

/** The rows of one tool result, or a note when there are none. */
export function rowsView(data, caption) {
  const rows = rowsOf(data);
  if (!rows) return h('pre', { class: 'json' }, prettyJson(data));
  if (rows.length === 0) return h('p', { class: 'muted' }, 'No rows.');
  const columns = columnsOf(rows);
  const shown = rows.slice(0, MAX_ROWS);
  const header = h(
    'tr',
    {},
    columns.map((column) => h('th', { scope: 'col', class: LABEL_COLUMN.test(column) ? 'label' : null }, column)),
  );
  const body = shown.map((row) => h('tr', {}, columns.map((column) => cell(row[column]))));
  return h(
    'div',
    { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-label': caption },
    h('table', { class: 'rows' }, h('caption', {}, caption), h('thead', {}, header), h('tbody', {}, body)),
    rows.length > MAX_ROWS ? h('p', { class: 'muted' }, `… and ${rows.length - MAX_ROWS} more rows`) : null,
  );
}
