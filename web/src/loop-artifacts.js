// A generate step's output becomes gen_ refs: each artifact in the decision's
// `data` is registered under the table it is a row of, so a later write step
// can save it with db_create `{ id: "gen_recipe_1", … }` (seed 004).

const fail = (message, hint) => ({ data: null, error: { code: 'invalid_artifacts', path: 'data', message, hint } });

const HINT =
  'give data as { "artifacts": [{ "table": "recipes", "content": { "name": "…", … } }] }, ' +
  'or as { "recipes": [{ "name": "…" }] } keyed by table name';

/**
 * The `{ table, content }` artifacts in a generate decision's `data`:
 * `{ artifacts: [{ table, content }] }`, `{ <table>: row | rows }`, a list of
 * either, or the JSON text of any of these (strict schemas often carry
 * free-form data as a string). A bare row is placed in the one domain table
 * whose columns hold all its keys.
 */
export function artifactsOf(data, domain) {
  if (typeof data === 'string') {
    if (data.trim() === '') return { data: [], error: null };
    try {
      data = JSON.parse(data);
    } catch {
      return fail('data is text that is not JSON', HINT);
    }
  }
  if (data === null || data === undefined) return { data: [], error: null };
  const found = [];
  const problem = collect(data, domain, found);
  return problem ? fail(problem, HINT) : { data: found, error: null };
}

function collect(value, domain, found) {
  const tables = domain.tables;
  if (Array.isArray(value)) {
    for (const item of value) {
      const problem = collect(item, domain, found);
      if (problem) return problem;
    }
    return null;
  }
  if (typeof value !== 'object') return `an artifact must be an object, got ${JSON.stringify(value)}`;
  if (Array.isArray(value.artifacts)) return collect(value.artifacts, domain, found);
  if (typeof value.table === 'string') {
    if (!Object.hasOwn(tables, value.table)) return `unknown table "${value.table}"; tables: ${Object.keys(tables).join(', ')}`;
    const content = value.content ?? value.data ?? value.row;
    if (!content || typeof content !== 'object' || Array.isArray(content)) return `artifact for ${value.table} has no content object`;
    found.push({ table: value.table, content });
    return null;
  }
  const keyedByTable = Object.keys(value).length > 0 && Object.keys(value).every((key) => Object.hasOwn(tables, key));
  if (keyedByTable) {
    for (const [table, rows] of Object.entries(value)) {
      for (const content of [rows].flat()) {
        if (!content || typeof content !== 'object') return `rows under "${table}" must be objects`;
        found.push({ table, content });
      }
    }
    return null;
  }
  const table = tableHolding(value, tables);
  if (!table) return `cannot tell which table this artifact belongs to (keys: ${Object.keys(value).join(', ')})`;
  found.push({ table, content: value });
  return null;
}

// The single table whose columns and relations hold every key of `row`.
function tableHolding(row, tables) {
  const keys = Object.keys(row).filter((key) => key !== 'id');
  if (keys.length === 0) return null;
  const matches = Object.entries(tables).filter(([, config]) =>
    keys.every((key) => Object.hasOwn(config.columns, key) || Object.hasOwn(config.relations ?? {}, key)),
  );
  return matches.length === 1 ? matches[0][0] : null;
}

/**
 * Registers each artifact as a gen_ ref. Tables are checked before anything
 * is registered; `data` is `[{ ref, table, content }]` with `content.id = ref`.
 */
export function registerArtifacts(registry, artifacts, domain) {
  const registered = [];
  for (const { table, content } of artifacts) {
    const { id: _modelId, ...fields } = content;
    const { data: ref, error } = registry.registerGenerated(table, fields, { domain });
    if (error) return { data: registered, error: { ...error, path: `data.${table}${error.path ? `.${error.path}` : ''}` } };
    registered.push({ ref, table, content: { id: ref, ...fields } });
  }
  return { data: registered, error: null };
}
