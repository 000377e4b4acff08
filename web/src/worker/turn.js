// POST /act/turn: a whole turn of the Act loop, streamed as server-sent events.
import { createChatModel } from '../llm/index.js';
import { STEP_TOOLS, readTurnState, runTurnEvents } from '../loop/index.js';
import { invalid } from './http.js';
import { createCallerAct } from './execute.js';
import { eventStream } from './sse.js';
import { codes } from '../../dist/error-codes.mjs';

const STEP_TYPES = Object.keys(STEP_TOOLS);
const MAX_MESSAGE_CHARS = 8_000;
const MAX_PLANNED_STEPS = 10;
// The client's turn state goes into the prompt, so it is bounded as it is
// read: the messages and turns a turn keeps (loop/state.js keeps 12 and 2),
// each message, and the whole of it but the registry (which the core checks).
export const TURN_STATE_LIMITS = Object.freeze({ messages: 12, turns: 2, messageChars: 16_000, chars: 200_000 });

/**
 * Checks the body `{ message, state?, plan?, prompts? }` of a turn:
 * `{ data: { message, plan, prompts, turnState }, error }`, error a 400 with
 * the `path` at fault. Nothing is spent before it passes.
 */
export function readTurnRequest(body) {
  const { message, state, plan, prompts = false } = body;
  if (typeof message !== 'string' || message.trim() === '') return { error: invalid('message', 'message must be a non-empty string') };
  if (message.length > MAX_MESSAGE_CHARS) return { error: invalid('message', `message is longer than ${MAX_MESSAGE_CHARS} characters`) };
  if (typeof prompts !== 'boolean') return { error: invalid('prompts', 'prompts must be true or false') };
  const planError = plan === undefined || plan === null ? null : checkPlan(plan);
  if (planError) return { error: planError };
  const { data: turnState, error: stateError } = readTurnState(state ?? null);
  if (stateError) return { error: { status: 400, ...stateError } };
  const tooLarge = stateOverLimits(turnState);
  if (tooLarge) return { error: tooLarge };
  return { data: { message, plan: plan ?? null, prompts, turnState }, error: null };
}

// A 400 `turn_state_too_large` for a state past TURN_STATE_LIMITS, or null.
function stateOverLimits({ conversation, recentTurns, registry, ...rest }) {
  const limits = TURN_STATE_LIMITS;
  const refuse = (path, message) => ({ status: 400, code: codes.turn_state_too_large, path, message, hint: 'send back the state the last turn returned, unchanged' });
  if (conversation.length > limits.messages) return refuse('state.conversation', `the state carries ${conversation.length} messages; a turn keeps at most ${limits.messages}`);
  if (recentTurns.length > limits.turns) return refuse('state.recentTurns', `the state carries ${recentTurns.length} turns; a turn keeps at most ${limits.turns}`);
  for (const [index, entry] of conversation.entries()) {
    const content = entry?.content;
    if (typeof content !== 'string') return refuse(`state.conversation[${index}].content`, 'each message of the state must be text');
    if (content.length > limits.messageChars) return refuse(`state.conversation[${index}].content`, `a message of the state is ${content.length} characters; at most ${limits.messageChars}`);
  }
  const chars = JSON.stringify({ conversation, recentTurns, ...rest }).length;
  if (chars > limits.chars) return refuse('state', `the state (its registry aside) is ${chars} characters; at most ${limits.chars}`);
  return null;
}

/**
 * Starts a turn read by readTurnRequest: `{ data: { stream, done }, error }`.
 * The stream carries every loop event (`turn_started`, `plan`,
 * `step_started`, `decision`, `tool_call`, `query`, `result`, `retry`,
 * `step_done`, `reply`, then `turn_done` whose `result.state` is the state
 * for the next turn); `prompt` events only with `prompts: true`, as they
 * hold the whole assembled prompt. `budget(model, signal)` wraps the model
 * with the caller's limits (limits.js); the turn stops, with no further model
 * call, when the client cancels the stream or `signal` (the request's own)
 * aborts.
 */
export function startTurn({ request: { message, plan, prompts, turnState }, core, config, caller, budget = (model) => model, signal, policy = {} }) {
  let model;
  try {
    model = createChatModel(config.model);
  } catch (cause) {
    return { error: { status: 500, code: codes.worker_misconfigured, message: `the model configuration is unusable: ${cause.message}` } };
  }
  const { data: act, error: actError } = createCallerAct(core, config, caller, turnState.registry ?? undefined, policy);
  if (actError) return { error: actError };

  const turn = { userMessage: message, ...(plan ? { steps: plan.map(({ description, type }) => ({ description, type })) } : {}) };
  return {
    data: eventStream(async (send, streamSignal) => {
      const stop = anySignal([streamSignal, signal]);
      try {
        for await (const event of runTurnEvents({ core, act, model: budget(model, stop), turn, state: turnState, signal: stop })) {
          if (event.type !== 'prompt' || prompts) send(event);
        }
      } finally {
        // Only after the loop has settled: it uses the registry until then.
        act.registry.delete();
      }
    }),
  };
}

// Aborts when any of `signals` does (AbortSignal.any where the runtime has it).
function anySignal(signals) {
  const present = signals.filter(Boolean);
  if (present.length === 1) return present[0];
  if (typeof AbortSignal.any === 'function') return AbortSignal.any(present);
  const controller = new AbortController();
  for (const signal of present) {
    if (signal.aborted) controller.abort(signal.reason);
    else signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
  }
  return controller.signal;
}

function checkPlan(plan) {
  if (!Array.isArray(plan) || plan.length === 0 || plan.length > MAX_PLANNED_STEPS) {
    return invalid('plan', `plan must be a list of 1 to ${MAX_PLANNED_STEPS} steps`);
  }
  for (const [index, step] of plan.entries()) {
    if (typeof step?.description !== 'string' || step.description.trim() === '') return invalid(`plan[${index}].description`, 'each step needs a description');
    if (!STEP_TYPES.includes(step.type)) return invalid(`plan[${index}].type`, `type must be one of ${STEP_TYPES.join(', ')}`);
  }
  return null;
}
