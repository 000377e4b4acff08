// Type declarations for alfred-act, written by hand (the WebAssembly module
// exports plain C functions; web/src/core/abi.js wraps them). Every runtime
// entry (node, browser, workerd, deno) exports exactly these names.

import type { ErrorCode, ErrorCodeOrigin } from './dist/error-codes.mjs';
export type { ErrorCode, ErrorCodeOrigin };
// The tool names, step types and filter ops are the core's, generated from it.
import type { FilterOp, StepType, ToolName } from './dist/core-rules.mjs';
// The subpaths whose names the root re-exports, deprecated (near the end).
import type * as McpModule from './mcp.js';
import type * as LoopModule from './loop.js';
export type { FilterOp, StepType, ToolName };

/** Every error code alfred-act emits, `code → { origin, meaning }` (docs/error-codes.md). */
export declare const errorCodes: Readonly<Record<ErrorCode, Readonly<{ origin: ErrorCodeOrigin; meaning: string }>>>;

// These merge with the full declarations when the project's lib or
// @types/node has them, and let this file compile when it does not.
declare global {
  namespace WebAssembly {
    interface Module {}
  }
  interface SymbolConstructor {
    readonly dispose: unique symbol;
  }
  interface URL {
    href: string;
  }
}

/** Any JSON value, as tool calls and PostgREST rows contain. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** One row as PostgREST returns it or as the model writes it. */
export type Row = { [column: string]: JsonValue };

/** The Postgres type of a column, as a domain declares it. */
export type ColumnType =
  | 'uuid'
  | 'text'
  | 'integer'
  | 'numeric'
  | 'boolean'
  | 'date'
  | 'timestamp'
  | 'text[]'
  | 'uuid[]'
  | 'jsonb'
  /** A text search document: searched with op `search`, never read or written. */
  | 'tsvector';

/** One column of a domain table. */
export interface ColumnConfig {
  readonly type: ColumnType;
  /** A create must set it. Default `false`. */
  readonly required?: boolean;
  /**
   * The model may set it in a create or update (`true`, the default), in neither (`false`), or in the writes
   * listed: `["create"]` for a column given on a new row and never changed, `["update"]` for one changed and never
   * given (column privileges; docs/own-schema.md#column-privileges).
   */
  readonly writable?: boolean | ReadonlyArray<'create' | 'update'>;
  /** `null` is accepted. Default: `true` unless `required`. */
  readonly nullable?: boolean;
  /**
   * The table a `uuid`, `integer`, `text` or `uuid[]` column points to (its values are refs of that table; the
   * type is the target key's), or `"auth.users"` for a column holding a user id (shown as `me` for the signed-in
   * user's, as a ref such as `user_2` for another's, docs/keys-and-owners.md).
   */
  readonly references?: string;
  /** The only values allowed (for `text` and `text[]`). */
  readonly values?: readonly string[];
}

/** One table of a domain. */
export interface TableConfig {
  /** Ref prefix: rows become `${ref}_1`, `${ref}_2`, … and generated ones `gen_${ref}_1`. */
  readonly ref: string;
  /**
   * The primary key: one column (uuid, integer or text; rows get refs) or several (a join table: rows are named by
   * their columns). Default `"id"` when the table has an `id` column, else none; `[]` (no key) is read-only.
   */
  readonly key?: string | readonly string[];
  /** The uuid column holding the owning user's id (any name; may be the key, as in a profiles table). Creates set it. */
  readonly owner?: string;
  /** `"rls"` (default): row-level security alone decides which rows a user reads; `"owner"`: also filtered to the owner's rows. */
  readonly scope?: 'rls' | 'owner';
  /** Legacy: `true` is `"owner"` = the domain's `owner_column`. */
  readonly user_owned?: boolean;
  /**
   * `false` makes the table read-only for the model (no create/update/delete); a list names the writes it takes
   * (`["update"]`: a table whose row-level security lets users update rows, not create or delete them). Default
   * `true` (a table without a key is read-only).
   */
  readonly writable?: boolean | readonly ('create' | 'update' | 'delete')[];
  /**
   * `false`: a write-only table, which users may add rows to but not read (a feedback form's): it takes creates only,
   * sent without reading their rows back, so they get no refs (docs/own-schema.md#write-only-tables). Default `true`.
   */
  readonly readable?: boolean;
  /**
   * `true`: a table without an owner that only signed-in users may read (a team's rows): a call without a user's
   * session is `not_signed_in` instead of an empty answer (docs/own-schema.md#signed-in-tables). Default `false`;
   * a table with an owner always needs a session.
   */
  readonly signed_in?: boolean;
  /**
   * `false`: a table the API does not serve (a foreign key's target in another schema, such as basejump's
   * `accounts`): its rows are refs the model gets from function results and referencing rows, never read or written.
   */
  readonly exposed?: boolean;
  /** Columns that give a row its display label; the first non-empty one wins. */
  readonly label?: readonly string[];
  /** A label template such as `"{date|mon_day} [{meal_type}]"`, used when all its columns have values. */
  readonly label_format?: string;
  /** Embeddable relations: relation name → table name (`recipes(recipe_ingredients(…))`). */
  readonly relations?: { readonly [relation: string]: string };
  /** Columns the model never sees or selects (for example embeddings). */
  readonly hidden?: readonly string[];
  /** What the executor does around this table's calls (docs/own-schema.md). */
  readonly middleware?: MiddlewareConfig;
  /** Every column the model may know about. */
  readonly columns: { readonly [column: string]: ColumnConfig };
}

/** Per-table executor behaviour, configured rather than coded. */
export interface MiddlewareConfig {
  /** Text columns where `=` means a case-insensitive substring match. */
  readonly fuzzy?: readonly string[];
  /** Relations added to reads that pick no columns: `"deals(id,title,stage)"`. */
  readonly include?: readonly string[];
  /** `_semantic similar` through a database function that ranks ids by an embedding. */
  readonly semantic?: {
    readonly rpc: string;
    readonly embedding_arg?: string;
    readonly count_arg?: string;
    readonly distance_arg?: string;
    readonly limit?: number;
    readonly max_distance?: number;
    /** The text and text[] columns a row's embedding is made from (`embeddingText`). */
    readonly text?: readonly string[];
  };
  /** Rows named after entries of a shared catalog table, linked through `link`. */
  readonly catalog?: {
    readonly table: string;
    readonly link: string;
    readonly name?: string;
    readonly aliases?: string;
    readonly copy?: readonly string[];
    readonly dedupe?: boolean;
  };
}

/** One argument of a domain function (docs/functions.md). */
export interface FunctionArgConfig {
  /** A column type, or `vector` (text the executor embeds). */
  readonly type: ColumnType | 'vector';
  /** Every call passes it (it has no default). */
  readonly required?: boolean;
  /** The table whose refs it takes, or `"auth.users"` for a user id. */
  readonly references?: string;
  readonly values?: readonly string[];
  readonly description?: string;
}

/** A database function the model may call with `db_call` (docs/functions.md). */
export interface FunctionConfig {
  readonly description?: string;
  /** `true`: sent by GET, which PostgREST runs read-only. */
  readonly read?: boolean;
  readonly args?: { readonly [arg: string]: FunctionArgConfig };
  /** Rows of a domain table, or values of a type (`json`, `void`, a column type). */
  readonly returns: { readonly table: string; readonly set?: boolean } | { readonly type: ColumnType | 'json' | 'void'; readonly set?: boolean; readonly references?: string };
}

/** A domain: the tables the model may touch, as data rather than code. */
export interface DomainConfig {
  /** Used in error messages. Default `"domain"`. */
  readonly name?: string;
  /** Legacy: the owner column of tables marked `user_owned` (default `user_id`); tables name their `owner` instead. */
  readonly owner_column?: string;
  /** The most rows one read or create may touch (1 to 1 000 000). */
  readonly max_rows?: number;
  readonly tables: { readonly [table: string]: TableConfig };
  /** The functions the model may call with `db_call`, by name. */
  readonly functions?: { readonly [name: string]: FunctionConfig };
  /**
   * The domain's own text for the Act prompt's example slots (a domain pack's
   * `prompts/<slot>.md`); slots left out are derived from the tables.
   */
  readonly prompt_examples?: { readonly [slot: string]: string };
}

/** The kitchen domain (recipes, inventory, meal plans, …): the default `domain` of every call. */
export declare const kitchen: DomainConfig;

/**
 * Settings merged on top of a pulled domain: plain objects merge per table and
 * per column, arrays and values replace, `null` removes a table, a column or a
 * setting.
 */
export interface DomainOverrides {
  readonly name?: string;
  /** The owner column of every table that has a uuid column of that name (as the `ownerColumn` option). */
  readonly owner_column?: string;
  readonly max_rows?: number;
  readonly tables?: {
    readonly [table: string]:
      | ({ readonly [setting in keyof Omit<TableConfig, 'columns'>]?: TableConfig[setting] | null } & {
          readonly columns?: { readonly [column: string]: Partial<ColumnConfig> | null };
        })
      | null;
  };
  /** Per function (docs/functions.md): `null` leaves it out; `expose: true` offers a security definer function, or one `authenticated` may not execute. */
  readonly functions?: {
    readonly [name: string]: {
      readonly expose?: boolean;
      readonly description?: string | null;
      readonly read?: boolean | null;
      readonly args?: { readonly [arg: string]: { readonly references?: string | null; readonly description?: string | null; readonly values?: readonly string[] | null } | null };
      readonly returns?: { readonly table: string; readonly set?: boolean } | { readonly type: string; readonly set?: boolean; readonly references?: string };
    } | null;
  };
}

/** Something a pull left out or could not decide, at a path into the domain. */
export interface DomainNote {
  path: string;
  message: string;
}

