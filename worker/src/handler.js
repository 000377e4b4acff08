// The alfred-act edge worker: the Act loop server-side, for Cloudflare
// Workers (wrangler.jsonc) and Deno (deno.js), with the same module-worker
// handler. Routes:
//   GET  /health        liveness, and whether a model is configured
//   POST /act/execute   one tool call → JSON
//   POST /act/turn      a whole turn → server-sent events
// Every /act request runs as the caller: their Supabase JWT is forwarded,
// with the project's anon key as apikey, never a service key.
import { loadCore } from 'alfred-act';
import { callerFromRequest } from './auth.js';
import { readConfig } from './config.js';
import { executeToolCall } from './execute.js';
import { corsHeaders, errorResponse, isOriginAllowed, jsonResponse, preflightResponse, readJsonObject } from './http.js';
import { SSE_HEADERS } from './sse.js';
import { startTurn } from './turn.js';

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

export default {
  async fetch(request, env, ctx) {
    try {
      return await route(request, env, ctx);
    } catch (cause) {
      // Everything expected is a value; this is a bug, still answered in JSON.
      return errorResponse(500, { code: 'internal_error', message: `the worker failed: ${cause?.message ?? cause}` });
    }
  },
};

async function route(request, env, ctx) {
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

  const { data: caller, error: authError } = callerFromRequest(request);
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
    const { data, error } = await executeToolCall({ body, core: loaded, config, caller });
    return error ? fail(error) : jsonResponse(200, data, cors);
  }
  const { data: turn, error } = startTurn({ body, core: loaded, config, caller });
  if (error) return fail(error);
  // Keeps the isolate alive until the turn has released its registry,
  // even if the client hangs up mid-stream.
  ctx?.waitUntil?.(turn.done);
  return new Response(turn.stream, { status: 200, headers: { ...SSE_HEADERS, ...cors } });
}
