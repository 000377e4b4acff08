// One HTTP exchange (web/src/http-exchange.js) with fetches that answer in
// process: the abort signal fetch is given, made when fetch reads it (or
// replaced by a wrapper); deadlines of exchanges open together, fake timers
// and a timeout past setTimeout's range; a process that has no exchange
// open is not kept alive by it.
import { mock, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { httpExchange } from '../../web/src/http-exchange.js';

const need = { method: 'GET', url: 'http://127.0.0.1:9/rest/v1/notes', headers: { accept: 'application/json' }, body: null };
const ok = () => new Response('[]', { status: 200, headers: { 'content-type': 'application/json', 'content-range': '*/*' } });
const hang = () => new Promise(() => {});
const LIMITS = { maxResponseBytes: 1 << 20 };

test('the signal fetch reads aborts when the exchange times out, in the init and in a spread copy of it', async () => {
  const seen = [];
  const fetch = (url, init) => {
    seen.push(init.signal, { ...init }.signal);
    return hang();
  };
  const response = await httpExchange(fetch, need, { ...LIMITS, timeoutMs: 50 });
  assert.equal(response.failure, 'timeout');
  assert.equal(seen.length, 2);
  assert.ok(seen[0] instanceof AbortSignal);
  assert.equal(seen[0], seen[1], 'one signal per exchange');
  assert.ok(seen[0].aborted);
  assert.equal(seen[0].reason.name, 'TimeoutError');
});

test('a fetch that reads the signal only after the exchange stopped gets it aborted', async () => {
  let late;
  const fetch = (url, init) => {
    late = init;
    return hang();
  };
  const response = await httpExchange(fetch, need, { ...LIMITS, timeoutMs: 30 });
  assert.equal(response.failure, 'timeout');
  assert.ok(late.signal.aborted);
  assert.equal(late.signal.reason.name, 'TimeoutError');
});

test('a fetch that never reads the signal: the exchange ends in time all the same, and the request is what was asked', async () => {
  const requests = [];
  const fetch = (url, { method, headers, body }) => {
    requests.push({ url, method, headers, body });
    return Promise.resolve(ok());
  };
  const response = await httpExchange(fetch, need, { ...LIMITS, timeoutMs: 1000 });
  assert.equal(response.failure, '');
  assert.equal(response.status, 200);
  assert.equal(new TextDecoder().decode(response.body), '[]');
  assert.deepEqual(requests, [{ url: need.url, method: 'GET', headers: need.headers, body: undefined }]);
  assert.equal((await httpExchange(() => hang(), need, { ...LIMITS, timeoutMs: 40 })).failure, 'timeout');
});

test('exchanges open together: each times out on its own, in order, whatever closed before it', async () => {
  const timeoutMs = 120;
  const started = performance.now();
  // Three that answer at once, then hanging ones opened at different times
  // (and one that answers late but in time) with the same timeout.
  for (let i = 0; i < 3; i++) assert.equal((await httpExchange(() => ok(), need, { ...LIMITS, timeoutMs })).failure, '');
  const ended = [];
  const run = (label, fetch) =>
    httpExchange(fetch, need, { ...LIMITS, timeoutMs }).then((response) => {
      ended.push({ label, failure: response.failure, at: performance.now() - started });
    });
  const first = run('first', hang);
  await new Promise((resolve) => setTimeout(resolve, 40));
  const answered = run('answered', () => new Promise((resolve) => setTimeout(() => resolve(ok()), 60)));
  const second = run('second', hang);
  await Promise.all([first, answered, second]);
  assert.deepEqual(
    ended.map(({ label, failure }) => [label, failure]),
    [
      ['answered', ''],
      ['first', 'timeout'],
      ['second', 'timeout'],
    ],
  );
  const [, firstEnd, secondEnd] = ended.map((entry) => entry.at);
  assert.ok(firstEnd >= timeoutMs - 2, `the first timed out at ${firstEnd} ms`);
  assert.ok(secondEnd >= 40 + timeoutMs - 2, `the second timed out at ${secondEnd} ms, ${timeoutMs} ms after it opened`);
});

test('the caller\'s abort rejects with its reason and aborts the request', async () => {
  const controller = new AbortController();
  let signal;
  const fetch = (url, init) => {
    signal = init.signal;
    return hang();
  };
  const pending = httpExchange(fetch, need, { ...LIMITS, timeoutMs: 5000, signal: controller.signal });
  controller.abort(new Error('user left'));
  await assert.rejects(pending, /user left/);
  assert.ok(signal.aborted);
});

test('a fetch wrapper that puts its own signal on the init (AbortSignal.any) is obeyed; the init shows only what fetch takes', async () => {
  const wrapper = new AbortController();
  let seen;
  const fetch = (url, init) => {
    init.signal = AbortSignal.any([init.signal, wrapper.signal]);
    seen = init;
    return new Promise((resolve, reject) => init.signal.addEventListener('abort', () => reject(init.signal.reason)));
  };
  const pending = httpExchange(fetch, need, { ...LIMITS, timeoutMs: 5000 });
  wrapper.abort(new Error('the wrapper gave up'));
  const response = await pending;
  assert.equal(response.failure, 'no_response');
  assert.match(new TextDecoder().decode(response.body), /the wrapper gave up/);
  assert.deepEqual(Object.keys(seen), ['method', 'headers', 'body', 'signal']);
  assert.deepEqual(Object.getOwnPropertySymbols(seen).filter((key) => Object.getOwnPropertyDescriptor(seen, key).enumerable), []);
});

test('fake timers (node:test mock.timers) time an exchange out, and real ones do again after them', async () => {
  mock.timers.enable({ apis: ['setTimeout'] });
  try {
    const pending = httpExchange(() => hang(), need, { ...LIMITS, timeoutMs: 1000 });
    await Promise.resolve();
    mock.timers.tick(1001);
    assert.equal((await pending).failure, 'timeout');
  } finally {
    mock.timers.reset();
  }
  const started = performance.now();
  assert.equal((await httpExchange(() => hang(), need, { ...LIMITS, timeoutMs: 50 })).failure, 'timeout');
  assert.ok(performance.now() - started < 5000);
});

test('a timeout past setTimeout\'s range (about 24.8 days) does not fire at once', async () => {
  const response = await httpExchange(() => new Promise((resolve) => setTimeout(() => resolve(ok()), 30)), need, { ...LIMITS, timeoutMs: 2 ** 40 });
  assert.equal(response.failure, '');
});

test('with no exchange open, the process is not kept alive by the timeout\'s timer', () => {
  const script = `
    import { httpExchange } from ${JSON.stringify(new URL('../../web/src/http-exchange.js', import.meta.url).href)};
    const response = await httpExchange(() => new Response('[]'), { method: 'GET', url: 'http://127.0.0.1:9/', headers: {} }, { timeoutMs: 60000, maxResponseBytes: 1024 });
    console.log(response.failure === '' ? 'done' : response.failure);
  `;
  const started = Date.now();
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(child.stdout.trim(), 'done', child.stderr);
  assert.ok(Date.now() - started < 20_000, 'the process exited without waiting for the 60 s timeout');
});
