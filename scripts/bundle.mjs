// Writes the package's Node build: web/src bundled into a few modules in
// web/dist (node-*.js), one per entry of package.json "exports" that Node
// imports, sharing their common code in node-shared-*.js chunks (so
// `alfred-act` and `alfred-act/mcp` hold one AlfredError, one core cache).
// Node loads an ES module graph file by file; the package's 60-odd source
// modules cost it about 30 ms on every fresh process, a few bundled ones a
// tenth of that (docs/benchmarks.md, cold start). Browsers, workerd and Deno
// keep the sources: their bundlers and caches do this already.
// Run by scripts/build.sh after the wasm build and the generated modules;
// tests/js/node-bundle.test.mjs checks the committed build inputs still give
// these bytes.
//   node scripts/bundle.mjs [outdir]
import { build } from 'esbuild';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Entry point (under web/src) → output name (in web/dist, without .js). */
export const NODE_ENTRIES = {
  'index.node.js': 'node-index',
  'adapters/ai.js': 'node-ai',
  'adapters/openai.js': 'node-openai',
  'loop/index.js': 'node-loop',
  'mcp/index.js': 'node-mcp',
  'worker/index.node.js': 'node-worker',
};

const ROOT_ENTRY = 'index.node.js';
const WRAPPED = 'alfred-entry:';

// Every other entry imports the root first. The root's modules are then
// reached from every entry, and esbuild puts them in one shared chunk: a
// fresh process's `import 'alfred-act'` loads two files instead of five,
// about 2 ms less (docs/benchmarks.md, cold start). A subpath loads the
// root's code with it, which its users import anyway (loadCore, createAct).
const rootFirst = {
  name: 'root-first',
  setup(build) {
    build.onResolve({ filter: new RegExp(`^${WRAPPED}`) }, (args) => ({ path: args.path.slice(WRAPPED.length), namespace: 'alfred-entry' }));
    build.onLoad({ filter: /.*/, namespace: 'alfred-entry' }, (args) => ({
      contents: `import 'alfred-act-root';\nexport * from './${args.path}';\n`,
      resolveDir: `${root}web/src`,
      loader: 'js',
    }));
    build.onResolve({ filter: /^alfred-act-root$/ }, () => ({ path: `${root}web/src/${ROOT_ENTRY}` }));
  },
};

/** The esbuild options of the Node build, writing to `outdir` (default web/dist). */
export function bundleOptions(outdir = `${root}web/dist`) {
  return {
    absWorkingDir: root,
    entryPoints: Object.entries(NODE_ENTRIES).map(([source, out]) => ({ in: source === ROOT_ENTRY ? `web/src/${source}` : `${WRAPPED}${source}`, out })),
    plugins: [rootFirst],
    // package.json's "sideEffects": false is for the users' bundlers; here
    // it would drop the import rootFirst adds (the sources have no
    // annotations of their own, and the bundle is the same size either way).
    ignoreAnnotations: true,
    outdir,
    // The shared chunks sit next to the entries: the Node entry finds the
    // .wasm at '../dist/alfred_core.wasm' from its own URL, which is the same
    // file from web/src and from web/dist.
    chunkNames: 'node-shared-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // The peer dependencies (ai, openai, the MCP SDK, OpenTelemetry, pg)
    // stay imports: the user's own copies, loaded only when used.
    packages: 'external',
    // Not minified: a stack trace reads like the sources, which the package
    // also ships. Without keepNames, whose __name() wraps every closure as
    // it is made, calls included (about 4 % of a one-row read's own time).
    // A public function keeps its name only if no other top-level name in its
    // chunk is the same (the bundler renames the later one, createAct2):
    // tests/js/node-bundle.test.mjs checks every export's name.
    keepNames: false,
    legalComments: 'none',
    logLevel: 'warning',
    // bundle() writes the files, as ASCII (asciiOnly).
    write: false,
  };
}

// esbuild escapes every non-ASCII character in code (its default charset),
// but not in the comments it keeps (those inside classes and object
// literals): one `…` there makes Node read the whole file as a two-byte
// string, slower to decode and to compile: 8 % of the root's import
// (docs/benchmarks.md, cold start, 2026-11-28). Outside code, an escape is
// only text; tests/js/node-bundle.test.mjs checks it stayed there.
const asciiOnly = (text) => text.replace(/[^\x00-\x7f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** Builds into `outdir`, first removing the node-*.js an earlier build left (chunk names change with their content). */
export async function bundle(outdir = `${root}web/dist`) {
  mkdirSync(outdir, { recursive: true });
  for (const name of readdirSync(outdir)) if (/^node-.*\.js$/.test(name)) rmSync(join(outdir, name));
  const { outputFiles } = await build(bundleOptions(outdir));
  for (const file of outputFiles) {
    mkdirSync(dirname(file.path), { recursive: true });
    writeFileSync(file.path, asciiOnly(file.text));
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await bundle(process.argv[2]);
}
