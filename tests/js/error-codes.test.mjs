// The error-code catalog (core/include/alfred/errors/error_codes.h) is the one list
// of codes: the package's `errorCodes` and `codes`, its TypeScript union and
// docs/error-codes.md are generated from it, no JavaScript file of the
// package, the worker, the CLI or the local stack emits a code missing from
// it, and they emit and compare codes by name (`codes.unknown_table`), never
// as text, so a misspelt code is caught here rather than in production.
// (The core cannot: `error::code` is an `error_code`, which only the
// catalog's constants make, so a code missing there does not compile.)
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { errorCodes } from '../../web/src/index.node.js';
import { codes } from '../../web/dist/error-codes.mjs';
import { docsText, moduleText, readCatalog, typesText } from '../../scripts/generate-error-codes.mjs';
import { codeParameters, codePlace, scanSource } from './support/js-source.mjs';
import { SCRATCH } from './support/paths.mjs';
import { typecheck } from './support/typecheck.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const catalog = readCatalog();
const known = new Set(catalog.map((entry) => entry.code));

// snake_case literals in the sources that are not error codes: tool names,
// column and table names, refs in examples, loop events and step-ending
// reasons, prompt template names, the JS executor's transport-failure names,
// OpenAI and OAuth words.
const NOT_CODES = new Set([
  'act_decision', 'act_sessions', 'ask_user', 'body_incomplete', 'created_at', 'db_aggregate', 'db_create', 'db_delete', 'db_read',
  'db_schema', 'db_update', 'display_name', 'first_name', 'full_name', 'function_call', 'function_call_output',
  'gen_org_1', 'gen_recipe_1', 'inserted_at', 'inv_1', 'invalid_token', 'item_1', 'json_object', 'json_schema',
  'label_format', 'last_name', 'limit_reached', 'malformed_decision', 'max_rows', 'meal_1', 'meal_plans', 'modified_at',
  'no_response', 'not_a_response', 'not_sent', 'on_conflict', 'owner_column', 'owner_id', 'recipe_1', 'ri_1',
  'service_role', 'step_complete', 'step_done', 'step_started', 'too_large', 'tool_call', 'tool_error', 'turn_done',
  'turn_plan', 'turn_started', 'updated_at', 'user_owned', 'signed_in', 'prompt_examples', 'recipe_ingredients',
  'planner_generate_example', 'assistant_role', 'tool_calls', 'user_id', 'created_by', 'author_id', 'profile_id', 'creator_id',
  'deal_notes', 'db_url', 'custom_access_token', 'confirm_write', 'recipe_3', 'random_string',
  // db_call and the functions, arguments and refs its examples name.
  'db_call', 'get_accounts', 'archive_project', 'project_2', 'project_id', 'account_id',
  // Catalog words the pull reads (pg_proc, roles, extension names, column names it matches).
  'supabase_auth_admin', 'pg_proc', 'event_trigger', 'format_type', 'openai_api_key', 'prompt_tokens',
  'btree_gin', 'btree_gist', 'dict_int', 'dict_xsyn', 'pg_buffercache', 'pg_freespacemap', 'pg_stat_statements',
  'pg_surgery', 'pg_trgm', 'pg_visibility', 'pg_walinspect', 'tsm_system_rows', 'tsm_system_time', 'uuid_ossp',
  // The platform's schemas the pull does not search for tables function arguments name, and such an argument.
  'information_schema', 'supabase_functions', 'supabase_migrations', 'graphql_public', 'pgsodium_masks', 'alfred_auth',
  'invitation_id', 'invitation_ids', 'query_embedding', 'local_embedding', 'regexp_replace', 'team_id',
  // PostgreSQL's volatile functions that change no data (a read's body may call them).
  'random_normal', 'gen_random_uuid', 'gen_random_bytes', 'uuid_generate_v1', 'uuid_generate_v1mc', 'uuid_generate_v4', 'clock_timestamp', 'pg_catalog',
  // MCP 2026-07-28 and RFC 9728 words.
  'input_required', 'authorization_servers', 'resource_name',
  // A workerd compatibility flag (scripts/serve-worker.mjs).
  'enable_request_signal',
  // The registry state's tables that refuse joins; the warm-up's domain and refs (core/warm-up.js).
  'joins_refused', 'alfred_act_warm_up', 'project_1', 'note_1',
]);

