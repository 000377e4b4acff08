// What PostgreSQL's catalog adds to PostgREST's description of a schema, for
// the domain pull: which relations are views, whether row-level security is
// on, what the `authenticated` role may write, the row-level security
// policies, the foreign keys (those into auth.users and other schemas
// included, which PostgREST does not describe), the columns of the tables
// they reach outside the schema, the unique indexes and the triggers that
// run before a write, the schema's functions (catalog-functions.js), and the
// tables of other schemas their uuid arguments name. Nine or ten read-only queries through a `query(sql)` the
// caller supplies (node-postgres, PGlite, a server of its own), so this
// module does no I/O of its own and runs in every runtime. The rules that
// read these facts are in docs/own-schema.md and docs/functions.md.
import { checkValuesOf, checksQuery } from './catalog-checks.js';
import { functionFacts, functionFactsProblem, functionsQuery, isNameList, textArray } from './catalog-functions.js';

const RELATION_KINDS = { r: 'table', p: 'table', v: 'view', m: 'view', f: 'table' };
const COMMANDS = new Set(['ALL', 'SELECT', 'INSERT', 'UPDATE', 'DELETE']);

// A text literal for a query whose runner takes no parameters.
const literal = (text) => `'${String(text).replaceAll("'", "''")}'`;

// The columns of tables the role may not read, add to or update whole:
// what column privileges grant of each (docs/own-schema.md#column-privileges).
const columnPrivilegesQuery = (name) => `select c.relname as table_name, a.attname as column_name,
    has_column_privilege('authenticated', c.oid, a.attnum, 'SELECT') as can_select,
    has_column_privilege('authenticated', c.oid, a.attnum, 'INSERT') as can_insert,
    has_column_privilege('authenticated', c.oid, a.attnum, 'UPDATE') as can_update
  from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
  join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
  where n.nspname = ${name} and c.relkind in ('r', 'p', 'v', 'm', 'f')
    and exists (select from pg_catalog.pg_roles where rolname = 'authenticated')
    and not (has_table_privilege('authenticated', c.oid, 'SELECT') and has_table_privilege('authenticated', c.oid, 'INSERT')
      and has_table_privilege('authenticated', c.oid, 'UPDATE'))
  order by c.relname, a.attnum`;

// Unique indexes but the primary key: their key columns in order (an
// expression's place left out) and their expressions' text.
const uniquesQuery = (name) => `select c.relname as table_name,
        array(select a.attname::text from unnest(i.indkey::int2[]) with ordinality as k(attnum, at)
          join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attnum = k.attnum
          where k.at <= i.indnkeyatts order by k.at) as columns,
        pg_catalog.pg_get_expr(i.indexprs, i.indrelid) as expressions,
        i.indpred is not null as partial
      from pg_catalog.pg_index i join pg_catalog.pg_class c on c.oid = i.indrelid
      join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      where n.nspname = ${name} and i.indisunique and not i.indisprimary and i.indisvalid
      order by c.relname, i.indexrelid`;

// Whether a row trigger runs before inserts or updates (it may fill in or
// change the row's values): tgtype's ROW | BEFORE bits, and INSERT or UPDATE.
const triggersQuery = (name) => `select c.relname as table_name,
        bool_or(t.tgtype::int & 7 = 7) as before_insert, bool_or(t.tgtype::int & 19 = 19) as before_update
      from pg_catalog.pg_trigger t join pg_catalog.pg_class c on c.oid = t.tgrelid
      join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      where n.nspname = ${name} and not t.tgisinternal
      group by c.relname order by c.relname`;

// The NOT NULL columns without a default (nor identity, nor generated, nor
// of a domain type that has one) of each table: PostgREST's description
// names every NOT NULL column required and leaves out a default that is a
// JSON array or object ('{}' on a text[] or jsonb), so only the catalog
// tells which must be given.
const withoutDefaultQuery = (name) => `select c.relname as table_name, array_agg(a.attname::text order by a.attnum) as columns
      from pg_catalog.pg_attribute a join pg_catalog.pg_class c on c.oid = a.attrelid
      join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      where n.nspname = ${name} and c.relkind in ('r', 'p', 'f') and a.attnum > 0 and not a.attisdropped
        and a.attnotnull and not a.atthasdef and a.attidentity = '' and a.attgenerated = ''
        and not exists (select from pg_catalog.pg_type t where t.oid = a.atttypid and t.typdefault is not null)
      group by c.relname order by c.relname`;

