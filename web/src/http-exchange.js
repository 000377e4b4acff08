// One HTTP need of the executor, performed with any fetch, and reported as
// what the core reads: `{ status, contentRange, contentType, body, failure }`.
// Never throws, except with the caller's abort reason. `failure` names how
// the exchange ended when it did not end with a whole response (the core's
// transport_failure, core/include/alfred/executor/executor.h):
//   ''                a whole response
//   'not_sent'        the request never left (connection refused, no such host)
//   'no_response'     fetch failed in a way that does not prove nothing was sent
//   'timeout'         no whole response in time (a fetch or a body that
//                     ignores the abort signal included: the timer is raced)
//   'body_incomplete' the body broke off after the status arrived
//   'too_large'       Content-Length or the bytes read passed maxResponseBytes
//   'not_a_response'  fetch resolved to something that is not a Response
// With a failure, `body` holds the reason as text.

import { concat } from './bounded-read.js';

const encoder = new TextEncoder();

// Error codes (Node's undici, in `cause` chains) that prove the connection
// was never made, so nothing reached the server.
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'ENETUNREACH', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

function errorCodes(cause, out = [], depth = 0) {
  if (!cause || typeof cause !== 'object' || depth > 5) return out;
  if (typeof cause.code === 'string') out.push(cause.code);
  if (Array.isArray(cause.errors)) for (const inner of cause.errors) errorCodes(inner, out, depth + 1);
  errorCodes(cause.cause, out, depth + 1);
  return out;
}

function neverSent(cause) {
  const codes = errorCodes(cause);
  return codes.length > 0 && codes.every((code) => NOT_SENT_CODES.has(code));
}

function reasonOf(cause) {
  const message = String(cause?.message ?? cause);
  const codes = errorCodes(cause?.cause);
  const text = codes.length > 0 && !message.includes(codes[0]) ? `${message} (${codes.join(', ')})` : message;
  return text.slice(0, 300);
}

function failed(failure, reason, status = 0, headers = {}) {
  return { status, contentRange: headers.contentRange ?? '', contentType: headers.contentType ?? '', body: encoder.encode(reason), failure };
}

function isResponse(value) {
  return (
    value !== null &&
    typeof value === 'object' &&
    Number.isInteger(value.status) &&
    value.status >= 100 &&
    value.status <= 599 &&
    value.headers !== null &&
    typeof value.headers?.get === 'function'
  );
}

function describe(value) {
  if (value === null) return 'null';
  if (typeof value !== 'object') return typeof value;
  return `an object without an HTTP status and headers (${Object.keys(value).slice(0, 5).join(', ') || 'no keys'})`;
}

function header(response, name) {
  try {
    const value = response.headers.get(name);
    return typeof value === 'string' ? value : '';
  } catch {
    return '';
  }
}

function mebibytes(bytes) {
  return bytes % 1048576 === 0 ? `${bytes / 1048576} MiB` : `${bytes} bytes`;
}

function bytesOf(chunk) {
  if (chunk instanceof Uint8Array) return chunk;
  if (chunk instanceof ArrayBuffer) return new Uint8Array(chunk);
  if (ArrayBuffer.isView(chunk)) return new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  if (typeof chunk === 'string') return encoder.encode(chunk);
  throw new TypeError('the response body stream gave something other than bytes');
}

// The body, read chunk by chunk so the limit holds before everything
// arrived: `{ bytes }`, `{ tooLarge: bytesSoFar }` or `{ broken: cause }`.
// `track(cancel)` lets the caller stop a read that outlives its timer.
async function readBody(response, maxBytes, track) {
  const stream = response.body;
  if (stream && typeof stream.getReader === 'function') {
    let reader;
    try {
      reader = stream.getReader();
    } catch (cause) {
      return { broken: cause };
    }
    track(() => reader.cancel().catch(() => {}));
    const chunks = [];
    let total = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        const bytes = bytesOf(value);
        total += bytes.byteLength;
        if (total > maxBytes) {
          reader.cancel().catch(() => {});
          return { tooLarge: total };
        }
        chunks.push(bytes);
      }
    } catch (cause) {
      return { broken: cause };
    }
    return { bytes: concat(chunks, total) };
  }
  try {
    // A fetch without streams (or a Response whose body is null: 204).
    if (stream === null || stream === undefined) {
      if (typeof response.arrayBuffer !== 'function') return { bytes: new Uint8Array(0) };
    }
    if (typeof response.arrayBuffer === 'function') {
      const bytes = bytesOf(await response.arrayBuffer());
      return bytes.byteLength > maxBytes ? { tooLarge: bytes.byteLength } : { bytes };
    }
    if (typeof response.text === 'function') {
      const bytes = encoder.encode(await response.text());
      return bytes.byteLength > maxBytes ? { tooLarge: bytes.byteLength } : { bytes };
    }
  } catch (cause) {
    return { broken: cause };
  }
  return { broken: new TypeError('the response has no readable body') };
}

const TIMED_OUT = Symbol('timed out');
const CANCELLED = Symbol('cancelled');

/**
 * Performs `need` (`{ method, url, headers, body }`) with `fetchImpl`.
 * Options: `signal` (the caller's; its abort rejects with its reason),
 * `timeoutMs` (for the whole exchange, body included), `maxResponseBytes`.
 *
 * @example
 * const response = await httpExchange(fetch, need, { timeoutMs: 30_000, maxResponseBytes: 8 << 20 })
 * // { status: 200, contentRange: '0-9/10', contentType: 'application/json', body: Uint8Array, failure: '' }
 */
