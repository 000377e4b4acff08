// JSON text that a model reads. JSON.stringify leaves U+2028, U+2029 (line
// and paragraph separators) and U+0085 (next line) as they are, and a reader
// that splits lines on them (a prompt renderer, a log, a model's tokenizer
// trained on such splits) sees a value start a line of its own. Written as
// \u escapes they stay inside their string; the JSON means the same.
const HAS_LINE_BREAK = /[\u0085\u2028\u2029]/;
const LINE_BREAKS = /[\u0085\u2028\u2029]/g;
const escaped = (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * `text` (JSON text) with U+0085, U+2028 and U+2029 written as `\u` escapes.
 *
 * @example
 * escapeLineBreaks('{"note":"a\u2028b"}') // '{"note":"a\\u2028b"}'
 */
export function escapeLineBreaks(text) {
  return HAS_LINE_BREAK.test(text) ? text.replace(LINE_BREAKS, escaped) : text;
}

/**
 * `JSON.stringify(value)` as a model may read it: no raw line or paragraph
 * separator anywhere (escapeLineBreaks).
 *
 * @example
 * modelJson({ note: 'a\u2028b' }) // '{"note":"a\\u2028b"}'
 */
export function modelJson(value) {
  return escapeLineBreaks(JSON.stringify(value));
}

const FENCE_LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/**
 * A fence marker for one tool result: 10 random letters and digits (about
 * 59 bits), drawn for the call after its rows were written, so no row can
 * hold the end of its own fence. The result's `notice` names it and `"end"`
 * repeats it after the row text (docs/results-for-models.md).
 *
 * @example
 * newFence() // 'k7Qm2xPaZ3'
 */
export function newFence() {
  let out = '';
  while (out.length < 10) {
    const byte = randomByte();
    // Bytes from 248 (= 4 × 62) up are dropped: they would favour the first letters.
    if (byte < 248) out += FENCE_LETTERS[byte % 62];
  }
  return out;
}

// Random bytes are drawn a kilobyte at a time: one getRandomValues call
// costs as much as a small tool call's own work, and a fence needs ten bytes.
const randomPool = new Uint8Array(1024);
let randomAt = randomPool.length;

function randomByte() {
  if (randomAt === randomPool.length) {
    crypto.getRandomValues(randomPool);
    randomAt = 0;
  }
  return randomPool[randomAt++];
}
