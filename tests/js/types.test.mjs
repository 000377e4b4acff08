// web/index.d.ts as a TypeScript user sees it: tests/types/usage.ts imports
// 'alfred-act' through the package's exports and must compile under --strict.
import { test } from 'node:test';
import { bin, exec } from './support/paths.mjs';

test('tests/types/usage.ts compiles with tsc --noEmit --strict', { timeout: 30_000 }, async () => {
  await exec(bin('tsc'), ['--noEmit', '--strict', '-p', 'tests/types'], { timeout: 20_000 });
});

test('tests/types/adapters.ts (alfred-act/ai, alfred-act/openai, tool calling) compiles with tsc --noEmit --strict', { timeout: 30_000 }, async () => {
  await exec(bin('tsc'), ['--noEmit', '--strict', '-p', 'tests/types/tsconfig.adapters.json'], { timeout: 20_000 });
});

test('tests/types/surfaces.ts (alfred-act/mcp, alfred-act/worker, alfred-act/worker/durable, no DOM lib) compiles with tsc --noEmit --strict', { timeout: 30_000 }, async () => {
  await exec(bin('tsc'), ['--noEmit', '--strict', '-p', 'tests/types/tsconfig.surfaces.json'], { timeout: 20_000 });
});