// Columns of a domain type (database.dev's app.valid_name over citext):
// PostgREST describes them by the domain's name, the catalog knows its base.
const domainColumnsQuery = (name) => `select c.relname as table_name, a.attname::text as column_name, format_type(t.typbasetype, t.typtypmod) as base_type
      from pg_catalog.pg_attribute a join pg_catalog.pg_class c on c.oid = a.attrelid
      join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      join pg_catalog.pg_type t on t.oid = a.atttypid and t.typtype = 'd'
      where n.nspname = ${name} and c.relkind in ('r', 'p', 'v', 'm', 'f') and a.attnum > 0 and not a.attisdropped
      order by c.relname, a.attnum`;

// Each table's unique indexes, triggers, columns without a default and
// columns of a domain type, from their queries' rows.
function addColumnFacts(tables, { uniques, triggers, withoutDefault, domainColumns, checks }) {
  for (const row of uniques) {
    const table = tables[row.table_name];
    if (table) (table.uniques ??= []).push({ columns: textArray(row.columns), expressions: row.expressions ?? null, partial: row.partial === true });
  }
  for (const row of triggers) {
    const table = tables[row.table_name];
    if (table) table.triggers = { beforeInsert: row.before_insert === true, beforeUpdate: row.before_update === true };
  }
  // Every table, so that none reads as facts read before this was (undefined).
  for (const table of Object.values(tables)) if (table.kind === 'table') table.withoutDefault = [];
  for (const row of withoutDefault) if (tables[row.table_name]) tables[row.table_name].withoutDefault = textArray(row.columns);
  for (const row of domainColumns) {
    const table = tables[row.table_name];
    if (table) (table.domainTypes ??= {})[row.column_name] = String(row.base_type);
  }
  // Every check must hold: a second list on the column keeps the values both allow.
  for (const row of checks) {
    const table = tables[row.table_name];
    const values = table && checkValuesOf(row.definition, row.column_name);
    if (!values) continue;
    const earlier = table.checkValues?.[row.column_name];
    (table.checkValues ??= {})[row.column_name] = earlier ? earlier.filter((value) => values.includes(value)) : values;
  }
}

// The columns of a view that show a column referencing auth.users
// (database.dev's accounts view over app.accounts, keyed by user ids), as
// foreign keys: PostgREST describes a view's references to tables it serves,
// never to auth.users, and a view has no constraints of its own. Where a
// column comes from is read as PostgREST reads it, from the view's _RETURN
// rule: the target entry of the column's number and name (a column renamed
// since has another), its resorigtbl and resorigcol. An entry of a nested
// query with the same number and name (a UNION's branches, a sub-query) makes
// it say nothing.
const viewUserKeysQuery = (name) => `with targets as (
        select v.relname as view_name, m[2] as column_name, m[3]::oid as base_oid, m[4]::int as base_attnum,
          count(*) over (partition by v.oid, m[1], m[2]) as named
        from pg_catalog.pg_class v
        join pg_catalog.pg_namespace vn on vn.oid = v.relnamespace
        join pg_catalog.pg_rewrite r on r.ev_class = v.oid and r.rulename = '_RETURN'
        cross join lateral regexp_matches(r.ev_action::text, ':resno (\\d+) :resname (\\S+) :ressortgroupref \\d+ :resorigtbl (\\d+) :resorigcol (\\d+)', 'g') as m
        join pg_catalog.pg_attribute va on va.attrelid = v.oid and va.attnum = m[1]::int and va.attname = m[2]
        where vn.nspname = ${name} and v.relkind in ('v', 'm'))
      select t.view_name as table_name, t.column_name, 'auth' as target_schema, 'users' as target_table, fa.attname::text as target_column
      from targets t
      join pg_catalog.pg_constraint con on con.conrelid = t.base_oid and con.contype = 'f' and cardinality(con.conkey) = 1
        and con.conkey[1] = t.base_attnum and con.confrelid = to_regclass('auth.users')
      join pg_catalog.pg_attribute fa on fa.attrelid = con.confrelid and fa.attnum = con.confkey[1]
      where t.named = 1
      order by t.view_name, t.column_name`;

