// The MCP server on @modelcontextprotocol/sdk's `Server`, for one user and
// one session, serving one domain: tools/list, tools/call, resources/list
// and resources/read, with the domain named in serverInfo, the instructions
// and the schema resource. Transport-free and runtime-neutral (the SDK, an
// optional peer dependency, is loaded on use): `alfred-act mcp` connects it to
// stdio (stdio.js); a host connects it to any SDK transport.
import { actPolicy, answerOf, confirmationRequest } from './approval.js';
import { callSessionTool, findSession, newSessionId, openSession } from './session.js';
import { MemorySessionStore } from './store.js';
import { MCP_SERVER_VERSION, SCHEMA_URI, coreDomain, mcpInstructions, mcpResourceList, mcpServerInfo, mcpToolError, mcpToolList, schemaDescription } from './tools.js';
import { readUserToken } from './user-token.js';
import { POLICY_TABLE } from '../policy/options.js';
import { restrictDomain } from '../policy/tables.js';
import { checkedResultLimits } from '../result-limits.js';
import { codes } from '../../dist/error-codes.mjs';

/**
 * The SDK's server classes, or an Error saying how to install the SDK.
 *
 * @example
 * const { Server, types } = await loadMcpSdk()
 */
export async function loadMcpSdk() {
  try {
    const [{ Server }, types] = await Promise.all([import('@modelcontextprotocol/sdk/server/index.js'), import('@modelcontextprotocol/sdk/types.js')]);
    return { Server, types };
  } catch (cause) {
    throw new Error(`the alfred-act MCP server needs @modelcontextprotocol/sdk (npm install @modelcontextprotocol/sdk): ${cause.message}`);
  }
}

// The SDK validates an elicitation's answer against the form it asked with;
// its default validator (Ajv) compiles schemas with `new Function`, which a
// Worker or a strict CSP forbids. The only form this server asks with is the
// confirmation (approval.js: an object with a boolean `confirm`), so a
// validator of objects with typed, required properties does without
// generating code.
const confirmationValidator = {
  getValidator(schema) {
    const properties = schema?.properties ?? {};
    const required = Array.isArray(schema?.required) ? schema.required : [];
    const kinds = { boolean: 'boolean', string: 'string', number: 'number', integer: 'number' };
    return (input) => {
      const fail = (errorMessage) => ({ valid: false, data: undefined, errorMessage });
      if (input === null || typeof input !== 'object' || Array.isArray(input)) return fail('must be an object');
      for (const name of required) if (!(name in input)) return fail(`must have required property '${name}'`);
      for (const [name, value] of Object.entries(input)) {
        const type = properties[name]?.type;
        if (type && kinds[type] && typeof value !== kinds[type]) return fail(`${name} must be ${type}`);
      }
      return { valid: true, data: input, errorMessage: undefined };
    };
  },
};

const invalidOption = (path, message, hint) => ({ data: null, error: { code: codes.invalid_option, path, message, hint } });

// Every option createMcpServer reads: its own, and the policy every surface
// takes (createAct's safety options and `confirm`). Anything else is
// `invalid_option`, as createAct answers, never ignored.
const SERVER_OPTIONS = ['core', 'domain', 'url', 'apiKey', 'accessToken', 'getAccessToken', 'store', 'sessionId', 'fetch', 'version', 'schema', 'resultLimits', 'embedder'];
export const MCP_SERVER_OPTION_NAMES = Object.freeze([...SERVER_OPTIONS, ...POLICY_TABLE.map((row) => row.option)]);

