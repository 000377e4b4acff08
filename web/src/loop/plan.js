// Minimal planning and reply around the Act loop, with the same model
// driver. Both are replaceable: runTurn takes `planTurn` / `replyTurn`, and a
// turn with its own `steps` skips planning altogether.
import { STEP_TOOLS } from '../../dist/core-rules.mjs';
import { codes } from '../../dist/error-codes.mjs';

// The step types, as the core defines them.
const STEP_TYPES = Object.keys(STEP_TOOLS);

/** The plan's strict structured-output schema (OpenAI strict rules: every property required, no extras). */
export const planSchema = Object.freeze({
  type: 'object',
  additionalProperties: false,
  required: ['steps'],
  properties: {
    steps: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['description', 'type'],
        properties: { description: { type: 'string' }, type: { type: 'string', enum: STEP_TYPES } },
      },
    },
  },
});

// The domain's words for the planner and the reply (prompt example slots
// `planner_generate_example` and `assistant_role`): from the core, which
// derives what the domain does not give; plain words for a core without it.
function wordingOf(domain, core) {
  const examples = core?.promptExamples?.(domain)?.data ?? domain?.prompt_examples ?? {};
  return {
    generated: examples.planner_generate_example || 'new rows',
    assistant: examples.assistant_role || 'a helpful assistant',
  };
}

// The app's functions the agent may call: one line each, marked as reads or
// changes ("" when the domain has none).
function functionLines(domain) {
  const functions = Object.entries(domain.functions ?? {});
  if (functions.length === 0) return [];
  const line = ([name, fn]) => {
    const about = typeof fn?.description === 'string' && fn.description ? ` — ${fn.description.split('\n')[0].slice(0, 120)}` : '';
    return `- ${name}${about} (${fn?.read === true ? 'reads: a read step may call it' : 'changes data: a write step calls it'})`;
  };
  return ["And the app's own functions (prefer one to the generic tools when it does what the user asked):", ...functions.map(line)];
}

function planSystemPrompt(domain, maxSteps, core) {
  // A write-only table (a feedback form's) is never read: no step may plan to.
  const tables = Object.entries(domain.tables)
    .filter(([, table]) => table?.exposed !== false)
    .map(([name, table]) => (table?.readable === false ? `${name} (write-only: a write step adds rows; no step can read them)` : name));
  return [
    'You plan the steps an execution agent takes to answer the user. It works on these database tables:',
    tables.join(', ') + '.',
    ...functionLines(domain),
    'Step types: read (query rows), write (create, update or delete rows), analyze (reason over data read in earlier steps),',
    `generate (create new content such as ${wordingOf(domain, core).generated}, kept unsaved until a later write step saves it).`,
    `Give 1 to ${maxSteps} steps, each one sentence naming the table and the goal. Read before you change rows you have not seen.`,
    'Answer with JSON: {"steps": [{"description": "...", "type": "read"}]}.',
  ].join('\n');
}

const conversationText = (conversation) =>
  conversation.map((message) => `${message.role === 'user' ? 'User' : 'Assistant'}: ${message.content}`).join('\n');

// No UUID reaches the model: the core's scrubber, with the registry's refs
// for rows it knows. Without a core there is no scrubber, and no prompt.
const missingCore = () => ({
  data: null,
  error: { code: codes.invalid_option, path: 'core', message: 'core is required (the loaded core scrubs UUIDs from the prompt)', hint: 'pass the core from loadCore()' },
});
const hasScrubber = (core) => typeof core?.withoutUuids === 'function';

const modelErrorValue = (cause) => ({ code: cause?.code ?? codes.model_error, path: '', message: String(cause?.message ?? cause), hint: '' });

/**
 * Asks the model for a short plan: `{ data: [{ description, type }], error }`.
 * `domain` names the tables; `core` scrubs UUIDs and gives the domain's wording.
 *
 * @example
 * const { data: steps } = await planTurn({ core, model, userMessage: 'which deals close this month?', domain: act.domain })
 */
