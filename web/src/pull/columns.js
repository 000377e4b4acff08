// The columns of a pulled table: each column's settings from its facts and
// the table's key and owner, the embeds foreign keys make, and, after the
// overrides, what must stay hidden from the model (its values would leak or
// mean nothing to it).
import { NAME_RULES } from '../../dist/core-rules.mjs';
import { usableColumnName } from './names.js';
import { takesCreates } from '../core/domains.js';

/** How a domain writes a column holding a user id (the core's kUsersReference). */
export const USERS = NAME_RULES.usersReference;
// Set by the database when a row is written; never by the model.
const DATABASE_TIMESTAMPS = new Set(['created_at', 'updated_at', 'inserted_at', 'modified_at']);
// Names of columns that hold secrets, as a word of the name (openai_api_key,
// refresh_token, password_hash, an integration's credentials, often JSON of
// OAuth tokens); `tokens` alone is a count (prompt_tokens).
const SECRET_NAME = /(?:^|_)(?:api_?keys?|apikeys?|secrets?|token|passwords?|private_keys?|credentials?)(?:_|$)/;
// Types whose values are no secret, whatever the column is called (token_count).
const PLAIN_TYPES = new Set(['integer', 'numeric', 'boolean', 'date', 'timestamp']);

/**
 * Whether a column's name says it holds a secret (an API key, a token, a
 * password) and its type could hold one.
 *
 * @example
 * holdsSecret('openai_api_key', 'text') // true
 * holdsSecret('prompt_tokens', 'integer') // false
 */
export const holdsSecret = (name, type) => SECRET_NAME.test(name) && !PLAIN_TYPES.has(type);

// The target of a column's foreign key in the domain, or null: a user id
// points at the table keyed by user ids (else it is "auth.users"); an owner
// column is a user id unless it references such a table; a one-column key
// has refs of its own table, and names the table whose key it also is (a
// one-to-one table's key, which a create takes as that row's ref).
function referenceOf(column, plan, usersTables, usersTable) {
  if (plan.key.length === 1 && plan.key[0] === column.name) return keyParent(column, plan, usersTables);
  const owner = plan.decision?.owner;
  if (column.usersReference) return usersTable ?? (column.name === owner ? null : USERS);
  if (column.name === owner) return usersTables.has(column.references?.table) ? column.references.table : null;
  return column.references?.table ?? null;
}

// The table whose key a one-column key also is (a one-to-one table's:
// details, settings), when the model can name that row: a foreign key to
// another table, not to a user, not the owner. Null otherwise.
function keyParent(column, plan, usersTables) {
  if (plan.key.length !== 1 || plan.key[0] !== column.name) return null;
  const parent = column.references?.table;
  if (!parent || column.usersReference || parent === plan.table.name || usersTables.has(parent)) return null;
  return column.name === plan.decision?.owner ? null : parent;
}

// Whether column privileges grant updates of the table column by column and
// this column among them: the app sets it on purpose (an updated_at its
// client writes), whatever its name says.
function grantedByName(table, column) {
  const grants = Object.values(table.catalog?.columnGrants ?? {});
  return grants.some((g) => !g.update) && table.catalog.privileges?.update !== false && column.grants?.update !== false;
}

/**
 * A column's settings from its facts and its table's plan (key, owner), or
 * null for a type the model cannot read or write (hidden later).
 */
