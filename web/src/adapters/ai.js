// alfred-act/ai: the four database tools as a Vercel AI SDK `tools` object.
// The schemas are the core's (act.tools()); every call runs through
// act.callTool, so a refused call (bad column, unknown ref, missing filter)
// comes back to the model as a tool result it can correct, never as a thrown
// error that ends the generation.
import { jsonSchema, tool } from 'ai';

/**
 * The `tools` for `generateText` / `streamText` / `ToolLoopAgent`:
 * `{ db_read, db_create, db_update, db_delete }`, each `tool({ description,
 * inputSchema: jsonSchema(…), execute })`. Options: `strict` (default `true`:
 * the OpenAI strict-mode schemas, which providers without strict mode take
 * as well; AI SDK 6 and 7 send `strict: true` with each tool, while AI SDK
 * 5's tools have no such field and its OpenAI provider takes `providerOptions:
 * { openai: { strictJsonSchema: true } }` per call instead), `tools` (a subset
 * of the names, e.g. `['db_read']` for a read-only agent), `schema`
 * (`'compact'`, the default: one line per table in db_read's description;
 * `'inline'`: the whole schema in the tools). The result of each call is
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
  if (!act || typeof act.tools !== 'function' || typeof act.callTool !== 'function') {
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
  const out = {};
  for (const definition of definitions) {
    if (wanted && !wanted.has(definition.name)) continue;
    out[definition.name] = tool({
      description: definition.description,
      inputSchema: jsonSchema(structuredClone(definition.parameters)),
      strict,
      execute: (input, { abortSignal } = {}) => act.callTool(definition.name, input, { signal: abortSignal }),
    });
  }
  return out;
}
