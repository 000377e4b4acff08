// The chat-completions driver against a real HTTP server on 127.0.0.1 that
// replays scripted answers: request shape per response format, retries with
// Retry-After, timeouts, cancellation and every bad-response case.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { LlmError, createChatModel, modelConfigFromEnv } from '../../web/src/llm/index.js';
import { startScriptedModel } from './support/scripted-model.mjs';

const MESSAGES = [
  { role: 'system', content: 'Answer in JSON.' },
  { role: 'user', content: 'Read the fridge.' },
];
const SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['action'],
  properties: { action: { type: 'string' } },
};

async function withModel(script, options, run) {
  const server = await startScriptedModel(script);
  try {
    const model = createChatModel({ baseUrl: server.baseUrl, apiKey: 'sk-test', model: 'gpt-test', retryDelayMs: 20, ...options });
    await run(model, server);
  } finally {
    await server.stop();
  }
}

const rejectsWith = (promise, fields) =>
  assert.rejects(promise, (error) => {
    assert.ok(error instanceof LlmError, `expected LlmError, got ${error}`);
    for (const [key, value] of Object.entries(fields)) assert.deepEqual(error[key], value, key);
    return true;
  });

test('a decision comes back as content, with usage and finish reason; the request is an OpenAI json_schema request', async () => {
  await withModel([{ action: 'step_complete' }], {}, async (model, server) => {
    const result = await model.complete({ messages: MESSAGES, schema: SCHEMA, schemaName: 'act_decision', temperature: 0 });
    assert.equal(result.content, '{"action":"step_complete"}');
    assert.equal(result.finishReason, 'stop');
    assert.equal(typeof result.usage.total_tokens, 'number');
    assert.equal(model.model, 'gpt-test');
    const [request] = server.requests;
    assert.equal(request.method, 'POST');
    assert.equal(request.path, '/v1/chat/completions');
    assert.equal(request.headers.authorization, 'Bearer sk-test');
    assert.equal(request.headers['content-type'], 'application/json');
    assert.deepEqual(request.body, {
      model: 'gpt-test',
      messages: MESSAGES,
      temperature: 0,
      response_format: { type: 'json_schema', json_schema: { name: 'act_decision', strict: true, schema: SCHEMA } },
    });
  });
});

test('json_object and none modes for local servers; no schema means no response_format; no key means no Authorization', async () => {
  await withModel(['{"action":"x"}', '{"action":"y"}', 'plain text'], { apiKey: undefined }, async (_, server) => {
    const jsonObject = createChatModel({ baseUrl: `${server.baseUrl}/`, model: 'llama', responseFormat: 'json_object' });
    const none = createChatModel({ baseUrl: server.baseUrl, model: 'llama', responseFormat: 'none', headers: { 'x-extra': '1' } });
    await jsonObject.complete({ messages: MESSAGES, schema: SCHEMA });
    await none.complete({ messages: MESSAGES, schema: SCHEMA });
    assert.equal((await jsonObject.complete({ messages: MESSAGES })).content, 'plain text');
    const [object, plain, noSchema] = server.requests;
    assert.equal(object.path, '/v1/chat/completions');
    assert.deepEqual(object.body.response_format, { type: 'json_object' });
    assert.equal(object.headers.authorization, undefined);
    assert.equal('response_format' in plain.body, false);
    assert.equal(plain.headers['x-extra'], '1');
    assert.equal('response_format' in noSchema.body, false);
    assert.equal('temperature' in noSchema.body, false);
  });
});

test('429 with Retry-After in seconds: waits that long, then succeeds', async () => {
  const limited = { status: 429, headers: { 'retry-after': '1' }, body: { error: { message: 'Rate limit reached for gpt-test' } } };
  await withModel([limited, { action: 'ok' }], {}, async (model, server) => {
    const started = Date.now();
    const { content } = await model.complete({ messages: MESSAGES });
    assert.equal(content, '{"action":"ok"}');
    assert.ok(Date.now() - started >= 950, `waited ${Date.now() - started} ms`);
    assert.equal(server.requests.length, 2);
  });
});

