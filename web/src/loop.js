// The Act loop: runTurn / runTurnEvents run a user's turn step by step,
// runStep runs one step; planTurn and replyTurn are the replaceable
// planning and reply around it; the turn state is one JSON value.
// The parts live in web/src/loop/.
export { runStep, STEP_TOOLS } from './loop/step.js';
export { runTurn, runTurnEvents } from './loop/turn.js';
export { planTurn, replyTurn, planSchema } from './loop/plan.js';
export { createTurnState, readTurnState } from './loop/state.js';
