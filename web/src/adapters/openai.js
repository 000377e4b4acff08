// alfred-act/openai: the four database tools as OpenAI function tools (Chat
// Completions and the Responses API) and a dispatcher that runs the model's
// tool calls and returns the messages to send back. Works with the `openai`
// package and with any OpenAI-compatible endpoint; it imports nothing from it.
// Updates, deletes and functions that change data are held for approval
// unless the act's `approve` says otherwise in so many words
// (APPROVE_DEFAULTS.openai); a held write runs only when the caller's
// `approve(call, preview)` says yes; without one it stays held and the model
// reads `approval_required` (fail closed).
import { modelJson } from '../model-json.js';
import { approvalError } from '../policy/gate.js';
import { SURFACE, surfaceApprove } from '../policy/options.js';
import { callWrites } from '../act/faults.js';
import { CALLS_FUNCTION } from '../policy/tool-effects.js';
import { codes } from '../../dist/error-codes.mjs';

// The act's calls from here apply the OpenAI adapter's default approval.
const FROM_OPENAI = Object.freeze({ [SURFACE]: 'openai' });

/**
 * Function tools for `client.chat.completions.create({ tools })` (`api:
 * 'chat'`, the default) or `client.responses.create({ tools })` (`api:
 * 'responses'`). `strict` (default `true`) sends the strict-mode schemas
 * with `strict: true`. `tools` picks a subset of the names. `schema`:
 * `'compact'` (the default, one line per table in db_read's description) or
 * `'inline'` (the whole schema in the tools).
 *
 * @example
 * const tools = openaiTools(act)
 * const completion = await client.chat.completions.create({ model, messages, tools })
 */
export function openaiTools(act, { api = 'chat', strict = true, tools: names, schema } = {}) {
  if (api !== 'chat' && api !== 'responses') throw new TypeError(`openaiTools: api must be 'chat' or 'responses', got ${JSON.stringify(api)}`);
  const definitions = act.tools({ strict, schema });
  const wanted = names === undefined ? null : new Set(names);
  if (wanted) {
    for (const name of wanted) {
      if (!definitions.some((definition) => definition.name === name)) throw new TypeError(`openaiTools: '${name}' is not a tool`);
    }
  }
  return definitions
    .filter((definition) => !wanted || wanted.has(definition.name))
    .map(({ name, description, parameters }) => {
      const fn = { name, description, parameters: structuredClone(parameters), strict };
      return api === 'chat' ? { type: 'function', function: fn } : { type: 'function', ...fn };
    });
}

// A Chat Completions function tool call ({ id, type: 'function', function:
// { name, arguments } }) or a Responses API item ({ type: 'function_call',
// call_id, name, arguments }); null for anything else (a custom tool's call
// { type: 'custom', custom }, an output message).
function callOf(item) {
  if (item?.type === 'function_call') return { id: item.call_id, name: item.name, args: item.arguments, api: 'responses' };
  if (item?.function) return { id: item.id, name: item.function.name, args: item.function.arguments, api: 'chat' };
  return null;
}

// The call's arguments as an object, for the approver.
function paramsOf(args) {
  if (typeof args !== 'string') return args ?? null;
  try {
    return JSON.parse(args);
  } catch {
    return null;
  }
}

// One call, through the approver when the act holds it: the approved write
// runs with `{ approved: true }` (the act checks it against the preview it
// kept); a denial, or an approver that throws, is a result the model reads.
// Resolves to the result's JSON text, as the core wrote it (a successful
// call's rows are never parsed on their way to the model).
async function runCall(act, call, { signal, approve }) {
  const text = await act.callToolText(call.name, call.args, { signal, ...FROM_OPENAI });
  if (typeof approve !== 'function' || !text.startsWith('{"ok":false')) return text;
  const result = JSON.parse(text);
  // A function policy on the act asked already; its answer stands.
  const held = result.error?.code === codes.approval_required && typeof surfaceApprove(act, 'openai') === 'string';
  if (!held) return text;
  const preview = result.error.preview;
  let answer;
  try {
    answer = await approve({ id: call.id, tool: call.name, table: result.table ?? preview?.table ?? null, params: paramsOf(call.args) }, preview);
  } catch (cause) {
    return modelJson({ ...result, error: modelCopy(approvalError(preview, { failure: String(cause?.message ?? cause).slice(0, 200) })) });
  }
  signal?.throwIfAborted();
  // The result keeps its fence (notice, end) around the preview.
  if (answer !== true) return modelJson({ ...result, error: modelCopy(approvalError(preview, { denied: true })) });
  return act.callToolText(call.name, call.args, { signal, ...FROM_OPENAI, approved: true });
}