export function columnConfig(column, plan, usersTables, usersTable) {
  if (!column.type) return null;
  const config = { type: column.type };
  // A one-to-one table's key is the model's to give (its parent's ref), not one the database assigns.
  const assigned = plan.assigned.has(column.name) && !keyParent(column, plan, usersTables);
  const databaseSets = assigned || column.name === plan.decision?.owner || (DATABASE_TIMESTAMPS.has(column.name) && column.hasDefault && !grantedByName(plan.table, column));
  // PostgREST leaves out defaults that are JSON arrays or objects ('{}' on a
  // text[] or jsonb column), so without the catalog a NOT NULL array or jsonb
  // column may well have one: it is not required, and a create without it
  // that the database refuses gets the database's error.
  const defaultMayBeHidden = !column.defaultKnown && (column.type.endsWith('[]') || column.type === 'jsonb');
  if (!plan.table.isView && column.notNull && !column.hasDefault && !databaseSets && !defaultMayBeHidden) config.required = true;
  if (databaseSets) config.writable = false;
  else if (column.grants) {
    const writes = grantedWrites(column.grants, plan.table.catalog?.privileges);
    if (writes !== undefined) config.writable = writes;
  }
  if (column.notNull && !config.required) config.nullable = false;
  const references = referenceOf(column, plan, usersTables, usersTable);
  if (references) config.references = references;
  if (column.values) config.values = [...column.values];
  return config;
}

// The writes that may set a column under its privileges and its table's:
// false, ["create"], ["update"], or undefined where the column's privileges
// take away nothing the table gives (a table that takes no update, say).
function grantedWrites(grants, privileges) {
  const tableCreates = privileges?.insert !== false;
  const tableUpdates = privileges?.update !== false;
  const creates = tableCreates && grants.insert;
  const updates = tableUpdates && grants.update;
  if (!creates && !updates) return tableCreates || tableUpdates ? false : undefined;
  if (creates && (updates || !tableUpdates)) return undefined;
  if (updates && !tableCreates) return undefined;
  return creates ? ['create'] : ['update'];
}

/**
 * What a pulled column's privileges mean for the model, as a note's message,
 * or null: columns it gives on a new row and never changes, or the other
 * way round, and creates it cannot make when they keep it from giving a
 * column every create needs.
 */
export function grantsNote(column, config, privileges) {
  if (!column.grants || !config) return null;
  if (config.required && !column.grants.insert && privileges?.insert !== false) return 'column privileges keep users from giving it on a new row, and every create needs it (NOT NULL without a default)';
  if (!Array.isArray(config.writable)) return null;
  return config.writable[0] === 'create' ? 'set on create only: column privileges let users give it on a new row, not change it' : 'not on create: column privileges let users change it, not give it on a new row';
}

/**
 * One-to-many embeds where the child cannot exist without the parent: a
 * required foreign key, the only one from that child to that parent.
 */
export function relationsOf(domainTables) {
  const relations = {};
  for (const [child, spec] of Object.entries(domainTables)) {
    // A write-only table's rows are never read, embedded or not.
    if (spec.readable === false) continue;
    const byTarget = new Map();
    for (const column of Object.values(spec.columns)) {
      if (column?.references && column.references !== USERS && !column.type?.endsWith('[]')) byTarget.set(column.references, [...(byTarget.get(column.references) ?? []), column]);
    }
    for (const [parent, columns] of byTarget) {
      if (parent === child || columns.length !== 1 || !columns[0].required || !domainTables[parent]) continue;
      // PostgREST embeds only what it serves.
      if (domainTables[parent].exposed === false) continue;
      // A parent column named like the child table would be the same key of a row.
      if (Object.hasOwn(domainTables[parent].columns, child)) continue;
      relations[parent] = { ...relations[parent], [child]: child };
    }
  }
  return relations;
}