test('429 until the retries run out: rate_limited with retryAfterMs and the provider message', async () => {
  const limited = { status: 429, headers: { 'retry-after-ms': '30' }, body: { error: { message: 'slow down' } } };
  await withModel([limited, limited, limited], { maxRetries: 2 }, async (model, server) => {
    await rejectsWith(model.complete({ messages: MESSAGES }), { code: 'rate_limited', status: 429, retryAfterMs: 30, providerMessage: 'slow down' });
    assert.equal(server.requests.length, 3);
  });
});

test('a Retry-After longer than the driver will wait is returned at once', async () => {
  const limited = { status: 429, headers: { 'retry-after': '3600' }, body: { error: { message: 'quota' } } };
  await withModel([limited], {}, async (model, server) => {
    await rejectsWith(model.complete({ messages: MESSAGES }), { code: 'rate_limited', retryAfterMs: 3_600_000 });
    assert.equal(server.requests.length, 1);
  });
});

test('500s: retried maxRetries times, then http_error with status and provider message', async () => {
  const failing = { status: 500, body: { error: { message: 'The server had an error' } } };
  await withModel([failing, failing, failing, { action: 'never' }], { maxRetries: 2 }, async (model, server) => {
    await rejectsWith(model.complete({ messages: MESSAGES }), { code: 'http_error', status: 500, providerMessage: 'The server had an error' });
    assert.equal(server.requests.length, 3);
  });
});

test('a 503 with Retry-After then success recovers; a 400 is not retried and keeps the text body', async () => {
  const busy = { status: 503, headers: { 'retry-after': '1' }, body: 'upstream busy' };
  await withModel([busy, { action: 'ok' }, { status: 400, body: 'bad model name' }], {}, async (model, server) => {
    const started = Date.now();
    assert.equal((await model.complete({ messages: MESSAGES })).content, '{"action":"ok"}');
    assert.ok(Date.now() - started >= 950, 'the 503 Retry-After was honoured');
    await rejectsWith(model.complete({ messages: MESSAGES }), { code: 'http_error', status: 400, providerMessage: 'bad model name' });
    assert.equal(server.requests.length, 3);
  });
});

test('an exhausted script is a 500 that names itself', async () => {
  await withModel([], { maxRetries: 0 }, async (model) => {
    await assert.rejects(model.complete({ messages: MESSAGES }), /script exhausted/);
  });
});

test('no answer within timeoutMs: timeout, not retried', async () => {
  await withModel([{ delayMs: 30_000, then: { action: 'late' } }], { timeoutMs: 150 }, async (model, server) => {
    await rejectsWith(model.complete({ messages: MESSAGES }), { code: 'timeout', message: `no answer from ${server.baseUrl}/chat/completions within 150 ms` });
    // The driver hung up on the request instead of waiting for its answer.
    assert.equal(await server.untilHungUp(), server.requests[0]);
    assert.equal(server.requests.length, 1);
  });
});

// A wait that the abort did not cut short runs into the test's time limit:
// the slow answer and the Retry-After (under the driver's 30 s cap) are
// longer than it.
test("the caller's AbortSignal: during the request, before it, and during a retry wait", { timeout: 20_000 }, async () => {
  const slow = { delayMs: 30_000, then: { action: 'late' } };
  const limited = { status: 429, headers: { 'retry-after': '29' }, body: { error: { message: 'wait' } } };
  await withModel([slow], {}, async (model, server) => {
    await rejectsWith(model.complete({ messages: MESSAGES, signal: AbortSignal.timeout(100) }), { code: 'aborted' });
    assert.equal(await server.untilHungUp(), server.requests[0], 'the request was dropped');
    const already = new AbortController();
    already.abort();
    await rejectsWith(model.complete({ messages: MESSAGES, signal: already.signal }), { code: 'aborted' });
    assert.equal(server.requests.length, 1);
    assert.equal(server.requests.length, 1);
  });
  // The abort comes once the driver has read the 429, so it lands in the wait.
  await withModel([limited], {}, async (_, server) => {
    const controller = new AbortController();
    let readLimited = false;
    const fetchThenAbort = async (url, init) => {
      const response = await fetch(url, init);
      const text = () =>
        Response.prototype.text.call(response).then((body) => {
          readLimited = true;
          setImmediate(() => controller.abort());
          return body;
        });
      return Object.assign(response, { text });
    };
    const model = createChatModel({ baseUrl: server.baseUrl, apiKey: 'sk-test', model: 'gpt-test', fetch: fetchThenAbort });
    await rejectsWith(model.complete({ messages: MESSAGES, signal: controller.signal }), { code: 'aborted' });
    assert.ok(readLimited, 'the 429 was read before the abort');
    assert.equal(server.requests.length, 1, 'aborted in the retry wait, before a second try');
  });
});

