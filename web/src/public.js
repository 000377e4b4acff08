// What every runtime entry exports besides loadCore/createAct, which depend on
// how the entry gets the .wasm.
export { AlfredError, Core, Registry } from './core/index.js';
export { kitchen, recipeEmbeddingText } from './kitchen.js';
export { actDecisionSchema } from './prompt.js';
export { errorCodes } from '../dist/error-codes.mjs';
export { TOOL_NAMES } from './tools.js';
export { Act } from './act/index.js';
export { restUrl } from './act/options.js';
export { domainTypes } from './domain-types.js';
export { lexicalEmbedder, openAIEmbedder, embeddingText, EmbeddingError } from './embedder.js';
export { createChatModel, modelConfigFromEnv, LlmError } from './llm/index.js';
export { createTokenVerifier, verifyAccessToken, TOKEN_ERROR_STATUS } from './jwt-verify.js';
// The MCP and loop names below are alfred-act/mcp's and alfred-act/loop's,
// exported here too for code written before the subpaths; deprecated at the
// root (web/index.d.ts), never removed without a major version.
export {
  MCP_INSTRUCTIONS,
  SCHEMA_URI,
  coreDomain,
  mcpToolList,
  mcpResourceList,
  schemaDescription,
  mcpToolResult,
  mcpToolError,
} from './mcp/tools.js';
export { newSessionId, openSession, findSession, closeSession, callSessionTool } from './mcp/session.js';
export { MemorySessionStore, SupabaseSessionStore } from './mcp/store.js';
export { isServiceKey, readUserToken } from './mcp/user-token.js';
export {
  runStep,
  runTurn,
  runTurnEvents,
  planTurn,
  replyTurn,
  planSchema,
  createTurnState,
  readTurnState,
  STEP_TOOLS,
} from './loop/index.js';
