// The worker's configuration, read from its environment (Workers `env`
// bindings, or Deno's environment through worker/deno.js).
import { modelConfigFromEnv } from '../llm/index.js';
import { isServiceKey } from '../mcp/user-token.js';
import { readWorkerPolicy } from './policy.js';
import { WORKER_VARIABLES } from './variables.js';
import { deepFreeze } from '../tools.js';
import { codes } from '../../dist/error-codes.mjs';

const DEFAULT_MAX_BODY_BYTES = 1 << 20;

// The per-user limits on /act/turn: variable → [field, default].
const LIMITS = {
  ALFRED_TURNS_PER_MINUTE: ['turnsPerMinute', 10],
  ALFRED_CONCURRENT_TURNS: ['concurrentTurns', 2],
  ALFRED_MODEL_CALLS_PER_TURN: ['modelCallsPerTurn', 20],
  ALFRED_TOKENS_PER_TURN: ['tokensPerTurn', 200_000],
  ALFRED_MODEL_CALLS_PER_DAY: ['modelCallsPerDay', 500],
  ALFRED_TOKENS_PER_DAY: ['tokensPerDay', 2_000_000],
  // /act/execute and /mcp: requests a minute and at once, per user.
  ALFRED_REQUESTS_PER_MINUTE: ['requestsPerMinute', 120],
  ALFRED_CONCURRENT_REQUESTS: ['concurrentRequests', 4],
};

// Token verification tuning: variable → [field, default seconds].
const AUTH_SECONDS = {
  ALFRED_JWT_CLOCK_SKEW_SECONDS: ['clockSkewSeconds', 30],
  ALFRED_JWKS_CACHE_SECONDS: ['jwksCacheSeconds', 600],
  ALFRED_JWKS_REFETCH_SECONDS: ['jwksRefetchSeconds', 30],
};

const JWKS_PATH = '/auth/v1/.well-known/jwks.json';

// The configuration read from one `env` object, kept while the variables it
// reads are the same: a Worker gets the same bindings on every request, and
// reading them (URLs parsed, the anon key decoded) was a few percent of a
// request's CPU. Frozen, so no request can change what the next one reads.
const configs = new WeakMap();

/**
 * `readConfig(env)`, read once per `env` object and its variables' values.
 *
 * @example
 * const { data: config, error } = configOf(env)
 */
export function configOf(env) {
  if (env === null || typeof env !== 'object') return readConfig(env);
  const values = JSON.stringify(WORKER_VARIABLES.map((name) => env[name] ?? null));
  const kept = configs.get(env);
  if (kept?.values === values) return kept.config;
  const config = deepFreeze(readConfig(env));
  configs.set(env, { values, config });
  return config;
}

/**
 * `{ data: { supabaseUrl, restUrl, anonKey, allowedOrigins, maxBodyBytes, model, auth, limits, mcpStore, policy, stateSecret, authorizationServer }, error }`.
 * `model` is `modelConfigFromEnv(env)`: null when no model is configured,
 * which only /act/turn needs. `allowedOrigins` is `['*']` or a list.
 * `auth` is the token verifier's options (createTokenVerifier), or null when
 * neither a JWT secret nor a JWK set is configured: the /act routes then
 * refuse to run. `limits` are the per-user limits (limits.js).
 * `supabaseUrl` (SUPABASE_URL, gets /rest/v1) or `restUrl`
 * (SUPABASE_REST_URL, a bare PostgREST root): exactly one is set.
 * `mcpStore` is where /mcp keeps its sessions: `memory` (per isolate) or `supabase`
 * (the act_sessions table, as the user).
 * `policy` is the write policy from ALFRED_READ_ONLY, ALFRED_TABLES,
 * ALFRED_APPROVE, ALFRED_MAX_AFFECTED and ALFRED_CONFIRM (policy.js).
 * `stateSecret` signs what /mcp hands a client to carry between requests
 * (ALFRED_STATE_SECRET, else derived from SUPABASE_JWT_SECRET, else null:
 * a key of the isolate's own). `authorizationServer` is the issuer
 * /.well-known/oauth-protected-resource names (ALFRED_AUTHORIZATION_SERVER,
 * else `<SUPABASE_URL>/auth/v1`, else null).
 */
