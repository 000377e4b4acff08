// Verifies a Supabase access token (a JWT) with WebCrypto only, so it runs
// unchanged in workerd, Deno, browsers and Node: HS256 with the project's JWT
// secret, ES256 and RS256 with the public keys of the project's JWK set.
//
// The algorithm comes from the key, never from the token: an HS256 token is
// only ever checked against the configured secret, and a token whose kid names
// a JWK set key must carry that key's algorithm. `none` and every other
// algorithm are refused, and so are header fields that point elsewhere for a
// key (`jku`, `x5u`, `jwk` are ignored; `crit` is refused). Claims are read
// only after the signature holds.

import { readStreamAtMost } from './bounded-read.js';
import { codes } from '../dist/error-codes.mjs';

const ALGORITHMS = ['HS256', 'ES256', 'RS256'];
const MAX_TOKEN_CHARS = 16 * 1024;
const MAX_JWKS_BYTES = 256 * 1024;
// The verified-signature cache (createTokenVerifier): entries, their age, and
// the longest token kept (a real Supabase access token is about 1 KB).
const VERIFIED_MAX = 256;
const VERIFIED_TTL_MS = 60_000;
const VERIFIED_MAX_TOKEN_CHARS = 4096;
const MAX_JWKS_KEYS = 32;
const MIN_RSA_BITS = 2048;
const JWKS_TIMEOUT_MS = 5_000;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** The error codes `verify` returns, each with its HTTP status. */
export const TOKEN_ERROR_STATUS = Object.freeze({
  missing_token: 401,
  malformed_token: 401,
  algorithm_not_allowed: 401,
  unknown_key: 401,
  invalid_signature: 401,
  token_expired: 401,
  token_not_yet_valid: 401,
  invalid_audience: 401,
  invalid_issuer: 401,
  invalid_claims: 401,
  service_key_refused: 401,
  not_a_user_token: 401,
  missing_subject: 401,
  jwks_unavailable: 503,
});

/**
 * A verifier for one project's access tokens. Options:
 * - `jwtSecret`: the HS256 secret (string, its UTF-8 bytes are the key).
 * - `jwksUrl`: the JWK set with the ES256 / RS256 public keys, e.g.
 *   `<SUPABASE_URL>/auth/v1/.well-known/jwks.json`; `jwks`: a JWK set given
 *   inline instead (`{ keys: [...] }`). At least one of the three is required.
 * - `audience`: the `aud` a token must carry (string or list; default
 *   `'authenticated'`; `null` skips the check). `issuer`: the exact `iss`, if set.
 * - `roles`: the `role` claims accepted (default `['authenticated']`);
 *   `service_role` is always refused.
 * - `clockSkewSeconds` (default 30): leeway for `exp` and `nbf`.
 * - `jwksCacheSeconds` (default 600): how long a fetched JWK set is used
 *   before it is fetched again. `jwksRefetchSeconds` (default 30): the least
 *   time between two fetches, so tokens with unknown kids cannot hammer the
 *   endpoint (one fetch at a time; concurrent misses share it).
 * - `fetch`, `now` (ms): injected for runtimes and tests.
 *
 * Throws a TypeError for unusable options (none of secret, URL or set).
 * `verify(token)` never throws: `{ data: { userId, role, claims, alg, kid }, error }`,
 * error `{ status, code, message, hint }` with a code of TOKEN_ERROR_STATUS.
 *
 * @example
 * const verifier = createTokenVerifier({ jwtSecret: env.SUPABASE_JWT_SECRET, jwksUrl: `${env.SUPABASE_URL}/auth/v1/.well-known/jwks.json` })
 * const { data, error } = await verifier.verify(accessToken)
 * if (error) return new Response(JSON.stringify({ error }), { status: error.status })
 * const userId = data.userId
 */
export function createTokenVerifier(options = {}) {
  const settings = verifierSettings(options);
  const keys = verifierKeys(settings);
  const verified = verifiedTokens(settings);
  return { verify: (token) => verifyToken(token, settings, keys, verified) };
}

