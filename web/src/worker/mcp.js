// /mcp: the Model Context Protocol over Streamable HTTP, as the caller. The
// handler has verified the bearer token before this runs; tool calls go to
// PostgREST with that same token and the anon key, never a service key.
//
// Two eras on one endpoint, told apart by each message (a dual-era server):
//   2026-07-28 (stateless, mcp-stateless.js): no initialize, no session; the
//          protocol version and client capabilities in every request's
//          `_meta`; confirmations as multi round-trip requests.
//   2025-03-26 … 2025-11-25 (sessions, here): `initialize` opens a session
//          (Mcp-Session-Id in the answer); every other message names it.
//          A session id that is unknown, expired or another user's is 404
//          (the client then starts over); a missing one is 400; an
//          MCP-Protocol-Version this server does not speak is 400.
// Written by hand against the transport's specification rather than with
// the SDK's server, whose session lives in one transport object in memory:
// here each request may reach another isolate, so a session is a record in
// the session store (keyed by user and session id) and every answer is one
// JSON response.
//   POST   one JSON-RPC message. A request → 200 with its JSON-RPC response;
//          a notification or a response → 202.
//   GET    405: this server sends nothing unprompted, so it offers no stream.
//   DELETE with Mcp-Session-Id ends a 2025 session; without one, 405.
import { answerOf, confirmationRequest } from '../mcp/approval.js';
import { callSessionTool, closeSession, findSession, newSessionId, openSession, shownDomain } from '../mcp/session.js';
import { MCP_SERVER_VERSION, SCHEMA_URI, coreDomain, mcpInstructions, mcpResourceList, mcpServerInfo, mcpToolList, schemaDescription } from '../mcp/tools.js';
import { errorResponse, jsonResponse, readJsonObject } from './http.js';
import { handleStatelessMcp, isStatelessMessage } from './mcp-stateless.js';
import { codes } from '../../dist/error-codes.mjs';

export const MCP_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26'];

// JSON-RPC error codes: the standard ones, and the transport's for a
// missing or unknown session.
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;
const BAD_SESSION = -32000;
const SESSION_NOT_FOUND = -32001;

/** The CORS headers /mcp adds: a browser client must be able to read the session id. */
export const MCP_EXPOSED_HEADERS = { 'access-control-expose-headers': 'mcp-session-id, www-authenticate' };

/**
 * Answers one /mcp request for `caller` (`{ accessToken, userId }`, verified).
 * `store` is the session store (alfred-act's MemorySessionStore,
 * SupabaseSessionStore or any with get/put/delete); it also keeps each
 * user's refs for stateless requests. `policy` is the act's policy for /mcp
 * (readOnly, tables, approve, maxAffected: surfacePolicies in policy.js).
 */
export async function handleMcp({ request, core, config, caller, store, headers, policy = {} }) {
  const reply = (status, body, extra = {}) => jsonResponse(status, body, { ...headers, ...extra });
  reply.headers = headers;
  const rpcError = (status, id, code, message, data) => reply(status, { jsonrpc: '2.0', id: id ?? null, error: { code, message, ...(data ? { data } : {}) } });
  const unsupported = (version) =>
    rpcError(400, null, BAD_SESSION, `Bad Request: MCP-Protocol-Version ${version} is not supported`, { code: codes.unsupported_protocol_version, hint: `supported: 2026-07-28, ${MCP_PROTOCOL_VERSIONS.join(', ')}` });

  const version = request.headers.get('mcp-protocol-version');
  const sessionId = request.headers.get('mcp-session-id');
  const served = coreDomain(core);
  const actOptions = { ...(config.restUrl ? { restUrl: config.restUrl } : { url: config.supabaseUrl }), apiKey: config.anonKey, accessToken: caller.accessToken, userId: caller.userId, domain: served, ...policy };
  // What the client is shown: only the allowed tables (ALFRED_TABLES,
  // createHandler({ tables })); the others are named nowhere.
  let domain;
  try {
    domain = shownDomain(core, actOptions);
  } catch (cause) {
    if (cause?.name !== 'AlfredError') throw cause;
    return errorResponse(500, { code: codes.worker_misconfigured, message: cause.message, hint: cause.hint ?? '' }, headers);
  }

  if (request.method === 'DELETE') return endSession({ sessionId, version, store, caller, headers, unsupported, rpcError });
  const accept = request.headers.get('accept') ?? '';
  if (!/application\/json|\*\/\*/i.test(accept)) {
    return rpcError(406, null, BAD_SESSION, 'Not Acceptable: the client must accept application/json', { code: codes.not_acceptable, hint: 'Accept: application/json, text/event-stream' });
  }
  const { message, kind, refused } = await readMessage(request, config, rpcError);
  if (refused) return refused;
  if (isStatelessMessage(request, message, MCP_PROTOCOL_VERSIONS)) {
    return handleStatelessMcp({ request, message, core, config, caller, store, policy, domain, served, legacyVersions: MCP_PROTOCOL_VERSIONS, reply, rpcError });
  }
  if (version !== null && !MCP_PROTOCOL_VERSIONS.includes(version)) return unsupported(version);
  if (kind.isRequest && message.method === 'initialize') return initialize(message, { domain, store, caller, reply, rpcError });

  if (!sessionId) return rpcError(400, message.id, BAD_SESSION, 'Bad Request: Mcp-Session-Id header is required', { code: codes.missing_session_id, hint: 'send initialize first' });
  const { data: session, error } = await findSession({ store, sessionId, caller });
  if (error) return rpcError(500, message.id, INTERNAL_ERROR, error.message, { code: error.code });
  if (!session) return rpcError(404, message.id, SESSION_NOT_FOUND, 'Session not found', { code: codes.session_not_found, hint: 'initialize a new session' });
  if (kind.isResponse) answered(`${caller.userId}\n${sessionId}\n${message.id}`, message);
  if (!kind.isRequest) return new Response(null, { status: 202, headers });
  return sessionRequest(message, { request, core, store, session, sessionId, actOptions, accept, caller, headers, policy, domain, reply, rpcError });
}