/** A derived domain, validated by the core, or the error that says what to fix. */
export type DomainPullResult =
  | { data: DomainConfig; error: null; notes: DomainNote[] }
  | { data: null; error: AlfredErrorShape; notes: DomainNote[] };

/** One row-level security policy, as `pg_policies` shows it. */
export interface CatalogPolicy {
  name: string;
  command: 'ALL' | 'SELECT' | 'INSERT' | 'UPDATE' | 'DELETE';
  /** The roles it applies to (`public` = every role). */
  roles: string[];
  permissive: boolean;
  /** The USING expression, or null. */
  using: string | null;
  /** The WITH CHECK expression, or null. */
  check: string | null;
}

/** What the database's catalog says of one table or view of the exposed schema. */
export interface CatalogTable {
  kind: 'table' | 'view';
  /** Row-level security is enabled. */
  rls: boolean;
  /**
   * What the `authenticated` role may do; null where the database has no such role. `anonSelect`: whether the
   * `anon` role (requests without a session) may select, absent where there is no such role.
   */
  privileges: { select: boolean; insert: boolean; update: boolean; delete: boolean; anonSelect?: boolean } | null;
  policies: CatalogPolicy[];
  /** Single-column foreign keys, those into auth.users included: column → target. */
  references: { [column: string]: { schema: string; table: string; column: string } };
  /**
   * Where column privileges keep the `authenticated` role from reading, adding or updating some columns of rows it
   * may otherwise: column → false for each of those (docs/own-schema.md#column-privileges).
   */
  columnGrants?: { [column: string]: { select: boolean; insert: boolean; update: boolean } };
}

/** A type as the catalog describes it: `format_type` (a domain type as its base type), its kind, an enum's values. */
export interface CatalogType {
  type: string;
  kind: 'base' | 'composite' | 'domain' | 'enum' | 'pseudo' | 'range' | 'multirange';
  /** An enum's values (of the element, for an array of an enum). */
  values?: string[];
}

/** A function of the exposed schema, as `pg_proc` and `has_function_privilege` describe it (docs/functions.md). */
export interface CatalogFunction {
  name: string;
  kind: 'function' | 'procedure' | 'aggregate' | 'window';
  volatility: 'volatile' | 'stable' | 'immutable';
  securityDefiner: boolean;
  /** Its definition sets `search_path`. */
  searchPathPinned: boolean;
  /** Whether `authenticated` may execute it (the effective privilege); null where there is no such role. */
  executable: boolean | null;
  /** EXECUTE is granted to `supabase_auth_admin` by name: a Supabase auth hook. Absent in facts read before it was. */
  authHook?: boolean;
  /** `COMMENT ON FUNCTION`, or null. */
  description: string | null;
  /** The extension that owns it, or null. */
  extension: string | null;
  returns: CatalogType & { set: boolean; relation: { schema: string; table: string } | null };
  args: (CatalogType & { name: string; mode: 'in' | 'out' | 'inout' | 'variadic' | 'table'; hasDefault: boolean })[];
}

/** The catalog facts a pull reads (plain JSON; `pullDomain({ catalog })` reads them itself from a query function). */
export interface CatalogFacts {
  schema: string;
  tables: { [table: string]: CatalogTable };
  /** Tables of other schemas the exposed tables' foreign keys reach (auth.users aside). Absent in facts read by an older alfred-act. */
  referencedTables?: { schema: string; table: string; columns: { name: string; type: string; kind: 'base' | 'enum'; notNull: boolean }[] }[];
  /** The exposed schema's functions. Absent in facts read by an older alfred-act: then the pull offers none. */
  functions?: CatalogFunction[];
}

/** Runs one SQL statement and resolves to its rows, or to `{ rows }` (node-postgres's `client.query`, PGlite's `db.query`). */
export type CatalogQuery = (sql: string) => Promise<readonly Record<string, unknown>[] | { rows: readonly Record<string, unknown>[] }>;

export interface DomainFromOpenApiOptions extends LoadOptions {
  /** The owner column of every table that has a uuid column of that name. Default: decided per table (docs/own-schema.md). */
  ownerColumn?: string;
  /** The domain's name (error messages). Default: the overrides' `name`, else `defaultName`, else `"database"`. */
  name?: string;
  /** The name used when neither `name` nor the overrides give one. */
  defaultName?: string;
  /** The catalog's facts (policies, grants, views, references into auth.users): owners and writes decided from them. */
  catalog?: CatalogFacts | null;
  /** A loaded core; otherwise one is loaded. */
  core?: Core;
}

export interface PullDomainOptions extends Omit<DomainFromOpenApiOptions, 'catalog'> {
  /** A Supabase project URL or a PostgREST root. */
  url: string;
  /** Sent as `apikey`. */
  apiKey?: string;
  /** A signed-in user's JWT. */
  accessToken?: string;
  /**
   * The catalog's facts, or a function that runs the four read-only catalog queries on the database
   * (`(sql) => client.query(sql)` with node-postgres). A failing query is a `network_error` at `catalog`.
   */
  catalog?: CatalogFacts | CatalogQuery | null;
  overrides?: DomainOverrides | string | null;
  fetch?: (input: string, init?: { headers?: Record<string, string> }) => Promise<{ ok: boolean; status: number; text(): Promise<string> }>;
}

/**
 * Derives a domain from PostgREST's OpenAPI description (`GET /` with
 * `Accept: application/openapi+json`), merges `overrides` and validates the
 * result with the core. Never rejects. Rules: docs/own-schema.md.
 *
 * @example
 * const spec = await (await fetch(`${url}/rest/v1/`, { headers: { apikey, accept: 'application/openapi+json' } })).json()
 * const { data: domain, error, notes } = await domainFromOpenApi(spec, { tables: { deals: { ref: 'deal' } } })
 * if (error) throw new Error(`${error.path}: ${error.message} (${error.hint})`)
 * const act = createAct({ url, apiKey, accessToken, userId, domain })
 */
export declare function domainFromOpenApi(
  spec: Record<string, unknown> | string,
  overrides?: DomainOverrides | string | null,
  options?: DomainFromOpenApiOptions,
): Promise<DomainPullResult>;

/**
 * Fetches the description from the live database and derives its domain, as
 * `alfred-act domain pull` does; with `catalog`, also from the database's
 * policies, grants and references into auth.users. Never rejects
 * (`network_error`, `http_error`, `invalid_openapi` are errors).
 *
 * @example
 * const { data: domain, error, notes } = await pullDomain({ url: SUPABASE_URL, apiKey: secretKey, catalog: (sql) => client.query(sql) })
 */
export declare function pullDomain(options: PullDomainOptions): Promise<DomainPullResult>;

/**
 * The TypeScript types of `domain` as `alfred-act domain pull --types FILE`
 * writes them (docs/types.md): a module whose `Domain` type makes
 * `createAct<Domain>(…)` reject a table, column, value, ref or function the
 * domain does not have. `core` is a loaded core (it writes the tool schemas
 * the types are read from).
 *
 * @example
 * writeFileSync('domain.d.ts', domainTypes(await loadCore(), domain))
 * // import type { Domain } from './domain.js'; const act = createAct<Domain>({ url, apiKey, accessToken, domain })
 */
export declare function domainTypes(core: Core, domain: DomainConfig): string;

/** The tools, in the order the core lists them (generated from the core). */
export declare const TOOL_NAMES: readonly ToolName[];

/**
 * What the typed entry points (`execute`, `buildRequest`) know of a domain:
 * the shape `alfred-act domain pull --types` writes, as `supabase gen types`
 * writes a `Database` type. Pass it as the type argument of `createAct`,
 * `loadCore` or `core.createAct`. Without one, table, column and function
 * names and values stay open while tool names, filter ops and param names
 * are checked (`Act` is `Act<any>`, as supabase-js's `SupabaseClient` is,
 * so a typed act goes wherever an `Act` does; the params types default to
 * `AnyDomain`). docs/types.md.
 *
 * @example
 * import type { Domain } from './domain.js' // alfred-act domain pull --types domain.d.ts
 * const act = createAct<Domain>({ supabase, domain })
 * await act.execute('db_read', { table: 'recipes', filters: [{ field: 'cuisine', op: '=', value: 'thai' }] })
 */
export interface DomainTypes {
  readonly tables: { readonly [table: string]: TableTypes };
  readonly functions: { readonly [name: string]: FunctionTypes };
}

/**
 * One table of a `DomainTypes`. Each write the table does not take is `never`: `Insert` (db_create), `Update`
 * (db_update), `Delete` (db_delete); a read-only table has all three `never`.
 */
export interface TableTypes {
  /** A row as a read returns it: every column the model sees, keys and references as refs (`recipe_3`); `never` for a write-only table. */
  readonly Row: object;
  /** What a filter's `value` takes per column (and `_semantic` where the table has semantic search). */
  readonly Filters: object;
  /** A `db_create` row: the columns a create may set, the required ones required; `never` where creates are not taken. */
  readonly Insert: object;
  /** A `db_update` change: the columns an update may set; `never` where updates are not taken. */
  readonly Update: object;
  /** `true` where db_delete takes the table, `never` where not. Absent (types written before it): as `Insert`. */
  readonly Delete?: true;
  /** The relations a read may embed besides the tables (`columns: ['relation(col)']`). */
  readonly Relations: string;
}

/** One function of a `DomainTypes`: its arguments as `db_call` takes them. */
export interface FunctionTypes {
  readonly Args: object;
}

/** Any domain: open table, column and function names, any JSON values. The default of the params types. */
export interface AnyDomain {
  tables: {
    [table: string]: { Row: Row; Filters: { [column: string]: JsonValue }; Insert: Row; Update: Row; Delete: true; Relations: string };
  };
  functions: { [name: string]: { Args: { [argument: string]: JsonValue } } };
}

