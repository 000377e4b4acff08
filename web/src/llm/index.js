// The model driver: OpenAI-compatible chat completions over fetch, no SDK.
// The same request works against OpenAI, Ollama, llama.cpp and vLLM; only
// how structured output is asked for differs (`responseFormat`).
import { LlmError } from './error.js';
import { anySignal, backoffMs, isRetryableStatus, retryAfterMs, sleep, timeoutSignal } from './http.js';
import { codes } from '../../dist/error-codes.mjs';

export { LlmError };

const RESPONSE_FORMATS = ['json_schema', 'json_object', 'none'];
// A provider asking for a longer pause than this gets its answer now
// (rate_limited with retryAfterMs) instead of a request that hangs.
const MAX_RETRY_WAIT_MS = 30_000;
const SCHEMA_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * A chat model behind an OpenAI-compatible `/chat/completions` endpoint.
 *
 * `responseFormat` is how a `schema` is enforced: `json_schema` (OpenAI
 * strict structured outputs, also Ollama ≥ 0.5 and llama.cpp), `json_object`
 * (any JSON; the prompt must describe the shape) or `none` (plain text).
 * Each attempt has its own `timeoutMs`; 408/409/429/5xx and network failures
 * are retried `maxRetries` times with backoff, honouring Retry-After.
 *
 * @example
 * const model = createChatModel({ baseUrl: 'https://api.openai.com/v1', apiKey, model: 'gpt-4o-mini' })
 * const { content } = await model.complete({ messages, schema: actDecisionSchema, schemaName: 'act_decision' })
 */
