// A recording HTTP proxy on 127.0.0.1 in front of a real server (PostgREST):
// every request is forwarded unchanged and recorded, so a test can say what
// reached the server, or that nothing did.
import { createServer, request as httpRequest } from 'node:http';

/**
 * Forwards everything to `target` (`http://host:port`). Resolves to
 * `{ url, requests, stop() }`; `requests` is `[{ method, path, authorization, apikey }]`.
 *
 * @example
 * const proxy = await startRecordingProxy(stack.url)
 * // point the worker at proxy.url; afterwards: assert.equal(proxy.requests.length, 0)
 */
export async function startRecordingProxy(target) {
  const { hostname, port } = new URL(target);
  const requests = [];
  const server = createServer((incoming, outgoing) => {
    requests.push({ method: incoming.method, path: incoming.url, authorization: incoming.headers.authorization ?? null, apikey: incoming.headers.apikey ?? null });
    const forwarded = httpRequest({ hostname, port, method: incoming.method, path: incoming.url, headers: incoming.headers }, (answer) => {
      outgoing.writeHead(answer.statusCode, answer.headers);
      answer.pipe(outgoing);
    });
    forwarded.on('error', (error) => {
      if (!outgoing.headersSent) outgoing.writeHead(502, { 'content-type': 'text/plain' });
      outgoing.end(`recording proxy: ${error.message}`);
    });
    incoming.pipe(forwarded);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    requests,
    stop() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}
