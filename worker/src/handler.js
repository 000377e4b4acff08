// The alfred-act edge worker: the Act loop server-side, for Cloudflare
// Workers (wrangler.jsonc) and Deno (deno.js), with the same module-worker
// handler. Routes:
//   GET  /health        liveness, and whether a model is configured
//   POST /act/execute   one tool call → JSON
//   POST /act/turn      a whole turn → server-sent events
// Every /act request runs as the caller: their Supabase JWT is verified
// (auth.js) before anything is spent, then forwarded with the project's anon
// key as apikey, never a service key. /act/turn runs within per-user limits
// (limits.js).
import { loadCore } from 'alfred-act';
import { callerFromRequest } from './auth.js';
import { readConfig } from './config.js';
import { executeToolCall } from './execute.js';
import { corsHeaders, errorResponse, isOriginAllowed, jsonResponse, preflightResponse, readJsonObject } from './http.js';
import { MemoryLimitStore } from './limit-store.js';
import { admitTurn, budgetedModel, retryAfterSeconds } from './limits.js';
import { SSE_HEADERS } from './sse.js';
import { readTurnRequest, startTurn } from './turn.js';

const ROUTES = {
  '/health': 'GET',
  '/act/execute': 'POST',
  '/act/turn': 'POST',
};

// One core per isolate, instantiated on first use (Workers forbid compiling
// per request, and instantiating is the slow part); a failed load is retried
// by the next request.
let sharedCore;
function core() {
  sharedCore ??= loadCore().catch((cause) => {
    sharedCore = undefined;
    throw cause;
  });
  return sharedCore;
}

/**
 * The worker's `{ fetch(request, env, ctx) }`. `limitStore(env)` gives the
 * store the per-user limits count in (limit-store.js describes the three
 * methods it needs); by default one MemoryLimitStore per isolate. A shared
 * store, e.g. a Durable Object, is plugged in here (docs/worker-auth.md).
 *
 * @example
 * export default createHandler({ limitStore: (env) => new DurableObjectLimitStore(env.LIMITS) })
 */
export function createHandler({ limitStore } = {}) {
  let memoryStore;
  const storeFor = limitStore ?? (() => (memoryStore ??= new MemoryLimitStore()));
  return {
    async fetch(request, env, ctx) {
      try {
        return await route(request, env, ctx, storeFor);
      } catch (cause) {
        // Everything expected is a value; this is a bug, still answered in JSON.
        return errorResponse(500, { code: 'internal_error', message: `the worker failed: ${cause?.message ?? cause}` });
      }
    },
  };
}

export default createHandler();

async function route(request, env, ctx, storeFor) {
  const { data: config, error: configError } = readConfig(env);
  if (configError) return errorResponse(500, configError);
  const cors = corsHeaders(request, config.allowedOrigins);
  const fail = (error) => errorResponse(error.status, error, cors);

  const { pathname } = new URL(request.url);
  const method = ROUTES[pathname];
  if (!method) return fail({ status: 404, code: 'not_found', message: `no route ${pathname}`, hint: `routes: ${Object.keys(ROUTES).join(', ')}` });
  if (request.method === 'OPTIONS') {
    if (!isOriginAllowed(request, config.allowedOrigins)) return fail({ status: 403, code: 'origin_not_allowed', message: `origin ${request.headers.get('origin')} is not allowed` });
    return preflightResponse(cors);
  }
  if (request.method !== method) {
    return errorResponse(405, { code: 'method_not_allowed', message: `${pathname} takes ${method}` }, { ...cors, allow: `${method}, OPTIONS` });
  }
  if (pathname === '/health') return jsonResponse(200, { ok: true, model: config.model !== null }, cors);

  const { data: caller, error: authError } = await callerFromRequest(request, config.auth);
  if (authError) return fail(authError);
  if (pathname === '/act/turn' && config.model === null) {
    return fail({
      status: 503,
      code: 'model_not_configured',
      message: 'no model is configured, so /act/turn cannot run; /act/execute works without one',
      hint: 'set OPENAI_API_KEY, or OPENAI_BASE_URL for an OpenAI-compatible server (and ALFRED_LLM_MODEL)',
    });
  }
  const { data: body, error: bodyError } = await readJsonObject(request, config.maxBodyBytes);
  if (bodyError) return fail(bodyError);

  let loaded;
  try {
    loaded = await core();
  } catch (cause) {
    return fail({ status: 500, code: 'core_unavailable', message: `the alfred-act core did not load: ${cause?.message ?? cause}` });
  }
  if (pathname === '/act/execute') {
    const { data, error } = await executeToolCall({ body, core: loaded, config, caller, signal: request.signal });
    return error ? fail(error) : jsonResponse(200, data, cors);
  }

  const { data: turnRequest, error: turnError } = readTurnRequest(body);
  if (turnError) return fail(turnError);
  const store = storeFor(env);
  const { data: admitted, error: limitError } = await admitTurn({ store, limits: config.limits, userId: caller.userId });
  if (limitError) return errorResponse(429, limitError, { ...cors, 'retry-after': String(retryAfterSeconds(limitError.retryAfterMs)) });
  const budget = (model, signal) => budgetedModel(model, { store, limits: config.limits, userId: caller.userId, signal });
  const { data: turn, error } = startTurn({ request: turnRequest, core: loaded, config, caller, budget, signal: request.signal });
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