// Why a column the merge kept cannot reach the model, or null when it can:
// unsupported types, names PostgREST reserves, uuid columns that point
// nowhere the domain knows (their values would leak).
function hiddenBecause(column, config, fact, spec, domain, hasCatalog) {
  if (!usableColumnName(column)) return `'${column}' is not a column name the model can use (reserved by PostgREST or not a lower-case identifier)`;
  // PostgreSQL refuses a whole read that names a column the role may not read.
  if (fact?.grants?.select === false && spec.readable !== false) return 'column privileges keep signed-in users from reading it (no SELECT on the column)';
  if (!config?.type) return `type '${fact?.format ?? 'unknown'}' is not one the model can read or write${fact?.format && /vector/.test(fact.format) ? ' (an embedding)' : ''}`;
  const isUuid = config.type === 'uuid' || config.type === 'uuid[]';
  const key = spec.key === undefined ? (spec.columns.id ? ['id'] : []) : [spec.key].flat();
  if (!isUuid || (key.length === 1 && key[0] === column) || column === spec.owner || config.references === USERS) return null;
  if (!config.references) {
    if (fact?.outsideNote) return fact.outsideNote;
    if (fact?.references) return `references ${fact.references.table}.${fact.references.column}, which is not a table of this domain`;
    return hasCatalog
      ? 'a uuid column without a foreign key: add "references": "<table>" (or "auth.users" for a user id) in the overrides to use it'
      : 'a uuid column without a described foreign key (PostgREST does not describe references to auth.users): add "references": "<table>", or "auth.users" for a user id, in the overrides, or pull with the catalog (--db-url, or the catalog option of pullDomain)';
  }
  if (!domain.tables[config.references]) return `references ${config.references}, which is not a table of this domain`;
  return null;
}

// A reference must hold the target's one-column key; one to another column
// (a unique username) is not a ref. Returns the note, or null.
function wrongTarget(config, fact, domain) {
  if (!config?.references || config.references === USERS || !fact?.references || fact.references.table !== config.references) return null;
  const target = domain.tables[config.references];
  if (!target) return null;
  const key = target.key === undefined ? (target.columns?.id ? ['id'] : []) : [target.key].flat();
  if (key.length === 1 && key[0] === fact.references.column) return null;
  return `references ${fact.references.table}.${fact.references.column}, which is not the one-column key of ${fact.references.table}`;
}

// A one-column key that names a parent the domain lacks, or names it by
// another column than its key, is its own table's key again (drawn by the
// package, as before the pull took it for a one-to-one table's).
function keyWithoutParent(config, fact, misdirected, domain) {
  if (!config?.references || (!misdirected && domain.tables[config.references])) return;
  delete config.references;
  delete config.required;
  config.writable = false;
  if (fact?.notNull) config.nullable = false;
}

// A table whose creates all need a column the model cannot give takes none,
// unless a trigger runs before each insert (it may fill the column in): a
// create would only reach the database to be refused. `files` are required
// references to storage.objects: a file's row is made by an upload to
// Supabase Storage, so a create could only point a second row at a file
// another row already has (chatgpt-your-files' documents, made by a trigger
// on upload).
function dropCreates(table, spec, { blockers, files }, facts, notes) {
  const needed = (columns) => `${columns.join(' and ')} (NOT NULL without a default)`;
  const parts = [];
  if (blockers.length > 0) parts.push(`${needed(blockers)}, which the model cannot give`);
  if (files.length > 0) parts.push(`${needed(files)}, a file of storage.objects, which an upload to Supabase Storage makes, not the model`);
  const needs = `every create needs ${parts.join(', and ')}`;
  if (facts?.catalog?.triggers?.beforeInsert) {
    notes.push({ path: `tables.${table}.writable`, message: `${needs}, unless the table's BEFORE INSERT trigger fills ${blockers.length + files.length > 1 ? 'them' : 'it'} in: creates kept; say "writable" without "create" in the overrides if it does not` });
    return;
  }
  const writes = (Array.isArray(spec.writable) ? spec.writable : ['create', 'update', 'delete']).filter((write) => write !== 'create');
  spec.writable = writes.length > 0 ? writes : false;
  notes.push({ path: `tables.${table}.writable`, message: `no creates: ${needs}; a function of the app may make its rows ("writable" in the overrides wins)` });
}

// A column that holds a Supabase Storage file's key.
const isStorageFile = (fact) => fact?.outside?.schema === 'storage' && fact.outside.table === 'objects';

