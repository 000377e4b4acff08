// `alfred-act/mcp`: what a host needs to serve the db_ tools over MCP on its
// own domain: the SDK server (createMcpServer, loading the core itself when
// given none), token sources, session stores, the domain a server serves and
// the transport-free parts the edge worker's /mcp shares. Node (and Deno):
// token commands and domain files use node: builtins.
import { loadCore } from '../index.node.js';
import { createMcpServer as createMcpServerWithCore } from './server.js';
import { codes } from '../../dist/error-codes.mjs';

export { loadMcpSdk } from './server.js';
export { accessTokenSource, readMcpConfig, readPolicyOptions, runMcpCommand, MCP_USAGE } from './stdio.js';
export { DEFAULT_APPROVE, answerOf, confirmationRequest, runConfirmedCall } from './approval.js';
export { isDemoStack, isLoopbackUrl, readDomainFile, resolveMcpDomain } from './domain.js';
export { newSessionId, openSession, findSession, closeSession, callSessionTool, callUserTool, userRefsId } from './session.js';
export { MemorySessionStore, SupabaseSessionStore } from './store.js';
export { readUserToken, isServiceKey } from './user-token.js';
export {
  MCP_INSTRUCTIONS,
  MCP_SERVER_VERSION,
  SCHEMA_URI,
  coreDomain,
  domainName,
  mcpInstructions,
  mcpServerInfo,
  mcpToolList,
  mcpResourceList,
  schemaDescription,
  mcpToolResult,
  mcpToolError,
  mcpSchemaResult,
  TOOL_RESULT_SCHEMA,
} from './tools.js';

/**
 * An SDK `Server` whose tools act as the signed-in user on `domain` (the
 * JSON `alfred-act domain pull` writes): `{ data: { server, sessionId, domain }, error }`.
 * Without `core`, one is loaded for the domain; a domain the core refuses is
 * `error` (`invalid_domain`, with the `path` into the domain and a `hint`).
 * Options as createMcpServer in server.js: `url`, `apiKey` (anon), `accessToken`
 * or `getAccessToken`, `store`, `sessionId`, `fetch`, `version`.
 *
 * @example
 * import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
 * import { createMcpServer } from 'alfred-act/mcp'
 * import domain from './domain.json' with { type: 'json' }
 *
 * const { data, error } = await createMcpServer({ domain, url: process.env.SUPABASE_URL, apiKey: process.env.SUPABASE_ANON_KEY, accessToken: process.env.SUPABASE_ACCESS_TOKEN })
 * if (error) throw new Error(`${error.path}: ${error.message} (${error.hint})`)
 * await data.server.connect(new StdioServerTransport())
 */
export async function createMcpServer(options = {}) {
  if (options.core) return createMcpServerWithCore(options);
  if (options.domain === undefined || options.domain === null) {
    return {
      data: null,
      error: {
        code: codes.invalid_option,
        path: 'domain',
        message: 'createMcpServer needs the domain it serves',
        hint: 'domain: the JSON `alfred-act domain pull --out domain.json` writes (or pass a core loaded with one)',
      },
    };
  }
  let core;
  try {
    core = await loadCore({ domain: options.domain });
  } catch (cause) {
    if (cause?.name !== 'AlfredError') throw cause;
    const { code, path, message, hint } = cause;
    return { data: null, error: { code, path: path ? `domain.${path}` : 'domain', message, hint } };
  }
  return createMcpServerWithCore({ ...options, core });
}
