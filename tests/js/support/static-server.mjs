// Serves a directory on 127.0.0.1 at a free port. The same files are also
// served under /octet-stream/ with .wasm as application/octet-stream, the
// type many static hosts send, so the browser entry's fallback is exercised.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
};
const OCTET_PREFIX = '/octet-stream/';

export async function serveDirectory(root) {
  const server = createServer(async (request, response) => {
    let path = decodeURIComponent(new URL(request.url, 'http://localhost').pathname);
    const octet = path.startsWith(OCTET_PREFIX);
    if (octet) path = path.slice(OCTET_PREFIX.length - 1);
    const file = normalize(join(root, path));
    if (!file.startsWith(root + sep)) return response.writeHead(403).end();
    try {
      const body = await readFile(file);
      const type = octet && extname(file) === '.wasm' ? 'application/octet-stream' : TYPES[extname(file)];
      response.writeHead(200, { 'Content-Type': type ?? 'application/octet-stream' }).end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${server.address().port}`,
    // Keep-alive connections of a browser that stays open would hold close() up.
    close: () =>
      new Promise((resolve) => {
        server.close(resolve);
        server.closeAllConnections();
      }),
  };
}
