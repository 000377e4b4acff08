// The stdio server's input, one line (one JSON-RPC message) at a time, up to
// a size: the SDK's StdioServerTransport closes the whole connection when
// one message is larger than its buffer, and the server then exited with
// status 0 and no word. Here a line over the limit is dropped as it streams
// in (never held whole), and the client gets a JSON-RPC error for it,
// naming the request's id when it can be read from the line's ends; the
// server goes on serving the next message. Node only.
import { Transform } from 'node:stream';

/** The most bytes one message may have: the SDK's own stdio buffer size (10 MiB). */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;
// How much of an oversized line's start and end is kept to find its id.
const EDGE_BYTES = 512;
const NEWLINE = 0x0a;

const ID = String.raw`(-?\d{1,16}|"(?:[^"\\]|\\.){0,200}")`;
// The SDK's clients write `{"method":…,"params":…,"jsonrpc":"2.0","id":N}`;
// others put the id first.
const ID_AT_END = new RegExp(String.raw`"id"\s*:\s*${ID}\s*\}\s*$`);
const ID_AT_START = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${ID}`);

/**
 * The request id of an oversized message from the first and last bytes of
 * its line, or null when neither end shows one where a JSON-RPC request
 * puts it.
 *
 * @example
 * idOfOversized('{"method":"tools/call","params":{"arg', 'uments":{}},"jsonrpc":"2.0","id":7}') // 7
 */
export function idOfOversized(head, tail) {
  const match = ID_AT_END.exec(tail.replace(/\r$/, '')) ?? ID_AT_START.exec(head);
  if (!match) return null;
  try {
    return JSON.parse(match[1]);
  } catch {
    return null;
  }
}

/**
 * A Transform from raw stdin to whole lines of at most `maxBytes` (newline
 * excluded), each pushed as one chunk ending in a newline. A longer line is
 * dropped and reported once its end arrives:
 * `onOversized({ bytes, id })` (`id`: idOfOversized, or null).
 *
 * @example
 * process.stdin.pipe(boundedLines({ onOversized: ({ bytes, id }) => reply(id, bytes) }))
 */
export function boundedLines({ maxBytes = MAX_MESSAGE_BYTES, onOversized }) {
  let parts = [];
  let length = 0;
  let dropping = null; // { bytes, head, tail } while an oversized line streams past
  const keepTail = (tail, piece) => {
    const joined = Buffer.concat([tail, piece]);
    return joined.subarray(Math.max(0, joined.length - EDGE_BYTES));
  };
  return new Transform({
    transform(chunk, _encoding, done) {
      let start = 0;
      while (start < chunk.length) {
        const newline = chunk.indexOf(NEWLINE, start);
        const end = newline === -1 ? chunk.length : newline;
        const piece = chunk.subarray(start, end);
        if (!dropping && length + piece.length > maxBytes) {
          const whole = Buffer.concat([...parts, piece]);
          dropping = { bytes: whole.length, head: whole.subarray(0, EDGE_BYTES), tail: whole.subarray(Math.max(0, whole.length - EDGE_BYTES)) };
          parts = [];
          length = 0;
        } else if (dropping) {
          dropping.bytes += piece.length;
          dropping.tail = keepTail(dropping.tail, piece);
        } else {
          parts.push(piece);
          length += piece.length;
        }
        if (newline === -1) break;
        if (dropping) {
          const { bytes, head, tail } = dropping;
          dropping = null;
          onOversized({ bytes, id: idOfOversized(head.toString('utf8'), tail.toString('utf8')) });
        } else {
          parts.push(Buffer.from([NEWLINE]));
          this.push(Buffer.concat(parts));
          parts = [];
          length = 0;
        }
        start = newline + 1;
      }
      done();
    },
  });
}
