// /mcp: the Model Context Protocol over Streamable HTTP, as the caller. The
// handler has verified the bearer token before this runs; tool calls go to
// PostgREST with that same token and the anon key, never a service key.
//
// Written by hand against the transport's specification rather than with
// the SDK's server, whose session lives in one transport object in memory:
// here each request may reach another isolate, so the session is a record
// in the session store (keyed by user and session id) and every answer is
// one JSON response. What the transport asks of a server:
//   POST   one JSON-RPC message. A request → 200 with its JSON-RPC response;
//          a notification or a response → 202. `initialize` opens a session
//          (Mcp-Session-Id in the answer); every other message names it.
//   GET    405: this server sends nothing unprompted, so it offers no stream.
//   DELETE ends the session.
// A session id that is unknown, expired or another user's is 404 (the
// client then starts over); a missing one is 400; an MCP-Protocol-Version
// this server does not speak is 400.
import { callSessionTool, closeSession, findSession, newSessionId, openSession } from '../mcp/session.js';
import { MCP_SERVER_VERSION, SCHEMA_URI, coreDomain, mcpInstructions, mcpResourceList, mcpServerInfo, mcpToolList, schemaDescription } from '../mcp/tools.js';
import { jsonResponse, readJsonObject } from './http.js';

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
export const MCP_EXPOSED_HEADERS = { 'access-control-expose-headers': 'mcp-session-id' };

/**
 * Answers one /mcp request for `caller` (`{ accessToken, userId }`, verified).
 * `store` is the session store (alfred-act's MemorySessionStore,
 * SupabaseSessionStore or any with get/put/delete).
 */
