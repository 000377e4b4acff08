// Comparing an answer with the ground truth: every group, every value. Group
// keys that are refs are mapped back to the UUIDs they stand for; numbers
// compare as decimal text (0.3 is "0.3", never 0.30000000000000004);
// averages to 6 places. An ordered question compares the order of the
// metric it is ordered by and lets groups tied at a limit's cut differ.
import { metricKeys } from './questions.mjs';

const DECIMAL = /^[+-]?(\d+)(?:\.(\d+))?$/;

/** A number or numeric text as canonical decimal text ("250000.00" → "250000"); other values as JSON. */
export function canonical(value) {
  if (value === null || value === undefined) return 'null';
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value : JSON.stringify(value);
  const match = typeof value === 'boolean' ? null : DECIMAL.exec(text);
  if (!match) return JSON.stringify(value);
  const negative = text.startsWith('-');
  const whole = match[1].replace(/^0+(?=\d)/, '');
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  const out = fraction ? `${whole}.${fraction}` : whole;
  return negative && out !== '0' ? `-${out}` : out;
}

/** `value` (a JS number) rounded half away from zero to 6 places, as canonical text. */
export function round6(value) {
  if (value === null) return 'null';
  const scaled = Math.round(Math.abs(value) * 1e6) / 1e6;
  return canonical(Math.sign(value) < 0 ? -scaled : scaled);
}

/**
 * Rows in a comparable form: `{ key, groups, values, labels }` per row, the
 * group values with refs replaced by what `uuidOf(ref)` gives.
 */
function normalize(params, rows, { refColumns = new Set(), uuidOf = (ref) => ref } = {}) {
  const keys = metricKeys(params);
  const groupBy = params.group_by ?? [];
  return rows.map((row) => {
    const groups = groupBy.map((column) => {
      const value = row[column] ?? null;
      return refColumns.has(column) && value !== null ? uuidOf(value) : value;
    });
    const labels = Object.fromEntries(groupBy.filter((column) => `_${column}_label` in row).map((column) => [column, row[`_${column}_label`]]));
    return { key: JSON.stringify(groups), groups, values: keys.map((key) => canonical(row[key])), labels };
  });
}

/**
 * The differences between an answer and the truth, as sentences (empty when
 * the answer is right).
 * - `rows`: the answer's rows; `groupsTotal`: how many groups it says matched
 *   (before its limit), when it says so.
 * - `truth`: the SQL's rows (every group, in order when the question is ordered).
 * - `refColumns` / `uuidOf`: the group columns that hold refs, and the UUID of a ref.
 * - `labels`: whether the answer names its foreign-key groups (the tool's
 *   `_<column>_label`), compared with the truth's.
 */
export function differences(params, { rows, groupsTotal, truth, refColumns, uuidOf, labels = true }) {
  const problems = [];
  const answer = normalize(params, rows, { refColumns, uuidOf });
  const expected = normalize(params, truth);
  const byKey = new Map(expected.map((row) => [row.key, row]));
  const keys = metricKeys(params);
  const wanted = params.limit ? expected.slice(0, params.limit) : expected;
  if (answer.length !== wanted.length) problems.push(`${answer.length} groups, expected ${wanted.length}`);
  if (groupsTotal !== undefined && groupsTotal !== expected.length) problems.push(`says ${groupsTotal} groups matched, expected ${expected.length}`);
  const seen = new Set();
  for (const row of answer) {
    if (seen.has(row.key)) problems.push(`group ${row.key} twice`);
    seen.add(row.key);
    const truthRow = byKey.get(row.key);
    if (!truthRow) {
      problems.push(`group ${row.key} is not in the truth`);
      continue;
    }
    keys.forEach((key, i) => {
      if (row.values[i] !== truthRow.values[i]) problems.push(`group ${row.key}: ${key} ${row.values[i]}, expected ${truthRow.values[i]}`);
    });
    for (const [column, label] of labels ? Object.entries(truthRow.labels) : []) {
      if (label !== null && row.labels[column] !== label) problems.push(`group ${row.key}: label ${JSON.stringify(row.labels[column])}, expected ${JSON.stringify(label)}`);
    }
  }
  if (params.order_by !== undefined) {
    const at = params.order_by.metric;
    const got = answer.map((row) => row.values[at]).join(', ');
    const should = wanted.map((row) => row.values[at]).join(', ');
    if (got !== should) problems.push(`${keys[at]} in the order ${got}, expected ${should}`);
  }
  return problems;
}
