// Native tool calling: the tool definitions the core generates from the
// domain, the arguments a model sends, and the one shape every tool result
// takes on its way back to the model. The adapters (adapters/ai.js,
// adapters/openai.js) and the loop's native mode all go through here.
import { AlfredError, internalError } from './errors.js';
import { newFence } from './model-json.js';
import { checkedResultLimits } from './result-limits.js';
import { internalsOf } from './core/internals.js';
import { TOOL_NAMES } from '../dist/core-rules.mjs';
import { codes } from '../dist/error-codes.mjs';

/** The tool names, in the order the core lists them (generated from the core). */
export { TOOL_NAMES };

export function deepFreeze(value) {
  if (value && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/** How much of the schema the tool definitions carry: `'compact'` (the default) or `'inline'`. */
export const TOOL_SCHEMA_MODES = Object.freeze(['compact', 'inline']);

/**
 * @internal `schema` of `toolDefinitions` and the adapters, checked: true
 * for `'inline'`; throws `AlfredError` (`invalid_option`) for anything but
 * the two modes.
 */
export function toolSchemaOption(schema) {
  if (schema === undefined || schema === 'compact') return false;
  if (schema === 'inline') return true;
  throw new AlfredError({
    code: codes.invalid_option,
    path: 'schema',
    message: `schema must be 'compact' or 'inline', got ${JSON.stringify(schema)?.slice(0, 80)}`,
    hint: "'compact': one line per table, the full schema on demand; 'inline': the whole schema in the tools",
  });
}

/** @internal Core#toolDefinitions: the core's JSON, parsed and frozen. */
export function toolDefinitions(module, domainHandle, { strict, inlineSchema = false, readOnly = false, fixed = [] }) {
  let parsed;
  try {
    parsed = JSON.parse(module.toolDefinitions(domainHandle, strict, inlineSchema, readOnly, fixed.join(',')));
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
        code: codes.invalid_json,
        path: '',
        message: `the arguments are not valid JSON: ${cause?.message ?? cause}`,
        hint: 'send the arguments as one JSON object, with the fields the tool\'s parameters name',
      },
    };
  }
}

// The rows as the model may see them: a UUID inside a value (a note that
// quotes one) becomes its ref or `<id>`, by the core's scrubber over the rows'
// JSON text. `outcome.data` keeps the text verbatim for the developer and for
// writes (docs/uuid-scrubbing.md).
function rowsForModel(core, rows, registry) {
  if (rows.length === 0) return rows;
  const text = JSON.stringify(rows);
  const scrubbed = core.withoutUuids(text, { registry });
  return scrubbed === text ? rows : JSON.parse(scrubbed);
}

// The preview of a held write as the model may see it: what it would change
// (refs and labels), without the keys the host checks approvals against. The
// values the call would write are scrubbed as rows are: a UUID the model
// wrote into a text is its ref or `<id>` here too.
function previewForModel(core, preview, registry) {
  const scrubbed = (value) => (value === undefined ? value : rowsForModel(core, [value], registry)[0]);
  if (preview.tool === 'db_call') {
    const { tool, table, count, function: name, args, argumentLabels } = preview;
    return { tool, table, count, rows: [], function: name, args: scrubbed(args), argumentLabels: scrubbed(argumentLabels ?? {}) };
  }
  const { tool, table, count, rows, data } = preview;
  const out = { tool, table, count, rows: rowsForModel(core, rows ?? [], registry) };
  if (data !== undefined) out.data = scrubbed(data);
  return out;
}

/**
 * The JSON text of the tool result for the model (`toolResult`'s shape),
 * written by the core from an outcome JS holds. `limited` (internal: the
 * read was sent with the cap as its limit) makes the narrowing hint;
 * `fence` (internal: one drawn for the call, newFence) the marker that
 * fences the row text, a new one when not given; `table` the table the call
 * named, for a call refused before it had a query.
 */
export function toolResultText(core, tool, outcome, { registry, resultLimits, limited = false, fence = newFence(), table } = {}) {
  const limits = checkedResultLimits(resultLimits);
  const data = outcome?.error ? null : outcome?.data ?? null;
  const all = Array.isArray(data) ? data : data === null ? [] : [data];
  const requested = outcome?.query?.requested?.offset;
  // A write held for approval tells the model what it would change, inside the fence.
  const error = outcome?.error?.preview ? { ...outcome.error, preview: previewForModel(core, outcome.error.preview, registry) } : outcome?.error;
  // Only the rows that may be shown go to the core; the rest never leave.
  return internalsOf(core).modelToolResultText(tool, { ...outcome, error: error ?? null, data: all.slice(0, limits.rows) }, {
    registry,
    limits,
    limited,
    returned: all.length,
    offset: Number.isSafeInteger(requested) ? requested : 0,
    fence,
    table: typeof table === 'string' ? table : undefined,
  });
}

/**
 * The tool result for the model, one shape for every tool and adapter:
 * `{ ok: true, tool, table, count, query, truncated?, shown?, hint?,
 * notice?, rows }` (rows with refs, at most `resultLimits.rows` of them and
 * `resultLimits.chars` characters of JSON in all, the executed query
 * rendered as text) or `{ ok: false, tool, table, error: { code, path,
 * message, hint, details? }, query? }` (`query` when the call reached the
 * database). `outcome` is what `act.execute` resolved to; `registry` (the
 * Act's) turns a known UUID inside a text value into its ref rather than
 * `<id>`. Written by the core (docs/results-for-models.md).
 */
export function toolResult(core, tool, outcome, options) {
  // A result handed on as an object: JSON.parse of the core's text.
  return JSON.parse(toolResultText(core, tool, outcome, options));
}

/** @internal Core#toolDefinitions: the definitions of `domain`, kept in `cache` (per domain object) by variant. */
export function cachedToolDefinitions(plumbing, module, cache, { domain, strict, schema, readOnly, fixed = [] }) {
  if (typeof strict !== 'boolean') {
    throw new AlfredError({ code: codes.invalid_option, path: 'strict', message: `strict must be true or false, got ${JSON.stringify(strict)}` });
  }
  if (typeof readOnly !== 'boolean') {
    throw new AlfredError({ code: codes.invalid_option, path: 'readOnly', message: `readOnly must be true or false, got ${JSON.stringify(readOnly)}` });
  }
  const inlineSchema = toolSchemaOption(schema);
  const handle = plumbing.domainHandle(domain);
  let cached = cache.get(domain);
  if (!cached) cache.set(domain, (cached = {}));
  // A read-only act is offered db_read and the functions that only read
  // (the core decides which); names the app fixes are offered nowhere.
  const names = [...fixed].sort();
  const key = `${strict ? 'strict' : 'plain'}-${inlineSchema ? 'inline' : 'compact'}-${readOnly ? 'reads' : 'all'}-${names.join(',')}`;
  return (cached[key] ??= toolDefinitions(module, handle, { strict, inlineSchema, readOnly, fixed: names }));
}