export async function httpExchange(fetchImpl, need, { signal, timeoutMs, maxResponseBytes }) {
  signal?.throwIfAborted();
  const exchange = openExchange(signal, timeoutMs);
  try {
    const outcome = await exchange.race(startFetch(fetchImpl, need, exchange));
    if (outcome === CANCELLED) exchange.cancelled();
    if (outcome === TIMED_OUT) {
      exchange.stop(new DOMException(`no response within ${timeoutMs} ms`, 'TimeoutError'));
      return failed('timeout', `no response within ${timeoutMs} ms`);
    }
    if ('cause' in outcome) {
      if (signal?.aborted) exchange.cancelled();
      return failed(neverSent(outcome.cause) ? 'not_sent' : 'no_response', reasonOf(outcome.cause));
    }
    return await receive(exchange, outcome.response, { signal, timeoutMs, maxResponseBytes });
  } finally {
    exchange.close();
  }
}

// One exchange's deadline and cancellation: `race(promise)` settles with the
// promise, or TIMED_OUT after `timeoutMs`, or CANCELLED when `signal` aborts;
// `stop(reason)` aborts the request and the body read (`cancelRead`);
// `cancelled()` stops with the caller's reason and throws it. The abort
// signal handed to fetch is made when fetch first reads it (`signal()`), so a
// fetch that never looks at it costs none; once stopped, it is made aborted.
// The timer is the exchange's own: on Cloudflare Workers a timer belongs to
// the request that set it, and test suites' fake timers replace setTimeout.
function openExchange(signal, timeoutMs) {
  let controller;
  let stopped;
  let timer;
  let onAbort;
  const interrupted = new Promise((resolve) => {
    timer = setTimeout(resolve, Math.min(timeoutMs, MAX_DELAY_MS), TIMED_OUT);
    if (signal) {
      onAbort = () => resolve(CANCELLED);
      signal.addEventListener('abort', onAbort, { once: true });
    }
  });
  const exchange = {
    signal() {
      if (!controller) {
        controller = new AbortController();
        if (stopped) controller.abort(stopped.reason);
      }
      return controller.signal;
    },
    cancelRead: () => {},
    race: (promise) => Promise.race([promise, interrupted]),
    stop(reason) {
      exchange.cancelRead();
      stopped ??= { reason };
      controller?.abort(reason);
    },
    cancelled() {
      exchange.stop(signal.reason);
      throw signal.reason;
    },
    close() {
      clearTimeout(timer);
      if (onAbort) signal.removeEventListener('abort', onAbort);
    },
  };
  return exchange;
}

// setTimeout's longest delay (about 24.8 days); a longer one would fire at once.
const MAX_DELAY_MS = 2 ** 31 - 1;

// The init fetch is given holds its exchange (not enumerable); its `signal`
// is a getter that makes the signal when read (by fetch, or by a spread copy
// of the init), and a setter that makes it a plain value (a wrapper that puts
// its own signal there). One descriptor for every init, not closures per call.
const EXCHANGE = Symbol('exchange');
const LAZY_SIGNAL = {
  enumerable: true,
  configurable: true,
  get() {
    return this[EXCHANGE].signal();
  },
  set(value) {
    Object.defineProperty(this, 'signal', { value, writable: true, enumerable: true, configurable: true });
  },
};

// fetch's outcome as `{ response }` or `{ cause }`. A fetch that ignores the
// signal settles later, or never: nobody waits for it past the race.
function startFetch(fetchImpl, need, exchange) {
  let pending;
  try {
    const init = { method: need.method, headers: need.headers, body: need.body ?? undefined };
    Object.defineProperty(init, EXCHANGE, { value: exchange });
    Object.defineProperty(init, 'signal', LAZY_SIGNAL);
    pending = Promise.resolve(fetchImpl(need.url, init));
  } catch (cause) {
    pending = Promise.reject(cause);
  }
  return pending.then(
    (response) => ({ response }),
    (cause) => ({ cause }),
  );
}

// The response's status, headers and body, the body within
// `maxResponseBytes` and the exchange's deadline.
async function receive(exchange, response, { signal, timeoutMs, maxResponseBytes }) {
  if (!isResponse(response)) return failed('not_a_response', `fetch returned ${describe(response)}`);
  const status = response.status;
  const headers = { contentRange: header(response, 'content-range'), contentType: header(response, 'content-type') };
  const declared = header(response, 'content-length');
  if (/^\d+$/.test(declared) && Number(declared) > maxResponseBytes) {
    exchange.stop(new DOMException('response too large', 'AbortError'));
    try {
      response.body?.cancel?.().catch?.(() => {});
    } catch {}
    return failed('too_large', `Content-Length ${declared} bytes, over ${mebibytes(maxResponseBytes)}`, status, headers);
  }
  const read = await exchange.race(readBody(response, maxResponseBytes, (cancel) => (exchange.cancelRead = cancel)));
  if (read === CANCELLED) exchange.cancelled();
  if (read === TIMED_OUT) {
    exchange.stop(new DOMException(`body not complete within ${timeoutMs} ms`, 'TimeoutError'));
    return failed('timeout', `the body did not arrive within ${timeoutMs} ms`, status, headers);
  }
  if (read.tooLarge !== undefined) {
    exchange.stop(new DOMException('response too large', 'AbortError'));
    return failed('too_large', `more than ${mebibytes(maxResponseBytes)} of body`, status, headers);
  }
  if (read.broken !== undefined) {
    if (signal?.aborted) exchange.cancelled();
    return failed('body_incomplete', reasonOf(read.broken), status, headers);
  }
  // `server` names a PostgREST's version (postgrest/12.0.2): the act learns
  // from it what the server supports (act/faults.js: learnServer).
  return { status, ...headers, body: read.bytes, failure: '', server: header(response, 'server') };
}