const modelCopy = ({ code, path, message, hint, preview }) => ({ code, path, message, hint, preview });

// How many of the model's reads in a row run at once (a browser opens about
// six connections to one host; the rest of its page needs some too).
const READS_AT_ONCE = 4;

/**
 * Runs the model's tool calls in order (a write may depend on the read
 * before it; reads in a row, which change nothing, run together, up to four
 * at once: one round trip where the model asked for several tables) and
 * resolves to the messages that answer them, in the calls' order: `{ role: 'tool',
 * tool_call_id, content }` for Chat Completions, `{ type:
 * 'function_call_output', call_id, output }` for the Responses API. `calls`
 * is `message.tool_calls` or `response.output`, as the `openai` package types
 * them; items that are not function calls (a custom tool's call, a message,
 * a reasoning item) are skipped. Each `content` / `output` is the JSON text of
 * `act.callToolText`'s result (cut to the act's `resultLimits`), errors
 * included, so the model can correct its call. Updates, deletes and
 * functions that change data are held unless the act's `approve` was given
 * otherwise (`createAct({ approve: 'none' })` runs them unasked); a held
 * write runs when `approve({ id, tool, table, params }, preview)` resolves
 * `true`; without `approve` it is not run, and the model reads
 * `approval_required` (fail closed). An update or delete that selects no
 * row is answered without asking. Rejects
 * only when `signal` aborts.
 *
 * @example
 * const message = completion.choices[0].message
 * messages.push(message, ...(await runToolCalls(act, message.tool_calls, {
 *   approve: (call, preview) => askUser(`${call.tool}: ${preview.count} rows of ${preview.table}`),
 * })))
 */
export async function runToolCalls(act, calls, { signal, approve } = {}) {
  if (approve !== undefined && typeof approve !== 'function') throw new TypeError('runToolCalls: approve must be a function (call, preview) => boolean | Promise<boolean>');
  const answered = (call, text) => (call.api === 'chat' ? { role: 'tool', tool_call_id: call.id, content: text } : { type: 'function_call_output', call_id: call.id, output: text });
  const out = [];
  let reads = [];
  // The reads gathered so far, answered in their order; at most
  // READS_AT_ONCE in flight.
  const runReads = async () => {
    const batch = reads;
    reads = [];
    const texts = new Array(batch.length);
    let next = 0;
    const worker = async () => {
      while (next < batch.length) {
        const at = next++;
        signal?.throwIfAborted();
        texts[at] = await runCall(act, batch[at], { signal, approve });
      }
    };
    await Promise.all(Array.from({ length: Math.min(READS_AT_ONCE, batch.length) }, worker));
    batch.forEach((call, at) => out.push(answered(call, texts[at])));
  };
  for (const item of calls ?? []) {
    const call = callOf(item);
    if (!call) continue;
    // A read, an aggregate or a function the act's domain marks as a read
    // (only a function call's arguments are parsed for it: which function).
    if (!callWrites(act.domain, call.name, CALLS_FUNCTION.has(call.name) ? paramsOf(call.args) : null)) {
      reads.push(call);
      continue;
    }
    await runReads();
    signal?.throwIfAborted();
    out.push(answered(call, await runCall(act, call, { signal, approve })));
  }
  await runReads();
  return out;
}
