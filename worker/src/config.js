// The worker's configuration, read from its environment (Workers `env`
// bindings, or Deno's environment through worker/deno.js).
import { modelConfigFromEnv } from 'alfred-act';

const DEFAULT_MAX_BODY_BYTES = 1 << 20;

/**
 * `{ data: { supabaseUrl, anonKey, allowedOrigins, maxBodyBytes, model }, error }`.
 * `model` is `modelConfigFromEnv(env)`: null when no model is configured,
 * which only /act/turn needs. `allowedOrigins` is `['*']` or a list.
 */
export function readConfig(env = {}) {
  const missing = ['SUPABASE_URL', 'SUPABASE_ANON_KEY'].filter((name) => !env[name]);
  if (missing.length > 0) return misconfigured(`${missing.join(' and ')} must be set`);
  if (!URL.canParse(env.SUPABASE_URL)) return misconfigured(`SUPABASE_URL is not a URL: ${env.SUPABASE_URL}`);
  const anonKey = env.SUPABASE_ANON_KEY;
  // The worker acts for the caller only: the apikey it sends must not bypass
  // row-level security, so a service key here is refused outright rather
  // than trusted to be overridden by the caller's JWT.
  if (isServiceKey(anonKey)) {
    return misconfigured('SUPABASE_ANON_KEY holds a service-role key; the worker never sends one for a user. Use the anon (publishable) key.');
  }
  const maxBodyBytes = env.MAX_BODY_BYTES === undefined ? DEFAULT_MAX_BODY_BYTES : Number(env.MAX_BODY_BYTES);
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes <= 0) return misconfigured('MAX_BODY_BYTES must be a positive whole number');
  const origins = (env.ALLOWED_ORIGINS ?? '*').split(',').map((origin) => origin.trim()).filter(Boolean);
  return {
    data: {
      supabaseUrl: env.SUPABASE_URL,
      anonKey,
      allowedOrigins: origins.length === 0 || origins.includes('*') ? ['*'] : origins,
      maxBodyBytes,
      model: modelConfigFromEnv(env),
    },
    error: null,
  };
}

function misconfigured(message) {
  return { data: null, error: { code: 'worker_misconfigured', message, hint: 'set the worker variables (see worker/README.md)' } };
}

function isServiceKey(key) {
  if (key.startsWith('sb_secret_')) return true;
  return jwtClaims(key)?.role === 'service_role';
}

/** The claims of a JWT, unverified, or null when `token` is not one. */
export function jwtClaims(token) {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  try {
    const base64 = parts[1].replace(/-/g, '+').replace(/_/g, '/');
    const bytes = Uint8Array.from(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '=')), (char) => char.charCodeAt(0));
    const claims = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    return claims !== null && typeof claims === 'object' && !Array.isArray(claims) ? claims : null;
  } catch {
    return null;
  }
}
