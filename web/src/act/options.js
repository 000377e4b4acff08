// createAct's options: what the act reads from them (a supabase-js client,
// or a URL, a key and a token or a token getter), each checked, and the
// PostgREST root of a Supabase URL.
import { lexicalEmbedder } from '../embedder.js';
import { unconfiguredEmbedder } from '../embedder-settings.js';
import { kitchen } from '../kitchen.js';
import { AlfredError } from '../errors.js';
import { MAX_LIMITS } from '../limits.js';
import { checkedResultLimits } from '../result-limits.js';
import { POLICY_OPTION_NAMES, checkedPolicy } from '../policy/options.js';
import { restrictDomain } from '../policy/tables.js';
import { codes } from '../../dist/error-codes.mjs';

/**
 * The PostgREST root of a Supabase URL, as supabase-js's `createClient`
 * builds it: `url` + `/rest/v1` (project URLs, `http://127.0.0.1:54321` from
 * `supabase start`, custom domains). Throws `AlfredError` (`invalid_option`)
 * for anything that is not an http(s) URL, or that already ends in `/rest/v1`.
 *
 * @example
 * restUrl('https://abcd.supabase.co/') // 'https://abcd.supabase.co/rest/v1'
 */
export function restUrl(url) {
  if (typeof url !== 'string' || url === '') {
    throw new AlfredError({ code: codes.invalid_option, path: 'url', message: 'url is required', hint: 'the Supabase URL, e.g. https://<project>.supabase.co' });
  }
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    throw new AlfredError({ code: codes.invalid_option, path: 'url', message: `url is not a URL: ${url.slice(0, 80)}` });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new AlfredError({ code: codes.invalid_option, path: 'url', message: 'url must be an http:// or https:// URL' });
  }
  const trimmed = url.replace(/\/+$/, '');
  if (trimmed.endsWith('/rest/v1')) {
    throw new AlfredError({
      code: codes.invalid_option,
      path: 'url',
      message: 'url is the Supabase URL and gets /rest/v1 added; this one already ends in /rest/v1',
      hint: 'pass the Supabase URL as url, or the PostgREST root as restUrl',
    });
  }
  return `${trimmed}/rest/v1`;
}

// Every option createAct reads; anything else is an error, never ignored.
const OPTION_NAMES = new Set([
  'url', 'restUrl', 'supabase', 'apiKey', 'accessToken', 'userId',
  'domain', 'fetch', 'state', 'registry', 'embedder', 'timeoutMs', 'limits',
  // The caps on what reaches the model (result-limits.js).
  'resultLimits',
  // Values the app sets for every call: the active team, a tenant id.
  'context',
  ...POLICY_OPTION_NAMES,
]);

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

// `context`: column and argument names → the value the app sets on every
// create and function call (docs/functions.md, "Team apps"). Plain values
// only: text, numbers, true/false, null, or a list of them.
function checkedContext(context) {
  if (!present(context)) return {};
  if (typeof context !== 'object' || Array.isArray(context)) {
    throw invalidOption('context', `context must be an object of column or argument name → value, got ${describe(context)}`, "e.g. { account_id: activeTeam.id }");
  }
  const plain = (value) => value === null || ['string', 'number', 'boolean'].includes(typeof value);
  for (const [name, value] of Object.entries(context)) {
    if (!IDENTIFIER.test(name)) throw invalidOption(`context.${name.slice(0, 60)}`, `'${name.slice(0, 60)}' is not a column or argument name`);
    if (!(plain(value) || (Array.isArray(value) && value.every(plain))) || (typeof value === 'number' && !Number.isFinite(value))) {
      throw invalidOption(`context.${name}`, `context.${name} must be text, a number, true/false, null or a list of them, got ${describe(value)}`);
    }
  }
  return Object.freeze({ ...context });
}

export const invalidOption = (path, message, hint = '') => new AlfredError({ code: codes.invalid_option, path, message, hint });

