// A domain derived from the database itself: PostgREST's OpenAPI description
// (GET on the PostgREST root with Accept: application/openapi+json; PostgREST
// 12 answers Swagger 2.0) gives the tables, column types, NOT NULL columns,
// defaults, enum values and foreign keys. The rules are in docs/own-schema.md.
// Pure: no I/O here except in pullDomain, and no node: imports (it runs in
// every runtime the package supports).
import { restUrl } from './act.js';
import { AlfredError, internalError } from './errors.js';
import { NAME_RULES } from '../dist/core-rules.mjs';

const DEFAULT_NAME = 'database';

// PostgREST's column `format` → the domain's column type.
const SCALAR_TYPES = [
  [/^uuid$/, 'uuid'],
  [/^(text|citext|name|bpchar|character varying(\(\d+\))?|varchar(\(\d+\))?|character(\(\d+\))?|char(\(\d+\))?)$/, 'text'],
  [/^(integer|smallint|bigint|int2|int4|int8)$/, 'integer'],
  [/^(numeric|decimal|real|double precision|float4|float8)(\(\d+(,\s*\d+)?\))?$/, 'numeric'],
  [/^boolean$/, 'boolean'],
  [/^date$/, 'date'],
  [/^timestamp(\(\d\))?( with(out)? time zone)?$/, 'timestamp'],
  [/^jsonb?$/, 'jsonb'],
];
const ARRAY_TYPES = [
  [/^uuid\[\]$/, 'uuid[]'],
  [/^(text|citext|character varying(\(\d+\))?|varchar(\(\d+\))?)\[\]$/, 'text[]'],
];

// Label columns, most telling first (see docs/own-schema.md).
const LABEL_NAMES = ['name', 'title', 'label', 'display_name', 'full_name', 'subject', 'summary', 'email', 'username', 'handle', 'slug', 'code'];
// Set by the database when a row is written; never by the model.
const DATABASE_TIMESTAMPS = new Set(['created_at', 'updated_at', 'inserted_at', 'modified_at']);
// The core's naming rules (generated from it): query-string keys PostgREST
// interprets itself cannot be columns; names are identifiers.
const RESERVED = new Set(NAME_RULES.reservedColumns);
const IDENTIFIER = {
  test: (name) =>
    typeof name === 'string' &&
    name.length > 0 &&
    name.length <= NAME_RULES.identifier.maxLength &&
    NAME_RULES.identifier.first.includes(name[0]) &&
    [...name].every((c) => NAME_RULES.identifier.rest.includes(c)),
};
const GENERATED = NAME_RULES.generatedRefPrefix;

// The order of a domain's keys in the output (the core's parser lists the same).
const DOMAIN_KEYS = ['name', 'owner_column', 'max_rows', 'tables'];
const TABLE_KEYS = ['ref', 'user_owned', 'writable', 'label', 'label_format', 'hidden', 'relations', 'middleware', 'columns'];

const isPlainObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

function pullError(code, path, message, hint = '') {
  return { code, path, message, hint };
}

