// scripts/cmake-cache.sh (a build dir configured for a moved or copied
// checkout is configured again) and scripts/stage.sh (the progress lines of
// start.sh and build.sh), and which parts build.sh builds for start.sh
// (the package: the wasm module and web/dist) and for test.sh (everything).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { exec, ROOT, SCRATCH } from './support/paths.mjs';

const bash = (script, cwd = ROOT) => exec('bash', ['-c', script], { cwd, timeout: 20_000 });

test('a CMake cache made for another source dir (moved or copied checkout) is stale and dropped', async () => {
  await mkdir(SCRATCH, { recursive: true });
  const dir = await mkdtemp(join(SCRATCH, 'cmake-cache-'));
  try {
    const source = join(dir, 'checkout');
    const copy = join(dir, 'copy');
    await mkdir(join(source, 'build/native'), { recursive: true });
    await mkdir(copy);
    const cache = (home) => writeFile(join(source, 'build/native/CMakeCache.txt'), `# cache\nCMAKE_HOME_DIRECTORY:INTERNAL=${home}\nCMAKE_BUILD_TYPE:STRING=Release\n`);
    const stale = (build, src) =>
      bash(`source ${join(ROOT, 'scripts/cmake-cache.sh')}; cmake_cache_is_stale ${build} ${src} && echo stale || echo fresh`).then(({ stdout }) => stdout.trim());

    await cache(source);
    assert.equal(await stale(join(source, 'build/native'), source), 'fresh');
    assert.equal(await stale(join(source, 'build/native'), `${source}/.`), 'fresh');
    assert.equal(await stale(join(source, 'build/wasm'), source), 'fresh', 'no cache yet');
    await cache(copy); // copied: the cache names a checkout that still exists elsewhere
    assert.equal(await stale(join(source, 'build/native'), source), 'stale');
    await cache(join(dir, 'moved-away')); // moved: the old path is gone
    assert.equal(await stale(join(source, 'build/native'), source), 'stale');

    const { stdout } = await bash(`source ${join(ROOT, 'scripts/cmake-cache.sh')}; drop_stale_cmake_cache build/native .`, source);
    assert.equal(stdout, `build: build/native was configured for ${join(dir, 'moved-away')}; configuring again for ${source}\n`);
    await assert.rejects(stat(join(source, 'build/native')), { code: 'ENOENT' });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('stage lines carry the elapsed time; ninja progress becomes a line per tenth', async () => {
  const ninja = Array.from({ length: 20 }, (_, i) => `[${i + 1}/20] Building CXX object x${i}.o`).join('\\n');
  const { stdout } = await bash(`source scripts/stage.sh; stage "build: building wasm"; printf '${ninja}\\nFAILED: x.o\\n' | ninja_progress wasm`);
  assert.match(stdout, /^\[0:0\d\] build: building wasm\n/);
  const lines = stdout.trim().replace(/^\[\d+:\d\d\]/gm, '[T]').split('\n');
  assert.deepEqual(lines.slice(1, 3), ['[T]   wasm: 1/20 steps', '[T]   wasm: 2/20 steps']);
  assert.equal(lines.at(-2), '[T]   wasm: 20/20 steps');
  assert.equal(lines.at(-1), 'FAILED: x.o');
  assert.equal(lines.length, 1 + 10 + 1 + 1);
});

test('the main job prints what a newcomer needs: a signed-in token, the worker routes, an MCP client configuration that parses', async () => {
  const { newcomerText } = await import('../../scripts/serve-apps.mjs');
  const text = newcomerText({
    backend: { url: 'http://127.0.0.1:54321', apiKey: 'anon-key' },
    users: [{ email: 'ada@example.com', token: 'header.payload.signature' }],
    demo: { url: 'http://127.0.0.1:8080' },
    worker: { url: 'http://127.0.0.1:8787' },
    model: null,
  });
  assert.match(text, /^Signed in: {4}ada@example\.com\n {2}token {7}header\.payload\.signature$/m);
  for (const route of ['/act/execute', '/act/turn', '/mcp']) assert.match(text, new RegExp(`^  POST http://127\\.0\\.0\\.1:8787${route} `, 'm'));
  const json = text.slice(text.indexOf('{\n'), text.indexOf('\n}\n') + 2);
  const config = JSON.parse(json);
  assert.deepEqual(config.mcpServers['alfred-act'], {
    command: 'npx',
    args: ['alfred-act', 'mcp'],
    env: { SUPABASE_URL: 'http://127.0.0.1:54321', SUPABASE_ANON_KEY: 'anon-key', SUPABASE_ACCESS_TOKEN: 'header.payload.signature' },
  });
});

/** Runs scripts/build.sh with `args` in a scratch checkout whose cmake, emcmake and node only log: the commands it ran. */
async function buildCommands(args) {
  await mkdir(SCRATCH, { recursive: true });
  const dir = await mkdtemp(join(SCRATCH, 'build-sh-'));
  try {
    await mkdir(join(dir, 'scripts'));
    for (const file of ['build.sh', 'stage.sh', 'cmake-cache.sh']) await copyFile(join(ROOT, 'scripts', file), join(dir, 'scripts', file));
    await mkdir(join(dir, 'build/wasm'), { recursive: true });
    for (const file of ['alfred_core.mjs', 'alfred_core.wasm']) await writeFile(join(dir, 'build/wasm', file), '');
    await mkdir(join(dir, 'stubs'));
    for (const name of ['cmake', 'emcmake', 'node']) {
      await writeFile(join(dir, 'stubs', name), `#!/bin/sh\necho "${name} $*" >> "${join(dir, 'commands.log')}"\n`, { mode: 0o755 });
    }
    const run = exec('bash', ['scripts/build.sh', ...args], { cwd: dir, timeout: 20_000, env: { ...process.env, PATH: `${join(dir, 'stubs')}:${process.env.PATH}` } });
    const { stdout } = await run;
    return { stdout, commands: (await readFile(join(dir, 'commands.log'), 'utf8')).trim().split('\n') };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test('build.sh package (what start.sh runs) builds the wasm module and stages web/dist, not the native core or any doctest', async () => {
  const { commands } = await buildCommands(['package']);
  assert.deepEqual(commands.filter((line) => /^(cmake|emcmake) /.test(line)), [
    'emcmake cmake -S . -B build/wasm -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CROSSCOMPILING_EMULATOR=',
    'cmake --build build/wasm --target alfred_wasm',
  ]);
  assert.deepEqual(commands.filter((line) => line.startsWith('node ')), [
    'node scripts/generate-wasm-names.mjs', 'node scripts/generate-kitchen.mjs', 'node scripts/generate-decision-schema.mjs', 'node scripts/generate-prompt-templates.mjs', 'node scripts/generate-error-codes.mjs', 'node scripts/generate-core-rules.mjs', 'node scripts/bundle.mjs',
  ]);
});

test('build.sh with no argument (what test.sh runs) builds everything: native core + doctest, then every wasm target', async () => {
  const { commands } = await buildCommands([]);
  assert.deepEqual(commands.filter((line) => /^(cmake|emcmake) /.test(line)), [
    'cmake -S . -B build/native -G Ninja -DCMAKE_BUILD_TYPE=Release',
    'cmake --build build/native',
    'emcmake cmake -S . -B build/wasm -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CROSSCOMPILING_EMULATOR=',
    'cmake --build build/wasm',
  ]);
  await assert.rejects(buildCommands(['native']), (error) => /usage: bash scripts\/build\.sh \[package\]/.test(error.stderr));
});

test('start.sh builds only what the package needs; test.sh builds everything', async () => {
  const builds = (script) => readFileSync(join(ROOT, 'scripts', script), 'utf8').split('\n').filter((line) => /^\s*bash scripts\/build\.sh\b/.test(line)).map((line) => line.trim());
  assert.deepEqual(builds('start.sh'), ['bash scripts/build.sh package']);
  assert.deepEqual(builds('test.sh'), ['bash scripts/build.sh']);
});
