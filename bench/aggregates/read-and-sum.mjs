// What a user writes today to answer an aggregate question without the tool:
// read every matching row through PostgREST as the signed-in user (the
// columns needed, 1,000 rows a page, the page size hosted projects cap a
// response at), then group, count and sum in JavaScript with plain numbers.
import { metricKeys } from './questions.mjs';

/** Rows per request, as hosted Supabase caps a response (max-rows 1000). */
export const PAGE_ROWS = 1000;

const OPERATORS = { '=': 'eq', '!=': 'neq', '>': 'gt', '>=': 'gte', '<': 'lt', '<=': 'lte', like: 'like', ilike: 'ilike' };

// A value inside a list or an or=(…) tree, quoted where PostgREST reserves a character.
const quoted = (value) => {
  const text = String(value);
  return /[,():"\\\s]/.test(text) ? `"${text.replace(/["\\]/g, '\\$&')}"` : text;
};

/**
 * One filter clause as PostgREST writes it: `[column, 'eq.fridge']`. Values
 * are plain (no refs); `nested` quotes them for an or=(…) tree.
 */
function condition({ field, op, value }, nested = false) {
  const plain = nested ? quoted : String;
  if (op === 'is_null' || ((op === '=' || op === 'eq') && value === null)) return [field, 'is.null'];
  if (op === 'is_not_null' || ((op === '!=' || op === 'neq') && value === null)) return [field, 'not.is.null'];
  if (op === 'in') return [field, `in.(${value.map(quoted).join(',')})`];
  if (op === 'not_in') return [field, `not.in.(${value.map(quoted).join(',')})`];
  const operator = OPERATORS[op];
  if (!operator) throw new Error(`read-and-sum: op ${op} is not written here`);
  return [field, `${operator}.${plain(value)}`];
}

/** The query string of a read of the rows `params` aggregates: its columns and filters, without paging. */
export function rowsQuery(params, key) {
  const columns = [...new Set([...(params.group_by ?? []), ...params.metrics.filter((m) => m.field).map((m) => m.field)])];
  const query = new URLSearchParams({ select: (columns.length ? columns : [key]).join(',') });
  for (const clause of params.filters ?? []) query.append(...condition(clause));
  if (params.or_filters?.length) query.append('or', `(${params.or_filters.map((clause) => condition(clause, true).join('.')).join(',')})`);
  query.append('order', key);
  return query;
}

/**
 * Reads every row `params` aggregates, page by page, with `fetch`:
 * `{ rows, trips, bytes }`.
 */
export async function readRows({ restUrl, apiKey, token, params, key = 'id', fetch = globalThis.fetch }) {
  const query = rowsQuery(params, key);
  const rows = [];
  let trips = 0;
  let bytes = 0;
  for (let offset = 0; ; offset += PAGE_ROWS) {
    const url = `${restUrl}/${params.table}?${query}&limit=${PAGE_ROWS}&offset=${offset}`;
    const response = await fetch(url, { headers: { apikey: apiKey, authorization: `Bearer ${token}`, accept: 'application/json' } });
    const body = await response.arrayBuffer();
    trips += 1;
    bytes += body.byteLength;
    if (!response.ok) throw new Error(`read-and-sum: ${response.status} ${new TextDecoder().decode(body)}`);
    const page = JSON.parse(new TextDecoder().decode(body));
    rows.push(...page);
    if (page.length < PAGE_ROWS) break;
  }
  return { rows, trips, bytes };
}

const before = (a, b) => (typeof a === 'number' && typeof b === 'number' ? a < b : String(a) < String(b));

/** The answer computed from `rows` in JavaScript, rows shaped as the tool's (group columns, then metric keys). */
export function sumInJs(params, rows) {
  const groupBy = params.group_by ?? [];
  const keys = metricKeys(params);
  const groups = new Map();
  for (const row of rows) {
    const id = JSON.stringify(groupBy.map((column) => row[column] ?? null));
    if (!groups.has(id)) groups.set(id, { row: Object.fromEntries(groupBy.map((column) => [column, row[column] ?? null])), of: [] });
    groups.get(id).of.push(row);
  }
  if (groupBy.length === 0 && groups.size === 0) groups.set('[]', { row: {}, of: [] });
  let answer = [...groups.values()].map(({ row, of }) => {
    const out = { ...row };
    params.metrics.forEach((metric, i) => {
      const values = metric.field ? of.map((r) => r[metric.field]).filter((v) => v !== null && v !== undefined) : of;
      let value;
      if (metric.fn === 'count') value = values.length;
      else if (metric.fn === 'count_distinct') value = new Set(values.map((v) => JSON.stringify(v))).size;
      else if (values.length === 0) value = null;
      else if (metric.fn === 'sum') value = values.reduce((total, v) => total + Number(v), 0);
      else if (metric.fn === 'avg') value = Math.round((values.reduce((total, v) => total + Number(v), 0) / values.length) * 1e6) / 1e6;
      else value = values.reduce((best, v) => ((metric.fn === 'min' ? before(v, best) : before(best, v)) ? v : best));
      out[keys[i]] = value;
    });
    return out;
  });
  const passes = { '=': (a, b) => a === b, '!=': (a, b) => a !== b, '>': (a, b) => a > b, '>=': (a, b) => a >= b, '<': (a, b) => a < b, '<=': (a, b) => a <= b };
  for (const { metric, op, value } of params.having ?? []) answer = answer.filter((row) => row[keys[metric]] !== null && passes[op](Number(row[keys[metric]]), value));
  const total = answer.length;
  if (params.order_by) {
    const key = keys[params.order_by.metric];
    const sign = params.order_by.dir === 'desc' ? -1 : 1;
    answer.sort((a, b) => (a[key] === null) - (b[key] === null) || sign * (before(a[key], b[key]) ? -1 : before(b[key], a[key]) ? 1 : 0));
  }
  if (params.limit) answer = answer.slice(0, params.limit);
  return { rows: answer, total };
}
