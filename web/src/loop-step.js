// One planned step of the Act loop: prompt → model decision → tool call
// through the executor → result back into the prompt, until the model ends
// the step or a bound (tool calls, corrections) is reached. Every mistake the
// model makes is answered with a message it can correct; nothing it writes
// reaches the database without passing the executor's checks.
import { artifactsOf, registerArtifacts } from './loop-artifacts.js';
import {
  artifactFeedback,
  malformedDecisionFeedback,
  repeatedCallFeedback,
  toolErrorFeedback,
  toolNotAllowedFeedback,
} from './loop-feedback.js';
import { actPromptInput } from './loop-prompt-input.js';

/**
 * Which tools each step type may call, as the core's decision parser rules
 * (prompt_step.h): a write step reads to find what it changes; analyze and
 * generate steps work on what earlier steps read.
 */
export const STEP_TOOLS = Object.freeze({
  read: Object.freeze(['db_read']),
  write: Object.freeze(['db_read', 'db_create', 'db_update', 'db_delete']),
  analyze: Object.freeze([]),
  generate: Object.freeze([]),
});

/** Successful db_read calls of one table that found nothing before the step is ended as complete. */
const EMPTY_READS_PER_TABLE = 2;

const isEmptyRead = (record) => !record.error && Array.isArray(record.data) && record.data.length === 0;

/**
 * Runs one step and resolves to its result (a plain, serializable object);
 * model and executor failures end the step with `status: 'error'` or
 * `'aborted'` instead of throwing, so the turn keeps what already ran.
 *
 * `status`: `complete` | `ask_user` | `blocked` | `failed` | `limit_reached` | `error` | `aborted`.
 * The second successful db_read of the same table that returns no rows ends
 * the step as `complete` with the summary "Step completed (no data found in
 * <table>)"; the model is not asked to search on.
 * `queries`: every executed call `{ tool, table, params, data, error, count, query }`.
 *
 * @param {object} options
 * @param options.step        `{ description, type: 'read'|'write'|'analyze'|'generate', subdomain? }`
 * @param options.context     `{ index, count, plan, userMessage, conversation, previousSteps, recentTurns, today, domain }`
 *                            and optionally the prompt's `userProfile`, `subdomainGuidance`, `templates`, `limits`
 * @param options.maxToolCalls successful tool calls before the step is ended for it
 * @param options.maxRetries  corrections (bad decision, refused call) the model gets in this step
 */