// DELETE: ends the caller's 2025 session (2026-07-28 has none).
async function endSession({ sessionId, version, store, caller, headers, unsupported, rpcError }) {
  if (!sessionId) return errorResponse(405, { code: codes.method_not_allowed, message: 'DELETE ends a session (Mcp-Session-Id); MCP 2026-07-28 has none', hint: 'POST one JSON-RPC message' }, { ...headers, allow: 'POST, OPTIONS' });
  if (version !== null && !MCP_PROTOCOL_VERSIONS.includes(version)) return unsupported(version);
  const { data: session, error } = await findSession({ store, sessionId, caller });
  if (error) return rpcError(500, null, INTERNAL_ERROR, error.message, { code: error.code });
  if (!session) return rpcError(404, null, SESSION_NOT_FOUND, 'Session not found', { code: codes.session_not_found });
  const { error: closeError } = await closeSession({ store, sessionId, caller });
  if (closeError) return rpcError(500, null, INTERNAL_ERROR, closeError.message, { code: closeError.code });
  return new Response(null, { status: 204, headers });
}

// The body as one JSON-RPC message and what kind it is, or `refused`: the
// error response for a body that is none.
async function readMessage(request, config, rpcError) {
  const { data: message, error: bodyError } = await readJsonObject(request, config.maxBodyBytes);
  if (bodyError) {
    const code = bodyError.code === codes.invalid_json ? PARSE_ERROR : INVALID_REQUEST;
    const message = bodyError.code === codes.invalid_body ? 'Invalid Request: the body must be one JSON-RPC message (batches are not supported)' : bodyError.message;
    return { refused: rpcError(bodyError.status, null, code, message, { code: bodyError.code }) };
  }
  if (message.jsonrpc !== '2.0') return { refused: rpcError(400, message.id, INVALID_REQUEST, 'Invalid Request: jsonrpc must be "2.0"', { code: codes.invalid_request }) };
  const isRequest = typeof message.method === 'string' && (typeof message.id === 'string' || Number.isInteger(message.id));
  const isNotification = typeof message.method === 'string' && !('id' in message);
  const isResponse = !('method' in message) && (typeof message.id === 'string' || Number.isInteger(message.id)) && ('result' in message || 'error' in message);
  if (!isRequest && !isNotification && !isResponse) {
    return { refused: rpcError(400, null, INVALID_REQUEST, 'Invalid Request: not a JSON-RPC request, notification or response', { code: codes.invalid_request }) };
  }
  return { message, kind: { isRequest, isResponse } };
}

// A request within a session: its method answered.
async function sessionRequest(message, { request, core, store, session, sessionId, actOptions, accept, caller, headers, policy, domain, reply, rpcError }) {
  const params = message.params ?? {};
  const result = (value) => reply(200, { jsonrpc: '2.0', id: message.id, result: value });
  switch (message.method) {
    case 'ping':
      return result({});
    case 'tools/list':
      return result({ tools: mcpToolList(core, domain, { readOnly: policy.readOnly === true }) });
    case 'tools/call': {
      if (typeof params.name !== 'string') return rpcError(200, message.id, INVALID_PARAMS, 'Invalid params: tools/call needs a tool name', { code: codes.invalid_params, path: 'params.name' });
      const call = { core, store, sessionId, actOptions, name: params.name, args: params.arguments, signal: request.signal };
      if (!canConfirm(session, accept)) return result(await callSessionTool(call));
      return confirmingCall({ call, message, caller, sessionId, headers });
    }
    case 'resources/list':
      return result({ resources: mcpResourceList(domain) });
    case 'resources/read': {
      if (params.uri !== SCHEMA_URI) return rpcError(200, message.id, INVALID_PARAMS, `Invalid params: no resource ${params.uri}`, { code: codes.unknown_resource, hint: `resources: ${SCHEMA_URI}` });
      const { data, error: schemaError } = schemaDescription(core, domain);
      if (schemaError) return rpcError(200, message.id, INTERNAL_ERROR, schemaError.message, { code: schemaError.code });
      return result({ contents: [{ uri: SCHEMA_URI, mimeType: 'text/markdown', text: data }] });
    }
    default:
      return rpcError(200, message.id, METHOD_NOT_FOUND, `Method not found: ${message.method}`, { code: codes.method_not_found });
  }
}

