// Tables of schemas the API does not expose that the exposed tables' foreign
// keys reach: basejump's `projects.account_id → basejump.accounts`. The
// model can neither read nor write such a table, but the column that
// references it is how a row is created in a team app, so the pull keeps
// the column and adds the target to the domain as a table with
// `"exposed": false`: its key (the referenced column) and its labels, from
// the catalog's facts about it (catalog.js).
import { INPUT_MODES } from './catalog-functions.js';
import { pluralsOf } from './catalog.js';
import { holdsSecret } from './columns.js';
import { structuralProblem } from './functions.js';
import { OWNER_NAMES } from './owners.js';
import { domainTypeOf } from './description.js';
import { isIdentifier, labelOf } from './names.js';

const isPlainObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

const KEY_TYPES = new Set(['uuid', 'integer', 'text']);

/**
 * The unexposed tables the described `tables` reference, named by their
 * table name, or `<schema>_<table>` where that is taken by a table of the
 * description (or by one met before): `[{ name, schema, table, key, columns }]`,
 * `columns` as `[{ name, type, notNull }]` with the domain's types (null for
 * none). Points each referencing column's `references` at its table. Targets
 * whose facts are missing (catalog facts read before other schemas were), or
 * whose referenced column is not of a key type, are left out; their
 * referencing columns get `outsideNote`.
 */
export function unexposedTables(tables, catalog) {
  const described = new Set(tables.map((t) => t.name));
  const byTarget = new Map();
  for (const table of tables) {
    for (const column of table.columns) {
      if (!column.outside) continue;
      const id = `${column.outside.schema}.${column.outside.table}`;
      byTarget.set(id, [...(byTarget.get(id) ?? []), { table, column }]);
    }
  }
  const out = [];
  const taken = new Set(described);
  for (const id of [...byTarget.keys()].sort()) {
    const referencing = byTarget.get(id);
    const { schema, table: name, column: keyName } = referencing[0].column.outside;
    const facts = catalog?.referencedTables?.find((t) => t.schema === schema && t.table === name);
    const keyFacts = facts?.columns.find((c) => c.name === keyName);
    const keyType = keyFacts ? (keyFacts.kind === 'enum' ? 'text' : domainTypeOf(keyFacts.type)) : null;
    const domainName = taken.has(name) ? `${schema}_${name}` : name;
    let why = null;
    if (!facts) why = `the catalog facts say nothing of ${id} (read before other schemas were: read them again with catalogFacts)`;
    else if (!KEY_TYPES.has(keyType)) why = `its ${keyName} is of type ${keyFacts?.type ?? 'unknown'}, and a ref stands for a uuid, integer or text key`;
    else if (!isIdentifier(domainName) || taken.has(domainName)) why = `'${domainName}' is not a name the domain can give it`;
    if (why) {
      for (const { column } of referencing) column.outsideNote = `references ${id}.${column.outside.column}, in a schema the API does not expose; ${why}`;
      continue;
    }
    taken.add(domainName);
    for (const { column } of referencing) column.references = { table: domainName, column: column.outside.column };
    const columns = facts.columns.map((c) => ({ name: c.name, type: c.kind === 'enum' ? 'text' : domainTypeOf(c.type), notNull: c.notNull === true }));
    out.push({ name: domainName, schema, table: name, key: keyName, columns, referencing: referencing.map(({ table, column }) => `${table.name}.${column.name}`) });
  }
  return out;
}

/**
 * The unexposed tables the functions' uuid arguments name where no table of
 * the domain does: `invitation_id` (or `invitation_ids`, uuid[]) of
 * basejump's delete_invitation names `basejump.invitations`, the one table
 * called invitations (or invitation, invitationes) outside the exposed
 * schema, keyed by a one-column uuid primary key. A name two such tables
 * answer to names neither; a user id's name (user_id, owner_id, …) names
 * none: it holds a user id (auth.users). Only the arguments of functions the pull
 * may offer count (not an extension's, not one the overrides leave out or
 * that is left out for its kind, name or arguments, not a security definer
 * or one the authenticated role may not execute unless they opt it in) and
 * only where the overrides give no `references`.
 * `taken` holds the names the domain already has; the entries are shaped
 * as `unexposedTables` makes them, with `referencing` naming the arguments
 * (`delete_invitation(invitation_id)`) and `byArgument: true`.
 */
