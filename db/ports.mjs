// Free TCP ports on the loopback interface, found by letting the kernel pick.
import { createServer } from 'node:net';

/** A port that was free a moment ago (another process may still take it first). */
export function freePort(host = '127.0.0.1') {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen({ host, port: 0, exclusive: true }, () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}
