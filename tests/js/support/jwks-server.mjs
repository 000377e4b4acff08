// A JWKS endpoint on 127.0.0.1, as a Supabase project serves one at
// /auth/v1/.well-known/jwks.json: the keys can be changed while it runs (key
// rotation) and every fetch is counted.
import { createServer } from 'node:http';

export const JWKS_PATH = '/auth/v1/.well-known/jwks.json';

/**
 * Serves `{ keys }` (public JWKs) at JWKS_PATH; `setKeys(keys)` rotates,
 * `answer({ status, body })` makes the next answers that exact HTTP answer
 * (null: back to the keys); `answer({ streamBytes })` a 200 of that many
 * bytes of JSON, sent chunked (no Content-Length) as the client reads it. Resolves to `{ url, origin, fetches, setKeys, answer, stop() }`;
 * `fetches` counts GETs of the set.
 *
 * @example
 * const jwks = await startJwksServer([key.publicJwk])
 * createTokenVerifier({ jwksUrl: jwks.url })
 */
export async function startJwksServer(keys = []) {
  let current = keys;
  let override = null;
  let fetches = 0;
  let streamed = 0;
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url !== JWKS_PATH) {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"not found"}');
      return;
    }
    fetches += 1;
    if (override?.streamBytes) {
      streamAnswer(response, override.streamBytes, (bytes) => (streamed += bytes));
      return;
    }
    if (override) {
      response.writeHead(override.status, { 'content-type': 'application/json' }).end(typeof override.body === 'string' ? override.body : JSON.stringify(override.body));
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'public, max-age=600' }).end(JSON.stringify({ keys: current }));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  return {
    origin,
    url: `${origin}${JWKS_PATH}`,
    get fetches() {
      return fetches;
    },
    /** Bytes of `answer({ streamBytes })` answers the server got to write before the client stopped reading. */
    get streamed() {
      return streamed;
    },
    setKeys(keys) {
      current = keys;
    },
    answer(http) {
      override = http;
    },
    stop() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

// A 200 of `total` bytes of one JSON object, written chunk by chunk as the
// socket drains (so a client that stops reading stops the writing), with no
// Content-Length: only reading it tells its size.
function streamAnswer(response, total, onWritten) {
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  const open = Buffer.from('{"keys":[],"padding":"');
  response.writeHead(200, { 'content-type': 'application/json' });
  let written = 0;
  let closed = false;
  response.on('close', () => (closed = true));
  const pump = () => {
    while (!closed && written < total) {
      const piece = written === 0 ? open : chunk.subarray(0, Math.min(chunk.length, total - written));
      written += piece.length;
      onWritten(piece.length);
      if (!response.write(piece)) return response.once('drain', pump);
    }
    if (!closed) response.end('"}');
  };
  pump();
}