/**
 * `context` checked against the domain it is set for (the act's, before a
 * `tables` allow-list): every name must be a column of a table (shown or
 * hidden: a hidden one takes the app's value on creates as given) or an
 * argument of one of its functions, or its value would go nowhere. Throws
 * `invalid_option` at `context.<name>`.
 */
export function checkContextNames(domain, fixed) {
  const names = Object.keys(fixed);
  if (names.length === 0 || !domain?.tables) return;
  // Each name's types, from the columns and arguments that have it (a hidden
  // column takes the app's value on creates, as given: its type is unknown here).
  const types = new Map();
  const add = (name, type) => types.set(name, [...(types.get(name) ?? []), type ?? null]);
  for (const spec of Object.values(domain.tables)) {
    for (const [column, config] of Object.entries(spec.columns ?? {})) add(column, config?.type);
    for (const column of spec.hidden ?? []) add(column, null);
  }
  for (const fn of Object.values(domain.functions ?? {})) for (const [arg, config] of Object.entries(fn.args ?? {})) add(arg, config?.type);
  for (const name of names) {
    if (!types.has(name)) {
      throw invalidOption(`context.${name}`, `no column or function argument of the ${domain.name ?? 'act\'s'} domain is named ${name}`, 'context names a column that creates set, or an argument that function calls get (e.g. { account_id: activeTeam.id })');
    }
    // A key the app fixes is the row's own id, never a ref or a name: said
    // when the act is made, not on the model's first call (the core checks
    // every type per call).
    const value = fixed[name];
    if (types.get(name).every((type) => type === 'uuid') && value !== null && !(typeof value === 'string' && UUID_TEXT.test(value))) {
      throw invalidOption(`context.${name}`, `context.${name} holds a uuid: the row's id as the database stores it, got ${typeof value === 'string' ? JSON.stringify(value.slice(0, 60)) : describe(value)}`, `e.g. { ${name}: activeTeam.id }, the id your app has; not a ref the model sees, nor a name`);
    }
  }
}

const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function checkString(options, name) {
  const value = options[name];
  if (value !== undefined && value !== null && typeof value !== 'string') {
    throw invalidOption(name, `${name} must be a string, got ${describe(value)}`);
  }
}

