// What an MCP client sees of alfred-act: the four database tools, the
// schema description, and a tool call's result as an MCP CallToolResult.
// Transport-free, so the stdio server (stdio.js, on the SDK) and the edge
// worker's /mcp route (http.js, hand-written) answer with the same content.
import { actDecisionSchema } from '../prompt.js';

export const DATABASE_TOOLS = ['db_read', 'db_create', 'db_update', 'db_delete'];
export const SCHEMA_TOOL = 'db_schema';
export const SCHEMA_URI = 'alfred-act://schema';

/** The server's instructions to the model, sent with `initialize`. */
export const MCP_INSTRUCTIONS =
  "These tools read and change the signed-in user's own database rows. Rows are named by refs (recipe_1, inv_3), never ids: " +
  'use the refs from earlier results in filters and links. Call db_schema first to learn the tables and columns. ' +
  'A refused call explains itself (code, path, hint): correct the arguments and call again.';

const DESCRIPTIONS = {
  db_read: 'Read rows of one table, as the signed-in user. Rows come back with refs (recipe_1, inv_3) instead of ids; use those refs in later calls.',
  db_create: 'Create one row or a list of rows in one table, as the signed-in user. Link rows by ref (recipe_id: "recipe_1").',
  db_update: 'Update the rows of one table that the filters select (by ref: id = "inv_3"), as the signed-in user.',
  db_delete: 'Delete the rows of one table that the filters select (by ref: id = "inv_3"), as the signed-in user.',
  [SCHEMA_TOOL]: 'The tables, columns, types, allowed values and ref prefixes the db_ tools accept. Read it before the first call.',
};

/** The domain a core validates against by default (`core.domain` where the core has one). */
export const coreDomain = (core) => core.domain ?? core.kitchen;

/**
 * The JSON Schema of one tool's arguments. The one place the MCP layer takes
 * its input schemas from: the core's tool definitions when this core has
 * them, else the params of the ActDecision schema (shared by the four tools).
 */
export function toolInputSchema(core, tool, domain) {
  if (typeof core.toolDefinitions === 'function') {
    const { data } = core.toolDefinitions(domain) ?? {};
    const found = data?.find?.((definition) => definition.name === tool);
    if (found) return found.inputSchema ?? found.parameters;
  }
  const { params, ...definitions } = actDecisionSchema.$defs;
  return { ...params, $defs: definitions, description: undefined };
}

/**
 * The arguments a client sent, as `act.execute` takes them: `{ data, error }`.
 * A core with tool definitions executes them as they are (strict-mode nulls
 * and `data` as JSON text included); otherwise the core's ActDecision parser
 * normalizes them, as it does for the loop's strict-mode decisions.
 */
export function toolParams(core, tool, args) {
  if (typeof core.toolDefinitions === 'function') return { data: args, error: null };
  const decision = { action: 'tool_call', tool, params: args };
  const { data, error } = core.parseDecision(JSON.stringify(decision), { stepType: tool === 'db_read' ? 'read' : 'write' });
  if (error) return { data: null, error: { ...error, path: error.path?.replace(/^params\.?/, '') || undefined } };
  return { data: data.params, error: null };
}

/**
 * `tools/list`: `[{ name, description, inputSchema }]`, the four database
 * tools and db_schema.
 *
 * @example
 * const tools = mcpToolList(core, act.domain) // [{ name: 'db_read', description: '…', inputSchema: { type: 'object', … } }, …]
 */
export function mcpToolList(core, domain) {
  const tools = DATABASE_TOOLS.map((name) => ({ name, description: DESCRIPTIONS[name], inputSchema: toolInputSchema(core, name, domain) }));
  tools.push({ name: SCHEMA_TOOL, description: DESCRIPTIONS[SCHEMA_TOOL], inputSchema: { type: 'object', properties: {}, additionalProperties: false } });
  return tools;
}

/**
 * The domain's schema as the model reads it (markdown): the Schema section
 * the core generates for the Act prompt, without the prompt around it.
 */
export function schemaDescription(core, domain) {
  const input = { step: { type: 'read', description: 'schema', index: 1, total: 1 }, user_message: '', today: '1970-01-01' };
  const { data, error } = core.buildActPrompt(input, { domain });
  if (error) return { data: null, error };
  const match = /^## \d+\. Schema\n([\s\S]*?)(?=^## \d+\. |(?![\s\S]))/m.exec(data.user);
  if (!match) return { data: null, error: { code: 'internal_error', message: 'the Act prompt has no Schema section' } };
  return { data: `# Database schema\n${match[1].trimEnd()}\n`, error: null };
}

/** `resources/list`: the schema description. */
export function mcpResourceList() {
  return [{ uri: SCHEMA_URI, name: 'schema', title: 'Database schema', description: DESCRIPTIONS[SCHEMA_TOOL], mimeType: 'text/markdown' }];
}

/**
 * An executor result `{ data, error, query, count }` as an MCP
 * CallToolResult. A refused or failed call is `isError: true` with the
 * error's `code`, `path`, `message` and `hint` (and the database's
 * `details`) as JSON text, the model's to act on; the developer's copy
 * (`raw`) stays out. A result is `{ data, count, query }` as JSON text.
 */
export function toolResult({ data, error, query, count }) {
  if (error) return toolError(error);
  return { content: [{ type: 'text', text: JSON.stringify({ data, count, query }) }], isError: false };
}

/** `{ code, message, path?, hint?, details? }` as an `isError` CallToolResult. */
export function toolError({ code, message, path, hint, details }) {
  const error = { code, message };
  if (path) error.path = path;
  if (hint) error.hint = hint;
  if (details) error.details = details;
  return { content: [{ type: 'text', text: JSON.stringify({ error }) }], isError: true };
}
