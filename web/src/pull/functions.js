// The domain's functions (docs/functions.md) from the catalog's facts about
// the exposed schema's functions (catalog-functions.js): which the model may
// call with db_call, their arguments as typed settings (with the table whose
// refs an argument takes), whether a call is a read, and what comes back.
// Safe by default: a security definer function, or one the authenticated
// role may not execute, is offered only when the overrides opt it in; what is
// left out gets a note saying why.
import { INPUT_MODES } from './catalog-functions.js';
import { pluralsOf } from './catalog.js';
import { holdsSecret, USERS } from './columns.js';
import { domainTypeOf } from './description.js';
import { isIdentifier, usableColumnName } from './names.js';
import { helpersOf, supersededBy, volatileReads } from './function-kinds.js';
import { chosenOverload, overloadProblem, requireAll, signature } from './overloads.js';
import { pullError } from './overrides.js';
import { OWNER_NAMES } from './owners.js';
import { codes } from '../../dist/error-codes.mjs';

const isPlainObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);
const FUNCTION_KEYS = ['description', 'read', 'args', 'returns'];
const ARG_KEYS = ['type', 'dimensions', 'required', 'references', 'values', 'description'];
// Settings of a function's overrides that are the pull's, not the domain's.
const PULL_SETTINGS = ['expose', 'overload'];

// Names for a message: all of a short list, the first few of a long one.
const shortList = (names, most = 8) => (names.length > most ? `${names.slice(0, most).join(', ')} and ${names.length - most} more` : names.join(', '));
const isVector = (type) => /^(?:[a-z_][a-z0-9_]*\.)?vector(?:\(\d+\))?$/.test(type);

/** The functions PostgREST's description lists (`/rpc/<name>` paths). */
export function describedFunctions(spec) {
  return Object.keys(isPlainObject(spec?.paths) ? spec.paths : {})
    .filter((path) => path.startsWith('/rpc/'))
    .map((path) => path.slice('/rpc/'.length))
    .sort();
}

/**
 * The overrides' `functions` checked against the database: each name a
 * function it has (from the catalog, else from the description's `/rpc/`
 * paths), each setting object or null, `expose` true or false, each
 * argument one of the function's inputs. Returns the error, or null.
 */
export function checkFunctionOverrides(overrides, catalogFunctions, spec) {
  const given = overrides.functions;
  if (given === undefined || given === null) return null;
  if (!isPlainObject(given)) return pullError(codes.invalid_overrides, 'functions', 'must be an object of function name → settings, or null to leave a function out');
  const known = catalogFunctions ? [...new Set(catalogFunctions.filter((fn) => !fn.extension).map((fn) => fn.name))].sort() : describedFunctions(spec);
  for (const [name, settings] of Object.entries(given)) {
    const path = `functions.${name}`;
    if (!known.includes(name)) {
      return pullError(codes.invalid_overrides, path, `'${name}' is not a function of the database${catalogFunctions ? '' : ' description'}`, `functions: ${known.join(', ') || 'none'}`);
    }
    if (settings === null) continue;
    if (!isPlainObject(settings)) return pullError(codes.invalid_overrides, path, 'must be an object of function settings, or null to leave the function out');
    if (settings.expose !== undefined && typeof settings.expose !== 'boolean') {
      return pullError(codes.invalid_overrides, `${path}.expose`, 'must be true or false', 'true offers a security definer function, or one the authenticated role may not execute');
    }
    if (settings.overload !== undefined) {
      const problem = overloadProblem(name, catalogFunctions, settings.overload);
      if (problem) return pullError(codes.invalid_overrides, `${path}.overload`, problem.message, problem.hint);
    }
    if (settings.args === undefined || settings.args === null || !catalogFunctions) continue;
    if (!isPlainObject(settings.args)) return pullError(codes.invalid_overrides, `${path}.args`, 'must be an object of argument name → settings');
    const overloads = catalogFunctions.filter((fn) => fn.name === name);
    const chosen = chosenOverload(overloads, settings);
    const inputs = (chosen ? [chosen] : overloads).flatMap((fn) => fn.args.filter((a) => INPUT_MODES.has(a.mode) && a.name));
    for (const [arg, argSettings] of Object.entries(settings.args)) {
      const fact = inputs.find((a) => a.name === arg);
      if (!fact) return pullError(codes.invalid_overrides, `${path}.args.${arg}`, `${name} has no argument '${arg}'`, `arguments: ${inputs.map((a) => a.name).join(', ') || 'none'}`);
      if (argSettings === null && chosen) return pullError(codes.invalid_overrides, `${path}.args.${arg}`, 'a chosen overload is called with every argument, so PostgREST tells it from the others: none can be left out');
      if (argSettings === null && !fact.hasDefault) return pullError(codes.invalid_overrides, `${path}.args.${arg}`, `${arg} has no default, so every call must pass it: it cannot be left out`);
      if (argSettings !== null && !isPlainObject(argSettings)) return pullError(codes.invalid_overrides, `${path}.args.${arg}`, 'must be an object of argument settings, or null to leave out an argument that has a default');
    }
  }
  return null;
}