export function readConfig(env = {}) {
  if (env.SUPABASE_URL && env.SUPABASE_REST_URL) {
    return misconfigured('set SUPABASE_URL (the Supabase URL, gets /rest/v1) or SUPABASE_REST_URL (a bare PostgREST root), not both');
  }
  const urlName = env.SUPABASE_REST_URL ? 'SUPABASE_REST_URL' : 'SUPABASE_URL';
  const missing = [urlName, 'SUPABASE_ANON_KEY'].filter((name) => !env[name]);
  if (missing.length > 0) return misconfigured(`${missing.join(' and ')} must be set`);
  if (!URL.canParse(env[urlName])) return misconfigured(`${urlName} is not a URL: ${env[urlName]}`);
  const anonKey = env.SUPABASE_ANON_KEY;
  // The worker acts for the caller only: the apikey it sends must not bypass
  // row-level security, so a service key here is refused outright rather
  // than trusted to be overridden by the caller's JWT.
  if (isServiceKey(anonKey)) {
    return misconfigured('SUPABASE_ANON_KEY holds a service-role key; the worker never sends one for a user. Use the anon (publishable) key.');
  }
  const maxBodyBytes = env.MAX_BODY_BYTES === undefined ? DEFAULT_MAX_BODY_BYTES : Number(env.MAX_BODY_BYTES);
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes <= 0) return misconfigured('MAX_BODY_BYTES must be a positive whole number');
  const { data: auth, error: authError } = readAuth(env);
  if (authError) return misconfigured(authError);
  const { data: limits, error: limitsError } = readLimits(env);
  if (limitsError) return misconfigured(limitsError);
  const mcpStore = env.ALFRED_MCP_STORE || 'memory';
  if (mcpStore !== 'memory' && mcpStore !== 'supabase') return misconfigured(`ALFRED_MCP_STORE must be memory or supabase, got ${JSON.stringify(env.ALFRED_MCP_STORE)}`);
  const { data: policy, error: policyError } = readWorkerPolicy(env);
  if (policyError) return misconfigured(policyError);
  const stateSecret = env.ALFRED_STATE_SECRET || null;
  if (stateSecret !== null && stateSecret.length < 32) return misconfigured('ALFRED_STATE_SECRET must be at least 32 characters');
  const authorizationServer = env.ALFRED_AUTHORIZATION_SERVER || (env.SUPABASE_URL ? `${env.SUPABASE_URL.replace(/\/+$/, '')}/auth/v1` : null);
  if (authorizationServer !== null && !URL.canParse(authorizationServer)) return misconfigured(`ALFRED_AUTHORIZATION_SERVER is not a URL: ${authorizationServer}`);
  const origins = (env.ALLOWED_ORIGINS ?? '*').split(',').map((origin) => origin.trim()).filter(Boolean);
  return {
    data: {
      supabaseUrl: env.SUPABASE_URL || null,
      restUrl: env.SUPABASE_REST_URL || null,
      anonKey,
      allowedOrigins: origins.length === 0 || origins.includes('*') ? ['*'] : origins,
      maxBodyBytes,
      model: modelConfigFromEnv(env),
      auth,
      limits,
      mcpStore,
      policy,
      stateSecret: stateSecret ?? (env.SUPABASE_JWT_SECRET ? { derivedFrom: env.SUPABASE_JWT_SECRET } : null),
      authorizationServer,
    },
    error: null,
  };
}

/**
 * The verifier's options: SUPABASE_JWT_SECRET (HS256) and the JWK set
 * (ES256/RS256) at SUPABASE_JWKS_URL, which defaults to
 * `<SUPABASE_URL>/auth/v1/.well-known/jwks.json` for a Supabase project URL
 * (https://<ref>.supabase.co) and to none for other URLs;
 * `off` turns it off. `{ data: options | null, error: message | null }`.
 */
function readAuth(env) {
  const jwtSecret = env.SUPABASE_JWT_SECRET || undefined;
  if (jwtSecret !== undefined && jwtSecret.length < 32) return { data: null, error: 'SUPABASE_JWT_SECRET must be at least 32 characters (the project JWT secret)' };
  let jwksUrl;
  if (env.SUPABASE_JWKS_URL === 'off') jwksUrl = undefined;
  else if (env.SUPABASE_JWKS_URL) {
    if (!URL.canParse(env.SUPABASE_JWKS_URL)) return { data: null, error: `SUPABASE_JWKS_URL is not a URL: ${env.SUPABASE_JWKS_URL}` };
    jwksUrl = env.SUPABASE_JWKS_URL;
  } else if (env.SUPABASE_URL && /\.supabase\.(co|in)$/.test(new URL(env.SUPABASE_URL).hostname)) {
    jwksUrl = `${new URL(env.SUPABASE_URL).origin}${JWKS_PATH}`;
  }
  const options = { jwtSecret, jwksUrl, audience: env.SUPABASE_JWT_AUDIENCE || 'authenticated', issuer: env.SUPABASE_JWT_ISSUER || undefined };
  for (const [name, [field, fallback]] of Object.entries(AUTH_SECONDS)) {
    const value = env[name] === undefined ? fallback : Number(env[name]);
    if (!Number.isFinite(value) || value < 0 || String(env[name] ?? fallback).trim() === '') return { data: null, error: `${name} must be a number of seconds ≥ 0` };
    options[field] = value;
  }
  if (jwtSecret === undefined && jwksUrl === undefined) return { data: null, error: null };
  return { data: options, error: null };
}

/** The per-user limits: positive whole numbers, or `unlimited`. */
function readLimits(env) {
  const limits = {};
  for (const [name, [field, fallback]] of Object.entries(LIMITS)) {
    const text = env[name];
    const value = text === undefined ? fallback : text.trim() === 'unlimited' ? Number.MAX_SAFE_INTEGER : Number(text);
    if (!Number.isSafeInteger(value) || value <= 0 || text?.trim() === '') return { data: null, error: `${name} must be a positive whole number or "unlimited", got ${JSON.stringify(text)}` };
    limits[field] = value;
  }
  return { data: limits, error: null };
}

function misconfigured(message) {
  return { data: null, error: { code: codes.worker_misconfigured, message, hint: "set the worker variables (alfred-act's worker/README.md lists them: node_modules/alfred-act/worker/README.md)" } };
}
