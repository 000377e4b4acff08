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
import { nativeToolsInstruction } from './loop-feedback.js';
import { openaiTools } from './adapters/openai.js';
import { toolArguments } from './tools.js';

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
 * @param options.toolCalling `'json'` (default): tool calls are ActDecisions in the model's JSON answer;
 *                            `'native'`: the step's tools are sent as OpenAI function tools (the core's
 *                            strict schemas) and the model's `tool_calls` are run, each answered with a
 *                            tool message (`core.toolResult`); the step still ends with a decision. Same
 *                            validation, refs, error feedback, retries and limits; each refused call
 *                            counts as one correction.
 */
export async function runStep({ core, act, model, step, context = {}, maxToolCalls = 6, maxRetries = 3, toolCalling = 'json', signal, onEvent }) {
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
  if (toolCalling !== 'json' && toolCalling !== 'native') {
    return finish('error', {
      error: { code: 'invalid_option', path: 'toolCalling', message: `toolCalling must be 'json' or 'native', got ${JSON.stringify(toolCalling)}`, hint: "'json': tool calls as ActDecisions; 'native': OpenAI tools + tool_calls" },
    });
  }
  // Native: the tools this step type may use, with the core's strict schemas.
  let nativeTools = null;
  if (toolCalling === 'native' && allowed.length > 0) {
    try {
      const definitions = core.toolDefinitions({ domain, strict: true });
      const names = allowed.filter((name) => definitions.some((definition) => definition.name === name));
      nativeTools = names.length > 0 ? openaiTools({ tools: () => definitions }, { tools: names }) : null;
    } catch (cause) {
      return finish('error', { error: { code: cause?.code ?? 'invalid_option', path: cause?.path ?? 'toolCalling', message: `native tool calling needs core.toolDefinitions: ${cause?.message ?? cause}`, hint: cause?.hint ?? '' } });
    }
  }
  const executed = new Set();
  const emptyReads = new Map();
  let corrections = [];

  // Runs one validated-by-the-core call and records it; `ended` when the
  // step cannot go on (aborted, executor failure).
  const runCall = async (tool, params) => {
    emit('tool_call', { tool, params });
    let outcome;
    try {
      outcome = await act.execute(tool, params, { signal });
    } catch (cause) {
      if (signal?.aborted) return { ended: finish('aborted', { error: abortedError() }) };
      return { ended: finish('error', { error: { code: 'executor_error', path: '', message: String(cause?.message ?? cause), hint: '' } }) };
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
    return { record, outcome };
  };

  // After a successful call: the limits that end the step, or null.
  const afterSuccess = (tool, record, previousResults) => {
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
    if (previousResults + 1 >= maxToolCalls) {
      return finish('limit_reached', { summary: `Step ended: the limit of ${maxToolCalls} tool calls was reached.` });
    }
    return null;
  };

  while (true) {
    if (signal?.aborted) return finish('aborted', { error: abortedError() });
    const results = result.queries.filter((record) => !record.error);
    const prompt = core.buildActPrompt(actPromptInput({ step, context, results }), { registry: act.registry, domain });
    if (prompt.error) return finish('error', { error: prompt.error });
    emit('prompt', { system: prompt.data.system, user: prompt.data.user });

    let reply;
    try {
      const system = [{ role: 'system', content: prompt.data.system }];
      if (nativeTools) system.push({ role: 'system', content: nativeToolsInstruction(allowed) });
      reply = await model.complete({
        messages: [...system, { role: 'user', content: prompt.data.user }, ...corrections],
        schema: core.actDecisionSchema,
        schemaName: 'act_decision',
        signal,
        ...(nativeTools ? { tools: nativeTools } : {}),
      });
    } catch (cause) {
      if (signal?.aborted) return finish('aborted', { error: abortedError() });
      return finish('error', { error: modelError(cause) });
    }
    result.modelCalls += 1;
    addUsage(result.usage, reply.usage);

    // A correction is the rejected answer plus what was wrong with it; past
    // the budget the step ends blocked with the last error as the reason.
    const rejection = (reason, error) => {
      result.rejected.push({ reason, error });
      if (result.rejected.length > maxRetries) {
        return finish('blocked', {
          blocked: { reason_code: 'TOOL_FAILURE', details: `gave up after ${maxRetries} corrections: ${error.message}`, suggested_next: 'ask_user' },
          error,
        });
      }
      emit('retry', { reason, error, retriesLeft: maxRetries - result.rejected.length });
      return null;
    };
    const reject = (reason, error, feedback) => {
      const ended = rejection(reason, error);
      if (ended) return ended;
      const scrubbed = core.withoutUuids(feedback, { registry: act.registry });
      corrections = [...corrections, { role: 'assistant', content: reply.content }, { role: 'user', content: scrubbed }];
      return null;
    };

    // Native tool calls: each is answered with a tool message; refused ones
    // keep the exchange in the conversation so the model can correct them,
    // and when all ran, their results are in the next prompt instead.
    if (nativeTools && Array.isArray(reply.toolCalls) && reply.toolCalls.length > 0) {
      const answers = [];
      let refused = false;
      for (const call of reply.toolCalls) {
        const answer = (value) => answers.push({ role: 'tool', tool_call_id: call.id, content: core.withoutUuids(JSON.stringify(value), { registry: act.registry }) });
        const refuse = (reason, error) => {
          refused = true;
          answer({ ok: false, tool: call.name, table: null, error });
          return rejection(reason, error);
        };
        if (!allowed.includes(call.name)) {
          const error = { code: 'tool_not_allowed', path: 'tool', message: `${call.name} is not allowed in a ${step.type} step`, hint: `allowed: ${allowed.join(', ')}` };
          const ended = refuse('tool_not_allowed', error);
          if (ended) return ended;
          continue;
        }
        const { params, error: argumentsError } = toolArguments(call.arguments);
        if (argumentsError) {
          const ended = refuse('tool_error', argumentsError);
          if (ended) return ended;
          continue;
        }
        const callKey = JSON.stringify([call.name, params]);
        if (executed.has(callKey)) {
          const error = { code: 'repeated_call', path: '', message: `the same ${call.name} call already ran in this step`, hint: 'its result is in the prompt: use it, or make a different call' };
          const ended = refuse('repeated_call', error);
          if (ended) return ended;
          continue;
        }
        const previousResults = result.queries.filter((record) => !record.error).length;
        const ran = await runCall(call.name, params);
        if (ran.ended) return ran.ended;
        answer(core.toolResult(call.name, ran.outcome, { registry: act.registry }));
        if (ran.record.error) {
          refused = true;
          const ended = rejection('tool_error', ran.record.error);
          if (ended) return ended;
          continue;
        }
        executed.add(callKey);
        const ended = afterSuccess(call.name, ran.record, previousResults);
        if (ended) return ended;
      }
      corrections = refused ? [...corrections, reply.message, ...answers] : [];
      continue;
    }

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
      const ran = await runCall(tool, params);
      if (ran.ended) return ran.ended;
      const { record } = ran;
      if (record.error) {
        const ended = reject('tool_error', record.error, toolErrorFeedback(tool, record.error));
        if (ended) return ended;
        continue;
      }
      executed.add(callKey);
      corrections = [];
      const ended = afterSuccess(tool, record, results.length);
      if (ended) return ended;
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
