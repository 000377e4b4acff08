// Previews of writes that need approval: which rows an update or delete
// would change (one read with the write's filters, counted exactly), or the
// rows a create would insert. The act keeps each preview it handed out, so
// that an approved write can be checked against what the user saw and
// restricted to those rows.

/** Rows a preview shows; `count` is always exact. */
export const PREVIEW_ROWS = 20;

/**
 * The most rows an approved update or delete may change: the write is
 * restricted to the previewed rows by their refs (`id in [...]`), and the
 * list has to fit in a URL.
 */
export const MAX_APPROVED_ROWS = 100;

// Previews kept per act, and for how long an approval may follow one.
const MAX_KEPT = 64;
const KEPT_MS = 15 * 60_000;

const EQUALS = new Set(['=', '==', 'eq']);

/**
 * The key columns of `table` in `domain` (`["id"]` unless it says otherwise).
 *
 * @example
 * keyColumns(domain, table) // ['id'], or a composite key's columns
 */
export function keyColumns(domain, table) {
  const config = domain.tables?.[table];
  if (!config) return [];
  return config.key === undefined ? ['id'] : Array.isArray(config.key) ? config.key : [config.key];
}

// Columns on which a read takes `=` as a fuzzy match (fuzzy columns, a
// catalog's name column): for a write, `=` is exact there.
function fuzzyColumns(config) {
  const out = new Set(config.middleware?.fuzzy ?? []);
  if (config.middleware?.catalog) out.add(config.middleware.catalog.name ?? 'name');
  return out;
}

// A strict-mode model sends every member, null for "not given".
function given(params) {
  return Object.fromEntries(Object.entries(params ?? {}).filter(([, value]) => value !== null && value !== undefined));
}

/**
 * The read that selects the rows an update or delete of `params` would
 * change: the same filters (a `=` that a read would match loosely made
 * exact, as the write takes it), the key and label columns, counted exactly,
 * at most `limit` rows.
 *
 * @example
 * previewRead(kitchen, { table: 'inventory', filters: [{ field: 'name', op: '=', value: 'milk' }] }, 101)
 * // { table: 'inventory', filters: [{ field: 'name', op: 'in', value: ['milk'] }], columns: ['id', 'name'], count: 'exact', limit: 101 }
 */
export function previewRead(domain, params, limit) {
  const { table, filters, or_filters: orFilters } = given(params);
  const config = domain.tables[table];
  const fuzzy = fuzzyColumns(config);
  const exact = (filter) =>
    filter && typeof filter === 'object' && fuzzy.has(filter.field) && EQUALS.has(String(filter.op).trim().toLowerCase()) && typeof filter.value === 'string'
      ? { field: filter.field, op: 'in', value: [filter.value] }
      : filter;
  const visible = (column) => config.columns?.[column] && !(config.hidden ?? []).includes(column);
  const columns = [...new Set([...keyColumns(domain, table), ...(config.label ?? []).filter(visible)])];
  const read = { table, filters: (filters ?? []).map(exact), columns, count: 'exact', limit };
  if (Array.isArray(orFilters) && orFilters.length) read.or_filters = orFilters.map(exact);
  return read;
}

/**
 * What identifies a previewed row: its ref, or its key columns' values as
 * JSON text (a composite key); null when the row lacks one.
 *
 * @example
 * rowIdentity(['team', 'member'], { team: 'recipe_1', member: 'me' }) // '["recipe_1","me"]'
 */
export function rowIdentity(keys, row) {
  if (keys.length === 1) return typeof row?.[keys[0]] === 'string' ? row[keys[0]] : null;
  const values = keys.map((key) => row?.[key] ?? null);
  return values.some((value) => value === null) ? null : JSON.stringify(values);
}

/**
 * `params` with the rows restricted to `refs` (a one-column key): the write
 * cannot change a row the preview did not list, whatever changed since.
 *
 * @example
 * pinned(params, 'id', refs).filters.at(-1) // { field: 'id', op: 'in', value: refs }
 */
export function pinned(params, key, refs) {
  const filters = Array.isArray(params.filters) ? params.filters : [];
  return { ...params, filters: [...filters, { field: key, op: 'in', value: refs }] };
}

/**
 * The canonical text of a call, the key its preview is kept under: members
 * sorted, strict-mode nulls left out, so the same call written twice is one.
 *
 * @example
 * callKey('db_delete', { filters: [...], table: 'inventory', or_filters: null }) === callKey('db_delete', { table: 'inventory', filters: [...] })
 */
export function callKey(tool, params) {
  const canonical = (value) => {
    if (Array.isArray(value)) return value.map(canonical);
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.keys(value).sort().filter((key) => value[key] !== undefined).map((key) => [key, canonical(value[key])]));
    }
    return value;
  };
  try {
    return JSON.stringify([String(tool), canonical(given(params))]);
  } catch {
    return null;
  }
}