export async function handleMcp({ request, core, config, caller, store, headers }) {
  const reply = (status, body, extra = {}) => jsonResponse(status, body, { ...headers, ...extra });
  const rpcError = (status, id, code, message, data) => reply(status, { jsonrpc: '2.0', id: id ?? null, error: { code, message, ...(data ? { data } : {}) } });

  const version = request.headers.get('mcp-protocol-version');
  if (version !== null && !MCP_PROTOCOL_VERSIONS.includes(version)) {
    return rpcError(400, null, BAD_SESSION, `Bad Request: MCP-Protocol-Version ${version} is not supported`, { code: 'unsupported_protocol_version', hint: `supported: ${MCP_PROTOCOL_VERSIONS.join(', ')}` });
  }
  const sessionId = request.headers.get('mcp-session-id');
  const actOptions = { ...(config.restUrl ? { restUrl: config.restUrl } : { url: config.supabaseUrl }), apiKey: config.anonKey, accessToken: caller.accessToken, userId: caller.userId };

  if (request.method === 'DELETE') {
    if (!sessionId) return rpcError(400, null, BAD_SESSION, 'Bad Request: Mcp-Session-Id header is required', { code: 'missing_session_id' });
    const { data: session, error } = await findSession({ store, sessionId, caller });
    if (error) return rpcError(500, null, INTERNAL_ERROR, error.message, { code: error.code });
    if (!session) return rpcError(404, null, SESSION_NOT_FOUND, 'Session not found', { code: 'session_not_found' });
    const { error: closeError } = await closeSession({ store, sessionId, caller });
    if (closeError) return rpcError(500, null, INTERNAL_ERROR, closeError.message, { code: closeError.code });
    return new Response(null, { status: 204, headers });
  }

  const accept = request.headers.get('accept') ?? '';
  if (!/application\/json|\*\/\*/i.test(accept)) {
    return rpcError(406, null, BAD_SESSION, 'Not Acceptable: the client must accept application/json', { code: 'not_acceptable', hint: 'Accept: application/json, text/event-stream' });
  }
  const { data: message, error: bodyError } = await readJsonObject(request, config.maxBodyBytes);
  if (bodyError) {
    const code = bodyError.code === 'invalid_json' ? PARSE_ERROR : INVALID_REQUEST;
    const message = bodyError.code === 'invalid_body' ? 'Invalid Request: the body must be one JSON-RPC message (batches are not supported)' : bodyError.message;
    return rpcError(bodyError.status, null, code, message, { code: bodyError.code });
  }
  if (message.jsonrpc !== '2.0') return rpcError(400, message.id, INVALID_REQUEST, 'Invalid Request: jsonrpc must be "2.0"', { code: 'invalid_request' });
  const isRequest = typeof message.method === 'string' && (typeof message.id === 'string' || Number.isInteger(message.id));
  const isNotification = typeof message.method === 'string' && !('id' in message);
  const isResponse = !('method' in message) && (typeof message.id === 'string' || Number.isInteger(message.id)) && ('result' in message || 'error' in message);
  if (!isRequest && !isNotification && !isResponse) return rpcError(400, null, INVALID_REQUEST, 'Invalid Request: not a JSON-RPC request, notification or response', { code: 'invalid_request' });

  if (isRequest && message.method === 'initialize') return initialize(message, { domain: coreDomain(core), store, caller, reply, rpcError });

  if (!sessionId) return rpcError(400, message.id, BAD_SESSION, 'Bad Request: Mcp-Session-Id header is required', { code: 'missing_session_id', hint: 'send initialize first' });
  const { data: session, error } = await findSession({ store, sessionId, caller });
  if (error) return rpcError(500, message.id, INTERNAL_ERROR, error.message, { code: error.code });
  if (!session) return rpcError(404, message.id, SESSION_NOT_FOUND, 'Session not found', { code: 'session_not_found', hint: 'initialize a new session' });
  if (!isRequest) return new Response(null, { status: 202, headers });

  const params = message.params ?? {};
  const result = (value) => reply(200, { jsonrpc: '2.0', id: message.id, result: value });
  switch (message.method) {
    case 'ping':
      return result({});
    case 'tools/list':
      return result({ tools: mcpToolList(core, coreDomain(core)) });
    case 'tools/call': {
      if (typeof params.name !== 'string') return rpcError(200, message.id, INVALID_PARAMS, 'Invalid params: tools/call needs a tool name', { code: 'invalid_params', path: 'params.name' });
      const answer = await callSessionTool({ core, store, sessionId, actOptions, name: params.name, args: params.arguments, signal: request.signal });
      return result(answer);
    }
    case 'resources/list':
      return result({ resources: mcpResourceList(coreDomain(core)) });
    case 'resources/read': {
      if (params.uri !== SCHEMA_URI) return rpcError(200, message.id, INVALID_PARAMS, `Invalid params: no resource ${params.uri}`, { code: 'unknown_resource', hint: `resources: ${SCHEMA_URI}` });
      const { data, error: schemaError } = schemaDescription(core, coreDomain(core));
      if (schemaError) return rpcError(200, message.id, INTERNAL_ERROR, schemaError.message, { code: schemaError.code });
      return result({ contents: [{ uri: SCHEMA_URI, mimeType: 'text/markdown', text: data }] });
    }
    default:
      return rpcError(200, message.id, METHOD_NOT_FOUND, `Method not found: ${message.method}`, { code: 'method_not_found' });
  }
}

// `initialize` opens a session for the caller, naming the domain served: the version the client asked
// for when this server speaks it, else the newest it does.
async function initialize(message, { domain, store, caller, reply, rpcError }) {
  const requested = message.params?.protocolVersion;
  if (typeof requested !== 'string') return rpcError(200, message.id, INVALID_PARAMS, 'Invalid params: initialize needs a protocolVersion', { code: 'invalid_params', path: 'params.protocolVersion' });
  const protocolVersion = MCP_PROTOCOL_VERSIONS.includes(requested) ? requested : MCP_PROTOCOL_VERSIONS[0];
  const sessionId = newSessionId();
  const { error } = await openSession({ store, sessionId, caller, protocolVersion });
  if (error) return rpcError(500, message.id, INTERNAL_ERROR, error.message, { code: error.code });
  const result = { protocolVersion, capabilities: { tools: { listChanged: false }, resources: {} }, serverInfo: mcpServerInfo(domain, MCP_SERVER_VERSION), instructions: mcpInstructions(domain) };
  return reply(200, { jsonrpc: '2.0', id: message.id, result }, { 'mcp-session-id': sessionId });
}