// Why the model cannot call `fn` whatever the overrides say, or null.
export function structuralProblem(fn, overloaded) {
  if (fn.kind === 'procedure') return 'a procedure: PostgREST calls functions only';
  if (fn.kind === 'aggregate' || fn.kind === 'window') return `${fn.kind === 'aggregate' ? 'an aggregate' : 'a window'} function, which is not called on its own`;
  if (fn.returns.kind === 'pseudo' && (fn.returns.type === 'trigger' || fn.returns.type === 'event_trigger')) {
    return `${fn.returns.type === 'trigger' ? 'a trigger' : 'an event trigger'} function: the database runs it, not a caller`;
  }
  if (fn.authHook) return 'an auth hook (EXECUTE granted to supabase_auth_admin): Supabase Auth calls it, not a user';
  if (!isIdentifier(fn.name)) return `'${fn.name}' is not a lower-case identifier, which the domain needs`;
  if (!usableColumnName(fn.name)) return `'${fn.name}' is a word PostgREST reserves in a request (select, order, limit, …)`;
  if (overloaded.length > 1) {
    return `overloaded: ${overloaded.map(signature).join(' and ')}; PostgREST tells overloads apart by their argument names, and a domain holds one function per name: rename one, drop the one the model should not call, or choose one with functions.${fn.name}.overload: [its argument names] in the overrides`;
  }
  const inputs = fn.args.filter((arg) => INPUT_MODES.has(arg.mode));
  if (inputs.length === 1 && !inputs[0].name && /^jsonb?$/.test(inputs[0].type)) {
    return `its one argument is an unnamed ${inputs[0].type}, which PostgREST fills with the whole request body; the model passes arguments by name`;
  }
  for (const [index, arg] of inputs.entries()) {
    if (arg.mode === 'variadic') return `its argument ${arg.name || index + 1} is VARIADIC, which a call by name cannot pass`;
    if (!arg.name) return `its argument ${index + 1} (${arg.type}) has no name; the model passes arguments by name`;
    if (!isIdentifier(arg.name)) return `its argument '${arg.name}' is not a lower-case identifier, which the domain needs`;
    if (!argumentType(arg)) return `its argument ${arg.name} is of type ${arg.type}, which the model cannot write`;
  }
  return null;
}

// An argument's type and values in the domain, or null: a column type, an
// enum as text with its values, a pgvector embedding as vector.
function argumentType(arg) {
  if (arg.kind === 'enum') return { type: 'text', values: arg.values ?? [] };
  if (arg.type.endsWith('[]') && arg.values) return { type: 'text[]', values: arg.values };
  if (isVector(arg.type)) {
    const size = /\((\d+)\)$/.exec(arg.type);
    return size ? { type: 'vector', dimensions: Number(size[1]) } : { type: 'vector' };
  }
  if (arg.kind !== 'base') return null;
  const type = domainTypeOf(arg.type);
  return type ? { type } : null;
}


