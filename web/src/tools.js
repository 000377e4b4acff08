// Native tool calling: the tool definitions the core generates from the
// domain, the arguments a model sends, and the one shape every tool result
// takes on its way back to the model. The adapters (adapters/ai.js,
// adapters/openai.js) and the loop's native mode all go through here.
import { AlfredError, internalError } from './errors.js';
import { TOOL_NAMES } from '../dist/core-rules.mjs';

/** The four tool names, in the order the core lists them (generated from the core). */
export { TOOL_NAMES };

export function deepFreeze(value) {
  if (value && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/** @internal Core#toolDefinitions: the core's JSON, parsed and frozen. */
export function toolDefinitions(module, domainHandle, { strict }) {
  let parsed;
  try {
    parsed = JSON.parse(module.toolDefinitions(domainHandle, strict));
  } catch (cause) {
    throw new AlfredError(internalError(cause));
  }
  if (parsed.error) throw new AlfredError(parsed.error);
  return deepFreeze(parsed.data);
}

/**
 * A tool call's arguments as the model sent them: an object, or JSON text
 * (OpenAI's `arguments`). `{ params }`, or `{ error }` for text that is not
 * JSON, so the model is told instead of the call failing.
 */
export function toolArguments(args) {
  if (typeof args !== 'string') return { params: args ?? null, error: null };
  try {
    return { params: JSON.parse(args), error: null };
  } catch (cause) {
    return {
      params: null,
      error: {
        code: 'invalid_json',
        path: '',
        message: `the arguments are not valid JSON: ${cause?.message ?? cause}`,
        hint: 'send the arguments as one JSON object, e.g. {"table": "inventory", "filters": []}',
      },
    };
  }
}

// The error as the model may see it: never `raw` (the developer's copy with
// UUIDs), never the HTTP status or the database's own code.
function modelError(error) {
  const out = { code: error.code ?? 'error', path: error.path ?? '', message: error.message ?? '', hint: error.hint ?? '' };
  if (error.details) out.details = typeof error.details === 'string' ? error.details : JSON.stringify(error.details);
  return out;
}

// The rows as the model may see them: a UUID inside a value (a note that
// quotes one) becomes its ref or `<id>`, by the core's scrubber over the rows'
// JSON text (JSON.stringify never escapes a hex digit or a dash, so every UUID
// in a value is there as written). `outcome.data` keeps the text verbatim
// for the developer and for writes (docs/uuid-scrubbing.md).
function rowsForModel(core, rows, registry) {
  if (rows.length === 0) return rows;
  const text = JSON.stringify(rows);
  const scrubbed = core.withoutUuids(text, { registry });
  return scrubbed === text ? rows : JSON.parse(scrubbed);
}

// The preview of a held write as the model may see it: what it would change
// (refs and labels), without the keys the host checks approvals against.
function previewForModel(core, preview, registry) {
  const { tool, table, count, rows, data } = preview;
  const out = { tool, table, count, rows: rowsForModel(core, rows ?? [], registry) };
  if (data !== undefined) out.data = data;
  return out;
}

/**
 * The tool result for the model, one shape for every tool and adapter:
 * `{ ok: true, tool, table, count, rows, query }` (rows with refs, the
 * executed query rendered as text) or `{ ok: false, tool, table, error: { code,
 * path, message, hint, details? }, query? }` (`query` when the call reached
 * the database). `outcome` is what `act.execute` resolved to; `registry`
 * (the Act's) turns a known UUID inside a text value into its ref rather
 * than `<id>`.
 */
export function toolResult(core, tool, outcome, { registry } = {}) {
  const query = outcome?.query ? core.renderQuery(outcome.query).data ?? null : null;
  const table = outcome?.query?.table ?? null;
  if (outcome?.error) {
    const out = { ok: false, tool: String(tool), table, error: modelError(outcome.error) };
    // A write held for approval tells the model what it would change.
    if (outcome.error.preview) out.error.preview = previewForModel(core, outcome.error.preview, registry);
    // The query only when it ran (a database refusal); a call refused before
    // any request has nothing to show but the error.
    if (query && outcome.query.source !== 'none') out.query = query;
    return out;
  }
  const data = outcome?.data ?? null;
  const rows = Array.isArray(data) ? data : data === null ? [] : [data];
  return { ok: true, tool: String(tool), table, count: outcome?.count ?? rows.length, rows: rowsForModel(core, rows, registry), query };
}

/** @internal Act#callTool: arguments in, the model's tool result out; never throws but for `signal`. */
export async function callTool(core, act, name, args, { signal, approved, preview } = {}) {
  const { params, error } = toolArguments(args);
  if (error) return toolResult(core, name, { data: null, error, query: null, count: null });
  const outcome = await act.execute(name, params, { signal, ...(approved === undefined ? {} : { approved }), ...(preview === undefined ? {} : { preview }) });
  return toolResult(core, name, outcome, { registry: act.registry });
}
