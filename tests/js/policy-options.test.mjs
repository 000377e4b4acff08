// One home for the policy (web/src/policy/options.js, POLICY_TABLE): the
// table in docs/safety-controls.md is the code's; the CLI, alfred-act mcp and
// the worker read the same variables into the same policy and refuse the same
// values with the same message (they used to disagree: ALFRED_READ_ONLY=on
// was an error in the CLI only, ALFRED_MAX_AFFECTED=0 "no limit" in the CLI
// and refused by the others, and the CLI's --approve message left out
// `changes`); their usage texts name what the table holds; and which tools
// write, change rows and are held comes from the core's tool effects.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, test } from 'node:test';
import { USAGE, runToolCall } from '../../cli/tool-call.mjs';
import { loadCore } from '../../web/src/index.node.js';
import { MCP_USAGE, readMcpConfig } from '../../web/src/mcp/stdio.js';
import { APPROVE_DEFAULTS, APPROVE_MODES, BOOLEAN_WORDS, POLICY_TABLE, needsApproval, policyDefault, policyFromFlags, policyVariables } from '../../web/src/policy/options.js';
import { APPROVAL_TOOLS, CALLS_FUNCTION, CHANGES_ROWS, CREATES_ROWS, DELETES_ROWS, ROW_WRITE_TOOLS, WRITE_TOOLS } from '../../web/src/policy/tool-effects.js';
import { readConfig } from '../../web/src/worker/config.js';
import { surfacePolicies } from '../../web/src/worker/policy.js';
import { WORKER_VARIABLES } from '../../web/src/worker/variables.js';
import { STEP_TOOLS, TOOL_EFFECTS, TOOL_NAMES } from '../../web/dist/core-rules.mjs';

let core;
before(async () => {
  core = await loadCore();
});

const docs = readFileSync(new URL('../../docs/safety-controls.md', import.meta.url), 'utf8');
// The rows of the markdown table whose header line is `header`, as cells.
function tableRows(header) {
  const lines = docs.slice(docs.indexOf(header)).split('\n');
  const rows = [];
  for (const line of lines.slice(2)) {
    if (!line.startsWith('|')) break;
    rows.push(line.slice(1, -1).split(/(?<!\\)\|/).map((cell) => cell.trim()));
  }
  return rows;
}
const code = (cell) => /^`([^`]*)`$/.exec(cell)?.[1] ?? null;

test('the options table of docs/safety-controls.md is POLICY_TABLE: each option\'s flag, variable and default, and approve\'s default on every surface', () => {
  const documented = tableRows('| option | CLI flag | variable | default | effect |');
  assert.deepEqual(documented.map(([option]) => code(option)), POLICY_TABLE.map((row) => row.option));
  for (const [optionCell, flagCell, variableCell, defaultCell] of documented) {
    const row = POLICY_TABLE.find((entry) => entry.option === code(optionCell));
    assert.equal(flagCell === 'none' ? null : code(flagCell), row.flag, row.option);
    assert.equal(variableCell === 'none' ? null : code(variableCell), row.variable, row.option);
    if (row.default === APPROVE_DEFAULTS) {
      assert.match(defaultCell, /^per surface: .*\(#defaults-per-surface\)/, row.option);
    } else if (row.default === null) {
      assert.match(defaultCell, /^(every table|none)\b/, row.option);
    } else {
      assert.deepEqual(JSON.parse(code(defaultCell)), row.default, row.option);
    }
  }
  // Defaults per surface: the table below it, one row per surface key.
  const surfaces = tableRows('| surface | key | `approve` when none is given | how a held write is asked |');
  const approveOn = Object.fromEntries(surfaces.map(([, key, mode]) => [code(key), code(mode).replaceAll("'", '')]));
  assert.deepEqual(Object.keys(approveOn), Object.keys(APPROVE_DEFAULTS));
  for (const [surface, mode] of Object.entries(approveOn)) {
    assert.equal(policyDefault('approve', surface), mode, surface);
    assert.equal(policyDefault('maxAffected', surface), 50, surface);
    assert.equal(policyDefault('readOnly', surface), false, surface);
  }
  // The spellings and values the rule section names are the parsers'.
  const rule = docs.slice(docs.indexOf('### Flags and environment variables'), docs.indexOf('## Defaults per surface'));
  assert.ok(rule.includes(`take ${['true', 'false', '1', '0', 'on', 'off', 'yes'].map((word) => `\`${word}\``).join(', ')} or \`no\`, in any case`));
  assert.deepEqual(Object.keys(BOOLEAN_WORDS).sort(), ['0', '1', 'false', 'no', 'off', 'on', 'true', 'yes']);
  assert.ok(rule.includes(`takes ${APPROVE_MODES.slice(0, -1).map((mode) => `\`${mode}\``).join(', ')} or \`${APPROVE_MODES.at(-1)}\``));
});

