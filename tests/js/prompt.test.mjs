// The prompt API through the package: assembly with a real registry, the
// exported schema equals the core's, decision parsing and query rendering.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { loadCore, actDecisionSchema, kitchen } from '../../web/src/index.node.js';

const core = await loadCore();
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

test('actDecisionSchema is prompts/act/decision.schema.json, frozen', async () => {
  const file = JSON.parse(await readFile(new URL('../../prompts/act/decision.schema.json', import.meta.url), 'utf8'));
  assert.deepEqual(actDecisionSchema, file);
  assert.ok(Object.isFrozen(actDecisionSchema.properties.action));
});

test('buildActPrompt: refs from the registry, no UUID, sections numbered', () => {
  const registry = core.createRegistry();
  registry.setTurn(1);
  const { data: rows } = registry.translateRows('inventory', [
    { id: '5a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c01', name: 'milk', quantity: 1, unit: 'l', location: 'fridge' },
  ]);
  const item = {
    tool: 'db_read', table: 'inventory', data: rows, error: null, count: 1,
    query: { tool: 'db_read', table: 'inventory', requested: { filters: [{ field: 'location', op: '=', value: 'fridge' }], limit: 100 }, effective: null, notes: [], source: 'database', count: 1 },
  };
  const { data, error } = core.buildActPrompt({
    step: { type: 'analyze', description: 'Find what expires', index: 1, total: 2 },
    user_message: 'what expires soon? 5a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c01',
    previous_steps: [{ index: 0, type: 'read', description: 'Read the fridge', results: [item] }],
  }, { registry });
  assert.equal(error, null);
  assert.doesNotMatch(data.system + data.user, UUID);
  assert.match(data.user, /what expires soon\? inv_1/);
  assert.match(data.user, /Query: Table: inventory \| Filters: location = fridge \| Limit: 100\nOutcome: 1 record found\n- `inv_1` \| name: milk/);
  const headings = [...data.user.matchAll(/^## (\d+)\. (.+)$/gm)];
  assert.deepEqual(headings.map((m) => Number(m[1])), headings.map((_, i) => i + 1));
  assert.deepEqual(headings.map((m) => m[2]), ['Status', 'Task', 'Data Available', 'Entities in Context', 'Generated Artifacts', 'Conversation', 'Decision']);
  registry.delete();
});

test('buildActPrompt: errors come back as values', () => {
  assert.equal(core.buildActPrompt({ step: { type: 'cook' } }).error.path, 'step.type');
  assert.equal(core.buildActPrompt({ step: { type: 'read' }, templates: { nope: 'x' } }).error.code, 'unknown_template');
  assert.equal(core.buildActPrompt({ step: { type: 'read' } }, { domain: 5 }).error.code, 'invalid_option');
  const bigint = core.buildActPrompt({ step: { type: 'read' }, today: 1n });
  assert.equal(bigint.error.code, 'invalid_option');
});

test('buildActPrompt: a template override replaces the embedded one', () => {
  const { data } = core.buildActPrompt({ step: { type: 'generate' }, templates: { 'act/generate': 'Generate pharmacy labels.' } }, { domain: kitchen });
  assert.ok(data.system.endsWith('\n\n---\n\nGenerate pharmacy labels.\n'));
});

test('parseDecision: strict-mode output becomes a decision buildRequest accepts', () => {
  const text = JSON.stringify({
    action: 'tool_call', tool: 'db_read',
    params: { table: 'inventory', filters: [{ field: 'location', op: '=', value: 'fridge' }], or_filters: null, columns: null, limit: 100, offset: null, order_by: null, order_dir: null, data: null },
    summary: null, data: null, note_for_next_step: null, question: null, reason_code: null, details: null, suggested_next: null,
  });
  const { data: decision } = core.parseDecision(text, { stepType: 'read' });
  assert.deepEqual(decision, { action: 'tool_call', tool: 'db_read', params: { table: 'inventory', filters: [{ field: 'location', op: '=', value: 'fridge' }], limit: 100 } });
  const request = core.buildRequest(decision.tool, decision.params, { userId: '6f1c1a52-8d3e-4f7a-9a41-2b7d5e0c9a11', baseUrl: 'http://127.0.0.1:3000' });
  assert.equal(request.error, null);
  assert.equal(core.parseDecision(text, { stepType: 'analyze' }).error.code, 'action_not_allowed');
  assert.equal(core.parseDecision('not json').error.code, 'invalid_decision_json');
  assert.equal(core.parseDecision('{}', { stepType: 'bake' }).error.code, 'invalid_option');
});

test('renderQuery: block and line styles', () => {
  const query = { tool: 'db_read', table: 'inventory', requested: { filters: [{ field: 'location', op: '=', value: 'pantry' }], limit: 100 }, effective: null, notes: [], source: 'database', count: 0 };
  assert.equal(core.renderQuery(query).data.split('\n').slice(0, 2).join('\n'), 'Query: Table: inventory | Filters: location = pantry | Limit: 100\nOutcome: 0 records found');
  assert.equal(core.renderQuery(query, { style: 'line' }).data, 'read inventory (filters: location = pantry): 0 records');
  assert.equal(core.renderQuery({ tool: 'db_read', table: 7 }).error.code, 'invalid_query');
});

test('docs/prompt-anatomy.md shows the prompt the code assembles today', async () => {
  const { execFileSync } = await import('node:child_process');
  execFileSync(process.execPath, [new URL('../../bench/prompt-example.mjs', import.meta.url).pathname, '--check'], { stdio: 'pipe' });
});
