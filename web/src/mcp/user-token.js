// The signed-in user's access token as the MCP server takes it from its
// configuration: read (not verified: PostgREST verifies every request) to
// learn the user id and expiry, and to refuse what must never act for a user.
import { unverifiedClaims } from '../jwt-verify.js';
import { codes } from '../../dist/error-codes.mjs';

const EXPIRY_MARGIN_MS = 60_000;

/**
 * `{ data: { accessToken, userId, expiresAt }, error }`. Refused: a service
 * key (`sb_secret_…` or `role: service_role`: it bypasses row-level
 * security), the anon key or any token whose role is not a user's, a token
 * without `sub`, and text that is not a JWT. `expiresAt` is in ms (null
 * when the token has no `exp`).
 *
 * @example
 * const { data, error } = readUserToken(session.access_token) // data.userId: the token's sub
 */
export function readUserToken(token, source = 'the access token') {
  if (typeof token !== 'string' || token.trim() === '') return refuse(codes.missing_token, `${source} is empty`, "the signed-in user's session.access_token");
  const text = token.trim();
  if (text.startsWith('sb_secret_')) return refuse(codes.service_key_refused, `${source} is a service key, which bypasses row-level security`, "use the signed-in user's access token");
  const claims = unverifiedClaims(text);
  if (!claims) {
    return refuse(codes.malformed_token, `${source} is not a JWT`, "the signed-in user's session.access_token (a Supabase personal access token, sbp_…, is not one)");
  }
  if (claims.role === 'service_role') return refuse(codes.service_key_refused, `${source} is a service-role key, which bypasses row-level security`, "use the signed-in user's access token");
  if (claims.role !== 'authenticated') return refuse(codes.not_a_user_token, `${source} has role ${JSON.stringify(claims.role ?? null)}, not a signed-in user's`, 'the anon key is not a user token; sign the user in and pass session.access_token');
  if (typeof claims.sub !== 'string' || claims.sub === '') return refuse(codes.missing_subject, `${source} names no user (no sub claim)`);
  const expiresAt = typeof claims.exp === 'number' ? claims.exp * 1000 : null;
  return { data: { accessToken: text, userId: claims.sub, expiresAt }, error: null };
}

/** Whether a token read by readUserToken is expired or about to be. */
export function expiresSoon({ expiresAt }, now = Date.now()) {
  return expiresAt !== null && expiresAt - now < EXPIRY_MARGIN_MS;
}

/** Whether `key` is a service key (`sb_secret_…` or a service_role JWT). */
export function isServiceKey(key) {
  return typeof key === 'string' && (key.startsWith('sb_secret_') || unverifiedClaims(key)?.role === 'service_role');
}

function refuse(code, message, hint) {
  return { data: null, error: { code, message, ...(hint ? { hint } : {}) } };
}
