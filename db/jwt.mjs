// HS256 JWTs for the local stack, the way Supabase's keys look: role anon,
// service_role, or authenticated with sub = the user's id.
import { createHmac, randomBytes } from 'node:crypto';

const TEN_YEARS_S = 10 * 365 * 24 * 3600;

const base64url = (value) => Buffer.from(value).toString('base64url');

/** Signs `claims` with HS256. `iat` and a ten-year `exp` are added unless given. */
export function signJwt(claims, secret) {
  const now = Math.floor(Date.now() / 1000);
  const header = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const payload = base64url(JSON.stringify({ iss: 'alfred-local-stack', iat: now, exp: now + TEN_YEARS_S, ...claims }));
  const signature = createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url');
  return `${header}.${payload}.${signature}`;
}

/** A fresh secret long enough for PostgREST (it needs at least 32 characters). */
export const newJwtSecret = () => randomBytes(32).toString('base64url');

export const anonKey = (secret) => signJwt({ role: 'anon' }, secret);
export const serviceKey = (secret) => signJwt({ role: 'service_role' }, secret);
export const userToken = ({ id, email }, secret) =>
  signJwt({ role: 'authenticated', aud: 'authenticated', sub: id, email }, secret);
