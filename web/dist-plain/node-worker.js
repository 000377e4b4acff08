import {
  APPROVE_DEFAULTS,
  AlfredError,
  CONFIRM_KEY,
  LlmError,
  MCP_SERVER_VERSION,
  MemorySessionStore,
  POLICY_TABLE,
  SCHEMA_URI,
  STEP_TOOLS,
  SupabaseSessionStore,
  TOOL_NAMES,
  actPolicy,
  answerOf,
  callSessionTool,
  callUserTool,
  closeSession,
  codes,
  confirmationRequest,
  coreDomain,
  createChatModel,
  createTokenVerifier,
  deepFreeze,
  domainName,
  findSession,
  isServiceKey,
  loadCore,
  mcpInstructions,
  mcpResourceList,
  mcpServerInfo,
  mcpToolList,
  modelConfigFromEnv,
  modelJson,
  newSessionId,
  openSession,
  policyVariables,
  readPolicySettings,
  readStreamAtMost,
  readTurnState,
  runTurnEvents,
  schemaDescription,
  shownDomain
} from "./node-shared-B27DOBPA.js";

// web/src/worker/auth.js
var verifiers = /* @__PURE__ */ new Map();
var MAX_VERIFIERS = 4;
function verifierFor(auth) {
  const key = JSON.stringify(auth);
  let verifier = verifiers.get(key);
  if (!verifier) {
    if (verifiers.size >= MAX_VERIFIERS) verifiers.delete(verifiers.keys().next().value);
    verifier = createTokenVerifier(auth);
    verifiers.set(key, verifier);
  }
  return verifier;
}
async function callerFromRequest(request, auth) {
  if (!auth) {
    return {
      data: null,
      error: {
        status: 500,
        code: codes.auth_not_configured,
        message: "the worker cannot verify access tokens: neither SUPABASE_JWT_SECRET nor a JWK set is configured, so it refuses to run",
        hint: "set SUPABASE_JWT_SECRET (HS256) and/or SUPABASE_JWKS_URL (ES256/RS256); see docs/worker-auth.md"
      }
    };
  }
  const header = request.headers.get("authorization") ?? "";
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  if (!match) {
    return { data: null, error: { status: 401, code: codes.missing_token, message: "Authorization: Bearer <Supabase access token> is required", hint: "the user's session.access_token" } };
  }
  const accessToken = match[1];
  const { data, error } = await verifierFor(auth).verify(accessToken);
  if (error) return { data: null, error };
  return { data: { accessToken, userId: data.userId }, error: null };
}

// web/src/worker/policy.js
function readWorkerPolicy(env = {}) {
  const { data, error } = readPolicySettings("worker", { env });
  return error ? { data: null, error: error.message } : { data, error: null };
}
function surfacePolicies(policy = {}) {
  const { confirm, approve, ...shared } = policy;
  const { data: mcp, error } = actPolicy({ ...shared, approve, confirm }, APPROVE_DEFAULTS.workerMcp);
  if (error) return { data: null, error };
  const act = { ...Object.fromEntries(Object.entries(shared).filter(([, value]) => value !== void 0)), approve: approve ?? APPROVE_DEFAULTS.actExecute };
  return { data: { act, mcp }, error: null };
}

// web/src/worker/variables.js
var WORKER_VARIABLES = Object.freeze([
  "SUPABASE_URL",
  "SUPABASE_REST_URL",
  "SUPABASE_ANON_KEY",
  // Who is calling: every bearer token is verified before any work.
  "SUPABASE_JWT_SECRET",
  "SUPABASE_JWKS_URL",
  "SUPABASE_JWT_AUDIENCE",
  "SUPABASE_JWT_ISSUER",
  "ALFRED_JWT_CLOCK_SKEW_SECONDS",
  "ALFRED_JWKS_CACHE_SECONDS",
  "ALFRED_JWKS_REFETCH_SECONDS",
  // Per-user limits on /act/turn.
  "ALFRED_TURNS_PER_MINUTE",
  "ALFRED_CONCURRENT_TURNS",
  "ALFRED_MODEL_CALLS_PER_TURN",
  "ALFRED_TOKENS_PER_TURN",
  "ALFRED_MODEL_CALLS_PER_DAY",
  "ALFRED_TOKENS_PER_DAY",
  // Per-user limits on /act/execute and /mcp.
  "ALFRED_REQUESTS_PER_MINUTE",
  "ALFRED_CONCURRENT_REQUESTS",
  // The policy on writes (every route's act; /mcp confirms through the
  // client): ALFRED_READ_ONLY, ALFRED_TABLES, ALFRED_APPROVE,
  // ALFRED_MAX_AFFECTED, ALFRED_CONFIRM, from the policy table.
  ...policyVariables("worker"),
  // Signs the state /mcp hands a client between requests (a confirmation).
  "ALFRED_STATE_SECRET",
  // The authorization server /.well-known/oauth-protected-resource names.
  "ALFRED_AUTHORIZATION_SERVER",
  "OPENAI_API_KEY",
  "OPENAI_BASE_URL",
  "ALFRED_LLM_MODEL",
  "ALFRED_LLM_RESPONSE_FORMAT",
  "ALLOWED_ORIGINS",
  "MAX_BODY_BYTES",
  // Where /mcp keeps its sessions: memory (default) or supabase.
  "ALFRED_MCP_STORE"
]);