// The one-column key of a domain table, or null.
function keyColumn(spec) {
  const key = spec.key === undefined ? (spec.columns?.id ? ['id'] : []) : [spec.key].flat();
  return key.length === 1 ? { name: key[0], type: spec.columns?.[key[0]]?.type } : null;
}

/**
 * What names of arguments hold, from the domain: for each column name, the
 * one table its columns of that name reference (`account_id` → `accounts`),
 * or USERS for user ids (an owner column, a reference to auth.users or to
 * the users table). A name whose columns disagree holds nothing.
 */
function referencesByName(domain, usersTable) {
  const found = new Map();
  const add = (name, type, target) => {
    const key = `${name} ${type}`;
    found.set(key, found.has(key) && found.get(key) !== target ? null : target);
  };
  for (const spec of Object.values(domain.tables)) {
    for (const [name, config] of Object.entries(spec.columns ?? {})) {
      if (config.type === 'uuid[]') continue;
      const isUser = config.references === USERS || (config.references && config.references === usersTable) || (name === spec.owner && !config.references);
      if (isUser) add(name, config.type, USERS);
      else if (config.references) add(name, config.type, config.references);
    }
  }
  return found;
}

// The prefixes functions give their arguments to keep them apart from
// columns (p_chat_id, in_account_id), before a name that names a table's
// key by itself (`<x>_id`, `<x>_ids`): p_id stays p_id.
const ARGUMENT_PREFIX = /^(?:p|in|arg)_(?=[a-z]\w*_ids?$)/;

/** An argument's name without its prefix (p_chat_id → chat_id), or null when it has none. */
export const unprefixed = (name) => (ARGUMENT_PREFIX.test(name) ? name.replace(ARGUMENT_PREFIX, '') : null);

// The table whose refs an argument takes, or null: a column of the same name
// elsewhere references it, or `<x>_id` (`<x>_ids` for a list) names a table
// `<x>s` keyed by that type, or it is a user id by its name (user_id, …);
// the name is read without a prefix too (p_chat_id as chat_id).
function argumentReference(arg, type, list, domain, byName, usersTable) {
  const found = referenceByName(arg.name, type, list, domain, byName, usersTable);
  const bare = found ? null : unprefixed(arg.name);
  return found ?? (bare ? referenceByName(bare, type, list, domain, byName, usersTable) : null);
}

function referenceByName(name, type, list, domain, byName, usersTable) {
  const fromColumns = list ? null : byName.get(`${name} ${type}`);
  if (fromColumns) return fromColumns === USERS ? (usersTable ?? USERS) : fromColumns;
  // A text argument takes a table's uuid key where uuid columns of its name
  // reference that table (a team taken as `team_id text` beside the tables'
  // `team_id uuid`): the core sends the uuid as text, as the app's own
  // client does. The name alone is not enough (an order number, a Stripe
  // id), nor are the people's ids: those stay uuid arguments.
  const asUuid = type === 'text' && !list ? byName.get(`${name} uuid`) : null;
  if (asUuid && asUuid !== USERS && asUuid !== usersTable) return asUuid;
  const stem = (list ? /^(.+)_ids$/ : /^(.+)_id$/).exec(name)?.[1];
  if (stem && (type === 'uuid' || type === 'integer' || type === 'text')) {
    for (const candidate of pluralsOf(stem)) {
      const spec = domain.tables[candidate];
      if (spec && keyColumn(spec)?.type === type) return candidate;
    }
  }
  if (type === 'uuid' && !list && OWNER_NAMES.includes(name)) return usersTable ?? USERS;
  return null;
}

