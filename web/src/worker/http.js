// HTTP plumbing shared by the routes: JSON and error responses, CORS, and
// reading a size-limited JSON body.

import { modelJson } from '../model-json.js';
import { readStreamAtMost } from '../bounded-read.js';
import { codes } from '../../dist/error-codes.mjs';

const ALLOWED_METHODS = 'GET, POST, DELETE, OPTIONS';
// mcp-*: the MCP transport's session, version, method and name headers (/mcp).
const ALLOWED_HEADERS = 'authorization, content-type, x-client-info, apikey, mcp-session-id, mcp-protocol-version, mcp-method, mcp-name';

/** A JSON response; `headers` are added (CORS goes in through `withCors`). */
export function jsonResponse(status, body, headers = {}) {
  // What the worker answers may reach a model (a tool result): no raw line
  // or paragraph separator in it.
  return new Response(modelJson(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
}

/** `{ error: { code, message, path?, hint? } }` with `status`. */
export function errorResponse(status, { code, message, path, hint }, headers = {}) {
  const error = { code, message, ...(path ? { path } : {}), ...(hint ? { hint } : {}) };
  return jsonResponse(status, { error }, headers);
}

/**
 * The CORS headers for this request's Origin: `*` when every origin is
 * allowed, the origin itself when it is listed, none otherwise (the browser
 * then blocks the response). Tokens travel in Authorization, never cookies,
 * so credentials mode is not needed.
 */
export function corsHeaders(request, allowedOrigins) {
  if (allowedOrigins.includes('*')) return { 'access-control-allow-origin': '*' };
  const origin = request.headers.get('origin');
  const headers = { vary: 'Origin' };
  if (origin && allowedOrigins.includes(origin)) headers['access-control-allow-origin'] = origin;
  return headers;
}

export function isOriginAllowed(request, allowedOrigins) {
  const origin = request.headers.get('origin');
  return allowedOrigins.includes('*') || origin === null || allowedOrigins.includes(origin);
}

/** The answer to an OPTIONS preflight from an allowed origin. */
export function preflightResponse(cors) {
  return new Response(null, {
    status: 204,
    headers: {
      ...cors,
      'access-control-allow-methods': ALLOWED_METHODS,
      'access-control-allow-headers': ALLOWED_HEADERS,
      'access-control-max-age': '86400',
    },
  });
}

/** The response with `headers` added. */
export function withHeaders(response, headers) {
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

/**
 * The request body parsed as a JSON object: `{ data, error }`, error with
 * its HTTP status (415 not JSON, 413 over `maxBytes`, 400 unparsable or not
 * an object). The size is enforced while reading, so a lying or missing
 * Content-Length cannot make the worker buffer more than `maxBytes`.
 */
export async function readJsonObject(request, maxBytes) {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/json\b/i.test(type)) {
    return fail(415, codes.unsupported_media_type, `the body must be JSON (Content-Type: application/json), got ${type || 'none'}`);
  }
  const declared = Number(request.headers.get('content-length'));
  if (declared > maxBytes) return tooLarge(maxBytes);
  const bytes = await readAtMost(request.body, maxBytes);
  if (bytes === null) return tooLarge(maxBytes);
  let value;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (cause) {
    return fail(400, codes.invalid_json, `the body is not valid JSON: ${cause.message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return fail(400, codes.invalid_body, 'the body must be a JSON object');
  return { data: value, error: null };
}

// The body's bytes, or null once more than `maxBytes` arrive.
async function readAtMost(body, maxBytes) {
  if (!body) return new Uint8Array(0);
  return readStreamAtMost(body, maxBytes, (reader, length) => discardRest(reader, maxBytes * DISCARD_FACTOR - length));
}

// An oversized body is read on (not kept) up to this many times the limit,
// so a client still sending it gets to read the 413; workerd cuts the
// connection of a request whose body is left half-read. Past that, cancel.
const DISCARD_FACTOR = 16;

async function discardRest(reader, budget) {
  for (let left = budget; left > 0; ) {
    const { value, done } = await reader.read();
    if (done) return;
    left -= value.byteLength;
  }
  await reader.cancel();
}

const tooLarge = (maxBytes) => fail(413, codes.body_too_large, `the body is larger than ${maxBytes} bytes`);

function fail(status, code, message, path) {
  return { data: null, error: { status, code, message, path } };
}

/** A `{ status, code, message, path }` validation failure. */
export const invalid = (path, message, code = codes.invalid_body) => ({ status: 400, code, message, path });