// `initialize` opens a session for the caller, naming the domain served: the version the client asked
// for when this server speaks it, else the newest it does.
async function initialize(message, { domain, store, caller, reply, rpcError }) {
  const requested = message.params?.protocolVersion;
  if (typeof requested !== 'string') return rpcError(200, message.id, INVALID_PARAMS, 'Invalid params: initialize needs a protocolVersion', { code: codes.invalid_params, path: 'params.protocolVersion' });
  const protocolVersion = MCP_PROTOCOL_VERSIONS.includes(requested) ? requested : MCP_PROTOCOL_VERSIONS[0];
  const sessionId = newSessionId();
  const clientCapabilities = message.params?.capabilities !== null && typeof message.params?.capabilities === 'object' ? message.params.capabilities : {};
  const { error } = await openSession({ store, sessionId, caller, protocolVersion, clientCapabilities });
  if (error) return rpcError(500, message.id, INTERNAL_ERROR, error.message, { code: error.code });
  const result = { protocolVersion, capabilities: { tools: { listChanged: false }, resources: {} }, serverInfo: mcpServerInfo(domain, MCP_SERVER_VERSION), instructions: mcpInstructions(domain) };
  return reply(200, { jsonrpc: '2.0', id: message.id, result }, { 'mcp-session-id': sessionId });
}

// A 2025 session's confirmations: `elicitation/create` sent on the tools/call
// request's own event stream, answered by the client in a POST of its own.
// The waiting call and that POST meet here, so they must reach the same
// isolate (one isolate, Deno, or a deployment that routes a session to one
// place); an answer that never arrives is no answer after
// CONFIRMATION_TIMEOUT_MS, and nothing is written. 2026-07-28 clients confirm
// by multi round-trip requests instead, which need nothing of the kind.
const CONFIRMATION_TIMEOUT_MS = 5 * 60 * 1000;
const waiting = new Map();
const encoder = new TextEncoder();

// Hands a client's JSON-RPC response to the call waiting for it, if it waits here.
function answered(key, message) {
  const resolve = waiting.get(key);
  if (!resolve) return;
  waiting.delete(key);
  resolve(message);
}

// Whether this session's client can be asked: it declared elicitation at
// initialize and accepts an event stream for the call's answer.
function canConfirm(session, accept) {
  const elicitation = session.clientCapabilities?.elicitation;
  return elicitation !== null && typeof elicitation === 'object' && /text\/event-stream|\*\/\*/i.test(accept);
}

// tools/call answered as an event stream: an `elicitation/create` request
// when the act holds a write for approval, then the call's response.
function confirmingCall({ call, message, caller, sessionId, headers }) {
  let controller;
  const stream = new ReadableStream({
    start(streamController) {
      controller = streamController;
    },
  });
  const send = (payload) => controller.enqueue(encoder.encode(`event: message\ndata: ${JSON.stringify(payload)}\n\n`));
  const confirmation = async (preview) => {
    const id = `alfred-act-confirm-${newSessionId().slice(0, 16)}`;
    const key = `${caller.userId}\n${sessionId}\n${id}`;
    const reply = new Promise((resolve) => {
      waiting.set(key, resolve);
      setTimeout(() => answered(key, null), CONFIRMATION_TIMEOUT_MS);
    });
    send({ jsonrpc: '2.0', id, method: 'elicitation/create', params: confirmationRequest(preview) });
    const response = await reply;
    return { action: response?.result ? answerOf(response.result) : 'cancel' };
  };
  (async () => {
    try {
      const answer = await callSessionTool({ ...call, confirmation });
      send({ jsonrpc: '2.0', id: message.id, result: answer });
    } catch (cause) {
      send({ jsonrpc: '2.0', id: message.id, error: { code: INTERNAL_ERROR, message: String(cause?.message ?? cause), data: { code: codes.internal_error } } });
    } finally {
      controller.close();
    }
  })();
  return new Response(stream, { status: 200, headers: { ...headers, 'content-type': 'text/event-stream', 'cache-control': 'no-store', 'x-accel-buffering': 'no' } });
}