// What a function returns in the domain: rows of a domain table, a column
// type, json or void.
function returnsOf(fn, tableOfRelation) {
  const { returns } = fn;
  if (returns.kind === 'pseudo' && returns.type === 'void') return { type: 'void' };
  const set = returns.set ? { set: true } : {};
  const table = returns.relation ? tableOfRelation(returns.relation) : null;
  if (table) return { table, ...set };
  // `returns table (name text)` and OUT arguments are named columns, even
  // one alone: PostgREST sends objects ({ "name": … }), not the values a
  // `setof text` or `returns bigint` gives.
  const results = fn.args.filter((arg) => OUTPUT_MODES.has(arg.mode));
  if (results.length > 0) {
    // An embedding among them is numbers the model has no use for (1,536 of
    // them per row): the call selects the other columns.
    const shown = results.filter((arg) => !isVector(arg.type)).map((arg) => arg.name);
    const selects = shown.length < results.length && shown.length > 0 && shown.every(isIdentifier);
    return { type: 'json', ...set, ...(selects ? { columns: shown } : {}) };
  }
  let type = null;
  if (returns.kind === 'enum') type = 'text';
  else if (returns.type.endsWith('[]') && returns.values) type = 'text[]';
  else if (returns.kind === 'base') type = domainTypeOf(returns.type);
  // json, jsonb, records, `returns table (…)`, composite types that are no
  // domain table, and values of types a column cannot have all come back as JSON.
  return { type: !type || type === 'jsonb' ? 'json' : type, ...set };
}

function inOrder(object, keys) {
  const out = {};
  for (const key of keys) if (object[key] !== undefined) out[key] = object[key];
  for (const key of Object.keys(object)) if (!(key in out)) out[key] = object[key];
  return out;
}

// A function's settings with the overrides' on top: description and read
// replace, arguments merge per argument (null leaves out one with a
// default), returns replaces.
function withOverrides(derived, given) {
  if (!isPlainObject(given)) return inOrder(derived, FUNCTION_KEYS);
  const out = { ...derived, args: { ...derived.args } };
  for (const [key, value] of Object.entries(given)) {
    if (PULL_SETTINGS.includes(key)) continue;
    if (key === 'args' && isPlainObject(value)) {
      for (const [arg, settings] of Object.entries(value)) {
        if (settings === null) delete out.args[arg];
        else out.args[arg] = { ...out.args[arg], ...settings };
        for (const [setting, v] of Object.entries(out.args[arg] ?? {})) if (v === null) delete out.args[arg][setting];
      }
    } else if (value === null) delete out[key];
    else out[key] = structuredClone(value);
  }
  out.args = Object.fromEntries(Object.entries(out.args).map(([name, settings]) => [name, inOrder(settings, ARG_KEYS)]));
  return inOrder(out, FUNCTION_KEYS);
}

// Why an offered function would not load or would leak ids: a uuid argument
// or result that holds no table's refs (the model never sees a uuid).
// Returns the message, or null.
function unrelatedUuid(spec) {
  const reasons = [];
  const unknown = Object.entries(spec.args).filter(([, arg]) => (arg.type === 'uuid' || arg.type === 'uuid[]') && !arg.references);
  if (unknown.length === 1) {
    const [[name, arg]] = unknown;
    reasons.push(`its ${arg.type} argument ${name} takes keys of a table the pull cannot tell (no column named ${name} references one): give "args": { "${name}": { "references": "<table>" } } in the overrides, or "auth.users" for a user id`);
  } else if (unknown.length > 1) {
    const names = unknown.map(([name]) => name);
    const settings = names.map((name) => `"${name}": { "references": "<table>" }`).join(', ');
    reasons.push(`its uuid arguments ${names.join(', ')} take keys of tables the pull cannot tell (no column of those names references one): give "args": { ${settings} } in the overrides, "auth.users" for a user id`);
  }
  const type = spec.returns?.type;
  if ((type === 'uuid' || type === 'uuid[]') && !spec.returns.references) {
    reasons.push(`it returns ${type === 'uuid' ? 'a uuid, the key' : 'uuid[], keys'} of a table the pull cannot tell, and the model never sees a uuid: give "returns": { "type": "${type}"${spec.returns.set ? ', "set": true' : ''}, "references": "<table>" } in the overrides`);
  }
  return reasons.length === 0 ? null : reasons.join('; and ');
}

