// A domain derived from the database itself: PostgREST's OpenAPI description
// (GET on the PostgREST root with Accept: application/openapi+json; PostgREST
// 12 answers Swagger 2.0) gives the tables, column types, NOT NULL columns,
// defaults, enum values, primary and foreign keys; the catalog, where it can
// be read (pull/catalog.js), adds views, row-level security, policies,
// privileges, the references into auth.users and into schemas the API does
// not expose (pull/unexposed.js), and the functions (pull/functions.js). Per
// table the pull decides the key, the owner and whether the model may write
// (pull/owners.js). The rules are in docs/own-schema.md and docs/functions.md.
// Pure: no I/O here except in pullDomain, and no node: imports (it runs in
// every runtime the package supports).
import { restUrl } from '../act/options.js';
import { takesCreates } from '../core/domains.js';
import { AlfredError, internalError } from '../errors.js';
import { catalogFacts, catalogFactsProblem } from './catalog.js';
import { columnConfig, finalizeColumns, grantsNote, relationsOf } from './columns.js';
import { describedTables, isPostgrestDescription } from './description.js';
import { checkFunctionOverrides, deriveFunctions } from './functions.js';
import { assignedKeys, keyOf } from './keys.js';
import { isIdentifier, labelOf, refPrefixes } from './names.js';
import { addLooseMatching, checkGlobalOwner, checkOverrideNames, deepMerge, mergeable, pullError } from './overrides.js';
import { closedTables, decideOwners, ownerNote, rlsNote, signedInOnly, unreadableBecause, usersTableOf, writableOf } from './owners.js';
import { policyNeeds } from './policy-checks.js';
import { argumentTables, unexposedNote, unexposedTableConfig, unexposedTables } from './unexposed.js';
import { codes } from '../../dist/error-codes.mjs';

export { refPrefixes } from './names.js';

const DEFAULT_NAME = 'database';
// alfred-act's own MCP session store (db/sessions/010_act_sessions.sql,
// web/src/mcp/store.js): in the database, never for the model.
const SESSION_TABLE = 'act_sessions';

// The order of a domain's keys in the output (the core's parser lists the same).
const DOMAIN_KEYS = ['name', 'max_rows', 'tables', 'functions'];
const TABLE_KEYS = ['ref', 'exposed', 'key', 'owner', 'scope', 'signed_in', 'writable', 'readable', 'label', 'label_format', 'hidden', 'relations', 'middleware', 'columns'];

const isPlainObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

// The owner column's note when column privileges keep users from giving it:
// the act sets the owner on every create, which the database then refuses.
function ownerGrantsNote(column, table) {
  if (column.grants?.insert !== false || table.catalog?.privileges?.insert === false) return null;
  return `the owner column, which every create sets to the signed-in user, and column privileges keep users from giving it: the database refuses every create; grant insert on it (grant insert (${column.name}, …) on ${table.name} to authenticated) or say "writable" without "create" in the overrides`;
}

// A column the table allows to be NULL and fills in with no default, which
// every create must give all the same because the policies a create must
// pass need it (a team's key): required, with a note naming the check.
function requiredByPolicy(table, column, config, notes) {
  if (config.required || !takesCreates(config) || column.hasDefault) return;
  const check = policyNeeds(table, column.name);
  if (check === null) return;
  config.required = true;
  delete config.nullable;
  notes.push({ path: `tables.${table.name}.columns.${column.name}`, message: `required: the table allows NULL, but the row-level security a create must pass needs it (${check})` });
}

// One table of the domain from its plan (key, owner decision): columns,
// key, owner, whether the model may write, label; the notes on what it
// decided go to `notes`.
function buildTable(plan, usersTables, usersTable, notes) {
  const { table, key } = plan;
  const owner = plan.decision?.owner ?? null;
  const columns = {};
  const facts = [];
  for (const column of table.columns) {
    const config = columnConfig(column, plan, usersTables, usersTable);
    if (config && column.name !== owner) requiredByPolicy(table, column, config, notes);
    columns[column.name] = config ?? { type: null };
    const granted = column.name === owner ? ownerGrantsNote(column, table) : grantsNote(column, config, table.catalog?.privileges);
    if (granted) notes.push({ path: `tables.${table.name}.columns.${column.name}`, message: granted });
    facts.push({ name: column.name, config });
  }
  const people = table.columns.filter((c) => c.type === 'uuid' && (c.usersReference || usersTables.has(c.references?.table))).map((c) => c.name);
  const access = accessOf(plan, owner, people);
  // A write-only table's creates need no key: no key note then.
  for (const note of [access.readable === false ? null : plan.keyNote, ownerNote(table, plan.decision, Boolean(table.catalog)), rlsNote(table, access.writable), access.note]) if (note) notes.push(note);
  const out = { ref: '' };
  if (key.length !== 1 || key[0] !== 'id') out.key = key.length === 1 ? key[0] : key;
  if (owner) out.owner = owner;
  // A table with an owner needs a session anyway; a write-only one's creates
  // may be anyone's (a waitlist), and a refused one gets the database's error.
  else if (access.readable !== false && signedInOnly(table)) out.signed_in = true;
  if (access.writable !== true) out.writable = access.writable;
  if (access.readable === false) out.readable = false;
  Object.assign(out, labelOf(facts));
  out.columns = columns;
  return out;
}

