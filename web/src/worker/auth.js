// The caller's identity: their Supabase access token, verified here before
// the worker spends anything (a model call, a database request), then
// forwarded as is so PostgREST applies row-level security as that user.
import { createTokenVerifier } from '../jwt-verify.js';
import { codes } from '../../dist/error-codes.mjs';

// One verifier per isolate and configuration, so the JWK set and the
// imported keys are cached across requests.
const verifiers = new Map();
const MAX_VERIFIERS = 4;

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

/**
 * `{ data: { accessToken, userId }, error }` from `Authorization: Bearer <jwt>`,
 * the token verified with `auth` (config.js: the JWT secret and/or the JWK
 * set). Every refusal is a 401 with a stable code (`missing_token`,
 * `malformed_token`, `algorithm_not_allowed`, `unknown_key`,
 * `invalid_signature`, `token_expired`, `token_not_yet_valid`,
 * `invalid_audience`, `invalid_issuer`, `invalid_claims`,
 * `service_key_refused`, `not_a_user_token`, `missing_subject`), or a 503
 * `jwks_unavailable` when the JWK set cannot be fetched; with no `auth` at
 * all, a 500 `auth_not_configured`: the worker never runs unverified.
 */
export async function callerFromRequest(request, auth) {
  if (!auth) {
    return {
      data: null,
      error: {
        status: 500,
        code: codes.auth_not_configured,
        message: 'the worker cannot verify access tokens: neither SUPABASE_JWT_SECRET nor a JWK set is configured, so it refuses to run',
        hint: 'set SUPABASE_JWT_SECRET (HS256) and/or SUPABASE_JWKS_URL (ES256/RS256); see docs/worker-auth.md',
      },
    };
  }
  const header = request.headers.get('authorization') ?? '';
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  if (!match) {
    return { data: null, error: { status: 401, code: codes.missing_token, message: 'Authorization: Bearer <Supabase access token> is required', hint: "the user's session.access_token" } };
  }
  const accessToken = match[1];
  const { data, error } = await verifierFor(auth).verify(accessToken);
  if (error) return { data: null, error };
  return { data: { accessToken, userId: data.userId }, error: null };
}
