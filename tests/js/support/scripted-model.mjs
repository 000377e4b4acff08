// A real OpenAI-compatible chat-completions server on 127.0.0.1 that answers
// each POST /chat/completions with the next entry of a script:
// - a plain object (a decision): returned as the assistant's JSON content;
// - a string: returned verbatim as the content (malformed JSON, prose);
// - { status, body, headers }: that exact HTTP answer (body objects as JSON);
// - { delayMs, then }: waits, then answers with `then`;
// - a function (requestBody, index) → entry (may be async).
// Every request is recorded; a request past the end of the script gets a 500
// that says so, which the driver retries and the test then sees fail. A
// client that hangs up while a `delayMs` entry waits is recorded in
// `hungUp`, and `untilHungUp` waits for one.
// POST /responses (the Responses API) takes the same script; its entries are
// full HTTP answers (`responsesBody`).
import { createServer } from 'node:http';

const isHttpAnswer = (entry) => entry !== null && typeof entry === 'object' && Number.isInteger(entry.status);
const isDelay = (entry) => entry !== null && typeof entry === 'object' && 'delayMs' in entry && 'then' in entry;

export function completionBody(content, { model = 'scripted', finishReason = 'stop' } = {}) {
  return {
    id: `chatcmpl-scripted-${Math.random().toString(36).slice(2, 10)}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: finishReason }],
    usage: { prompt_tokens: 100, completion_tokens: Math.ceil(content.length / 4), total_tokens: 100 + Math.ceil(content.length / 4) },
  };
}

/**
 * A chat completion whose assistant message makes native tool calls:
 * `calls` is `[{ name, arguments }]`, `arguments` an object (sent as JSON
 * text) or a string sent verbatim (malformed JSON).
 */
export function toolCallsBody(calls, { model = 'scripted' } = {}) {
  const toolCalls = calls.map((call, i) => ({
    id: call.id ?? `call_${Math.random().toString(36).slice(2, 10)}_${i}`,
    type: 'function',
    function: { name: call.name, arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments) },
  }));
  return {
    status: 200,
    body: {
      id: `chatcmpl-scripted-${Math.random().toString(36).slice(2, 10)}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [{ index: 0, message: { role: 'assistant', content: null, refusal: null, tool_calls: toolCalls }, logprobs: null, finish_reason: 'tool_calls' }],
      usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
    },
  };
}

/** A Responses API answer: `output` items (function_call or message). */
export function responsesBody(output, { model = 'scripted' } = {}) {
  return {
    status: 200,
    body: {
      id: `resp_${Math.random().toString(36).slice(2, 10)}`,
      object: 'response',
      created_at: Math.floor(Date.now() / 1000),
      model,
      status: 'completed',
      output,
      usage: { input_tokens: 100, output_tokens: 20, total_tokens: 120 },
    },
  };
}

/** @param {Array} script */
export async function startScriptedModel(script) {
  const requests = [];
  const hungUp = [];
  const hangUpListeners = new Set();
  const onHangUp = (record) => {
    hungUp.push(record);
    for (const listener of hangUpListeners) listener(record);
  };
  let next = 0;
  const server = createServer(async (request, response) => {
    const chunks = [];
    for await (const chunk of request) chunks.push(chunk);
    const text = Buffer.concat(chunks).toString('utf8');
    let body;
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
    const record = { method: request.method, path: request.url, headers: request.headers, body };
    requests.push(record);
    if (request.method !== 'POST' || !(request.url.endsWith('/chat/completions') || request.url.endsWith('/responses'))) {
      return send(response, { status: 404, body: { error: { message: `no route ${request.method} ${request.url}` } } });
    }
    const index = next;
    next += 1;
    const entry = index < script.length ? script[index] : { status: 500, body: { error: { message: `scripted model: script exhausted (${script.length} entries, this is request ${index + 1})` } } };
    try {
      await answer(response, entry, body, index, request, () => onHangUp(record));
    } catch (error) {
      send(response, { status: 500, body: { error: { message: `scripted model: entry ${index} threw: ${error.message}` } } });
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${server.address().port}/v1`,
    requests,
    /** How many script entries were consumed. */
    get used() {
      return next;
    },
    /** The requests (as in `requests`) whose client hung up while a delayed answer waited. */
    hungUp,
    /**
     * Resolves to the first request matching `match(record)` whose client
     * hung up while its delayed answer waited (at once if that happened
     * already); rejects after `timeoutMs` (then the client never hung up).
     */
    untilHungUp(match = () => true, { timeoutMs = 15_000 } = {}) {
      const seen = hungUp.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          hangUpListeners.delete(listener);
          reject(new Error(`scripted model: no matching request was abandoned by its client within ${timeoutMs} ms`));
        }, timeoutMs);
        const listener = (record) => {
          if (!match(record)) return;
          clearTimeout(timer);
          hangUpListeners.delete(listener);
          resolve(record);
        };
        hangUpListeners.add(listener);
      });
    },
    stop() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

async function answer(response, entry, body, index, request, hungUp) {
  if (typeof entry === 'function') return answer(response, await entry(body, index), body, index, request, hungUp);
  if (isDelay(entry)) {
    // A client that gives up (timeout, abort) closes the socket: stop waiting.
    const gaveUp = await new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), entry.delayMs);
      request.socket.once('close', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    if (gaveUp) return hungUp();
    return answer(response, entry.then, body, index, request, hungUp);
  }
  if (isHttpAnswer(entry)) return send(response, entry);
  const content = typeof entry === 'string' ? entry : JSON.stringify(entry);
  send(response, { status: 200, body: completionBody(content, { model: body?.model }) });
}

function send(response, { status, body = '', headers = {} }) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const type = typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json';
  response.writeHead(status, { 'content-type': type, ...headers }).end(text);
}
