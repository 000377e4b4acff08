// /mcp for MCP 2026-07-28 clients: stateless. No initialize and no
// Mcp-Session-Id; every request carries its protocol version, the client's
// capabilities and info in `params._meta`, mirrored in the MCP-Protocol-
// Version, Mcp-Method and Mcp-Name headers (checked against the body), and
// every result says its `resultType` and names the server in `_meta`.
// Refs persist per user in the session store (session.js: callUserTool), so
// the refs a user's model saw resolve in the next call wherever it lands. A
// write that needs the user's confirmation is a multi round-trip request
// (MRTR): the answer is `resultType: 'input_required'` with an
// `elicitation/create` among its `inputRequests` and a signed
// `requestState` (request-state.js) naming the user, the call and the rows
// previewed; the client asks its user and sends the same call again with
// the answer in `inputResponses` and the state echoed.
import { CONFIRM_KEY, answerOf, confirmationRequest } from '../mcp/approval.js';
import { callUserTool, newSessionId } from '../mcp/session.js';
import { MCP_SERVER_VERSION, SCHEMA_URI, mcpInstructions, mcpResourceList, mcpServerInfo, mcpToolList, schemaDescription } from '../mcp/tools.js';
import { REQUEST_STATE_TTL_MS, callDigest, signState, verifyState } from './request-state.js';
import { codes } from '../../dist/error-codes.mjs';

/** The protocol versions served without sessions. */
export const MODERN_PROTOCOL_VERSIONS = Object.freeze(['2026-07-28']);

export const META = Object.freeze({
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
});

const INVALID_REQUEST = -32600;
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;
const HEADER_MISMATCH = -32020;
const UNSUPPORTED_PROTOCOL_VERSION = -32022;
// How long a client may keep a list or the schema before asking again.
const CACHE_TTL_MS = 5 * 60 * 1000;
// The methods whose Mcp-Name header mirrors `params.name` or `params.uri`.
const NAMED = { 'tools/call': 'name', 'resources/read': 'uri', 'prompts/get': 'name' };

const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Whether a /mcp message is of the stateless era: its `_meta` names a
 * protocol version, or its MCP-Protocol-Version header is one past the
 * session-based revisions (`legacyVersions`).
 *
 * @example
 * isStatelessMessage(request, message, ['2025-11-25', '2025-06-18', '2025-03-26'])
 */
export function isStatelessMessage(request, message, legacyVersions) {
  if (typeof message?.params?._meta?.[META.protocolVersion] === 'string') return true;
  const header = request.headers.get('mcp-protocol-version');
  return header !== null && !legacyVersions.includes(header) && header > legacyVersions[0];
}

// An Mcp-Name / Mcp-Param value as sent: plain, or `=?base64?…?=`.
function headerValue(text) {
  if (text === null) return null;
  const match = /^=\?base64\?([A-Za-z0-9+/=]*)\?=$/.exec(text);
  if (!match) return text;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(atob(match[1]), (char) => char.charCodeAt(0)));
  } catch {
    return null;
  }
}