/**
 * The catalog queries for `schema`: relations (kind, row-level security),
 * the `authenticated` role's privileges on tables and columns, policies, single-column foreign
 * keys (into any schema), the columns of the tables those reach in other
 * schemas (auth.users aside), and the functions.
 */
export function catalogQueries(schema = 'public') {
  const name = literal(schema);
  return {
    relations: `select c.relname as table_name, c.relkind::text as kind, c.relrowsecurity as rls
      from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      where n.nspname = ${name} and c.relkind in ('r', 'p', 'v', 'm', 'f')
      order by c.relname`,
    // No rows where there is no authenticated role (a database that is not Supabase-shaped).
    privileges: `select c.relname as table_name,
        has_any_column_privilege('authenticated', c.oid, 'SELECT') as can_select,
        has_any_column_privilege('authenticated', c.oid, 'INSERT') as can_insert,
        has_any_column_privilege('authenticated', c.oid, 'UPDATE') as can_update,
        has_table_privilege('authenticated', c.oid, 'DELETE') as can_delete,
        case when exists (select from pg_catalog.pg_roles where rolname = 'anon')
          then has_any_column_privilege('anon', c.oid, 'SELECT') end as anon_select
      from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      where n.nspname = ${name} and c.relkind in ('r', 'p', 'v', 'm', 'f')
        and exists (select from pg_catalog.pg_roles where rolname = 'authenticated')
      order by c.relname`,
    columnPrivileges: columnPrivilegesQuery(name),
    uniques: uniquesQuery(name),
    triggers: triggersQuery(name),
    withoutDefault: withoutDefaultQuery(name),
    domainColumns: domainColumnsQuery(name),
    checks: checksQuery(name),
    viewUserKeys: viewUserKeysQuery(name),
    policies: `select tablename::text as table_name, policyname::text as policy_name, permissive::text as permissive,
        roles::text[] as roles, cmd::text as command, qual, with_check
      from pg_catalog.pg_policies where schemaname = ${name}
      order by tablename, policyname`,
    foreignKeys: `select cl.relname as table_name, a.attname as column_name, fn.nspname as target_schema,
        fc.relname as target_table, fa.attname as target_column
      from pg_catalog.pg_constraint con
      join pg_catalog.pg_class cl on cl.oid = con.conrelid
      join pg_catalog.pg_namespace n on n.oid = cl.relnamespace
      join pg_catalog.pg_class fc on fc.oid = con.confrelid
      join pg_catalog.pg_namespace fn on fn.oid = fc.relnamespace
      join pg_catalog.pg_attribute a on a.attrelid = con.conrelid and a.attnum = con.conkey[1]
      join pg_catalog.pg_attribute fa on fa.attrelid = con.confrelid and fa.attnum = con.confkey[1]
      where con.contype = 'f' and n.nspname = ${name} and cardinality(con.conkey) = 1
      order by cl.relname, a.attname`,
    // Read-only facts of tables outside the schema that its foreign keys
    // reach (basejump.accounts): their columns, for a key and labels.
    referencedColumns: `select fn.nspname as target_schema, fc.relname as target_table, a.attname as column_name,
        format_type(coalesce(nullif(t.typbasetype, 0), t.oid), null) as column_type, t.typtype::text as type_kind,
        a.attnotnull as not_null
      from pg_catalog.pg_class fc
      join pg_catalog.pg_namespace fn on fn.oid = fc.relnamespace
      join pg_catalog.pg_attribute a on a.attrelid = fc.oid and a.attnum > 0 and not a.attisdropped
      join pg_catalog.pg_type t on t.oid = a.atttypid
      where fn.nspname <> ${name} and not (fn.nspname = 'auth' and fc.relname = 'users')
        and fc.oid in (select con.confrelid from pg_catalog.pg_constraint con
          join pg_catalog.pg_class cl on cl.oid = con.conrelid
          join pg_catalog.pg_namespace n on n.oid = cl.relnamespace
          where con.contype = 'f' and n.nspname = ${name} and cardinality(con.conkey) = 1)
      order by fn.nspname, fc.relname, a.attnum`,
    functions: functionsQuery(name),
  };
}

