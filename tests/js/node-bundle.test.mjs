// Node's bundled build (scripts/bundle.mjs → web/dist/node-*.js): what
// package.json gives Node for the root and the subpaths it can import. It
// must be what web/src builds to now (a stale build would test and ship old
// code), reach nothing but its own files, node: builtins and the optional
// peers, and hold one copy of the package's state across entries.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, transform } from 'esbuild';
import { bundle, bundleOptions, NODE_ENTRIES } from '../../scripts/bundle.mjs';
import { ROOT } from './support/paths.mjs';

const DIST = join(ROOT, 'web/dist');
const manifest = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8'));
const builtFiles = async (dir) => (await readdir(dir)).filter((name) => /^node-.*\.js$/.test(name)).sort();

test('web/dist/node-*.js is what web/src bundles to now (else: node scripts/bundle.mjs)', async () => {
  const out = await mkdtemp(join(tmpdir(), 'alfred-bundle-'));
  try {
    await bundle(out);
    const fresh = await builtFiles(out);
    assert.deepEqual(await builtFiles(DIST), fresh, 'the files differ: run node scripts/bundle.mjs (scripts/build.sh does)');
    for (const name of fresh) {
      const same = (await readFile(join(out, name), 'utf8')) === (await readFile(join(DIST, name), 'utf8'));
      assert.ok(same, `web/dist/${name} is stale: run node scripts/bundle.mjs (scripts/build.sh does)`);
    }
  } finally {
    await rm(out, { recursive: true, force: true });
  }
});

test('the bundled files are ASCII, escaped only in comments', async () => {
  // One non-ASCII character makes Node read a whole file as a two-byte string
  // (slower to decode and to compile); esbuild escapes them in code but not in
  // the comments it keeps, which bundle() escapes. Without comments (what
  // minifyWhitespace leaves) the escaped build is esbuild's own.
  for (const name of await builtFiles(DIST)) assert.doesNotMatch(await readFile(join(DIST, name), 'utf8'), /[^\x00-\x7f]/, name);
  const { outputFiles } = await build(bundleOptions(join(tmpdir(), 'alfred-bundle-unwritten')));
  const code = async (text) => (await transform(text, { minifyWhitespace: true, format: 'esm', legalComments: 'none' })).code;
  for (const file of outputFiles) {
    const name = file.path.split(/[\\/]/).pop();
    assert.equal(await code(await readFile(join(DIST, name), 'utf8')), await code(file.text), name);
  }
});

test('every bundled entry is the node condition of an export, and every import it keeps is allowed', async () => {
  const nodeTargets = Object.values(manifest.exports).map((conditions) => conditions.node).filter((file) => file?.startsWith('./web/dist/'));
  assert.deepEqual(nodeTargets.sort(), Object.values(NODE_ENTRIES).map((name) => `./web/dist/${name}.js`).sort());
  const peers = Object.keys(manifest.peerDependencies);
  const files = await builtFiles(DIST);
  for (const name of files) {
    const text = await readFile(join(DIST, name), 'utf8');
    const specifiers = [...text.matchAll(/(?:^import\s[^'"]*?|^export\s[^'"]*?from\s|\bimport\()\s*["']([^"']+)["']/gm)].map(([, specifier]) => specifier);
    for (const specifier of specifiers) {
      const allowed =
        specifier.startsWith('node:') ||
        (specifier.startsWith('./') && files.includes(specifier.slice(2))) ||
        peers.some((peer) => specifier === peer || specifier.startsWith(`${peer}/`));
      assert.ok(allowed, `${name} imports ${specifier}: not a chunk of the build, a node: builtin or an optional peer`);
    }
  }
});

test('the root and the subpaths share one copy of the package, as Node resolves them', async () => {
  assert.ok(import.meta.resolve('alfred-act').endsWith('/web/dist/node-index.js'));
  assert.ok(import.meta.resolve('alfred-act/mcp').endsWith('/web/dist/node-mcp.js'));
  const root = await import('alfred-act');
  const mcp = await import('alfred-act/mcp');
  const loop = await import('alfred-act/loop');
  // The same class and function objects, not copies: a store made from one
  // entry is the other's, and instanceof holds across them.
  assert.equal(mcp.MemorySessionStore, root.MemorySessionStore);
  assert.equal(mcp.openSession, root.openSession);
  assert.equal(loop.runTurn, root.runTurn);
  // The bundled build loads the shipped .wasm from web/dist and works.
  const core = await root.loadCore();
  assert.deepEqual(core.createRegistry().toJSON().refs, []);
  await assert.rejects(root.loadCore({ maxInputBytes: -1 }), (error) => error instanceof root.AlfredError && error.code === 'invalid_option');
});

// The build has no keepNames (its __name() would wrap every closure as it is
// made): a public function or class keeps its name only while no other
// top-level name of its chunk is the same, else the bundler renames it
// (createAct2), which a stack trace and console.log would show.
test('every function and class an entry exports has the name it has in the sources', async () => {
  for (const [source, out] of Object.entries(NODE_ENTRIES)) {
    const bundled = await import(join(DIST, `${out}.js`));
    const original = await import(join(ROOT, 'web/src', source));
    for (const [key, value] of Object.entries(bundled)) {
      if (typeof value !== 'function') continue;
      assert.equal(value.name, original[key]?.name, `${out}.js exports ${key} named ${value.name}`);
    }
  }
});
