// A generate step's output becomes gen_ refs: each artifact in the decision's
// `data` is registered under the table it is a row of, so a later write step
// can save it with db_create `{ id: "gen_recipe_1", … }`.
import { AlfredError, internalError } from '../errors.js';
import { codes } from '../../dist/error-codes.mjs';
import { takesCreates } from '../core/domains.js';

// A core call that threw (out of memory, a deleted registry), as an error value.
const errorOf = (cause) => (cause instanceof AlfredError ? cause.toJSON() : internalError(cause));

const fail = (message, hint) => ({ data: null, error: { code: codes.invalid_artifacts, path: 'data', message, hint } });

// The shape to give, on a table of the domain in use: one that takes creates
// with a label column (what a generated row names), one with linked rows first.
function hintFor(domain) {
  const entries = Object.entries(domain?.tables ?? {});
  const labelled = ([, t]) => takesCreates(t) && t.readable !== false && t.label?.length > 0;
  const [table, config] = entries.find((e) => labelled(e) && e[1].relations) ?? entries.find(labelled) ?? entries[0] ?? ['table', {}];
  const column = config.label?.[0] ?? Object.keys(config.columns ?? {}).find((c) => c !== 'id') ?? 'name';
  return (
    `give data as { "artifacts": [{ "table": "${table}", "content": { "${column}": "…", … } }] }, ` +
    `or as { "${table}": [{ "${column}": "…" }] } keyed by table name`
  );
}

/**
 * The `{ table, content }` artifacts in a generate decision's `data`:
 * `{ artifacts: [{ table, content }] }`, `{ <table>: row | rows }`, a list of
 * either, or the JSON text of any of these (strict schemas often carry
 * free-form data as a string). A bare row is placed in the one domain table
 * whose columns hold all its keys. A key shaped like a `gen_` ref (by the
 * core's ref grammar) revises that artifact.
 */
export function artifactsOf(data, domain, core) {
  if (typeof data === 'string') {
    if (data.trim() === '') return { data: [], error: null };
    try {
      data = JSON.parse(data);
    } catch {
      return fail('data is text that is not JSON', hintFor(domain));
    }
  }
  if (data === null || data === undefined) return { data: [], error: null };
  const found = [];
  // The core's answer, or the error it threw (out of memory) to return instead.
  let failure = null;
  const isGenRef = (key) => {
    try {
      return core.parseRef(key)?.generated === true;
    } catch (cause) {
      failure ??= errorOf(cause);
      return false;
    }
  };
  const problem = collect(data, domain, isGenRef, found);
  if (failure) return { data: null, error: failure };
  return problem ? fail(problem, hintFor(domain)) : { data: found, error: null };
}

function collect(value, domain, isGenRef, found) {
  const tables = domain.tables;
  if (Array.isArray(value)) {
    for (const item of value) {
      const problem = collect(item, domain, isGenRef, found);
      if (problem) return problem;
    }
    return null;
  }
  if (value === null || typeof value !== 'object') return `an artifact must be an object, got ${JSON.stringify(value)}`;
  if (Array.isArray(value.artifacts)) return collect(value.artifacts, domain, isGenRef, found);
  if (typeof value.table === 'string') {
    if (!Object.hasOwn(tables, value.table)) return `unknown table "${value.table}"; tables: ${Object.keys(tables).join(', ')}`;
    const content = value.content ?? value.data ?? value.row;
    if (!content || typeof content !== 'object' || Array.isArray(content)) return `artifact for ${value.table} has no content object`;
    found.push({ table: value.table, content });
    return null;
  }
  // Keyed by table name, or by the gen_ ref of an artifact being revised.
  const keys = Object.keys(value);
  if (keys.length > 0 && keys.every((key) => Object.hasOwn(tables, key) || isGenRef(key))) {
    for (const [key, rows] of Object.entries(value)) {
      if (isGenRef(key)) {
        if (!rows || typeof rows !== 'object' || Array.isArray(rows)) return `the revision of ${key} must be one object`;
        found.push({ ref: key, content: rows });
        continue;
      }
      for (const content of [rows].flat()) {
        if (!content || typeof content !== 'object') return `rows under "${key}" must be objects`;
        found.push({ table: key, content });
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
 * Registers each artifact as a new gen_ ref, or replaces the content of the
 * pending gen_ ref it revises; `data` is `[{ ref, table, content }]` with
 * `content.id = ref`. The model's own `id` is never kept. Revisions go
 * first: a revision of an unknown or saved ref is the likely mistake, and
 * failing before any new ref is handed out keeps a corrected answer from
 * leaving orphaned gen_ refs behind.
 */
export function registerArtifacts(registry, artifacts, domain) {
  const registered = [];
  const ordered = [...artifacts.filter((artifact) => artifact.ref), ...artifacts.filter((artifact) => !artifact.ref)];
  for (const artifact of ordered) {
    const { id: _ignored, ...fields } = artifact.content;
    const { data, error } = artifact.ref
      ? registry.updateGenerated(artifact.ref, fields, { domain })
      : registry.registerGenerated(artifact.table, fields, { domain });
    if (error) {
      const where = artifact.ref ?? artifact.table;
      return { data: registered, error: { ...error, path: `data.${where}${error.path ? `.${error.path}` : ''}` } };
    }
    const ref = artifact.ref ?? data;
    let table = artifact.table;
    try {
      table ??= registry.tableOf(ref);
    } catch (cause) {
      return { data: registered, error: errorOf(cause) };
    }
    registered.push({ ref, table, content: { id: ref, ...fields } });
  }
  return { data: registered, error: null };
}
