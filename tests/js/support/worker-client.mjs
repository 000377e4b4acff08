// Talking to a running edge worker (scripts/serve-worker.mjs) over HTTP, as a client
// does: JSON routes, and /act/turn read as server-sent events.
import assert from 'node:assert/strict';

/** POST `body` (JSON, or a string as is) with `token` as the bearer: `{ status, headers, body }`. */
export async function post(worker, path, body, { token, headers = {} } = {}) {
  const response = await fetch(`${worker.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

/**
 * A turn over SSE: `{ status, headers, events }` with every event parsed from
 * the stream in order, or `{ status, headers, body }` when the worker answered
 * with JSON (an error) instead.
 */
export async function turn(worker, body, { token, headers = {} } = {}) {
  const response = await fetch(`${worker.url}/act/turn`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.headers.get('content-type')?.startsWith('text/event-stream')) return { status: response.status, headers: response.headers, body: JSON.parse(text) };
  return { status: response.status, headers: response.headers, events: parseSse(text) };
}

/**
 * The events of a whole SSE body; each frame's `event:` must match its data's
 * type. Comment frames (`: keep-alive`, the worker's heartbeat) are checked
 * and skipped, as an SSE client skips them.
 */
export function parseSse(text) {
  assert.ok(text.endsWith('\n\n'), 'the stream ends after a whole frame');
  return text
    .slice(0, -2)
    .split('\n\n')
    .filter((frame) => {
      if (!frame.startsWith(':')) return true;
      assert.equal(frame, ': keep-alive');
      return false;
    })
    .map((frame) => {
      const fields = Object.fromEntries(frame.split('\n').map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]));
      const event = JSON.parse(fields.data);
      assert.equal(fields.event, event.type);
      return event;
    });
}
