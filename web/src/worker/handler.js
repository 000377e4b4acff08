// The alfred-act edge worker's handler, `alfred-act/worker`: the Act loop
// server-side for Cloudflare Workers and Deno (and any runtime with fetch's
// Request/Response), serving the domain it is given. Routes:
//   GET  /health        liveness, whether a model is configured, the domain's name
//   POST /act/execute   one tool call → JSON
//   POST /act/turn      a whole turn → server-sent events
//   POST|DELETE /mcp    the Model Context Protocol (Streamable HTTP, mcp.js)
//   GET  /.well-known/oauth-protected-resource[/mcp]   RFC 9728 metadata (oauth.js)
// Every /act and /mcp request runs as the caller: their Supabase JWT is
// verified (auth.js) before anything is spent, then forwarded with the
// project's anon key as apikey, never a service key. Each runs within
// per-user limits (limits.js). Each runtime entry (index.<runtime>.js) binds
// createHandler to its own loadCore.
import { AlfredError } from '../errors.js';
import { MemorySessionStore, SupabaseSessionStore } from '../mcp/store.js';
import { domainName } from '../mcp/tools.js';
import { callerFromRequest } from './auth.js';
import { configOf } from './config.js';
import { executeToolCall } from './execute.js';
import { corsHeaders, errorResponse, isOriginAllowed, jsonResponse, preflightResponse, readJsonObject } from './http.js';
import { MemoryLimitStore } from './limit-store.js';
import { admitRequest, admitTurn, budgetedModel, retryAfterSeconds } from './limits.js';
import { handleMcp, MCP_EXPOSED_HEADERS } from './mcp.js';
import { PROTECTED_RESOURCE_PATHS, bearerChallenge, protectedResourceMetadata } from './oauth.js';
import { POLICY_TABLE } from '../policy/options.js';
import { surfacePolicies } from './policy.js';
import { SSE_HEADERS } from './sse.js';
import { readTurnRequest, startTurn } from './turn.js';
import { codes } from '../../dist/error-codes.mjs';

const ROUTES = {
  '/health': 'GET',
  '/act/execute': 'POST',
  '/act/turn': 'POST',
  '/mcp': ['POST', 'DELETE'],
  ...Object.fromEntries(PROTECTED_RESOURCE_PATHS.map((path) => [path, 'GET'])),
};
// The policy every surface takes: createAct's safety options and `confirm` (the policy table's).
const POLICY_OPTIONS = POLICY_TABLE.map((row) => row.option);
const allowed = (methods) => [methods].flat();

const isPlainObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The worker's `{ fetch(request, env, ctx) }` for `domain`, with `loadCore`
 * the runtime entry's. `domain` (the JSON `alfred-act domain pull` writes) is
 * required: a worker never falls back to a demo domain. It is checked by the
 * core when the first request loads it; a domain the core refuses makes every
 * route but /health a 500 `core_unavailable` naming its path.
 * Options: `limitStore(env)`, `sessionStore(env, config)`, `embedder` (turns
 * the text of db_call's vector arguments and of semantic search into
 * vectors: an object with `embed(texts)`, or `(env) => embedder` for one
 * made from a binding), `wasm` or `wasmModule` for loadCore, and the policy
 * on writes (`readOnly`, `tables`,
 * `approve`, `maxAffected`, `confirm`; each wins over its variable,
 * ALFRED_READ_ONLY, ALFRED_TABLES, ALFRED_APPROVE, ALFRED_MAX_AFFECTED,
 * ALFRED_CONFIRM; and `onAudit`, `tracer`, as createAct's).
 *
 * @example
 * import { loadCore } from '../index.workerd.js'
 * export const createHandler = (options) => createHandlerWith(loadCore, options)
 */
export function createHandlerWith(loadCore, { domain, limitStore, sessionStore, embedder, wasm, wasmModule, ...policyOptions } = {}) {
  if (!isPlainObject(domain)) {
    throw new AlfredError({
      code: codes.invalid_option,
      path: 'domain',
      message: `createHandler needs the domain the worker serves, as an object; got ${domain === undefined ? 'none' : Array.isArray(domain) ? 'an array' : typeof domain}`,
      hint: "write it with `npx alfred-act domain pull --out domain.json`, then import domain from './domain.json' with { type: 'json' } and pass createHandler({ domain })",
    });
  }
  // One core per isolate, instantiated on first use (Workers forbid
  // compiling per request, and instantiating is the slow part); a failed
  // load is retried by the next request, except a domain the core refuses,
  // which the next load would refuse again.
  let sharedCore;
  const core = () =>
    (sharedCore ??= loadCore({ domain, ...(wasm ? { wasm } : {}), ...(wasmModule ? { wasmModule } : {}) }).catch((cause) => {
      if (cause?.name !== 'AlfredError' || cause.code !== codes.invalid_domain) sharedCore = undefined;
      throw cause;
    }));
  const unknown = Object.keys(policyOptions).filter((name) => !POLICY_OPTIONS.includes(name));
  if (unknown.length > 0) {
    throw new AlfredError({ code: codes.invalid_option, path: unknown[0], message: `createHandler takes no option ${unknown[0]}`, hint: `options: domain, limitStore, sessionStore, embedder, wasm, wasmModule, ${POLICY_OPTIONS.join(', ')}` });
  }
  const embedderFor = embedderOption(embedder);
  let memoryStore;
  let memorySessions;
  const storeFor = limitStore ?? (() => (memoryStore ??= new MemoryLimitStore()));
  const sessionsFor =
    sessionStore ??
    ((env, config) =>
      config.mcpStore === 'supabase' ? new SupabaseSessionStore({ ...(config.restUrl ? { restUrl: config.restUrl } : { url: config.supabaseUrl }), apiKey: config.anonKey }) : (memorySessions ??= new MemorySessionStore()));
  return {
    async fetch(request, env, ctx) {
      try {
        return await route(request, env, ctx, { core, domain, storeFor, sessionsFor, embedderFor, policyOptions });
      } catch (cause) {
        // Everything expected is a value; this is a bug, still answered in JSON.
        return errorResponse(500, { code: codes.internal_error, message: `the worker failed: ${cause?.message ?? cause}` });
      }
    },
  };
}

// The core for a request, or the 500 that says why it did not load (a
// domain the core refuses names its path into the domain).
async function loadedCore(core) {
  try {
    return { data: await core(), error: null };
  } catch (cause) {
    const { path, hint } = cause ?? {};
    return {
      data: null,
      error: {
        status: 500,
        code: codes.core_unavailable,
        message: `the alfred-act core did not load: ${cause?.message ?? cause}`,
        ...(cause?.name === 'AlfredError' && cause.code === codes.invalid_domain ? { path: `domain${path ? `.${path}` : ''}` } : {}),
        ...(hint ? { hint } : {}),
      },
    };
  }
}

// `embedder` of createHandler as `(env) => act options`: an embedder for
// every act (an object with embed(texts)), or one made from each request's
// env (a function, for a binding such as Workers AI); none by default.
function embedderOption(embedder) {
  if (embedder === undefined) return () => ({});
  if (typeof embedder === 'function') {
    return (env) => {
      const made = embedder(env);
      if (made === null || typeof made !== 'object' || typeof made.embed !== 'function') throw new TypeError('createHandler: embedder(env) must return an object with embed(texts)');
      return { embedder: made };
    };
  }
  if (embedder !== null && typeof embedder === 'object' && typeof embedder.embed === 'function') return () => ({ embedder });
  throw new AlfredError({
    code: codes.invalid_option,
    path: 'embedder',
    message: 'embedder must have embed(texts), or be a function of env that returns one',
    hint: 'embedder: openAIEmbedder({ apiKey }), or (env) => ({ embed: (texts) => … }) for a binding of env',
  });
}

async function route(request, env, ctx, { core, domain, storeFor, sessionsFor, embedderFor, policyOptions }) {
  const { data: config, error: configError } = configOf(env);
  if (configError) return errorResponse(500, configError);
  const defined = Object.fromEntries(Object.entries(policyOptions).filter(([, value]) => value !== undefined));
  const { data: surfaces, error: policyError } = surfacePolicies({ ...config.policy, ...defined });
  if (policyError) return errorResponse(500, { code: codes.worker_misconfigured, message: policyError.message, hint: policyError.hint });
  // Every act of the request gets the embedder too: db_call's vector
  // arguments and semantic search are embedded by it.
  const actOptions = embedderFor(env);
  const policies = { act: { ...surfaces.act, ...actOptions }, mcp: { ...surfaces.mcp, ...actOptions } };
  const cors = corsHeaders(request, config.allowedOrigins);
  const fail = (error) => errorResponse(error.status, error, cors);

  const { pathname } = new URL(request.url);
  const method = ROUTES[pathname];
  if (!method) return fail({ status: 404, code: codes.not_found, message: `no route ${pathname}`, hint: `routes: ${Object.keys(ROUTES).join(', ')}` });
  if (request.method === 'OPTIONS') {
    if (!isOriginAllowed(request, config.allowedOrigins)) return fail({ status: 403, code: codes.origin_not_allowed, message: `origin ${request.headers.get('origin')} is not allowed` });
    return preflightResponse(cors);
  }
  if (!allowed(method).includes(request.method)) {
    const methods = allowed(method).join(', ');
    return errorResponse(405, { code: codes.method_not_allowed, message: `${pathname} takes ${methods}` }, { ...cors, allow: `${methods}, OPTIONS` });
  }
  if (pathname === '/health') return jsonResponse(200, { ok: true, model: config.model !== null, domain: domainName(domain) }, cors);
  if (PROTECTED_RESOURCE_PATHS.includes(pathname)) return jsonResponse(200, protectedResourceMetadata(request, config, domain), { ...cors, 'cache-control': 'public, max-age=3600' });

  const { data: caller, error: authError } = await callerFromRequest(request, config.auth);
  if (authError) {
    // An MCP client reads a 401 with WWW-Authenticate as "sign in again",
    // and finds where in resource_metadata (RFC 9728).
    const challenge = pathname === '/mcp' && authError.status === 401 ? { 'www-authenticate': bearerChallenge(request, authError) } : {};
    return errorResponse(authError.status, authError, { ...cors, ...(pathname === '/mcp' ? MCP_EXPOSED_HEADERS : {}), ...challenge });
  }
  if (pathname === '/mcp' || pathname === '/act/execute') {
    // Per-user limits: requests a minute and at once (a 429 with Retry-After).
    const { data: admitted, error: limitError } = await admitRequest({ store: storeFor(env), limits: config.limits, userId: caller.userId });
    if (limitError) return errorResponse(429, limitError, { ...cors, 'retry-after': String(retryAfterSeconds(limitError.retryAfterMs)) });
    try {
      return await (pathname === '/mcp' ? serveMcp({ request, env, config, caller, core, sessionsFor, cors, policy: policies.mcp }) : serveExecute({ request, config, caller, core, cors, policy: policies.act }));
    } finally {
      await admitted.release();
    }
  }
  return serveTurn({ request, env, ctx, config, caller, core, storeFor, cors, policy: policies.act });
}

// `/act/turn`: one turn of the loop, streamed as server-sent events; the
// turn keeps its per-user slot until it has released its registry.
async function serveTurn({ request, env, ctx, config, caller, core, storeFor, cors, policy }) {
  const fail = (error) => errorResponse(error.status, error, cors);
  if (config.model === null) {
    return fail({
      status: 503,
      code: codes.model_not_configured,
      message: 'no model is configured, so /act/turn cannot run; /act/execute works without one',
      hint: 'set OPENAI_API_KEY, or OPENAI_BASE_URL for an OpenAI-compatible server (and ALFRED_LLM_MODEL)',
    });
  }
  const { data: body, error: bodyError } = await readJsonObject(request, config.maxBodyBytes);
  if (bodyError) return fail(bodyError);

  const { data: loaded, error: coreError } = await loadedCore(core);
  if (coreError) return fail(coreError);

  const { data: turnRequest, error: turnError } = readTurnRequest(body);
  if (turnError) return fail(turnError);
  const store = storeFor(env);
  const { data: admitted, error: limitError } = await admitTurn({ store, limits: config.limits, userId: caller.userId });
  if (limitError) return errorResponse(429, limitError, { ...cors, 'retry-after': String(retryAfterSeconds(limitError.retryAfterMs)) });
  const budget = (model, signal) => budgetedModel(model, { store, limits: config.limits, userId: caller.userId, signal });
  const { data: turn, error } = startTurn({ request: turnRequest, core: loaded, config, caller, budget, signal: request.signal, policy });
  if (error) {
    await admitted.release();
    return fail(error);
  }
  const done = turn.done.finally(() => admitted.release());
  // Keeps the isolate alive until the turn has released its registry and
  // its running-turn slot, even if the client hangs up mid-stream.
  ctx?.waitUntil?.(done);
  return new Response(turn.stream, { status: 200, headers: { ...SSE_HEADERS, ...cors } });
}

async function serveMcp({ request, env, config, caller, core, sessionsFor, cors, policy }) {
  const { data: mcpCore, error: coreError } = await loadedCore(core);
  if (coreError) return errorResponse(coreError.status, coreError, cors);
  const store = sessionsFor(env, config);
  return handleMcp({ request, core: mcpCore, config, caller, store, headers: { ...cors, ...MCP_EXPOSED_HEADERS }, policy });
}

async function serveExecute({ request, config, caller, core, cors, policy }) {
  const fail = (error) => errorResponse(error.status, error, cors);
  const { data: body, error: bodyError } = await readJsonObject(request, config.maxBodyBytes);
  if (bodyError) return fail(bodyError);
  const { data: loaded, error: coreError } = await loadedCore(core);
  if (coreError) return fail(coreError);
  const { data, error } = await executeToolCall({ body, core: loaded, config, caller, signal: request.signal, policy });
  return error ? fail(error) : jsonResponse(200, data, cors);
}
