// Reading a body without letting its size decide the memory spent: the
// request bodies the worker takes, the JWK sets it fetches and the
// responses an act reads stop keeping bytes at their limit.

/**
 * The chunks as one array of `total` bytes (the chunk itself when there is
 * one).
 *
 * @example
 * concat([new Uint8Array([1]), new Uint8Array([2, 3])], 3) // Uint8Array [1, 2, 3]
 */
export function concat(chunks, total) {
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/**
 * The bytes of `stream` (a ReadableStream of byte chunks), or null once more
 * than `maxBytes` have arrived: nothing past the limit is kept, and
 * `overflow(reader, length)` settles the rest (cancels it, or reads it on
 * and drops it) before null is returned.
 *
 * @example
 * const bytes = await readStreamAtMost(response.body, 1 << 20, (reader) => reader.cancel().catch(() => {}))
 */
export async function readStreamAtMost(stream, maxBytes, overflow) {
  const reader = stream.getReader();
  const chunks = [];
  let length = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    length += value.byteLength;
    if (length > maxBytes) {
      await overflow(reader, length);
      return null;
    }
    chunks.push(value);
  }
  return concat(chunks, length);
}