// The headers a request must carry, equal to its body: an error response or null.
function headerMismatch(request, message, version, rpcError) {
  const mismatch = (what, sent, body) =>
    rpcError(400, message.id, HEADER_MISMATCH, `Header mismatch: ${what} ${sent === null ? 'is missing' : `${JSON.stringify(sent)} does not match the body's ${JSON.stringify(body)}`}`, { code: codes.header_mismatch });
  const sentVersion = request.headers.get('mcp-protocol-version');
  if (sentVersion !== version) return mismatch('MCP-Protocol-Version', sentVersion, version);
  const sentMethod = request.headers.get('mcp-method');
  if (sentMethod !== message.method) return mismatch('Mcp-Method', sentMethod, message.method);
  const field = NAMED[message.method];
  if (field) {
    const sentName = headerValue(request.headers.get('mcp-name'));
    if (sentName !== message.params?.[field]) return mismatch('Mcp-Name', sentName, message.params?.[field] ?? null);
  }
  return null;
}

/**
 * Answers one stateless /mcp message for `caller`. `policy` is the act's
 * policy for /mcp (`approve` confirmed through the client); `domain` is
 * what the client is shown (the allowed tables only), `served` the domain
 * the acts are made with (they restrict it themselves); `store` keeps
 * each user's refs; `reply(status, body)` and `rpcError(status, id, code,
 * message, data)` make the responses (with the route's headers).
 */
export async function handleStatelessMcp({ request, message, core, config, caller, store, policy, domain, served = domain, legacyVersions, reply, rpcError }) {
  const isRequest = typeof message.method === 'string' && (typeof message.id === 'string' || Number.isInteger(message.id));
  if (!isRequest) {
    if (typeof message.method === 'string' && !('id' in message)) return new Response(null, { status: 202, headers: reply.headers });
    return rpcError(400, message.id ?? null, INVALID_REQUEST, 'Invalid Request: a client sends requests and notifications only', { code: codes.invalid_request });
  }
  const params = isObject(message.params) ? message.params : {};
  const meta = params._meta;
  if (!isObject(meta) || typeof meta[META.protocolVersion] !== 'string' || !isObject(meta[META.clientCapabilities])) {
    return rpcError(400, message.id, INVALID_PARAMS, `Invalid params: params._meta must carry ${META.protocolVersion} and ${META.clientCapabilities}`, {
      code: codes.missing_request_meta,
      hint: 'a 2026-07-28 request states its protocol version and the client capabilities in params._meta; a 2025 client sends initialize first',
    });
  }
  const version = meta[META.protocolVersion];
  const supported = [...MODERN_PROTOCOL_VERSIONS, ...legacyVersions];
  if (!MODERN_PROTOCOL_VERSIONS.includes(version)) {
    return rpcError(400, message.id, UNSUPPORTED_PROTOCOL_VERSION, 'Unsupported protocol version', { supported, requested: version, code: codes.unsupported_protocol_version });
  }
  const mismatch = headerMismatch(request, message, version, rpcError);
  if (mismatch) return mismatch;

  const serverInfo = mcpServerInfo(domain, MCP_SERVER_VERSION);
  const answer = (result) => reply(200, { jsonrpc: '2.0', id: message.id, result: { resultType: 'complete', ...result, _meta: { [META.serverInfo]: serverInfo } } });
  const readOnly = policy.readOnly === true;
  switch (message.method) {
    case 'server/discover':
      return answer({ supportedVersions: supported, capabilities: { tools: {}, resources: {} }, instructions: mcpInstructions(domain), ttlMs: CACHE_TTL_MS, cacheScope: 'public' });
    case 'tools/list':
      return answer({ tools: mcpToolList(core, domain, { readOnly }), ttlMs: CACHE_TTL_MS, cacheScope: 'public' });
    case 'resources/list':
      return answer({ resources: mcpResourceList(domain), ttlMs: CACHE_TTL_MS, cacheScope: 'public' });
    case 'resources/read': {
      if (params.uri !== SCHEMA_URI) return rpcError(200, message.id, INVALID_PARAMS, `Invalid params: no resource ${params.uri}`, { code: codes.unknown_resource, hint: `resources: ${SCHEMA_URI}` });
      const { data, error } = schemaDescription(core, domain);
      if (error) return rpcError(200, message.id, INTERNAL_ERROR, error.message, { code: error.code });
      return answer({ contents: [{ uri: SCHEMA_URI, mimeType: 'text/markdown', text: data }], ttlMs: CACHE_TTL_MS, cacheScope: 'public' });
    }
    case 'tools/call':
      return callTool({ request, message, params, meta, core, config, caller, store, policy, domain: served, answer, reply, rpcError, serverInfo });
    default:
      return rpcError(404, message.id, METHOD_NOT_FOUND, `Method not found: ${message.method}`, { code: codes.method_not_found });
  }
}

// Whether the client can answer a form elicitation: it declared
// `elicitation` ({} means form mode) with form among its modes.
function canElicit(capabilities) {
  const elicitation = capabilities?.elicitation;
  if (!isObject(elicitation)) return false;
  return Object.keys(elicitation).length === 0 || isObject(elicitation.form);
}

async function callTool({ request, message, params, meta, core, config, caller, store, policy, domain, answer, reply, rpcError, serverInfo }) {
  if (typeof params.name !== 'string') return rpcError(200, message.id, INVALID_PARAMS, 'Invalid params: tools/call needs a tool name', { code: codes.invalid_params, path: 'params.name' });
  const digest = await callDigest(params.name, params.arguments);
  // The confirmation this request answers, if any: a state this server
  // signed, for this user and this very call. An expired one asks again.
  let approved = null;
  if (params.requestState !== undefined) {
    const state = await verifyState(params.requestState, config.stateSecret);
    if (!state || state.v !== 1 || state.sub !== caller.userId || state.call !== digest) {
      return rpcError(400, message.id, INVALID_PARAMS, 'Invalid params: requestState does not verify for this user and this call', {
        code: codes.invalid_request_state,
        hint: 'send the call again without requestState to be asked anew',
      });
    }
    if (typeof state.exp === 'number' && state.exp > Date.now() && typeof state.n === 'string') approved = state;
  }
  const askable = canElicit(meta[META.clientCapabilities]);
  const confirmation = async () => {
    const response = approved ? params.inputResponses?.[CONFIRM_KEY] : undefined;
    if (isObject(response)) {
      const action = answerOf(response);
      return action === 'accept' ? { action, preview: approved.preview } : { action };
    }
    return askable ? { action: 'pending' } : { action: 'unavailable' };
  };
  const actOptions = {
    ...(config.restUrl ? { restUrl: config.restUrl } : { url: config.supabaseUrl }),
    apiKey: config.anonKey,
    accessToken: caller.accessToken,
    userId: caller.userId,
    domain,
    ...policy,
  };
  // A confirmation is used once: its id is kept with its answer in the
  // user's record, and the same approved call sent again is answered as the
  // first was (never a second write).
  const once = approved && typeof approved.n === 'string' && isObject(params.inputResponses?.[CONFIRM_KEY]) ? { id: approved.n, exp: approved.exp } : null;
  const { result, pending } = await callUserTool({ core, store, actOptions, name: params.name, args: params.arguments, signal: request.signal, confirmation, approval: once });
  if (result) return answer(result);
  // Signed into the request state: what the approved run is checked against
  // (the rows' identities, `keys`), never the rows' values.
  const preview = { tool: pending.tool, table: pending.table, count: pending.count, rows: (pending.rows ?? []).map((row) => ({ ref: row?.ref ?? row?.id ?? null })) };
  if (Array.isArray(pending.keys)) preview.keys = pending.keys;
  // `n`: this confirmation's own id, so that an approval runs once.
  const requestState = await signState({ v: 1, sub: caller.userId, call: digest, preview, n: newSessionId().slice(0, 22), exp: Date.now() + REQUEST_STATE_TTL_MS }, config.stateSecret);
  return reply(200, {
    jsonrpc: '2.0',
    id: message.id,
    result: {
      resultType: 'input_required',
      inputRequests: { [CONFIRM_KEY]: { method: 'elicitation/create', params: confirmationRequest(pending) } },
      requestState,
      _meta: { [META.serverInfo]: serverInfo },
    },
  });
}