// The three readers of the variables, each as the surface runs it: the
// policy it would act under, or the message it refuses to start with.
const ANON = 'anon-key-for-the-readers';
const readers = {
  // The CLI's refusal is the command's own exit 2 and error; its policy is policyFromFlags's, which it passes to createAct.
  cli: async (env) => {
    // --state without a database to keep refs in stops the command right
    // after its options are read (exit 2, path --state): nothing starts.
    const out = [];
    const status = await runToolCall(['db_read', '{"table":"inventory"}', '--json', '--state', '/nonexistent/alfred-policy-state'], { env, out: (line) => out.push(line), err: () => {} });
    const { error } = JSON.parse(out.join('\n'));
    if (error?.code === 'invalid_option' && status === 2 && error.path !== '--state') return { error: error.message, path: error.path };
    return { policy: policyFromFlags({}, env) };
  },
  mcp: async (env) => {
    const { data, error } = readMcpConfig([], { SUPABASE_URL: 'http://127.0.0.1:54321', SUPABASE_ANON_KEY: ANON, SUPABASE_ACCESS_TOKEN: 'jwt', ...env });
    return error ? { error } : { policy: data.policy };
  },
  worker: async (env) => {
    const { data, error } = readConfig({ SUPABASE_URL: 'http://127.0.0.1:54321', SUPABASE_ANON_KEY: ANON, ...env });
    if (error) return { error: error.message };
    assert.equal(error, null);
    return { policy: data.policy };
  },
};

const BOOLEAN_ERROR = (name, text) => `${name} must be one of true, false, 1, 0, on, off, yes, no (any case), got ${JSON.stringify(text)}`;
const CASES = [
  ...['on', 'ON', 'yes', 'Yes', '1', 'true', 'TRUE', ' true '].map((text) => [{ ALFRED_READ_ONLY: text }, { readOnly: true }]),
  ...['off', 'no', '0', 'false', 'False'].map((text) => [{ ALFRED_READ_ONLY: text }, { readOnly: false }]),
  [{ ALFRED_READ_ONLY: '' }, {}],
  [{ ALFRED_READ_ONLY: 'maybe' }, { error: BOOLEAN_ERROR('ALFRED_READ_ONLY', 'maybe') }],
  [{ ALFRED_READ_ONLY: '2' }, { error: BOOLEAN_ERROR('ALFRED_READ_ONLY', '2') }],
  [{ ALFRED_MAX_AFFECTED: '0' }, { maxAffected: 0 }],
  [{ ALFRED_MAX_AFFECTED: '7' }, { maxAffected: 7 }],
  [{ ALFRED_MAX_AFFECTED: ' 12 ' }, { maxAffected: 12 }],
  [{ ALFRED_MAX_AFFECTED: '1000000' }, { maxAffected: 1_000_000 }],
  ...['-1', '2.5', 'many', '1000001', '1e3'].map((text) => [{ ALFRED_MAX_AFFECTED: text }, { error: `ALFRED_MAX_AFFECTED must be a whole number from 0 to 1000000 (0: no limit), got ${JSON.stringify(text)}` }]),
  ...APPROVE_MODES.map((mode) => [{ ALFRED_APPROVE: mode }, { approve: mode }]),
  [{ ALFRED_APPROVE: 'Changes' }, { approve: 'changes' }],
  [{ ALFRED_APPROVE: 'always' }, { error: 'ALFRED_APPROVE must be one of none, deletes, changes, writes, got "always"' }],
  [{ ALFRED_TABLES: 'inventory, shopping_list' }, { tables: ['inventory', 'shopping_list'] }],
  [{ ALFRED_TABLES: ' , ' }, { error: 'ALFRED_TABLES must name tables, separated by commas, got " , "' }],
  [{ ALFRED_READ_ONLY: 'yes', ALFRED_TABLES: 'inventory', ALFRED_APPROVE: 'writes', ALFRED_MAX_AFFECTED: '0' }, { readOnly: true, tables: ['inventory'], approve: 'writes', maxAffected: 0 }],
];

