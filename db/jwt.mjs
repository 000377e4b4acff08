// JWTs for the local stack, the way Supabase's look: HS256 with the project's
// secret (anon, service_role, and authenticated with sub = the user's id), and
// ES256 / RS256 with a signing key whose public half is published in a JWK set
// (the way Supabase's asymmetric signing keys are).
import { createHmac, generateKeyPairSync, randomBytes, randomUUID, sign } from 'node:crypto';

const TEN_YEARS_S = 10 * 365 * 24 * 3600;

const base64url = (value) => Buffer.from(value).toString('base64url');

const withDefaults = (claims) => {
  const now = Math.floor(Date.now() / 1000);
  return { iss: 'alfred-local-stack', iat: now, exp: now + TEN_YEARS_S, ...claims };
};

/**
 * Signs `claims` with HS256. `iat` and a ten-year `exp` are added unless
 * given (a claim set to undefined is left out). `header` adds header fields.
 *
 * @example
 * const token = signJwt({ role: 'authenticated', aud: 'authenticated', sub: userId }, stack.jwtSecret)
 */
export function signJwt(claims, secret, { header = {} } = {}) {
  const encodedHeader = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT', ...header }));
  const payload = base64url(JSON.stringify(withDefaults(claims)));
  const signature = createHmac('sha256', secret).update(`${encodedHeader}.${payload}`).digest('base64url');
  return `${encodedHeader}.${payload}.${signature}`;
}

/**
 * A fresh asymmetric signing key: `alg` ES256 (P-256) or RS256 (RSA 2048).
 * Resolves to `{ alg, kid, privateKey, publicJwk }`; `publicJwk` carries
 * `kid`, `alg` and `use: 'sig'`, as a JWKS endpoint publishes it.
 *
 * @example
 * const key = signingKey('ES256')
 * const jwks = { keys: [key.publicJwk] }
 */
export function signingKey(alg, { kid = randomUUID() } = {}) {
  const pair =
    alg === 'ES256'
      ? generateKeyPairSync('ec', { namedCurve: 'P-256' })
      : alg === 'RS256'
        ? generateKeyPairSync('rsa', { modulusLength: 2048 })
        : null;
  if (!pair) throw new Error(`signingKey: alg must be ES256 or RS256, got ${alg}`);
  const publicJwk = { ...pair.publicKey.export({ format: 'jwk' }), kid, alg, use: 'sig' };
  return { alg, kid, privateKey: pair.privateKey, publicJwk };
}

/**
 * Signs `claims` with a key from `signingKey` (header `alg` and `kid` from the
 * key unless `header` overrides them). Defaults as in signJwt.
 *
 * @example
 * const token = signJwtWithKey({ role: 'authenticated', aud: 'authenticated', sub: userId }, key)
 */
export function signJwtWithKey(claims, { alg, kid, privateKey }, { header = {} } = {}) {
  const encodedHeader = base64url(JSON.stringify({ alg, typ: 'JWT', kid, ...header }));
  const payload = base64url(JSON.stringify(withDefaults(claims)));
  const data = Buffer.from(`${encodedHeader}.${payload}`);
  // JOSE's ES256 signature is r || s (IEEE P1363), not DER.
  const signature = sign('sha256', data, alg === 'ES256' ? { key: privateKey, dsaEncoding: 'ieee-p1363' } : privateKey);
  return `${encodedHeader}.${payload}.${signature.toString('base64url')}`;
}

/**
 * PostgREST's jwt-secret for a stack that accepts both its HS256 secret and
 * the public keys of `jwks` (PostgREST 12 takes a JWK set as jwt-secret): the
 * secret as an `oct` key plus every key of `jwks`. Without `jwks`, the secret.
 */
export function postgrestJwtSecret(secret, jwks) {
  if (!jwks) return secret;
  if (!Array.isArray(jwks.keys)) throw new TypeError('jwks must be a JWK set: { keys: [...] }');
  return JSON.stringify({ keys: [{ kty: 'oct', k: base64url(secret), alg: 'HS256' }, ...jwks.keys] });
}

/** A fresh secret long enough for PostgREST (it needs at least 32 characters). */
export const newJwtSecret = () => randomBytes(32).toString('base64url');

export const anonKey = (secret) => signJwt({ role: 'anon' }, secret);
export const serviceKey = (secret) => signJwt({ role: 'service_role' }, secret);
export const userToken = ({ id, email }, secret) =>
  signJwt({ role: 'authenticated', aud: 'authenticated', sub: id, email }, secret);
