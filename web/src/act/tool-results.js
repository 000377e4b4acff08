// What belongs to the tools in an act: a native tool call's arguments
// parsed (the object, or the JSON text a provider sends) and its result as
// the text the model reads.
import { internalError, AlfredError } from '../errors.js';
import { toolArguments, toolResultText } from '../tools.js';

// The params of a tool call's `args`, or `text`: the tool result of the
// arguments' error, written as any other result would be.
export function toolCallParams(core, name, args, resultLimits) {
  const { params, error } = toolArguments(args);
  if (error) return { text: toolResultText(core, name, { data: null, error, query: null, count: null }, { resultLimits }) };
  return { params };
}

// The tool result text of `outcome`: the call's own run wrote it; an
// outcome made in JS (a policy's refusal, a held write's preview, a lost
// answer) is written now.
export function outcomeText(core, name, outcome, registry, resultLimits, { fence, table } = {}) {
  if (typeof outcome.modelText === 'string') return outcome.modelText;
  return toolResultText(core, name, outcome, { registry, resultLimits, fence, table });
}

// The tool result text of a call that could not run because the core did
// not load.
export function loadFailureText(name, cause) {
  const error = cause instanceof AlfredError ? cause.toJSON() : internalError(cause);
  return JSON.stringify({ ok: false, tool: String(name), table: null, error: { code: error.code, path: error.path ?? '', message: error.message, hint: error.hint ?? '' } });
}
