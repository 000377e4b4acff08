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
import { MAX_LIMITS } from './limits.js';
import { randomUuid } from './uuid.js';
import { toolArguments, toolResultText } from './tools.js';
import { checkedResultLimits } from './result-limits.js';
import { startTrail } from './policy/audit.js';
import { Gate } from './policy/gate.js';
import { POLICY_OPTION_NAMES, checkedExecuteOptions, checkedPolicy } from './policy/options.js';
import { restrictDomain, stateForDomain } from './policy/tables.js';
import { OUTCOME_UNKNOWN_HINT, STEP_TOOLS, TOOL_NAMES } from '../dist/core-rules.mjs';

const DEFAULT_TIMEOUT_MS = 30_000;
// Creates whose outcome is unknown that an act remembers (their row ids are
// reused when the same create is tried again).

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
  // The caps on what reaches the model (result-limits.js).
  'resultLimits',
  ...POLICY_OPTION_NAMES,
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
    const most = MAX_LIMITS[key];
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

// PostgREST before 13 refuses `Prefer: handling=strict, max-affected=N` with
// 400 PGRST122, before running anything: the act then counts instead.
const maxAffectedUnsupported = (result) => result?.error?.code === 'bad_request' && result.error.dbCode === 'PGRST122';
const CHANGES_ROWS = new Set(['db_update', 'db_delete']);
// The servers (by URL) this process has seen refuse the preference: a new
// act on one of them (a worker makes one per request) counts from its first
// write instead of being refused once more. Bounded: the oldest goes first.
const countingServers = new Set();
const MAX_COUNTING_SERVERS = 64;
const serverKey = (location) => location.url ?? location.restUrl ?? '';
/** @internal Forgets the servers seen to refuse max-affected (tests that watch the first write). */
export function forgetCountingServers() {
  countingServers.clear();
}
function rememberCounting(key) {
  countingServers.delete(key);
  countingServers.add(key);
  if (countingServers.size > MAX_COUNTING_SERVERS) countingServers.delete(countingServers.values().next().value);
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
  // Creates whose outcome is unknown (the call's JSON → the row ids it sent,
  // and each gen_ ref it saved → its row's id) are kept in the registry, so
  // they travel with its state: a retry, in this act or in a later call,
  // sends the same ids and the database refuses it as a duplicate.
  // The request context of the last access token (#contextOf), held apart
  // from the act so that it is freed when the act is collected.
  #held = { context: null };
  // The safety controls (readOnly, approve, maxAffected, onAudit, tracer)
  // and the gate that applies them to each call.
  #policy;
  #gate;
  // How maxAffected is enforced: 'header' until the server shows it does
  // not take the preference (PGRST122), then 'count' for the act's life
  // (and for later acts on the same server in this process).
  #maxAffectedBy = 'header';
  #server;

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
    const resultLimits = checkedResultLimits(options.resultLimits);
    const policy = checkedPolicy(options);
    this.#core = core;
    contextFinalizer?.register(this, this.#held);
    // Bound once: the given domain, else the registry's, else the core's,
    // with only the allowed tables when `tables` is given; a registry of
    // another domain is refused.
    const base = options.domain ?? registry?.domain ?? core.domain;
    const domain = policy.tables ? restrictDomain(base, policy.tables) : base;
    if (registry && registry.domain !== domain && JSON.stringify(registry.domain) !== JSON.stringify(domain)) {
      throw new AlfredError({
        code: 'invalid_option',
        path: 'registry',
        message: `the registry is bound to the ${registry.domain?.name ?? 'unnamed'} domain${policy.tables ? ' with all its tables' : ''}, not ${domain?.name ?? 'unnamed'}${policy.tables ? ` restricted to ${policy.tables.join(', ')}` : ''}`,
        hint: 'pass the registry of this domain (createRegistry(state, { domain })), or state instead of registry',
      });
    }
    const requestOptions = { ...resolved.location, apiKey: resolved.apiKey, accessToken: resolved.fixedToken ?? '', userId: resolved.userId };
    this.#server = serverKey(resolved.location);
    if (countingServers.has(this.#server)) this.#maxAffectedBy = 'count';
    // The URL, key, user and domain are checked now, not at the first call,
    // and before a registry that would need deleting is made.
    const context = core.checkedRequestContext(requestOptions);
    try {
      core.domainHandle(domain);
    } catch (cause) {
      context.handle.delete();
      // A restricted domain the core refuses is the allow-list's fault.
      if (policy.tables && cause instanceof AlfredError && cause.code === 'invalid_domain') {
        throw invalidOption('tables', `the tables ${policy.tables.join(', ')} do not make a domain on their own: ${cause.message}`, cause.hint);
      }
      throw cause;
    }
    // Kept for the calls: a fixed token's context is the one they use.
    this.#held.context = { accessToken: requestOptions.accessToken, ...context };
    // A restricted act restores the refs of its own tables only.
    this.#registry = registry ?? core.createRegistry(policy.tables && present(state) ? stateForDomain(state, domain) : state, { domain });
    this.#policy = { ...policy, tracer: policy.tracer ?? core.defaultTracer ?? null };
    this.#gate = new Gate(this.#policy, domain);
    this.#options = {
      requestOptions,
      token: resolved.token,
      domain,
      fetch: fetchImpl,
      embedder,
      timeoutMs,
      limits,
      resultLimits,
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
   * The caps on one tool result for the model (`{ rows, chars }`,
   * `createAct({ resultLimits })`); `execute` is not capped.
   *
   * @example
   * act.resultLimits // { rows: 50, chars: 16000 }
   */
  get resultLimits() {
    return this.#options.resultLimits;
  }

  /**
   * The act's safety controls (docs/safety-controls.md): `{ readOnly,
   * tables, approve, maxAffected }`, `approve` being `'none'`, `'deletes'`,
   * `'writes'` or the function given. Adapters read it to map approval to
   * their framework's own.
   *
   * @example
   * act.policy // { readOnly: false, tables: null, approve: 'deletes', maxAffected: 50 }
   */
  get policy() {
    const { readOnly, tables, approve, maxAffected } = this.#policy;
    return Object.freeze({ readOnly, tables: tables ? Object.freeze([...tables]) : null, approve, maxAffected });
  }

  /**
   * The tool definitions for this act's domain (`core.toolDefinitions`):
   * `[{ name, description, parameters }]`; `{ strict: true }` for OpenAI
   * strict mode, `{ schema: 'inline' }` for the whole schema in the tools
   * instead of one line per table. A read-only act lists `db_read` only; an
   * act restricted with `tables` names no other table.
   *
   * @example
   * const tools = act.tools({ strict: true }).map((t) => ({ type: 'function', function: { ...t, strict: true } }))
   */
  tools({ strict = false, schema } = {}) {
    return this.#core.toolDefinitions({ domain: this.#options.domain, strict, schema, readOnly: this.#policy.readOnly });
  }

  /**
   * Runs one native tool call and resolves to the result for the model
   * (`core.toolResult`): `{ ok: true, tool, table, count, query, rows }`
   * (with `truncated`, `shown` and `hint` when the result was cut to the
   * act's `resultLimits`, and `notice` before non-empty rows) or
   * `{ ok: false, tool, table, error: { code, path, message, hint } }`.
   * A read without a limit is sent with the cap as its limit and an exact
   * count. `args` is the arguments object, or the JSON text a provider
   * sends; strict-mode nulls and `data` as JSON text are accepted.
   * `approved` and `preview` are the host's, as for `execute`. Never throws
   * but when `signal` aborts.
   *
   * @example
   * const result = await act.callTool('db_read', '{"table":"inventory","filters":null}')
   * // { ok: true, tool: 'db_read', table: 'inventory', count: 3, rows: [{ id: 'inv_1', … }], query: 'Query: …' }
   */
  async callTool(name, args, options) {
    return JSON.parse(await this.callToolText(name, args, options));
  }

  /**
   * `callTool`'s result as the JSON text the model reads, as the core wrote
   * it: the rows go from PostgREST's bytes to this text without being
   * parsed into JS objects and serialized again. What the OpenAI adapter
   * sends as the tool message and the MCP server as text content. Never
   * throws but when `signal` aborts.
   *
   * @example
   * messages.push({ role: 'tool', tool_call_id: call.id, content: await act.callToolText(call.function.name, call.function.arguments) })
   */
  async callToolText(name, args, { signal, approved, preview } = {}) {
    const resultLimits = this.#options.resultLimits;
    const { params, error } = toolArguments(args);
    if (error) return toolResultText(this.#core, name, { data: null, error, query: null, count: null }, { resultLimits });
    const options = { signal, ...(approved === undefined ? {} : { approved }), ...(preview === undefined ? {} : { preview }) };
    const outcome = await this.#execute(name, params, options, resultLimits);
    // The call's own run wrote the text; an outcome made in JS (a policy's
    // refusal, a held write's preview, a lost answer) is written now.
    if (typeof outcome.modelText === 'string') return outcome.modelText;
    return toolResultText(this.#core, name, outcome, { registry: this.#registry, resultLimits });
  }

  /**
   * Executes one tool call: `{ data, error, query, count }`. Never throws for
   * bad params, database or network failures (they are `error`); rejects
   * only when `signal` aborts. A write whose answer was lost is
   * `write_outcome_unknown`, never "no effect".
   *
   * The act's safety controls apply first (docs/safety-controls.md): a
   * write on a read-only act is `read_only`; a write that needs approval
   * sends no write and is `approval_required` with `error.preview`, until
   * the host runs it again with `{ approved: true }` (its option, never a
   * tool argument): the rows are read again, and a write that would now
   * change rows the preview did not show is `preview_changed`. `preview` is
   * the `error.preview` the host showed, for a host whose act did not keep
   * it (a new act per request).
   *
   * @example
   * const { data, error, query } = await act.execute('db_read', { table: 'inventory', filters: [{ field: 'location', op: '=', value: 'fridge' }] })
   * const held = await act.execute('db_delete', params)           // error.code 'approval_required', error.preview
   * if (await askUser(held.error.preview)) await act.execute('db_delete', params, { approved: true })
   */
  execute(tool, params, options) {
    return this.#execute(tool, params, options, null);
  }

  // `execute`, or for the model (`forModel`: the result limits) the call's
  // own run capped and its result written for the model as `modelText`
  // (`data` is then null for a read).
  async #execute(tool, params, options, forModel) {
    let checked;
    try {
      checked = checkedExecuteOptions(options);
    } catch (cause) {
      return { data: null, error: cause.toJSON(), query: null, count: null };
    }
    const { signal, approved, preview } = checked;
    signal?.throwIfAborted();
    let accessToken = this.#options.requestOptions.accessToken;
    const { token } = this.#options;
    if (token) {
      // Read before every call, so a refreshed token is the one sent.
      const current = await callToken(token);
      if (current.error) return { data: null, error: current.error, query: null, count: null };
      accessToken = current.token;
    }
    const { onAudit, tracer } = this.#policy;
    const trail = startTrail({ onAudit, tracer, core: this.#core, registry: this.#registry, userId: this.#options.requestOptions.userId, token: accessToken }, tool, params);
    let result;
    try {
      const io = {
        // The gate's own reads (a preview) are not the model's.
        run: (runTool, runParams) => this.#run(runTool, runParams, signal, accessToken, trail, runTool === tool ? forModel : null),
        validate: (runTool, runParams) => this.#validate(runTool, runParams, accessToken),
        trail,
      };
      result = await this.#gate.execute({ tool, params, approved, preview }, io);
    } catch (cause) {
      if (signal?.aborted) {
        trail.finish({ data: null, error: { code: 'aborted' } });
        throw signal.reason ?? cause;
      }
      result = { data: null, error: cause instanceof AlfredError ? cause.toJSON() : internalError(cause), query: null, count: null };
    }
    trail.finish(result);
    return result;
  }

  // The error that would refuse the call before any request, or null: the
  // core builds its request without sending it.
  #validate(tool, params, accessToken) {
    const { requestOptions, domain } = this.#options;
    const built = this.#core.buildRequest(tool, params, { ...requestOptions, accessToken, registry: this.#registry, domain });
    return built.error && built.error.code !== 'requires_executor' ? built.error : null;
  }

  // One call in the core, under maxAffected. A server that does not take
  // the max-affected preference refuses it before running anything
  // (PGRST122): the act counts instead from then on, and runs the call again.
  async #run(tool, params, signal, accessToken, trail, forModel) {
    const result = await this.#attempt(tool, params, signal, accessToken, trail, forModel);
    if (this.#maxAffectedBy === 'header' && CHANGES_ROWS.has(tool) && this.#policy.maxAffected > 0 && maxAffectedUnsupported(result)) {
      this.#maxAffectedBy = 'count';
      rememberCounting(this.#server);
      return this.#attempt(tool, params, signal, accessToken, trail, forModel);
    }
    return result;
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

  async #attempt(tool, params, signal, accessToken, trail, forModel) {
    const { domain, fetch: fetchImpl, embedder, timeoutMs, limits } = this.#options;
    const { maxAffected } = this.#policy;
    const call = this.#createIds(tool, params);
    const execution = this.#core.startExecution(tool, params, this.#contextOf(accessToken), {
      registry: this.#registry,
      domain,
      settings: { rowIds: call.rowIds, limits, maxAffected, maxAffectedBy: this.#maxAffectedBy, ...(forModel ? { forModel } : {}) },
    });
    const attempt = trail.attempt();
    const exchange = (need, options) => {
      const answered = attempt.sent(need);
      return httpExchange(fetchImpl, need, options).then((response) => {
        answered(response);
        return response;
      });
    };
    let result;
    // The answer to the write's own request once it may have reached the
    // database: from then on a failure of the core is an unknown outcome.
    let writeAnswer = null;
    const isWrite = WRITE_TOOLS.has(tool);
    try {
      const exchangeOptions = { signal, timeoutMs, maxResponseBytes: limits.maxResponseBytes };
      while (!execution.done()) {
        signal?.throwIfAborted();
        const needs = execution.needs();
        const responses = await Promise.all(
          needs.map((need) => (need.kind === 'embed' ? performEmbed(embedder, need) : exchange(need, exchangeOptions))),
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
    attempt.end(result);
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
    const registry = this.#registry;
    const earlier = registry.uncertainIds(key);
    const saves = savedRefs(params);
    const rowIds = Array.from({ length: count }, (_, i) => (saves[i] && registry.uncertainIds(saves[i])?.[0]) ?? earlier?.[i] ?? randomUuid());
    return { rowIds, key, saves };
  }

  #settle({ rowIds, key, saves }, result) {
    if (!rowIds) return;
    const registry = this.#registry;
    const unknown = result?.error?.code === 'write_outcome_unknown';
    registry.setUncertain(key, unknown ? rowIds : null);
    saves.forEach((ref, i) => {
      if (!ref) return;
      if (unknown) registry.setUncertain(ref, [rowIds[i]]);
      else if (result?.error?.code !== 'save_in_progress') registry.setUncertain(ref, null);
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
    const callToolText = async (name, args, callOptions) => {
      try {
        await ready;
      } catch (cause) {
        const error = cause instanceof AlfredError ? cause.toJSON() : internalError(cause);
        return JSON.stringify({ ok: false, tool: String(name), table: null, error: { code: error.code, path: error.path ?? '', message: error.message, hint: error.hint ?? '' } });
      }
      return act.callToolText(name, args, callOptions);
    };
    return {
      ready,
      get registry() {
        return act ? act.registry : pendingRegistry;
      },
      get domain() {
        if (act) return act.domain;
        const base = options.domain ?? options.registry?.domain ?? defaultDomain;
        try {
          return Array.isArray(options.tables) ? restrictDomain(base, options.tables) : base;
        } catch {
          return base; // the act refuses the tables when the core is loaded
        }
      },
      get limits() {
        return act ? act.limits : null;
      },
      get resultLimits() {
        return act ? act.resultLimits : null;
      },
      get policy() {
        return act ? act.policy : null;
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
        return JSON.parse(await callToolText(name, args, callOptions));
      },
      callToolText,
    };
  };
}
