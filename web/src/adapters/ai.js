// alfred-act/ai: the four database tools as a Vercel AI SDK `tools` object.
// The schemas are the core's (act.tools()); every call runs through
// act.callTool, so a refused call (bad column, unknown ref, missing filter)
// comes back to the model as a tool result it can correct, never as a thrown
// error that ends the generation.
//
// Approval (createAct({ approve: 'deletes' | 'writes' })) goes through the
// AI SDK's own: the tools that need it carry `needsApproval: true` (AI SDK 6
// and 7), so generateText stops with a `tool-approval-request` the host's UI
// shows, and runs the tool once a `tool-approval-response` approves it. The
// tool runs the write as approved only when that response is in the messages
// it is given; otherwise (AI SDK 5, which has no approval, or an approval the
// SDK decided on its own) the act holds the write and the model reads
// `approval_required`: it fails closed.
import { jsonSchema, tool } from 'ai';
import { callWrites } from '../act/faults.js';
import { needsApproval } from '../policy/options.js';
import { codes } from '../../dist/error-codes.mjs';

const VERBS = { db_create: 'Create', db_update: 'Change', db_delete: 'Delete' };

// Whether the AI SDK approved this tool call: the assistant's
// `tool-approval-request` for `toolCallId` and an approving
// `tool-approval-response` to it are among the messages the SDK passed to
// `execute` (AI SDK 6 and 7 pass the conversation that holds them).
function approvedInMessages(messages, toolCallId) {
  if (!Array.isArray(messages) || typeof toolCallId !== 'string') return false;
  const requests = new Set();
  const approvals = new Set();
  for (const message of messages) {
    if (!Array.isArray(message?.content)) continue;
    for (const part of message.content) {
      if (message.role === 'assistant' && part?.type === 'tool-approval-request' && part.toolCallId === toolCallId) requests.add(part.approvalId);
      if (message.role === 'tool' && part?.type === 'tool-approval-response' && part.approved === true) approvals.add(part.approvalId);
    }
  }
  return [...requests].some((id) => approvals.has(id));
}

// The tools whose calls need the host's approval under the act's policy (a
// function policy asks the host itself, inside the act).
function heldTools(act) {
  const approve = act.policy?.approve;
  return (name) => typeof approve === 'string' && needsApproval(approve, name);
}

/**
 * The `tools` for `generateText` / `streamText` / `ToolLoopAgent`:
 * `{ db_read, db_create, db_update, db_delete }` (only `db_read` for a
 * read-only act), each `tool({ description, inputSchema: jsonSchema(…),
 * execute })`. Options: `strict` (default `true`: the OpenAI strict-mode
 * schemas, which providers without strict mode take as well; AI SDK 6 and 7
 * send `strict: true` with each tool, while AI SDK 5's tools have no such
 * field and its OpenAI provider takes `providerOptions: { openai: {
 * strictJsonSchema: true } }` per call instead), `tools` (a subset of the
 * names, e.g. `['db_read']` for a read-only agent), `schema` (`'compact'`,
 * the default: one line per table in db_read's description; `'inline'`: the
 * whole schema in the tools). The tools a `createAct({ approve })` policy
 * holds carry `needsApproval: true`. The result of each call is
 * `act.callTool`'s, cut to the act's `resultLimits`:
 * `{ ok: true, tool, table, count, query, rows }` or `{ ok: false, tool, table, error }`.
 *
 * @example
 * import { generateText, stepCountIs } from 'ai'
 * import { aiTools } from 'alfred-act/ai'
 * const { text } = await generateText({ model, tools: aiTools(act), stopWhen: stepCountIs(8),
 *   prompt: 'Which recipes can I make with what is in my fridge?' })
 */
export function aiTools(act, { strict = true, tools: names, schema } = {}) {
  if (!act || typeof act.tools !== 'function' || typeof act.callToolText !== 'function') {
    throw new TypeError('aiTools(act): act must come from core.createAct() (or an awaited createAct().ready)');
  }
  const definitions = act.tools({ strict, schema });
  const wanted = names === undefined ? null : new Set(names);
  if (wanted) {
    const known = new Set(definitions.map((definition) => definition.name));
    for (const name of wanted) {
      if (!known.has(name)) throw new TypeError(`aiTools(act, { tools }): '${name}' is not one of ${[...known].join(', ')}`);
    }
  }
  const held = heldTools(act);
  const out = {};
  for (const definition of definitions) {
    if (wanted && !wanted.has(definition.name)) continue;
    const holds = held(definition.name);
    // db_call asks only for the functions that change data (AI SDK 6 and 7
    // take a function; AI SDK 5 ignores it, and the act holds such a call).
    const asks = definition.name === 'db_call' ? (input) => callWrites(act.domain, 'db_call', callInput(input)) : true;
    out[definition.name] = tool({
      description: definition.description,
      inputSchema: jsonSchema(structuredClone(definition.parameters)),
      strict,
      ...(holds ? { needsApproval: asks } : {}),
      execute: async (input, { abortSignal, toolCallId, messages } = {}) => {
        const approved = holds && approvedInMessages(messages, toolCallId);
        const text = await act.callToolText(definition.name, input, { signal: abortSignal, ...(approved ? { approved: true } : {}) });
        const result = JSON.parse(text);
        modelTexts.set(result, text);
        return result;
      },
      toModelOutput: modelOutput,
    });
  }
  return out;
}

