// scripts/serve-worker.mjs, the starters of workerd and Deno the tests use: the URL is
// the port the runtime itself bound (the kernel's pick as it binds, reported
// by the runtime), so no other process can take it between choosing and
// binding; a port another server holds fails the start and is never taken
// for the worker's.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { startDeno, startWorkerd } from '../../scripts/serve-worker.mjs';

// /health needs no database or model: nothing listens at SUPABASE_URL.
const env = { SUPABASE_URL: 'http://127.0.0.1:9', SUPABASE_ANON_KEY: 'anon', SUPABASE_JWT_SECRET: 'a'.repeat(32) };
const HEALTH = { ok: true, model: false, domain: 'kitchen' };

let decoy;
const decoyRequests = [];
before(async () => {
  decoy = createServer((request, response) => {
    decoyRequests.push(request.url);
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(HEALTH));
  });
  await new Promise((resolve) => decoy.listen(0, '127.0.0.1', resolve));
});
after(() => new Promise((resolve) => decoy.close(resolve)));

async function health(url) {
  const response = await fetch(`${url}/health`);
  return [response.status, await response.json()];
}

test('workerd: each instance on a port the kernel picked as workerd bound it, reported by workerd', { timeout: 60_000 }, async () => {
  const worker = await startWorkerd({ env, durableLimits: true, instances: 2 });
  try {
    assert.equal(worker.urls.length, 2);
    assert.equal(worker.url, worker.urls[0]);
    assert.notEqual(worker.urls[0], worker.urls[1]);
    for (const url of worker.urls) {
      assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.deepEqual(await health(url), [200, HEALTH]);
    }
  } finally {
    await worker.stop();
  }
});

test('Deno: on the port its start-up line reports', { timeout: 60_000 }, async () => {
  const worker = await startDeno({ env });
  try {
    assert.match(worker.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.notEqual(new URL(worker.url).port, '0');
    assert.deepEqual(worker.urls, [worker.url]);
    assert.deepEqual(await health(worker.url), [200, HEALTH]);
    assert.match(worker.output(), new RegExp(`listening on ${worker.url}`));
  } finally {
    await worker.stop();
  }
});

for (const [runtime, start] of [['workerd', startWorkerd], ['deno', startDeno]]) {
  test(`${runtime}: a port another server holds fails the start; that server's /health is not taken for the worker's`, { timeout: 60_000 }, async () => {
    const port = decoy.address().port;
    const before = decoyRequests.length;
    await assert.rejects(start({ env, port }), (error) => {
      assert.match(error.message, /the worker exited before it was ready/);
      assert.match(error.message, /Address already in use|AddrInUse/);
      return true;
    });
    assert.deepEqual(decoyRequests.slice(before), [], 'nothing was sent to the other server');
  });
}