// web/src/worker/config.js
var DEFAULT_MAX_BODY_BYTES = 1 << 20;
var LIMITS = {
  ALFRED_TURNS_PER_MINUTE: ["turnsPerMinute", 10],
  ALFRED_CONCURRENT_TURNS: ["concurrentTurns", 2],
  ALFRED_MODEL_CALLS_PER_TURN: ["modelCallsPerTurn", 20],
  ALFRED_TOKENS_PER_TURN: ["tokensPerTurn", 2e5],
  ALFRED_MODEL_CALLS_PER_DAY: ["modelCallsPerDay", 500],
  ALFRED_TOKENS_PER_DAY: ["tokensPerDay", 2e6],
  // /act/execute and /mcp: requests a minute and at once, per user.
  ALFRED_REQUESTS_PER_MINUTE: ["requestsPerMinute", 120],
  ALFRED_CONCURRENT_REQUESTS: ["concurrentRequests", 4]
};
var AUTH_SECONDS = {
  ALFRED_JWT_CLOCK_SKEW_SECONDS: ["clockSkewSeconds", 30],
  ALFRED_JWKS_CACHE_SECONDS: ["jwksCacheSeconds", 600],
  ALFRED_JWKS_REFETCH_SECONDS: ["jwksRefetchSeconds", 30]
};
var JWKS_PATH = "/auth/v1/.well-known/jwks.json";
var configs = /* @__PURE__ */ new WeakMap();
function configOf(env) {
  if (env === null || typeof env !== "object") return readConfig(env);
  const values = JSON.stringify(WORKER_VARIABLES.map((name) => env[name] ?? null));
  const kept = configs.get(env);
  if (kept?.values === values) return kept.config;
  const config = deepFreeze(readConfig(env));
  configs.set(env, { values, config });
  return config;
}
function readConfig(env = {}) {
  if (env.SUPABASE_URL && env.SUPABASE_REST_URL) {
    return misconfigured("set SUPABASE_URL (the Supabase URL, gets /rest/v1) or SUPABASE_REST_URL (a bare PostgREST root), not both");
  }
  const urlName = env.SUPABASE_REST_URL ? "SUPABASE_REST_URL" : "SUPABASE_URL";
  const missing = [urlName, "SUPABASE_ANON_KEY"].filter((name) => !env[name]);
  if (missing.length > 0) return misconfigured(`${missing.join(" and ")} must be set`);
  if (!URL.canParse(env[urlName])) return misconfigured(`${urlName} is not a URL: ${env[urlName]}`);
  const anonKey = env.SUPABASE_ANON_KEY;
  if (isServiceKey(anonKey)) {
    return misconfigured("SUPABASE_ANON_KEY holds a service-role key; the worker never sends one for a user. Use the anon (publishable) key.");
  }
  const maxBodyBytes = env.MAX_BODY_BYTES === void 0 ? DEFAULT_MAX_BODY_BYTES : Number(env.MAX_BODY_BYTES);
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes <= 0) return misconfigured("MAX_BODY_BYTES must be a positive whole number");
  const { data: auth, error: authError } = readAuth(env);
  if (authError) return misconfigured(authError);
  const { data: limits, error: limitsError } = readLimits(env);
  if (limitsError) return misconfigured(limitsError);
  const mcpStore = env.ALFRED_MCP_STORE || "memory";
  if (mcpStore !== "memory" && mcpStore !== "supabase") return misconfigured(`ALFRED_MCP_STORE must be memory or supabase, got ${JSON.stringify(env.ALFRED_MCP_STORE)}`);
  const { data: policy, error: policyError } = readWorkerPolicy(env);
  if (policyError) return misconfigured(policyError);
  const stateSecret = env.ALFRED_STATE_SECRET || null;
  if (stateSecret !== null && stateSecret.length < 32) return misconfigured("ALFRED_STATE_SECRET must be at least 32 characters");
  const authorizationServer = env.ALFRED_AUTHORIZATION_SERVER || (env.SUPABASE_URL ? `${env.SUPABASE_URL.replace(/\/+$/, "")}/auth/v1` : null);
  if (authorizationServer !== null && !URL.canParse(authorizationServer)) return misconfigured(`ALFRED_AUTHORIZATION_SERVER is not a URL: ${authorizationServer}`);
  const origins = (env.ALLOWED_ORIGINS ?? "*").split(",").map((origin) => origin.trim()).filter(Boolean);
  return {
    data: {
      supabaseUrl: env.SUPABASE_URL || null,
      restUrl: env.SUPABASE_REST_URL || null,
      anonKey,
      allowedOrigins: origins.length === 0 || origins.includes("*") ? ["*"] : origins,
      maxBodyBytes,
      model: modelConfigFromEnv(env),
      auth,
      limits,
      mcpStore,
      policy,
      stateSecret: stateSecret ?? (env.SUPABASE_JWT_SECRET ? { derivedFrom: env.SUPABASE_JWT_SECRET } : null),
      authorizationServer
    },
    error: null
  };
}
function readAuth(env) {
  const jwtSecret = env.SUPABASE_JWT_SECRET || void 0;
  if (jwtSecret !== void 0 && jwtSecret.length < 32) return { data: null, error: "SUPABASE_JWT_SECRET must be at least 32 characters (the project JWT secret)" };
  let jwksUrl;
  if (env.SUPABASE_JWKS_URL === "off") jwksUrl = void 0;
  else if (env.SUPABASE_JWKS_URL) {
    if (!URL.canParse(env.SUPABASE_JWKS_URL)) return { data: null, error: `SUPABASE_JWKS_URL is not a URL: ${env.SUPABASE_JWKS_URL}` };
    jwksUrl = env.SUPABASE_JWKS_URL;
  } else if (env.SUPABASE_URL && /\.supabase\.(co|in)$/.test(new URL(env.SUPABASE_URL).hostname)) {
    jwksUrl = `${new URL(env.SUPABASE_URL).origin}${JWKS_PATH}`;
  }
  const options = { jwtSecret, jwksUrl, audience: env.SUPABASE_JWT_AUDIENCE || "authenticated", issuer: env.SUPABASE_JWT_ISSUER || void 0 };
  for (const [name, [field, fallback]] of Object.entries(AUTH_SECONDS)) {
    const value = env[name] === void 0 ? fallback : Number(env[name]);
    if (!Number.isFinite(value) || value < 0 || String(env[name] ?? fallback).trim() === "") return { data: null, error: `${name} must be a number of seconds \u2265 0` };
    options[field] = value;
  }
  if (jwtSecret === void 0 && jwksUrl === void 0) return { data: null, error: null };
  return { data: options, error: null };
}
function readLimits(env) {
  const limits = {};
  for (const [name, [field, fallback]] of Object.entries(LIMITS)) {
    const text = env[name];
    const value = text === void 0 ? fallback : text.trim() === "unlimited" ? Number.MAX_SAFE_INTEGER : Number(text);
    if (!Number.isSafeInteger(value) || value <= 0 || text?.trim() === "") return { data: null, error: `${name} must be a positive whole number or "unlimited", got ${JSON.stringify(text)}` };
    limits[field] = value;
  }
  return { data: limits, error: null };
}
function misconfigured(message) {
  return { data: null, error: { code: codes.worker_misconfigured, message, hint: "set the worker variables (alfred-act's worker/README.md lists them: node_modules/alfred-act/worker/README.md)" } };
}

