// The Act loop: runTurn / runTurnEvents run a user's turn step by step,
// runStep runs one step; planTurn and replyTurn are the replaceable
// planning and reply around it; the turn state is one JSON value.
// The parts are the other files of this folder.
export { runStep, STEP_TOOLS } from './step.js';
export { runTurn, runTurnEvents } from './turn.js';
export { planTurn, replyTurn, planSchema } from './plan.js';
export { createTurnState, readTurnState } from './state.js';
