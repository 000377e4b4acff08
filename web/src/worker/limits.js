// Per-user limits on /act/turn: turns per minute and running turns (checked
// before a turn starts, 429 with Retry-After), model calls and tokens per turn
// and per day (checked before every model call, the call's own estimated
// tokens included). On /act/execute and /mcp: requests per minute and
// requests running at once. Counts live in a LimitStore (limit-store.js);
// the per-turn ones in the turn itself.
import { LlmError } from '../llm/index.js';
import { codes } from '../../dist/error-codes.mjs';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
// A turn that never released its slot (its isolate died) frees it after this.
const TURN_LEASE_MS = 15 * MINUTE_MS;
// A refused concurrent turn is told to retry after this: when the running
// turn ends is not known.
const CONCURRENT_RETRY_MS = 5_000;

// A request that never released its slot (its isolate died) frees it after this.
const REQUEST_LEASE_MS = 2 * MINUTE_MS;

const keys = (userId) => ({
  turns: `turns:${userId}`,
  running: `running:${userId}`,
  requests: `requests:${userId}`,
  runningRequests: `running-requests:${userId}`,
  callsToday: `model-calls:${userId}`,
  tokensToday: `tokens:${userId}`,
});

/**
 * Admits a turn for `userId` or says why not: `{ data: { release() }, error }`,
 * error `{ status: 429, code, message, hint, retryAfterMs }`. A day budget
 * already spent is refused first (no slot is taken), then a running-turn slot
 * is taken, then the turn is counted against the minute; a refusal gives back
 * what was taken. `release()` must be called when the turn has finished.
 */
export async function admitTurn({ store, limits, userId, now = Date.now() }) {
  const key = keys(userId);
  const spent = await daySpent({ store, limits, key, now });
  if (spent) return { data: null, error: spent };

  return slotThenMinute(store, now, {
    running: key.running,
    leaseMs: TURN_LEASE_MS,
    concurrent: limits.concurrentTurns,
    busy: [codes.too_many_concurrent_turns, `${limits.concurrentTurns} of your turns are already running`],
    counted: key.turns,
    perMinute: limits.turnsPerMinute,
    tooFast: [codes.too_many_turns, `more than ${limits.turnsPerMinute} turns a minute`],
  });
}

/**
 * Admits one /act/execute or /mcp request for `userId` or says why not:
 * `{ data: { release() }, error }`, error `{ status: 429, code, message,
 * hint, retryAfterMs }` (`too_many_concurrent_requests`,
 * `too_many_requests`). A slot among `limits.concurrentRequests` is taken,
 * then the request is counted against `limits.requestsPerMinute`; a refusal
 * gives back what was taken. `release()` must be called when the request
 * has been answered.
 *
 * @example
 * const { data: admitted, error } = await admitRequest({ store, limits: config.limits, userId })
 * if (error) return tooMany(error)
 * try { … } finally { await admitted.release() }
 */
export async function admitRequest({ store, limits, userId, now = Date.now() }) {
  const key = keys(userId);
  return slotThenMinute(store, now, {
    running: key.runningRequests,
    leaseMs: REQUEST_LEASE_MS,
    concurrent: limits.concurrentRequests,
    busy: [codes.too_many_concurrent_requests, `${limits.concurrentRequests} of your requests are already running`],
    counted: key.requests,
    perMinute: limits.requestsPerMinute,
    tooFast: [codes.too_many_requests, `more than ${limits.requestsPerMinute} requests a minute`],
  });
}

// A slot among `concurrent` at `running`, then one more in the minute's
// count at `counted`: `{ data: { release }, error }`, the 429 naming which
// limit (`busy` or `tooFast`: [code, message]); a refusal gives back the
// slot it took.
async function slotThenMinute(store, now, { running, leaseMs, concurrent, busy, counted, perMinute, tooFast }) {
  const slot = await store.acquire(running, { limit: concurrent, leaseMs, now });
  if (!slot.allowed) return tooMany(busy[0], busy[1], 'wait for one to finish', CONCURRENT_RETRY_MS);
  const release = () => store.release(running, slot.lease);
  const taken = await store.take(counted, { amount: 1, limit: perMinute, windowMs: MINUTE_MS, now });
  if (!taken.allowed) {
    await release();
    return tooMany(tooFast[0], tooFast[1], 'slow down', taken.retryAfterMs);
  }
  return { data: { release }, error: null };
}