/** A ref of the table whose prefix is `P`: `recipe_3`, or a generated one, `gen_recipe_1`. */
export type Ref<P extends string> = `${P}_${number}` | `gen_${P}_${number}`;

/** The tables of `D`. */
export type TableName<D extends DomainTypes = AnyDomain> = Extract<keyof D['tables'], string>;

/** The tables of `D` the model may read: all but the write-only ones (`Row` is `never`). */
export type ReadableTableName<D extends DomainTypes = AnyDomain> = {
  [T in TableName<D>]: [D['tables'][T]['Row']] extends [never] ? never : T;
}[TableName<D>];

/** The tables of `D` that take creates. */
export type CreatableTableName<D extends DomainTypes = AnyDomain> = {
  [T in TableName<D>]: [D['tables'][T]['Insert']] extends [never] ? never : T;
}[TableName<D>];

/** The tables of `D` that take updates. */
export type UpdatableTableName<D extends DomainTypes = AnyDomain> = {
  [T in TableName<D>]: [D['tables'][T]['Update']] extends [never] ? never : T;
}[TableName<D>];

/** The tables of `D` that take deletes. */
export type DeletableTableName<D extends DomainTypes = AnyDomain> = {
  [T in TableName<D>]: 'Delete' extends keyof D['tables'][T]
    ? [D['tables'][T]['Delete']] extends [never]
      ? never
      : T
    : [D['tables'][T]['Insert']] extends [never]
      ? never
      : T;
}[TableName<D>];

/** The tables of `D` that take any write (a table may take some and not others: `"writable": ["update"]`). */
export type WritableTableName<D extends DomainTypes = AnyDomain> = CreatableTableName<D> | UpdatableTableName<D> | DeletableTableName<D>;

/** The columns of table `T` a read returns and `columns`, `order_by` and `group_by` name. */
export type ColumnName<D extends DomainTypes = AnyDomain, T extends TableName<D> = TableName<D>> = Extract<keyof D['tables'][T]['Row'], string>;

/** A row of table `T`, as a read returns it. */
export type TableRow<D extends DomainTypes = AnyDomain, T extends TableName<D> = TableName<D>> = D['tables'][T]['Row'];

/** What a filter's `value` takes for a column whose values are `V`: one, a list (`in`, `contains`, …), or `null`. */
export type FilterValue<V> = V | readonly (V extends readonly (infer E)[] ? E : V)[] | null;

/**
 * One condition. `value` holds refs (`recipe_1`), never UUIDs, for uuid
 * columns; it is omitted for `is_null` / `is_not_null`. With a domain's
 * types (`F`: a table's `Filters`), `field` is one of its columns and
 * `value` of that column's type.
 *
 * @example
 * { field: 'recipe_id', op: 'in', value: ['recipe_1', 'recipe_2'] }
 * { field: 'document', op: 'search', value: '"lisbon contract" -draft', language: 'english' }
 */
export type FilterClause<F extends object = { [column: string]: JsonValue }> = {
  [K in Extract<keyof F, string>]:
    | { field: K; op: Exclude<FilterOp, NullTestOp | TextMatchOp>; value?: FilterValue<F[K]> }
    | {
        field: K;
        op: NullTestOp;
        /** Omitted or `true`; `false` means the opposite test. */
        value?: boolean | null;
      }
    | {
        field: K;
        op: TextMatchOp;
        /** A pattern (`like`, `ilike`), the words to find (`search`) or the text to embed (`similar`). */
        value?: string | null;
        /** `search` / `not_search` only: how the words are read (PostgREST's wfts, plfts, phfts, fts). Default `websearch`, which takes any text. */
        mode?: 'websearch' | 'plain' | 'phrase' | 'query' | null;
        /** `search` / `not_search` only: the text search configuration (`english`, `simple`). Default: the database's. */
        language?: string | null;
      };
}[Extract<keyof F, string>];

/** The ops that test for null: their value is omitted, or a boolean. */
export type NullTestOp = Extract<FilterOp, 'is_null' | 'is_not_null'>;
/** The ops whose value is text whatever the column holds: patterns, text search, similarity. */
export type TextMatchOp = Extract<FilterOp, 'like' | 'ilike' | 'not_like' | 'not_ilike' | 'not like' | 'not ilike' | 'search' | 'not_search' | 'not search' | 'fts' | 'similar'>;

/** The filters of table `T`. */
type TableFilter<D extends DomainTypes, T extends TableName<D>> = FilterClause<D['tables'][T]['Filters']>;

/** What `columns` of a read of `T` may name: a column, `*`, or an embed of a relation or table (`recipe_ingredients(name, quantity)`). */
export type ColumnSelection<D extends DomainTypes = AnyDomain, T extends TableName<D> = TableName<D>> =
  | ColumnName<D, T>
  | '*'
  | `${TableName<D> | D['tables'][T]['Relations']}(${string})`;

/** `db_read`: select rows. Filters are ANDed; `or_filters` are ORed with each other. */
export type ReadParams<D extends DomainTypes = AnyDomain> = {
  [T in ReadableTableName<D>]: {
    table: T;
    filters?: readonly TableFilter<D, T>[];
    or_filters?: readonly TableFilter<D, T>[];
    /** Column names and embeds (`"recipe_ingredients(name, quantity)"`), as an array or comma-separated. Default: every visible column. */
    columns?: readonly ColumnSelection<D, T>[] | string;
    limit?: number;
    offset?: number;
    order_by?: ColumnName<D, T>;
    order_dir?: 'asc' | 'desc';
    /** Ask PostgREST for a row count; `true` means `'exact'`. */
    count?: boolean | 'exact' | 'planned' | 'estimated';
  };
}[ReadableTableName<D>];

/** `db_create`: insert one row, or a batch. */
export type CreateParams<D extends DomainTypes = AnyDomain> = {
  [T in CreatableTableName<D>]: { table: T; data: InsertRow<D, T> | readonly InsertRow<D, T>[] };
}[CreatableTableName<D>];

type InsertRow<D extends DomainTypes, T extends TableName<D>> = D['tables'][T]['Insert'];
type UpdateRow<D extends DomainTypes, T extends TableName<D>> = D['tables'][T]['Update'];

/** `db_update`: patch the rows the filters select (at least one narrowing filter is required). */
export type UpdateParams<D extends DomainTypes = AnyDomain> = {
  [T in UpdatableTableName<D>]: { table: T; filters: readonly TableFilter<D, T>[]; data: UpdateRow<D, T> };
}[UpdatableTableName<D>];

/** `db_delete`: delete the rows the filters select (at least one narrowing filter is required). */
export type DeleteParams<D extends DomainTypes = AnyDomain> = {
  [T in DeletableTableName<D>]: { table: T; filters: readonly TableFilter<D, T>[] };
}[DeletableTableName<D>];

/**
 * `db_call`: run one of the domain's functions (docs/functions.md) as the
 * signed-in user. `args` holds refs (`project_2`) and `me`, never ids; an
 * argument of type `vector` takes the text to search for (the act's
 * embedder turns it into the vector). Strict mode gives `args` as JSON text.
 *
 * @example
 * { function: 'archive_project', args: { project_id: 'project_2' } }
 * { function: 'suggested_titles', args: { how_many: 500 }, limit: 20, offset: 50 }
 */
export type CallParams<D extends DomainTypes = AnyDomain> = {
  [F in Extract<keyof D['functions'], string>]: {
    function: F;
    args?: D['functions'][F]['Args'] | string | null;
    /** A function that returns a set: at most this many of its rows (the act's cap at most). */
    limit?: number | null;
    /** A function that returns a set: rows to skip, for paging. */
    offset?: number | null;
  };
}[Extract<keyof D['functions'], string>];

/**
 * `db_aggregate`: counts, totals, averages, min and max over the rows the
 * filters select, per group, without reading the rows (docs/aggregates.md).
 * A metric's key in the result is its `fn`, or `fn_field` (`sum_amount`).
 *
 * @example
 * { table: 'deals', filters: [{ field: 'stage', op: '=', value: 'won' }], group_by: ['organization_id'], metrics: [{ fn: 'sum', field: 'amount' }], order_by: { metric: 0, dir: 'desc' }, limit: 5 }
 */
export type AggregateParams<D extends DomainTypes = AnyDomain> = {
  [T in ReadableTableName<D>]: {
    table: T;
    filters?: readonly TableFilter<D, T>[];
    or_filters?: readonly TableFilter<D, T>[];
    group_by?: readonly ColumnName<D, T>[];
    metrics: readonly { fn: 'count' | 'count_distinct' | 'sum' | 'avg' | 'min' | 'max'; field?: ColumnName<D, T> | null }[];
    /** The metric to order the groups by (its index in `metrics`), or its key, largest first. */
    order_by?: { metric: number; dir: 'asc' | 'desc' } | string;
    having?: readonly { metric: number; op: '=' | '!=' | '>' | '>=' | '<' | '<='; value: number }[];
    /** The most groups returned. */
    limit?: number;
    /** How a count of rows is made: exact (the default), planned or estimated. */
    count?: 'exact' | 'planned' | 'estimated';
  };
}[ReadableTableName<D>];

/** The params type of each tool, for the domain `D` (default: any domain). */
export interface ToolParams<D extends DomainTypes = AnyDomain> {
  db_read: ReadParams<D>;
  db_create: CreateParams<D>;
  db_update: UpdateParams<D>;
  db_delete: DeleteParams<D>;
  db_call: CallParams<D>;
  db_aggregate: AggregateParams<D>;
}

/** Where a request goes: exactly one of `url`, `restUrl`, `baseUrl`. */
export type RequestLocation =
  | { /** The Supabase URL (`https://<ref>.supabase.co`, `http://127.0.0.1:54321`); gets `/rest/v1`. */ url: string; restUrl?: never; baseUrl?: never }
  | { /** A bare PostgREST root (`http://127.0.0.1:3000`), used as it is. */ restUrl: string; url?: never; baseUrl?: never }
  | { /** The PostgREST root, as `restUrl` (the original name); a bare `https://<ref>.supabase.co` is refused. */ baseUrl: string; url?: never; restUrl?: never };

