// The caller's identity: their Supabase access token, forwarded as is.
import { jwtClaims } from './config.js';

/**
 * `{ data: { accessToken, userId }, error }` from `Authorization: Bearer <jwt>`.
 *
 * The signature is NOT checked here: the token is only forwarded, and
 * PostgREST verifies it on every request (with the project's JWT secret or
 * JWKS) before row-level security runs as that user. A forged token gets no
 * rows. The user id is read from `sub` to scope the calls, and checked
 * before any work so that anon/service keys and expired tokens get a clear 401.
 */
export function callerFromRequest(request, now = Date.now()) {
  const header = request.headers.get('authorization') ?? '';
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  if (!match) {
    return unauthorized('missing_token', 'Authorization: Bearer <Supabase access token> is required', "the user's session.access_token");
  }
  const accessToken = match[1];
  const claims = jwtClaims(accessToken);
  if (!claims) return unauthorized('invalid_token', 'the bearer token is not a JWT', "the user's session.access_token");
  if (claims.role === 'service_role') {
    return unauthorized('service_key_refused', 'a service-role key bypasses row-level security and is refused', "send the user's access token");
  }
  if (typeof claims.sub !== 'string' || claims.sub === '') {
    return unauthorized('not_a_user_token', 'the token has no sub: an anon key is not a signed-in user', "send the user's session.access_token");
  }
  if (typeof claims.exp === 'number' && claims.exp * 1000 <= now) {
    return unauthorized('token_expired', 'the access token has expired', 'refresh the session and retry');
  }
  return { data: { accessToken, userId: claims.sub }, error: null };
}

function unauthorized(code, message, hint) {
  return { data: null, error: { status: 401, code, message, hint } };
}