// A hidden column's note, and whether it keeps every create from succeeding.
// A create needs a NOT NULL column without a default, and the model cannot
// give a hidden one: the app may (createAct's context), unless it is of a
// type no JSON value is (bytea), users may not insert it, or it is a secret
// (a row's own API key is no value an app fixes for every write).
function hiddenNote(why, column, config, fact, spec, { keyColumns, isView, secret }) {
  // PostgREST leaves out an array's '{}' default (columnConfig): without the catalog an array may have one.
  const untyped = Boolean(!config?.type && fact?.notNull && !fact.hasDefault && !isView && (fact.defaultKnown || !/\[\]$/.test(fact.format ?? '')));
  const needed = (config?.required === true || untyped) && takesCreates(spec) && !keyColumns.includes(column) && column !== spec.owner;
  // Nor may the app give one column privileges keep from users.
  const blocks = needed && (untyped || secret || fact?.grants?.insert === false);
  const consequence = blocks ? '' : ' and the model cannot give it, so the database refuses the creates the model makes';
  return { blocks, message: `hidden: ${why}${needed ? `; every create needs it (NOT NULL without a default)${consequence}` : ''}` };
}

// After the overrides: columns the model must not see move to `hidden`, each
// with a note unless the overrides hid it themselves; a reference that is not
// to a key, or to a table the domain lacks, is dropped (text, integer) or
// hidden (uuid); a column named like a secret is hidden unless the overrides
// give the table's `hidden` themselves; a table whose key lost a column is
// read-only without one. A column's "writable" has a table's shape, so
// takesCreates reads both.
export function finalizeColumns(domain, described, notes, { hasCatalog, hiddenGiven = () => false, writableGiven = () => false }) {
  for (const [table, spec] of Object.entries(domain.tables)) {
    const facts = described.get(table);
    const hidden = new Set(Array.isArray(spec.hidden) ? spec.hidden : []);
    const secretsShown = hiddenGiven(table);
    const keyColumns = spec.key === undefined ? ['id'] : [spec.key].flat();
    const columns = {};
    const blockers = []; // the columns every create needs that the model cannot give
    const files = []; // the columns every create needs that only an upload gives
    for (const [column, config] of Object.entries(spec.columns ?? {})) {
      const path = `tables.${table}.columns.${column}`;
      const fact = facts?.columns.find((c) => c.name === column);
      const misdirected = wrongTarget(config, fact, domain);
      if (misdirected && config.type !== 'uuid' && config.type !== 'uuid[]') {
        delete config.references;
        notes.push({ path, message: `a plain ${config.type}: it ${misdirected}` });
      }
      // A derived reference to a table the overrides removed (an override's own is the core's to check).
      const gone = config?.references && config.references === fact?.references?.table && !domain.tables[config.references];
      if (gone && config.type !== 'uuid' && config.type !== 'uuid[]') {
        notes.push({ path, message: `a plain ${config.type}: it references ${config.references}, which is not a table of this domain` });
        delete config.references;
      }
      if (keyColumns.length === 1 && keyColumns[0] === column) keyWithoutParent(config, fact, misdirected, domain);
      // A key or a reference reaches the model as a ref, never as its value.
      const isRef = keyColumns.includes(column) || Boolean(config?.references);
      const secret = !secretsShown && !hidden.has(column) && !isRef && holdsSecret(column, config?.type)
        ? 'its name says it holds a secret (an API key, a token or a password), which the model must not read; to show it, give the table\'s "hidden" in the overrides (without it, or [])'
        : null;
      const why = hidden.has(column) ? '' : (secret ?? (misdirected && config.references ? misdirected : hiddenBecause(column, config, fact, spec, domain, hasCatalog)));
      if (why === null) {
        // Required implies NOT NULL (the core's default); an override that
        // made a NOT NULL column required leaves nothing to say.
        if (config.required === true && config.nullable === false) delete config.nullable;
        columns[column] = config;
        if (config.required === true && takesCreates(spec)) {
          if (!takesCreates(config)) blockers.push(column);
          // A link table's file (part of its key) is linked, not made: creates kept.
          else if (isStorageFile(fact) && !keyColumns.includes(column)) files.push(column);
        }
        continue;
      }
      hidden.add(column);
      const { blocks, message } = hiddenNote(why, column, config, fact, spec, { keyColumns, isView: facts?.isView, secret: why === secret });
      if (blocks) blockers.push(column);
      if (why) notes.push({ path, message });
    }
    for (const fact of facts?.columns ?? []) {
      if (fact.note && columns[fact.name] && !columns[fact.name].values) notes.push({ path: `tables.${table}.columns.${fact.name}`, message: fact.note });
    }
    spec.columns = columns;
    if (blockers.length + files.length > 0 && !writableGiven(table)) dropCreates(table, spec, { blockers, files }, facts, notes);
    if (hidden.size > 0) spec.hidden = [...hidden];
    else delete spec.hidden;
    if (Array.isArray(spec.label)) spec.label = spec.label.filter((name) => columns[name]);
    if (Array.isArray(spec.label) && spec.label.length === 0) delete spec.label;
    keyShown(table, spec, facts, notes);
  }
  dropEmptyTables(domain, notes);
}