function sources(dir) {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sources(path);
    return /\.m?js$/.test(entry.name) ? [path] : [];
  });
}
// db/auth.mjs is the local stack's GoTrue-compatible sign-in: its codes are
// Supabase Auth's (invalid_credentials, refresh_token_not_found, …), which
// supabase-js reads, not alfred-act's.
const files = ['web/src', 'worker', 'cli', 'bin'].flatMap(sources).concat(
  readdirSync(join(root, 'db')).filter((name) => name.endsWith('.mjs') && name !== 'auth.mjs').map((name) => `db/${name}`),
);

test('the generated forms are the catalog: errorCodes, the TypeScript union, docs/error-codes.md', () => {
  assert.ok(catalog.length > 100);
  assert.deepEqual(Object.keys(errorCodes), catalog.map((entry) => entry.code));
  assert.ok(Object.isFrozen(errorCodes) && Object.isFrozen(errorCodes.unknown_column));
  assert.deepEqual(errorCodes.unknown_column, { origin: 'core', meaning: 'the table has no such column' });
  // codes: each code by name, the same list in the same order.
  assert.deepEqual(Object.entries(codes), catalog.map(({ code }) => [code, code]));
  assert.ok(Object.isFrozen(codes));
  assert.equal(codes.unknown_column, 'unknown_column');
  assert.equal(readFileSync(join(root, 'web/dist/error-codes.mjs'), 'utf8'), moduleText(catalog), 'run scripts/build.sh');
  assert.equal(readFileSync(join(root, 'web/dist/error-codes.d.mts'), 'utf8'), typesText(catalog), 'run scripts/build.sh');
  assert.equal(readFileSync(join(root, 'docs/error-codes.md'), 'utf8'), docsText(catalog), 'run node scripts/generate-error-codes.mjs --docs');
});