/**
 * An SDK `Server` whose tools act as the signed-in user on `domain`, for one
 * session whose refs are kept in `store` under `sessionId`. Connect it to
 * any SDK transport. Resolves to `{ data: { server, sessionId, domain }, error }`
 * (`domain`: what the client is shown, the allowed tables only);
 * never throws for a bad option, a refused domain or token, or a store that
 * fails (those are `error`, with `code`, `path`, `message`, `hint`).
 *
 * - `core`: a loaded core (`loadCore()`); `domain`: the domain served (the
 *   JSON `alfred-act domain pull` writes), checked by the core; without one,
 *   the core's own domain. (From `alfred-act/mcp`, `core` is optional.)
 * - `url`: the Supabase URL (PostgREST under /rest/v1) or a PostgREST root;
 *   `apiKey`: the anon key, never a service key.
 * - `accessToken` (a fixed token) or `getAccessToken()` (resolving to
 *   `{ data: { accessToken, userId }, error }`, e.g. `accessTokenSource(…)`).
 * - `store` (default a MemorySessionStore), `sessionId` (resume one), `fetch`, `version`.
 * - `schema` (`'compact'` or `'inline'`, see `mcpToolList`), `resultLimits`
 *   (`{ rows, chars }`, the caps on each tool result, see `createAct`),
 *   `embedder` (turns the text of db_call's vector arguments into vectors of
 *   the size the functions take, see `createAct`).
 * - The policy on writes, passed to the act: `readOnly` (only db_read and
 *   db_schema are listed; writes are `read_only`), `tables` (an allow-list:
 *   the other tables are named nowhere, not in the tools, the instructions
 *   or the schema), `onAudit` and `tracer` (as createAct's),
 *   `approve` (`'changes'` by default: updates and deletes ask the user;
 *   `'deletes'`: deletes only; `'writes'`: creates too; `'none'`), `maxAffected`, and `confirm`
 *   (default true; false runs writes unasked, as `approve: 'none'`). A write
 *   that needs approval is put to the user through the client's elicitation
 *   (`elicitation/create`, with the rows it would touch), and runs only on
 *   an explicit yes; a client that declared no elicitation gets
 *   `approval_required` and nothing is sent.
 * - Any other option is `invalid_option`, as createAct answers.
 *
 * @example
 * const { data, error } = await createMcpServer({ core, domain, url: SUPABASE_URL, apiKey: anonKey, accessToken: session.access_token })
 * if (error) throw new Error(`${error.path}: ${error.message} (${error.hint})`)
 * await data.server.connect(new StdioServerTransport())
 */
async function createMcpServerWithCore(options = {}) {
  const unknown = Object.keys(options ?? {}).find((name) => !MCP_SERVER_OPTION_NAMES.includes(name));
  if (unknown !== undefined) return invalidOption(unknown, `unknown option ${unknown}`, `options are ${MCP_SERVER_OPTION_NAMES.join(', ')}`);
  const { core, domain, url, apiKey, accessToken, getAccessToken, store = new MemorySessionStore(), sessionId, fetch, version = MCP_SERVER_VERSION, schema, resultLimits, embedder, readOnly, tables, approve, maxAffected, onAudit, tracer, confirm } = options ?? {};
  const { data: checked, error: optionsError } = checkServerOptions({ core, domain, url, apiKey, accessToken, getAccessToken, schema, resultLimits, embedder, readOnly, tables, approve, maxAffected, onAudit, tracer, confirm });
  if (optionsError) return { data: null, error: optionsError };
  const { served, shown, tokenOf, policy, tools } = checked;
  let sdk;
  try {
    sdk = await loadMcpSdk();
  } catch (cause) {
    return { data: null, error: { code: codes.invalid_option, path: '', message: cause.message, hint: 'npm install @modelcontextprotocol/sdk' } };
  }
  const { data: session, error: sessionError } = await startSession({ store, sessionId, tokenOf });
  if (sessionError) return { data: null, error: sessionError };
  // What the client is shown is the domain with only the allowed tables:
  // the others are named nowhere (tools, instructions, schema).
  const server = new sdk.Server(mcpServerInfo(shown, version), {
    capabilities: { tools: {}, resources: {} },
    instructions: mcpInstructions(shown),
    jsonSchemaValidator: confirmationValidator,
  });
  const actOptions = { url, apiKey, domain: served, ...policy, ...(fetch ? { fetch } : {}), ...(resultLimits ? { resultLimits } : {}), ...(embedder ? { embedder } : {}) };
  serveRequests(server, sdk.types, { core, store, served: shown, tools, tokenOf, session, actOptions });
  return { data: { server, sessionId: session.id, domain: shown }, error: null };
}