export async function planTurn({ core, registry, model, userMessage, conversation = [], domain, signal, maxSteps = 5 }) {
  if (!hasScrubber(core)) return missingCore();
  const history = conversation.length > 0 ? `Conversation so far:\n${conversationText(conversation)}\n\n` : '';
  let reply;
  try {
    reply = await model.complete({
      messages: [
        { role: 'system', content: planSystemPrompt(domain, maxSteps, core) },
        { role: 'user', content: core.withoutUuids(`${history}User message: ${userMessage}`, { registry }) },
      ],
      schema: planSchema,
      schemaName: 'turn_plan',
      signal,
    });
  } catch (cause) {
    return { data: null, error: modelErrorValue(cause) };
  }
  let steps;
  try {
    steps = JSON.parse(reply.content).steps;
  } catch {
    steps = null;
  }
  const valid =
    Array.isArray(steps) &&
    steps.length > 0 &&
    steps.every((step) => typeof step?.description === 'string' && step.description !== '' && STEP_TYPES.includes(step.type));
  if (!valid) {
    return { data: null, error: { code: codes.invalid_plan, path: 'steps', message: `the model's plan is unusable: ${reply.content.slice(0, 200)}`, hint: `the planner must answer JSON {"steps": [{"description", "type"}]} with type one of ${STEP_TYPES.join(', ')}: use a model that supports structured output (response_format json_schema), or check the model's name` } };
  }
  return { data: steps.slice(0, maxSteps).map(({ description, type }) => ({ description, type })), error: null };
}

// One line per executed call: what the reply may state as fact.
function queryLine({ tool, table, data, error, count }) {
  if (error) return `  - ${tool} on ${table}: error ${error.code}: ${error.message}`;
  const rows = Array.isArray(data) ? data.length : count;
  return `  - ${tool} on ${table}: ${rows ?? 0} row(s)`;
}

function stepText(step) {
  const lines = [`Step ${step.index + 1} (${step.type}, ${step.status}): ${step.description}`];
  if (step.summary) lines.push(`  Summary: ${step.summary}`);
  if (step.blocked) lines.push(`  Blocked: ${step.blocked.details ?? step.blocked.reason_code}`);
  lines.push(...step.queries.map(queryLine));
  if (step.generated.length > 0) lines.push(`  Generated (not saved yet): ${step.generated.map((item) => `${item.ref} ${item.content.name ?? ''}`.trim()).join(', ')}`);
  return lines.join('\n');
}

/**
 * Asks the model for the user-facing answer from the step results:
 * `{ data: text, error }`. Only what the steps did may be claimed. `domain`
 * gives the assistant's role (`assistant_role`) and what a ref looks like.
 *
 * @example
 * const { data: answer } = await replyTurn({ core, registry: act.registry, model, userMessage, steps, domain: act.domain })
 */
export async function replyTurn({ core, registry, model, userMessage, steps, conversation = [], domain, signal }) {
  if (!hasScrubber(core)) return missingCore();
  const history = conversation.length > 0 ? `Conversation so far:\n${conversationText(conversation)}\n\n` : '';
  try {
    const reply = await model.complete({
      messages: [
        {
          role: 'system',
          content:
            `You are ${wordingOf(domain, core).assistant}. Answer the user from what the executed steps below did. ` +
            'State only what they show; if a step was blocked or failed, say so plainly. Never show internal ids (refs such as ' +
            `${domain ? exampleRef(domain) : 'item_1'}).`,
        },
        {
          role: 'user',
          content: core.withoutUuids(`${history}User message: ${userMessage}\n\nExecuted steps:\n${steps.map(stepText).join('\n')}`, { registry }),
        },
      ],
      signal,
    });
    return { data: reply.content, error: null };
  } catch (cause) {
    return { data: null, error: modelErrorValue(cause) };
  }
}

// A ref of the domain's first table, to show what an internal id looks like.
function exampleRef(domain) {
  const first = Object.values(domain.tables ?? {})[0];
  return `${first?.ref ?? 'item'}_1`;
}
