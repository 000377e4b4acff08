// TypeScript types of one domain (`alfred-act domain pull --types FILE`), in
// the shape index.d.ts calls `DomainTypes`: per table the row a read returns,
// what each filter's value takes, and the rows a create and an update take;
// per function its arguments. `createAct<Domain>(…)` then rejects a table,
// column or function the domain does not have, as `supabase gen types` does
// for supabase-js.
//
// Which tables a model reads and writes, and which columns a create or an
// update may set (never the owner, a key only as a gen_ ref), are the core's:
// they are read from the tool schemas it writes for the domain
// (`toolDefinitions({ schema: 'inline' })`). What a column holds (its type,
// its values, the table it references) is the domain's own data.

import { keyedByUsers, usersRefs } from './core/users.js';

const USERS = 'auth.users';

const keyOf = (table) => (table.key === undefined ? (table.columns?.id ? ['id'] : []) : Array.isArray(table.key) ? table.key : [table.key]);
const ownerOf = (domain, table) => table.owner ?? (table.user_owned ? (domain.owner_column ?? 'user_id') : null);

// The columns the model sees, as the core's is_visible decides
// (core/src/prompt/tool_schema_tables.h): not hidden, and not the owner of a
// table scoped to its owner's rows unless it is the key. Text search columns
// (tsvector) stay: the core takes them in filters with op search. A test
// holds this equal to the field lists of the core's schemas.
export function visibleColumns(domain, table) {
  const hidden = new Set(table.hidden ?? []);
  const owner = ownerOf(domain, table);
  const ownerScoped = owner !== null && (table.scope === 'owner' || (table.scope === undefined && table.user_owned === true));
  const key = keyOf(table);
  return Object.keys(table.columns ?? {}).filter((column) => !hidden.has(column) && !(ownerScoped && column === owner && !key.includes(column)));
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const propertyName = (name) => (IDENTIFIER.test(name) ? name : JSON.stringify(name));
// In single quotes when that needs no escape; JSON's double-quoted form (a
// valid TypeScript literal) otherwise, so a value holding a quote stays one.
const literal = (value) => (typeof value === 'string' && !/['"\\\u0000-\u001f\u2028\u2029]/.test(value) ? `'${value}'` : JSON.stringify(value));
const union = (values) => values.map(literal).join(' | ');

// A ref of the table with prefix `prefix`, or only its generated form.
const refType = (prefix, { generatedOnly = false } = {}) =>
  generatedOnly ? `\`gen_${prefix}_\${number}\`` : `\`${prefix}_\${number}\` | \`gen_${prefix}_\${number}\``;

// The TypeScript type of one value of a column (or function argument): a ref
// for a key or a reference, the listed values, else its type's.
// A user id (a reference to auth.users, or an owner column without one) is
// `me` for the signed-in user, another user's ref for others; a ref of a
// table keyed by user ids (a profile) is `me` for the user's own row too
// (docs/keys-and-owners.md, Other users).
function valueType(domain, config, { ownKey = null, generatedOnly = false, userId = false } = {}) {
  const target = config.references;
  const table = ownKey ?? (target && target !== USERS ? domain.tables[target] : null);
  const prefix = table?.ref ?? null;
  const scalar = (type) => {
    if (prefix && ['uuid', 'integer', 'text', 'uuid[]'].includes(type)) {
      return refType(prefix, { generatedOnly }) + (!generatedOnly && type === 'uuid' && keyedByUsers(domain, table) ? " | 'me'" : '');
    }
    if ((target === USERS || userId) && type === 'uuid') return `'me' | \`${usersRefs(domain).prefix}_\${number}\``;
    if (config.values?.length && (type === 'text' || type === 'text[]')) return union(config.values);
    switch (type) {
      case 'integer':
      case 'numeric':
        return 'number';
      case 'boolean':
        return 'boolean';
      case 'jsonb':
      case 'json':
        return 'Json';
      default:
        return 'string';
    }
  };
  const type = config.type;
  if (type === 'text[]' || type === 'uuid[]') {
    const element = scalar(type);
    return element.includes('|') ? `(${element})[]` : `${element}[]`;
  }
  return scalar(type);
}

const isNullable = (config) => config.nullable ?? !config.required;

const byName = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

function objectType(entries, indent) {
  if (entries.length === 0) return '{}';
  const pad = ' '.repeat(indent);
  return `{\n${entries.map(([name, type, optional]) => `${pad}  ${propertyName(name)}${optional ? '?' : ''}: ${type};`).join('\n')}\n${pad}}`;
}

// The settable columns of each table in a create or update row schema of the
// core's (`$defs.row_<table>`), with the required ones.
function rowSchemas(parameters) {
  const rows = new Map();
  for (const [name, schema] of Object.entries(parameters?.$defs ?? {})) {
    if (!name.startsWith('row_')) continue;
    const table = /^A row of (.+)\.$/.exec(schema.description ?? '')?.[1] ?? name.slice(4);
    rows.set(table, { columns: Object.keys(schema.properties ?? {}), required: new Set(schema.required ?? []) });
  }
  return rows;
}

function tableType(domain, name, tools, indent) {
  const table = domain.tables[name];
  const key = keyOf(table);
  const keyColumn = key.length === 1 ? key[0] : null;
  const columns = visibleColumns(domain, table).sort(byName);
  const typeOf = (column, options = {}) =>
    valueType(domain, table.columns[column], { ...options, ownKey: column === keyColumn && table.ref ? table : null, userId: column === ownerOf(domain, table) });
  const withNull = (column, type) => (column !== keyColumn && isNullable(table.columns[column]) ? `${type} | null` : type);
  const readable = columns.filter((column) => table.columns[column].type !== 'tsvector');
  // A write-only table (`"readable": false`) is never read or filtered: creates alone.
  const members = tools.reads.has(name)
    ? [
        ['Row', objectType(readable.map((column) => [column, withNull(column, typeOf(column))]), indent + 2)],
        [
          'Filters',
          objectType(
            [
              ...columns.map((column) => [column, typeOf(column)]),
              ...(tools.filterFields.has('_semantic') && table.middleware?.semantic ? [['_semantic', 'string']] : []),
            ],
            indent + 2,
          ),
        ],
      ]
    : [
        ['Row', 'never'],
        ['Filters', 'never'],
      ];
  const insert = tools.insert.get(name);
  const update = tools.update.get(name);
  if (insert) {
    // A key the database makes is set only as a gen_ ref (to save a generated row); a key the model
    // may write (a text slug) takes its value.
    const insertType = (column) =>
      column !== keyColumn ? typeOf(column) : table.columns[column].writable === false ? typeOf(column, { generatedOnly: true }) : valueType(domain, table.columns[column]);
    const entry = (column) => [column, withNull(column, insertType(column)), !insert.required.has(column)];
    members.push(['Insert', objectType([...insert.columns].sort(byName).map(entry), indent + 2)]);
  } else {
    members.push(['Insert', 'never']);
  }
  // A table may take some writes and not others (`"writable": ["update"]`).
  const change = (column) => [column, withNull(column, typeOf(column)), true];
  members.push(['Update', update ? objectType([...update.columns].sort(byName).map(change), indent + 2) : 'never']);
  members.push(['Delete', tools.deletes.has(name) ? 'true' : 'never']);
  const relations = Object.keys(table.relations ?? {}).sort(byName);
  members.push(['Relations', relations.length ? union(relations) : 'never']);
  return objectType(members, indent);
}

function functionType(domain, config, indent) {
  const args = Object.entries(config.args ?? {}).sort(([a], [b]) => byName(a, b)).map(([name, arg]) => {
    const type = arg.type === 'vector' ? 'string' : valueType(domain, arg);
    return [name, arg.required ? type : `${type} | null`, !arg.required];
  });
  return objectType([['Args', objectType(args, indent + 2)]], indent);
}

/**
 * The TypeScript declarations of `domain` (a validated DomainConfig): a
 * `Domain` interface to pass as the type argument of `createAct`,
 * `loadCore` or `core.createAct`, and `Json`. `core` writes the tool schemas
 * the tables and settable columns are read from.
 *
 * @example
 * writeFileSync('domain.d.ts', domainTypes(core, domain))
 * // import type { Domain } from './domain.js'; const act = createAct<Domain>({ supabase, domain })
 */
export function domainTypes(core, domain) {
  const definitions = core.toolDefinitions({ domain, schema: 'inline' });
  const parameters = (tool) => definitions.find((definition) => definition.name === tool)?.parameters;
  const readTables = parameters('db_read')?.properties?.table?.enum ?? [];
  const createTables = parameters('db_create')?.properties?.table?.enum ?? [];
  const tools = {
    reads: new Set(readTables),
    filterFields: new Set(parameters('db_read')?.$defs?.filter?.properties?.field?.enum ?? []),
    insert: rowSchemas(parameters('db_create')),
    update: rowSchemas(parameters('db_update')),
    deletes: new Set(parameters('db_delete')?.properties?.table?.enum ?? []),
  };
  // Tables, functions and columns by name (as `supabase gen types` writes them), so that a pull
  // that lists them in another order writes the same file.
  const tables = [...new Set([...readTables, ...createTables])].sort(byName).map((name) => [name, tableType(domain, name, tools, 4)]);
  const functions = Object.keys(domain.functions ?? {})
    .sort(byName)
    .map((name) => [name, functionType(domain, domain.functions[name], 4)]);
  const title = domain.name ? `the ${domain.name} domain` : 'a domain';
  return [
    `// Types of ${title} for alfred-act, written by \`alfred-act domain pull --types\`.`,
    '// Write them again when the domain changes; edits here are lost.',
    '//',
    "//   import type { Domain } from './domain.js'",
    '//   const act = createAct<Domain>({ supabase, domain })',
    '//',
    '// Keys and references hold refs (`recipe_3`), never UUIDs; a create sets a key only',
    "// to save a generated row (`gen_recipe_1`). A column left out of Insert is the database's",
    '// or the owner, which the act sets.',
    '',
    '/** Any JSON value (a jsonb column). */',
    'export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };',
    '',
    `/** The tables and functions of ${title}. */`,
    `export interface Domain ${objectType(
      [
        ['tables', objectType(tables, 2)],
        ['functions', objectType(functions, 2)],
      ],
      0,
    )}`,
    '',
  ].join('\n');
}
