// The executor on the JS side: runs a tool call's needs (HTTP requests to
// PostgREST, embeddings) round by round for the C++ executor, which decides
// everything else (wasm/executor_bindings.cpp, core/src/executor.cpp).
import { kitchen } from '../dist/kitchen.mjs';
import { lexicalEmbedder } from './embedder.js';
import { AlfredError, internalError } from './errors.js';

const DEFAULT_TIMEOUT_MS = 30_000;

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
    throw new AlfredError({ code: 'invalid_option', path: 'url', message: `url is not a URL: ${url}` });
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
  'domain', 'fetch', 'state', 'registry', 'embedder', 'timeoutMs',
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

function signalFor(signal, timeoutMs) {
  const timeout = AbortSignal.timeout(timeoutMs);
  if (!signal) return timeout;
  return typeof AbortSignal.any === 'function' ? AbortSignal.any([signal, timeout]) : signal;
}

const encoder = new TextEncoder();

// One HTTP need → the response the core reads. Failures without a response
// become status 0 with the reason as the body, never a throw.
async function performHttp(fetchImpl, need, signal, timeoutMs) {
  try {
    const response = await fetchImpl(need.url, {
      method: need.method,
      headers: need.headers,
      body: need.body ?? undefined,
      signal: signalFor(signal, timeoutMs),
    });
    return {
      status: response.status,
      contentRange: response.headers.get('content-range') ?? '',
      contentType: response.headers.get('content-type') ?? '',
      body: new Uint8Array(await response.arrayBuffer()),
    };
  } catch (cause) {
    if (signal?.aborted) throw cause;
    const reason = cause?.name === 'TimeoutError' ? `no response within ${timeoutMs} ms` : String(cause?.message ?? cause);
    return { status: 0, contentRange: '', contentType: '', body: encoder.encode(reason) };
  }
}

async function performEmbed(embedder, need) {
  try {
    const [vector] = await embedder.embed([need.text]);
    return { status: 200, contentRange: '', contentType: 'application/json', body: encoder.encode(JSON.stringify(vector)) };
  } catch (cause) {
    return { status: 0, contentRange: '', contentType: '', body: encoder.encode(String(cause?.message ?? cause)) };
  }
}

/**
 * Runs the Act step's tool calls against PostgREST for one user. Create it
 * with `core.createAct(options)` or the package's `createAct(options)`.
 */
export class Act {
  #core;
  #options;
  #registry;

  constructor(core, options = {}) {
    const resolved = resolveOptions(options);
    const { domain = kitchen, state, registry, embedder = lexicalEmbedder } = options;
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
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0) {
      throw invalidOption('timeoutMs', `timeoutMs must be a number of milliseconds above 0, got ${String(timeoutMs)}`);
    }
    this.#core = core;
    const requestOptions = { ...resolved.location, apiKey: resolved.apiKey, accessToken: resolved.fixedToken ?? '', userId: resolved.userId };
    // The URL, key, user and domain are checked now, not at the first call,
    // and before a registry that would need deleting is made.
    core.checkRequestOptions(requestOptions);
    core.domainHandle(domain);
    this.#registry = registry ?? core.createRegistry(state);
    this.#options = {
      requestOptions,
      token: resolved.token,
      domain,
      fetch: fetchImpl,
      embedder,
      timeoutMs,
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

  /**
   * Executes one tool call: `{ data, error, query, count }`. Never throws for
   * bad params or database failures (they are `error`); rejects only when
   * `signal` aborts.
   *
   * @example
   * const { data, error, query } = await act.execute('db_read', { table: 'inventory', filters: [{ field: 'location', op: '=', value: 'fridge' }] })
   */
  async execute(tool, params, { signal } = {}) {
    const { domain, fetch: fetchImpl, embedder, timeoutMs, token } = this.#options;
    let { requestOptions } = this.#options;
    if (token) {
      // Read before every call, so a refreshed token is the one sent.
      const current = await callToken(token);
      if (current.error) return { data: null, error: current.error, query: null, count: null };
      requestOptions = { ...requestOptions, accessToken: current.token };
    }
    let execution;
    try {
      execution = this.#core.startExecution(tool, params, requestOptions, { registry: this.#registry, domain });
    } catch (cause) {
      return { data: null, error: cause instanceof AlfredError ? cause.toJSON() : internalError(cause), query: null, count: null };
    }
    try {
      while (!execution.done()) {
        signal?.throwIfAborted();
        const needs = execution.needs();
        const responses = await Promise.all(
          needs.map((need) => (need.kind === 'embed' ? performEmbed(embedder, need) : performHttp(fetchImpl, need, signal, timeoutMs))),
        );
        signal?.throwIfAborted();
        responses.forEach((response, index) => execution.respond(index, response));
      }
      return execution.result();
    } finally {
      execution.delete();
    }
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
        return options.domain ?? kitchen;
      },
      async execute(tool, params, executeOptions) {
        try {
          await ready;
        } catch (cause) {
          return { data: null, error: cause instanceof AlfredError ? cause.toJSON() : internalError(cause), query: null, count: null };
        }
        return act.execute(tool, params, executeOptions);
      },
    };
  };
}