// The 429 for a spent day budget, or null. `amount: 0` only reads.
async function daySpent({ store, limits, key, now }) {
  const calls = await store.take(key.callsToday, { amount: 0, limit: limits.modelCallsPerDay, windowMs: DAY_MS, now });
  if (calls.used >= limits.modelCallsPerDay) {
    return tooMany(codes.daily_model_calls_exhausted, `your ${limits.modelCallsPerDay} model calls for the day are used up`, 'the budget renews 24 hours after its first call', calls.retryAfterMs).error;
  }
  const tokens = await store.take(key.tokensToday, { amount: 0, limit: limits.tokensPerDay, windowMs: DAY_MS, now });
  if (tokens.used >= limits.tokensPerDay) {
    return tooMany(codes.daily_tokens_exhausted, `your ${limits.tokensPerDay} model tokens for the day are used up`, 'the budget renews 24 hours after its first call', tokens.retryAfterMs).error;
  }
  return null;
}

function tooMany(code, message, hint, retryAfterMs) {
  const seconds = retryAfterSeconds(retryAfterMs);
  return { data: null, error: { status: 429, code, message, hint: `${hint}; retry after ${seconds} s`, retryAfterMs } };
}

/** Retry-After in whole seconds, at least 1. */
export const retryAfterSeconds = (ms) => Math.max(1, Math.ceil(ms / 1000));

/**
 * `model` with the turn's and the day's budgets in front of it: a call past
 * a budget, or after `signal` aborted, throws an LlmError (the loop ends the
 * step with it as the error: `turn_model_calls_exceeded`,
 * `turn_tokens_exceeded`, `daily_model_calls_exhausted`,
 * `daily_tokens_exhausted`, `aborted`) and never reaches the model. Tokens
 * are the provider's `usage.total_tokens` (or prompt + completion), else an
 * estimate of a token per 4 characters sent and received. A call starts only
 * while the day's budget has room and its own prompt, estimated
 * (estimatedPromptTokens), fits what is left of the turn's; the call whose
 * answer crosses a budget completes.
 */
export function budgetedModel(model, { store, limits, userId, signal, now = Date.now }) {
  const key = keys(userId);
  const turn = { calls: 0, tokens: 0 };
  const refuse = (code, message) => {
    throw new LlmError({ code, message });
  };
  async function complete(request) {
    if (signal?.aborted) refuse(codes.aborted, 'the client disconnected; no further model calls');
    if (turn.calls >= limits.modelCallsPerTurn) refuse(codes.turn_model_calls_exceeded, `this turn has made its ${limits.modelCallsPerTurn} model calls`);
    if (turn.tokens >= limits.tokensPerTurn) refuse(codes.turn_tokens_exceeded, `this turn has used its ${limits.tokensPerTurn} model tokens`);
    // The call itself must fit what is left: its prompt, estimated before it is sent.
    const estimate = estimatedPromptTokens(request);
    if (turn.tokens + estimate > limits.tokensPerTurn) {
      refuse(codes.turn_tokens_exceeded, `this model call's prompt is about ${estimate} tokens, more than the ${limits.tokensPerTurn - turn.tokens} left of this turn's ${limits.tokensPerTurn}; it was not sent`);
    }
    const tokens = await store.take(key.tokensToday, { amount: 0, limit: limits.tokensPerDay, windowMs: DAY_MS, now: now() });
    if (tokens.used >= limits.tokensPerDay) refuse(codes.daily_tokens_exhausted, `your ${limits.tokensPerDay} model tokens for the day are used up`);
    const call = await store.take(key.callsToday, { amount: 1, limit: limits.modelCallsPerDay, windowMs: DAY_MS, now: now() });
    if (!call.allowed) refuse(codes.daily_model_calls_exhausted, `your ${limits.modelCallsPerDay} model calls for the day are used up`);
    // The await above may have spanned a disconnect.
    if (signal?.aborted) refuse(codes.aborted, 'the client disconnected; no further model calls');
    turn.calls += 1;
    const reply = await model.complete({ ...request, signal: request.signal ?? signal });
    const spent = tokensOf(reply, request);
    turn.tokens += spent;
    await store.take(key.tokensToday, { amount: spent, limit: limits.tokensPerDay, windowMs: DAY_MS, now: now(), force: true });
    return reply;
  }
  return { model: model.model, complete, usage: turn };
}

/**
 * A model call's prompt in tokens, estimated before it is sent: a token per
 * 4 characters of its messages' JSON (what the reply's usage counts when
 * the provider gives none).
 *
 * @example
 * estimatedPromptTokens({ messages: [{ role: 'user', content: 'x'.repeat(4000) }] }) // 1008
 */
export function estimatedPromptTokens(request) {
  return Math.ceil(JSON.stringify(request?.messages ?? []).length / 4);
}

function tokensOf(reply, request) {
  const usage = reply?.usage;
  if (Number.isFinite(usage?.total_tokens)) return usage.total_tokens;
  if (Number.isFinite(usage?.prompt_tokens) || Number.isFinite(usage?.completion_tokens)) return (usage.prompt_tokens ?? 0) + (usage.completion_tokens ?? 0);
  const sent = JSON.stringify(request.messages ?? []).length;
  return Math.ceil((sent + String(reply?.content ?? '').length) / 4);
}