function describe(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

export const present = (value) => value !== undefined && value !== null;

// What a supabase-js client gives: its URL and key. supabase-js has no public
// getter for them: `supabaseUrl` and `supabaseKey` are the constructor's
// arguments, kept as (TypeScript-protected) fields since 2.0, and
// tests/js/supabase-session.test.mjs checks them against the real package.
function supabaseParts(supabase) {
  if (!supabase || typeof supabase !== 'object') {
    throw invalidOption('supabase', `supabase must be a supabase-js client (createClient(url, key)), got ${describe(supabase)}`);
  }
  const { supabaseUrl, supabaseKey } = supabase;
  if (typeof supabaseUrl !== 'string' || typeof supabaseKey !== 'string') {
    throw invalidOption('supabase', 'supabase must be a supabase-js client: supabaseUrl and supabaseKey are missing');
  }
  return { url: supabaseUrl, apiKey: supabaseKey, session: supabaseSession(supabase) };
}

// The client's current access token, read again before every call: the
// `accessToken` function the client was created with (its `auth` then throws
// on any use), or the signed-in session from `auth.getSession()`, which
// refreshes an expiring token. `accessToken` is TypeScript-protected in
// supabase-js; it is the only way to the token of such a client.
function supabaseSession(supabase) {
  if (typeof supabase.accessToken === 'function') return () => supabase.accessToken();
  let auth;
  try {
    auth = supabase.auth;
  } catch {
    auth = undefined;
  }
  if (!auth || typeof auth.getSession !== 'function') {
    throw invalidOption('supabase', 'supabase must be a supabase-js client: it has neither auth.getSession() nor an accessToken function');
  }
  return async () => {
    const { data, error } = await auth.getSession();
    if (error) throw error;
    return data?.session?.access_token ?? '';
  };
}

// The options as the core reads them, and how to get the token of each call.
export function resolveOptions(options) {
  if (!options || typeof options !== 'object' || Array.isArray(options)) {
    throw invalidOption('', `options must be an object, got ${describe(options)}`, '{ supabase } or { url, apiKey, accessToken }');
  }
  for (const name of Object.keys(options)) {
    if (!OPTION_NAMES.has(name)) {
      throw invalidOption(name, `unknown option ${name}`, `options are ${[...OPTION_NAMES].join(', ')}`);
    }
  }
  for (const name of ['url', 'restUrl', 'apiKey', 'userId']) checkString(options, name);
  const { accessToken } = options;
  if (present(accessToken) && typeof accessToken !== 'string' && typeof accessToken !== 'function') {
    throw invalidOption('accessToken', `accessToken must be a string or a function returning one, got ${describe(accessToken)}`);
  }
  if (present(options.supabase)) {
    for (const name of ['url', 'restUrl', 'apiKey', 'accessToken']) {
      if (present(options[name])) {
        throw invalidOption(name, `give either supabase or ${name}, not both`, 'the supabase client brings its URL, key and session');
      }
    }
    const { url, apiKey, session } = supabaseParts(options.supabase);
    return { location: { url }, apiKey, userId: options.userId ?? '', token: session };
  }
  if (present(options.url) && present(options.restUrl)) {
    throw invalidOption('restUrl', 'give either url or restUrl, not both', 'url is the Supabase URL (gets /rest/v1); restUrl is the PostgREST root itself');
  }
  if (!present(options.url) && !present(options.restUrl)) {
    throw invalidOption('url', 'url is required', 'the Supabase URL (https://<project>.supabase.co), restUrl for a bare PostgREST root, or supabase (a supabase-js client)');
  }
  const location = present(options.url) ? { url: options.url } : { restUrl: options.restUrl };
  const token = typeof accessToken === 'function' ? accessToken : null;
  return { location, apiKey: options.apiKey ?? '', userId: options.userId ?? '', token, fixedToken: typeof accessToken === 'string' ? accessToken : '' };
}

// The token of one call from a getter: a string, or nothing (no session).
export async function callToken(getter) {
  let token;
  try {
    token = await getter();
  } catch (cause) {
    return {
      error: {
        code: codes.session_error,
        path: 'accessToken',
        message: `getting the access token failed: ${cause?.message ?? String(cause)}`,
        hint: 'sign in again, or check the accessToken function',
      },
    };
  }
  if (token === undefined || token === null) return { token: '' };
  if (typeof token !== 'string') {
    return { error: { code: codes.invalid_option, path: 'accessToken', message: `accessToken() must return a string, got ${describe(token)}`, hint: '' } };
  }
  return { token };
}

function checkedTimeout(timeoutMs) {
  if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new AlfredError({ code: codes.invalid_option, path: 'timeoutMs', message: `timeoutMs must be a number of milliseconds above 0, got ${String(timeoutMs)}` });
  }
  return timeoutMs;
}

// The core's defaults with the caller's overrides, each a whole number ≥ 1.
function checkedLimits(defaults, limits) {
  if (limits === undefined || limits === null) return { ...defaults };
  if (typeof limits !== 'object' || Array.isArray(limits)) {
    throw new AlfredError({ code: codes.invalid_option, path: 'limits', message: 'limits must be an object', hint: Object.keys(defaults).join(', ') });
  }
  const out = { ...defaults };
  for (const [key, value] of Object.entries(limits)) {
    if (!(key in defaults)) {
      throw new AlfredError({ code: codes.invalid_option, path: `limits.${key.slice(0, 80)}`, message: `unknown limit '${key.slice(0, 80)}'`, hint: Object.keys(defaults).join(', ') });
    }
    if (value === undefined) continue;
    const most = MAX_LIMITS[key];
    if (!Number.isSafeInteger(value) || value < 1 || value > most) {
      throw new AlfredError({ code: codes.invalid_option, path: `limits.${key}`, message: `limits.${key} must be a whole number from 1 to ${most}` });
    }
    out[key] = value;
  }
  return out;
}