test('the same variables give the same policy in the CLI, alfred-act mcp and the worker, and the same values are refused with the same message', async () => {
  for (const [env, expected] of CASES) {
    const label = JSON.stringify(env);
    for (const [name, read] of Object.entries(readers)) {
      const got = await read(env);
      if (expected.error) {
        assert.equal(got.error, expected.error, `${name} ${label}`);
        if (name === 'cli') assert.equal(got.path, Object.keys(env)[0], `the CLI's error names the variable: ${label}`);
      } else {
        assert.deepEqual(got.policy, expected, `${name} ${label}`);
      }
    }
  }
});

test('ALFRED_CONFIRM, read by the two MCP servers alike (the CLI has --approved instead), and refused together with an approve that asks', async () => {
  for (const [env, mcpPolicy] of [
    [{ ALFRED_CONFIRM: 'off' }, { confirm: false }],
    [{ ALFRED_CONFIRM: 'Yes' }, { confirm: true }],
    [{ ALFRED_CONFIRM: 'false', ALFRED_APPROVE: 'none' }, { confirm: false, approve: 'none' }],
  ]) {
    for (const name of ['mcp', 'worker']) assert.deepEqual((await readers[name](env)).policy, mcpPolicy, `${name} ${JSON.stringify(env)}`);
    const { confirm: _confirm, ...cliPolicy } = mcpPolicy;
    assert.deepEqual((await readers.cli(env)).policy, cliPolicy);
  }
  const conflict = { ALFRED_CONFIRM: 'no', ALFRED_APPROVE: 'writes' };
  for (const name of ['mcp', 'worker']) {
    assert.equal((await readers[name](conflict)).error, 'ALFRED_CONFIRM=no runs writes without asking, and ALFRED_APPROVE=writes asks before some: give one of them', name);
  }
  assert.equal((await readers.mcp({ ALFRED_CONFIRM: 'maybe' })).error, BOOLEAN_ERROR('ALFRED_CONFIRM', 'maybe'));
  // A flag wins over its variable, and is refused in its own name.
  assert.deepEqual(readMcpConfig(['--approve', 'Deletes', '--max-affected', '0'], { SUPABASE_URL: 'http://127.0.0.1:54321', SUPABASE_ANON_KEY: ANON, SUPABASE_ACCESS_TOKEN: 'jwt', ALFRED_APPROVE: 'writes', ALFRED_MAX_AFFECTED: '9' }).data.policy, { approve: 'deletes', maxAffected: 0 });
  assert.deepEqual(policyFromFlags({ approve: 'deletes', 'max-affected': '0' }, { ALFRED_APPROVE: 'writes' }), { approve: 'deletes', maxAffected: 0 });
  assert.throws(() => policyFromFlags({ approve: 'always' }, {}), { code: 'invalid_option', path: '--approve', message: '--approve must be one of none, deletes, changes, writes, got "always"' });
});

