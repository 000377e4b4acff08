// PostgREST's OpenAPI description (Swagger 2.0) read as facts about tables
// and columns: each column's type, NOT NULL, default, primary-key mark and
// described foreign key; with catalog facts (catalog.js) on top, whether a
// relation is a view and the references PostgREST does not describe (those
// into auth.users). No decisions here: those are in keys.js and owners.js.

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
  // A text search document (often `generated always as (to_tsvector(…))`):
  // searched with op search, never read or written.
  [/^tsvector$/, 'tsvector'],
];
const ARRAY_TYPES = [
  [/^uuid\[\]$/, 'uuid[]'],
  [/^(text|citext|character varying(\(\d+\))?|varchar(\(\d+\))?)\[\]$/, 'text[]'],
];

const isPlainObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Reads PostgREST's `Note: This is a Foreign Key to `t.c`.<fk table='t' column='c'/>`. */
function foreignKeyOf(description) {
  const match = /<fk table='([^']+)' column='([^']+)'\/>/.exec(description ?? '');
  return match ? { table: match[1], column: match[2] } : null;
}

const isPrimaryKey = (property) => /<pk\/>/.test(property.description ?? '');

/**
 * The domain's column type of a PostgreSQL type as PostgREST's `format` or
 * the catalog's `format_type` writes it (`character varying(12)`, `text[]`),
 * or null for a type the model cannot read or write.
 *
 * @example
 * domainTypeOf('timestamp with time zone') // 'timestamp'
 */
export function domainTypeOf(format) {
  for (const [pattern, type] of SCALAR_TYPES) if (pattern.test(format)) return type;
  for (const [pattern, type] of ARRAY_TYPES) if (pattern.test(format)) return type;
  return null;
}

// A column of a domain type described by its base type's format (citext
// for database.dev's app.valid_name), where the catalog names one the model
// can use; as described otherwise.
function baseOf(property, base) {
  const format = typeof base === 'string' ? base.replace(/^(?:pg_catalog|extensions|public)\./, '') : null;
  return format && domainTypeOf(format) ? { ...property, format } : property;
}

// A text or text[] column's values a CHECK constraint lists (catalog.js),
// where its type lists none.
function withCheckValues(typed, values) {
  return (typed.type === 'text' || typed.type === 'text[]') && !typed.values && Array.isArray(values) && values.length > 0 ? { ...typed, values: [...values] } : typed;
}

function columnTypeOf(property, enumsByFormat) {
  const format = String(property.format ?? '');
  if (Array.isArray(property.enum) && property.enum.every((v) => typeof v === 'string')) return { type: 'text', values: property.enum };
  const type = domainTypeOf(format);
  if (type) return { type };
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

/**
 * Whether `spec` is a Swagger 2.0 description as PostgREST 12 answers: with
 * definitions, or, for a schema that exposes functions and no table or view
 * (basejump as published), with paths and no definitions.
 */
export const isPostgrestDescription = (spec) =>
  isPlainObject(spec) && spec.swagger === '2.0' && (isPlainObject(spec.definitions) || (spec.definitions === undefined && isPlainObject(spec.paths)));

/**
 * The tables and views of a Swagger 2.0 description, sorted by name:
 * `{ name, isView, catalog, columns: [{ name, format, type, values, note,
 * notNull, hasDefault, defaultKnown, default, primaryKey, references,
 * usersReference, outside, grants }], keys }`. `hasDefault` is the
 * catalog's where it was read (`defaultKnown`), else the description's.
 * `catalog` is the table's catalog facts, or null without them.
 * `references` is the foreign key PostgREST describes (`{ table, column }`),
 * or, with the catalog, one into the exposed schema it does not; `usersReference` is true for a column that references
 * auth.users, and `outside` the target (`{ schema, table, column }`) of one
 * into another schema (only the catalog tells), and `grants` what column
 * privileges take away (`{ select, insert, update }`, false where they
 * do; null without the catalog or where they take nothing).
 */
export function describedTables(spec, catalog = null) {
  const enumsByFormat = new Map();
  const definitions = spec.definitions ?? {};
  for (const definition of Object.values(definitions)) {
    for (const property of Object.values(definition?.properties ?? {})) {
      if (Array.isArray(property?.enum) && property.format) enumsByFormat.set(String(property.format), property.enum);
    }
  }
  const tables = [];
  for (const [name, definition] of Object.entries(definitions)) {
    if (!isPlainObject(definition) || !isPlainObject(definition.properties)) continue;
    const facts = catalog?.tables?.[name] ?? null;
    const required = new Set(Array.isArray(definition.required) ? definition.required : []);
    // The catalog's NOT NULL columns without a default, where it was read (catalog.js).
    const withoutDefault = Array.isArray(facts?.withoutDefault) ? new Set(facts.withoutDefault) : null;
    const columns = Object.entries(definition.properties).map(([column, property]) => {
      const described = foreignKeyOf(property?.description);
      const target = facts?.references?.[column];
      const usersReference = target?.schema === 'auth' && target.table === 'users';
      const inSchema = target && target.schema === (catalog.schema ?? 'public') ? { table: target.table, column: target.column } : null;
      // A table of another schema (basejump.accounts): pull/unexposed.js.
      const outside = target && !inSchema && !usersReference ? { schema: target.schema, table: target.table, column: target.column } : null;
      return {
        name: column,
        format: String(property?.format ?? property?.type ?? 'unknown'),
        ...withCheckValues(columnTypeOf(baseOf(property ?? {}, facts?.domainTypes?.[column]), enumsByFormat), facts?.checkValues?.[column]),
        notNull: required.has(column),
        hasDefault: property?.default !== undefined || Boolean(withoutDefault && required.has(column) && !withoutDefault.has(column)),
        // Whether hasDefault is known for an array or jsonb, whose '{}' default PostgREST leaves out.
        defaultKnown: withoutDefault !== null,
        default: property?.default,
        primaryKey: isPrimaryKey(property ?? {}),
        references: described ?? inSchema,
        usersReference,
        outside,
        // What column privileges take away (catalog.js), or null.
        grants: facts?.columnGrants?.[column] ?? null,
      };
    });
    const keys = columns.filter((c) => c.primaryKey);
    // With the catalog a view is known; without it, a table's primary key is
    // always NOT NULL while PostgREST describes every column of a view as
    // nullable, even the key it infers for it.
    const isView = facts ? facts.kind === 'view' : keys.length > 0 && keys.every((c) => !c.notNull);
    tables.push({ name, columns, keys, isView, catalog: facts });
  }
  return tables.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** `auth.uid()` as PostgREST writes a column default, spaces and parentheses aside. */
export const defaultsToUserId = (column) => String(column.default ?? '').replace(/[\s()]/g, '').toLowerCase() === 'auth.uid';