const leftOut = (name, why) => ({ path: `functions.${name}`, message: `left out: ${why}` });

const OUTPUT_MODES = new Set(['out', 'inout', 'table']);
// The result columns (returns table (…), OUT arguments) that hold embeddings.
const embeddingsOf = (fn) => fn.args.filter((arg) => OUTPUT_MODES.has(arg.mode) && isVector(arg.type)).map((arg) => arg.name);

// Why a callable function is not offered unless the overrides opt it in.
function exposureProblem(fn, helpers, returns) {
  const reasons = [];
  // A function named like a secret that hands back a value (new_access_token()
  // returns the token): the model would read it as it reads any result.
  if (!returns?.table && returns?.type !== 'void' && holdsSecret(fn.name, returns?.type)) {
    reasons.push('its name says it returns a secret (an API key, a token, a password), which the model must not read');
  }
  // Result columns named for a secret (returns table (id bigint, token text)).
  const secrets = returns?.table ? [] : fn.args.filter((arg) => OUTPUT_MODES.has(arg.mode) && holdsSecret(arg.name, argumentType(arg)?.type ?? arg.type)).map((arg) => arg.name);
  if (secrets.length > 0) reasons.push(`its result's ${secrets.join(', ')} ${secrets.length > 1 ? 'are' : 'is'} named for a secret (an API key, a token, a password), which the model must not read`);
  if (helpers.has(fn.name)) reasons.push('a helper: its body reads and writes no table, so it computes what the model can (or draws ids and codes)');
  if (fn.securityDefiner) reasons.push('security definer: runs with its owner\'s rights, so row-level security does not protect what it touches');
  if (fn.executable === false) reasons.push('the authenticated role may not execute it (has_function_privilege), so a signed-in user\'s call would be refused');
  return reasons.length === 0 ? null : `${reasons.join('; and ')}; opt in with functions.${fn.name}.expose: true in the overrides`;
}

// The note on functions that were not read: without the catalog, or with
// facts read before functions were. None when the description lists none.
function unreadNote(catalog, spec, given) {
  const described = describedFunctions(spec).filter((name) => given[name] !== null);
  if (described.length === 0) return [];
  const where = catalog ? 'these catalog facts were read before functions were (read them again with catalogFacts)' : 'pull with the catalog (--db-url, or the catalog option of pullDomain)';
  const message = `not read: the description lists ${described.length} function${described.length > 1 ? 's' : ''} (${shortList(described)}), but only the catalog says which are safe to offer (security definer, who may execute them, what they return): ${where}`;
  return [{ path: 'functions', message }];
}

// One note per extension whose functions are in the schema.
function extensionNotes(functions) {
  const byExtension = new Map();
  for (const fn of functions.filter((f) => f.extension)) byExtension.set(fn.extension, [...new Set([...(byExtension.get(fn.extension) ?? []), fn.name])]);
  return [...byExtension]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([extension, names]) => ({ path: 'functions', message: `left out: ${names.length} function${names.length > 1 ? 's' : ''} of the extension ${extension} (${shortList(names)}): the extension's, not the app's` }));
}

// Whether a call's arguments go by POST: a vector (its embedding), or a name
// PostgREST reserves in a query string (the core's rpc request). PostgREST
// runs a GET read-only whatever the function is, a POST only for a stable
// or immutable one.
const sentByPost = (args) => Object.entries(args).some(([name, config]) => config.type === 'vector' || !usableColumnName(name));