test('codes is typed code by code: codes.x has the type \'x\'; an unknown name, another code or a write does not compile', { timeout: 60_000 }, async () => {
  await mkdir(SCRATCH, { recursive: true });
  const dir = await mkdtemp(join(SCRATCH, 'error-codes-types-'));
  try {
    const generated = relative(dir, join(root, 'web/dist/error-codes.mjs'));
    await writeFile(join(dir, 'codes.mts'), [
      `import { codes, type ErrorCode } from ${JSON.stringify(generated)};`,
      "export const unknownTable: 'unknown_table' = codes.unknown_table;",
      'export const every: ErrorCode[] = Object.values(codes);',
      '// @ts-expect-error: no such code',
      'codes.unknown_tabel;',
      '// @ts-expect-error: another code',
      "export const other: 'unknown_column' = codes.unknown_table;",
      '// @ts-expect-error: read-only',
      "codes.unknown_table = 'unknown_table';",
      '',
    ].join('\n'));
    const options = { strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', types: [] };
    const { errors, listed } = await typecheck(dir, options, ['codes.mts']);
    assert.equal(errors, '');
    assert.ok(listed.includes(join(root, 'web/dist/error-codes.d.mts')), 'tsc did not read web/dist/error-codes.d.mts');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('every code the JavaScript sources write is in the catalog', () => {
  const missing = [];
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8');
    // Where a code is written or compared: `code: 'x'`, `code === 'x'`.
    for (const match of text.matchAll(/(?<!typeof [\w?.]*)\bcode(?:\s*:\s*|\s*[!=]==\s*)['"]([a-z_]+)['"]/g)) {
      if (!known.has(match[1])) missing.push(`${file}: ${match[1]}`);
    }
    // Any other snake_case word: a code (passed to a helper such as fail or pullError) or a known non-code.
    for (const match of text.matchAll(/['"`]([a-z]+(?:_[a-z0-9]+)+)['"`]/g)) {
      if (!known.has(match[1]) && !NOT_CODES.has(match[1])) missing.push(`${file}: ${match[1]}`);
    }
  }
  assert.deepEqual(missing, [], 'add each to core/include/alfred/errors/error_codes.h, or to NOT_CODES here if it is not an error code');
});

// Functions of the sources with a parameter named `code`, by name: a literal
// code given there is a code written as text (codePlace in support/js-source.mjs).
const scanned = files.map((file) => {
  const source = scanSource(readFileSync(join(root, file), 'utf8'));
  return { file, ...source, local: codeParameters(source.bare) };
});
const shared = new Map();
for (const { local } of scanned) {
  for (const [name, index] of local) if (index >= 0) shared.set(name, (shared.get(name) ?? new Set()).add(index));
}

/** `file:line: 'code' (where)` for each catalog code `text` writes as a string where a code goes. */
function codesAsText(file, { literals, bare, local }) {
  return literals.flatMap((literal) => {
    const place = known.has(literal.value) && codePlace(bare, literal, { local, shared });
    return place ? [`${file}:${literal.line}: '${literal.value}' (${place})`] : [];
  });
}

test('the JavaScript sources emit and compare codes by name (codes.x), never as text', () => {
  const written = scanned.flatMap((source) => codesAsText(source.file, source));
  assert.deepEqual(written, [], "write codes.<code> instead, with import { codes } from web/dist/error-codes.mjs");
});

test('every codes.x the JavaScript sources read is in the catalog', () => {
  const unknown = [];
  let read = 0;
  for (const { file, bare } of scanned) {
    // Files that import the catalog's codes (one has a list of its own by that name).
    if (!/^import \{[^}]*\bcodes\b[^}]*\} from/m.test(bare)) continue;
    for (const match of bare.matchAll(/(?<![\w$.])codes\.([\w$]+)/g)) {
      read++;
      if (!known.has(match[1])) unknown.push(`${file}:${bare.slice(0, match.index).split('\n').length}: codes.${match[1]}`);
    }
  }
  assert.ok(read > 200, `only ${read} codes.x read`);
  assert.deepEqual(unknown, [], 'codes has no such code: see core/include/alfred/errors/error_codes.h');
});

test('the check finds a code written as text in each place a code goes, and nowhere else', () => {
  const text = [
    "import { fail } from './elsewhere.js';",
    "const refuse = (status, code, message) => ({ status, code, message });",
    "const retry = (reason, error) => ({ reason, error });",
    "// code: 'unknown_table' in a comment, and /* e.code === 'unknown_table' */",
    "const a = { code: 'unknown_table', message: \"code: 'unknown_column'\" };",
    "if (error.code === 'unknown_column' || 'unknown_ref' !== error?.code) b();",
    "const c = { code: path === 'params' ? 'invalid_params' : 'invalid_option', hint: e.code ?? 'invalid_json' };",
    "throw new AlfredError('invalid_state', 'message');",
    "refuse(400, 'invalid_body', 'the body');",
    "const d = (path, code = 'invalid_value') => ({ path, code });",
    "retry('tool_not_allowed', error); refuse('unknown_table', 400);",
    "const e = { action: 'unavailable', status: 'aborted', table: 'unknown_ref' };",
    "const f = /code: 'unknown_table'/.test(g) ? `code: 'unknown_table'` : 'unknown_table';",
    "fail('unknown_ref', 'message'); fail(cause('unknown_key'));",
  ].join('\n');
  const source = scanSource(text);
  assert.deepEqual(codesAsText('probe.js', { ...source, local: codeParameters(source.bare) }), [
    "probe.js:5: 'unknown_table' (code: …)",
    "probe.js:6: 'unknown_column' (code === …)",
    "probe.js:6: 'unknown_ref' (code === …)",
    "probe.js:7: 'invalid_params' (code: …)",
    "probe.js:7: 'invalid_option' (code: …)",
    "probe.js:7: 'invalid_json' (code ?? …)",
    "probe.js:8: 'invalid_state' (new AlfredError(…))",
    "probe.js:9: 'invalid_body' (refuse(…))",
    "probe.js:10: 'invalid_value' (code = …)",
    // fail takes a code at 0 in the sources (web/src/jwt-verify.js).
    "probe.js:14: 'unknown_ref' (fail(…))",
  ]);
});
