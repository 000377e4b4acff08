// Every ```js / ```ts block of README.md is compiled with tsc --strict against
// the package as a user installs it (the packed tarball, types through its
// exports), under moduleResolution `bundler` and `nodenext`. New README
// sections are picked up without changing this file. The names an example may
// use undeclared are in tests/readme/ambient.d.ts; a marker comment on the line
// before a fence adds declarations or skips a block:
//   <!-- readme-check: prelude declare let saved: TurnState | undefined; -->
//   <!-- readme-check: skip (reason) -->
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { installPackedConsumer } from './support/consumer.mjs';
import { blockModule, readmeBlocks } from './support/readme-blocks.mjs';
import { ROOT } from './support/paths.mjs';
import { typecheck } from './support/typecheck.mjs';

const CONFIGS = {
  bundler: { module: 'esnext', moduleResolution: 'bundler' },
  nodenext: { module: 'nodenext', moduleResolution: 'nodenext' },
};

let consumer;
let blocks;

before(async () => {
  blocks = readmeBlocks(await readFile(join(ROOT, 'README.md'), 'utf8'));
  consumer = await installPackedConsumer();
});

after(async () => {
  if (consumer) await rm(dirname(consumer), { recursive: true, force: true });
});

test('the extractor finds js/ts blocks with their markers, not blocks nested in a longer fence', () => {
  const markdown = [
    '```sh', 'ls', '```',
    '<!-- readme-check: prelude declare let saved: TurnState; -->',
    '```js', 'a()', '```',
    '````markdown', '```ts', 'not code', '```', '````',
    '<!-- readme-check: skip (fragment) -->',
    '```ts', 'b', '```',
  ].join('\n');
  assert.deepEqual(readmeBlocks(markdown), [
    { line: 5, lang: 'js', code: 'a()', skip: false, prelude: 'declare let saved: TurnState;' },
    { line: 14, lang: 'ts', code: 'b', skip: true, prelude: '' },
  ]);
  assert.equal(
    blockModule({ code: "import { a } from 'alfred-act';\nif (!a) return;", prelude: 'declare let saved: TurnState;' }),
    [
      "import { a } from 'alfred-act';",
      "import type { TurnState } from 'alfred-act';",
      'declare let saved: TurnState;',
      'export async function example(): Promise<unknown> {',
      '  if (!a) return;',
      '  return undefined;',
      '}',
    ].join('\n'),
  );
});

test('the check fails when tsc does not run or finds an error, and lists what tsc read', async () => {
  const dir = join(consumer, 'readme-probe');
  await mkdir(dir);
  await writeFile(join(dir, 'wrong.mts'), 'export const n: number = "text";\n');
  const options = { strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', types: [] };
  await assert.rejects(typecheck(dir, options, ['wrong.mts'], { tsc: join(dir, 'no-such-tsc') }), /tsc did not run/);
  const { errors, listed } = await typecheck(dir, options, ['wrong.mts']);
  assert.match(errors, /^wrong\.mts\(1,14\): error TS2322: Type 'string' is not assignable to type 'number'\./);
  assert.ok(listed.includes(join(dir, 'wrong.mts')), listed.join('\n'));
});

test('README.md has code blocks to check', () => {
  assert.ok(blocks.length >= 3, `found ${blocks.length} js/ts blocks`);
});

for (const [name, compilerOptions] of Object.entries(CONFIGS)) {
  test(`every README js/ts block compiles with tsc --strict, moduleResolution ${name}`, { timeout: 60_000 }, async () => {
    const dir = join(consumer, `readme-${name}`);
    await mkdir(dir);
    await copyFile(join(ROOT, 'tests/readme/ambient.d.ts'), join(dir, 'ambient.d.ts'));
    const files = ['ambient.d.ts'];
    const origin = new Map();
    for (const block of blocks.filter((b) => !b.skip)) {
      const file = `block-line-${block.line}.mts`;
      await writeFile(join(dir, file), blockModule(block));
      files.push(file);
      origin.set(file, block.line);
    }
    await writeFile(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    const { errors, listed } = await typecheck(dir, {
      strict: true,
      noEmit: true,
      target: 'es2022',
      lib: ['es2022', 'dom', 'esnext.disposable'],
      types: ['node'],
      typeRoots: [join(ROOT, 'node_modules/@types')],
      ...compilerOptions,
    }, files);
    const output = errors.replace(/block-line-(\d+)\.m?ts\((\d+),(\d+)\)/g, 'README.md block at line $1 (block line $2, col $3)');
    assert.equal(output.trim(), '', `tsc (${name}) rejected README blocks:\n${output}`);
    // tsc read every block, and the package through the consumer's node_modules.
    for (const file of files) assert.ok(listed.includes(join(dir, file)), `tsc did not read ${file}`);
    assert.ok(listed.some((file) => file.startsWith(join(consumer, 'node_modules/alfred-act/'))), 'tsc did not read the installed package');
  });
}
