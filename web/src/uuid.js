// Row ids drawn on the client: the core is deterministic and draws no
// randomness, so the JS side hands it the ids a create inserts.

/**
 * A random (version 4) UUID from `crypto.getRandomValues`, available in
 * every runtime the package supports (Node ≥ 20, browsers, Workers, Deno).
 *
 * @example
 * randomUuid() // '3b0f6a52-9c1e-4d7a-8f20-6c5e1d9b7a43'
 */
export function randomUuid() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40; // version 4
  bytes[8] = (bytes[8] & 0x3f) | 0x80; // RFC 4122 variant
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
