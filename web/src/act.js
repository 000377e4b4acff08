// The executor on the JS side: runs a tool call's needs (HTTP requests to
// PostgREST, embeddings) round by round for the C++ executor, which decides
// everything else (wasm/executor_bindings.cpp, core/src/executor.cpp).
import { kitchen } from '../dist/kitchen.mjs';
import { lexicalEmbedder } from './embedder.js';
import { AlfredError, internalError } from './errors.js';
import { callTool } from './tools.js';

const DEFAULT_TIMEOUT_MS = 30_000;

// A Supabase project URL (https://<ref>.supabase.co) serves PostgREST under
// /rest/v1; any other URL is taken as the PostgREST root itself.
export function restUrl(url) {
  if (typeof url !== 'string' || url === '') {
    throw new AlfredError({ code: 'invalid_option', path: 'url', message: 'url is required', hint: 'the Supabase project URL or a PostgREST root' });
  }
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    throw new AlfredError({ code: 'invalid_option', path: 'url', message: `url is not a URL: ${url}` });
  }
  const bare = parsed.pathname === '/' || parsed.pathname === '';
  if (bare && /\.supabase\.(co|in)$/.test(parsed.hostname)) return `${parsed.origin}/rest/v1`;
  return url.replace(/\/+$/, '');
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
    const { url, apiKey = '', accessToken = '', userId = '', domain = kitchen, state, registry, embedder = lexicalEmbedder } = options;
    const fetchImpl = options.fetch ?? globalThis.fetch;
    if (typeof fetchImpl !== 'function') {
      throw new AlfredError({ code: 'invalid_option', path: 'fetch', message: 'fetch must be a function' });
    }
    if (!embedder || typeof embedder.embed !== 'function') {
      throw new AlfredError({ code: 'invalid_option', path: 'embedder', message: 'embedder must have embed(texts)' });
    }
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#core = core;
    this.#registry = registry ?? core.createRegistry(state);
    this.#options = {
      requestOptions: { baseUrl: restUrl(url), apiKey, accessToken, userId },
      domain,
      fetch: fetchImpl,
      embedder,
      timeoutMs,
    };
    core.domainHandle(domain);
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
   * bad params or database failures (they are `error`); rejects only when
   * `signal` aborts.
   *
   * @example
   * const { data, error, query } = await act.execute('db_read', { table: 'inventory', filters: [{ field: 'location', op: '=', value: 'fridge' }] })
   */
  async execute(tool, params, { signal } = {}) {
    const { requestOptions, domain, fetch: fetchImpl, embedder, timeoutMs } = this.#options;
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
    if (options.core) return options.core.createAct(options);
    let act = null;
    const ready = loadCore(options).then((core) => {
      act = core.createAct(options);
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