export async function runStep({ core, act, model, step, context = {}, maxToolCalls = 6, maxRetries = 3, signal, onEvent }) {
  const domain = context.domain ?? act.domain;
  const allowed = STEP_TOOLS[step.type] ?? [];
  const result = newStepResult(step, context.index ?? 0);
  const emit = (type, fields = {}) => onEvent?.({ type, step: result.index, ...fields });
  const finish = (status, fields = {}) => {
    Object.assign(result, { status }, fields);
    emit('step_done', { result });
    return result;
  };

  emit('step_started', { description: step.description, stepType: step.type });
  const executed = new Set();
  const emptyReads = new Map();
  let corrections = [];

  while (true) {
    if (signal?.aborted) return finish('aborted', { error: abortedError() });
    const results = result.queries.filter((record) => !record.error);
    const prompt = core.buildActPrompt(actPromptInput({ step, context, results }), { registry: act.registry, domain });
    if (prompt.error) return finish('error', { error: prompt.error });
    emit('prompt', { system: prompt.data.system, user: prompt.data.user });

    let reply;
    try {
      reply = await model.complete({
        messages: [{ role: 'system', content: prompt.data.system }, { role: 'user', content: prompt.data.user }, ...corrections],
        schema: core.actDecisionSchema,
        schemaName: 'act_decision',
        signal,
      });
    } catch (cause) {
      if (signal?.aborted) return finish('aborted', { error: abortedError() });
      return finish('error', { error: modelError(cause) });
    }
    result.modelCalls += 1;
    addUsage(result.usage, reply.usage);

    // A correction is the rejected answer plus what was wrong with it; past
    // the budget the step ends blocked with the last error as the reason.
    const reject = (reason, error, feedback) => {
      result.rejected.push({ reason, error });
      if (result.rejected.length > maxRetries) {
        return finish('blocked', {
          blocked: { reason_code: 'TOOL_FAILURE', details: `gave up after ${maxRetries} corrections: ${error.message}`, suggested_next: 'ask_user' },
          error,
        });
      }
      emit('retry', { reason, error, retriesLeft: maxRetries - result.rejected.length });
      const scrubbed = core.withoutUuids(feedback, { registry: act.registry });
      corrections = [...corrections, { role: 'assistant', content: reply.content }, { role: 'user', content: scrubbed }];
      return null;
    };

    const parsed = core.parseDecision(reply.content, { stepType: step.type });
    if (parsed.error) {
      const reason = parsed.error.code === 'action_not_allowed' ? 'tool_not_allowed' : 'malformed_decision';
      const ended = reject(reason, parsed.error, malformedDecisionFeedback(parsed.error));
      if (ended) return ended;
      continue;
    }
    const decision = parsed.data;
    result.decision = decision;
    emit('decision', { decision });

    if (decision.action === 'tool_call') {
      const { tool, params } = decision;
      if (!allowed.includes(tool)) {
        const error = { code: 'tool_not_allowed', path: 'tool', message: `${tool} is not allowed in a ${step.type} step`, hint: `allowed: ${allowed.join(', ') || 'none'}` };
        const ended = reject('tool_not_allowed', error, toolNotAllowedFeedback(tool, step.type, allowed));
        if (ended) return ended;
        continue;
      }
      const callKey = JSON.stringify([tool, params]);
      if (executed.has(callKey)) {
        const error = { code: 'repeated_call', path: '', message: `the same ${tool} call already ran in this step`, hint: 'use its result or make a different call' };
        const ended = reject('repeated_call', error, repeatedCallFeedback(tool));
        if (ended) return ended;
        continue;
      }
      emit('tool_call', { tool, params });
      let outcome;
      try {
        outcome = await act.execute(tool, params, { signal });
      } catch (cause) {
        if (signal?.aborted) return finish('aborted', { error: abortedError() });
        return finish('error', { error: { code: 'executor_error', path: '', message: String(cause?.message ?? cause), hint: '' } });
      }
      const record = {
        tool,
        table: outcome.query?.table ?? params?.table ?? null,
        params,
        data: outcome.data ?? null,
        error: outcome.error ?? null,
        count: outcome.count ?? null,
        query: outcome.query ?? null,
      };
      result.queries.push(record);
      if (record.query) emit('query', { query: record.query });
      emit('result', { tool, table: record.table, data: record.data, error: record.error, count: record.count });
      if (record.error) {
        const ended = reject('tool_error', record.error, toolErrorFeedback(tool, record.error));
        if (ended) return ended;
        continue;
      }
      executed.add(callKey);
      corrections = [];
      // Empty reads of one table that only change the filters are a search
      // with no end: the second one ends the step
      // (docs/limits.md#empty-reads-in-the-act-loop).
      if (tool === 'db_read' && isEmptyRead(record)) {
        const empties = (emptyReads.get(record.table) ?? 0) + 1;
        emptyReads.set(record.table, empties);
        if (empties >= EMPTY_READS_PER_TABLE) {
          return finish('complete', { summary: `Step completed (no data found in ${record.table})`, note: `no data found in ${record.table}` });
        }
      }
      if (results.length + 1 >= maxToolCalls) {
        return finish('limit_reached', { summary: `Step ended: the limit of ${maxToolCalls} tool calls was reached.` });
      }
      continue;
    }

    if (decision.action === 'step_complete') {
      if (step.type === 'generate') {
        const found = artifactsOf(decision.data, domain);
        const registered = found.error ? found : registerArtifacts(act.registry, found.data, domain);
        result.generated.push(...(registered.data ?? []));
        if (registered.error) {
          const ended = reject('invalid_artifacts', registered.error, artifactFeedback(registered.error));
          if (ended) return ended;
          continue;
        }
      }
      return finish('complete', { summary: decision.summary ?? '', data: decision.data ?? null, note: decision.note_for_next_step ?? null });
    }
    if (decision.action === 'ask_user') return finish('ask_user', { question: decision.question });
    if (decision.action === 'blocked') {
      const { reason_code, details, suggested_next } = decision;
      return finish('blocked', { blocked: { reason_code, details, suggested_next } });
    }
    if (decision.action === 'fail') return finish('failed', { failure: decision });
    const error = { code: 'unknown_action', path: 'action', message: `unknown action ${JSON.stringify(decision.action)}`, hint: 'tool_call, step_complete, ask_user, blocked or fail' };
    const ended = reject('malformed_decision', error, malformedDecisionFeedback(error));
    if (ended) return ended;
  }
}

function newStepResult(step, index) {
  return {
    index,
    description: step.description,
    type: step.type,
    status: null,
    summary: '',
    data: null,
    note: null,
    question: null,
    blocked: null,
    failure: null,
    decision: null,
    generated: [],
    queries: [],
    rejected: [],
    modelCalls: 0,
    usage: { prompt_tokens: 0, completion_tokens: 0 },
    error: null,
  };
}

function addUsage(total, usage) {
  total.prompt_tokens += usage?.prompt_tokens ?? 0;
  total.completion_tokens += usage?.completion_tokens ?? 0;
}

const abortedError = () => ({ code: 'aborted', path: '', message: 'the turn was cancelled', hint: '' });

// LlmError and other drivers' errors as a plain, serializable value.
function modelError(cause) {
  return {
    code: typeof cause?.code === 'string' ? cause.code : 'model_error',
    path: '',
    message: String(cause?.message ?? cause),
    hint: cause?.retryAfterMs ? `retry after ${cause.retryAfterMs} ms` : '',
  };
}