/** Where and as whom a request is built. An unknown option is `invalid_option`. */
export type BuildRequestOptions = BuildRequestCredentials & RequestLocation;

export interface BuildRequestCredentials {
  /** Default: the registry's domain, else the core's (`loadCore({ domain })`). A registry of another domain is an error. */
  domain?: DomainConfig;
  /** Resolves the refs in the call. Default: an empty registry of the domain, owned by the core. */
  registry?: Registry;
  /** The signed-in user's id (a UUID); default: the access token's `sub`; required for `user_owned` tables. */
  userId?: string;
  /** The project's anon/publishable key, sent as `apikey`. Never a service-role key. */
  apiKey?: string;
  /** The signed-in user's JWT, sent as `Authorization: Bearer …`, so row-level security applies. */
  accessToken?: string;
  /** Longest URL built; longer requests fail with `url_too_long`. Default 8000. */
  maxUrlLength?: number;
}

/** A request ready for `fetch(url, { method, headers, body })`. */
export interface HttpRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** The full URL, query string encoded. */
  url: string;
  headers: Record<string, string>;
  /** JSON text, or `null` for GET and DELETE. */
  body: string | null;
}

/**
 * An error as a value. Branch on `code`; `path` points into the input
 * (`filters[0].value[0]`); `hint` says what is allowed.
 */
export interface AlfredErrorShape {
  /** One of the catalog's codes (docs/error-codes.md). */
  code: ErrorCode;
  message: string;
  path: string;
  hint: string;
}

/** What every fallible call returns instead of throwing. */
export type Result<T> = { data: T; error: null } | { data: null; error: AlfredErrorShape };

/** What a row's last action was, as the registry records it. */
export type RefAction = 'read' | 'created' | 'updated' | 'deleted' | 'generated' | 'linked';

/** One ref in a serialized registry. */
export interface RegistryRef {
  ref: string;
  table: string;
  /** `null` while a generated (`gen_`) ref is not saved. */
  uuid: string | null;
  label: string;
  action: RefAction;
  turn_created: number;
  turn_last: number;
  /** The generated content, kept while pending and until the turn that saved it ends. */
  content?: JsonValue;
  /** For a saved `gen_` ref: the saved row's regular ref. */
  saved_as?: string;
  turn_saved?: number;
}

/** The serialized registry, as `registry.toJSON()` returns it. Treat it as opaque and store it whole. */
export interface RegistryState {
  format: 'alfred-act/registry';
  version: number;
  turn: number;
  /** The signed-in user the refs were made for (the token's `sub`); another user's calls are refused. */
  user?: string;
  counters: Record<string, number>;
  gen_counters: Record<string, number>;
  refs: RegistryRef[];
  /** Creates whose answer was lost: the row ids a retry sends again. */
  uncertain?: { key: string; ids: string[] }[];
  /**
   * Tables whose reads the database refused to join the rows their foreign
   * keys point at to (for their labels): their reads look the labels up after
   * the read instead.
   */
  joins_refused?: string[];
}

/** Options of `loadCore`. */
export interface LoadOptions {
  /**
   * A compiled `alfred_core.wasm` (import `alfred-act/alfred_core.wasm` in a
   * bundler or Worker). When omitted, the runtime's entry compiles the shipped
   * file once per process.
   */
  wasmModule?: WebAssembly.Module;
  /**
   * Where the core comes from under a bundler: what
   * `import wasm from 'alfred-act/alfred_core.wasm'` gives (a compiled module
   * in Workers, the emitted file's URL under esbuild's `file` loader or a
   * webpack `asset/resource` rule), or any URL of `alfred_core.wasm` (in Node
   * also a file path). See docs/bundlers.md.
   */
  wasm?: WebAssembly.Module | URL | string;
  /**
   * The most UTF-8 bytes one stateless call (`buildRequest`, `buildActPrompt`,
   * `parseDecision`, `renderQuery`, `translateRows`, `registerGenerated`, a
   * restored state) takes; larger inputs are `input_too_large` before they
   * reach WASM memory. Default and largest value 8 MiB: a call of that size
   * already peaks near the core's 96 MiB of memory (docs/limits-and-faults.md).
   */
  maxInputBytes?: number;
  /**
   * The domain the core binds its registries and calls to when they name none
   * (validated at load; a bad one rejects with `invalid_domain`). Default: `kitchen`.
   */
  domain?: DomainConfig;
  /**
   * Default `true`: once per compiled module, when the runtime is next idle
   * after loading, the core runs a few calls of its own (a read, a create and
   * an update on a small domain, answered in process; no request leaves, no
   * tracer or audit hook sees them), so that the app's first `createAct` and
   * first tool call do not pay for compiling the code they reach (about 15 ms
   * in Node). Skipped when the app has started a call by then, and in
   * Cloudflare Workers. `false` turns it off (docs/architecture.md, "The
   * first call").
   */
  warmUp?: boolean;
}

/**
 * The limits of one `execute` call (docs/limits-and-faults.md). Past one, the
 * call fails with `params_too_large`, `value_too_large` or
 * `response_too_large` before anything larger is copied into WASM memory.
 */
export interface ExecutionLimits {
  /** The tool call's params as JSON text. Default 1 MiB, at most 4 MiB. */
  maxParamsBytes: number;
  /** Any one string (value or key) in the params. Default 256 KiB, at most 2 MiB. */
  maxStringBytes: number;
  /** One response body, checked on Content-Length and while it streams. Default and largest value 8 MiB. */
  maxResponseBytes: number;
  /** Rows in one response. Default 10 000, at most 100 000. */
  maxRows: number;
}

/**
 * The caps on one tool result for the model (`act.callTool`,
 * `core.toolResult`, every adapter): at most `rows` rows (default 50) and
 * `chars` characters of JSON (default 16 000, at least 1 000). `act.execute`
 * is never capped.
 */
export interface ResultLimits {
  rows: number;
  chars: number;
}

/**
 * How much of the schema the tool definitions carry: `'compact'` (the
 * default: db_read's description lists each table on one line, rows are
 * open objects; the full schema on demand) or `'inline'` (every column with
 * its type, columns as enums, rows typed per table).
 */
export type ToolSchemaMode = 'compact' | 'inline';

/**
 * Loads the core. The compiled module is cached per process (per URL for
 * `wasm`), but every call instantiates a new core with its own memory: load
 * it once per process or isolate and create every act from it with
 * `core.createAct` (docs/bundlers.md). Rejects with `AlfredError`: `invalid_option` when
 * `wasmModule` or `wasm` has the wrong type, and `wasm_fetch_failed` when
 * `alfred_core.wasm` cannot be fetched or what came back is not WebAssembly.
 *
 * @example
 * import { loadCore } from 'alfred-act'
 * const core = await loadCore()
 */
export declare function loadCore<D extends DomainTypes = any>(options?: LoadOptions): Promise<Core<D>>;

/**
 * The loaded core. `buildRequest` is stateless; registries own WASM memory
 * and must be deleted.
 */
export declare class Core<D extends DomainTypes = any> {
  private constructor();

  /** The kitchen domain configuration (the default `domain`). */
  readonly kitchen: DomainConfig;

  /** The default limits of one `execute` call; `createAct({ limits })` overrides them. */
  readonly executionLimits: Readonly<ExecutionLimits>;

  /** The input limit of the stateless calls (`loadCore({ maxInputBytes })`). */
  readonly maxInputBytes: number;

  /**
   * Checks a domain (an object or its JSON text) with the core's own parser:
   * the domain, or an error with the `path` into it and a `hint`.
   *
   * @example
   * const { error } = core.validateDomain(JSON.parse(readFileSync('domain.json', 'utf8')))
   * if (error) console.error(`${error.path}: ${error.message} (${error.hint})`)
   */
  validateDomain(domain: DomainConfig | string): Result<DomainConfig>;

  /**
   * `domainFromOpenApi` with this core: synchronous.
   *
   * @example
   * const { data: domain, error, notes } = core.domainFromOpenApi(spec, overrides, { ownerColumn: 'owner_id' })
   */
  domainFromOpenApi(
    spec: Record<string, unknown> | string,
    overrides?: DomainOverrides | string | null,
    options?: { ownerColumn?: string; name?: string; defaultName?: string; catalog?: CatalogFacts | null },
  ): DomainPullResult;

  /**
   * The examples the Act prompt shows for `domain` (default: the core's): the
   * domain's own `prompt_examples`, the other slots derived from its tables.
   *
   * @example
   * core.promptExamples(crm).data?.gen_ref // 'gen_org_1'
   */
  promptExamples(domain?: DomainConfig): Result<Record<string, string>>;

  /**
   * A ref registry bound to `domain` (default: the core's), empty or restored
   * from `registry.toJSON()` of an earlier turn (the object or its JSON text).
   * Throws `AlfredError` (`invalid_state`, `unsupported_state_version`) for a
   * damaged state or one whose refs belong to another domain.
   *
   * @example
   * using registry = core.createRegistry(saved ?? undefined)
   * // … run the turn …
   * saved = registry.toJSON()
   */
  createRegistry(state?: RegistryState | string | null, options?: { domain?: DomainConfig }): Registry;

  /** The domain the core was loaded with (`loadCore({ domain })`; the kitchen by default). */
  readonly domain: DomainConfig;