// A volatile function offered as a read (its body reads, and a call goes by
// GET, so a body that writes after all is refused by the database), or as
// one that changes data though its own body has no statement that does.
function volatileNote(fn, read, bodyReads) {
  const path = `functions.${fn.name}`;
  const stable = 'mark it stable (create or replace function … stable)';
  if (read) {
    return {
      path,
      message: `offered as a read though volatile (the default when a function does not say stable): its body changes no data and calls no function that may, and a call goes by GET, which PostgREST runs read-only. If it only reads, ${stable}; if it changes data, say "read": false in the overrides`,
    };
  }
  const calls = (fn.volatileCalls ?? []).filter((called) => called !== fn.name);
  const why = bodyReads
    ? 'its arguments go by POST (an embedding, or a name such as limit), which PostgREST runs read-only only for a stable function'
    : `its body has no statement that changes data, but ${calls.length > 0 ? `it calls ${shortList(calls)}, which may` : 'what it calls was not read'}`;
  return {
    path,
    message: `offered as a function that changes data (volatile, the default when a function does not say stable): ${why}. Approval asks before it, and read-only acts and read steps leave it out. If it only reads, ${stable}, or say "read": true in the overrides`,
  };
}

// Supabase's advisor warns on a definer function whose search_path is not pinned.
const unpinnedNote = (fn) => ({
  path: `functions.${fn.name}`,
  message: `security definer without a pinned search_path: whoever can create objects in a schema on the caller's search path can make ${signature(fn)} run them with its owner's rights; add set search_path = '' to it (Supabase's advisor warns: function_search_path_mutable)`,
});

// A callable function's settings as derived: its arguments (with the tables
// whose refs they take), whether a call is a read, what it returns.
function derivedFunction(fn, { domain, byName, usersTable, tableOfRelation, reads }) {
  const args = {};
  for (const arg of fn.args.filter((a) => INPUT_MODES.has(a.mode))) {
    const { type, values, dimensions } = argumentType(arg);
    const config = { type };
    if (dimensions) config.dimensions = dimensions;
    if (!arg.hasDefault) config.required = true;
    const list = type.endsWith('[]');
    const references = type === 'vector' ? null : argumentReference(arg, type.replace(/\[\]$/, ''), list, domain, byName, usersTable);
    if (references && (type === 'uuid' || type === 'integer' || type === 'text' || type === 'uuid[]')) config.references = references;
    if (values) config.values = [...values];
    args[arg.name] = config;
  }
  const derived = { read: fn.volatility !== 'volatile' || (reads.has(fn.name) && !sentByPost(args)), args, returns: returnsOf(fn, tableOfRelation) };
  if (fn.description) derived.description = fn.description;
  return derived;
}

// The overrides' `returns: { table }` for a function whose result is its own
// columns (`returns table (…)`, OUT arguments): every column the table shows
// must be one of them, since the call asks for those by name (select=); an
// invalid_overrides error naming the ones it lacks, or null.
function returnedTableProblem(fn, spec, settings, domain) {
  const table = settings?.returns?.table;
  const columns = fn.args.filter((arg) => OUTPUT_MODES.has(arg.mode)).map((arg) => arg.name);
  if (typeof table !== 'string' || columns.length === 0 || spec.returns?.table !== table) return null;
  const target = domain.tables[table];
  if (!target) return null; // the core's parser names the unknown table
  const shown = Object.keys(target.columns ?? {}).filter((column) => !(target.hidden ?? []).includes(column));
  const missing = shown.filter((column) => !columns.includes(column));
  if (missing.length === 0) return null;
  return pullError(
    codes.invalid_overrides,
    `functions.${fn.name}.returns`,
    `${fn.name} returns ${columns.join(', ')}; rows of ${table} also have ${shortList(missing)}, which a call asks for (PostgREST would answer that the column does not exist)`,
    `leave returns as the pull derived it (JSON, whose ${columns.filter((c) => /_id$/.test(c) || c === 'id').join(', ') || 'key'} fields become refs where the domain knows their table), or hide ${missing.length === 1 ? 'that column' : 'those columns'} in tables.${table}`,
  );
}