// Schemas whose tables are the platform's, not the app's: no argument of
// the app's functions is taken for a key of theirs by its name.
const PLATFORM_SCHEMAS = [
  'information_schema', 'auth', 'storage', 'realtime', '_realtime', 'supabase_functions', 'supabase_migrations',
  'extensions', 'graphql', 'graphql_public', 'vault', 'pgsodium', 'pgsodium_masks', 'net', 'cron', 'pgbouncer',
  '_analytics', 'pgmq', 'alfred_auth',
];

/**
 * The query for the tables of schemas other than `schema` (the platform's
 * aside) named `names`, each with its columns and whether a column is the
 * table's one-column primary key.
 */
export function namedTablesQuery(schema, names) {
  return `select n.nspname as target_schema, c.relname as target_table, a.attname as column_name,
      format_type(coalesce(nullif(t.typbasetype, 0), t.oid), null) as column_type, t.typtype::text as type_kind,
      a.attnotnull as not_null,
      exists (select from pg_catalog.pg_index i where i.indrelid = c.oid and i.indisprimary
        and i.indnatts = 1 and i.indkey[0] = a.attnum) as primary_key
    from pg_catalog.pg_class c
    join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
    join pg_catalog.pg_type t on t.oid = a.atttypid
    where c.relkind in ('r', 'p') and n.nspname <> ${literal(schema)} and n.nspname not like 'pg\\_%'
      and n.nspname not in (${PLATFORM_SCHEMAS.map(literal).join(', ')})
      and c.relname in (${names.map(literal).join(', ')})
    order by n.nspname, c.relname, a.attnum`;
}

// Plural spellings of a name's stem: project → projects, category → categories.
export const pluralsOf = (stem) => [`${stem}s`, `${stem}es`, stem.endsWith('y') ? `${stem.slice(0, -1)}ies` : null, stem].filter(Boolean);

// The table names a function argument may name: `invitation_id` (a uuid)
// and `invitation_ids` (uuid[]) name invitations.
function namedByArguments(functions) {
  const names = new Set();
  for (const fn of functions) {
    if (fn.extension) continue;
    for (const arg of fn.args) {
      const stem = arg.type === 'uuid' ? /^(.+)_id$/.exec(arg.name)?.[1] : arg.type === 'uuid[]' ? /^(.+)_ids$/.exec(arg.name)?.[1] : null;
      if (stem && /^[a-z_][a-z0-9_]*$/.test(stem)) for (const name of pluralsOf(stem)) names.add(name);
    }
  }
  return [...names].sort();
}

// node-postgres and PGlite answer `{ rows }`; a plain array is taken as the rows.
async function rowsOf(query, sql) {
  const answer = await query(sql);
  const rows = Array.isArray(answer) ? answer : answer?.rows;
  if (!Array.isArray(rows)) throw new TypeError('query(sql) must resolve to the rows, or to { rows }');
  return rows;
}

// The authenticated role's privileges on each table, and its column grants
// as far as they take away from the table's (false where the role may read,
// add to or update the table's rows but not this column).
function addPrivileges(tables, privileges, columnPrivileges) {
  for (const row of privileges) {
    const table = tables[row.table_name];
    if (!table) continue;
    table.privileges = { select: row.can_select === true, insert: row.can_insert === true, update: row.can_update === true, delete: row.can_delete === true };
    // Whether Supabase's anon role (requests without a session) may select; absent without that role.
    if (typeof row.anon_select === 'boolean') table.privileges.anonSelect = row.anon_select;
  }
  for (const row of columnPrivileges) {
    const table = tables[row.table_name];
    const allowed = table?.privileges;
    if (!allowed) continue;
    const grants = { select: !allowed.select || row.can_select === true, insert: !allowed.insert || row.can_insert === true, update: !allowed.update || row.can_update === true };
    if (grants.select && grants.insert && grants.update) continue;
    table.columnGrants = { ...table.columnGrants, [row.column_name]: grants };
  }
}