// The table's writes and whether users may read it (writableOf), under the
// overrides: a given "readable" wins, and so does a given "writable", which
// keeps a write-only table so while it names creates alone.
function accessOf({ table, key, given }, owner, people) {
  const derived = writableOf(table, key, owner, people);
  const spec = isPlainObject(given) ? given : {};
  const writable = Array.isArray(spec.writable) && spec.writable.length === 0 ? false : spec.writable;
  // A given "readable": false takes creates alone, whatever was derived.
  if (spec.readable === false && writable === undefined) return { writable: ['create'], note: null };
  const readable = typeof spec.readable === 'boolean' ? undefined : derived.readable;
  if (typeof writable !== 'boolean' && !Array.isArray(writable)) return { ...derived, readable, note: readable === undefined && derived.readable === false ? null : derived.note };
  if (readable !== false) return { writable, note: null };
  if (writable === false) return { writable, note: { path: derived.note.path, message: `read-only, as the overrides say, though ${unreadableBecause(table)}: every read is empty` } };
  if (writable.every((write) => write === 'create')) return { writable, readable, note: derived.note };
  const message = `kept readable, as "writable" in the overrides takes writes that read rows, though ${unreadableBecause(table)}; say "readable": false and "writable": ["create"] if users only add rows to it`;
  return { writable, note: { path: derived.note.path, message } };
}

// The tables a domain may hold, each with its key: `name → { table, given,
// key, keyNote, assigned, decision }` (the owner is decided next). Names the
// domain cannot hold, the session store and tables signed-in users may not
// read (the catalog says) and no table that stays references are left out
// with a note, tables the overrides remove without one.
function planTables(tables, named, notes) {
  const plans = new Map();
  const candidates = [];
  for (const table of tables) {
    const spec = named[table.name];
    if (spec === null) continue;
    if (!isIdentifier(table.name)) {
      notes.push({ path: `tables.${table.name}`, message: `left out: '${table.name}' is not a lower-case identifier, which refs and the domain need` });
      continue;
    }
    if (table.name === SESSION_TABLE && spec === undefined) {
      notes.push({ path: `tables.${table.name}`, message: "left out: alfred-act's own MCP session store (docs/mcp.md), not data for the model" });
      continue;
    }
    candidates.push(table);
  }
  const closed = closedTables(candidates, named);
  for (const table of candidates) {
    if (closed.has(table.name)) {
      notes.push({
        path: `tables.${table.name}`,
        message: `left out: ${closed.get(table.name)}, and none may add rows to it, so every read would be empty and every write refused; add a SELECT policy, or name the table in the overrides to keep it`,
      });
      continue;
    }
    const spec = named[table.name];
    const { key, note } = keyOf(table, spec);
    plans.set(table.name, { table, given: spec, key, keyNote: note, assigned: assignedKeys(table, key), decision: null });
  }
  return plans;
}

// The domain's tables as derived, before the overrides: settings, columns,
// the tables of other schemas they reference (not exposed), ref prefixes and
// the relations the foreign keys make. Returns `{ built, usersTable }`.
function derivedTables(plans, usersTables, unexposed, notes) {
  const usersTable = usersTableOf(usersTables, plans);
  if (usersTables.size > 1) {
    const others = [...usersTables].filter((t) => t !== usersTable).sort();
    notes.push({ path: `tables.${usersTable}`, message: `user ids (references to auth.users) point here; ${others.join(', ')} ${others.length > 1 ? 'are' : 'is'} keyed by user ids too: set "references" in the overrides to choose` });
  }
  const unsorted = {};
  for (const [table, plan] of plans) unsorted[table] = buildTable(plan, usersTables, usersTable, notes);
  for (const table of unexposed) unsorted[table.name] = unexposedTableConfig(table);
  const built = Object.fromEntries(Object.keys(unsorted).sort().map((name) => [name, unsorted[name]]));
  // Without a table of users, other people's refs are user_1, user_2 (the
  // core's): a table such as user_invites takes another prefix.
  const reserved = usersTable === null && !built.users && !built.user ? new Set(['user']) : new Set();
  for (const [table, prefix] of Object.entries(refPrefixes(Object.keys(built), reserved))) built[table].ref = prefix;
  for (const [parent, children] of Object.entries(relationsOf(built))) built[parent].relations = children;
  return { built, usersTable };
}

