// Run by tests/matrix/run.sh in each peer set: tsc --strict over the adapters'
// types (tests/types/adapters.ts: aiTools into generateText, the openai SDK's
// own ChatCompletionMessageToolCall and Responses output into runToolCalls)
// and the README's examples that import a framework package, against the
// set's packages. The package's declarations sit in a scratch node_modules
// inside the set's folder, as an install would put them, so their own
// imports ('ai' in web/ai.d.ts) find the set's packages too. The root's
// packages are checked the same way by tests/js/types.test.mjs and
// tests/js/readme.test.mjs.
import assert from 'node:assert/strict';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ROOT } from '../js/support/paths.mjs';
import { blockModule, readmeBlocks } from '../js/support/readme-blocks.mjs';
import { typecheck } from '../js/support/typecheck.mjs';

const PEER_IMPORT = /from '(ai|openai|@supabase\/supabase-js|@modelcontextprotocol\/sdk)(\/[^']*)?'/;
const CONFIGS = {
  nodenext: { module: 'nodenext', moduleResolution: 'nodenext' },
  bundler: { module: 'esnext', moduleResolution: 'bundler' },
};

const name = process.env.ALFRED_MATRIX;
const dir = name ? join(ROOT, 'tests/matrix', name) : null;
let scratch;

/** The package's declarations as node_modules/alfred-act of a project in `into`. */
async function installDeclarations(into) {
  const home = join(into, 'node_modules/alfred-act');
  await mkdir(join(home, 'web/dist'), { recursive: true });
  await copyFile(join(ROOT, 'package.json'), join(home, 'package.json'));
  for (const file of await readdir(join(ROOT, 'web'))) if (file.endsWith('.d.ts')) await copyFile(join(ROOT, 'web', file), join(home, 'web', file));
  for (const file of await readdir(join(ROOT, 'web/dist'))) if (file.endsWith('.d.mts')) await copyFile(join(ROOT, 'web/dist', file), join(home, 'web/dist', file));
  return home;
}

before(async () => {
  assert.ok(name, 'ALFRED_MATRIX is not set: run `bash tests/matrix/run.sh [name]`');
  await mkdir(join(dir, '.scratch'), { recursive: true });
  scratch = await mkdtemp(join(dir, '.scratch', 'types-'));
});
after(() => scratch && rm(scratch, { recursive: true, force: true }));

for (const [config, compilerOptions] of Object.entries(CONFIGS)) {
  test(`tests/types/adapters.ts and the README's framework examples compile against the set's packages (${config})`, { timeout: 60_000 }, async () => {
    const project = join(scratch, config);
    const home = await installDeclarations(project);
    await writeFile(join(project, 'package.json'), JSON.stringify({ type: 'module' }));
    await copyFile(join(ROOT, 'tests/types/adapters.ts'), join(project, 'adapters.ts'));
    await copyFile(join(ROOT, 'tests/readme/ambient.d.ts'), join(project, 'ambient.d.ts'));
    const files = ['ambient.d.ts', 'adapters.ts'];
    const blocks = readmeBlocks(await readFile(join(ROOT, 'README.md'), 'utf8')).filter((block) => !block.skip && PEER_IMPORT.test(block.code));
    assert.ok(blocks.length >= 2, `the README's AI SDK and OpenAI examples are checked (found ${blocks.length})`);
    for (const block of blocks) {
      await writeFile(join(project, `block-line-${block.line}.mts`), blockModule(block));
      files.push(`block-line-${block.line}.mts`);
    }
    const { errors, listed } = await typecheck(project, {
      strict: true,
      noEmit: true,
      target: 'es2022',
      lib: ['es2022', 'dom', 'esnext.disposable'],
      types: [],
      // The framework packages' own declarations are their authors' to check.
      skipLibCheck: true,
      ...compilerOptions,
    }, files);
    const output = errors.replace(/block-line-(\d+)\.m?ts\((\d+),(\d+)\)/g, 'README.md block at line $1 (block line $2, col $3)');
    assert.equal(output.trim(), '', `tsc (${name}, ${config}) rejected:\n${output}`);

    for (const file of files) assert.ok(listed.includes(join(project, file)), `tsc did not read ${file}`);
    assert.ok(listed.includes(join(home, 'web/openai.d.ts')) && listed.includes(join(home, 'web/ai.d.ts')), 'tsc did not read the adapters\' declarations');
    // Every declaration of ai or openai that tsc read is the set's.
    const peers = listed.filter((file) => /\/node_modules\/(ai|openai|@ai-sdk\/[^/]+)\//.test(file));
    assert.ok(peers.some((file) => file.startsWith(join(dir, 'node_modules/ai/'))), 'tsc read no declaration of the set\'s ai');
    assert.ok(peers.some((file) => file.startsWith(join(dir, 'node_modules/openai/'))), 'tsc read no declaration of the set\'s openai');
    assert.deepEqual(peers.filter((file) => !file.startsWith(join(dir, 'node_modules/'))), [], 'tsc read the root\'s ai or openai');
  });
}