// db_call's input as the act reads it: an object, or its JSON text.
function callInput(input) {
  if (typeof input !== 'string') return input;
  try {
    return JSON.parse(input);
  } catch {
    return null; // held: the act refuses it with the parse error
  }
}

// The text the core wrote for each result the tools returned: the model
// gets it as it is, rather than the result serialized again. A result the
// AI SDK rebuilt (from stored messages) is sent as JSON, as without it.
const modelTexts = new WeakMap();

// AI SDK 5 passes the output; 6 and 7 pass { toolCallId, input, output }.
function modelOutput(given) {
  const output = given && typeof given === 'object' && 'toolCallId' in given && 'output' in given ? given.output : given;
  const text = output && typeof output === 'object' ? modelTexts.get(output) : undefined;
  return text === undefined ? { type: 'json', value: output } : { type: 'text', value: text };
}

// One line a person reads before approving: what the write does, to which rows.
function describe(preview) {
  if (preview.tool === 'db_call') {
    const args = Object.entries(preview.args ?? {}).map(([name, value]) => {
      const label = preview.argumentLabels?.[name];
      return `${name} = ${JSON.stringify(value)}${label ? ` (${JSON.stringify(label)})` : ''}`;
    });
    return `Run ${preview.function} (it changes data)${args.length ? ` with ${args.join(', ')}` : ''}`.slice(0, 400);
  }
  const label = (row) =>
    preview.tool === 'db_create'
      ? JSON.stringify(row).slice(0, 120)
      : Object.entries(row)
          .filter(([column, value]) => typeof value === 'string' && !column.startsWith('_'))
          .map(([, value]) => value)
          .join(' ');
  const shown = preview.rows.map(label).join('; ');
  const more = preview.count > preview.rows.length ? ` and ${preview.count - preview.rows.length} more` : '';
  const change = preview.tool === 'db_update' && preview.data !== undefined ? ` to ${JSON.stringify(preview.data).slice(0, 200)}` : '';
  return `${VERBS[preview.tool]} ${preview.count} ${preview.count === 1 ? 'row' : 'rows'} of ${preview.table}${change}${shown ? `: ${shown}` : ''}${more}`;
}

/**
 * AI SDK 7's `toolApproval` for `generateText` / `streamText`: for each tool
 * the act's policy holds, a function that takes the preview (one read of the
 * rows the write would change, which the act keeps to check the approved
 * write against) and asks the user with it as the request's `reason`
 * ("Delete 2 rows of inventory: inv_3 milk; inv_7 oat milk"; for db_call, a
 * function that changes data with its arguments: "Run archive_project (it
 * changes data) with project_id = "project_2" ("Apollo")"). A call the act
 * refuses anyway (an unknown column, too many rows) is not put to the user:
 * it runs and the model reads the error. `onPreview(preview, toolCall)` sees
 * the whole preview, for a UI that shows more than the reason.
 *
 * @example
 * const result = await generateText({ model, tools: aiTools(act), toolApproval: aiToolApproval(act), messages })
 * // result.content has { type: 'tool-approval-request', reason: 'Delete 1 row of inventory: inv_3 milk', … }
 */
export function aiToolApproval(act, { onPreview } = {}) {
  if (!act || typeof act.execute !== 'function' || typeof act.tools !== 'function' || !act.policy) {
    throw new TypeError('aiToolApproval(act): act must come from core.createAct() (or an awaited createAct().ready)');
  }
  const held = heldTools(act);
  const offered = new Set(act.tools().map((definition) => definition.name));
  const out = {};
  for (const name of ['db_create', 'db_update', 'db_delete', 'db_call']) {
    if (!held(name) || !offered.has(name)) continue;
    out[name] = async (input, { toolCallId } = {}) => {
      // A function that only reads is not the user's to approve, and must not
      // run here: executing it would send it.
      if (name === 'db_call' && !callWrites(act.domain, name, callInput(input))) return 'not-applicable';
      // No approval given: the act only previews (a held write sends nothing).
      const outcome = await act.execute(name, input);
      if (outcome.error?.code !== codes.approval_required || !outcome.error.preview) return 'not-applicable';
      try {
        onPreview?.(outcome.error.preview, { toolCallId, toolName: name, input });
      } catch {
        // the UI hook's failure does not decide the approval
      }
      return { type: 'user-approval', reason: describe(outcome.error.preview) };
    };
  }
  return out;
}