export function argumentTables(catalog, taken, overrides = {}) {
  const named = catalog?.namedTables ?? [];
  if (!Array.isArray(catalog?.functions) || named.length === 0) return [];
  const given = isPlainObject(overrides?.functions) ? overrides.functions : {};
  const byName = new Map();
  for (const fn of catalog.functions) {
    const settings = given[fn.name];
    if (fn.extension || settings === null || settings?.expose === false) continue;
    if ((fn.securityDefiner || fn.executable === false) && settings?.expose !== true) continue;
    // A function the pull leaves out whatever the overrides say names no table.
    if (structuralProblem(fn, catalog.functions.filter((f) => f.name === fn.name && !f.extension))) continue;
    for (const arg of fn.args) {
      // A user id is a user's (auth.users), whatever table a schema has of that name (next_auth.users).
      if (!INPUT_MODES.has(arg.mode) || OWNER_NAMES.includes(arg.name)) continue;
      if (settings?.args?.[arg.name]?.references !== undefined) continue;
      const stem = arg.type === 'uuid' ? /^(.+)_id$/.exec(arg.name)?.[1] : arg.type === 'uuid[]' ? /^(.+)_ids$/.exec(arg.name)?.[1] : null;
      if (!stem || pluralsOf(stem).some((name) => taken.has(name))) continue;
      const matches = named.filter((t) => pluralsOf(stem).includes(t.table) && t.key && t.columns.find((c) => c.name === t.key)?.type === 'uuid');
      if (matches.length !== 1 || !isIdentifier(matches[0].table)) continue;
      const [match] = matches;
      const entry = byName.get(match.table) ?? { match, referencing: [] };
      if (entry.match !== match) continue; // another stem named another table of that name
      entry.referencing.push(`${fn.name}(${arg.name})`);
      byName.set(match.table, entry);
    }
  }
  return [...byName.values()].map(({ match, referencing }) => ({
    name: match.table,
    schema: match.schema,
    table: match.table,
    key: match.key,
    columns: match.columns.map((c) => ({ name: c.name, type: c.kind === 'enum' ? 'text' : domainTypeOf(c.type), notNull: c.notNull === true })),
    referencing,
    byArgument: true,
  }));
}

/**
 * The domain's settings of an unexposed table: `"exposed": false`, its key
 * (left out when it is `id`), its label and the columns those need.
 */
export function unexposedTableConfig(unexposed) {
  const facts = unexposed.columns.map((c) => ({ name: c.name, config: c.type ? { type: c.type, ...(c.notNull ? { required: true } : {}) } : null }));
  // Never a secret for a label: a label is what the model reads for the row (basejump's invitations hold a token).
  const labels = labelOf(facts.filter((c) => c.name !== unexposed.key && !holdsSecret(c.name, c.config?.type)));
  const shown = new Set([unexposed.key, ...(labels.label ?? []), ...(labels.label_format ? ['first_name', 'last_name'] : [])]);
  const columns = {};
  for (const column of unexposed.columns) if (shown.has(column.name) && column.type) columns[column.name] = { type: column.type };
  const out = { ref: '', exposed: false };
  if (unexposed.key !== 'id') out.key = unexposed.key;
  return { ...out, ...labels, columns };
}

const singular = (word) => (word.endsWith('ies') ? `${word.slice(0, -3)}y` : word.endsWith('s') ? word.slice(0, -1) : word);

/**
 * The note on an unexposed table: where the model gets its refs. Functions
 * whose JSON results plausibly carry its keys (their name says the table,
 * as get_accounts() does accounts, or ends with one of its rows, as
 * get_account(); or their comment names it), else the rows that reference it.
 */
export function unexposedNote(unexposed, functions) {
  const one = singular(unexposed.table);
  const named = (name) => {
    const words = name.split('_');
    return words.includes(unexposed.table) || words.at(-1) === one;
  };
  const mentions = (fn, name) => named(name) || [unexposed.table, one].some((word) => new RegExp(`\\b${word}\\b`, 'i').test(fn.description ?? ''));
  const handing = Object.entries(functions)
    .filter(([name, fn]) => fn.returns?.type === 'json' && mentions(fn, name))
    .map(([name]) => `${name}()`);
  const source = handing.length > 0
    ? `functions such as ${handing.join(', ')} hand out its refs`
    : unexposed.byArgument
      ? 'no function of the schema says it hands out its refs'
      : `its refs appear when rows that reference it are read (${unexposed.referencing.join(', ')})`;
  const why = unexposed.byArgument
    ? `; it is the table the arguments ${unexposed.referencing.join(', ')} name (no column references it): if they take keys of another table, give that table as their "references" in the overrides`
    : '';
  return {
    path: `tables.${unexposed.name}`,
    message: `not exposed: ${unexposed.schema}.${unexposed.table} is in a schema the API does not serve, so the model never reads or writes it; ${source}${why}`,
  };
}
