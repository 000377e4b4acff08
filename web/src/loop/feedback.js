// What the model is told when its answer could not be used. Each message is
// the "tool result" of its rejected decision: what went wrong, where, and
// what is allowed, so the next answer can be a correction (never a guess).

import { codes } from '../../dist/error-codes.mjs';

const closing = 'Answer again with one corrected decision, or with "blocked" if the step cannot be done.';

function errorLines(error) {
  const lines = [`Error ${error.code ?? 'error'}${error.path ? ` at ${error.path}` : ''}: ${error.message}`];
  if (error.hint) lines.push(`Hint: ${error.hint}`);
  if (error.details) lines.push(`Details: ${typeof error.details === 'string' ? error.details : JSON.stringify(error.details)}`);
  return lines;
}

/** The decision text was not a valid decision (malformed JSON, missing fields). */
export function malformedDecisionFeedback(error) {
  return ['Your answer is not a valid decision; nothing was done.', ...errorLines(error), closing].join('\n');
}

// Errors after which a write may have been applied: its answer was lost, or
// the executor failed after sending it.
const OUTCOME_UNKNOWN = new Set([codes.write_outcome_unknown, codes.internal_error, codes.out_of_memory]);

/**
 * The executor refused the tool call or the database rejected it; for a
 * write whose outcome is unknown, that it may have been applied and must be
 * read back before it is tried again (never "no effect").
 */
export function toolErrorFeedback(tool, error) {
  if (tool !== 'db_read' && OUTCOME_UNKNOWN.has(error.code)) {
    return [
      `Tool result for ${tool}: OUTCOME UNKNOWN. The change may or may not have been made.`,
      ...errorLines(error),
      'Read the rows it would have changed (db_read) to see whether it was made before you write again.',
      closing,
    ].join('\n');
  }
  return [`Tool result for ${tool}: ERROR. The call had no effect.`, ...errorLines(error), closing].join('\n');
}

/** A tool this step type may not use (a write in a read step). */
export function toolNotAllowedFeedback(tool, stepType, allowed) {
  const list = allowed.length > 0 ? allowed.join(', ') : 'no tools';
  return [
    `Tool ${tool} is not allowed in a ${stepType} step; nothing was done.`,
    `Allowed here: ${list}. When the step's goal is reached, answer step_complete.`,
    closing,
  ].join('\n');
}

/** The exact call already ran in this step: its result is in the prompt. */
export function repeatedCallFeedback(tool) {
  return [
    `This ${tool} call is identical to one already run in this step; it was not run again.`,
    'Its result is under this step\'s tool results. Use it: answer step_complete, or make a different call.',
  ].join('\n');
}

/** Generated content that could not be kept as gen_ refs. */
export function artifactFeedback(error) {
  return ['The generated data could not be registered; nothing was kept.', ...errorLines(error), closing].join('\n');
}

/**
 * Native tool calling: the step's database tools are function tools. Sent
 * as a second system message after the Act prompt, whose decision format
 * still ends the step.
 */
export function nativeToolsInstruction(allowed) {
  return [
    `The database tools of this step (${allowed.join(', ')}) are available as function tools: call them directly, one call per action, instead of writing a tool_call decision.`,
    'Each call is answered with a tool result: { ok: true, rows, query } with rows by ref, or { ok: false, error: { code, path, message, hint } } when it had no effect; correct the call from the error and the hint.',
    'When the step is done, answer with the decision JSON (step_complete, ask_user, blocked or fail), not with a tool call.',
  ].join('\n');
}
