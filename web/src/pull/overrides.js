// The overrides a pull merges on top of what it derived: checked against the
// database's names first, merged per table and column, and the defaults they
// may turn off (loose name matching).
import { isIdentifier, looseLabelOf } from './names.js';
import { codes } from '../../dist/error-codes.mjs';

const isPlainObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

/** An error value of the pull: `{ code, path, message, hint }`. */
export function pullError(code, path, message, hint = '') {
  return { code, path, message, hint };
}

// Overrides: plain objects merge key by key, arrays and scalars replace, and
// null removes (a table, a column, a setting).
export function deepMerge(base, over) {
  if (!isPlainObject(base) || !isPlainObject(over)) return structuredClone(over);
  const out = { ...base };
  for (const [key, value] of Object.entries(over)) {
    if (value === null) delete out[key];
    else out[key] = key in base ? deepMerge(base[key], value) : structuredClone(value);
  }
  return out;
}

// Overrides name tables and columns the database has: a misspelt name would
// otherwise add a table the database lacks. An owner must be a uuid column
// of its table. Misspelt settings are the core parser's to refuse
// (core.validateDomain), with the same path.
export function checkOverrideNames(overrides, described) {
  if (!isPlainObject(overrides)) {
    return pullError(codes.invalid_overrides, '', 'overrides must be a JSON object', '{ "tables": { "<table>": { "columns": { "<column>": { "values": ["a", "b"] } } } } }');
  }
  if (overrides.tables === undefined || overrides.tables === null) return null;
  if (!isPlainObject(overrides.tables)) return pullError(codes.invalid_overrides, 'tables', 'must be an object of table name → settings');
  for (const [table, spec] of Object.entries(overrides.tables)) {
    const path = `tables.${table}`;
    const facts = described.get(table);
    // A table the API does not serve, declared whole (its key, label and
    // columns): the one a function's argument takes keys of when the pull
    // cannot tell which. The core's parser checks its settings.
    if (!facts && isPlainObject(spec) && spec.exposed === false) {
      if (!isIdentifier(table)) return pullError(codes.invalid_overrides, path, `'${table}' is not a lower-case identifier, which refs and the domain need`);
      continue;
    }
    if (!facts) {
      return pullError(
        codes.invalid_overrides,
        path,
        `'${table}' is not a table or view in the database description, nor one its foreign keys reach`,
        `tables: ${[...described.keys()].join(', ') || 'none'} (a table of a schema the API does not serve is declared whole, with "exposed": false)`,
      );
    }
    if (spec === null) continue;
    if (!isPlainObject(spec)) return pullError(codes.invalid_overrides, path, 'must be an object of table settings, or null to leave the table out');
    if (!isIdentifier(table)) return pullError(codes.invalid_overrides, path, `'${table}' is not a lower-case identifier, which refs and the domain need`, 'leave it out of the overrides; the model reaches it through a view with another name, or not at all');
    if (spec.owner !== undefined && spec.owner !== null && !facts.columns.some((c) => c.name === spec.owner && c.type === 'uuid')) {
      const uuids = facts.columns.filter((c) => c.type === 'uuid').map((c) => c.name);
      return pullError(codes.invalid_overrides, `${path}.owner`, `${table} has no uuid column ${JSON.stringify(spec.owner)}`, `the owner is the uuid column holding the owning user's id: ${uuids.join(', ') || 'it has none'}; or "owner": null`);
    }
    if (spec.columns === undefined || spec.columns === null) continue;
    if (!isPlainObject(spec.columns)) return pullError(codes.invalid_overrides, `${path}.columns`, 'must be an object of column name → settings');
    for (const [column, settings] of Object.entries(spec.columns)) {
      const columnPath = `${path}.columns.${column}`;
      if (!facts.columns.some((c) => c.name === column)) {
        return pullError(codes.invalid_overrides, columnPath, `${table} has no column '${column}' in the database`, `columns: ${facts.columns.map((c) => c.name).join(', ')}`);
      }
      if (settings !== null && !isPlainObject(settings)) {
        return pullError(codes.invalid_overrides, columnPath, 'must be an object of column settings, or null to leave the column out');
      }
    }
  }
  return null;
}

