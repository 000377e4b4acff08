// web/index.d.ts as a TypeScript user sees it: tests/types/usage.ts imports
// 'alfred-act' through the package's exports and must compile under --strict.
// Each check asserts which files tsc read, so a tsc that never ran, crashed or
// checked something else cannot pass.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, SCRATCH } from './support/paths.mjs';
import { tscProject } from './support/typecheck.mjs';

/** tsc over `project` is clean and read `files` (repository paths), among them the package's declarations. */
async function compiles(project, files, options) {
  const { errors, listed } = await tscProject(project, options);
  assert.equal(errors, '', `tsc rejected ${project}:\n${errors}`);
  for (const file of files) assert.ok(listed.includes(join(ROOT, file)), `tsc did not read ${file}`);
}

test('tests/types/usage.ts compiles with tsc --noEmit --strict', { timeout: 60_000 }, async () => {
  await compiles('tests/types', ['tests/types/usage.ts', 'web/index.d.ts']);
});

test('tests/types/adapters.ts (alfred-act/ai, alfred-act/openai, tool calling) compiles with tsc --noEmit --strict', { timeout: 60_000 }, async () => {
  await compiles('tests/types/tsconfig.adapters.json', ['tests/types/adapters.ts', 'web/index.d.ts', 'web/ai.d.ts', 'web/openai.d.ts']);
});

test('tests/types/surfaces.ts (alfred-act/mcp, alfred-act/loop, alfred-act/worker, alfred-act/worker/durable, no DOM lib) compiles with tsc --noEmit --strict', { timeout: 60_000 }, async () => {
  await compiles('tests/types/tsconfig.surfaces.json', ['tests/types/surfaces.ts', 'web/mcp.d.ts', 'web/loop.d.ts', 'web/worker.d.ts', 'web/worker-durable.d.ts']);
});

test('the check fails when tsc is missing, crashes, times out, or reports an error', { timeout: 60_000 }, async () => {
  await mkdir(SCRATCH, { recursive: true });
  const dir = await mkdtemp(join(SCRATCH, 'tsc-probe-'));
  try {
    const fake = async (name, script) => {
      const path = join(dir, name);
      await writeFile(path, `#!/bin/sh\n${script}\n`);
      await chmod(path, 0o755);
      return path;
    };
    await assert.rejects(tscProject('tests/types', { tsc: join(dir, 'no-such-tsc') }), /tsc did not run/);
    // An uncaught exception in node exits 1 with the stack on stderr only.
    await assert.rejects(tscProject('tests/types', { tsc: await fake('crash', 'echo "TypeError: boom" >&2; exit 1') }), /tsc failed in tests\/types without a diagnostic/);
    await assert.rejects(tscProject('tests/types', { tsc: await fake('killed', 'kill -9 $$') }), /tsc did not run/);
    await assert.rejects(tscProject('tests/types', { tsc: await fake('slow', 'sleep 30'), timeout: 500 }), /tsc did not run/);
    // A tsc that "passes" without reading anything is caught by the files it listed.
    const silent = await fake('silent', 'exit 0');
    assert.deepEqual(await tscProject('tests/types', { tsc: silent }), { errors: '', listed: [] });
    await assert.rejects(compiles('tests/types', ['tests/types/usage.ts'], { tsc: silent }), /tsc did not read tests\/types\/usage\.ts/);
    await writeFile(join(dir, 'wrong.mts'), 'export const n: number = "text";\n');
    await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, types: [] }, files: ['wrong.mts'] }));
    const { errors, listed } = await tscProject(dir);
    assert.match(errors, /wrong\.mts\(1,14\): error TS2322: Type 'string' is not assignable to type 'number'\./);
    assert.ok(listed.includes(join(dir, 'wrong.mts')));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