export function createChatModel(options = {}) {
  if (options === null || typeof options !== 'object') {
    throw new TypeError(
      `createChatModel: options must be an object with baseUrl and model, got ${options === null ? 'null' : typeof options}` +
        ' (modelConfigFromEnv returns null when neither OPENAI_API_KEY nor OPENAI_BASE_URL is set)',
    );
  }
  const {
    baseUrl,
    apiKey,
    model,
    fetch = globalThis.fetch,
    timeoutMs = 60_000,
    maxRetries = 2,
    retryDelayMs = 500,
    responseFormat = 'json_schema',
    headers = {},
  } = options;
  if (typeof baseUrl !== 'string' || baseUrl === '') throw new TypeError('createChatModel: baseUrl is required');
  if (typeof model !== 'string' || model === '') throw new TypeError('createChatModel: model is required');
  if (typeof fetch !== 'function') throw new TypeError('createChatModel: no fetch in this runtime; pass one');
  if (!RESPONSE_FORMATS.includes(responseFormat)) {
    throw new TypeError(`createChatModel: responseFormat must be one of ${RESPONSE_FORMATS.join(', ')}`);
  }
  const url = `${baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const requestHeaders = {
    'content-type': 'application/json',
    ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
    ...headers,
  };

  async function complete({ messages, schema, schemaName = 'response', signal, temperature, tools } = {}) {
    if (!Array.isArray(messages) || messages.length === 0) throw new TypeError('complete: messages must be a non-empty array');
    if (schema && !SCHEMA_NAME.test(schemaName)) throw new TypeError('complete: schemaName must match [A-Za-z0-9_-]{1,64}');
    if (tools !== undefined && !Array.isArray(tools)) throw new TypeError('complete: tools must be an array of function tools');
    const withTools = Array.isArray(tools) && tools.length > 0;
    const body = JSON.stringify({
      model,
      messages,
      ...(temperature === undefined ? {} : { temperature }),
      ...(withTools ? { tools } : {}),
      ...responseFormatField(responseFormat, schema, schemaName),
    });
    for (let attempt = 0; ; attempt += 1) {
      const outcome = await attemptOnce({ fetch, url, headers: requestHeaders, body, signal, timeoutMs, withTools });
      if (outcome.result) return outcome.result;
      const { error } = outcome;
      const wait = error.retryAfterMs ?? backoffMs(attempt, retryDelayMs);
      if (!outcome.retryable || attempt >= maxRetries || wait > MAX_RETRY_WAIT_MS) throw error;
      try {
        await sleep(wait, signal);
      } catch (cause) {
        throw abortedError(cause);
      }
    }
  }

  return { model, complete };
}

function responseFormatField(mode, schema, name) {
  if (!schema || mode === 'none') return {};
  if (mode === 'json_object') return { response_format: { type: 'json_object' } };
  return { response_format: { type: 'json_schema', json_schema: { name, strict: true, schema } } };
}

// One HTTP exchange → { result } or { error, retryable }. Never throws.
async function attemptOnce({ fetch, url, headers, body, signal, timeoutMs, withTools }) {
  if (signal?.aborted) return { error: abortedError(signal.reason), retryable: false };
  const timeout = timeoutSignal(timeoutMs);
  let response;
  let text;
  try {
    response = await fetch(url, { method: 'POST', headers, body, signal: anySignal([signal, timeout]) });
    text = await response.text();
  } catch (cause) {
    if (signal?.aborted) return { error: abortedError(signal.reason), retryable: false };
    if (timeout.aborted) {
      return { error: new LlmError({ code: codes.timeout, message: `no answer from ${url} within ${timeoutMs} ms`, cause }), retryable: false };
    }
    const message = `could not reach ${url}: ${cause?.cause?.message ?? cause?.message ?? cause}`;
    return { error: new LlmError({ code: codes.network_error, message, cause }), retryable: true };
  }
  if (!response.ok) return { error: httpError(response, text), retryable: isRetryableStatus(response.status) };
  return readCompletion(text, withTools);
}

function abortedError(reason) {
  return new LlmError({ code: codes.aborted, message: 'the model call was cancelled', cause: reason });
}

function httpError(response, text) {
  const providerMessage = providerMessageOf(text);
  const { status } = response;
  // 503s may carry Retry-After too; it is honoured for every retried status.
  const wait = retryAfterMs(response.headers);
  if (status === 429) {
    const after = wait === null ? '' : `; retry after ${wait} ms`;
    return new LlmError({ code: codes.rate_limited, status, retryAfterMs: wait, providerMessage, message: `rate limited (429)${after}: ${providerMessage}` });
  }
  return new LlmError({ code: codes.http_error, status, retryAfterMs: wait, providerMessage, message: `HTTP ${status} from the model endpoint: ${providerMessage}` });
}

// OpenAI and most compatible servers send { error: { message } }; some send
// { error: "text" } or plain text.
function providerMessageOf(text) {
  try {
    const parsed = JSON.parse(text);
    const error = parsed?.error ?? parsed;
    if (typeof error === 'string') return error;
    if (typeof error?.message === 'string') return error.message;
  } catch {}
  return text.slice(0, 500) || '(empty body)';
}

// With `tools` sent, an answer may be tool calls instead of content: they
// come back as `toolCalls` ({ id, name, arguments } with `arguments` the
// JSON text the model wrote) and `message`, the assistant message to put
// back into the conversation before the tool results.
function readCompletion(text, withTools = false) {
  const bad = (message) => ({ error: new LlmError({ code: codes.bad_response, message }), retryable: false });
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch {
    return bad(`the model endpoint answered with a body that is not JSON: ${text.slice(0, 200)}`);
  }
  const choice = parsed?.choices?.[0];
  if (!choice || typeof choice !== 'object') return bad('the completion has no choices');
  const message = choice.message ?? {};
  if (typeof message.refusal === 'string' && message.refusal !== '') return bad(`the model refused: ${message.refusal}`);
  const content = contentText(message.content);
  if (withTools && Array.isArray(message.tool_calls) && message.tool_calls.length > 0) {
    const toolCalls = message.tool_calls.map((call) => ({
      id: String(call?.id ?? ''),
      name: String(call?.function?.name ?? ''),
      arguments: typeof call?.function?.arguments === 'string' ? call.function.arguments : JSON.stringify(call?.function?.arguments ?? null),
    }));
    const assistant = {
      role: 'assistant',
      content: content === '' ? null : content,
      tool_calls: toolCalls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } })),
    };
    return { result: { content, toolCalls, message: assistant, usage: parsed.usage ?? null, finishReason: choice.finish_reason ?? null } };
  }
  if (content === '') return bad(`the completion has no content (finish_reason: ${choice.finish_reason ?? 'none'})`);
  return { result: { content, usage: parsed.usage ?? null, finishReason: choice.finish_reason ?? null } };
}

// Content is a string, or (some servers) an array of { type: 'text', text } parts.
function contentText(content) {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => (typeof part?.text === 'string' ? part.text : '')).join('');
  return '';
}

/**
 * The model configuration from environment variables, or `null` when none
 * is set: `OPENAI_API_KEY`, `OPENAI_BASE_URL` (default
 * https://api.openai.com/v1; a local server needs no key),
 * `ALFRED_LLM_MODEL` (default gpt-4o-mini) and `ALFRED_LLM_RESPONSE_FORMAT`.
 *
 * @example
 * const config = modelConfigFromEnv(process.env) // or a Worker's env
 * const model = config && createChatModel(config)
 */
export function modelConfigFromEnv(env = {}) {
  const apiKey = env.OPENAI_API_KEY || undefined;
  const baseUrl = env.OPENAI_BASE_URL || undefined;
  if (!apiKey && !baseUrl) return null;
  const config = {
    baseUrl: baseUrl ?? 'https://api.openai.com/v1',
    apiKey,
    model: env.ALFRED_LLM_MODEL || 'gpt-4o-mini',
  };
  if (env.ALFRED_LLM_RESPONSE_FORMAT) config.responseFormat = env.ALFRED_LLM_RESPONSE_FORMAT;
  return config;
}