/**
 * The rows a create would insert, as the model gave them (`data` as an
 * object, a list, or the JSON text of one), the first `PREVIEW_ROWS` shown.
 *
 * @example
 * createPreview('inventory', { table: 'inventory', data: '[{"name":"jam"}]' }) // { tool: 'db_create', table: 'inventory', count: 1, rows: [{ name: 'jam' }] }
 */
export function createPreview(table, params) {
  let data = params?.data;
  if (typeof data === 'string') {
    try {
      data = JSON.parse(data);
    } catch {
      // the core refuses it before this is used
    }
  }
  const rows = Array.isArray(data) ? data : data && typeof data === 'object' ? [data] : [];
  return { tool: 'db_create', table, count: rows.length, rows: rows.slice(0, PREVIEW_ROWS) };
}

/**
 * The preview of a call of a function that changes data, in the shape of a
 * write's: `{ tool: 'db_call', table, count: 1, rows: [], function,
 * description, args, argumentLabels }` — `table` the table whose rows the
 * function returns ("" for none), `count` the one call (what it changes is
 * the function's own), `args` as the model gave them (JSON text read),
 * `argumentLabels` the label of each argument that is a ref with one
 * (`labelOf(ref)`, from the act's registry).
 *
 * @example
 * callPreview(domain, { function: 'archive_project', args: { project_id: 'project_2' } }, labelOf)
 * // { tool: 'db_call', table: 'projects', count: 1, rows: [], function: 'archive_project', description: 'Archives a project.', args: { project_id: 'project_2' }, argumentLabels: { project_id: 'Apollo' } }
 */
export function callPreview(domain, params, labelOf = () => '') {
  const name = typeof params?.function === 'string' ? params.function : '';
  let args = params?.args ?? {};
  if (typeof args === 'string') {
    try {
      args = JSON.parse(args);
    } catch {
      args = {}; // the core refuses it before this is used
    }
  }
  if (!args || typeof args !== 'object' || Array.isArray(args)) args = {};
  const argumentLabels = {};
  for (const [arg, value] of Object.entries(args)) {
    const label = typeof value === 'string' ? labelOf(value) : '';
    if (label) argumentLabels[arg] = label;
  }
  const fn = domain?.functions && Object.hasOwn(domain.functions, name) ? domain.functions[name] : null;
  const table = typeof fn?.returns?.table === 'string' ? fn.returns.table : '';
  return { tool: 'db_call', table, count: 1, rows: [], function: name, description: fn?.description ?? '', args, argumentLabels };
}

/**
 * The preview of an update or delete from its read: `{ tool, table, count,
 * rows, keys }` (`rows` the first `PREVIEW_ROWS` with their refs and labels,
 * `keys` what identifies every row read; an update adds `data`, the change).
 *
 * @example
 * writePreview('db_delete', 'inventory', params, await act.execute('db_read', previewRead(domain, params, 101)), ['id'])
 */
export function writePreview(tool, table, params, read, keys) {
  const rows = Array.isArray(read.data) ? read.data : [];
  const preview = { tool, table, count: read.count ?? rows.length, rows: rows.slice(0, PREVIEW_ROWS), keys: rows.map((row) => rowIdentity(keys, row)) };
  if (tool === 'db_update') {
    let { data } = params;
    if (typeof data === 'string') {
      try {
        data = JSON.parse(data);
      } catch {
        // refused by the core before this is used
      }
    }
    preview.data = data;
  }
  return preview;
}

/**
 * How many rows `current` would change that `baseline` did not show (or
 * how many more it counts): `null` when every row is one the user saw.
 *
 * @example
 * unseenRows({ count: 2, keys: ['inv_1', 'meal_1'] }, { count: 1, keys: ['inv_1'] }) // 1
 */
export function unseenRows(current, baseline) {
  const seen = new Set(baseline.keys ?? []);
  const unseen = current.keys.filter((key) => key === null || !seen.has(key));
  if (unseen.length) return unseen.length;
  return current.count > (baseline.count ?? 0) ? current.count - baseline.count : null;
}

/**
 * The previews an act handed out, by call key: at most 64, each for 15 minutes.
 *
 * @example
 * const previews = new PreviewStore(); previews.put(callKey(tool, params), preview); previews.take(callKey(tool, params)) // preview, once
 */
export class PreviewStore {
  #kept = new Map();

  /**
   * Keeps `preview` for `key`. A preview already kept for the same call
   * stays (the first one is what the user was shown first: asking again
   * must not move what an approval is checked against) unless `replace`.
   */
  put(key, preview, { replace = false } = {}) {
    if (key === null) return;
    const kept = this.#kept.get(key);
    if (kept && !replace && Date.now() - kept.at <= KEPT_MS) return;
    this.#kept.delete(key);
    if (this.#kept.size >= MAX_KEPT) this.#kept.delete(this.#kept.keys().next().value);
    this.#kept.set(key, { preview, at: Date.now() });
  }

  /** The preview kept for `key` (and forgets it: one approval, one write), or null. */
  take(key) {
    const kept = key === null ? undefined : this.#kept.get(key);
    if (!kept) return null;
    this.#kept.delete(key);
    return Date.now() - kept.at <= KEPT_MS ? kept.preview : null;
  }
}