// The options checked before anything starts: the domain, the URL and key,
// one way to the user's token, the policy and the result caps (createAct
// refuses bad ones; here they fail now, not at the first call).
function checkServerOptions({ core, domain, url, apiKey, accessToken, getAccessToken, schema, resultLimits, embedder, readOnly, tables, approve, maxAffected, onAudit, tracer, confirm }) {
  if (!core || typeof core.toolDefinitions !== 'function') return invalidOption('core', 'createMcpServer needs a loaded core', "const core = await loadCore() (from 'alfred-act'), or import createMcpServer from 'alfred-act/mcp', which loads one");
  const served = domain ?? coreDomain(core);
  const { error: domainError } = core.validateDomain(served);
  if (domainError) return { data: null, error: { ...domainError, path: domainError.path ? `domain.${domainError.path}` : 'domain' } };
  if (typeof url !== 'string' || !URL.canParse(url)) return invalidOption('url', `url must be the Supabase URL or a PostgREST root, got ${JSON.stringify(url ?? null)}`, 'https://<ref>.supabase.co');
  if (typeof apiKey !== 'string' || apiKey === '') return invalidOption('apiKey', 'apiKey must be the anon (publishable) key', "the project's anon key; never a service key");
  if ((accessToken === undefined) === (getAccessToken === undefined)) {
    return invalidOption('accessToken', 'give the user\'s token as accessToken or getAccessToken, one of them', "accessToken: session.access_token, or getAccessToken: accessTokenSource({ command }) for one that is refreshed");
  }
  const tokenOf = getAccessToken ?? (async () => readUserToken(accessToken));
  const { data: policy, error: policyError } = actPolicy({ readOnly, tables, approve, maxAffected, onAudit, tracer, confirm });
  if (policyError) return { data: null, error: policyError };
  try {
    checkedResultLimits(resultLimits);
    core.createAct({ url, apiKey, accessToken: '', domain: served, ...policy, ...(embedder === undefined ? {} : { embedder }) }).registry.delete();
    const shown = policy.tables ? restrictDomain(served, policy.tables) : served;
    const tools = mcpToolList(core, shown, { schema, readOnly: policy.readOnly === true });
    return { data: { served, shown, tokenOf, policy, tools }, error: null };
  } catch (cause) {
    if (cause?.name !== 'AlfredError') throw cause;
    return { data: null, error: { code: cause.code, path: cause.path, message: cause.message, hint: cause.hint ?? '' } };
  }
}

// The session the server acts in, for the user the first token names: the
// one `sessionId` resumes, or a new one. `{ data: { id, userId }, error }`.
async function startSession({ store, sessionId, tokenOf }) {
  const { data: first, error } = await tokenOf();
  if (error) return { data: null, error };
  const id = sessionId ?? newSessionId();
  const caller = { userId: first.userId, accessToken: first.accessToken };
  const { data: existing, error: findError } = await findSession({ store, sessionId: id, caller });
  if (findError) return { data: null, error: findError };
  if (!existing) {
    const { error: openError } = await openSession({ store, sessionId: id, caller });
    if (openError) return { data: null, error: openError };
  }
  return { data: { id, userId: first.userId }, error: null };
}

// The server's handlers: the tool list, tool calls (each with a fresh token
// for the same user, writes confirmed through the client), and the schema
// resource.
function serveRequests(server, types, { core, store, served, tools, tokenOf, session, actOptions }) {
  // Asks the user through the client when it declared elicitation (form
  // mode); an error or a timeout counts as no answer: nothing is sent.
  const confirmation = async (preview) => {
    if (!server.getClientCapabilities()?.elicitation) return { action: 'unavailable' };
    try {
      return { action: answerOf(await server.elicitInput(confirmationRequest(preview))) };
    } catch {
      return { action: 'cancel' };
    }
  };
  server.setRequestHandler(types.ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(types.CallToolRequestSchema, async (request, extra) => {
    const { data: token, error: tokenError } = await tokenOf();
    if (tokenError) return mcpToolError(request.params.name, tokenError);
    if (token.userId !== session.userId) {
      return mcpToolError(request.params.name, { code: codes.user_changed, message: 'the access token is now for another user than the one this session started with', hint: 'restart the MCP server to act as the new user' });
    }
    const options = { ...actOptions, accessToken: token.accessToken, userId: session.userId };
    return callSessionTool({ core, store, sessionId: session.id, actOptions: options, name: request.params.name, args: request.params.arguments, signal: extra?.signal, confirmation });
  });
  server.setRequestHandler(types.ListResourcesRequestSchema, () => ({ resources: mcpResourceList(served) }));
  server.setRequestHandler(types.ReadResourceRequestSchema, (request) => {
    if (request.params.uri !== SCHEMA_URI) throw new types.McpError(types.ErrorCode.InvalidParams, `no resource ${request.params.uri}; resources: ${SCHEMA_URI}`);
    const { data, error: schemaError } = schemaDescription(core, served);
    if (schemaError) throw new types.McpError(types.ErrorCode.InternalError, schemaError.message);
    return { contents: [{ uri: SCHEMA_URI, mimeType: 'text/markdown', text: data }] };
  });
}

// Its own name in the bundled build, where the subpath's createMcpServer
// (mcp/index.js, which loads a core) would take this one's.
export { createMcpServerWithCore as createMcpServer };
