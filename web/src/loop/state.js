// Everything a conversation carries from one turn to the next, as ONE plain
// JSON value: a turn can run in a browser tab and the next one in a worker.

import { codes } from '../../dist/error-codes.mjs';

export const TURN_STATE_FORMAT = 'alfred-act.turn-state';
export const TURN_STATE_VERSION = 1;
// Enough conversation for follow-ups ("and the second one?") without
// growing every prompt forever; step results match the registry's window of
// two turns of active entities.
const KEPT_MESSAGES = 12;
const KEPT_TURNS = 2;

/**
 * A new conversation's state; `registry` is `registry.toJSON()` or null.
 *
 * @example
 * let state = createTurnState()
 * const act = createAct({ …, state: state.registry })
 * ;({ state } = await runTurn({ core, act, model, turn: { userMessage }, state }))
 */
export function createTurnState() {
  return { format: TURN_STATE_FORMAT, version: TURN_STATE_VERSION, turn: 0, registry: null, conversation: [], recentTurns: [] };
}

/**
 * Checks a state from storage or another runtime: `{ data: state, error }`.
 * A damaged or foreign value is an error, never a silent fresh start.
 */
export function readTurnState(value) {
  const state = typeof value === 'string' ? safeParse(value) : value;
  if (state === undefined || state === null) return { data: createTurnState(), error: null };
  const bad = (message) => ({ data: null, error: { code: codes.invalid_state, path: 'state', message, hint: 'pass the state the last runTurn returned, or nothing' } });
  if (typeof state !== 'object' || state.format !== TURN_STATE_FORMAT) return bad('not an alfred-act turn state');
  if (state.version !== TURN_STATE_VERSION) {
    return { data: null, error: { code: codes.unsupported_state_version, path: 'state.version', message: `turn state version ${state.version} is not ${TURN_STATE_VERSION}`, hint: '' } };
  }
  if (!Number.isSafeInteger(state.turn) || state.turn < 0) return bad('state.turn must be a whole number ≥ 0');
  if (!Array.isArray(state.conversation) || !Array.isArray(state.recentTurns)) return bad('state.conversation and state.recentTurns must be arrays');
  return { data: state, error: null };
}

function safeParse(text) {
  try {
    return JSON.parse(text);
  } catch {
    return { format: null };
  }
}

/** The state after a turn: the registry as JSON, the exchange, this turn's steps. */
export function nextTurnState(state, { turn, registry, userMessage, reply, steps }) {
  const conversation = [...state.conversation, { role: 'user', content: userMessage, turn }];
  if (reply) conversation.push({ role: 'assistant', content: reply, turn });
  return {
    format: TURN_STATE_FORMAT,
    version: TURN_STATE_VERSION,
    turn,
    registry,
    conversation: conversation.slice(-KEPT_MESSAGES),
    recentTurns: [...state.recentTurns, { turn, userMessage, steps }].slice(-KEPT_TURNS),
  };
}