// createTokenVerifier's options with their defaults, checked: a TypeError for
// unusable ones.
function verifierSettings({
  jwtSecret,
  jwksUrl,
  jwks,
  audience = 'authenticated',
  issuer,
  roles = ['authenticated'],
  clockSkewSeconds = 30,
  jwksCacheSeconds = 600,
  jwksRefetchSeconds = 30,
  fetch = globalThis.fetch,
  now = Date.now,
}) {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) throw new TypeError('createTokenVerifier: this runtime has no WebCrypto (crypto.subtle)');
  if (jwtSecret !== undefined && (typeof jwtSecret !== 'string' || jwtSecret === '')) throw new TypeError('createTokenVerifier: jwtSecret must be a non-empty string');
  if (jwksUrl !== undefined && !(typeof jwksUrl === 'string' && URL.canParse(jwksUrl))) throw new TypeError('createTokenVerifier: jwksUrl must be a URL');
  if (jwks !== undefined && !Array.isArray(jwks?.keys)) throw new TypeError('createTokenVerifier: jwks must be a JWK set ({ keys: [...] })');
  if (jwks !== undefined && jwksUrl !== undefined) throw new TypeError('createTokenVerifier: give jwksUrl or jwks, not both');
  if (jwtSecret === undefined && jwksUrl === undefined && jwks === undefined) {
    throw new TypeError('createTokenVerifier: nothing to verify with; give jwtSecret and/or jwksUrl (or jwks)');
  }
  const audiences = audience === null ? null : [audience].flat();
  if (audiences && !audiences.every((value) => typeof value === 'string' && value !== '')) throw new TypeError('createTokenVerifier: audience must be a string, a list of strings or null');
  if (!Array.isArray(roles) || roles.length === 0 || !roles.every((role) => typeof role === 'string')) throw new TypeError('createTokenVerifier: roles must be a non-empty list');
  if (roles.includes('service_role')) throw new TypeError('createTokenVerifier: service_role cannot be accepted: it bypasses row-level security');
  for (const [name, value] of Object.entries({ clockSkewSeconds, jwksCacheSeconds, jwksRefetchSeconds })) {
    if (!Number.isFinite(value) || value < 0) throw new TypeError(`createTokenVerifier: ${name} must be a number ≥ 0`);
  }
  if (jwksUrl !== undefined && typeof fetch !== 'function') throw new TypeError('createTokenVerifier: no fetch in this runtime; pass one');

  return { subtle, jwtSecret, jwksUrl, jwks, audiences, issuer, roles, clockSkewSeconds, jwksCacheSeconds, jwksRefetchSeconds, fetch, now };
}