  /**
   * Validates a tool call, translates its refs and builds the PostgREST
   * request. Never throws for bad input: model output is checked at run time
   * whatever its static type, and problems come back as `error`.
   *
   * @example
   * const { data, error } = core.buildRequest('db_read',
   *   { table: 'inventory', filters: [{ field: 'location', op: '=', value: 'fridge' }] },
   *   { registry, url: 'https://<project>.supabase.co', apiKey, accessToken }) // userId: the token's sub
   * if (!error) await fetch(data.url, { method: data.method, headers: data.headers, body: data.body })
   */
  buildRequest<T extends ToolName>(tool: T, params: ToolParams<D>[T], options: BuildRequestOptions): Result<HttpRequest>;

  /**
   * Builds the Act prompt for one plan step (docs/prompt-anatomy.md): the
   * system prompt from the core's templates, the user prompt's numbered
   * sections from `input`, the registry (entity context) and the domain
   * (schema). Never contains a UUID.
   *
   * @example
   * const { data, error } = core.buildActPrompt({ step: { type: 'read', description: 'Read the fridge', index: 0, total: 2 },
   *   user_message: "what's in my fridge?", today: '2026-02-09' }, { registry })
   */
  buildActPrompt(input: ActPromptInput, options?: ActPromptOptions): Result<ActPrompt>;

  /**
   * Parses the model's reply into an ActDecision: ```json fences, text
   * around the object, strict-mode nulls and JSON-text `params.data`/`data`
   * are all accepted. With `stepType`, actions the step may not take are errors.
   *
   * @example
   * const { data: decision, error } = core.parseDecision(reply, { stepType: 'read' })
   */
  parseDecision(text: string, options?: { stepType?: StepType }): Result<ActDecision>;

  /**
   * Renders an executed query record (or a whole step result item) the way
   * prompts, Reply, Think and the CLI show it.
   *
   * @example
   * core.renderQuery(item.query).data // 'Query: Table: inventory | Filters: location = pantry | Limit: 100\nOutcome: 0 records found\n…'
   */
  renderQuery(record: QueryRecord | StepResultItem, options?: { style?: 'block' | 'line' }): Result<string>;
  /** An executor for one user; see `createAct`. Its type argument is the core's unless given. */
  createAct<A extends DomainTypes = D>(options: ActOptions): Act<A>;
  /**
   * `text` with every UUID replaced by the ref `registry` holds for it, or
   * by `<id>` (every UUID when no registry is given): the core's scrubber,
   * for any text a model will read.
   *
   * @example
   * core.withoutUuids('Key (id)=(c69607bb-5d2e-4b8a-9f3c-1e2d3c4b5a61) already exists', { registry: act.registry })
   * // 'Key (id)=(inv_1) already exists'
   */
  withoutUuids(text: string, options?: { registry?: Registry }): string;
  /**
   * The domain's schema as the model reads it (markdown: the body of the Act
   * prompt's Schema section), for the core's domain unless `domain` is given.
   *
   * @example
   * const { data } = core.schemaDescription() // 'Types: number = decimal, … ### recipes (refs recipe_N) - id: ref …'
   */
  schemaDescription(options?: { domain?: DomainConfig; fixed?: readonly string[] }): Result<string>;
  /** The JSON Schema of the Act model's output (OpenAI strict structured outputs). */
  readonly actDecisionSchema: Readonly<Record<string, JsonValue>>;
  /**
   * The parts of a ref by the core's ref grammar, or `null` for text not
   * shaped like one (no registry lookup).
   *
   * @example
   * core.parseRef('gen_recipe_1') // { generated: true, prefix: 'recipe', number: 1 }
   */
  parseRef(text: string): { generated: boolean; prefix: string; number: number } | null;
  /** Which tools each step type may call: the rule `parseDecision({ stepType })` applies (the source of `STEP_TOOLS`). */
  readonly stepTools: { readonly [type in StepType]: readonly ToolName[] };
  /**
   * The four tools as `{ name, description, parameters }`, the JSON Schemas
   * generated from `domain` (default: kitchen). `strict: true`: the OpenAI
   * strict-mode variant. `schema`: `'compact'` (default) or `'inline'`;
   * `readOnly: true`: `db_read` only, as a read-only act offers. Throws
   * `AlfredError` for an invalid domain or option.
   *
   * @example
   * const tools = core.toolDefinitions({ strict: true })
   */
  toolDefinitions(options?: { domain?: DomainConfig; strict?: boolean; schema?: ToolSchemaMode; readOnly?: boolean; fixed?: readonly string[] }): readonly ToolDefinition[];
  /**
   * The tool result for the model from what `act.execute` returned, cut to
   * `resultLimits` (default 50 rows, 16 000 characters). No UUID in it: one
   * inside a text value shows as its ref in `registry` (the Act's), or as
   * `<id>`; `outcome.data` keeps the text as written.
   *
   * @example
   * const result = core.toolResult('db_read', await act.execute('db_read', params), { registry: act.registry, resultLimits: act.resultLimits })
   * const content = JSON.stringify(result)
   */
  toolResult(tool: ToolName | string, outcome: ExecuteResult, options?: { registry?: Registry; resultLimits?: Partial<ResultLimits> }): ToolResult;
  /**
   * `toolResult` as the JSON text the model reads (a tool message's `content`).
   *
   * @example
   * messages.push({ role: 'tool', tool_call_id: call.id, content: core.toolResultText('db_read', outcome, { registry: act.registry }) })
   */
  toolResultText(tool: ToolName | string, outcome: ExecuteResult, options?: { registry?: Registry; resultLimits?: Partial<ResultLimits> }): string;
}

/** The kind of a plan step. */

/** What the executor reports for one tool call; values are refs, never UUIDs. */
export interface QueryShape {
  filters?: FilterClause[];
  or_filters?: FilterClause[];
  columns?: string[] | null;
  limit?: number | null;
  offset?: number | null;
  order_by?: string | null;
  order_dir?: 'asc' | 'desc' | null;
  /** create/update: the columns written. */
  data_columns?: string[] | null;
  /** create: the number of rows. */
  records?: number | null;
}

export interface QueryRecord {
  tool: ToolName;
  table: string;
  /** `db_call`: the function called. */
  function?: string;
  /** `db_call` of a function that reads and returns a set: `limit` and `offset` page it. */
  pages?: boolean;
  requested: QueryShape;
  /** What the database was asked after middleware; `null` when nothing changed. */
  effective?: QueryShape | null;
  notes?: string[];
  /** `generated`: answered from pending gen_ artifacts; `none`: not executed. */
  source?: 'database' | 'generated' | 'none';
  count?: number | null;
}

/** One executed tool call of a step, as the executor returns it. */
export interface StepResultItem {
  tool: ToolName;
  table: string;
  data: JsonValue;
  error: AlfredErrorShape | null;
  count: number | null;
  query: QueryRecord;
}

/** A completed step of the plan. `index` is 0-based. */
export interface StepRecord {
  index: number;
  type: StepType;
  description: string;
  summary?: string | null;
  note?: string | null;
  results?: StepResultItem[];
  /** analyze/generate: the step's output. */
  data?: JsonValue;
}

/** The input of `core.buildActPrompt`. Everything but `step` is optional. */
export interface ActPromptInput {
  step: { type: StepType; description?: string; index?: number; total?: number; subdomain?: string | null };
  user_message?: string;
  /** `YYYY-MM-DD`. */
  today?: string;
  /** Every step's description, in order. */
  plan?: string[];
  conversation?: { role: 'user' | 'assistant' | string; text: string }[];
  /** This turn's completed steps. */
  previous_steps?: StepRecord[];
  /** The tool calls made so far in this step. */
  current_step_results?: StepResultItem[];
  /** The last turns' steps (oldest first): their rows are entity data, the last one is summarized. */
  previous_turns?: { turn: number; steps: StepRecord[] }[];
  user_profile?: string | Record<string, JsonValue> | null;
  subdomain_guidance?: string | null;
  /** Replacement templates by name: `act/base`, `act/crud`, `act/read`, `act/write`, `act/analyze`, `act/generate`. */
  templates?: Record<string, string>;
  /** Truncation rules (defaults in docs/prompt-anatomy.md). */
  limits?: Partial<Record<
    | 'rows_per_result' | 'refs_per_overflow' | 'chars_per_value' | 'full_steps' | 'chars_per_step_output'
    | 'conversation_messages' | 'chars_per_message' | 'entities_with_data' | 'memory_refs',
    number
  >>;
}

export interface ActPromptOptions extends DomainOption {
  /** Default: the core's default registry. */
  registry?: Registry;
}

export interface ActPrompt {
  system: string;
  user: string;
}

/** A parsed ActDecision; only the members its action uses are present. */
export type ActDecision =
  | { action: 'tool_call'; tool: ToolName; params: Record<string, JsonValue> }
  | { action: 'step_complete'; summary: string; data: JsonValue; note_for_next_step: string | null }
  | { action: 'ask_user'; question: string }
  | {
      action: 'blocked';
      reason_code: 'INSUFFICIENT_INFO' | 'PLAN_INVALID' | 'TOOL_FAILURE';
      details: string | null;
      suggested_next: 'ask_user' | 'replan' | 'fail' | null;
    }
  | { action: 'fail'; details: string | null };

/**
 * The ActDecision JSON Schema, valid under OpenAI strict structured outputs.
 * `params.data` and `data` are JSON text (strict mode has no open objects).
 */
export declare const actDecisionSchema: Readonly<Record<string, JsonValue>>;

/** Options of the registry methods that read the domain. */
export interface DomainOption {
  /**
   * Default: the registry's domain (or, for `createAct`, the core's). A
   * domain is bound once: a different one next to a registry is an error.
   */
  domain?: DomainConfig;
}

/** Options of `registry.translateRows`. */
export interface TranslateRowsOptions extends DomainOption {
  /** What produced the rows. Default `'read'`. */
  action?: 'read' | 'created' | 'updated' | 'deleted';
}

