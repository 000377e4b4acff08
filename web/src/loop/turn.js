// One user turn: plan (or take the caller's steps), run each step through
// the Act loop, reply, and hand back the state for the next turn.
import { eventsOf } from './events.js';
import { planTurn as defaultPlanTurn, replyTurn as defaultReplyTurn } from './plan.js';
import { nextTurnState, readTurnState } from './state.js';
import { runStep } from './step.js';
import { todayIso } from './prompt-input.js';

// Step statuses after which the turn goes on with the next step.
const CONTINUES = new Set(['complete', 'limit_reached']);

/**
 * Runs a turn and resolves to `{ status, steps, reply, question, state, error, usage }`;
 * it does not throw for model, executor or plan failures (`status: 'error'`),
 * so `state` always keeps what already ran (rows written, refs handed out).
 *
 * `status`: `done` | `ask_user` | `blocked` | `failed` | `error` | `aborted`.
 * `turn`: `{ userMessage, steps? }` (`plan` is accepted as another name for
 * `steps`); without steps `planTurn` asks the model. `replyTurn: null` skips
 * the reply. Events go to `onEvent` as they happen (see runTurnEvents).
 *
 * @example
 * const act = createAct({ url, apiKey, accessToken, userId, state: state.registry })
 * const result = await runTurn({ core, act, model, turn: { userMessage: 'what is in my fridge?' }, state })
 * state = result.state // JSON-serializable; store it for the next turn
 */
export async function runTurn({
  core,
  act,
  model,
  turn,
  state,
  signal,
  onEvent,
  maxToolCalls,
  maxRetries,
  toolCalling,
  today = todayIso(),
  domain = act.domain,
  planTurn = defaultPlanTurn,
  replyTurn = defaultReplyTurn,
}) {
  const emit = (type, fields = {}) => onEvent?.({ type, ...fields });
  const { userMessage } = turn;
  const usage = { prompt_tokens: 0, completion_tokens: 0 };
  const steps = [];
  const { data: previous, error: stateError } = readTurnState(state);
  if (stateError) return done({ status: 'error', error: stateError, state: state ?? null });
  // Another user's refs never reach a prompt (docs/sessions.md, "One user's refs").
  const session = typeof act.checkSession === 'function' ? await act.checkSession() : { error: null };
  if (session.error) return done({ status: 'error', error: session.error, state: state ?? null });

  const registry = act.registry;
  const turnNumber = Math.max(previous.turn, registry.turn) + 1;
  registry.setTurn(turnNumber);
  emit('turn_started', { turn: turnNumber, userMessage });

  const finish = (fields) => {
    registry.endTurn();
    const reply = fields.reply ?? null;
    const nextState = nextTurnState(previous, { turn: turnNumber, registry: registry.toJSON(), userMessage, reply, steps });
    return done({ reply, question: null, error: null, ...fields, state: nextState });
  };
  function done(fields) {
    const result = { status: fields.status, steps, reply: null, question: null, error: null, usage, ...fields };
    emit('turn_done', { result });
    return result;
  }

  let planned = turn.steps ?? turn.plan;
  if (!planned) {
    const plan = await planTurn({ core, registry: act.registry, model, userMessage, conversation: previous.conversation, domain, signal });
    if (plan.error) return finish({ status: signal?.aborted ? 'aborted' : 'error', error: plan.error });
    planned = plan.data;
  }
  emit('plan', { steps: planned });

  await runSteps(planned, { core, act, model, userMessage, previous, today, domain, maxToolCalls, maxRetries, toolCalling, signal, onEvent }, steps, usage);

  const last = steps.at(-1);
  const status = last && !CONTINUES.has(last.status) ? last.status : 'done';
  if (status === 'error' || status === 'aborted') return finish({ status, error: last.error });
  if (status === 'ask_user') return finish({ status, question: last.question, reply: last.question });
  if (!replyTurn) return finish({ status });
  const answer = await replyTurn({ core, registry: act.registry, model, userMessage, steps, conversation: previous.conversation, domain, signal });
  emit('reply', { reply: answer.data, error: answer.error });
  // A failed reply makes the turn an error: its steps ran (and are in `steps`
  // and the state), but the user got no answer, and 'done' would hide that.
  const ended = signal?.aborted ? 'aborted' : answer.error ? 'error' : status;
  return finish({ status: ended, reply: answer.data, error: answer.error });
}

// Runs the planned steps in order until one does not let the turn go on,
// appending each step's result to `steps` and its tokens to `usage`.
async function runSteps(planned, { core, act, model, userMessage, previous, today, domain, maxToolCalls, maxRetries, toolCalling, signal, onEvent }, steps, usage) {
  for (const [index, step] of planned.entries()) {
    const result = await runStep({
      core,
      act,
      model,
      step,
      context: {
        index,
        count: planned.length,
        plan: planned.map((entry) => entry.description),
        userMessage,
        conversation: previous.conversation,
        previousSteps: steps.slice(),
        recentTurns: previous.recentTurns,
        today,
        domain,
      },
      maxToolCalls,
      maxRetries,
      toolCalling,
      signal,
      onEvent,
    });
    steps.push(result);
    usage.prompt_tokens += result.usage.prompt_tokens;
    usage.completion_tokens += result.usage.completion_tokens;
    if (!CONTINUES.has(result.status)) break;
  }
}

/**
 * runTurn as an async iterator of its events: `turn_started`, `plan`, then
 * per step `step_started`, `prompt`, `decision`, `tool_call`, `query`,
 * `result`, `retry`, `step_done`; then `reply` and `turn_done` (whose
 * `result` is what runTurn resolves to). Leaving the loop early cancels the turn.
 *
 * @example
 * for await (const event of runTurnEvents({ core, act, model, turn, state })) {
 *   if (event.type === 'query') show(event.query)
 *   if (event.type === 'turn_done') state = event.result.state
 * }
 */
export function runTurnEvents(options) {
  return eventsOf(
    (onEvent, signal) =>
      runTurn({
        ...options,
        signal,
        onEvent: (event) => {
          options.onEvent?.(event);
          onEvent(event);
        },
      }),
    options.signal,
  );
}
