// What every runtime entry exports besides loadCore/createAct, which depend on
// how the entry gets the .wasm.
export { AlfredError, Core, Registry } from './core.js';
export { kitchen, recipeEmbeddingText } from './kitchen.js';
export { actDecisionSchema } from './prompt.js';
export { Act, restUrl } from './act.js';
export { lexicalEmbedder, openAIEmbedder, embeddingText, EmbeddingError } from './embedder.js';
export { createChatModel, modelConfigFromEnv, LlmError } from './llm.js';
export { createTokenVerifier, verifyAccessToken, TOKEN_ERROR_STATUS } from './jwt-verify.js';
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
} from './loop.js';