/**
 * Reads the catalog facts of `schema` (default `public`) through `query`, a
 * function that runs one SQL statement and resolves to its rows (or to
 * `{ rows }`, as node-postgres's `client.query` and PGlite's `db.query` do).
 * Resolves to `{ schema, tables, referencedTables, namedTables, functions }`, where
 * `tables[name]` is
 * `{ kind: 'table' | 'view', rls, privileges: { select, insert, update, delete, anonSelect? } | null, policies: [{ name, command, roles, permissive, using, check }], references: { [column]: { schema, table, column } } }`
 * and `uniques: [{ columns, expressions, partial }]` (its unique indexes but
 * the primary key: the key columns, the text of any expressions, as
 * `lower(name)`, and whether the index has a WHERE), `triggers: { beforeInsert, beforeUpdate }`
 * where a row trigger runs before those writes, `withoutDefault` (a table's
 * NOT NULL columns without a default, identity or generation: what every
 * create must give), `domainTypes` (`{ [column]: base type }` for columns of
 * a domain type), `checkValues` (`{ [column]: [values] }` where a CHECK
 * constraint lists the values a text column takes: `checkValuesOf`),
 * and, where column privileges keep the role from reading, adding or
 * updating some columns of rows it may otherwise, `columnGrants: { [column]: { select, insert, update } }`
 * (false where the column's privileges take away what the table's give),
 * `referencedTables` lists the tables of other schemas those references
 * reach (`{ schema, table, columns: [{ name, type, kind, notNull }] }`, auth.users
 * aside), `namedTables` the tables of other schemas (the platform's aside)
 * that the functions' uuid arguments name (`invitation_id` → `invitations`:
 * `{ schema, table, key, columns }`, `key` the one-column primary key or
 * null), and `functions` the schema's functions (`functionFacts`).
 * Plain JSON: it can be computed where the database is reachable and handed
 * to `pullDomain({ catalog })` elsewhere. A failed query rejects with its error.
 *
 * @example
 * import pg from 'pg'
 * const client = new pg.Client({ connectionString: process.env.SUPABASE_DB_URL })
 * await client.connect()
 * const catalog = await catalogFacts((sql) => client.query(sql))
 * await client.end()
 * const { data: domain, notes } = await pullDomain({ url, apiKey, catalog })
 */
export async function catalogFacts(query, { schema = 'public' } = {}) {
  if (typeof query !== 'function') throw new TypeError('catalogFacts(query): query must be a function (sql) => rows');
  const sql = catalogQueries(schema);
  const relations = await rowsOf(query, sql.relations);
  const privileges = await rowsOf(query, sql.privileges);
  const columnPrivileges = await rowsOf(query, sql.columnPrivileges);
  const uniques = await rowsOf(query, sql.uniques);
  const triggers = await rowsOf(query, sql.triggers);
  const withoutDefault = await rowsOf(query, sql.withoutDefault);
  const domainColumns = await rowsOf(query, sql.domainColumns);
  const checks = await rowsOf(query, sql.checks);
  const policies = await rowsOf(query, sql.policies);
  const foreignKeys = [...(await rowsOf(query, sql.foreignKeys)), ...(await rowsOf(query, sql.viewUserKeys))];
  const referencedColumns = await rowsOf(query, sql.referencedColumns);
  const functions = (await rowsOf(query, sql.functions)).map(functionFacts);
  const argumentNames = namedByArguments(functions);
  const namedColumns = argumentNames.length === 0 ? [] : await rowsOf(query, namedTablesQuery(schema, argumentNames));
  const tables = {};
  for (const row of relations) {
    tables[row.table_name] = { kind: RELATION_KINDS[row.kind] ?? 'table', rls: row.rls === true, privileges: null, policies: [], references: {} };
  }
  addPrivileges(tables, privileges, columnPrivileges);
  addColumnFacts(tables, { uniques, triggers, withoutDefault, domainColumns, checks });
  for (const row of policies) {
    tables[row.table_name]?.policies.push({
      name: row.policy_name,
      command: String(row.command).toUpperCase(),
      roles: textArray(row.roles),
      permissive: String(row.permissive).toUpperCase() !== 'RESTRICTIVE',
      using: row.qual ?? null,
      check: row.with_check ?? null,
    });
  }
  for (const row of foreignKeys) {
    const table = tables[row.table_name];
    if (table) table.references[row.column_name] = { schema: row.target_schema, table: row.target_table, column: row.target_column };
  }
  const referencedTables = [];
  for (const row of referencedColumns) {
    let table = referencedTables.at(-1);
    if (table?.schema !== row.target_schema || table.table !== row.target_table) referencedTables.push((table = { schema: row.target_schema, table: row.target_table, columns: [] }));
    table.columns.push({ name: row.column_name, type: row.column_type, kind: row.type_kind === 'e' ? 'enum' : 'base', notNull: row.not_null === true });
  }
  const namedTables = [];
  for (const row of namedColumns) {
    let table = namedTables.at(-1);
    if (table?.schema !== row.target_schema || table.table !== row.target_table) namedTables.push((table = { schema: row.target_schema, table: row.target_table, key: null, columns: [] }));
    table.columns.push({ name: row.column_name, type: row.column_type, kind: row.type_kind === 'e' ? 'enum' : 'base', notNull: row.not_null === true });
    if (row.primary_key === true) table.key = row.column_name;
  }
  return { schema, tables, referencedTables, namedTables, functions };
}

