// Server-sent events: the Act loop's progress as it happens.

import { codes } from '../../dist/error-codes.mjs';

const encoder = new TextEncoder();

/** One SSE frame: `event: <type>` and the event as JSON on one data line. */
export function sseFrame(event) {
  return encoder.encode(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
}

/** An SSE comment: clients ignore it; writing it is how a hang-up is noticed. */
const HEARTBEAT = encoder.encode(': keep-alive\n\n');
const HEARTBEAT_MS = 1_000;

export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-store',
  // Proxies such as nginx would otherwise hold events back in a buffer.
  'x-accel-buffering': 'no',
};

/**
 * A byte stream of `run(send, signal)`'s events. `run` resolves when it has
 * nothing more to send; the stream closes then. A client that disconnects
 * cancels the stream, which aborts `signal`; `run` should still finish (and
 * release what it holds) on its own. Returns `{ stream, done }`, `done`
 * settling when `run` has finished.
 *
 * While `run` waits (a model call takes seconds), a comment frame goes out
 * every `heartbeatMs`: workerd notices a client that hung up only when it
 * writes to the connection (its request.signal and the stream's cancel fire
 * then), so without it a turn would run on until its next event, spending a
 * model answer and a tool call for nobody. It also keeps proxies from closing
 * an idle stream.
 */
export function eventStream(run, { heartbeatMs = HEARTBEAT_MS } = {}) {
  const abort = new AbortController();
  let controller;
  let open = true;
  const stream = new ReadableStream({
    start(streamController) {
      controller = streamController;
    },
    cancel(reason) {
      open = false;
      abort.abort(reason ?? new DOMException('the client disconnected', 'AbortError'));
    },
  });
  const send = (event) => {
    if (open) controller.enqueue(sseFrame(event));
  };
  const heartbeat = setInterval(() => {
    if (open) controller.enqueue(HEARTBEAT);
  }, heartbeatMs);
  const done = (async () => {
    try {
      await run(send, abort.signal);
    } catch (cause) {
      // The loop reports its failures as events; reaching here is a bug,
      // still told to the client rather than cutting the stream silently.
      send({ type: 'error', error: { code: codes.internal_error, message: String(cause?.message ?? cause) } });
    } finally {
      clearInterval(heartbeat);
      if (open) controller.close();
      open = false;
    }
  })();
  return { stream, done };
}
