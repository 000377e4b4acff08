// A table's key: its primary key when the core can use it (one or more
// columns of type uuid, integer or text), else a unique constraint of NOT
// NULL such columns (the catalog tells), else none (read-only), and which
// key columns the database fills in.
import { usableColumnName } from './names.js';

const KEY_TYPES = new Set(['uuid', 'integer', 'text']);
const isPlainObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

// The key columns the database fills in: a one-column uuid key (the package
// draws uuids itself), an integer key (identity or serial), a text key with
// a default. A text key without one (a slug) is the model's to write (and
// so is a one-to-one table's key: columns.js, keyParent).
export function assignedKeys(table, key) {
  if (key.length !== 1) return new Set();
  const column = table.columns.find((c) => c.name === key[0]);
  // A unique key (no primary key) is filled in only where it has a default.
  const assigned = column && (column.primaryKey ? column.type === 'uuid' || column.type === 'integer' || (column.type === 'text' && column.hasDefault) : column.hasDefault);
  return new Set(assigned ? key : []);
}

/**
 * A table's key (`[]` for none) from its primary key, or the overrides'
 * `"key"`, with the note that says why a table has none it can use.
 */
export function keyOf(table, given) {
  if (isPlainObject(given) && given.key !== undefined) {
    const key = given.key === null ? [] : (Array.isArray(given.key) ? given.key : [given.key]).filter((name) => typeof name === 'string');
    return { key, note: null };
  }
  const path = `tables.${table.name}.key`;
  const primary = table.keys;
  const unique = primary.length === 0 && !table.isView ? uniqueKeyOf(table) : null;
  if (unique) {
    return { key: unique, note: { path, message: `${unique.join(', ')}: no primary key, so its unique constraint on ${unique.length > 1 ? 'these columns' : 'this column'} names each row` } };
  }
  if (primary.length === 0) {
    const message = table.isView
      ? 'read-only: a view without a key PostgREST can infer; give "key" (and "writable": true if it is updatable) in the overrides'
      : 'read-only: no primary key, so no row can be named for an update or delete; give "key" in the overrides if a column is unique';
    return { key: [], note: { path, message } };
  }
  const described = primary.map((c) => `${c.name} ${c.format}`).join(', ');
  const otherType = primary.filter((c) => !KEY_TYPES.has(c.type));
  if (otherType.length > 0) {
    const types = [...new Set(otherType.map((c) => c.format))].join(', ');
    return { key: [], note: { path, message: `read-only: its primary key (${described}) is of type ${types}; a key is uuid, integer or text` } };
  }
  const unnamed = primary.filter((c) => !usableColumnName(c.name));
  if (unnamed.length > 0) {
    return { key: [], note: { path, message: `read-only: its primary key (${described}) has a column the model cannot name (reserved by PostgREST or not a lower-case identifier)` } };
  }
  return { key: primary.map((c) => c.name), note: null };
}

// The columns of the table's first unique index, fewest columns first, that
// can name each row: no expression, no WHERE, every column NOT NULL, of a
// key type and with a name the model can use. Null without one (or without
// the catalog).
function uniqueKeyOf(table) {
  const byName = new Map(table.columns.map((c) => [c.name, c]));
  const usable = (names) => names.every((name) => {
    const column = byName.get(name);
    return column?.notNull && KEY_TYPES.has(column.type) && usableColumnName(name);
  });
  const candidates = (table.catalog?.uniques ?? [])
    .filter((u) => !u.expressions && !u.partial && u.columns.length > 0 && usable(u.columns))
    .sort((a, b) => a.columns.length - b.columns.length);
  return candidates[0] ? [...candidates[0].columns] : null;
}