// One function name: `{ spec }` when it is offered (with the overrides'
// settings), and the notes on it; `{ error }` for overrides the function
// cannot honour.
function offeredFunction(overloads, settings, context) {
  const chosen = chosenOverload(overloads, settings);
  const [fn] = chosen ? [chosen] : overloads;
  const notes = overloads.filter((f) => f.securityDefiner && !f.searchPathPinned).map(unpinnedNote);
  const problem = structuralProblem(fn, chosen ? [chosen] : overloads);
  // Overrides cannot change a function's kind, name or arguments' types: say their settings went unused.
  const unused = isPlainObject(settings) ? '; its settings in the overrides are not used: nothing opts in a function left out for its kind, name or arguments' : '';
  if (problem) return { spec: null, notes: [...notes, leftOut(fn.name, `${problem}${unused}`)] };
  if (settings === null || settings?.expose === false) return { spec: null, notes };
  // Every reason at once: opting in does not help a function whose arguments also keep it out.
  const spec = withOverrides(derivedFunction(fn, context), settings);
  if (chosen) notes.push(requireAll(spec, chosen));
  const exposure = settings?.expose === true ? null : exposureProblem(fn, context.helpers, spec.returns);
  const unrelated = unrelatedUuid(spec);
  if (exposure || unrelated) return { spec: null, notes: [...notes, leftOut(fn.name, [exposure, unrelated].filter(Boolean).join('; and '))] };
  const returned = returnedTableProblem(fn, spec, settings, context.domain);
  if (returned) return { spec: null, notes, error: returned };
  if (fn.volatility === 'volatile' && fn.writes === false && settings?.read === undefined) notes.push(volatileNote(fn, spec.read, context.reads.has(fn.name)));
  if (spec.returns.columns && settings?.returns === undefined) notes.push({ path: `functions.${fn.name}.returns.columns`, message: `${spec.returns.columns.join(', ')}: a call selects these, not ${embeddingsOf(fn).join(', ')}, an embedding whose numbers the model has no use for` });
  for (const [arg, config] of Object.entries(spec.args)) {
    const asText = config.type === 'text' && config.references && settings?.args?.[arg]?.references === undefined && keyColumn(context.domain.tables[config.references] ?? {})?.type === 'uuid';
    if (asText) notes.push({ path: `functions.${fn.name}.args.${arg}`, message: `a ref of ${config.references}, sent as its uuid's text (uuid columns named ${arg} reference ${config.references}); if it takes something else, give "references": null in the overrides` });
    const bare = config.references && settings?.args?.[arg]?.references === undefined ? unprefixed(arg) : null;
    if (bare) notes.push({ path: `functions.${fn.name}.args.${arg}`, message: `a ref of ${config.references}: read as ${bare} (its name without the prefix); if it takes something else, give "references" in the overrides` });
  }
  for (const [arg, config] of Object.entries(spec.args)) {
    const note = config.type === 'vector' && config.dimensions === undefined ? sizeVector(fn.name, arg, spec.args, context.vectorSizes, fn.compared?.[arg]) : null;
    if (note) notes.push(note);
  }
  return { spec, notes };
}

// The vector columns of the described tables by size: `{ 384: ['documents.embedding'] }`.
function vectorSizes(description) {
  const sizes = {};
  for (const [table, definition] of Object.entries(description?.definitions ?? {})) {
    for (const [column, property] of Object.entries(definition?.properties ?? {})) {
      const size = /(?:^|\.)vector\((\d+)\)$/.exec(String(property?.format ?? ''))?.[1];
      if (size) (sizes[size] ??= []).push(`${table}.${column}`);
    }
  }
  return sizes;
}