test('the policies the readers give make the same acts: ALFRED_MAX_AFFECTED=0 is no limit for the CLI\'s act and for the worker\'s /act and /mcp acts', async () => {
  const env = { ALFRED_READ_ONLY: 'on', ALFRED_TABLES: 'inventory', ALFRED_MAX_AFFECTED: '0' };
  const actWith = (policy) => core.createAct({ url: 'http://127.0.0.1:54321', apiKey: ANON, accessToken: '', ...policy });
  const { data: surfaces } = surfacePolicies((await readers.worker(env)).policy);
  const acts = [actWith((await readers.cli(env)).policy), actWith(surfaces.act), actWith(surfaces.mcp)];
  for (const act of acts) {
    assert.deepEqual([act.policy.readOnly, act.policy.tables, act.policy.maxAffected], [true, ['inventory'], 0]);
    act.registry.delete();
  }
});

test('the CLI acts under ALFRED_READ_ONLY=on: a delete is read_only and nothing starts', async () => {
  const out = [];
  const status = await runToolCall(['db_delete', JSON.stringify({ table: 'inventory', filters: [{ field: 'name', op: '=', value: 'milk' }] }), '--json'], { env: { ALFRED_READ_ONLY: 'on' }, out: (line) => out.push(line), err: () => {} });
  assert.equal(status, 1);
  assert.equal(JSON.parse(out.join('\n')).error.code, 'read_only');
});

test('each usage text names every flag and variable its surface reads from the table, and every approve mode', () => {
  for (const [reader, text] of [['cli', USAGE], ['mcp', MCP_USAGE]]) {
    for (const row of POLICY_TABLE.filter((entry) => entry.readers.includes(reader))) {
      assert.ok(text.includes(row.flag), `${reader} usage names ${row.flag}`);
      assert.ok(text.includes(row.variable), `${reader} usage names ${row.variable}`);
    }
    for (const mode of APPROVE_MODES) assert.match(text, new RegExp(`\\b${mode}\\b`), `${reader} usage names --approve ${mode}`);
    assert.match(text, /0: no limit/, `${reader} usage says what --max-affected 0 means`);
  }
  for (const variable of policyVariables('worker')) assert.ok(WORKER_VARIABLES.includes(variable), variable);
});

test('which tools write, change rows and are held comes from the core\'s tool effects', () => {
  assert.deepEqual(Object.keys(TOOL_EFFECTS), [...TOOL_NAMES]);
  const names = (set) => [...set];
  assert.deepEqual(names(CREATES_ROWS), ['db_create']);
  assert.deepEqual(names(CHANGES_ROWS), ['db_update', 'db_delete']);
  assert.deepEqual(names(DELETES_ROWS), ['db_delete']);
  assert.deepEqual(names(CALLS_FUNCTION), ['db_call']);
  assert.deepEqual(names(WRITE_TOOLS), ['db_create', 'db_update', 'db_delete', 'db_call']);
  // A read step may call the tools that write no row (a function: as it is marked).
  assert.deepEqual(names(ROW_WRITE_TOOLS), TOOL_NAMES.filter((tool) => !STEP_TOOLS.read.includes(tool)));
  // A read-only act is offered exactly the tools with no effect (the kitchen has no functions).
  assert.deepEqual(core.toolDefinitions({ readOnly: true }).map((tool) => tool.name), TOOL_NAMES.filter((tool) => !WRITE_TOOLS.has(tool)));
  assert.deepEqual({ ...APPROVAL_TOOLS }, { none: [], deletes: ['db_delete', 'db_call'], changes: ['db_update', 'db_delete', 'db_call'], writes: ['db_create', 'db_update', 'db_delete', 'db_call'] });
  for (const mode of APPROVE_MODES) for (const tool of TOOL_NAMES) assert.equal(needsApproval(mode, tool), APPROVAL_TOOLS[mode].includes(tool), `${mode} ${tool}`);
  assert.equal(needsApproval(() => true, 'db_create'), true);
  assert.equal(needsApproval(() => true, 'db_read'), false);
});