// The overrides merged on top; a ref prefix they changed may now be used
// twice, and derived prefixes yield to the ones they chose.
function withOverrides(built, overrides, named, { name, defaultName }) {
  const merged = deepMerge({ name: defaultName ?? DEFAULT_NAME, tables: built }, mergeable(overrides));
  if (name !== undefined) merged.name = name;
  const chosenPrefixes = new Set(Object.entries(named).filter(([, s]) => s?.ref).map(([, s]) => s.ref));
  const clashing = Object.keys(merged.tables).filter((t) => !named[t]?.ref && chosenPrefixes.has(merged.tables[t].ref));
  if (clashing.length > 0) {
    const renamed = refPrefixes(clashing, new Set(Object.values(merged.tables).map((t) => t.ref)));
    for (const table of clashing) merged.tables[table].ref = renamed[table];
  }
  // A table the overrides declare whole gets a prefix of its own unless they give one.
  const unprefixed = Object.keys(merged.tables).filter((t) => isPlainObject(merged.tables[t]) && merged.tables[t].ref === undefined);
  if (unprefixed.length > 0) {
    const prefixes = refPrefixes(unprefixed, new Set(Object.values(merged.tables).map((t) => t?.ref).filter(Boolean)));
    for (const table of unprefixed) merged.tables[table] = { ref: prefixes[table], ...merged.tables[table] };
  }
  return merged;
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

// Notes grouped by table, in table order, then by function; within a table
// or function in the order made. Notes on the whole domain come first.
function byTable(notes) {
  const groupOf = ({ path }) => {
    const [section, name = ''] = path.split('.');
    if (section === 'tables') return `1 ${name}`;
    if (section === 'functions') return `2 ${name}`;
    return '0';
  };
  return notes
    .map((note, index) => ({ note, index, group: groupOf(note) }))
    .sort((a, b) => (a.group < b.group ? -1 : a.group > b.group ? 1 : a.index - b.index))
    .map(({ note }) => note);
}

function parsed(value, code, what) {
  if (typeof value !== 'string') return { value };
  try {
    return { value: JSON.parse(value) };
  } catch (cause) {
    return { error: pullError(code, '', `${what} ${cause.message}`, code === codes.invalid_openapi ? openApiHint : '') };
  }
}

/**
 * The domain a PostgREST OpenAPI description implies, with `overrides` merged
 * on top, not yet validated by the core: `{ data: domain, error, notes }`.
 * `notes` lists what was left out, read-only or undecided, and why
 * (`{ path, message }`). Options: `ownerColumn` (the owner of every table
 * with that uuid column), `name`, `defaultName` (used when neither `name` nor
 * the overrides give one), `catalog` (facts from `catalogFacts`). Use
 * `core.domainFromOpenApi` (or the package's `domainFromOpenApi`), which also
 * runs the core's domain parser.
 *
 * @example
 * const { data, error, notes } = deriveDomain(spec, { tables: { deals: { scope: 'owner' } } }, { catalog })
 */
export function deriveDomain(spec, overrides = {}, { ownerColumn, name, defaultName, catalog } = {}) {
  const description = parsed(spec, codes.invalid_openapi, 'the description is not JSON:');
  if (description.error) return { data: null, error: description.error, notes: [] };
  if (!isPostgrestDescription(description.value)) {
    return { data: null, error: pullError(codes.invalid_openapi, '', 'expected PostgREST\'s Swagger 2.0 description (swagger: "2.0" with definitions or paths)', openApiHint), notes: [] };
  }
  const given = parsed(overrides ?? {}, codes.invalid_overrides, 'overrides are not JSON:');
  if (given.error) return { data: null, error: given.error, notes: [] };
  overrides = given.value ?? {};
  if (catalog !== undefined && catalog !== null) {
    const problem = catalogFactsProblem(catalog);
    if (problem) return { data: null, error: pullError(codes.invalid_option, 'catalog', `catalog facts ${problem}`, 'pass what catalogFacts(query) resolves to, or a query function to pullDomain'), notes: [] };
  }
  const tables = describedTables(description.value, catalog ?? null);
  const referenced = unexposedTables(tables, catalog ?? null);
  const taken = new Set([...tables.map((t) => t.name), ...referenced.map((t) => t.name)]);
  const unexposed = [...referenced, ...argumentTables(catalog ?? null, taken, overrides)];
  const described = new Map(tables.map((t) => [t.name, t]));
  const nameable = new Map([...described, ...unexposed.map((table) => [table.name, table])]);
  const overrideError = checkOverrideNames(overrides, nameable) ?? checkFunctionOverrides(overrides, catalog?.functions, description.value);
  if (overrideError) return { data: null, error: overrideError, notes: [] };
  const notes = [];
  const named = isPlainObject(overrides.tables) ? overrides.tables : {};
  const plans = planTables(tables, named, notes);
  const globalOwner = ownerColumn ?? overrides.owner_column;
  const ownerError = checkGlobalOwner(globalOwner, [...plans.values()].map((plan) => plan.table));
  if (ownerError) return { data: null, error: ownerError, notes: [] };
  const usersTables = decideOwners(plans, { globalOwner });
  const { built, usersTable } = derivedTables(plans, usersTables, unexposed, notes);
  const merged = withOverrides(built, overrides, named, { name, defaultName });
  const overridden = (key) => (table) => isPlainObject(named[table]) && named[table][key] !== undefined;
  finalizeColumns(merged, described, notes, { hasCatalog: Boolean(catalog), hiddenGiven: overridden('hidden'), writableGiven: overridden('writable') });
  addLooseMatching(merged, named, (table) => described.get(table)?.catalog?.uniques ?? []);
  for (const [parent, spec] of Object.entries(merged.tables)) {
    if (!isPlainObject(spec.relations)) continue;
    for (const [relation, child] of Object.entries(spec.relations)) if (!merged.tables[child] || merged.tables[child].readable === false) delete spec.relations[relation];
    if (Object.keys(spec.relations).length === 0) delete merged.tables[parent].relations;
  }
  const tableOfRelation = ({ schema, table }) => {
    if (schema === (catalog?.schema ?? 'public')) return merged.tables[table] && merged.tables[table].exposed !== false ? table : null;
    const outside = unexposed.find((u) => u.schema === schema && u.table === table);
    return outside && merged.tables[outside.name] ? outside.name : null;
  };
  const { functions, notes: functionNotes, error: functionsError } = deriveFunctions({ catalog, spec: description.value, overrides, domain: merged, usersTable, tableOfRelation });
  if (functionsError) return { data: null, error: functionsError, notes: [] };
  notes.push(...functionNotes);
  dropUntakenTables(merged, unexposed, functions);
  if (Object.keys(merged.tables).length === 0) return { data: null, error: noTableError(catalog, tables.length > 0), notes: byTable(notes) };
  for (const table of unexposed) if (merged.tables[table.name]) notes.push(unexposedNote(table, functions));
  if (Object.keys(functions).length > 0) merged.functions = functions;
  return { data: ordered(merged), error: null, notes: byTable(notes) };
}

// A table taken for a function argument's name stays only while a function
// offered takes its refs.
function dropUntakenTables(merged, unexposed, functions) {
  const takes = (fn, table) => Object.values(fn.args ?? {}).some((arg) => arg.references === table) || fn.returns?.references === table;
  for (const table of unexposed.filter((t) => t.byArgument)) {
    if (!Object.values(functions).some((fn) => takes(fn, table.name))) delete merged.tables[table.name];
  }
}

// A domain needs a table: what to do where the schema exposes none (or the
// overrides left every one out).
function noTableError(catalog, described) {
  const none = described ? 'the overrides leave out every table the description lists' : 'the description lists no table or view';
  return pullError(
    codes.invalid_openapi,
    '',
    `${none}${catalog ? ", and no argument of the schema's functions names a table of another schema" : ''}: a domain needs one`,
    catalog
      ? 'declare the tables the functions take keys of in the overrides: "tables": { "<table>": { "exposed": false, "columns": { "id": { "type": "uuid" }, "name": { "type": "text" } }, "label": ["name"] } }'
      : 'pull with the catalog (--db-url, or the catalog option of pullDomain): it reads the functions and the tables their arguments name',
  );
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
  // As the core checks an act's credentials (a pull also takes a secret
  // key): a pasted line break is the caller's mistake, not the network's.
  for (const [path, value] of Object.entries({ apiKey, accessToken })) {
    if (/[^\x21-\x7e]/.test(value)) {
      throw new AlfredError({ code: codes.invalid_option, path, message: `${path} contains spaces, control or non-ASCII characters`, hint: 'pass the key or token exactly as issued' });
    }
  }
  // The key goes as apikey only: Supabase's secret keys are not JWTs, and its
  // gateway takes the apikey as the bearer when there is no user token.
  const headers = { accept: 'application/openapi+json' };
  if (apiKey) headers.apikey = apiKey;
  if (accessToken) headers.authorization = `Bearer ${accessToken}`;
  let response;
  try {
    response = await fetchImpl(root, { headers });
  } catch (cause) {
    throw new AlfredError({ code: codes.network_error, path: 'url', message: `GET ${root} failed: ${cause?.message ?? cause}`, hint: 'is the URL right and the server up?' });
  }
  const text = await response.text();
  if (!response.ok) {
    throw new AlfredError({
      code: codes.http_error,
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
    throw new AlfredError({ code: codes.invalid_openapi, path: 'url', message: `GET ${root} did not answer JSON: ${text.slice(0, 200)}`, hint: openApiHint });
  }
}

// The catalog facts through the caller's query function; a failure is an
// error of the pull, with the way to do without.
async function readCatalog(query) {
  try {
    return await catalogFacts(query);
  } catch (cause) {
    throw new AlfredError({
      code: codes.network_error,
      path: 'catalog',
      message: `reading the database catalog failed: ${cause?.message ?? cause}`,
      hint: 'is the database URL right and the database up? The catalog is optional: without it the pull reads PostgREST\'s description alone',
    });
  }
}

// The first label of a URL's host (`<ref>` of https://<ref>.supabase.co), or
// undefined for an address or localhost.
function hostLabel(url) {
  let host;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return undefined;
  }
  const label = host.split('.')[0];
  if (host === 'localhost' || /^[\d.]+$/.test(host) || host.startsWith('[') || !/^[a-z][a-z0-9-]*$/.test(label)) return undefined;
  return label;
}

/**
 * The package-level `domainFromOpenApi` and `pullDomain` of a runtime entry:
 * like `createAct`, they load the core on first use unless `options.core` is
 * given, and never throw (`{ data, error, notes }`).
 */
export function createDomainPull(loadCore) {
  const coreOf = async (options) => options?.core ?? loadCore(options);
  const failed = (cause) => ({ data: null, error: cause instanceof AlfredError ? cause.toJSON() : internalError(cause), notes: [] });

  // Methods, so that their names stay domainFromOpenApi and pullDomain in the
  // bundled build too (a method's name is its key).
  return {
    /**
     * Derives a domain from PostgREST's OpenAPI description (a parsed object or
     * JSON text), merges `overrides` and validates it with the core:
     * `{ data: domain, error, notes }`. Options: `catalog` (facts from
     * `catalogFacts`), `ownerColumn`, `name`, `defaultName`, `core`.
     *
     * @example
     * import { domainFromOpenApi, createAct } from 'alfred-act'
     * const spec = await (await fetch(`${url}/rest/v1/`, { headers: { apikey, accept: 'application/openapi+json' } })).json()
     * const { data: domain, error, notes } = await domainFromOpenApi(spec, { tables: { deals: { label: ['title'] } } })
     * if (error) throw new Error(`${error.path}: ${error.message} (${error.hint})`)
     * const act = createAct({ url, apiKey, accessToken, userId, domain })
     */
    async domainFromOpenApi(spec, overrides, options = {}) {
      try {
        return domainFromOpenApiWith(await coreOf(options), spec, overrides, options);
      } catch (cause) {
        return failed(cause);
      }
    },

    /**
     * Fetches the description from a live database and derives its domain:
     * `{ data: domain, error, notes, spec }`. Options: `url` (a Supabase project
     * URL or a PostgREST root), `apiKey`, `accessToken`, `catalog` (facts from
     * `catalogFacts`, or a `query(sql)` function to read them with),
     * `ownerColumn`, `name`, `defaultName` (default: the first label of the
     * URL's host, `<ref>` of `<ref>.supabase.co`), `overrides`, `fetch`, `core`.
     *
     * @example
     * const { data: domain, error, notes } = await pullDomain({ url: SUPABASE_URL, apiKey: secretKey, catalog: (sql) => client.query(sql) })
     */
    async pullDomain({ overrides, catalog, ...options } = {}) {
      try {
        const spec = await fetchOpenApi(options);
        const facts = typeof catalog === 'function' ? await readCatalog(catalog) : catalog;
        const defaultName = options.defaultName ?? hostLabel(options.url);
        return { ...domainFromOpenApiWith(await coreOf(options), spec, overrides, { ...options, defaultName, catalog: facts }), spec };
      } catch (cause) {
        return failed(cause);
      }
    },
  };
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