// The sizes (entries of `sizes`) of the vector columns `names` are, as a
// body writes them: `file_items.local_embedding` exactly, else by the column
// alone (`d.embedding`, `local_embedding`).
function sizesNamed(names, sizes) {
  const entries = Object.entries(sizes);
  const exact = entries.filter(([, columns]) => columns.some((column) => names.includes(column)));
  if (exact.length > 0) return exact;
  const column = (name) => name.split('.').at(-1);
  const bare = names.map(column);
  return entries.filter(([, columns]) => columns.some((name) => bare.includes(column(name))));
}

// A vector argument's size, which the catalog does not keep (vector(384) is
// vector there): the size of the vector columns its body compares it with
// (`compared`), else the one size of the schema's vector columns, written
// into `args` with a note; several sizes make a note asking for it; none,
// nothing.
function sizeVector(name, arg, args, sizes, compared = []) {
  const path = `functions.${name}.args.${arg}.dimensions`;
  const named = sizesNamed(compared, sizes);
  if (named.length === 1) {
    const [[size, columns]] = named;
    args[arg] = { type: 'vector', dimensions: Number(size), ...args[arg] };
    return { path, message: `${size}: the size of the vector column its body compares it with (${compared.join(', ')}: ${columns.join(', ')} is vector(${size})); a function's argument carries none in the catalog, and an embedder of another size is refused before any request` };
  }
  const known = Object.entries(sizes);
  if (known.length === 1) {
    const [[size, columns]] = known;
    args[arg] = { type: 'vector', dimensions: Number(size), ...args[arg] };
    return { path, message: `${size}: the size of the schema's vector columns (${columns.join(', ')}); a function's argument carries none in the catalog, and an embedder of another size is refused before any request` };
  }
  if (known.length === 0) return null;
  const listed = known.map(([size, columns]) => `${size}: ${columns.join(', ')}`).join('; ');
  return { path, message: `not known: a function's argument carries no size in the catalog, and the schema's vector columns hold several (${listed}); give it in the overrides (args.${arg}.dimensions), or the database refuses an embedding of another size` };
}

/**
 * The domain's `functions` from the catalog's facts about the exposed
 * schema's functions, with the overrides' `functions` on top, and the notes
 * on what was left out and why. `domain` is the domain as merged (its tables
 * decide argument references and returned rows); `tableOfRelation` names the
 * domain table of a `{ schema, table }` relation, or null.
 * Returns `{ functions, notes, error }`: `error` (invalid_overrides) when the
 * overrides give a function a result it does not have.
 */
export function deriveFunctions({ catalog, spec, overrides, domain, usersTable, tableOfRelation }) {
  const given = isPlainObject(overrides.functions) ? overrides.functions : {};
  if (!catalog || catalog.functions === undefined) return { functions: {}, notes: unreadNote(catalog, spec, given), error: null };
  const own = catalog.functions.filter((fn) => !fn.extension);
  const context = { domain, byName: referencesByName(domain, usersTable), usersTable, tableOfRelation, vectorSizes: vectorSizes(spec), reads: volatileReads(own), helpers: helpersOf(own, catalog.schema ?? 'public') };
  const functions = {};
  const notes = extensionNotes(catalog.functions);
  for (const name of [...new Set(own.map((fn) => fn.name))].sort()) {
    const offered = offeredFunction(own.filter((fn) => fn.name === name), given[name], context);
    if (offered.error) return { functions: {}, notes: [], error: offered.error };
    notes.push(...offered.notes);
    if (offered.spec) functions[name] = offered.spec;
  }
  // A function kept beside later versions of itself: the model is offered the latest.
  for (const [name, latest] of supersededBy(Object.keys(functions))) {
    if (given[name]?.expose === true) continue;
    delete functions[name];
    notes.push(leftOut(name, `an older version of ${latest}, which is offered; opt in with functions.${name}.expose: true in the overrides`));
  }
  return { functions, notes, error: null };
}
