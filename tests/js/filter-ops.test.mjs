// The filter ops as the package shows them: the `op` enum of the tool
// schemas comes from the core's op table (core/src/tool_call/filter_ops.cpp,
// docs/filter-ops.md); the FilterOp union generated from the core and the
// ActDecision schema must list every op of it.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { before, test } from 'node:test';
import { actDecisionSchema } from '../../web/src/prompt.js';
import { loadCore } from '../../web/src/index.node.js';

let core;
before(async () => {
  core = await loadCore();
});

// The `enum` of every filter's `op` property in a JSON Schema (an
// aggregate's `having` compares metrics, with ops of its own).
function opEnums(schema) {
  const found = [];
  const walk = (node) => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node.properties?.op?.enum) && !node.properties.metric) found.push(node.properties.op.enum);
    for (const [key, value] of Object.entries(node)) if (key !== 'having') walk(value);
  };
  walk(schema);
  return found;
}

const readOps = () => opEnums(core.toolDefinitions().find((tool) => tool.name === 'db_read').parameters)[0];

test('the tool schemas: db_read takes every op, writes all but similar', () => {
  assert.deepEqual(readOps(), [
    '=', '!=', '>', '>=', '<', '<=', 'in', 'not_in', 'like', 'ilike', 'not_like', 'not_ilike', 'is_null', 'is_not_null',
    'contains', 'contained_by', 'overlaps', 'search', 'not_search', 'similar',
  ]);
  for (const strict of [false, true])
    for (const tool of core.toolDefinitions({ strict }))
      for (const ops of opEnums(tool.parameters))
        assert.deepEqual(ops, tool.name === 'db_read' ? readOps() : readOps().filter((op) => op !== 'similar'), tool.name);
});

test('FilterOp (generated from the core) and the ActDecision schema list every op of the core', async () => {
  const types = await readFile(new URL('../../web/dist/core-rules.d.mts', import.meta.url), 'utf8');
  const union = types.match(/export type FilterOp =([^;]*);/);
  assert.ok(union, 'web/dist/core-rules.d.mts declares FilterOp');
  const members = [...union[1].matchAll(/'([^']*)'/g)].map((match) => match[1]);
  for (const op of readOps()) assert.ok(members.includes(op), `FilterOp lacks '${op}'`);
  assert.deepEqual(opEnums(actDecisionSchema), [readOps()]);
});