// The keys tokens are checked with: the HS256 secret (`secretKey`, imported
// on first use; null without one) and the JWK set (fetched and cached, or
// given inline; null without one).
function verifierKeys({ subtle, jwtSecret, jwksUrl, jwks, fetch, now, jwksCacheSeconds, jwksRefetchSeconds }) {
  let hmacKey = null;
  const secretKey =
    jwtSecret === undefined
      ? null
      : () => (hmacKey ??= subtle.importKey('raw', new TextEncoder().encode(jwtSecret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']));
  const keySet = jwksUrl
    ? jwksCache({ url: jwksUrl, fetch, now, ttlMs: jwksCacheSeconds * 1000, refetchMs: jwksRefetchSeconds * 1000 })
    : jwks
      ? staticKeySet(jwks)
      : null;
  const allowedAlgorithms = () => [...(secretKey ? ['HS256'] : []), ...(keySet ? ['ES256', 'RS256'] : [])];
  return { secretKey, keySet, allowedAlgorithms };
}

// Tokens whose signature verified lately, so a user's next requests with the
// same token skip the signature (WebCrypto's verify is most of the verifier's
// time): token → { claims, alg, kid, header, cryptoKey, until }. The claims
// (exp, nbf, role, aud, iss, sub) are checked again on every use, and the key
// that verified the signature must still be one the token's header names:
// a JWK set fetched again holds new keys, so a key rotated out is never
// honoured from here. An entry lives VERIFIED_TTL_MS at most.
function verifiedTokens({ now }) {
  const entries = new Map();
  return {
    /** The entry for `token` while it lasts; undefined otherwise. */
    get(token) {
      const seen = entries.get(token);
      if (seen && now() < seen.until) return seen;
      if (seen) entries.delete(token);
      return undefined;
    },
    forget(token) {
      entries.delete(token);
    },
    remember(token, entry) {
      if (entries.size >= VERIFIED_MAX) entries.delete(entries.keys().next().value);
      entries.set(token, { ...entry, until: now() + VERIFIED_TTL_MS });
    },
  };
}

// `verify(token)`: a token verified lately has its claims checked again;
// another, the header's algorithm, the signature with the keys it may name,
// then the claims.
async function verifyToken(token, settings, keys, verified) {
  if (typeof token !== 'string' || token === '') return fail(codes.missing_token, 'no access token was given', "send the user's session.access_token");
  const seen = verified.get(token);
  if (seen) {
    const { data: current, error } = await keysFor(seen.header, keys);
    if (error) return { data: null, error };
    // A copy: the caller owns the claims it is given.
    if (current.some((key) => key.cryptoKey === seen.cryptoKey)) return checkClaims(structuredClone(seen.claims), seen, settings);
    verified.forget(token);
  }
  const parsed = parseToken(token);
  if (parsed.error) return { data: null, error: parsed.error };
  const { header, claims, signingInput, signature } = parsed.data;

  const { alg } = header;
  if (!ALGORITHMS.includes(alg)) {
    return fail(codes.algorithm_not_allowed, `tokens signed with ${JSON.stringify(alg)} are refused`, `allowed: ${keys.allowedAlgorithms().join(', ') || 'none'}`);
  }
  if (signature.length === 0) return fail(codes.invalid_signature, 'the token is not signed', "send the user's session.access_token");

  const { data: candidates, error: keyError } = await keysFor(header, keys);
  if (keyError) return { data: null, error: keyError };
  let signedBy = null;
  for (const key of candidates) {
    if (await signatureHolds(settings.subtle, key, signature, signingInput)) {
      signedBy = key;
      break;
    }
  }
  if (!signedBy) return fail(codes.invalid_signature, 'the token signature does not verify with the project key', 'sign in again; tokens from another project or signed with another key are refused');
  const signer = { alg, kid: header.kid ?? null };
  if (token.length <= VERIFIED_MAX_TOKEN_CHARS) verified.remember(token, { claims: structuredClone(claims), ...signer, header, cryptoKey: signedBy.cryptoKey });
  return checkClaims(claims, signer, settings);
}

// The keys that may have signed a token with this header: `{ data: [{ alg, cryptoKey }], error }`.
async function keysFor({ alg, kid }, { secretKey, keySet, allowedAlgorithms }) {
  if (kid !== undefined && (typeof kid !== 'string' || kid === '')) return fail(codes.malformed_token, 'the token header kid is not a string');
  if (alg === 'HS256') {
    // A kid that names a published (asymmetric) key means the token claims
    // that key; HS256 against public key material is the confusion attack.
    const published = kid === undefined || !keySet ? null : keySet.cached(kid);
    if (published) return fail(codes.algorithm_not_allowed, `key ${kid} is an ${published.alg} key; the token says HS256`, 'the algorithm comes from the key');
    if (!secretKey) return fail(codes.algorithm_not_allowed, 'HS256 tokens are refused: no JWT secret is configured', `allowed: ${allowedAlgorithms().join(', ')}`);
    return { data: [{ alg, cryptoKey: await secretKey() }], error: null };
  }
  if (!keySet) return fail(codes.algorithm_not_allowed, `${alg} tokens are refused: no JWK set is configured`, `allowed: ${allowedAlgorithms().join(', ')}`);
  const { data: found, error } = await keySet.lookup(kid);
  if (error) return { data: null, error };
  if (kid !== undefined) {
    if (found.length === 0) return fail(codes.unknown_key, `no key ${kid} in the project's JWK set`, 'sign in again; the key may have been rotated out');
    const [key] = found;
    if (key.alg !== alg) return fail(codes.algorithm_not_allowed, `key ${kid} is an ${key.alg} key; the token says ${alg}`, 'the algorithm comes from the key');
    return { data: found, error: null };
  }
  const matching = found.filter((key) => key.alg === alg);
  if (matching.length === 0) return fail(codes.unknown_key, `the token has no kid and the JWK set has no ${alg} key`, 'sign in again');
  return { data: matching, error: null };
}

// Expiry, role, audience, issuer and subject, once the signature holds.
function checkClaims(claims, { alg, kid }, { now, clockSkewSeconds, roles, audiences, issuer }) {
  const seconds = now() / 1000;
  for (const name of ['exp', 'nbf', 'iat']) {
    if (claims[name] !== undefined && !Number.isFinite(claims[name])) return fail(codes.invalid_claims, `the ${name} claim is not a number`);
  }
  if (claims.exp === undefined) return fail(codes.invalid_claims, 'the token has no exp claim', 'access tokens expire; send the session.access_token');
  if (seconds >= claims.exp + clockSkewSeconds) return fail(codes.token_expired, 'the access token has expired', 'refresh the session and retry');
  if (claims.nbf !== undefined && seconds + clockSkewSeconds < claims.nbf) return fail(codes.token_not_yet_valid, 'the access token is not valid yet (nbf)', "check the signer's clock");
  if (claims.role === 'service_role') return fail(codes.service_key_refused, 'a service-role key bypasses row-level security and is refused', "send the user's access token");
  if (!roles.includes(claims.role)) {
    return fail(codes.not_a_user_token, `the token's role is ${JSON.stringify(claims.role ?? null)}: an anon key is not a signed-in user`, "send the user's session.access_token");
  }
  if (audiences) {
    const given = [claims.aud].flat();
    if (!given.some((value) => audiences.includes(value))) return fail(codes.invalid_audience, `the token's audience ${JSON.stringify(claims.aud ?? null)} is not ${audiences.join(' or ')}`, 'a token for another application is refused');
  }
  if (issuer !== undefined && claims.iss !== issuer) return fail(codes.invalid_issuer, `the token's issuer ${JSON.stringify(claims.iss ?? null)} is not ${issuer}`);
  if (typeof claims.sub !== 'string' || claims.sub === '') return fail(codes.missing_subject, 'the token has no sub: it names no user', "send the user's session.access_token");
  return { data: { userId: claims.sub, role: claims.role, claims, alg, kid }, error: null };
}

// One verifier per options object, so repeated calls share the key cache.
const verifiers = new WeakMap();

/**
 * Verifies `token` with `options` as in createTokenVerifier; the verifier (and
 * its JWK set cache) is kept per options object, so pass the same object
 * each time. Resolves to `{ data: { userId, role, claims, alg, kid }, error }`.
 *
 * @example
 * const auth = { jwtSecret: process.env.SUPABASE_JWT_SECRET }
 * const { data, error } = await verifyAccessToken(token, auth)
 */
export function verifyAccessToken(token, options) {
  if (options === null || typeof options !== 'object') throw new TypeError('verifyAccessToken: options are required (jwtSecret and/or jwksUrl)');
  let verifier = verifiers.get(options);
  if (!verifier) {
    verifier = createTokenVerifier(options);
    verifiers.set(options, verifier);
  }
  return verifier.verify(token);
}

function fail(code, message, hint) {
  return { data: null, error: { status: TOKEN_ERROR_STATUS[code], code, message, ...(hint ? { hint } : {}) } };
}

// `{ data: { header, claims, signingInput, signature }, error }`. Strict:
// three base64url parts, header and claims JSON objects, no `crit`.
function parseToken(token) {
  const malformed = (message) => fail(codes.malformed_token, message, "send the user's session.access_token");
  if (token.length > MAX_TOKEN_CHARS) return malformed(`the token is longer than ${MAX_TOKEN_CHARS} characters`);
  const parts = token.split('.');
  if (parts.length !== 3) return malformed(parts.length === 2 ? 'the token has no signature part' : 'the bearer token is not a JWT (three dot-separated parts)');
  const [headerPart, claimsPart, signaturePart] = parts;
  const header = jsonObjectPart(headerPart);
  if (!header) return malformed('the token header is not base64url JSON');
  const claims = jsonObjectPart(claimsPart);
  if (!claims) return malformed('the token claims are not base64url JSON');
  const signature = base64urlBytes(signaturePart);
  if (!signature) return malformed('the token signature is not base64url');
  if (header.crit !== undefined) return malformed('the token header has crit extensions, which are not supported');
  return { data: { header, claims, signingInput: new TextEncoder().encode(`${headerPart}.${claimsPart}`), signature }, error: null };
}

/**
 * The claims of a JWT read without verifying it (to tell a service key or a
 * user's token apart before anything is spent on it; trust only a verified
 * token's claims), or null when `token` is not three parts with a JSON object
 * in the middle.
 */
export function unverifiedClaims(token) {
  const parts = typeof token === 'string' ? token.split('.') : [];
  // Padding is not base64url, but a padded service key must still be seen as one.
  return parts.length === 3 ? jsonObjectPart(parts[1].replace(/={1,2}$/, '')) : null;
}

function jsonObjectPart(part) {
  const bytes = part === '' ? null : base64urlBytes(part);
  if (!bytes) return null;
  try {
    const value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

function base64urlBytes(text) {
  if (!BASE64URL.test(text) || text.length % 4 === 1) return null;
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
  try {
    return Uint8Array.from(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '=')), (char) => char.charCodeAt(0));
  } catch {
    return null;
  }
}

async function signatureHolds(subtle, { alg, cryptoKey }, signature, data) {
  try {
    if (alg === 'HS256') return await subtle.verify('HMAC', cryptoKey, signature, data);
    // JOSE ES256 signatures are r || s, 32 bytes each, which is what WebCrypto takes.
    if (alg === 'ES256') return signature.length === 64 && (await subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, cryptoKey, signature, data));
    return await subtle.verify('RSASSA-PKCS1-v1_5', cryptoKey, signature, data);
  } catch {
    return false;
  }
}

// The algorithm a published JWK verifies, or null when it is not a key this
// verifier uses: EC P-256 → ES256, RSA (≥ 2048 bits) → RS256; symmetric
// (`oct`) keys never come from a JWK set.
function jwkAlgorithm(jwk) {
  if (jwk === null || typeof jwk !== 'object') return null;
  if (jwk.use !== undefined && jwk.use !== 'sig') return null;
  if (jwk.key_ops !== undefined && !(Array.isArray(jwk.key_ops) && jwk.key_ops.includes('verify'))) return null;
  let alg = null;
  if (jwk.kty === 'EC' && jwk.crv === 'P-256' && typeof jwk.x === 'string' && typeof jwk.y === 'string') alg = 'ES256';
  if (jwk.kty === 'RSA' && typeof jwk.n === 'string' && typeof jwk.e === 'string') {
    const bits = (base64urlBytes(jwk.n)?.length ?? 0) * 8;
    if (bits >= MIN_RSA_BITS) alg = 'RS256';
  }
  if (alg && jwk.alg !== undefined && jwk.alg !== alg) return null;
  return alg;
}

async function importJwk(jwk) {
  const alg = jwkAlgorithm(jwk);
  if (!alg) return null;
  const subtle = globalThis.crypto.subtle;
  try {
    const cryptoKey =
      alg === 'ES256'
        ? await subtle.importKey('jwk', { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y }, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify'])
        : await subtle.importKey('jwk', { kty: 'RSA', n: jwk.n, e: jwk.e }, { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, ['verify']);
    return { alg, kid: typeof jwk.kid === 'string' && jwk.kid !== '' ? jwk.kid : null, cryptoKey };
  } catch {
    return null;
  }
}

async function importKeySet(set) {
  const keys = await Promise.all(set.keys.slice(0, MAX_JWKS_KEYS).map(importJwk));
  return keys.filter(Boolean);
}

// A JWK set given inline: imported once, never refetched.
function staticKeySet(set) {
  const imported = importKeySet(set);
  let keys = [];
  imported.then((list) => (keys = list));
  return {
    cached: (kid) => keys.find((key) => key.kid === kid) ?? null,
    async lookup(kid) {
      const list = await imported;
      return { data: kid === undefined ? list : list.filter((key) => key.kid === kid), error: null };
    },
  };
}

// A fetched JWK set: used for `ttlMs`, fetched again when it is older or a
// kid is unknown, but never twice within `refetchMs` (one fetch in flight,
// shared). A failed refetch keeps the keys already known.
function jwksCache({ url, fetch, now, ttlMs, refetchMs }) {
  let keys = null;
  let fetchedAt = -Infinity;
  let attemptedAt = -Infinity;
  let lastFailure = null;
  let inFlight = null;

  const refetchAllowed = () => now() - attemptedAt >= refetchMs;
  function refresh() {
    inFlight ??= (async () => {
      attemptedAt = now();
      try {
        keys = await importKeySet(await fetchKeySet(fetch, url));
        fetchedAt = now();
        lastFailure = null;
      } catch (cause) {
        lastFailure = String(cause?.message ?? cause);
      } finally {
        inFlight = null;
      }
    })();
    return inFlight;
  }
  const select = (kid) => (kid === undefined ? keys : keys.filter((key) => key.kid === kid));

  return {
    cached: (kid) => keys?.find((key) => key.kid === kid) ?? null,
    async lookup(kid) {
      if (inFlight) await inFlight;
      if ((keys === null || now() - fetchedAt >= ttlMs) && refetchAllowed()) await refresh();
      if (keys === null) {
        return fail(codes.jwks_unavailable, `the project's JWK set could not be fetched from ${url}: ${lastFailure ?? 'not fetched yet'}`, 'retry shortly');
      }
      if (select(kid).length === 0 && kid !== undefined && refetchAllowed()) await refresh();
      return { data: select(kid), error: null };
    },
  };
}

async function fetchKeySet(fetch, url) {
  const response = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(JWKS_TIMEOUT_MS) });
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    throw new Error(`HTTP ${response.status}`);
  }
  const declared = Number(response.headers?.get?.('content-length'));
  if (declared > MAX_JWKS_BYTES) {
    await response.body?.cancel().catch(() => {});
    throw new Error(`the JWK set is larger than ${MAX_JWKS_BYTES} bytes`);
  }
  const bytes = await readAtMost(response, MAX_JWKS_BYTES);
  if (bytes === null) throw new Error(`the JWK set is larger than ${MAX_JWKS_BYTES} bytes`);
  const set = JSON.parse(new TextDecoder().decode(bytes));
  if (!Array.isArray(set?.keys)) throw new Error('the answer is not a JWK set ({ keys: [...] })');
  return set;
}

// The body's bytes, or null (the rest cancelled, never read) once more than
// `maxBytes` have arrived: a huge answer costs at most `maxBytes` of memory,
// whatever its Content-Length says.
async function readAtMost(response, maxBytes) {
  if (!response.body) {
    const buffer = new Uint8Array(await response.arrayBuffer());
    return buffer.byteLength > maxBytes ? null : buffer;
  }
  return readStreamAtMost(response.body, maxBytes, (reader) => reader.cancel().catch(() => {}));
}
