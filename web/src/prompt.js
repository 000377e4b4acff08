// Executed-query rendering and ActDecision parsing, thin wrappers over
// wasm/prompt_bindings.cpp (prompt assembly itself uses the byte transfer in
// core/boundary.js), and the ActDecision schema. Inputs cross the boundary as
// JSON text; every call returns `{ data, error }` and never throws.
import { actDecisionSchema } from '../dist/decision-schema.mjs';
import { AlfredError, internalError } from './errors.js';
import { codes } from '../dist/error-codes.mjs';

/**
 * The JSON Schema of the Act model's output, valid under OpenAI strict
 * structured outputs (every property required, nullable as `["type", "null"]`,
 * `additionalProperties: false`). `params.data` and `data` are JSON text:
 * strict mode has no open objects. Generated at build time from
 * prompts/act/decision.schema.json (the core's tests check it against the
 * core's tool and filter rules; the core itself never reads it).
 *
 * @example
 * const response = await openai.chat.completions.create({ model, messages,
 *   response_format: { type: 'json_schema', json_schema: { name: 'act_decision', strict: true, schema: actDecisionSchema } } })
 * const { data: decision, error } = core.parseDecision(response.choices[0].message.content, { stepType: 'read' })
 */
export { actDecisionSchema };

function asResult(run) {
  try {
    return run();
  } catch (cause) {
    if (cause instanceof AlfredError) return { data: null, error: cause.toJSON() };
    return { data: null, error: internalError(cause) };
  }
}

function jsonOf(value, path) {
  try {
    return JSON.stringify(value ?? null);
  } catch (cause) {
    throw new AlfredError({ code: codes.invalid_option, path, message: `${path} cannot be written as JSON: ${cause?.message ?? cause}` });
  }
}

/** @internal Core#renderQuery. */
export function renderQuery(plumbing, module, record, { style = 'block' } = {}) {
  return asResult(() => {
    const text = jsonOf(record, 'record');
    plumbing.checkInput(text, 'record');
    return JSON.parse(plumbing.callWithInput(text, (length) => module.renderQueryAt(length, String(style))));
  });
}

/** @internal Core#parseDecision. */
export function parseDecision(plumbing, module, text, { stepType } = {}) {
  return asResult(() => {
    const reply = String(text ?? '');
    plumbing.checkInput(reply, 'text');
    const step = stepType ? String(stepType).slice(0, 80) : '';
    return JSON.parse(plumbing.callWithInput(reply, (length) => module.parseDecisionAt(length, step)));
  });
}