/**
 * Session-long ref state: which UUID each ref (`recipe_1`, `gen_recipe_1`)
 * stands for, its label and last action. Owns WASM memory: call `delete()`
 * or declare it with `using`. After `delete()`, `toJSON`, `turn`, `setTurn`
 * and `endTurn` throw `AlfredError` (`invalid_option`) and the other methods
 * return it as `error`.
 */
export declare class Registry {
  private constructor();

  /** The domain this registry's refs belong to (`createRegistry(state, { domain })`). */
  readonly domain: DomainConfig;

  /** The serializable state, to store between turns. */
  toJSON(): RegistryState;

  /** The current turn number. */
  readonly turn: number;

  /** Moves to turn `n` (turns only go forward). */
  setTurn(n: number): void;

  /** Drops the content of generated artifacts that have been saved. */
  endTurn(): void;

  /**
   * Replaces UUIDs with refs in rows PostgREST returned for `table`, drops
   * hidden and undeclared columns, and registers the rows.
   *
   * @example
   * const { data } = registry.translateRows('recipes', await response.json())
   * // [{ id: 'recipe_1', name: 'Butter Chicken' }]
   */
  translateRows(table: string, rows: Row[], options?: TranslateRowsOptions): Result<Row[]>;
  translateRows(table: string, row: Row, options?: TranslateRowsOptions): Result<Row>;

  /**
   * Keeps generated, unsaved content under a new `gen_` ref and returns the ref.
   *
   * @example
   * const { data: ref } = registry.registerGenerated('recipes', { name: 'Thai Basil Chicken' }) // 'gen_recipe_1'
   */
  registerGenerated(table: string, content: JsonValue, options?: DomainOption): Result<string>;

  /**
   * Binds a pending `gen_` ref to the row that saved it and returns the row's
   * regular ref. Saving the same artifact twice is an error.
   *
   * @example
   * const { data: ref } = registry.promote('gen_recipe_1', savedRow.id, savedRow.name) // 'recipe_4'
   */
  promote(genRef: string, uuid: string, label?: string): Result<string>;

  /**
   * Replaces the content (and label) of a pending `gen_` ref the model revised;
   * returns the ref. An unknown or already saved ref is an error (`unknown_ref`).
   *
   * @example
   * const { error } = registry.updateGenerated('gen_recipe_1', { name: 'Spicy Thai Basil Chicken' })
   */
  updateGenerated(genRef: string, content: JsonValue, options?: DomainOption): Result<string>;

  /**
   * The table a ref this registry holds names (for a promoted `gen_` ref, the
   * saved row's), or `null`.
   *
   * @example
   * registry.tableOf('gen_recipe_1') // 'recipes'
   */
  tableOf(ref: string): string | null;

  /**
   * The row ids a create of unknown outcome was sent with, under `key` (the
   * call's `[tool, params]` JSON, or the `gen_` ref it saved), or `null`.
   * Kept in `toJSON()`, so a retry in a later call reuses them.
   *
   * @example
   * registry.uncertainIds(JSON.stringify(['db_create', params])) // ['5b0c…'] or null
   */
  uncertainIds(key: string): string[] | null;
  /** Keeps (`ids`) or forgets (`null`) the ids of a create of unknown outcome under `key`. */
  setUncertain(key: string, ids: readonly string[] | null): void;

  /** Frees the WASM memory; later calls fail as described above. Safe to call twice. */
  delete(): void;

  [Symbol.dispose](): void;
}

/**
 * The error `loadCore` and `createRegistry` throw; `{ data, error }` calls
 * return the same fields as a plain `AlfredErrorShape` instead.
 *
 * @example
 * try { core.createRegistry(saved) } catch (e) {
 *   if (e instanceof AlfredError && e.code === 'unsupported_state_version') startOver()
 * }
 */
export declare class AlfredError extends Error {
  constructor(detail: { code: string; message: string; path?: string; hint?: string });
  readonly name: 'AlfredError';
  /** Stable machine-readable code, e.g. `invalid_option`, `invalid_state` (docs/error-codes.md). */
  code: ErrorCode;
  /** Where in the input the problem is; `""` when it is not about one place. */
  path: string;
  /** What is allowed, or a corrected example; may be `""`. */
  hint: string;
  toJSON(): AlfredErrorShape;
}

/**
 * The part of `fetch` the executor uses; every runtime's global fetch fits.
 * The body is read from `body` (a stream, so the size limit holds while it
 * arrives) or, without one, from `arrayBuffer()`.
 */
export type ActFetch = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string; signal?: AbortSignal },
) => Promise<{
  status: number;
  headers: { get(name: string): string | null };
  body?: { getReader(): { read(): Promise<{ done: boolean; value?: Uint8Array }>; cancel(reason?: unknown): Promise<void> } } | null;
  arrayBuffer(): Promise<ArrayBuffer>;
}>;

/** Text → vectors for semantic search; `lexicalEmbedder` (offline, lexical) or `openAIEmbedder`. */
export interface Embedder {
  readonly name: string;
  /** The size of its vectors; null when the model decides (`openAIEmbedder` without `dimensions`). */
  readonly dimensions: number | null;
  embed(texts: string[]): Promise<number[][]>;
}
/** The offline, deterministic, lexical embedder: 1536 numbers, close when texts share words. */
export declare const lexicalEmbedder: Embedder & { readonly dimensions: 1536 };
/**
 * An embedder behind an OpenAI-compatible `POST {baseUrl}/embeddings`.
 * `dimensions` is sent only when given, and every vector must then have that
 * many numbers; left out, the model's own size is taken (all vectors of one
 * answer of one size) and `.dimensions` is null. Throws TypeError for a
 * missing `baseUrl` or a `dimensions` that is not a whole number from 1 to 65535.
 *
 * @example
 * const embedder = openAIEmbedder({ baseUrl: 'http://127.0.0.1:8080/v1', model: 'gte-small', dimensions: 384 })
 */
export declare function openAIEmbedder(options: {
  baseUrl: string;
  apiKey?: string;
  model?: string;
  /** The vectors' size, sent as the request's `dimensions` (text-embedding-3 models take it; ada-002 does not). */
  dimensions?: number | null;
  fetch?: (url: string, init: { method: string; headers: Record<string, string>; body: string }) => Promise<unknown>;
}): Embedder;
/**
 * The text a row is embedded from: the columns of the table's
 * `middleware.semantic.text`, in order. Throws TypeError when the table has none.
 *
 * @example
 * embeddingText(kitchen, 'recipes', { name: 'Chicken Curry', cuisine: 'indian', tags: ['spicy'] }) // 'Chicken Curry. indian. spicy'
 */
export declare function embeddingText(domain: DomainConfig, table: string, row: Row): string;
/** The text a kitchen recipe is embedded from (`embeddingText(kitchen, 'recipes', recipe)`). */
export declare function recipeEmbeddingText(recipe: Row): string;
export declare class EmbeddingError extends Error {
  readonly code: 'http_error' | 'bad_response' | 'network_error';
  readonly status: number | null;
}

/**
 * The signed-in user's access token: the JWT itself, or a function returning
 * it (or a promise of it), as supabase-js's own `accessToken` option takes
 * it. A function is called before every `execute`, so a refreshed token is
 * the one sent; returning `null` or `''` means no session.
 */
export type AccessToken = string | (() => string | null | undefined | Promise<string | null | undefined>);

/**
 * What `createAct` reads from a supabase-js client, typed structurally so
 * supabase-js is not a dependency: its URL, its key and its current
 * session (`auth.getSession()`, or the client's `accessToken` function when
 * it was created with one).
 */
export interface SupabaseClientLike {
  readonly auth: {
    getSession(): Promise<{ data: { session: { access_token: string } | null }; error: unknown }>;
  };
}

/**
 * The preview of a write that needs approval (`error.preview` of
 * `approval_required` and `preview_changed`): what it would change.
 */
export interface WritePreview {
  readonly tool: 'db_create' | 'db_update' | 'db_delete' | 'db_call';
  /** The table written; `db_call`: the table whose rows the function returns ("" for none). */
  readonly table: string;
  /** How many rows the write would change (exact), or a create's rows; `db_call`: 1, the one call (what it changes is the function's). */
  readonly count: number;
  /** The first 20 rows: a create's as the model gave them; an update's or delete's ref and label columns. */
  readonly rows: readonly Row[];
  /** Update and delete: what identifies every row read (its ref; a composite key's values as JSON text). */
  readonly keys?: readonly (string | null)[];
  /** Update: the change, as the model gave it. */
  readonly data?: JsonValue;
  /** In an MCP confirmation: the table's label columns, which name each row to the user. */
  readonly labels?: readonly string[];
  /** `db_call`: the function that would run, its description, and its arguments as the model gave them. */
  readonly function?: string;
  readonly description?: string;
  readonly args?: { readonly [argument: string]: JsonValue };
  /** `db_call`: the label of each argument that is a ref with one (`{ project_id: 'Apollo' }`). */
  readonly argumentLabels?: { readonly [argument: string]: string };
}

/** The call an `approve` function is asked about. */
export interface ApprovalCall {
  readonly tool: 'db_create' | 'db_update' | 'db_delete' | 'db_call';
  /** The table written; `db_call`: the table whose rows the function returns ("" for none). */
  readonly table: string;
  /** `db_call`: the function that would run. */
  readonly function?: string;
  readonly params: ToolParams[ToolName] | JsonValue;
}

/**
 * Which writes need the host's approval: none, deletes, every create,
 * update and delete, or a function the act asks for each write (true runs
 * it; anything else, or a throw, holds it).
 */
export type ApprovePolicy = 'none' | 'deletes' | 'changes' | 'writes' | ((call: ApprovalCall, preview: WritePreview) => boolean | Promise<boolean>);

/**
 * One entry of the audit trail (`createAct({ onAudit })`): one per request
 * sent, and one (with `request: null`) for a call refused before or between
 * requests. The call's error code is in exactly one entry.
 */
