// The executor on the JS side: runs a tool call's needs (HTTP requests to
// PostgREST, embeddings) round by round for the C++ executor, which decides
// everything else (wasm/executor_bindings.cpp, core/src/executor/executor.cpp). What
// it owns is the I/O and its failures: a timeout that holds even against a
// fetch that ignores its signal, a response size limit enforced while the
// body streams in, and a report of how each exchange ended, so that the core
// can tell "nothing was sent" from "the write may have happened".
import { defaultDomain } from './default-domain.js';
import { lexicalEmbedder } from './embedder.js';
import { AlfredError, internalError } from './errors.js';
import { httpExchange } from './http-exchange.js';
import { approvalRequired, forbiddenCall, needsApproval, previewChanged, previewWrite, readPolicy, tooManyRows } from './act-policy.js';
import { MAX_ROWS_LIMIT, MAX_SIZE_LIMIT } from './limits.js';
import { randomUuid } from './uuid.js';
import { callTool } from './tools.js';
import { OUTCOME_UNKNOWN_HINT, STEP_TOOLS, TOOL_NAMES } from '../dist/core-rules.mjs';

const DEFAULT_TIMEOUT_MS = 30_000;
// Creates whose outcome is unknown that an act remembers (their row ids are
// reused when the same create is tried again).
const UNCERTAIN_CREATES_KEPT = 100;

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
    throw new AlfredError({ code: 'invalid_option', path: 'url', message: 'url is required', hint: 'the Supabase URL, e.g. https://<project>.supabase.co' });
  }
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    throw new AlfredError({ code: 'invalid_option', path: 'url', message: `url is not a URL: ${url.slice(0, 80)}` });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new AlfredError({ code: 'invalid_option', path: 'url', message: 'url must be an http:// or https:// URL' });
  }
  const trimmed = url.replace(/\/+$/, '');
  if (trimmed.endsWith('/rest/v1')) {
    throw new AlfredError({
      code: 'invalid_option',
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
  'readOnly', 'tables', 'approve', 'maxAffected',
]);

const invalidOption = (path, message, hint = '') => new AlfredError({ code: 'invalid_option', path, message, hint });

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

const present = (value) => value !== undefined && value !== null;

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
function resolveOptions(options) {
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
async function callToken(getter) {
  let token;
  try {
    token = await getter();
  } catch (cause) {
    return {
      error: {
        code: 'session_error',
        path: 'accessToken',
        message: `getting the access token failed: ${cause?.message ?? String(cause)}`,
        hint: 'sign in again, or check the accessToken function',
      },
    };
  }
  if (token === undefined || token === null) return { token: '' };
  if (typeof token !== 'string') {
    return { error: { code: 'invalid_option', path: 'accessToken', message: `accessToken() must return a string, got ${describe(token)}`, hint: '' } };
  }
  return { token };
}

const encoder = new TextEncoder();

async function performEmbed(embedder, need) {
  try {
    const [vector] = await embedder.embed([need.text]);
    return { status: 200, contentRange: '', contentType: 'application/json', body: encoder.encode(JSON.stringify(vector)), failure: '' };
  } catch (cause) {
    return { status: 0, contentRange: '', contentType: '', body: encoder.encode(String(cause?.message ?? cause)), failure: '' };
  }
}

function checkedTimeout(timeoutMs) {
  if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new AlfredError({ code: 'invalid_option', path: 'timeoutMs', message: `timeoutMs must be a number of milliseconds above 0, got ${String(timeoutMs)}` });
  }
  return timeoutMs;
}

// The core's defaults with the caller's overrides, each a whole number ≥ 1.
function checkedLimits(defaults, limits) {
  if (limits === undefined || limits === null) return { ...defaults };
  if (typeof limits !== 'object' || Array.isArray(limits)) {
    throw new AlfredError({ code: 'invalid_option', path: 'limits', message: 'limits must be an object', hint: Object.keys(defaults).join(', ') });
  }
  const out = { ...defaults };
  for (const [key, value] of Object.entries(limits)) {
    if (!(key in defaults)) {
      throw new AlfredError({ code: 'invalid_option', path: `limits.${key.slice(0, 80)}`, message: `unknown limit '${key.slice(0, 80)}'`, hint: Object.keys(defaults).join(', ') });
    }
    if (value === undefined) continue;
    const most = key === 'maxRows' ? MAX_ROWS_LIMIT : MAX_SIZE_LIMIT;
    if (!Number.isSafeInteger(value) || value < 1 || value > most) {
      throw new AlfredError({ code: 'invalid_option', path: `limits.${key}`, message: `limits.${key} must be a whole number from 1 to ${most}` });
    }
    out[key] = value;
  }
  return out;
}

// How many rows a create's data holds (one id each).
function rowCount(params) {
  const data = params?.data;
  if (Array.isArray(data)) return data.length;
  return data && typeof data === 'object' ? 1 : 0;
}

// The tools a read step may not call: the writes (the core's rule, generated).
const WRITE_TOOLS = new Set(TOOL_NAMES.filter((tool) => !STEP_TOOLS.read.includes(tool)));
// Frees an act's request context when the act is collected.
const contextFinalizer =
  typeof FinalizationRegistry === 'function' ? new FinalizationRegistry((held) => held.context?.handle.delete()) : null;

const WRITE_METHODS = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

// The core failed (a throw from the execution handle, or its own
// internal_error / out_of_memory result) after the write's request was sent:
// the database may have applied it, so this is an unknown outcome, with the
// status that arrived, never "no effect".
function coreFailedAfterWrite(tool, params, answer, failure) {
  const table = typeof params?.table === 'string' ? params.table.slice(0, 80) : '?';
  const arrived = answer.status ? `HTTP ${answer.status}` : 'no answer';
  const why = `${failure.code}: ${String(failure.message ?? '').slice(0, 300)}`;
  return {
    code: 'write_outcome_unknown',
    path: '',
    message: `${tool} on ${table}: the outcome is unknown; the request was sent and the core failed while taking the database's answer (${arrived}): ${why}`,
    hint: OUTCOME_UNKNOWN_HINT,
    ...(answer.status ? { status: answer.status } : {}),
  };
}

// The gen_ ref each row of a create saves (`id: "gen_recipe_1"`), or null.
function savedRefs(params) {
  const data = params?.data;
  const rows = Array.isArray(data) ? data : [data];
  return rows.map((row) => (row && typeof row === 'object' && typeof row.id === 'string' && row.id.startsWith('gen_') ? row.id : null));
}

/**
 * Runs the Act step's tool calls against PostgREST for one user. Create it
 * with `core.createAct(options)` or the package's `createAct(options)`.
 */
export class Act {
  #core;
  #options;
  #registry;
  // Creates whose outcome is unknown: the call's JSON → the row ids it sent,
  // and each gen_ ref it saved → its row's id. A retry sends the same ids,
  // so the database refuses it as a duplicate instead of inserting twice.
  #uncertainCalls = new Map();
  #uncertainSaves = new Map();
  // The policy on writes (act-policy.js), or null; the previews shown for
  // calls awaiting approval, by the call's JSON.
  #policy = null;
  #previews = new Map();
  // The request context of the last access token (#contextOf), held apart
  // from the act so that it is freed when the act is collected.
  #held = { context: null };

  constructor(core, options = {}) {
    const resolved = resolveOptions(options);
    const { state, registry, embedder = lexicalEmbedder } = options;
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
    this.#core = core;
    contextFinalizer?.register(this, this.#held);
    // Bound once: the given domain, else the registry's, else the core's; a
    // registry of another domain is refused.
    const domain = options.domain ?? registry?.domain ?? core.domain;
    if (registry && registry.domain !== domain && JSON.stringify(registry.domain) !== JSON.stringify(domain)) {
      throw new AlfredError({
        code: 'invalid_option',
        path: 'registry',
        message: `the registry is bound to the ${registry.domain?.name ?? 'unnamed'} domain, not ${domain?.name ?? 'unnamed'}`,
        hint: 'pass the registry of this domain (createRegistry(state, { domain })), or state instead of registry',
      });
    }
    const requestOptions = { ...resolved.location, apiKey: resolved.apiKey, accessToken: resolved.fixedToken ?? '', userId: resolved.userId };
    // The URL, key, user and domain are checked now, not at the first call,
    // and before a registry that would need deleting is made.
    const context = core.checkedRequestContext(requestOptions);
    try {
      core.domainHandle(domain);
    } catch (cause) {
      context.handle.delete();
      throw cause;
    }
    // Kept for the calls: a fixed token's context is the one they use.
    this.#held.context = { accessToken: requestOptions.accessToken, ...context };
    this.#registry = registry ?? core.createRegistry(state, { domain });
    this.#policy = readPolicy(options, domain);
    this.#options = {
      requestOptions,
      token: resolved.token,
      domain,
      fetch: fetchImpl,
      embedder,
      timeoutMs,
      limits,
    };
  }

  /** The ref registry; `registry.toJSON()` is the state to keep for the next turn. */
  get registry() {
    return this.#registry;
  }

  /** The domain configuration the calls are validated against. */
  get domain() {
    return this.#options.domain;
  }

  /** The limits of one call (`maxResponseBytes`, `maxRows`, `maxParamsBytes`, `maxStringBytes`). */
  get limits() {
    return { ...this.#options.limits };
  }

  /**
   * The tool definitions for this act's domain (`core.toolDefinitions`):
   * `[{ name, description, parameters }]`; `{ strict: true }` for OpenAI
   * strict mode.
   *
   * @example
   * const tools = act.tools({ strict: true }).map((t) => ({ type: 'function', function: { ...t, strict: true } }))
   */
  tools({ strict = false } = {}) {
    return this.#core.toolDefinitions({ domain: this.#options.domain, strict });
  }

  /**
   * Runs one native tool call and resolves to the result for the model
   * (`core.toolResult`): `{ ok: true, tool, table, count, rows, query }` or
   * `{ ok: false, tool, table, error: { code, path, message, hint } }`.
   * `args` is the arguments object, or the JSON text a provider sends;
   * strict-mode nulls and `data` as JSON text are accepted. Never throws but
   * when `signal` aborts.
   *
   * @example
   * const result = await act.callTool('db_read', '{"table":"inventory","filters":null}')
   * // { ok: true, tool: 'db_read', table: 'inventory', count: 3, rows: [{ id: 'inv_1', … }], query: 'Query: …' }
   */
  callTool(name, args, { signal } = {}) {
    return callTool(this.#core, this, name, args, { signal });
  }

  /**
   * Executes one tool call: `{ data, error, query, count }`. Never throws for
   * bad params, database or network failures (they are `error`); rejects
   * only when `signal` aborts. A write whose answer was lost is
   * `write_outcome_unknown`, never "no effect".
   *
   * @example
   * const { data, error, query } = await act.execute('db_read', { table: 'inventory', filters: [{ field: 'location', op: '=', value: 'fridge' }] })
   */
  async execute(tool, params, { signal, approved = false } = {}) {
    signal?.throwIfAborted();
    let accessToken = this.#options.requestOptions.accessToken;
    const { token } = this.#options;
    if (token) {
      // Read before every call, so a refreshed token is the one sent.
      const current = await callToken(token);
      if (current.error) return { data: null, error: current.error, query: null, count: null };
      accessToken = current.token;
    }
    try {
      const refused = await this.#gate(tool, params, approved === true, signal, accessToken);
      if (refused) return refused;
      return await this.#execute(tool, params, signal, accessToken);
    } catch (cause) {
      if (signal?.aborted) throw signal.reason ?? cause;
      return { data: null, error: cause instanceof AlfredError ? cause.toJSON() : internalError(cause), query: null, count: null };
    }
  }

  // The policy before a call (act-policy.js): a refusal, or null to run it.
  // A write that needs approval (or is capped by maxAffected) is previewed
  // by one read with its filters; without `approved` it is refused with
  // that preview, and with it, refused if it would now touch rows the
  // preview of the same call did not show.
  async #gate(tool, params, approved, signal, accessToken) {
    const policy = this.#policy;
    if (!policy) return null;
    const forbidden = forbiddenCall(policy, tool, params);
    if (forbidden) return forbidden;
    const approval = needsApproval(policy, tool);
    const capped = policy.maxAffected !== null && (tool === 'db_update' || tool === 'db_delete');
    if ((!approval && !capped) || !params || typeof params.table !== 'string') return null;
    const read = (readParams) => this.#execute('db_read', readParams, signal, accessToken);
    const { preview, error } = await previewWrite({ tool, params, domain: this.#options.domain, policy, read });
    if (error) return error;
    const tooMany = tooManyRows(policy, preview);
    if (tooMany) return tooMany;
    if (!approval) return null;
    let key;
    try {
      key = JSON.stringify([tool, params]);
    } catch {
      key = null;
    }
    if (typeof policy.approve === 'function') {
      let allowed = false;
      try {
        allowed = (await policy.approve({ tool, params }, preview)) === true;
      } catch {
        allowed = false;
      }
      return allowed ? null : approvalRequired(preview);
    }
    if (!approved) {
      if (key !== null) {
        this.#previews.delete(key);
        this.#previews.set(key, preview);
        if (this.#previews.size > UNCERTAIN_CREATES_KEPT) this.#previews.delete(this.#previews.keys().next().value);
      }
      return approvalRequired(preview);
    }
    const shown = key === null ? null : this.#previews.get(key);
    if (key !== null) this.#previews.delete(key);
    return previewChanged(shown, preview);
  }

  // The request context of `accessToken`: the options are parsed and checked
  // once per token, not per call. An execution copies the context when it
  // starts, so the one it replaces can go at once.
  #contextOf(accessToken) {
    const held = this.#held;
    const last = held.context;
    if (last && last.accessToken === accessToken) return last;
    const context = { accessToken, ...this.#core.requestContext({ ...this.#options.requestOptions, accessToken }) };
    held.context = context;
    last?.handle.delete();
    return context;
  }

  async #execute(tool, params, signal, accessToken) {
    const { domain, fetch: fetchImpl, embedder, timeoutMs, limits } = this.#options;
    const call = this.#createIds(tool, params);
    const execution = this.#core.startExecution(tool, params, this.#contextOf(accessToken), {
      registry: this.#registry,
      domain,
      settings: { rowIds: call.rowIds, limits },
    });
    let result;
    // The answer to the write's own request once it may have reached the
    // database: from then on a failure of the core is an unknown outcome.
    let writeAnswer = null;
    const isWrite = WRITE_TOOLS.has(tool);
    try {
      const exchange = { signal, timeoutMs, maxResponseBytes: limits.maxResponseBytes };
      while (!execution.done()) {
        signal?.throwIfAborted();
        const needs = execution.needs();
        const responses = await Promise.all(
          needs.map((need) => (need.kind === 'embed' ? performEmbed(embedder, need) : httpExchange(fetchImpl, need, exchange))),
        );
        signal?.throwIfAborted();
        responses.forEach((response, index) => {
          const need = needs[index];
          if (isWrite && need.kind === 'http' && WRITE_METHODS.has(need.method) && response.failure !== 'not_sent') writeAnswer = response;
          execution.respond(index, response);
        });
      }
      result = execution.result();
      const failed = result?.error?.code;
      if (writeAnswer && (failed === 'internal_error' || failed === 'out_of_memory')) {
        result = { data: null, error: coreFailedAfterWrite(tool, params, writeAnswer, result.error), query: result.query ?? null, count: null };
      }
    } catch (cause) {
      // A throw from the execution handle (the core answering a response,
      // reading its needs or result) is a result, never a raw exception; the
      // caller's abort still rejects.
      if (signal?.aborted) throw signal.reason ?? cause;
      const failure = cause instanceof AlfredError ? cause.toJSON() : internalError(cause);
      result = { data: null, error: writeAnswer ? coreFailedAfterWrite(tool, params, writeAnswer, failure) : failure, query: null, count: null };
    } finally {
      try {
        execution.delete();
      } catch {
        // A handle the core failed in may fail to free too; the result (or
        // the error above) stands.
      }
    }
    this.#settle(call, result);
    return result;
  }

  // Row ids for a create: the ones an earlier attempt of the same create (or
  // of a save of the same gen_ artifact) used when its outcome was unknown,
  // fresh ones otherwise.
  #createIds(tool, params) {
    if (tool !== 'db_create') return { rowIds: undefined };
    const count = rowCount(params);
    if (count === 0 || count > this.#options.limits.maxRows) return { rowIds: undefined };
    let key;
    try {
      key = JSON.stringify([tool, params]);
    } catch {
      return { rowIds: undefined }; // the core reports the params
    }
    const earlier = this.#uncertainCalls.get(key);
    const saves = savedRefs(params);
    const rowIds = Array.from({ length: count }, (_, i) => (saves[i] && this.#uncertainSaves.get(saves[i])) ?? earlier?.[i] ?? randomUuid());
    return { rowIds, key, saves };
  }

  #settle({ rowIds, key, saves }, result) {
    if (!rowIds) return;
    const remember = (map, k, value) => {
      map.delete(k);
      map.set(k, value);
      if (map.size > UNCERTAIN_CREATES_KEPT) map.delete(map.keys().next().value);
    };
    const unknown = result?.error?.code === 'write_outcome_unknown';
    if (unknown) remember(this.#uncertainCalls, key, rowIds);
    else this.#uncertainCalls.delete(key);
    saves.forEach((ref, i) => {
      if (!ref) return;
      if (unknown) remember(this.#uncertainSaves, ref, rowIds[i]);
      else if (result?.error?.code !== 'save_in_progress') this.#uncertainSaves.delete(ref);
    });
  }
}

/**
 * The package-level `createAct(options)`: usable at once, loading the core on
 * first use. `options.core` skips the loading. Before the core is loaded,
 * `registry.toJSON()` returns the state the act was created with; `await
 * act.ready` for the real registry.
 */
export function createActFactory(loadCore) {
  return function createAct(options = {}) {
    // `core` and `wasmModule` are this function's own; the rest is the act's.
    const { core, wasmModule, ...actOptions } = options ?? {};
    if (core) return core.createAct(actOptions);
    let act = null;
    const ready = loadCore({ wasmModule }).then((loaded) => {
      act = loaded.createAct(actOptions);
      return act;
    });
    // Surfaced by execute(); an unobserved rejection must not crash the process.
    ready.catch(() => {});
    const pendingRegistry = {
      toJSON: () => (typeof options.state === 'string' ? JSON.parse(options.state) : (options.state ?? null)),
    };
    return {
      ready,
      get registry() {
        return act ? act.registry : pendingRegistry;
      },
      get domain() {
        return act ? act.domain : (options.domain ?? options.registry?.domain ?? defaultDomain);
      },
      get limits() {
        return act ? act.limits : null;
      },
      async execute(tool, params, executeOptions) {
        try {
          await ready;
        } catch (cause) {
          return { data: null, error: cause instanceof AlfredError ? cause.toJSON() : internalError(cause), query: null, count: null };
        }
        return act.execute(tool, params, executeOptions);
      },
      // Tool definitions need the core: `await act.ready` first.
      tools(toolOptions) {
        if (!act) {
          throw new AlfredError({ code: 'not_ready', path: '', message: 'the core is not loaded yet', hint: 'await act.ready before act.tools()' });
        }
        return act.tools(toolOptions);
      },
      async callTool(name, args, callOptions) {
        try {
          await ready;
        } catch (cause) {
          const error = cause instanceof AlfredError ? cause.toJSON() : internalError(cause);
          return { ok: false, tool: String(name), table: null, error: { code: error.code, path: error.path ?? '', message: error.message, hint: error.hint ?? '' } };
        }
        return act.callTool(name, args, callOptions);
      },
    };
  };
}
