// The bundler recipes of docs/bundlers.md, from the packed package as a user
// installs it: Vite, esbuild and webpack each build the same small app, which
// runs in Chromium against the local stack: the .wasm loads, a request is
// built, the registry state round-trips and a read executes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { chromium } from 'playwright-core';
import { installPackedConsumer } from './support/consumer.mjs';
import { exec, FIXTURES, SCRATCH } from './support/paths.mjs';
import { serveDirectory } from './support/static-server.mjs';
import { sharedStack } from './support/stack.mjs';

const APP = join(FIXTURES, 'bundler-app');
const stack = sharedStack();
let consumer;
let context;
let profile;

before(async () => {
  consumer = await installPackedConsumer();
  const app = join(consumer, 'app');
  await mkdir(app);
  for (const file of await readdir(APP)) await copyFile(join(APP, file), join(app, file));
  // Vite builds from the page; the others get it next to their bundle.
  await writeFile(join(app, 'index.html'), (await readFile(join(APP, 'index.html'), 'utf8')).replace('SCRIPT', './main.js'));
  profile = await mkdtemp(join(SCRATCH, 'chromium-profile-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    timeout: 90_000,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
});

after(async () => {
  await context?.close();
  if (profile) await rm(profile, { recursive: true, force: true });
  if (consumer) await rm(dirname(consumer), { recursive: true, force: true });
});

// Each build runs in its own Node process (bundlers may compile code from
// strings, which this suite's --disallow-code-generation-from-strings forbids).
async function bundle(name, script) {
  const file = join(consumer, `build-${name}.mjs`);
  await writeFile(file, script);
  await exec(process.execPath, [file], { cwd: consumer, timeout: 90_000 });
  return join(consumer, `out-${name}`);
}

const moduleUrl = (name) => JSON.stringify(import.meta.resolve(name));

async function pageFor(out, script) {
  const html = (await readFile(join(APP, 'index.html'), 'utf8')).replace('SCRIPT', script);
  await writeFile(join(out, 'index.html'), html);
}

/** Loads `out/index.html` in Chromium; resolves to `{ result | error, problems, wasm }`. */
async function runInChromium(out) {
  const server = await serveDirectory(out);
  const tab = await context.newPage();
  const problems = [];
  const wasm = [];
  tab.on('response', (response) => {
    if (response.url().endsWith('.wasm')) wasm.push(response.status());
  });
  tab.on('pageerror', (error) => problems.push(error.message));
  try {
    const { supabaseUrl: url, anonKey, users } = stack();
    const query = new URLSearchParams({ url, apiKey: anonKey, token: users[0].token, userId: users[0].id });
    await tab.goto(`${server.origin}/index.html?${query}`, { timeout: 20_000 });
    const done = await tab.evaluate(
      "Promise.race([window.appRun, new Promise((resolve) => setTimeout(resolve, 20000, { error: 'no result in 20 s' }))])",
    );
    return { ...done, problems, wasm };
  } finally {
    await tab.close();
    await server.close();
  }
}

const RECIPE_COLUMNS =
  'id,name,description,cuisine,difficulty,prep_time_minutes,cook_time_minutes,servings,instructions,tags,' +
  'source_url,is_system,parent_recipe_id,occasions,health_tags,flavor_tags,equipment_tags,created_at';

function expectedResult() {
  const { supabaseUrl, users } = stack();
  const url = `${supabaseUrl}/rest/v1`;
  return {
    readUrl: `${url}/inventory?select=%2A&user_id=eq.${users[0].id}&name=eq.eggs&limit=3`,
    ref: 'recipe_1',
    // A write reads back the columns a read would: never the hidden embedding.
    deleteUrl: `${url}/recipes?user_id=eq.${users[0].id}&id=eq.0b6a4c1e-8f2d-4e7a-b3c5-9d1e2f3a4b5c&select=${encodeURIComponent(RECIPE_COLUMNS)}`,
    executed: { error: null, rows: ['recipe_N', 'recipe_N'] },
  };
}

test('Vite: vite build, the package finds its .wasm itself', { timeout: 300_000 }, async () => {
  const out = await bundle(
    'vite',
    `import { build } from ${moduleUrl('vite')};
await build({ configFile: false, root: 'app', logLevel: 'warn', build: { outDir: '../out-vite', emptyOutDir: true } });`,
  );
  // Vite writes its own index.html (from app/index.html, script rewritten).
  const page = await readFile(join(out, 'index.html'), 'utf8');
  assert.match(page, /assets\//);
  assert.deepEqual(await runInChromium(out), { result: expectedResult(), problems: [], wasm: [200] });
});

test('webpack 5: the package finds its .wasm itself (new URL + import.meta.url)', { timeout: 300_000 }, async () => {
  const out = await bundle(
    'webpack',
    `import webpack from ${moduleUrl('webpack')};
const compiler = webpack({ mode: 'production', context: process.cwd() + '/app', entry: './main.js', target: 'web', devtool: false,
  optimization: { minimize: false }, performance: { hints: false },
  output: { path: process.cwd() + '/out-webpack', filename: 'app.js', publicPath: 'auto', clean: true } });
const stats = await new Promise((resolve, reject) => compiler.run((error, result) => (error ? reject(error) : resolve(result))));
if (stats.hasErrors()) throw new Error(stats.toString('errors-only'));
await new Promise((resolve) => compiler.close(resolve));`,
  );
  await pageFor(out, './app.js');
  assert.deepEqual(await runInChromium(out), { result: expectedResult(), problems: [], wasm: [200] });
});

const esbuildScript = (entry, out) => `import { build } from ${moduleUrl('esbuild')};
await build({ entryPoints: ['app/${entry}'], bundle: true, format: 'esm', platform: 'browser', outdir: '${out}',
  entryNames: 'app', loader: { '.wasm': 'file' }, logLevel: 'warning' });`;

test('esbuild: loadCore({ wasm }) with the URL the file loader gives', { timeout: 300_000 }, async () => {
  const out = await bundle('esbuild', esbuildScript('main-esbuild.js', 'out-esbuild'));
  await pageFor(out, './app.js');
  const files = await readdir(out);
  assert.ok(files.some((file) => /^alfred_core-\w+\.wasm$/.test(file)), files.join(', '));
  assert.deepEqual(await runInChromium(out), { result: expectedResult(), problems: [], wasm: [200] });
});

test('esbuild without the recipe: the .wasm 404 is a wasm_fetch_failed error that points to it', { timeout: 300_000 }, async () => {
  const out = await bundle('esbuild-plain', esbuildScript('main.js', 'out-esbuild-plain'));
  await pageFor(out, './app.js');
  const { error, problems, wasm } = await runInChromium(out);
  assert.deepEqual({ problems, wasm }, { problems: [], wasm: [404] });
  assert.match(error, /^wasm_fetch_failed fetching http:\/\/127\.0\.0\.1:\d+\/dist\/alfred_core\.wasm failed with HTTP 404$/);
});