export interface AuditEntry {
  /** When the request left, or the call was refused (ISO 8601). */
  readonly at: string;
  readonly userId: string | null;
  readonly tool: string;
  readonly table: string | null;
  /** The call's params as given, a UUID in them shown as its ref (or `<id>`). */
  readonly params: JsonValue;
  readonly request: { readonly method: string; readonly path: string; readonly query: string } | null;
  /** The HTTP status; 0 when no answer came; null for a refusal. */
  readonly status: number | null;
  /** A write request's rows changed (0 when refused; null when unknown or not a write). */
  readonly affected: number | null;
  readonly ms: number | null;
  /** The error code this entry carries, or null. */
  readonly error: ErrorCode | null;
  /** true: run with the host's approval; false: it needed one and did not get it; null: none needed. */
  readonly approved: boolean | null;
}

/** The part of an OpenTelemetry `Tracer` (`@opentelemetry/api`) an act uses. */
export interface TracerLike {
  startSpan(name: string, options?: { kind?: number; attributes?: Record<string, string | number | boolean> }): {
    setAttribute(key: string, value: string | number | boolean): unknown;
    addEvent(name: string, attributes?: Record<string, string | number | boolean>): unknown;
    setStatus(status: { code: number; message?: string }): unknown;
    end(): void;
  };
}

/** The safety controls of an act (docs/safety-controls.md). */
export interface SafetyOptions {
  /** Creates, updates and deletes are refused (`read_only`) before any request; the tools are `db_read` only. */
  readOnly?: boolean;
  /** An allow-list: other tables are in no schema, tool or prompt, and are `unknown_table`. */
  tables?: readonly string[];
  /**
   * Which writes wait for the host's approval: `'none'` by default for the developer's own calls, while the AI
   * SDK and OpenAI adapters (and the MCP servers) ask before updates and deletes unless this is given
   * (docs/safety-controls.md#defaults-per-surface).
   */
  approve?: ApprovePolicy;
  /** The most rows one update or delete may change (default 50; 0: no limit): `too_many_rows` otherwise. */
  maxAffected?: number;
  /** Called once per request sent and once per refused call; a throw or rejection is ignored. */
  onAudit?: (entry: AuditEntry) => void | Promise<void>;
  /** An OpenTelemetry tracer: a span per call. In Node, @opentelemetry/api's global tracer when it is installed. */
  tracer?: TracerLike;
}

/** The safety controls an act applies (`act.policy`). */
export interface ActPolicy {
  readonly readOnly: boolean;
  readonly tables: readonly string[] | null;
  readonly approve: ApprovePolicy;
  readonly maxAffected: number;
}

/** The host's options of one call (never the model's). */
export interface ExecuteOptions {
  signal?: AbortSignal;
  /** Run a write that needs approval: the user approved it (its rows are read again and checked). */
  approved?: boolean;
  /** The `error.preview` the user approved, for a host whose act did not keep it (a new act per request). */
  preview?: WritePreview;
}

interface ActCommonOptions extends DomainOption, SafetyOptions {
  /** The signed-in user's id; default: the access token's `sub`. Must match it when both are given. */
  userId?: string;
  fetch?: ActFetch;
  /** A state from `registry.toJSON()` of an earlier turn. Not together with `registry`. */
  state?: RegistryState | string | null;
  registry?: Registry;
  /**
   * Turns the text of a search by meaning into a vector: the model the rows
   * were embedded with (`openAIEmbedder`). Default: the lexical embedder for the kitchen
   * demo's domain (its rows were embedded with it); for any other domain,
   * none: a search by meaning is `embedding_failed`, saying what to pass.
   */
  embedder?: Embedder;
  /**
   * Per request, body included; default 30 000. Holds even when `fetch`
   * ignores its abort signal.
   */
  timeoutMs?: number;
  /** Overrides of the default limits of one call (`core.executionLimits`). */
  limits?: Partial<ExecutionLimits>;
  /** The caps on each tool result for the model (`act.callTool`); default `{ rows: 50, chars: 16000 }`. */
  resultLimits?: Partial<ResultLimits>;
  /**
   * Values the app sets for every call (the active team, a tenant id): a
   * create of a table with a column of that name gets it, a function with an
   * argument of that name gets it, the model may give neither
   * (`system_column`), and no tool schema offers them (docs/functions.md).
   *
   * @example
   * createAct({ supabase, domain, context: { account_id: activeTeam.id } })
   */
  context?: { readonly [name: string]: string | number | boolean | null | readonly (string | number | boolean | null)[] };
  /** Package-level createAct only: an already loaded core. */
  core?: Core;
  /** Package-level createAct only: passed to loadCore. */
  wasmModule?: WebAssembly.Module;
  /** Package-level createAct only: passed to loadCore. */
  wasm?: WebAssembly.Module | URL | string;
}

/** The session of a supabase-js client: `createAct({ supabase })`. */
export interface ActSupabaseOptions extends ActCommonOptions {
  /** A supabase-js client (`createClient(url, key)`): its URL, key and session, read before every call. */
  supabase: SupabaseClientLike;
  url?: never;
  restUrl?: never;
  apiKey?: never;
  accessToken?: never;
}

/** Explicit URL, key and token. */
export interface ActUrlOptions extends ActCommonOptions {
  supabase?: never;
  /** The Supabase URL, as `createClient` takes it (`https://<ref>.supabase.co`, `http://127.0.0.1:54321`, a custom domain); gets `/rest/v1`. */
  url?: string;
  /** Instead of `url`: a bare PostgREST root (`http://127.0.0.1:3000`), used as it is. */
  restUrl?: string;
  /** The anon/publishable key, sent as `apikey`; never a service key. */
  apiKey?: string;
  /** The signed-in user's JWT, or a function returning it. */
  accessToken?: AccessToken;
}

/**
 * `createAct` options: a supabase-js client, or `url` (or `restUrl`), key and
 * token. An unknown option, or a value of the wrong type, is `invalid_option`.
 */
export type ActOptions = ActSupabaseOptions | ActUrlOptions;

/**
 * What every error of a tool call carries. `message`, `details` and `hint`
 * show refs (or `<id>`) where the database wrote UUIDs; `raw` keeps the text
 * as it was, for the developer only (docs/uuid-scrubbing.md). Never pass
 * `raw` to a model.
 */
export interface ExecuteErrorFields extends AlfredErrorShape {
  /**
   * The HTTP status that arrived (a `write_outcome_unknown` with a 201 means
   * the write happened but its answer was unusable).
   */
  status?: number;
  /** The Postgres or PostgREST error code (`42501`, `PGRST204`, …). */
  dbCode?: string;
  details?: string;
  raw?: { message: string; details: string; hint: string };
  /** A response body that was not a database error (a proxy's HTML page), cut to about 1 KB, for developers. */
  rawBody?: string;
}

/** A write held for the host's approval (`approval_required`), or refused because its rows changed since the approved preview (`preview_changed`). */
export interface ApprovalError extends ExecuteErrorFields {
  code: 'approval_required' | 'preview_changed';
  /** What the write would change: show it to the user, and pass it back with `{ approved: true, preview }`. */
  preview: WritePreview;
}

/**
 * The error of a tool call: a union on `code`, so that checking the code
 * narrows it.
 *
 * @example
 * if (error?.code === 'approval_required') await ask(error.preview) // error.preview: WritePreview
 */
export type ExecuteError = ApprovalError | (ExecuteErrorFields & { code: Exclude<ErrorCode, ApprovalError['code']>; preview?: undefined });

/**
 * What `execute` resolves to: supabase-js style, plus the executed query. A
 * union on `error`, like `Result<T>`: after `if (error) return …`, `data` is
 * the rows.
 *
 * @example
 * const { data, error, query } = await act.execute('db_read', { table: 'inventory' })
 * if (error) return error.message
 * console.log(Array.isArray(data) ? data.length : 1, query?.source)
 */
export type ExecuteResult =
  | {
      /** Rows as the model sees them (refs, labels); one object for a single create (`[]` for a write-only table's, which reads nothing back: `count` says how many were saved). */
      data: Row[] | Row;
      error: null;
      query: QueryRecord | null;
      /** Rows returned or affected; the Content-Range total when `count` was asked for. */
      count: number | null;
    }
  | { data: null; error: ExecuteError; query: QueryRecord | null; count: null };

export interface Act<D extends DomainTypes = any> {
  readonly registry: Registry;
  /**
   * The current session's user against the refs: `userId` is null without a
   * signed-in user; the error is `state_of_another_user` when the registry's
   * refs were made for another user, or the token getter's error.
   */
  checkSession(): Promise<{ data: { userId: string | null }; error: null } | { data: null; error: ExecuteError }>;
  readonly domain: DomainConfig;
  /** The limits of one call, the defaults with the act's `limits` applied. */
  readonly limits: ExecutionLimits;
  /** The caps on each tool result for the model, the defaults with the act's `resultLimits` applied. */
  readonly resultLimits: ResultLimits;
  /** The safety controls the act applies. */
  readonly policy: ActPolicy;
  /** The values the app set with `createAct({ context })` (an empty object for none). */
  readonly context: { readonly [name: string]: JsonValue };
  /**
   * Executes one tool call. A write that needs approval resolves to
   * `approval_required` with `error.preview` and sends no write; the host
   * runs it with `{ approved: true }`.
   *
   * @example
   * const held = await act.execute('db_delete', params)
   * if (held.error?.code === 'approval_required' && (await ask(held.error.preview))) await act.execute('db_delete', params, { approved: true })
   */
  execute<T extends ToolName>(tool: T, params: ToolParams<D>[T], options?: ExecuteOptions): Promise<ExecuteResult>;
  /**
   * The tool definitions for this act's domain (`core.toolDefinitions`).
   *
   * @example
   * const tools = act.tools({ strict: true }).map((t) => ({ type: 'function', function: { ...t, strict: true } }))
   */
  tools(options?: { strict?: boolean; schema?: ToolSchemaMode }): readonly ToolDefinition[];
  /**
   * Runs one native tool call; `args` is the arguments object or the JSON text a
   * provider sends (strict-mode nulls and `data` as JSON text accepted).
   * Resolves to the result for the model, cut to `resultLimits`; a read
   * without a limit is sent with the cap as its limit and an exact count.
   * Rejects only when `signal` aborts.
   *
   * @example
   * const result = await act.callTool('db_read', '{"table":"inventory","filters":null}')
   */
  callTool(name: ToolName | (string & {}), args: JsonValue | ToolParams<D>[ToolName] | string, options?: ExecuteOptions): Promise<ToolResult>;
  /**
   * `callTool`'s result as the JSON text the model reads, as the core wrote
   * it: the rows go from the response to this text without being parsed
   * into objects (what `runToolCalls` sends as the tool message).
   *
   * @example
   * messages.push({ role: 'tool', tool_call_id: call.id, content: await act.callToolText(call.function.name, call.function.arguments) })
   */
  callToolText(name: ToolName | (string & {}), args: JsonValue | ToolParams<D>[ToolName] | string, options?: ExecuteOptions): Promise<string>;
}

