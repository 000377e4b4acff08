// The edge worker in workerd when the database's answers go wrong: an HTTP
// server on 127.0.0.1 stands in front of the local stack's PostgREST and
// answers some reads with 100 MB bodies (streamed, with and without
// Content-Length), passing everything else through. The worker must answer
// with the executor's error, and the same isolate must keep serving.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { startWorkerd } from '../../scripts/serve-worker.mjs';
import { startStack } from '../../db/local-stack.mjs';

// Every test has a time bound: a fault that hangs fails the test instead of stalling the suite.
const BOUNDED = { timeout: 120_000 };

const HUGE = 100 << 20;
let stack;
let front;
let worker;
const served = { hugeBytes: 0 };

/** PostgREST behind a server that answers `GET /tasks?…limit=77…` with 100 MB. */
async function startFront(target) {
  const server = createServer(async (request, response) => {
    const url = new URL(request.url, 'http://front');
    if (request.method === 'GET' && url.pathname === '/tasks' && url.searchParams.get('limit') === '77') {
      const declared = url.searchParams.get('offset') === '1';
      response.writeHead(200, { 'content-type': 'application/json', ...(declared ? { 'content-length': String(HUGE) } : {}) });
      const chunk = Buffer.alloc(64 << 10, 0x20);
      let sent = 0;
      const pump = () => {
        while (sent < HUGE && !response.destroyed) {
          sent += chunk.length;
          served.hugeBytes += chunk.length;
          if (!response.write(chunk)) return response.once('drain', pump);
        }
        response.end();
      };
      response.on('close', () => (sent = HUGE));
      return pump();
    }
    const chunks = [];
    for await (const chunk of request) chunks.push(chunk);
    const headers = { ...request.headers };
    delete headers.host;
    delete headers['content-length'];
    const upstream = await fetch(`${target}${request.url}`, { method: request.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
    const body = Buffer.from(await upstream.arrayBuffer());
    response.writeHead(upstream.status, Object.fromEntries([...upstream.headers].filter(([name]) => !['content-length', 'transfer-encoding', 'content-encoding', 'connection'].includes(name))));
    response.end(body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, stop: () => new Promise((resolve) => server.close(resolve)) };
}

before(async () => {
  stack = await startStack();
  front = await startFront(stack.url);
  // The secret lets the worker verify the users' HS256 tokens itself (docs/worker-auth.md).
  worker = await startWorkerd({ env: { SUPABASE_REST_URL: front.url, SUPABASE_ANON_KEY: stack.anonKey, SUPABASE_JWT_SECRET: stack.jwtSecret, ALLOWED_ORIGINS: 'http://app.example.test' } });
});

after(async () => {
  await worker?.stop();
  await front?.stop();
  await stack?.stop();
});

async function execute(body) {
  const ada = stack.users[0];
  const response = await fetch(`${worker.url}/act/execute`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ada.token}` },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

test('workerd: 100 MB answers get response_too_large, and the same isolate keeps serving', BOUNDED, async () => {
  const normal = async () => {
    const { status, body } = await execute({ tool: 'db_read', params: { table: 'inventory', limit: 3 } });
    assert.equal(status, 200);
    assert.equal(body.error, null, JSON.stringify(body.error));
    assert.equal(body.data.length, 3);
    return body;
  };
  await normal();
  for (const round of [0, 1, 2]) {
    for (const offset of [0, 1]) {
      const before = served.hugeBytes;
      const { status, body } = await execute({ tool: 'db_read', params: { table: 'tasks', limit: 77, offset } });
      assert.equal(status, 200, `round ${round}`);
      assert.equal(body.data, null);
      assert.equal(body.error.code, 'response_too_large');
      assert.equal(
        body.error.message,
        offset === 1
          ? 'reading tasks failed: the response is larger than the limit (Content-Length 104857600 bytes, over 8 MiB)'
          : 'reading tasks failed: the response is larger than the limit (more than 8 MiB of body)',
      );
      assert.ok(served.hugeBytes - before < 40 << 20, `the worker stopped reading (${served.hugeBytes - before} bytes sent)`);
      await normal();
    }
  }
  const create = await execute({ tool: 'db_create', params: { table: 'tasks', data: { title: 'after the flood' } } });
  assert.equal(create.body.error, null, JSON.stringify(create.body.error));
  assert.match(create.body.data.id, /^task_\d+$/);
});