/**
 * Why `facts` is not catalog facts as `catalogFacts` makes them (a message),
 * or null when they are.
 */
export function catalogFactsProblem(facts) {
  const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);
  if (!isObject(facts) || !isObject(facts.tables)) return 'must be { tables: { <table>: { kind, rls, privileges, policies, references } } } as catalogFacts(query) makes it';
  for (const [name, table] of Object.entries(facts.tables)) {
    const at = `tables.${name}`;
    if (!isObject(table)) return `${at} must be an object`;
    if (table.kind !== 'table' && table.kind !== 'view') return `${at}.kind must be "table" or "view"`;
    if (typeof table.rls !== 'boolean') return `${at}.rls must be true or false`;
    if (table.privileges !== null && table.privileges !== undefined && !isObject(table.privileges)) return `${at}.privileges must be an object or null`;
    if (!Array.isArray(table.policies ?? [])) return `${at}.policies must be a list`;
    for (const policy of table.policies ?? []) {
      if (!isObject(policy) || !COMMANDS.has(policy.command) || !Array.isArray(policy.roles)) return `${at}.policies: each is { name, command, roles, permissive, using, check }`;
    }
    if (!isObject(table.references ?? {})) return `${at}.references must be an object of column → { schema, table, column }`;
    if (!isObject(table.columnGrants ?? {})) return `${at}.columnGrants must be an object of column → { select, insert, update }`;
    for (const grants of Object.values(table.columnGrants ?? {})) {
      if (!isObject(grants) || !['select', 'insert', 'update'].every((what) => typeof grants[what] === 'boolean')) return `${at}.columnGrants: each is { select, insert, update }, true or false`;
    }
    const uniqueIndex = (u) => isObject(u) && isNameList(u.columns) && (u.expressions === null || typeof u.expressions === 'string') && typeof u.partial === 'boolean';
    if (table.uniques !== undefined && !(Array.isArray(table.uniques) && table.uniques.every(uniqueIndex))) return `${at}.uniques must be a list of { columns, expressions, partial }`;
    if (table.withoutDefault !== undefined && !isNameList(table.withoutDefault)) return `${at}.withoutDefault must be a list of column names`;
    if (table.checkValues !== undefined && !(isObject(table.checkValues) && Object.values(table.checkValues).every(isNameList))) return `${at}.checkValues must be an object of column → list of values`;
    if (table.domainTypes !== undefined && !(isObject(table.domainTypes) && Object.values(table.domainTypes).every((type) => typeof type === 'string'))) return `${at}.domainTypes must be an object of column → base type`;
    if (table.triggers !== undefined && !(isObject(table.triggers) && typeof table.triggers.beforeInsert === 'boolean' && typeof table.triggers.beforeUpdate === 'boolean')) return `${at}.triggers must be { beforeInsert, beforeUpdate }`;
    for (const target of Object.values(table.references ?? {})) {
      if (!isObject(target) || typeof target.schema !== 'string' || typeof target.table !== 'string') return `${at}.references: each is { schema, table, column }`;
    }
  }
  // Facts read before functions and other schemas were: none of either.
  if (facts.referencedTables !== undefined) {
    if (!Array.isArray(facts.referencedTables)) return 'referencedTables must be a list';
    for (const [index, table] of facts.referencedTables.entries()) {
      const ok = isObject(table) && typeof table.schema === 'string' && typeof table.table === 'string' && Array.isArray(table.columns);
      if (!ok || !table.columns.every((c) => isObject(c) && typeof c.name === 'string' && typeof c.type === 'string')) {
        return `referencedTables[${index}] must be { schema, table, columns: [{ name, type, kind, notNull }] }`;
      }
    }
  }
  if (facts.namedTables !== undefined) {
    if (!Array.isArray(facts.namedTables)) return 'namedTables must be a list';
    for (const [index, table] of facts.namedTables.entries()) {
      const ok = isObject(table) && typeof table.schema === 'string' && typeof table.table === 'string' && (table.key === null || typeof table.key === 'string') && Array.isArray(table.columns);
      if (!ok || !table.columns.every((c) => isObject(c) && typeof c.name === 'string' && typeof c.type === 'string')) {
        return `namedTables[${index}] must be { schema, table, key, columns: [{ name, type, kind, notNull }] }`;
      }
    }
  }
  return facts.functions === undefined ? null : functionFactsProblem(facts.functions);
}

