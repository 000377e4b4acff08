// A TCP proxy in front of a real server that can lose answers: it forwards
// every request whole (the server really acts on it), and on demand drops the
// server's answer before a byte reaches the client, or cuts it off after the
// headers and a few bytes of body. What a reset connection does to a
// client, produced by a real socket rather than a stand-in response.
import net from 'node:net';

/**
 * `await faultProxy('http://127.0.0.1:3000')` → `{ url, fault(kind, { times, bodyBytes }), answered, close() }`.
 * `fault('drop')`: the next answer is lost (the client sees the connection
 * close); `fault('cut', { bodyBytes: 10 })`: the next answer stops 10 bytes
 * into its body. `times` (default 1) answers are hit, then it passes again.
 * `answered` counts the answers the server began.
 *
 * @example
 * const proxy = await faultProxy(stack.url)
 * proxy.fault('drop')            // the next request reaches PostgREST; its answer does not come back
 */
export async function faultProxy(target) {
  const { hostname, port } = new URL(target);
  let pending = { kind: 'pass', times: 0 };
  const sockets = new Set();
  const state = { answered: 0 };

  const server = net.createServer((client) => {
    const upstream = net.connect(Number(port), hostname);
    sockets.add(client).add(upstream);
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', close);
    upstream.on('error', close);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.end());
    // One request per connection: `Connection: close` goes into the request
    // head, so each answer's fault is decided on a connection of its own.
    let requestHead = Buffer.alloc(0);
    let headSent = false;
    client.on('data', (chunk) => {
      if (headSent) return upstream.write(chunk);
      requestHead = Buffer.concat([requestHead, chunk]);
      const end = requestHead.indexOf('\r\n\r\n');
      if (end < 0) return;
      headSent = true;
      const lines = requestHead.subarray(0, end).toString('latin1').split('\r\n').filter((line) => !/^connection:/i.test(line));
      upstream.write(`${lines.join('\r\n')}\r\nConnection: close\r\n\r\n`, 'latin1');
      upstream.write(requestHead.subarray(end + 4));
    });
    // The fault of this connection's answer, chosen when its first byte arrives.
    let current = null;
    let head = Buffer.alloc(0);
    upstream.on('data', (chunk) => {
      if (current === null) {
        state.answered += 1;
        current = pending.times > 0 ? pending : { kind: 'pass' };
        if (pending.times > 0 && --pending.times === 0) pending = { kind: 'pass', times: 0 };
      }
      if (current.kind === 'pass') return client.write(chunk);
      if (current.kind === 'drop') return close();
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      client.write(head.subarray(0, Math.min(end + 4 + current.bodyBytes, head.length)), () => close());
      current = { kind: 'drop' };
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: proxyPort } = server.address();
  return {
    url: `http://127.0.0.1:${proxyPort}`,
    get answered() {
      return state.answered;
    },
    fault(kind, { times = 1, bodyBytes = 0 } = {}) {
      pending = { kind, times, bodyBytes };
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
