// The packed package in every runtime it targets: Node, Deno, workerd and
// Chromium each import it the way a user would, run the same probe and must
// produce exactly the same result, request URLs included.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { installPackedConsumer } from './support/consumer.mjs';
import { moduleGraph } from './support/module-graph.mjs';
import { bin, DENO_ENV, exec, FIXTURES, ROOT, SCRATCH } from './support/paths.mjs';
import { serveDirectory } from './support/static-server.mjs';
import { tscProject } from './support/typecheck.mjs';
import { writeWorkerdProject } from './support/workerd-project.mjs';

const expected = JSON.parse(await readFile(join(FIXTURES, 'probe-expected.json'), 'utf8'));
const PACKAGE = 'node_modules/alfred-act';

let consumer;
let conditions;

before(async () => {
  consumer = await installPackedConsumer();
  const manifest = JSON.parse(await readFile(join(consumer, PACKAGE, 'package.json'), 'utf8'));
  conditions = manifest.exports['.'];
});

after(async () => {
  if (consumer) await rm(dirname(consumer), { recursive: true, force: true });
});

const entryUrl = (condition) => pathToFileURL(join(consumer, PACKAGE, conditions[condition])).href;

test('the expected probe result holds the requests every runtime must build', () => {
  assert.equal(
    expected.read.data.url,
    'http://127.0.0.1:54321/rest/v1/recipe_ingredients?select=id%2Cname%2Cquantity%2Cunit' +
      '&user_id=eq.5f0c8e8a-3b7e-4d2a-9c61-0a8f2b4c6d10&recipe_id=eq.0b6a4c1e-8f2d-4e7a-b3c5-9d1e2f3a4b5c' +
      '&name=ilike.%25cr%C3%A8me%2C%20%22fra%C3%AEche%22%25&order=name.asc&limit=5',
  );
  assert.equal(expected.create.data.method, 'POST');
  assert.equal(expected.unknownRef.error.path, 'filters[0].value[0]');
});

test('Node resolves the "node" condition', { timeout: 30_000 }, async () => {
  const { stdout } = await exec(process.execPath, ['--disallow-code-generation-from-strings', 'main.mjs'], {
    cwd: consumer,
    timeout: 20_000,
  });
  const { entry, result } = JSON.parse(stdout);
  assert.equal(entry, entryUrl('node'));
  assert.deepEqual(result, expected);
});

test('Deno resolves the "deno" condition and needs no permissions', { timeout: 30_000 }, async () => {
  const { stdout } = await exec(bin('deno'), ['run', '--node-modules-dir=manual', '--no-prompt', 'main.mjs'], {
    cwd: consumer,
    env: DENO_ENV,
    timeout: 20_000,
  });
  const { entry, result } = JSON.parse(stdout);
  assert.equal(entry, entryUrl('deno'));
  assert.deepEqual(result, expected);
});

test('workerd loads the "workerd" entry with the .wasm as a wasm module', { timeout: 30_000 }, async () => {
  // Deno treats files under node_modules as opaque npm code, so the graph is
  // taken from the repo's copy and mapped onto the installed package.
  const modules = (await moduleGraph(join(ROOT, conditions.workerd))).map(({ kind, specifier }) => ({
    kind,
    path: join(PACKAGE, relative(ROOT, fileURLToPath(specifier))),
  }));
  const config = await writeWorkerdProject(consumer, join(PACKAGE, conditions.workerd), modules);
  const { stdout } = await exec(bin('workerd'), ['test', config], { cwd: consumer, timeout: 20_000 });
  const line = stdout.split('\n').find((text) => text.startsWith('PROBE '));
  assert.ok(line, `no probe output from workerd:\n${stdout}`);
  assert.deepEqual(JSON.parse(line.slice('PROBE '.length)), expected);
});

test('Chromium loads the "browser" entry, streaming or from bytes', { timeout: 60_000 }, async () => {
  const page = (await readFile(join(FIXTURES, 'index.html'), 'utf8')).replace('BROWSER_ENTRY', conditions.browser.slice(2));
  await writeFile(join(consumer, 'index.html'), page);
  const server = await serveDirectory(consumer);
  const profile = await mkdtemp(join(SCRATCH, 'chromium-profile-'));
  let context;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: '/usr/bin/chromium',
      headless: true,
      timeout: 20_000,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
    const pages = { '/index.html': 'application/wasm', '/octet-stream/index.html': 'application/octet-stream' };
    for (const [path, wasmType] of Object.entries(pages)) {
      const tab = await context.newPage();
      const problems = [];
      const wasmTypes = [];
      tab.on('response', (response) => {
        if (response.url().endsWith('.wasm')) wasmTypes.push(response.headers()['content-type']);
      });
      tab.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
      tab.on('pageerror', (error) => problems.push(error.message));
      tab.on('requestfailed', (request) => problems.push(`${request.url()} failed`));
      await tab.goto(server.origin + path, { timeout: 20_000 });
      // A string expression: playwright's function arguments and waitFor* rely
      // on new Function, which --disallow-code-generation-from-strings forbids here.
      const done = await tab.evaluate(
        "Promise.race([window.probeRun, new Promise((resolve) => setTimeout(resolve, 15000, { error: 'no result in 15 s' }))])",
      );
      assert.deepEqual({ ...done, problems, wasmTypes }, { result: expected, problems: [], wasmTypes: [wasmType] }, path);
      if (path === '/index.html') await tab.screenshot({ path: join(SCRATCH, 'chromium.png') });
      await tab.close();
    }
  } finally {
    await context?.close();
    await server.close();
    await rm(profile, { recursive: true, force: true });
  }
});

test('TypeScript resolves the installed package types', { timeout: 30_000 }, async () => {
  const types = join(consumer, 'types');
  await mkdir(types);
  for (const file of ['usage.ts', 'tsconfig.json']) await copyFile(join(ROOT, 'tests/types', file), join(types, file));
  const { errors, listed } = await tscProject(types, { cwd: consumer });
  assert.equal(errors, '', `tsc rejected the installed package's types:\n${errors}`);
  assert.ok(listed.includes(join(types, 'usage.ts')), 'tsc read usage.ts');
  assert.ok(listed.includes(join(consumer, 'node_modules/alfred-act/web/index.d.ts')), 'tsc read the installed package\'s declarations');
});