const IDENT = '[A-Za-z_][A-Za-z0-9_$]*';
const OPERAND = `(?:${IDENT}\\.)?${IDENT}`;
const UID = 'auth\\.uid\\(\\)';

/**
 * The columns of `table` a policy expression (as pg_policies shows it)
 * compares with `auth.uid()`: `user_id = auth.uid()`, `auth.uid() = user_id`,
 * `(select auth.uid()) = user_id`, with casts and parentheses
 * (`(user_id)::text = (auth.uid())::text`). Columns qualified by another
 * name (an alias inside a sub-query: `m.user_id = auth.uid()`) are another
 * table's and left out.
 *
 * @example
 * policyUserColumns('(( SELECT auth.uid() AS uid) = author_id)', 'posts') // ['author_id']
 */
export function policyUserColumns(expression, table) {
  if (typeof expression !== 'string' || expression === '') return [];
  const text = plainPolicy(expression);
  const columns = new Set();
  const take = (operand) => {
    const [first, second] = operand.split('.');
    if (second === undefined) columns.add(first);
    else if (first === table) columns.add(second);
  };
  for (const match of text.matchAll(new RegExp(`(?<![\\w$.])(${OPERAND})\\s*=\\s*${UID}`, 'gi'))) take(match[1]);
  for (const match of text.matchAll(new RegExp(`${UID}\\s*=\\s*(${OPERAND})(?![\\w$.(])`, 'gi'))) take(match[1]);
  return [...columns];
}

/**
 * A policy expression as pg_policies shows it, made plain for matching:
 * quoted identifiers that need no quotes unquoted, `(select auth.uid())` as
 * `auth.uid()`, casts dropped, and parentheses around a single operand
 * removed.
 *
 * @example
 * plainPolicy('((user_id)::text = (( SELECT auth.uid() AS uid))::text)') // '(user_id = auth.uid())'
 */
export function plainPolicy(expression) {
  let text = expression
    // Quoted identifiers that need no quotes.
    .replace(/"([a-z_][a-z0-9_$]*)"/g, '$1')
    // (select auth.uid()), as Supabase recommends it for speed.
    .replace(new RegExp(`\\(\\s*select\\s+${UID}(?:\\s+as\\s+${IDENT})?\\s*\\)`, 'gi'), 'auth.uid()')
    // Casts: ::text, ::character varying(20), ::uuid[].
    .replace(/::\s*(?:[A-Za-z_][\w.]*)(?:\s+(?:varying|precision|with(?:out)?\s+time\s+zone))?(?:\(\d+(?:,\s*\d+)?\))?(?:\[\])*/g, '');
  // Parentheses around a single operand, innermost first.
  const single = new RegExp(`(?<![\\w$.])\\(\\s*(${UID}|${OPERAND})\\s*\\)`, 'gi');
  for (let previous = ''; previous !== text; ) {
    previous = text;
    text = text.replace(single, '$1');
  }
  return text;
}
