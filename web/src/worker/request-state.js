// What /mcp hands a 2026-07-28 client to carry to its next request (the
// MRTR `requestState` of a write awaiting the user's confirmation): JSON,
// signed with HMAC-SHA-256 so that a client cannot forge or alter it, and
// bound to the user, the call and a short lifetime. Runtime-neutral (Web
// Crypto). The key: ALFRED_STATE_SECRET; else one derived from
// SUPABASE_JWT_SECRET; else a random key of this isolate (a state then
// verifies only in the isolate that made it).
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const DERIVATION_LABEL = 'alfred-act mcp request state v1';
/** How long a confirmation may take before the call must start over. */
export const REQUEST_STATE_TTL_MS = 10 * 60 * 1000;
/** The longest requestState accepted (a signed preview of up to 50 rows fits). */
export const MAX_REQUEST_STATE_CHARS = 32 * 1024;

const keys = new Map();
let isolateKey;

const base64url = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
function fromBase64url(text) {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

// The HMAC key of `secret` (config.stateSecret: text, `{ derivedFrom }`, or null).
function keyOf(secret) {
  if (secret === null || secret === undefined) {
    isolateKey ??= crypto.subtle.generateKey({ name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    return isolateKey;
  }
  const id = typeof secret === 'string' ? `s:${secret}` : `d:${secret.derivedFrom}`;
  let key = keys.get(id);
  if (!key) {
    key = (async () => {
      let raw = encoder.encode(typeof secret === 'string' ? secret : secret.derivedFrom);
      if (typeof secret !== 'string') {
        // A key of its own, so a state's signature says nothing about the JWT secret.
        const parent = await crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
        raw = await crypto.subtle.sign('HMAC', parent, encoder.encode(DERIVATION_LABEL));
      }
      return crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    })();
    if (keys.size >= 4) keys.delete(keys.keys().next().value);
    keys.set(id, key);
  }
  return key;
}

/**
 * `payload` (JSON) signed: `<base64url JSON>.<base64url HMAC>`.
 *
 * @example
 * const state = await signState({ sub: userId, exp: Date.now() + 60_000 }, config.stateSecret)
 */
export async function signState(payload, secret) {
  const body = base64url(encoder.encode(JSON.stringify(payload)));
  const signature = await crypto.subtle.sign('HMAC', await keyOf(secret), encoder.encode(body));
  return `${body}.${base64url(signature)}`;
}

/**
 * The payload of a state signState made with the same secret, or null for
 * anything else (altered, forged, too long, not a state).
 *
 * @example
 * const payload = await verifyState(params.requestState, config.stateSecret) // null when forged
 */
export async function verifyState(text, secret) {
  if (typeof text !== 'string' || text.length > MAX_REQUEST_STATE_CHARS) return null;
  const match = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(text);
  if (!match) return null;
  try {
    const valid = await crypto.subtle.verify('HMAC', await keyOf(secret), fromBase64url(match[2]), encoder.encode(match[1]));
    if (!valid) return null;
    const payload = JSON.parse(decoder.decode(fromBase64url(match[1])));
    return payload !== null && typeof payload === 'object' && !Array.isArray(payload) ? payload : null;
  } catch {
    return null;
  }
}

/**
 * What identifies one tool call: SHA-256 of its name and arguments, base64url.
 *
 * @example
 * await callDigest('db_delete', { table: 'recipes', filters: […] })
 */
export async function callDigest(name, args) {
  return base64url(await crypto.subtle.digest('SHA-256', encoder.encode(JSON.stringify([name, args ?? {}]))));
}