// The option (or the overrides' legacy "owner_column") naming the owner
// column of every table that has it: a name some table has as uuid.
export function checkGlobalOwner(globalOwner, tables) {
  if (globalOwner === undefined || globalOwner === null) return null;
  if (typeof globalOwner !== 'string' || !isIdentifier(globalOwner)) {
    return pullError(codes.invalid_option, 'owner_column', `owner column must be a lower-case column name, got ${JSON.stringify(globalOwner)}`);
  }
  if (tables.some((t) => t.columns.some((c) => c.name === globalOwner && c.type === 'uuid'))) return null;
  const names = new Set();
  for (const table of tables) for (const column of table.columns) if (column.type === 'uuid' && !column.primaryKey) names.add(column.name);
  return pullError(
    codes.owner_column_not_found,
    'owner_column',
    `no table has a uuid column '${globalOwner}'`,
    `the column that row level security compares with auth.uid(); uuid columns: ${[...names].sort().join(', ') || 'none'}`,
  );
}

// The overrides without what the pull reads before the merge (the domain's
// owner_column, the tables' legacy user_owned) or merges itself (functions).
export function mergeable(overrides) {
  const { owner_column: _owner, functions: _functions, ...rest } = overrides;
  if (!isPlainObject(rest.tables)) return rest;
  const tables = {};
  for (const [name, spec] of Object.entries(rest.tables)) {
    if (!isPlainObject(spec)) tables[name] = spec;
    else {
      const { user_owned: _legacy, ...settings } = spec;
      tables[name] = settings;
    }
  }
  return { ...rest, tables };
}

// Whether one of `uniques` (catalog.js) makes `column` unique alone, as it
// is or in one case (`lower(name)`, `lower((name)::text)` as the catalog
// writes it for a varchar or a domain type), for every row.
const uniqueAlone = (uniques, column) =>
  uniques.some((u) => !u.partial && (u.expressions ? u.columns.length === 0 && caseFolded(u.expressions) === column : u.columns.length === 1 && u.columns[0] === column));

// The column `lower(…)` or `upper(…)` of one column folds, casts and
// parentheses aside, or null.
function caseFolded(expression) {
  const bare = expression.replace(/::\s*[a-z_][\w ]*(?:\[\])?/gi, '').replace(/"([a-z_][a-z0-9_$]*)"/g, '$1').replace(/\s+/g, '');
  return /^(?:lower|upper)\(\(*([a-z_][a-z0-9_$]*)\)*\)$/i.exec(bare)?.[1] ?? null;
}

// Name-like labels match loosely unless the overrides say otherwise (any
// "fuzzy", or "middleware": null), the table names rows through a catalog,
// or the label is unique (a username: `=` must name one row, not all that contain it).
export function addLooseMatching(domain, named, uniquesOf = () => []) {
  for (const [table, spec] of Object.entries(domain.tables)) {
    const given = named[table]?.middleware;
    const decided = given === null || (isPlainObject(given) && given.fuzzy !== undefined);
    const key = spec.key === undefined ? (spec.columns?.id ? ['id'] : []) : [spec.key].flat();
    // A table the API does not expose is never filtered on.
    let label = decided || spec.middleware?.catalog || spec.exposed === false ? null : looseLabelOf(spec, key);
    if (label && uniqueAlone(uniquesOf(table), label)) label = null;
    if (label) spec.middleware = { fuzzy: [label], ...spec.middleware };
    if (isPlainObject(spec.middleware) && Array.isArray(spec.middleware.fuzzy) && spec.middleware.fuzzy.length === 0) delete spec.middleware.fuzzy;
    if (isPlainObject(spec.middleware) && Object.keys(spec.middleware).length === 0) delete spec.middleware;
  }
}