test('bad responses: not JSON, no choices, a refusal, no content', async () => {
  const refusal = { choices: [{ message: { role: 'assistant', content: null, refusal: "I can't help with that." }, finish_reason: 'stop' }] };
  const empty = { choices: [{ message: { role: 'assistant', content: null }, finish_reason: 'length' }] };
  const script = [{ status: 200, body: '<html>proxy error</html>' }, { status: 200, body: { object: 'chat.completion' } }, { status: 200, body: refusal }, { status: 200, body: empty }];
  await withModel(script, {}, async (model, server) => {
    await rejectsWith(model.complete({ messages: MESSAGES }), { code: 'bad_response' });
    await assert.rejects(model.complete({ messages: MESSAGES }), /no choices/);
    await assert.rejects(model.complete({ messages: MESSAGES }), /refused: I can't help/);
    await assert.rejects(model.complete({ messages: MESSAGES }), /no content \(finish_reason: length\)/);
    assert.equal(server.requests.length, 4, 'bad responses are not retried');
  });
});

test('content given as text parts is joined', async () => {
  const parts = { choices: [{ message: { role: 'assistant', content: [{ type: 'text', text: '{"a":' }, { type: 'text', text: '1}' }] }, finish_reason: 'stop' }] };
  await withModel([{ status: 200, body: parts }], {}, async (model) => {
    const result = await model.complete({ messages: MESSAGES });
    assert.deepEqual(result, { content: '{"a":1}', usage: null, finishReason: 'stop' });
  });
});

test('nothing listening: network_error after the retries', async () => {
  const closed = createServer();
  await new Promise((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const { port } = closed.address();
  await new Promise((resolve) => closed.close(resolve));
  const model = createChatModel({ baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm', retryDelayMs: 10, maxRetries: 1 });
  await rejectsWith(model.complete({ messages: MESSAGES }), { code: 'network_error', status: null });
});

test('bad options and arguments are programming errors (TypeError), not LlmError', async () => {
  assert.throws(() => createChatModel({ model: 'm' }), TypeError);
  assert.throws(() => createChatModel({ baseUrl: 'http://x', model: 'm', responseFormat: 'xml' }), TypeError);
  const model = createChatModel({ baseUrl: 'http://127.0.0.1:9/v1', model: 'm' });
  await assert.rejects(model.complete({ messages: [] }), TypeError);
  await assert.rejects(model.complete({ messages: MESSAGES, schema: SCHEMA, schemaName: 'has space' }), TypeError);
});

test('modelConfigFromEnv: null when unset, OpenAI defaults, a local base URL needs no key', () => {
  assert.equal(modelConfigFromEnv({}), null);
  assert.equal(modelConfigFromEnv({ ALFRED_LLM_MODEL: 'x' }), null);
  assert.deepEqual(modelConfigFromEnv({ OPENAI_API_KEY: 'sk-1' }), { baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-1', model: 'gpt-4o-mini' });
  assert.deepEqual(
    modelConfigFromEnv({ OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1', ALFRED_LLM_MODEL: 'qwen2.5', ALFRED_LLM_RESPONSE_FORMAT: 'json_object' }),
    { baseUrl: 'http://127.0.0.1:11434/v1', apiKey: undefined, model: 'qwen2.5', responseFormat: 'json_object' },
  );
});

test('createChatModel(null), as modelConfigFromEnv returns without a key or URL, is a TypeError that says so', () => {
  assert.throws(() => createChatModel(null), {
    name: 'TypeError',
    message:
      'createChatModel: options must be an object with baseUrl and model, got null' +
      ' (modelConfigFromEnv returns null when neither OPENAI_API_KEY nor OPENAI_BASE_URL is set)',
  });
  assert.throws(() => createChatModel(modelConfigFromEnv({})), /modelConfigFromEnv returns null/);
  assert.throws(() => createChatModel(), { name: 'TypeError', message: 'createChatModel: baseUrl is required' });
});