// web/src/worker/http.js
var ALLOWED_METHODS = "GET, POST, DELETE, OPTIONS";
var ALLOWED_HEADERS = "authorization, content-type, x-client-info, apikey, mcp-session-id, mcp-protocol-version, mcp-method, mcp-name";
function jsonResponse(status, body, headers = {}) {
  return new Response(modelJson(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers }
  });
}
function errorResponse(status, { code, message, path, hint }, headers = {}) {
  const error = { code, message, ...path ? { path } : {}, ...hint ? { hint } : {} };
  return jsonResponse(status, { error }, headers);
}
function corsHeaders(request, allowedOrigins) {
  if (allowedOrigins.includes("*")) return { "access-control-allow-origin": "*" };
  const origin = request.headers.get("origin");
  const headers = { vary: "Origin" };
  if (origin && allowedOrigins.includes(origin)) headers["access-control-allow-origin"] = origin;
  return headers;
}
function isOriginAllowed(request, allowedOrigins) {
  const origin = request.headers.get("origin");
  return allowedOrigins.includes("*") || origin === null || allowedOrigins.includes(origin);
}
function preflightResponse(cors) {
  return new Response(null, {
    status: 204,
    headers: {
      ...cors,
      "access-control-allow-methods": ALLOWED_METHODS,
      "access-control-allow-headers": ALLOWED_HEADERS,
      "access-control-max-age": "86400"
    }
  });
}
async function readJsonObject(request, maxBytes) {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/json\b/i.test(type)) {
    return fail(415, codes.unsupported_media_type, `the body must be JSON (Content-Type: application/json), got ${type || "none"}`);
  }
  const declared = Number(request.headers.get("content-length"));
  if (declared > maxBytes) return tooLarge(maxBytes);
  const bytes = await readAtMost(request.body, maxBytes);
  if (bytes === null) return tooLarge(maxBytes);
  let value;
  try {
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch (cause) {
    return fail(400, codes.invalid_json, `the body is not valid JSON: ${cause.message}`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return fail(400, codes.invalid_body, "the body must be a JSON object");
  return { data: value, error: null };
}
async function readAtMost(body, maxBytes) {
  if (!body) return new Uint8Array(0);
  return readStreamAtMost(body, maxBytes, (reader, length) => discardRest(reader, maxBytes * DISCARD_FACTOR - length));
}
var DISCARD_FACTOR = 16;
async function discardRest(reader, budget) {
  for (let left = budget; left > 0; ) {
    const { value, done } = await reader.read();
    if (done) return;
    left -= value.byteLength;
  }
  await reader.cancel();
}
var tooLarge = (maxBytes) => fail(413, codes.body_too_large, `the body is larger than ${maxBytes} bytes`);
function fail(status, code, message, path) {
  return { data: null, error: { status, code, message, path } };
}
var invalid = (path, message, code = codes.invalid_body) => ({ status: 400, code, message, path });

// web/src/worker/state.js
var TURN_STATE_FORMAT = "alfred-act.turn-state";
function callerState(state) {
  if (state === void 0 || state === null) return { data: { registry: void 0, withRegistry: (registry) => registry }, error: null };
  if (typeof state !== "object" || Array.isArray(state)) return { data: null, error: invalid("state", "state must be an object (the last response's state)") };
  if (state.format !== TURN_STATE_FORMAT) return { data: { registry: state, withRegistry: (registry) => registry }, error: null };
  const { data: turnState, error } = readTurnState(state);
  if (error) return { data: null, error: { status: 400, ...error } };
  return { data: { registry: turnState.registry ?? void 0, withRegistry: (registry) => ({ ...turnState, registry }) }, error: null };
}

// web/src/worker/execute.js
function withoutUuids(core, value, registry) {
  if (value === null || value === void 0) return value;
  const text = JSON.stringify(value);
  const scrubbed = core.withoutUuids(text, { registry });
  return scrubbed === text ? value : JSON.parse(scrubbed);
}
function modelSafeOutcome(core, outcome, registry) {
  const { data, error, query, count } = outcome;
  let safeError = error;
  if (error) {
    const { raw: _raw, ...rest } = error;
    safeError = rest;
    if (rest.preview) safeError = { ...rest, preview: withoutUuids(core, rest.preview, registry) };
  }
  return { data: withoutUuids(core, data, registry), error: safeError, query, count };
}
async function executeToolCall({ body, core, config, caller, signal, policy = {} }) {
  const { tool, params, state, approved = false, preview, raw = false } = body;
  if (!TOOL_NAMES.includes(tool)) return { error: invalid("tool", `tool must be one of ${TOOL_NAMES.join(", ")}`) };
  if (typeof raw !== "boolean") return { error: invalid("raw", "raw must be true or false") };
  if (params === null || typeof params !== "object" || Array.isArray(params)) return { error: invalid("params", "params must be an object") };
  if (typeof approved !== "boolean") return { error: invalid("approved", "approved must be true or false") };
  if (preview !== void 0 && (preview === null || typeof preview !== "object" || Array.isArray(preview))) return { error: invalid("preview", "preview must be the error.preview object the approval was given for") };
  const { data: start, error } = callerState(state);
  if (error) return { error };
  const { data: act, error: actError } = createCallerAct(core, config, caller, start.registry, policy);
  if (actError) return { error: actError };
  try {
    const result = await act.execute(tool, params, { signal, approved, ...preview === void 0 ? {} : { preview } });
    const answer = { ...modelSafeOutcome(core, result, act.registry), state: start.withRegistry(act.registry.toJSON()) };
    if (raw) answer.raw = { data: result.data, error: result.error?.raw ? { ...result.error, ...result.error.raw } : result.error ?? null };
    return { data: answer };
  } finally {
    act.registry.delete();
  }
}
function createCallerAct(core, config, caller, registryState, policy = {}) {
  try {
    const act = core.createAct({
      ...config.restUrl ? { restUrl: config.restUrl } : { url: config.supabaseUrl },
      apiKey: config.anonKey,
      accessToken: caller.accessToken,
      userId: caller.userId,
      state: registryState,
      ...policy
    });
    return { data: act, error: null };
  } catch (cause) {
    if (cause?.name !== "AlfredError") throw cause;
    const { code, message, path, hint } = cause;
    return { data: null, error: { status: 400, code, message, path: path ? `state.${path}` : "state", hint } };
  }
}

// web/src/worker/limit-store.js
function takeFromWindow(window, { amount, limit, windowMs, now, force = false }) {
  const current = window && now < window.endsAt ? window : { used: 0, endsAt: now + windowMs };
  const allowed2 = force || current.used + amount <= limit;
  const used = allowed2 ? current.used + amount : current.used;
  const answer = { allowed: allowed2, used, retryAfterMs: Math.max(0, current.endsAt - now) };
  const keep = used > 0 || current === window ? { used, endsAt: current.endsAt } : null;
  return { answer, window: keep };
}
function acquireLease(leases, { limit, leaseMs, now, lease }) {
  const live = Object.fromEntries(Object.entries(leases ?? {}).filter(([, expiresAt]) => expiresAt > now));
  const held = Object.values(live);
  if (held.length >= limit) return { answer: { allowed: false, lease: null, retryAfterMs: Math.max(0, Math.min(...held) - now) }, leases: live };
  return { answer: { allowed: true, lease, retryAfterMs: 0 }, leases: { ...live, [lease]: now + leaseMs } };
}
var MemoryLimitStore = class {
  #windows = /* @__PURE__ */ new Map();
  #leases = /* @__PURE__ */ new Map();
  #nextLease = 0;
  #sweptAt = 0;
  take(key, request) {
    this.#sweep(request.now);
    const { answer, window } = takeFromWindow(this.#windows.get(key) ?? null, request);
    if (window) this.#windows.set(key, window);
    return answer;
  }
  acquire(key, { limit, leaseMs, now }) {
    this.#sweep(now);
    const { answer, leases } = acquireLease(this.#leases.get(key), { limit, leaseMs, now, lease: String(this.#nextLease += 1) });
    this.#leases.set(key, leases);
    return answer;
  }
  release(key, lease) {
    const leases = this.#leases.get(key);
    if (leases) delete leases[lease];
  }
  // At most once a second: drop closed windows and expired leases.
  #sweep(now) {
    if (now - this.#sweptAt < 1e3) return;
    this.#sweptAt = now;
    for (const [key, window] of this.#windows) if (now >= window.endsAt) this.#windows.delete(key);
    for (const [key, leases] of this.#leases) if (Object.values(leases).every((expiresAt) => expiresAt <= now)) this.#leases.delete(key);
  }
};

// web/src/worker/limits.js
var MINUTE_MS = 6e4;
var DAY_MS = 24 * 60 * MINUTE_MS;
var TURN_LEASE_MS = 15 * MINUTE_MS;
var CONCURRENT_RETRY_MS = 5e3;
var REQUEST_LEASE_MS = 2 * MINUTE_MS;
var keys = (userId) => ({
  turns: `turns:${userId}`,
  running: `running:${userId}`,
  requests: `requests:${userId}`,
  runningRequests: `running-requests:${userId}`,
  callsToday: `model-calls:${userId}`,
  tokensToday: `tokens:${userId}`
});
async function admitTurn({ store, limits, userId, now = Date.now() }) {
  const key = keys(userId);
  const spent = await daySpent({ store, limits, key, now });
  if (spent) return { data: null, error: spent };
  return slotThenMinute(store, now, {
    running: key.running,
    leaseMs: TURN_LEASE_MS,
    concurrent: limits.concurrentTurns,
    busy: [codes.too_many_concurrent_turns, `${limits.concurrentTurns} of your turns are already running`],
    counted: key.turns,
    perMinute: limits.turnsPerMinute,
    tooFast: [codes.too_many_turns, `more than ${limits.turnsPerMinute} turns a minute`]
  });
}
async function admitRequest({ store, limits, userId, now = Date.now() }) {
  const key = keys(userId);
  return slotThenMinute(store, now, {
    running: key.runningRequests,
    leaseMs: REQUEST_LEASE_MS,
    concurrent: limits.concurrentRequests,
    busy: [codes.too_many_concurrent_requests, `${limits.concurrentRequests} of your requests are already running`],
    counted: key.requests,
    perMinute: limits.requestsPerMinute,
    tooFast: [codes.too_many_requests, `more than ${limits.requestsPerMinute} requests a minute`]
  });
}
async function slotThenMinute(store, now, { running, leaseMs, concurrent, busy, counted, perMinute, tooFast }) {
  const slot = await store.acquire(running, { limit: concurrent, leaseMs, now });
  if (!slot.allowed) return tooMany(busy[0], busy[1], "wait for one to finish", CONCURRENT_RETRY_MS);
  const release = () => store.release(running, slot.lease);
  const taken = await store.take(counted, { amount: 1, limit: perMinute, windowMs: MINUTE_MS, now });
  if (!taken.allowed) {
    await release();
    return tooMany(tooFast[0], tooFast[1], "slow down", taken.retryAfterMs);
  }
  return { data: { release }, error: null };
}
async function daySpent({ store, limits, key, now }) {
  const calls = await store.take(key.callsToday, { amount: 0, limit: limits.modelCallsPerDay, windowMs: DAY_MS, now });
  if (calls.used >= limits.modelCallsPerDay) {
    return tooMany(codes.daily_model_calls_exhausted, `your ${limits.modelCallsPerDay} model calls for the day are used up`, "the budget renews 24 hours after its first call", calls.retryAfterMs).error;
  }
  const tokens = await store.take(key.tokensToday, { amount: 0, limit: limits.tokensPerDay, windowMs: DAY_MS, now });
  if (tokens.used >= limits.tokensPerDay) {
    return tooMany(codes.daily_tokens_exhausted, `your ${limits.tokensPerDay} model tokens for the day are used up`, "the budget renews 24 hours after its first call", tokens.retryAfterMs).error;
  }
  return null;
}
function tooMany(code, message, hint, retryAfterMs) {
  const seconds = retryAfterSeconds(retryAfterMs);
  return { data: null, error: { status: 429, code, message, hint: `${hint}; retry after ${seconds} s`, retryAfterMs } };
}
var retryAfterSeconds = (ms) => Math.max(1, Math.ceil(ms / 1e3));
function budgetedModel(model, { store, limits, userId, signal, now = Date.now }) {
  const key = keys(userId);
  const turn = { calls: 0, tokens: 0 };
  const refuse = (code, message) => {
    throw new LlmError({ code, message });
  };
  async function complete(request) {
    if (signal?.aborted) refuse(codes.aborted, "the client disconnected; no further model calls");
    if (turn.calls >= limits.modelCallsPerTurn) refuse(codes.turn_model_calls_exceeded, `this turn has made its ${limits.modelCallsPerTurn} model calls`);
    if (turn.tokens >= limits.tokensPerTurn) refuse(codes.turn_tokens_exceeded, `this turn has used its ${limits.tokensPerTurn} model tokens`);
    const estimate = estimatedPromptTokens(request);
    if (turn.tokens + estimate > limits.tokensPerTurn) {
      refuse(codes.turn_tokens_exceeded, `this model call's prompt is about ${estimate} tokens, more than the ${limits.tokensPerTurn - turn.tokens} left of this turn's ${limits.tokensPerTurn}; it was not sent`);
    }
    const tokens = await store.take(key.tokensToday, { amount: 0, limit: limits.tokensPerDay, windowMs: DAY_MS, now: now() });
    if (tokens.used >= limits.tokensPerDay) refuse(codes.daily_tokens_exhausted, `your ${limits.tokensPerDay} model tokens for the day are used up`);
    const call = await store.take(key.callsToday, { amount: 1, limit: limits.modelCallsPerDay, windowMs: DAY_MS, now: now() });
    if (!call.allowed) refuse(codes.daily_model_calls_exhausted, `your ${limits.modelCallsPerDay} model calls for the day are used up`);
    if (signal?.aborted) refuse(codes.aborted, "the client disconnected; no further model calls");
    turn.calls += 1;
    const reply = await model.complete({ ...request, signal: request.signal ?? signal });
    const spent = tokensOf(reply, request);
    turn.tokens += spent;
    await store.take(key.tokensToday, { amount: spent, limit: limits.tokensPerDay, windowMs: DAY_MS, now: now(), force: true });
    return reply;
  }
  return { model: model.model, complete, usage: turn };
}
function estimatedPromptTokens(request) {
  return Math.ceil(JSON.stringify(request?.messages ?? []).length / 4);
}
function tokensOf(reply, request) {
  const usage = reply?.usage;
  if (Number.isFinite(usage?.total_tokens)) return usage.total_tokens;
  if (Number.isFinite(usage?.prompt_tokens) || Number.isFinite(usage?.completion_tokens)) return (usage.prompt_tokens ?? 0) + (usage.completion_tokens ?? 0);
  const sent = JSON.stringify(request.messages ?? []).length;
  return Math.ceil((sent + String(reply?.content ?? "").length) / 4);
}

// web/src/worker/request-state.js
var encoder = new TextEncoder();
var decoder = new TextDecoder();
var DERIVATION_LABEL = "alfred-act mcp request state v1";
var REQUEST_STATE_TTL_MS = 10 * 60 * 1e3;
var MAX_REQUEST_STATE_CHARS = 32 * 1024;
var keys2 = /* @__PURE__ */ new Map();
var isolateKey;
var base64url = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
function fromBase64url(text) {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}
function keyOf(secret) {
  if (secret === null || secret === void 0) {
    isolateKey ??= crypto.subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
    return isolateKey;
  }
  const id = typeof secret === "string" ? `s:${secret}` : `d:${secret.derivedFrom}`;
  let key = keys2.get(id);
  if (!key) {
    key = (async () => {
      let raw = encoder.encode(typeof secret === "string" ? secret : secret.derivedFrom);
      if (typeof secret !== "string") {
        const parent = await crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
        raw = await crypto.subtle.sign("HMAC", parent, encoder.encode(DERIVATION_LABEL));
      }
      return crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
    })();
    if (keys2.size >= 4) keys2.delete(keys2.keys().next().value);
    keys2.set(id, key);
  }
  return key;
}
async function signState(payload, secret) {
  const body = base64url(encoder.encode(JSON.stringify(payload)));
  const signature = await crypto.subtle.sign("HMAC", await keyOf(secret), encoder.encode(body));
  return `${body}.${base64url(signature)}`;
}
async function verifyState(text, secret) {
  if (typeof text !== "string" || text.length > MAX_REQUEST_STATE_CHARS) return null;
  const match = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(text);
  if (!match) return null;
  try {
    const valid = await crypto.subtle.verify("HMAC", await keyOf(secret), fromBase64url(match[2]), encoder.encode(match[1]));
    if (!valid) return null;
    const payload = JSON.parse(decoder.decode(fromBase64url(match[1])));
    return payload !== null && typeof payload === "object" && !Array.isArray(payload) ? payload : null;
  } catch {
    return null;
  }
}
async function callDigest(name, args) {
  return base64url(await crypto.subtle.digest("SHA-256", encoder.encode(JSON.stringify([name, args ?? {}]))));
}

// web/src/worker/mcp-stateless.js
var MODERN_PROTOCOL_VERSIONS = Object.freeze(["2026-07-28"]);
var META = Object.freeze({
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  clientInfo: "io.modelcontextprotocol/clientInfo",
  serverInfo: "io.modelcontextprotocol/serverInfo"
});
var INVALID_REQUEST = -32600;
var METHOD_NOT_FOUND = -32601;
var INVALID_PARAMS = -32602;
var INTERNAL_ERROR = -32603;
var HEADER_MISMATCH = -32020;
var UNSUPPORTED_PROTOCOL_VERSION = -32022;
var CACHE_TTL_MS = 5 * 60 * 1e3;
var NAMED = { "tools/call": "name", "resources/read": "uri", "prompts/get": "name" };
var isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
function isStatelessMessage(request, message, legacyVersions) {
  if (typeof message?.params?._meta?.[META.protocolVersion] === "string") return true;
  const header = request.headers.get("mcp-protocol-version");
  return header !== null && !legacyVersions.includes(header) && header > legacyVersions[0];
}
function headerValue(text) {
  if (text === null) return null;
  const match = /^=\?base64\?([A-Za-z0-9+/=]*)\?=$/.exec(text);
  if (!match) return text;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(atob(match[1]), (char) => char.charCodeAt(0)));
  } catch {
    return null;
  }
}
function headerMismatch(request, message, version, rpcError) {
  const mismatch = (what, sent, body) => rpcError(400, message.id, HEADER_MISMATCH, `Header mismatch: ${what} ${sent === null ? "is missing" : `${JSON.stringify(sent)} does not match the body's ${JSON.stringify(body)}`}`, { code: codes.header_mismatch });
  const sentVersion = request.headers.get("mcp-protocol-version");
  if (sentVersion !== version) return mismatch("MCP-Protocol-Version", sentVersion, version);
  const sentMethod = request.headers.get("mcp-method");
  if (sentMethod !== message.method) return mismatch("Mcp-Method", sentMethod, message.method);
  const field = NAMED[message.method];
  if (field) {
    const sentName = headerValue(request.headers.get("mcp-name"));
    if (sentName !== message.params?.[field]) return mismatch("Mcp-Name", sentName, message.params?.[field] ?? null);
  }
  return null;
}
async function handleStatelessMcp({ request, message, core, config, caller, store, policy, domain, served = domain, legacyVersions, reply, rpcError }) {
  const isRequest = typeof message.method === "string" && (typeof message.id === "string" || Number.isInteger(message.id));
  if (!isRequest) {
    if (typeof message.method === "string" && !("id" in message)) return new Response(null, { status: 202, headers: reply.headers });
    return rpcError(400, message.id ?? null, INVALID_REQUEST, "Invalid Request: a client sends requests and notifications only", { code: codes.invalid_request });
  }
  const params = isObject(message.params) ? message.params : {};
  const meta = params._meta;
  if (!isObject(meta) || typeof meta[META.protocolVersion] !== "string" || !isObject(meta[META.clientCapabilities])) {
    return rpcError(400, message.id, INVALID_PARAMS, `Invalid params: params._meta must carry ${META.protocolVersion} and ${META.clientCapabilities}`, {
      code: codes.missing_request_meta,
      hint: "a 2026-07-28 request states its protocol version and the client capabilities in params._meta; a 2025 client sends initialize first"
    });
  }
  const version = meta[META.protocolVersion];
  const supported = [...MODERN_PROTOCOL_VERSIONS, ...legacyVersions];
  if (!MODERN_PROTOCOL_VERSIONS.includes(version)) {
    return rpcError(400, message.id, UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version", { supported, requested: version, code: codes.unsupported_protocol_version });
  }
  const mismatch = headerMismatch(request, message, version, rpcError);
  if (mismatch) return mismatch;
  const serverInfo = mcpServerInfo(domain, MCP_SERVER_VERSION);
  const answer = (result) => reply(200, { jsonrpc: "2.0", id: message.id, result: { resultType: "complete", ...result, _meta: { [META.serverInfo]: serverInfo } } });
  const readOnly = policy.readOnly === true;
  switch (message.method) {
    case "server/discover":
      return answer({ supportedVersions: supported, capabilities: { tools: {}, resources: {} }, instructions: mcpInstructions(domain), ttlMs: CACHE_TTL_MS, cacheScope: "public" });
    case "tools/list":
      return answer({ tools: mcpToolList(core, domain, { readOnly }), ttlMs: CACHE_TTL_MS, cacheScope: "public" });
    case "resources/list":
      return answer({ resources: mcpResourceList(domain), ttlMs: CACHE_TTL_MS, cacheScope: "public" });
    case "resources/read": {
      if (params.uri !== SCHEMA_URI) return rpcError(200, message.id, INVALID_PARAMS, `Invalid params: no resource ${params.uri}`, { code: codes.unknown_resource, hint: `resources: ${SCHEMA_URI}` });
      const { data, error } = schemaDescription(core, domain);
      if (error) return rpcError(200, message.id, INTERNAL_ERROR, error.message, { code: error.code });
      return answer({ contents: [{ uri: SCHEMA_URI, mimeType: "text/markdown", text: data }], ttlMs: CACHE_TTL_MS, cacheScope: "public" });
    }
    case "tools/call":
      return callTool({ request, message, params, meta, core, config, caller, store, policy, domain: served, answer, reply, rpcError, serverInfo });
    default:
      return rpcError(404, message.id, METHOD_NOT_FOUND, `Method not found: ${message.method}`, { code: codes.method_not_found });
  }
}
function canElicit(capabilities) {
  const elicitation = capabilities?.elicitation;
  if (!isObject(elicitation)) return false;
  return Object.keys(elicitation).length === 0 || isObject(elicitation.form);
}
async function callTool({ request, message, params, meta, core, config, caller, store, policy, domain, answer, reply, rpcError, serverInfo }) {
  if (typeof params.name !== "string") return rpcError(200, message.id, INVALID_PARAMS, "Invalid params: tools/call needs a tool name", { code: codes.invalid_params, path: "params.name" });
  const digest = await callDigest(params.name, params.arguments);
  let approved = null;
  if (params.requestState !== void 0) {
    const state = await verifyState(params.requestState, config.stateSecret);
    if (!state || state.v !== 1 || state.sub !== caller.userId || state.call !== digest) {
      return rpcError(400, message.id, INVALID_PARAMS, "Invalid params: requestState does not verify for this user and this call", {
        code: codes.invalid_request_state,
        hint: "send the call again without requestState to be asked anew"
      });
    }
    if (typeof state.exp === "number" && state.exp > Date.now() && typeof state.n === "string") approved = state;
  }
  const askable = canElicit(meta[META.clientCapabilities]);
  const confirmation = async () => {
    const response = approved ? params.inputResponses?.[CONFIRM_KEY] : void 0;
    if (isObject(response)) {
      const action = answerOf(response);
      return action === "accept" ? { action, preview: approved.preview } : { action };
    }
    return askable ? { action: "pending" } : { action: "unavailable" };
  };
  const actOptions = {
    ...config.restUrl ? { restUrl: config.restUrl } : { url: config.supabaseUrl },
    apiKey: config.anonKey,
    accessToken: caller.accessToken,
    userId: caller.userId,
    domain,
    ...policy
  };
  const once = approved && typeof approved.n === "string" && isObject(params.inputResponses?.[CONFIRM_KEY]) ? { id: approved.n, exp: approved.exp } : null;
  const { result, pending } = await callUserTool({ core, store, actOptions, name: params.name, args: params.arguments, signal: request.signal, confirmation, approval: once });
  if (result) return answer(result);
  const preview = { tool: pending.tool, table: pending.table, count: pending.count, rows: (pending.rows ?? []).map((row) => ({ ref: row?.ref ?? row?.id ?? null })) };
  if (Array.isArray(pending.keys)) preview.keys = pending.keys;
  const requestState = await signState({ v: 1, sub: caller.userId, call: digest, preview, n: newSessionId().slice(0, 22), exp: Date.now() + REQUEST_STATE_TTL_MS }, config.stateSecret);
  return reply(200, {
    jsonrpc: "2.0",
    id: message.id,
    result: {
      resultType: "input_required",
      inputRequests: { [CONFIRM_KEY]: { method: "elicitation/create", params: confirmationRequest(pending) } },
      requestState,
      _meta: { [META.serverInfo]: serverInfo }
    }
  });
}

// web/src/worker/mcp.js
var MCP_PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26"];
var PARSE_ERROR = -32700;
var INVALID_REQUEST2 = -32600;
var METHOD_NOT_FOUND2 = -32601;
var INVALID_PARAMS2 = -32602;
var INTERNAL_ERROR2 = -32603;
var BAD_SESSION = -32e3;
var SESSION_NOT_FOUND = -32001;
var MCP_EXPOSED_HEADERS = { "access-control-expose-headers": "mcp-session-id, www-authenticate" };
async function handleMcp({ request, core, config, caller, store, headers, policy = {} }) {
  const reply = (status, body, extra = {}) => jsonResponse(status, body, { ...headers, ...extra });
  reply.headers = headers;
  const rpcError = (status, id, code, message2, data) => reply(status, { jsonrpc: "2.0", id: id ?? null, error: { code, message: message2, ...data ? { data } : {} } });
  const unsupported = (version2) => rpcError(400, null, BAD_SESSION, `Bad Request: MCP-Protocol-Version ${version2} is not supported`, { code: codes.unsupported_protocol_version, hint: `supported: 2026-07-28, ${MCP_PROTOCOL_VERSIONS.join(", ")}` });
  const version = request.headers.get("mcp-protocol-version");
  const sessionId = request.headers.get("mcp-session-id");
  const served = coreDomain(core);
  const actOptions = { ...config.restUrl ? { restUrl: config.restUrl } : { url: config.supabaseUrl }, apiKey: config.anonKey, accessToken: caller.accessToken, userId: caller.userId, domain: served, ...policy };
  let domain;
  try {
    domain = shownDomain(core, actOptions);
  } catch (cause) {
    if (cause?.name !== "AlfredError") throw cause;
    return errorResponse(500, { code: codes.worker_misconfigured, message: cause.message, hint: cause.hint ?? "" }, headers);
  }
  if (request.method === "DELETE") return endSession({ sessionId, version, store, caller, headers, unsupported, rpcError });
  const accept = request.headers.get("accept") ?? "";
  if (!/application\/json|\*\/\*/i.test(accept)) {
    return rpcError(406, null, BAD_SESSION, "Not Acceptable: the client must accept application/json", { code: codes.not_acceptable, hint: "Accept: application/json, text/event-stream" });
  }
  const { message, kind, refused } = await readMessage(request, config, rpcError);
  if (refused) return refused;
  if (isStatelessMessage(request, message, MCP_PROTOCOL_VERSIONS)) {
    return handleStatelessMcp({ request, message, core, config, caller, store, policy, domain, served, legacyVersions: MCP_PROTOCOL_VERSIONS, reply, rpcError });
  }
  if (version !== null && !MCP_PROTOCOL_VERSIONS.includes(version)) return unsupported(version);
  if (kind.isRequest && message.method === "initialize") return initialize(message, { domain, store, caller, reply, rpcError });
  if (!sessionId) return rpcError(400, message.id, BAD_SESSION, "Bad Request: Mcp-Session-Id header is required", { code: codes.missing_session_id, hint: "send initialize first" });
  const { data: session, error } = await findSession({ store, sessionId, caller });
  if (error) return rpcError(500, message.id, INTERNAL_ERROR2, error.message, { code: error.code });
  if (!session) return rpcError(404, message.id, SESSION_NOT_FOUND, "Session not found", { code: codes.session_not_found, hint: "initialize a new session" });
  if (kind.isResponse) answered(`${caller.userId}
${sessionId}
${message.id}`, message);
  if (!kind.isRequest) return new Response(null, { status: 202, headers });
  return sessionRequest(message, { request, core, store, session, sessionId, actOptions, accept, caller, headers, policy, domain, reply, rpcError });
}
async function endSession({ sessionId, version, store, caller, headers, unsupported, rpcError }) {
  if (!sessionId) return errorResponse(405, { code: codes.method_not_allowed, message: "DELETE ends a session (Mcp-Session-Id); MCP 2026-07-28 has none", hint: "POST one JSON-RPC message" }, { ...headers, allow: "POST, OPTIONS" });
  if (version !== null && !MCP_PROTOCOL_VERSIONS.includes(version)) return unsupported(version);
  const { data: session, error } = await findSession({ store, sessionId, caller });
  if (error) return rpcError(500, null, INTERNAL_ERROR2, error.message, { code: error.code });
  if (!session) return rpcError(404, null, SESSION_NOT_FOUND, "Session not found", { code: codes.session_not_found });
  const { error: closeError } = await closeSession({ store, sessionId, caller });
  if (closeError) return rpcError(500, null, INTERNAL_ERROR2, closeError.message, { code: closeError.code });
  return new Response(null, { status: 204, headers });
}
async function readMessage(request, config, rpcError) {
  const { data: message, error: bodyError } = await readJsonObject(request, config.maxBodyBytes);
  if (bodyError) {
    const code = bodyError.code === codes.invalid_json ? PARSE_ERROR : INVALID_REQUEST2;
    const message2 = bodyError.code === codes.invalid_body ? "Invalid Request: the body must be one JSON-RPC message (batches are not supported)" : bodyError.message;
    return { refused: rpcError(bodyError.status, null, code, message2, { code: bodyError.code }) };
  }
  if (message.jsonrpc !== "2.0") return { refused: rpcError(400, message.id, INVALID_REQUEST2, 'Invalid Request: jsonrpc must be "2.0"', { code: codes.invalid_request }) };
  const isRequest = typeof message.method === "string" && (typeof message.id === "string" || Number.isInteger(message.id));
  const isNotification = typeof message.method === "string" && !("id" in message);
  const isResponse = !("method" in message) && (typeof message.id === "string" || Number.isInteger(message.id)) && ("result" in message || "error" in message);
  if (!isRequest && !isNotification && !isResponse) {
    return { refused: rpcError(400, null, INVALID_REQUEST2, "Invalid Request: not a JSON-RPC request, notification or response", { code: codes.invalid_request }) };
  }
  return { message, kind: { isRequest, isResponse } };
}
async function sessionRequest(message, { request, core, store, session, sessionId, actOptions, accept, caller, headers, policy, domain, reply, rpcError }) {
  const params = message.params ?? {};
  const result = (value) => reply(200, { jsonrpc: "2.0", id: message.id, result: value });
  switch (message.method) {
    case "ping":
      return result({});
    case "tools/list":
      return result({ tools: mcpToolList(core, domain, { readOnly: policy.readOnly === true }) });
    case "tools/call": {
      if (typeof params.name !== "string") return rpcError(200, message.id, INVALID_PARAMS2, "Invalid params: tools/call needs a tool name", { code: codes.invalid_params, path: "params.name" });
      const call = { core, store, sessionId, actOptions, name: params.name, args: params.arguments, signal: request.signal };
      if (!canConfirm(session, accept)) return result(await callSessionTool(call));
      return confirmingCall({ call, message, caller, sessionId, headers });
    }
    case "resources/list":
      return result({ resources: mcpResourceList(domain) });
    case "resources/read": {
      if (params.uri !== SCHEMA_URI) return rpcError(200, message.id, INVALID_PARAMS2, `Invalid params: no resource ${params.uri}`, { code: codes.unknown_resource, hint: `resources: ${SCHEMA_URI}` });
      const { data, error: schemaError } = schemaDescription(core, domain);
      if (schemaError) return rpcError(200, message.id, INTERNAL_ERROR2, schemaError.message, { code: schemaError.code });
      return result({ contents: [{ uri: SCHEMA_URI, mimeType: "text/markdown", text: data }] });
    }
    default:
      return rpcError(200, message.id, METHOD_NOT_FOUND2, `Method not found: ${message.method}`, { code: codes.method_not_found });
  }
}
async function initialize(message, { domain, store, caller, reply, rpcError }) {
  const requested = message.params?.protocolVersion;
  if (typeof requested !== "string") return rpcError(200, message.id, INVALID_PARAMS2, "Invalid params: initialize needs a protocolVersion", { code: codes.invalid_params, path: "params.protocolVersion" });
  const protocolVersion = MCP_PROTOCOL_VERSIONS.includes(requested) ? requested : MCP_PROTOCOL_VERSIONS[0];
  const sessionId = newSessionId();
  const clientCapabilities = message.params?.capabilities !== null && typeof message.params?.capabilities === "object" ? message.params.capabilities : {};
  const { error } = await openSession({ store, sessionId, caller, protocolVersion, clientCapabilities });
  if (error) return rpcError(500, message.id, INTERNAL_ERROR2, error.message, { code: error.code });
  const result = { protocolVersion, capabilities: { tools: { listChanged: false }, resources: {} }, serverInfo: mcpServerInfo(domain, MCP_SERVER_VERSION), instructions: mcpInstructions(domain) };
  return reply(200, { jsonrpc: "2.0", id: message.id, result }, { "mcp-session-id": sessionId });
}
var CONFIRMATION_TIMEOUT_MS = 5 * 60 * 1e3;
var waiting = /* @__PURE__ */ new Map();
var encoder2 = new TextEncoder();
function answered(key, message) {
  const resolve = waiting.get(key);
  if (!resolve) return;
  waiting.delete(key);
  resolve(message);
}
function canConfirm(session, accept) {
  const elicitation = session.clientCapabilities?.elicitation;
  return elicitation !== null && typeof elicitation === "object" && /text\/event-stream|\*\/\*/i.test(accept);
}
function confirmingCall({ call, message, caller, sessionId, headers }) {
  let controller;
  const stream = new ReadableStream({
    start(streamController) {
      controller = streamController;
    }
  });
  const send = (payload) => controller.enqueue(encoder2.encode(`event: message
data: ${JSON.stringify(payload)}

`));
  const confirmation = async (preview) => {
    const id = `alfred-act-confirm-${newSessionId().slice(0, 16)}`;
    const key = `${caller.userId}
${sessionId}
${id}`;
    const reply = new Promise((resolve) => {
      waiting.set(key, resolve);
      setTimeout(() => answered(key, null), CONFIRMATION_TIMEOUT_MS);
    });
    send({ jsonrpc: "2.0", id, method: "elicitation/create", params: confirmationRequest(preview) });
    const response = await reply;
    return { action: response?.result ? answerOf(response.result) : "cancel" };
  };
  (async () => {
    try {
      const answer = await callSessionTool({ ...call, confirmation });
      send({ jsonrpc: "2.0", id: message.id, result: answer });
    } catch (cause) {
      send({ jsonrpc: "2.0", id: message.id, error: { code: INTERNAL_ERROR2, message: String(cause?.message ?? cause), data: { code: codes.internal_error } } });
    } finally {
      controller.close();
    }
  })();
  return new Response(stream, { status: 200, headers: { ...headers, "content-type": "text/event-stream", "cache-control": "no-store", "x-accel-buffering": "no" } });
}

// web/src/worker/oauth.js
var PROTECTED_RESOURCE_PATHS = Object.freeze(["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"]);
function protectedResourceMetadata(request, config, domain) {
  const { origin } = new URL(request.url);
  return {
    resource: `${origin}/mcp`,
    ...config.authorizationServer ? { authorization_servers: [config.authorizationServer] } : {},
    bearer_methods_supported: ["header"],
    resource_name: `alfred-act: ${domainName(domain)} domain`
  };
}
function bearerChallenge(request, error) {
  const { origin } = new URL(request.url);
  const metadata = `resource_metadata="${origin}${PROTECTED_RESOURCE_PATHS[1]}"`;
  return error.code === codes.missing_token ? `Bearer ${metadata}` : `Bearer ${metadata}, error="invalid_token", error_description="${error.code}"`;
}

// web/src/worker/sse.js
var encoder3 = new TextEncoder();
function sseFrame(event) {
  return encoder3.encode(`event: ${event.type}
data: ${JSON.stringify(event)}

`);
}
var HEARTBEAT = encoder3.encode(": keep-alive\n\n");
var HEARTBEAT_MS = 1e3;
var SSE_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-store",
  // Proxies such as nginx would otherwise hold events back in a buffer.
  "x-accel-buffering": "no"
};
function eventStream(run, { heartbeatMs = HEARTBEAT_MS } = {}) {
  const abort = new AbortController();
  let controller;
  let open = true;
  const stream = new ReadableStream({
    start(streamController) {
      controller = streamController;
    },
    cancel(reason) {
      open = false;
      abort.abort(reason ?? new DOMException("the client disconnected", "AbortError"));
    }
  });
  const send = (event) => {
    if (open) controller.enqueue(sseFrame(event));
  };
  const heartbeat = setInterval(() => {
    if (open) controller.enqueue(HEARTBEAT);
  }, heartbeatMs);
  const done = (async () => {
    try {
      await run(send, abort.signal);
    } catch (cause) {
      send({ type: "error", error: { code: codes.internal_error, message: String(cause?.message ?? cause) } });
    } finally {
      clearInterval(heartbeat);
      if (open) controller.close();
      open = false;
    }
  })();
  return { stream, done };
}

// web/src/worker/turn.js
var STEP_TYPES = Object.keys(STEP_TOOLS);
var MAX_MESSAGE_CHARS = 8e3;
var MAX_PLANNED_STEPS = 10;
var TURN_STATE_LIMITS = Object.freeze({ messages: 12, turns: 2, messageChars: 16e3, chars: 2e5 });
function readTurnRequest(body) {
  const { message, state, plan, prompts = false } = body;
  if (typeof message !== "string" || message.trim() === "") return { error: invalid("message", "message must be a non-empty string") };
  if (message.length > MAX_MESSAGE_CHARS) return { error: invalid("message", `message is longer than ${MAX_MESSAGE_CHARS} characters`) };
  if (typeof prompts !== "boolean") return { error: invalid("prompts", "prompts must be true or false") };
  const planError = plan === void 0 || plan === null ? null : checkPlan(plan);
  if (planError) return { error: planError };
  const { data: turnState, error: stateError } = readTurnState(state ?? null);
  if (stateError) return { error: { status: 400, ...stateError } };
  const tooLarge2 = stateOverLimits(turnState);
  if (tooLarge2) return { error: tooLarge2 };
  return { data: { message, plan: plan ?? null, prompts, turnState }, error: null };
}
function stateOverLimits({ conversation, recentTurns, registry, ...rest }) {
  const limits = TURN_STATE_LIMITS;
  const refuse = (path, message) => ({ status: 400, code: codes.turn_state_too_large, path, message, hint: "send back the state the last turn returned, unchanged" });
  if (conversation.length > limits.messages) return refuse("state.conversation", `the state carries ${conversation.length} messages; a turn keeps at most ${limits.messages}`);
  if (recentTurns.length > limits.turns) return refuse("state.recentTurns", `the state carries ${recentTurns.length} turns; a turn keeps at most ${limits.turns}`);
  for (const [index, entry] of conversation.entries()) {
    const content = entry?.content;
    if (typeof content !== "string") return refuse(`state.conversation[${index}].content`, "each message of the state must be text");
    if (content.length > limits.messageChars) return refuse(`state.conversation[${index}].content`, `a message of the state is ${content.length} characters; at most ${limits.messageChars}`);
  }
  const chars = JSON.stringify({ conversation, recentTurns, ...rest }).length;
  if (chars > limits.chars) return refuse("state", `the state (its registry aside) is ${chars} characters; at most ${limits.chars}`);
  return null;
}
function startTurn({ request: { message, plan, prompts, turnState }, core, config, caller, budget = (model) => model, signal, policy = {} }) {
  let model;
  try {
    model = createChatModel(config.model);
  } catch (cause) {
    return { error: { status: 500, code: codes.worker_misconfigured, message: `the model configuration is unusable: ${cause.message}` } };
  }
  const { data: act, error: actError } = createCallerAct(core, config, caller, turnState.registry ?? void 0, policy);
  if (actError) return { error: actError };
  const turn = { userMessage: message, ...plan ? { steps: plan.map(({ description, type }) => ({ description, type })) } : {} };
  return {
    data: eventStream(async (send, streamSignal) => {
      const stop = anySignal([streamSignal, signal]);
      try {
        for await (const event of runTurnEvents({ core, act, model: budget(model, stop), turn, state: turnState, signal: stop })) {
          if (event.type !== "prompt" || prompts) send(event);
        }
      } finally {
        act.registry.delete();
      }
    })
  };
}
function anySignal(signals) {
  const present = signals.filter(Boolean);
  if (present.length === 1) return present[0];
  if (typeof AbortSignal.any === "function") return AbortSignal.any(present);
  const controller = new AbortController();
  for (const signal of present) {
    if (signal.aborted) controller.abort(signal.reason);
    else signal.addEventListener("abort", () => controller.abort(signal.reason), { once: true });
  }
  return controller.signal;
}
function checkPlan(plan) {
  if (!Array.isArray(plan) || plan.length === 0 || plan.length > MAX_PLANNED_STEPS) {
    return invalid("plan", `plan must be a list of 1 to ${MAX_PLANNED_STEPS} steps`);
  }
  for (const [index, step] of plan.entries()) {
    if (typeof step?.description !== "string" || step.description.trim() === "") return invalid(`plan[${index}].description`, "each step needs a description");
    if (!STEP_TYPES.includes(step.type)) return invalid(`plan[${index}].type`, `type must be one of ${STEP_TYPES.join(", ")}`);
  }
  return null;
}

// web/src/worker/handler.js
var ROUTES = {
  "/health": "GET",
  "/act/execute": "POST",
  "/act/turn": "POST",
  "/mcp": ["POST", "DELETE"],
  ...Object.fromEntries(PROTECTED_RESOURCE_PATHS.map((path) => [path, "GET"]))
};
var POLICY_OPTIONS = POLICY_TABLE.map((row) => row.option);
var allowed = (methods) => [methods].flat();
var isPlainObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
function createHandlerWith(loadCore2, { domain, limitStore, sessionStore, embedder, wasm, wasmModule, ...policyOptions } = {}) {
  if (!isPlainObject(domain)) {
    throw new AlfredError({
      code: codes.invalid_option,
      path: "domain",
      message: `createHandler needs the domain the worker serves, as an object; got ${domain === void 0 ? "none" : Array.isArray(domain) ? "an array" : typeof domain}`,
      hint: "write it with `npx alfred-act domain pull --out domain.json`, then import domain from './domain.json' with { type: 'json' } and pass createHandler({ domain })"
    });
  }
  let sharedCore;
  const core = () => sharedCore ??= loadCore2({ domain, ...wasm ? { wasm } : {}, ...wasmModule ? { wasmModule } : {} }).catch((cause) => {
    if (cause?.name !== "AlfredError" || cause.code !== codes.invalid_domain) sharedCore = void 0;
    throw cause;
  });
  const unknown = Object.keys(policyOptions).filter((name) => !POLICY_OPTIONS.includes(name));
  if (unknown.length > 0) {
    throw new AlfredError({ code: codes.invalid_option, path: unknown[0], message: `createHandler takes no option ${unknown[0]}`, hint: `options: domain, limitStore, sessionStore, embedder, wasm, wasmModule, ${POLICY_OPTIONS.join(", ")}` });
  }
  const embedderFor = embedderOption(embedder);
  let memoryStore;
  let memorySessions;
  const storeFor = limitStore ?? (() => memoryStore ??= new MemoryLimitStore());
  const sessionsFor = sessionStore ?? ((env, config) => config.mcpStore === "supabase" ? new SupabaseSessionStore({ ...config.restUrl ? { restUrl: config.restUrl } : { url: config.supabaseUrl }, apiKey: config.anonKey }) : memorySessions ??= new MemorySessionStore());
  return {
    async fetch(request, env, ctx) {
      try {
        return await route(request, env, ctx, { core, domain, storeFor, sessionsFor, embedderFor, policyOptions });
      } catch (cause) {
        return errorResponse(500, { code: codes.internal_error, message: `the worker failed: ${cause?.message ?? cause}` });
      }
    }
  };
}
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
        ...cause?.name === "AlfredError" && cause.code === codes.invalid_domain ? { path: `domain${path ? `.${path}` : ""}` } : {},
        ...hint ? { hint } : {}
      }
    };
  }
}
function embedderOption(embedder) {
  if (embedder === void 0) return () => ({});
  if (typeof embedder === "function") {
    return (env) => {
      const made = embedder(env);
      if (made === null || typeof made !== "object" || typeof made.embed !== "function") throw new TypeError("createHandler: embedder(env) must return an object with embed(texts)");
      return { embedder: made };
    };
  }
  if (embedder !== null && typeof embedder === "object" && typeof embedder.embed === "function") return () => ({ embedder });
  throw new AlfredError({
    code: codes.invalid_option,
    path: "embedder",
    message: "embedder must have embed(texts), or be a function of env that returns one",
    hint: "embedder: openAIEmbedder({ apiKey }), or (env) => ({ embed: (texts) => \u2026 }) for a binding of env"
  });
}
async function route(request, env, ctx, { core, domain, storeFor, sessionsFor, embedderFor, policyOptions }) {
  const { data: config, error: configError } = configOf(env);
  if (configError) return errorResponse(500, configError);
  const defined = Object.fromEntries(Object.entries(policyOptions).filter(([, value]) => value !== void 0));
  const { data: surfaces, error: policyError } = surfacePolicies({ ...config.policy, ...defined });
  if (policyError) return errorResponse(500, { code: codes.worker_misconfigured, message: policyError.message, hint: policyError.hint });
  const actOptions = embedderFor(env);
  const policies = { act: { ...surfaces.act, ...actOptions }, mcp: { ...surfaces.mcp, ...actOptions } };
  const cors = corsHeaders(request, config.allowedOrigins);
  const fail2 = (error) => errorResponse(error.status, error, cors);
  const { pathname } = new URL(request.url);
  const method = ROUTES[pathname];
  if (!method) return fail2({ status: 404, code: codes.not_found, message: `no route ${pathname}`, hint: `routes: ${Object.keys(ROUTES).join(", ")}` });
  if (request.method === "OPTIONS") {
    if (!isOriginAllowed(request, config.allowedOrigins)) return fail2({ status: 403, code: codes.origin_not_allowed, message: `origin ${request.headers.get("origin")} is not allowed` });
    return preflightResponse(cors);
  }
  if (!allowed(method).includes(request.method)) {
    const methods = allowed(method).join(", ");
    return errorResponse(405, { code: codes.method_not_allowed, message: `${pathname} takes ${methods}` }, { ...cors, allow: `${methods}, OPTIONS` });
  }
  if (pathname === "/health") return jsonResponse(200, { ok: true, model: config.model !== null, domain: domainName(domain) }, cors);
  if (PROTECTED_RESOURCE_PATHS.includes(pathname)) return jsonResponse(200, protectedResourceMetadata(request, config, domain), { ...cors, "cache-control": "public, max-age=3600" });
  const { data: caller, error: authError } = await callerFromRequest(request, config.auth);
  if (authError) {
    const challenge = pathname === "/mcp" && authError.status === 401 ? { "www-authenticate": bearerChallenge(request, authError) } : {};
    return errorResponse(authError.status, authError, { ...cors, ...pathname === "/mcp" ? MCP_EXPOSED_HEADERS : {}, ...challenge });
  }
  if (pathname === "/mcp" || pathname === "/act/execute") {
    const { data: admitted, error: limitError } = await admitRequest({ store: storeFor(env), limits: config.limits, userId: caller.userId });
    if (limitError) return errorResponse(429, limitError, { ...cors, "retry-after": String(retryAfterSeconds(limitError.retryAfterMs)) });
    try {
      return await (pathname === "/mcp" ? serveMcp({ request, env, config, caller, core, sessionsFor, cors, policy: policies.mcp }) : serveExecute({ request, config, caller, core, cors, policy: policies.act }));
    } finally {
      await admitted.release();
    }
  }
  return serveTurn({ request, env, ctx, config, caller, core, storeFor, cors, policy: policies.act });
}
async function serveTurn({ request, env, ctx, config, caller, core, storeFor, cors, policy }) {
  const fail2 = (error2) => errorResponse(error2.status, error2, cors);
  if (config.model === null) {
    return fail2({
      status: 503,
      code: codes.model_not_configured,
      message: "no model is configured, so /act/turn cannot run; /act/execute works without one",
      hint: "set OPENAI_API_KEY, or OPENAI_BASE_URL for an OpenAI-compatible server (and ALFRED_LLM_MODEL)"
    });
  }
  const { data: body, error: bodyError } = await readJsonObject(request, config.maxBodyBytes);
  if (bodyError) return fail2(bodyError);
  const { data: loaded, error: coreError } = await loadedCore(core);
  if (coreError) return fail2(coreError);
  const { data: turnRequest, error: turnError } = readTurnRequest(body);
  if (turnError) return fail2(turnError);
  const store = storeFor(env);
  const { data: admitted, error: limitError } = await admitTurn({ store, limits: config.limits, userId: caller.userId });
  if (limitError) return errorResponse(429, limitError, { ...cors, "retry-after": String(retryAfterSeconds(limitError.retryAfterMs)) });
  const budget = (model, signal) => budgetedModel(model, { store, limits: config.limits, userId: caller.userId, signal });
  const { data: turn, error } = startTurn({ request: turnRequest, core: loaded, config, caller, budget, signal: request.signal, policy });
  if (error) {
    await admitted.release();
    return fail2(error);
  }
  const done = turn.done.finally(() => admitted.release());
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
  const fail2 = (error2) => errorResponse(error2.status, error2, cors);
  const { data: body, error: bodyError } = await readJsonObject(request, config.maxBodyBytes);
  if (bodyError) return fail2(bodyError);
  const { data: loaded, error: coreError } = await loadedCore(core);
  if (coreError) return fail2(coreError);
  const { data, error } = await executeToolCall({ body, core: loaded, config, caller, signal: request.signal, policy });
  return error ? fail2(error) : jsonResponse(200, data, cors);
}

// web/src/worker/index.node.js
var createHandler = (options) => createHandlerWith(loadCore, options);
export {
  MemoryLimitStore,
  WORKER_VARIABLES,
  acquireLease,
  createHandler,
  takeFromWindow
};