const DEFAULT_TIMEOUT_MS = 30_000;

// The embedder of an act given none: the lexical one for the kitchen demo,
// whose rows were embedded with it; for any other domain, one that fails a
// search by meaning saying what to pass, rather than ranking the app's rows
// by shared words (docs/functions.md, "Embedders").
const NO_EMBEDDER = unconfiguredEmbedder(
  'no embedder was given, and the lexical one (shared words, not meaning) would rank your rows by chance: pass ' +
    "createAct({ embedder }) (createHandler's and createMcpServer's too) the model your rows were embedded with, " +
    'openAIEmbedder({ baseUrl, model, dimensions }), or lexicalEmbedder to rank by shared words on purpose',
);
let kitchenText;
// Per domain object: a worker makes an act per request with the same domain.
const kitchenCopies = new WeakMap();
// The package's kitchen, or a copy of it (a worker's domain.json): not any domain named kitchen.
function isKitchen(domain) {
  if (domain === kitchen) return true;
  if (domain?.name !== kitchen.name || typeof domain !== 'object') return false;
  let same = kitchenCopies.get(domain);
  if (same === undefined) kitchenCopies.set(domain, (same = JSON.stringify(domain) === (kitchenText ??= JSON.stringify(kitchen))));
  return same;
}
const defaultEmbedder = (domain) => (isKitchen(domain) ? lexicalEmbedder : NO_EMBEDDER);

// createAct's options checked, each refused with `invalid_option` (the
// domain and the request options are checked by the Act, in the core).
export function checkedActOptions(core, options) {
  const resolved = resolveOptions(options);
  const { state, registry, embedder = defaultEmbedder(options.domain ?? registry?.domain ?? core.domain) } = options;
  const fetchImpl = options.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== 'function') {
    throw invalidOption('fetch', 'fetch must be a function');
  }
  if (!embedder || typeof embedder.embed !== 'function') {
    throw invalidOption('embedder', 'embedder must have embed(texts)');
  }
  if (present(state) && present(registry)) {
    throw invalidOption('state', 'give either state or registry, not both', 'state restores a new registry; registry is one already made');
  }
  if (present(state) && typeof state !== 'string' && typeof state !== 'object') {
    throw invalidOption('state', `state must be registry.toJSON() or its JSON text, got ${describe(state)}`);
  }
  const timeoutMs = checkedTimeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const limits = checkedLimits(core.executionLimits, options.limits);
  const resultLimits = checkedResultLimits(options.resultLimits);
  const policy = checkedPolicy(options);
  const context = checkedContext(options.context);
  return { resolved, state, registry, embedder, fetchImpl, timeoutMs, limits, resultLimits, policy, context };
}

// The act's domain, bound once: the given domain, else the registry's, else
// the core's, with only the allowed tables when `tables` is given; a
// registry of another domain is refused.
export function actDomain(core, options, registry, policy) {
  const base = options.domain ?? registry?.domain ?? core.domain;
  const domain = policy.tables ? restrictDomain(base, policy.tables) : base;
  if (registry && registry.domain !== domain && JSON.stringify(registry.domain) !== JSON.stringify(domain)) {
    throw new AlfredError({
      code: codes.invalid_option,
      path: 'registry',
      message: `the registry is bound to the ${registry.domain?.name ?? 'unnamed'} domain${policy.tables ? ' with all its tables' : ''}, not ${domain?.name ?? 'unnamed'}${policy.tables ? ` restricted to ${policy.tables.join(', ')}` : ''}`,
      hint: 'pass the registry of this domain (createRegistry(state, { domain })), or state instead of registry',
    });
  }
  return domain;
}
