import {
  STEP_TOOLS,
  createTurnState,
  planSchema,
  planTurn,
  readTurnState,
  replyTurn,
  runStep,
  runTurn,
  runTurnEvents
} from "./node-shared-B27DOBPA.js";
export {
  STEP_TOOLS,
  createTurnState,
  planSchema,
  planTurn,
  readTurnState,
  replyTurn,
  runStep,
  runTurn,
  runTurnEvents
};