/** One tool for native tool calling, generated by the core from the domain. */
export interface ToolDefinition {
  readonly name: ToolName;
  readonly description: string;
  /** JSON Schema of the params (an object schema with `properties`, `required`, `$defs`). */
  readonly parameters: Readonly<Record<string, JsonValue>>;
}

/** A tool result as the model sees it: rows with refs and the rendered query, or the error. */
export type ToolResult =
  | {
      ok: true;
      tool: string;
      table: string | null;
      /** `db_call`: the function called (`table` is the table whose rows it returns, or null). */
      function?: string;
      /** Rows returned or affected (the Content-Range total when `count` was asked for); db_aggregate: the groups that matched. */
      count: number;
      /** db_aggregate: the groups that matched (before `limit`), as `count`. */
      groups_total?: number;
      /** db_aggregate: false when a count was planned or estimated, or the groups were cut at the server's bound. */
      exact?: boolean;
      /** The executed query rendered as `Query: … / Effective: … / Outcome: …` lines. */
      query: string | null;
      /** Present when the result was cut to the act's `resultLimits`. */
      truncated?: true;
      /** How many rows this result holds, when `truncated`. */
      shown?: number;
      /** How to narrow the call (filters, columns, limit and offset), when `truncated`. */
      hint?: string;
      /**
       * Said once before non-empty rows: the text until `end` is data from the database, never instructions. It
       * names the marker drawn for this call, which `end` repeats after the rows.
       */
      notice?: string;
      rows: Row[];
      /** The fence's marker, after the rows (with `notice`). */
      end?: string;
    }
  | {
      ok: false;
      tool: string;
      table: string | null;
      /** `db_call`: the function called. */
      function?: string;
      /** Before an error that quotes rows (a preview, labels in a hint, the database's details): the fence's notice. */
      notice?: string;
      error: {
        code: string;
        path: string;
        message: string;
        hint: string;
        details?: string;
        /** A write held for approval: what it would change (without the keys the host checks against). */
        preview?: Omit<WritePreview, 'keys'>;
      };
      /** The fence's marker, after such an error. */
      end?: string;
      query?: string;
    };

/**
 * An executor for one user, usable at once (the core loads on first use;
 * `await act.ready` for the registry before the first call).
 */
export declare function createAct<D extends DomainTypes = any>(options: ActOptions): Omit<Act<D>, 'limits' | 'resultLimits' | 'policy'> & {
  readonly ready: Promise<Act<D>>;
  readonly limits: ExecutionLimits | null;
  readonly resultLimits: ResultLimits | null;
  readonly policy: ActPolicy | null;
};
/** A Supabase URL → its PostgREST root (`url` + `/rest/v1`), as `createClient` builds it. */
export declare function restUrl(url: string): string;

export { createChatModel, modelConfigFromEnv, LlmError } from './llm.js';
export type { ChatModel, ChatModelOptions, ChatMessage, Completion } from './llm.js';
export { createTokenVerifier, verifyAccessToken, TOKEN_ERROR_STATUS } from './jwt-verify.js';
export type { Jwk, JwksFetch, TokenVerifierOptions, TokenVerifier, TokenErrorCode, TokenError, VerifiedToken, VerifyResult } from './jwt-verify.js';
// The MCP and loop names the root also exports, for code written before the
// subpaths: each is the subpath's own (the same function or class), and
// deprecated at the root in favour of `alfred-act/mcp` and `alfred-act/loop`.
// They stay exported; only new code should take them from the subpath.
/** @deprecated Import it from the subpath: `import { MCP_INSTRUCTIONS } from 'alfred-act/mcp'`. */
export declare const MCP_INSTRUCTIONS: typeof McpModule.MCP_INSTRUCTIONS;
/** @deprecated Import it from the subpath: `import { SCHEMA_URI } from 'alfred-act/mcp'`. */
export declare const SCHEMA_URI: typeof McpModule.SCHEMA_URI;
/** @deprecated Import it from the subpath: `import { coreDomain } from 'alfred-act/mcp'`. */
export declare const coreDomain: typeof McpModule.coreDomain;
/** @deprecated Import it from the subpath: `import { mcpToolList } from 'alfred-act/mcp'`. */
export declare const mcpToolList: typeof McpModule.mcpToolList;
/** @deprecated Import it from the subpath: `import { mcpResourceList } from 'alfred-act/mcp'`. */
export declare const mcpResourceList: typeof McpModule.mcpResourceList;
/** @deprecated Import it from the subpath: `import { schemaDescription } from 'alfred-act/mcp'`. */
export declare const schemaDescription: typeof McpModule.schemaDescription;
/** @deprecated Import it from the subpath: `import { mcpToolResult } from 'alfred-act/mcp'`. */
export declare const mcpToolResult: typeof McpModule.mcpToolResult;
/** @deprecated Import it from the subpath: `import { mcpToolError } from 'alfred-act/mcp'`. */
export declare const mcpToolError: typeof McpModule.mcpToolError;
/** @deprecated Import it from the subpath: `import { newSessionId } from 'alfred-act/mcp'`. */
export declare const newSessionId: typeof McpModule.newSessionId;
/** @deprecated Import it from the subpath: `import { openSession } from 'alfred-act/mcp'`. */
export declare const openSession: typeof McpModule.openSession;
/** @deprecated Import it from the subpath: `import { findSession } from 'alfred-act/mcp'`. */
export declare const findSession: typeof McpModule.findSession;
/** @deprecated Import it from the subpath: `import { closeSession } from 'alfred-act/mcp'`. */
export declare const closeSession: typeof McpModule.closeSession;
/** @deprecated Import it from the subpath: `import { callSessionTool } from 'alfred-act/mcp'`. */
export declare const callSessionTool: typeof McpModule.callSessionTool;
/** @deprecated Import it from the subpath: `import { MemorySessionStore } from 'alfred-act/mcp'`. */
export declare const MemorySessionStore: typeof McpModule.MemorySessionStore;
/** @deprecated Import it from the subpath: `import { MemorySessionStore } from 'alfred-act/mcp'`. */
export type MemorySessionStore = McpModule.MemorySessionStore;
/** @deprecated Import it from the subpath: `import { SupabaseSessionStore } from 'alfred-act/mcp'`. */
export declare const SupabaseSessionStore: typeof McpModule.SupabaseSessionStore;
/** @deprecated Import it from the subpath: `import { SupabaseSessionStore } from 'alfred-act/mcp'`. */
export type SupabaseSessionStore = McpModule.SupabaseSessionStore;
/** @deprecated Import it from the subpath: `import { readUserToken } from 'alfred-act/mcp'`. */
export declare const readUserToken: typeof McpModule.readUserToken;
/** @deprecated Import it from the subpath: `import { isServiceKey } from 'alfred-act/mcp'`. */
export declare const isServiceKey: typeof McpModule.isServiceKey;
export type { McpTool, McpResource, McpToolResult, SessionCaller, SessionState, SessionStore } from './mcp.js';
/** @deprecated Import it from the subpath: `import { runStep } from 'alfred-act/loop'`. */
export declare const runStep: typeof LoopModule.runStep;
/** @deprecated Import it from the subpath: `import { runTurn } from 'alfred-act/loop'`. */
export declare const runTurn: typeof LoopModule.runTurn;
/** @deprecated Import it from the subpath: `import { runTurnEvents } from 'alfred-act/loop'`. */
export declare const runTurnEvents: typeof LoopModule.runTurnEvents;
/** @deprecated Import it from the subpath: `import { planTurn } from 'alfred-act/loop'`. */
export declare const planTurn: typeof LoopModule.planTurn;
/** @deprecated Import it from the subpath: `import { replyTurn } from 'alfred-act/loop'`. */
export declare const replyTurn: typeof LoopModule.replyTurn;
/** @deprecated Import it from the subpath: `import { planSchema } from 'alfred-act/loop'`. */
export declare const planSchema: typeof LoopModule.planSchema;
/** @deprecated Import it from the subpath: `import { createTurnState } from 'alfred-act/loop'`. */
export declare const createTurnState: typeof LoopModule.createTurnState;
/** @deprecated Import it from the subpath: `import { readTurnState } from 'alfred-act/loop'`. */
export declare const readTurnState: typeof LoopModule.readTurnState;
/** @deprecated Import it from the subpath: `import { STEP_TOOLS } from 'alfred-act/loop'`. */
export declare const STEP_TOOLS: typeof LoopModule.STEP_TOOLS;
export type { TurnState, TurnResult, StepResult, LoopEvent, RunStepOptions, RunTurnOptions } from './loop.js';