// A table or view whose every column is hidden (a view of a UNION of uuid
// columns that point nowhere) has nothing to show: left out, with a note,
// where no column of another table references it (one that does keeps it,
// and the core then names the problem).
function dropEmptyTables(domain, notes) {
  const referenced = new Set(Object.values(domain.tables).flatMap((spec) => Object.values(spec.columns ?? {}).map((config) => config?.references)));
  for (const [table, spec] of Object.entries(domain.tables)) {
    if (Object.keys(spec.columns ?? {}).length > 0 || referenced.has(table)) continue;
    notes.push({ path: `tables.${table}`, message: 'left out: every column is hidden (see their notes), so it has nothing to show' });
    delete domain.tables[table];
  }
}

// A default that draws a random uuid.
const DRAWN_UUID = /^(?:extensions\.|public\.)?(?:gen_random_uuid|uuid_generate_v4|uuid_generate_v7)\(\)$/;

// Whether a unique index (no expression, no WHERE) is on exactly `names`.
const uniqueOn = (facts, names) =>
  (facts?.catalog?.uniques ?? []).some((u) => !u.expressions && !u.partial && u.columns.length === names.length && names.every((name) => u.columns.includes(name)));

// A table's key once its columns are final: a key column the model cannot
// see leaves the table keyless and read-only, except a uuid the database
// draws beside columns a unique index holds to one row (a membership table's
// user_id, team_id beside its id), which are then the key.
function keyShown(table, spec, facts, notes) {
  const key = spec.key === undefined ? (facts?.columns.some((c) => c.name === 'id') ? ['id'] : []) : [spec.key].flat();
  const lost = key.filter((name) => !spec.columns[name]);
  const surrogate = lost.length === 1 && key.length > 2 ? facts?.columns.find((c) => c.name === lost[0]) : null;
  const others = key.filter((name) => name !== surrogate?.name);
  const drawn = surrogate?.type === 'uuid' && !surrogate.references && DRAWN_UUID.test(String(surrogate.default ?? ''));
  if (drawn && uniqueOn(facts, others)) {
    spec.key = others;
    notes.push({ path: `tables.${table}.key`, message: `${others.join(', ')}: unique, and the rest of its primary key, ${surrogate.name}, is a uuid the database draws, which the model cannot see` });
  } else if (lost.length > 0) {
    spec.key = [];
    spec.writable = false;
    notes.push({ path: `tables.${table}.key`, message: `read-only: its key column${lost.length > 1 ? 's' : ''} ${lost.join(', ')} cannot be shown (see ${lost.length > 1 ? 'their notes' : 'its note'})` });
  }
}