/** Reads PostgREST's `Note: This is a Foreign Key to `t.c`.<fk table='t' column='c'/>`. */
function foreignKeyOf(description) {
  const match = /<fk table='([^']+)' column='([^']+)'\/>/.exec(description ?? '');
  return match ? { table: match[1], column: match[2] } : null;
}

const isPrimaryKey = (property) => /<pk\/>/.test(property.description ?? '');

function columnTypeOf(property, enumsByFormat) {
  const format = String(property.format ?? '');
  if (Array.isArray(property.enum) && property.enum.every((v) => typeof v === 'string')) return { type: 'text', values: property.enum };
  for (const [pattern, type] of SCALAR_TYPES) if (pattern.test(format)) return { type };
  for (const [pattern, type] of ARRAY_TYPES) if (pattern.test(format)) return { type };
  // An array of a user-defined type that is an enum elsewhere in the schema
  // (`public.contact_channel[]`): PostgREST lists an enum's values only on
  // scalar columns, so they are borrowed from one when there is one.
  const element = format.endsWith('[]') ? format.slice(0, -2) : null;
  if (element && enumsByFormat.has(element)) return { type: 'text[]', values: enumsByFormat.get(element) };
  if (element && /^[a-z_][a-z0-9_]*\.[a-z_][a-z0-9_]*$/.test(element) && property.items?.type === 'string') {
    return { type: 'text[]', note: `'${format}' is an array of a user-defined type whose values PostgREST does not list; add "values" in the overrides if it is an enum` };
  }
  return { type: null };
}

/** singular('categories') = 'category', 'boxes' → 'box', 'status' stays. */
function singular(word) {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && /(sses|xes|ches|shes)$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !/(ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

// Long words shortened to their first syllable-ish: organization → org,
// inventory → inv, preference → pref, shopping → shop.
function abbreviation(word) {
  if (word.length <= 7) return word;
  let end = 3;
  while (end < word.length && /[aeiouy]/.test(word[end - 1])) end += 1;
  return word.slice(0, end);
}

/** Candidate ref prefixes of a table name, best first; none contains `_`. */
function prefixCandidates(table) {
  const words = table.split('_').filter(Boolean);
  const first = singular(words[0]);
  const candidates = words.length === 1 ? [abbreviation(first), first] : [abbreviation(first), words.map((w) => w[0]).join('')];
  return [...new Set(candidates)].filter((c) => IDENTIFIER.test(c) && c !== GENERATED && !c.startsWith(`${GENERATED}_`));
}

/**
 * Unique ref prefixes for `tables` (names): single-word tables choose first,
 * so `recipes` is `recipe` and `recipe_ingredients` becomes `ri`.
 */
export function refPrefixes(tables, taken = new Set()) {
  const out = {};
  const used = new Set(taken);
  const single = tables.filter((t) => !t.includes('_'));
  const multi = tables.filter((t) => t.includes('_'));
  for (const table of [...single, ...multi]) {
    const candidates = prefixCandidates(table);
    let prefix = candidates.find((c) => !used.has(c));
    for (let n = 2; !prefix; n += 1) if (!used.has(`${candidates[0] ?? 't'}${n}`)) prefix = `${candidates[0] ?? 't'}${n}`;
    used.add(prefix);
    out[table] = prefix;
  }
  return out;
}

// The tables and columns of a Swagger 2.0 description, as facts.
function describedTables(spec) {
  const enumsByFormat = new Map();
  for (const definition of Object.values(spec.definitions)) {
    for (const property of Object.values(definition?.properties ?? {})) {
      if (Array.isArray(property?.enum) && property.format) enumsByFormat.set(String(property.format), property.enum);
    }
  }
  const tables = [];
  for (const [name, definition] of Object.entries(spec.definitions)) {
    if (!isPlainObject(definition) || !isPlainObject(definition.properties)) continue;
    const required = new Set(Array.isArray(definition.required) ? definition.required : []);
    const columns = Object.entries(definition.properties).map(([column, property]) => ({
      name: column,
      format: String(property?.format ?? property?.type ?? 'unknown'),
      ...columnTypeOf(property ?? {}, enumsByFormat),
      notNull: required.has(column),
      hasDefault: property.default !== undefined,
      default: property.default,
      primaryKey: isPrimaryKey(property),
      references: foreignKeyOf(property.description),
    }));
    const keys = columns.filter((c) => c.primaryKey);
    // A table's primary key is always NOT NULL; PostgREST describes every
    // column of a view as nullable, even the key it infers for it.
    const isView = keys.length > 0 && keys.every((c) => !c.notNull);
    tables.push({ name, columns, keys, isView });
  }
  return tables.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

const normalizedDefault = (value) => String(value ?? '').replace(/[\s()]/g, '').toLowerCase();

// The owner column: given, or the one uuid column name that defaults to
// auth.uid(), or else the one NOT NULL uuid column name without a described
// foreign key. PostgREST does not describe the auth schema, so a reference to
// auth.users shows only as a uuid column whose foreign key is missing; that
// guess comes with a note.
function ownerColumnOf(tables, given) {
  if (given !== undefined && given !== null) {
    if (typeof given !== 'string' || !IDENTIFIER.test(given)) {
      return { error: pullError('invalid_option', 'owner_column', `owner column must be a lower-case column name, got ${JSON.stringify(given)}`) };
    }
    const holders = tables.filter((t) => t.columns.some((c) => c.name === given && c.type === 'uuid'));
    if (holders.length === 0) {
      return {
        error: pullError('owner_column_not_found', 'owner_column', `no table has a uuid column '${given}'`, `the column that row level security compares with auth.uid(); uuid columns: ${uuidColumnList(tables)}`),
      };
    }
    return { column: given };
  }
  const byName = new Map();
  for (const table of tables) {
    for (const column of table.columns) {
      if (column.type === 'uuid' && !column.primaryKey && normalizedDefault(column.default) === 'auth.uid') {
        byName.set(column.name, [...(byName.get(column.name) ?? []), table.name]);
      }
    }
  }
  const uses = (map) => [...map].map(([column, names]) => `${column} (${names.join(', ')})`).join(' and ');
  if (byName.size === 1) return { column: [...byName.keys()][0] };
  if (byName.size > 1) {
    return { error: pullError('ambiguous_owner_column', 'owner_column', `more than one column defaults to auth.uid(): ${uses(byName)}`, 'name the owner column: --owner-column <name>, or { ownerColumn } / "owner_column" in the overrides') };
  }
  const unlinked = new Map();
  for (const table of tables) {
    for (const column of table.columns) {
      if (column.type === 'uuid' && !column.primaryKey && column.notNull && !column.references) {
        unlinked.set(column.name, [...(unlinked.get(column.name) ?? []), table.name]);
      }
    }
  }
  if (unlinked.size === 1) {
    const [[column, names]] = unlinked;
    const note = {
      path: 'owner_column',
      message: `${column}: the only NOT NULL uuid column without a described foreign key (${names.join(', ')}), taken for a reference to auth.users; pass --owner-column (or { ownerColumn }) if it is not the column row level security compares with auth.uid()`,
    };
    return { column, note };
  }
  if (unlinked.size > 1) {
    return {
      error: pullError(
        'ambiguous_owner_column',
        'owner_column',
        `no uuid column defaults to auth.uid(), and more than one NOT NULL uuid column has no described foreign key (a reference to auth.users is not described): ${uses(unlinked)}`,
        'name the owner column: --owner-column <name>, or { ownerColumn } / "owner_column" in the overrides',
      ),
    };
  }
  return {
    error: pullError(
      'owner_column_not_found',
      'owner_column',
      'no uuid column defaults to auth.uid() or looks like a reference to auth.users (NOT NULL, no described foreign key)',
      `name the column that row level security compares with auth.uid(): --owner-column <name>, or { ownerColumn } / "owner_column" in the overrides (uuid columns: ${uuidColumnList(tables)})`,
    ),
  };
}

function uuidColumnList(tables) {
  const names = new Set();
  for (const table of tables) for (const column of table.columns) if (column.type === 'uuid' && !column.primaryKey) names.add(column.name);
  return [...names].sort().join(', ') || 'none';
}

function labelOf(columns) {
  const text = new Map(columns.filter((c) => c.config?.type === 'text').map((c) => [c.name, c]));
  if (text.has('first_name') && text.has('last_name')) return { label_format: '{first_name} {last_name}', label: ['first_name'] };
  const named = LABEL_NAMES.find((name) => text.has(name));
  if (named) return { label: [named] };
  const requiredText = columns.find((c) => c.config?.type === 'text' && c.config.required);
  return requiredText ? { label: [requiredText.name] } : {};
}

function columnConfig(column, { owner, isView }) {
  if (!column.type) return null;
  const config = { type: column.type };
  const databaseSets = column.primaryKey || column.name === owner || (DATABASE_TIMESTAMPS.has(column.name) && column.hasDefault);
  // PostgREST leaves out defaults that are JSON arrays or objects ('{}' on a
  // text[] or jsonb column), so a NOT NULL array or jsonb column may well have
  // one: it is not required, and a create without it that the database
  // refuses gets the database's error.
  const defaultMayBeHidden = column.type.endsWith('[]') || column.type === 'jsonb';
  if (!isView && column.notNull && !column.hasDefault && !databaseSets && !defaultMayBeHidden) config.required = true;
  if (databaseSets) config.writable = false;
  if (column.notNull && !config.required) config.nullable = false;
  if (column.references && column.name !== owner) config.references = column.references.table;
  if (column.values) config.values = [...column.values];
  return config;
}

/**
 * The domain PostgREST's description implies, before overrides: `{ domain,
 * notes, skipped }` or `{ error }`. `skipped` holds the tables left out and
 * what it would take to include them (views are included when the overrides
 * name them).
 */
// A table refs can point at: a lower-case name and a single uuid primary key named id.
function refable(table) {
  const id = table.columns.find((c) => c.name === 'id');
  return IDENTIFIER.test(table.name) && Boolean(id?.primaryKey) && id.type === 'uuid' && table.keys.length === 1;
}

function derive(spec, { ownerColumn }) {
  const tables = describedTables(spec);
  // Only tables a domain can hold say which column is the owner (a session or
  // log table keyed otherwise, skipped below, must not decide it).
  const owner = ownerColumnOf(tables.filter(refable), ownerColumn);
  if (owner.error) return { error: owner.error };
  const notes = owner.note ? [owner.note] : [];
  const skipped = new Map();
  const included = [];
  for (const table of tables) {
    const path = `tables.${table.name}`;
    const id = table.columns.find((c) => c.name === 'id');
    if (!IDENTIFIER.test(table.name)) {
      skipped.set(table.name, { reason: 'name', message: `'${table.name}' is not a lower-case identifier, which refs and the domain need` });
    } else if (!id || !id.primaryKey || id.type !== 'uuid' || table.keys.length !== 1) {
      const key = table.keys.map((c) => `${c.name} ${c.format}`).join(', ') || 'none';
      skipped.set(table.name, { reason: 'key', message: `its primary key (${key}) is not a single uuid column named id, which refs need` });
    } else if (table.isView) {
      skipped.set(table.name, { reason: 'view', message: 'a view: name it in the overrides ("tables": { "' + table.name + '": {} }) to include it, read-only unless "writable" says otherwise' });
    } else {
      included.push(table);
    }
    if (skipped.has(table.name)) notes.push({ path, message: `skipped: ${skipped.get(table.name).message}` });
  }
  return { tables, included, skipped, owner: owner.column, notes };
}

function buildTable(table, owner) {
  const userOwned = table.columns.some((c) => c.name === owner && c.type === 'uuid');
  const columns = {};
  const facts = [];
  for (const column of table.columns) {
    const config = columnConfig(column, { owner, isView: table.isView });
    columns[column.name] = config ?? { type: null };
    facts.push({ name: column.name, config });
  }
  // Tables without the owner column are shared by every user: read-only
  // catalogs unless the overrides make them writable.
  const out = { ref: '', user_owned: userOwned, writable: userOwned && !table.isView };
  Object.assign(out, labelOf(facts));
  out.columns = columns;
  return out;
}

function relationsOf(domainTables) {
  // One-to-many embeds where the child cannot exist without the parent: a
  // required foreign key, the only one from that child to that parent.
  const relations = {};
  for (const [child, spec] of Object.entries(domainTables)) {
    const byTarget = new Map();
    for (const column of Object.values(spec.columns)) {
      if (column?.type === 'uuid' && column.references) byTarget.set(column.references, [...(byTarget.get(column.references) ?? []), column]);
    }
    for (const [parent, columns] of byTarget) {
      if (parent === child || columns.length !== 1 || !columns[0].required || !domainTables[parent]) continue;
      // A parent column named like the child table would be the same key of a row.
      if (Object.hasOwn(domainTables[parent].columns, child)) continue;
      relations[parent] = { ...relations[parent], [child]: child };
    }
  }
  return relations;
}

// Overrides: plain objects merge key by key, arrays and scalars replace, and
// null removes (a table, a column, a setting).
function deepMerge(base, over) {
  if (!isPlainObject(base) || !isPlainObject(over)) return structuredClone(over);
  const out = { ...base };
  for (const [key, value] of Object.entries(over)) {
    if (value === null) delete out[key];
    else out[key] = key in base ? deepMerge(base[key], value) : structuredClone(value);
  }
  return out;
}

// Overrides name tables and columns the database has: a misspelt name would
// otherwise add a table the database lacks. Misspelt settings are the core
// parser's to refuse (core.validateDomain), with the same path.
function checkOverrideNames(overrides, described) {
  if (!isPlainObject(overrides)) {
    return pullError('invalid_overrides', '', 'overrides must be a JSON object', '{ "tables": { "<table>": { "columns": { "<column>": { "values": ["a", "b"] } } } } }');
  }
  if (overrides.tables === undefined || overrides.tables === null) return null;
  if (!isPlainObject(overrides.tables)) return pullError('invalid_overrides', 'tables', 'must be an object of table name → settings');
  for (const [table, spec] of Object.entries(overrides.tables)) {
    const path = `tables.${table}`;
    const facts = described.get(table);
    if (!facts) {
      return pullError('invalid_overrides', path, `'${table}' is not a table or view in the database description`, `tables: ${[...described.keys()].join(', ')}`);
    }
    if (spec === null) continue;
    if (!isPlainObject(spec)) return pullError('invalid_overrides', path, 'must be an object of table settings, or null to leave the table out');
    if (spec.columns === undefined || spec.columns === null) continue;
    if (!isPlainObject(spec.columns)) return pullError('invalid_overrides', `${path}.columns`, 'must be an object of column name → settings');
    for (const [column, settings] of Object.entries(spec.columns)) {
      const columnPath = `${path}.columns.${column}`;
      if (!facts.columns.some((c) => c.name === column)) {
        return pullError('invalid_overrides', columnPath, `${table} has no column '${column}' in the database`, `columns: ${facts.columns.map((c) => c.name).join(', ')}`);
      }
      if (settings !== null && !isPlainObject(settings)) {
        return pullError('invalid_overrides', columnPath, 'must be an object of column settings, or null to leave the column out');
      }
    }
  }
  return null;
}

// After the overrides: columns the model must not see (unsupported types,
// uuid columns that point nowhere it knows, names PostgREST reserves) move
// to `hidden`, each with a note unless the overrides hid it themselves.
function finalizeColumns(domain, described, notes) {
  const owner = domain.owner_column;
  for (const [table, spec] of Object.entries(domain.tables)) {
    const facts = described.get(table);
    const hidden = new Set(Array.isArray(spec.hidden) ? spec.hidden : []);
    const columns = {};
    for (const [column, config] of Object.entries(spec.columns ?? {})) {
      const path = `tables.${table}.columns.${column}`;
      const fact = facts?.columns.find((c) => c.name === column);
      let why = null;
      if (hidden.has(column)) why = '';
      else if (!IDENTIFIER.test(column) || RESERVED.has(column)) why = `'${column}' is not a column name the model can use (reserved by PostgREST or not a lower-case identifier)`;
      else if (!config?.type) why = `type '${fact?.format ?? 'unknown'}' is not one the model can read or write${fact?.format && /vector/.test(fact.format) ? ' (an embedding)' : ''}`;
      else if ((config.type === 'uuid' || config.type === 'uuid[]') && column !== 'id' && column !== owner) {
        if (!config.references) {
          why = fact?.references
            ? `references ${fact.references.table}.${fact.references.column}, which is not a table of this domain`
            : 'a uuid column without a foreign key: add "references": "<table>" in the overrides to use it';
        } else if (!domain.tables[config.references]) {
          why = `references ${config.references}, which is not a table of this domain`;
        }
      }
      if (why === null) {
        columns[column] = config;
        continue;
      }
      hidden.add(column);
      if (why) notes.push({ path, message: `hidden: ${why}` });
    }
    for (const fact of facts?.columns ?? []) {
      if (fact.note && columns[fact.name] && !columns[fact.name].values) notes.push({ path: `tables.${table}.columns.${fact.name}`, message: fact.note });
    }
    spec.columns = columns;
    if (hidden.size > 0) spec.hidden = [...hidden];
    else delete spec.hidden;
    if (Array.isArray(spec.label)) spec.label = spec.label.filter((name) => columns[name]);
    if (Array.isArray(spec.label) && spec.label.length === 0) delete spec.label;
  }
}

// Key order of the output: the settings first, columns last, so a pulled
// file reads like a hand-written one. Keys the list lacks stay (after the
// known ones) for the core's parser to refuse.
function inOrder(object, keys) {
  const out = {};
  for (const key of keys) if (object[key] !== undefined) out[key] = object[key];
  for (const key of Object.keys(object)) if (!(key in out)) out[key] = object[key];
  return out;
}

function ordered(domain) {
  const tables = {};
  for (const [name, spec] of Object.entries(domain.tables)) tables[name] = isPlainObject(spec) ? inOrder(spec, TABLE_KEYS) : spec;
  return inOrder({ ...domain, tables }, DOMAIN_KEYS);
}

/**
 * The domain a PostgREST OpenAPI description implies, with `overrides` merged
 * on top, not yet validated by the core: `{ data: domain, error, notes }`.
 * `notes` lists what was left out or needs a human (`{ path, message }`).
 * Use `core.domainFromOpenApi` (or the package's `domainFromOpenApi`), which
 * also runs the core's domain parser.
 */
export function deriveDomain(spec, overrides = {}, { ownerColumn, name } = {}) {
  let description = spec;
  if (typeof description === 'string') {
    try {
      description = JSON.parse(description);
    } catch (cause) {
      return { data: null, error: pullError('invalid_openapi', '', `the description is not JSON: ${cause.message}`, openApiHint), notes: [] };
    }
  }
  if (!isPlainObject(description) || description.swagger !== '2.0' || !isPlainObject(description.definitions)) {
    return { data: null, error: pullError('invalid_openapi', '', 'expected PostgREST\'s Swagger 2.0 description (swagger: "2.0" with definitions)', openApiHint), notes: [] };
  }
  overrides ??= {};
  if (typeof overrides === 'string') {
    try {
      overrides = JSON.parse(overrides);
    } catch (cause) {
      return { data: null, error: pullError('invalid_overrides', '', `overrides are not JSON: ${cause.message}`), notes: [] };
    }
  }
  const derived = derive(description, { ownerColumn: ownerColumn ?? (isPlainObject(overrides) ? overrides.owner_column : undefined) });
  if (derived.error) return { data: null, error: derived.error, notes: [] };
  const described = new Map(derived.tables.map((t) => [t.name, t]));
  const overrideError = checkOverrideNames(overrides, described);
  if (overrideError) return { data: null, error: overrideError, notes: derived.notes };

  const notes = [...derived.notes];
  const named = isPlainObject(overrides.tables) ? overrides.tables : {};
  const chosen = derived.tables.filter((t) => {
    const skip = derived.skipped.get(t.name);
    if (!skip) return named[t.name] !== null;
    if (named[t.name] === undefined || named[t.name] === null) return false;
    if (skip.reason !== 'view') return false;
    return true;
  });
  for (const [table, spec] of Object.entries(named)) {
    const skip = derived.skipped.get(table);
    if (spec !== null && skip && skip.reason !== 'view') {
      return { data: null, error: pullError('invalid_overrides', `tables.${table}`, `${table} cannot be part of a domain: ${skip.message}`, 'leave it out of the overrides; the model reaches it through a view with a uuid id, or not at all'), notes };
    }
  }
  const tables = {};
  for (const table of chosen) tables[table.name] = buildTable(table, derived.owner);
  const prefixes = refPrefixes(Object.keys(tables));
  for (const [table, prefix] of Object.entries(prefixes)) tables[table].ref = prefix;
  // Relations are derived before the overrides, from the facts.
  const relations = relationsOf(tables);
  for (const [parent, children] of Object.entries(relations)) tables[parent].relations = children;

  const base = { name: DEFAULT_NAME, owner_column: derived.owner, tables };
  const { owner_column: _ignored, ...rest } = overrides;
  const merged = deepMerge(base, rest);
  merged.owner_column = derived.owner;
  if (name !== undefined) merged.name = name;
  // A ref prefix changed by the overrides may now be used twice: derived
  // prefixes yield to the ones the overrides chose.
  const chosenPrefixes = new Set(Object.entries(named).filter(([, s]) => s?.ref).map(([, s]) => s.ref));
  const clashing = Object.keys(merged.tables).filter((t) => !named[t]?.ref && chosenPrefixes.has(merged.tables[t].ref));
  if (clashing.length > 0) {
    const renamed = refPrefixes(clashing, new Set(Object.values(merged.tables).map((t) => t.ref)));
    for (const table of clashing) merged.tables[table].ref = renamed[table];
  }
  finalizeColumns(merged, described, notes);
  for (const [parent, spec] of Object.entries(merged.tables)) {
    if (!isPlainObject(spec.relations)) continue;
    for (const [relation, child] of Object.entries(spec.relations)) if (!merged.tables[child]) delete spec.relations[relation];
    if (Object.keys(spec.relations).length === 0) delete merged.tables[parent].relations;
  }
  return { data: ordered(merged), error: null, notes };
}

const openApiHint =
  'GET the PostgREST root with the header Accept: application/openapi+json (a Supabase project: https://<ref>.supabase.co/rest/v1/)';

/**
 * `deriveDomain` followed by the core's domain parser: `{ data, error, notes }`.
 * An error from the parser keeps its `path` into the domain and gets a hint
 * on which override fixes it.
 */
export function domainFromOpenApiWith(core, spec, overrides, options) {
  const derived = deriveDomain(spec, overrides, options);
  if (derived.error) return derived;
  const { error } = core.validateDomain(derived.data);
  if (error) {
    return {
      data: null,
      error: { ...error, hint: `${error.hint ? `${error.hint}; ` : ''}fix it in the overrides at "${error.path}"` },
      notes: derived.notes,
    };
  }
  return derived;
}

/**
 * Fetches PostgREST's description of the database at `url` (a Supabase
 * project URL or a PostgREST root) and resolves to the JSON, or throws
 * AlfredError (`network_error`, `http_error`, `invalid_openapi`).
 */
export async function fetchOpenApi({ url, apiKey = '', accessToken = '', fetch: fetchImpl = globalThis.fetch }) {
  const root = `${restUrl(url)}/`;
  // The key goes as apikey only: Supabase's secret keys are not JWTs, and its
  // gateway takes the apikey as the bearer when there is no user token.
  const headers = { accept: 'application/openapi+json' };
  if (apiKey) headers.apikey = apiKey;
  if (accessToken) headers.authorization = `Bearer ${accessToken}`;
  let response;
  try {
    response = await fetchImpl(root, { headers });
  } catch (cause) {
    throw new AlfredError({ code: 'network_error', path: 'url', message: `GET ${root} failed: ${cause?.message ?? cause}`, hint: 'is the URL right and the server up?' });
  }
  const text = await response.text();
  if (!response.ok) {
    throw new AlfredError({
      code: 'http_error',
      path: 'url',
      message: `GET ${root} answered HTTP ${response.status}: ${text.slice(0, 200)}`,
      hint:
        response.status === 401 || response.status === 403
          ? 'hosted Supabase serves the schema description only for a secret (service-role) key: pass it as the key for this one request (it is not stored, and the Act never uses it)'
          : openApiHint,
    });
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new AlfredError({ code: 'invalid_openapi', path: 'url', message: `GET ${root} did not answer JSON: ${text.slice(0, 200)}`, hint: openApiHint });
  }
}

/**
 * The package-level `domainFromOpenApi` and `pullDomain` of a runtime entry:
 * like `createAct`, they load the core on first use unless `options.core` is
 * given, and never throw (`{ data, error, notes }`).
 */
export function createDomainPull(loadCore) {
  const coreOf = async (options) => options?.core ?? loadCore(options);
  const failed = (cause) => ({ data: null, error: cause instanceof AlfredError ? cause.toJSON() : internalError(cause), notes: [] });

  /**
   * Derives a domain from PostgREST's OpenAPI description (a parsed object or
   * JSON text), merges `overrides` and validates it with the core:
   * `{ data: domain, error, notes }`. Options: `ownerColumn`, `name`, `core`.
   *
   * @example
   * import { domainFromOpenApi, createAct } from 'alfred-act'
   * const spec = await (await fetch(`${url}/rest/v1/`, { headers: { apikey, accept: 'application/openapi+json' } })).json()
   * const { data: domain, error, notes } = await domainFromOpenApi(spec, { tables: { deals: { label: ['title'] } } })
   * if (error) throw new Error(`${error.path}: ${error.message} (${error.hint})`)
   * const act = createAct({ url, apiKey, accessToken, userId, domain })
   */
  async function domainFromOpenApi(spec, overrides, options = {}) {
    try {
      return domainFromOpenApiWith(await coreOf(options), spec, overrides, options);
    } catch (cause) {
      return failed(cause);
    }
  }

  /**
   * Fetches the description from a live database and derives its domain:
   * `{ data: domain, error, notes, spec }`. Options: `url` (a Supabase project
   * URL or a PostgREST root), `apiKey`, `accessToken`, `ownerColumn`, `name`,
   * `overrides`, `fetch`, `core`.
   *
   * @example
   * const { data: domain, error, notes } = await pullDomain({ url: SUPABASE_URL, apiKey: anonKey, accessToken: jwt, ownerColumn: 'owner_id' })
   */
  async function pullDomain({ overrides, ...options } = {}) {
    try {
      const spec = await fetchOpenApi(options);
      return { ...domainFromOpenApiWith(await coreOf(options), spec, overrides, options), spec };
    } catch (cause) {
      return failed(cause);
    }
  }

  return { domainFromOpenApi, pullDomain };
}

function inlineJson(value) {
  if (Array.isArray(value)) return `[${value.map(inlineJson).join(', ')}]`;
  if (isPlainObject(value)) {
    const entries = Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}: ${inlineJson(item)}`);
    return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`;
  }
  return JSON.stringify(value);
}

/**
 * A domain as JSON text laid out like a hand-written file: one line per
 * column or setting where it fits in 120 characters.
 *
 * @example
 * writeFileSync('domain.json', formatDomain(domain))
 */
export function formatDomain(value, indent = '') {
  const inline = inlineJson(value);
  if (indent.length + inline.length <= 120 || !(Array.isArray(value) || isPlainObject(value))) return inline;
  const inner = `${indent}  `;
  if (Array.isArray(value)) return `[\n${value.map((item) => inner + formatDomain(item, inner)).join(',\n')}\n${indent}]`;
  const entries = Object.entries(value).map(([key, item]) => `${inner}${JSON.stringify(key)}: ${formatDomain(item, inner)}`);
  return `{\n${entries.join(',\n')}\n${indent}}`;
}
