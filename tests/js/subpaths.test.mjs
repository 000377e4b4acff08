// The package's surfaces beyond the root: `alfred-act/mcp`, `alfred-act/loop`, `alfred-act/worker`
// (one entry per runtime), `alfred-act/worker/durable` and `alfred-act/stack`
// (the local Supabase). Their export map
// entries, what each runtime's worker entry reaches, and that the JavaScript
// exports and the .d.ts declarations name the same things.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { moduleGraph } from './support/module-graph.mjs';
import { ROOT } from './support/paths.mjs';

const manifest = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8'));
const web = pathToFileURL(join(ROOT, 'web/')).href;
const outsideThePackage = (graph) => graph.filter(({ specifier }) => !specifier.startsWith(web));

/** The names a .d.ts declares for export: `export declare …`, `export interface/type …`, `export { … }`. */
async function declared(file, { values = true } = {}) {
  const text = await readFile(join(ROOT, file), 'utf8');
  const names = new Set();
  for (const [, kind, name] of text.matchAll(/^export (?:declare )?(const|function|class|interface|type) (\w+)/gm)) {
    if (!values || !['interface', 'type'].includes(kind)) names.add(name);
  }
  return names;
}

/** The names a JS module exports, from its source (for modules Node cannot import, such as cloudflare:workers users). */
async function exportedBySource(file) {
  const text = await readFile(join(ROOT, file), 'utf8');
  return new Set([...text.matchAll(/^export (?:async )?(?:const|function|class) (\w+)/gm)].map(([, name]) => name));
}

test('package.json: the new subpaths, types first, and the existing exports as they were', () => {
  const { exports } = manifest;
  assert.deepEqual(Object.keys(exports), ['.', './ai', './openai', './loop', './mcp', './worker', './worker/durable', './stack', './alfred_core.wasm', './package.json']);
  for (const [subpath, conditions] of Object.entries(exports)) {
    if (typeof conditions === 'string') continue;
    assert.equal(Object.keys(conditions)[0], 'types', subpath);
    assert.equal(Object.keys(conditions).at(-1), 'default', subpath);
  }
  assert.deepEqual(exports['./worker'], {
    types: './web/worker.d.ts',
    workerd: './web/src/worker/index.workerd.js',
    deno: './web/src/worker/index.deno.js',
    browser: './web/src/worker/index.browser.js',
    node: './web/dist/node-worker.js',
    default: './web/src/worker/index.browser.js',
  });
  // Node gets the bundled build (scripts/bundle.mjs); Deno, workerd and
  // browsers the sources, so one runtime never mixes the two.
  const bundled = (types, source, node) => ({ types, deno: source, node, default: source });
  assert.deepEqual(exports['./mcp'], bundled('./web/mcp.d.ts', './web/src/mcp/index.js', './web/dist/node-mcp.js'));
  assert.deepEqual(exports['./loop'], bundled('./web/loop.d.ts', './web/src/loop/index.js', './web/dist/node-loop.js'));
  // The Durable Object imports cloudflare:workers: workerd only.
  assert.deepEqual(exports['./worker/durable'], { types: './web/worker-durable.d.ts', default: './web/src/worker/durable.js' });
  assert.deepEqual(exports['./stack'], { types: './db/stack.d.ts', default: './db/local-stack.mjs' });
  for (const file of ['web/mcp.d.ts', 'web/loop.d.ts', 'web/worker.d.ts', 'web/worker-durable.d.ts', 'web/src', 'db/stack.d.ts', 'db/*.mjs']) assert.ok(manifest.files.includes(file), `${file} is not in "files"`);
});

test('alfred-act/stack: the .d.ts declares exactly what the module exports', async () => {
  const exported = new Set(Object.keys(await import('alfred-act/stack')));
  assert.deepEqual(exported, new Set(['startStack', 'SqlFileError']));
  assert.deepEqual(await declared('db/stack.d.ts'), exported);
});

test('alfred-act/worker: every runtime entry exports the same names, and the .d.ts declares exactly those', async () => {
  const names = [];
  for (const runtime of ['node', 'browser', 'deno', 'workerd']) names.push(await exportedBySource(`web/src/worker/index.${runtime}.js`));
  const reexported = ['WORKER_VARIABLES', 'MemoryLimitStore', 'acquireLease', 'takeFromWindow'];
  const expected = new Set(['createHandler', ...reexported]);
  const fromNode = new Set(Object.keys(await import('alfred-act/worker')));
  assert.deepEqual(fromNode, expected);
  for (const each of names) assert.deepEqual(each, new Set(['createHandler']));
  assert.deepEqual(await declared('web/worker.d.ts'), expected);
});

test('alfred-act/worker/durable: the .d.ts declares what the module exports', async () => {
  assert.deepEqual(await exportedBySource('web/src/worker/durable.js'), await declared('web/worker-durable.d.ts'));
});

test('alfred-act/mcp: every export is declared in web/mcp.d.ts', async () => {
  const exported = Object.keys(await import('alfred-act/mcp')).sort();
  const types = await declared('web/mcp.d.ts');
  assert.deepEqual(exported.filter((name) => !types.has(name)), []);
  assert.ok(exported.includes('createMcpServer') && exported.includes('accessTokenSource') && exported.includes('resolveMcpDomain'));
});

// The root's MCP and loop names are deprecated in favour of the subpaths
// (CHANGELOG, "Deprecated"), not removed: code written against the root keeps
// working, and gets the subpath's own functions and classes.
const ROOT_DEPRECATED = {
  'alfred-act/loop': ['runStep', 'runTurn', 'runTurnEvents', 'planTurn', 'replyTurn', 'planSchema', 'createTurnState', 'readTurnState', 'STEP_TOOLS'],
  'alfred-act/mcp': ['MCP_INSTRUCTIONS', 'SCHEMA_URI', 'coreDomain', 'mcpToolList', 'mcpResourceList', 'schemaDescription', 'mcpToolResult', 'mcpToolError', 'newSessionId', 'openSession', 'findSession', 'closeSession', 'callSessionTool', 'MemorySessionStore', 'SupabaseSessionStore', 'readUserToken', 'isServiceKey'],
};

test('the root still exports the MCP and loop names, the same as their subpaths, each declared @deprecated in web/index.d.ts', async () => {
  const root = await import('alfred-act');
  const types = await readFile(join(ROOT, 'web/index.d.ts'), 'utf8');
  for (const [subpath, names] of Object.entries(ROOT_DEPRECATED)) {
    const part = await import(subpath);
    for (const name of names) {
      assert.ok(name in root, `alfred-act still exports ${name}`);
      assert.equal(root[name], part[name], `${name} of alfred-act is ${subpath}'s`);
      const declaration = new RegExp(`/\\*\\* @deprecated Import it from the subpath: \`import \\{ ${name} \\} from '${subpath}'\`\\. \\*/\\nexport declare const ${name}:`);
      assert.match(types, declaration, `${name} is declared deprecated, naming ${subpath}`);
    }
  }
  assert.equal(typeof root.runTurn, 'function');
});

test("the worker's workerd, Deno and browser entries reach only package files (no node: builtins); workerd imports the .wasm as a module", async () => {
  for (const runtime of ['workerd', 'deno', 'browser']) {
    const graph = await moduleGraph(join(ROOT, `web/src/worker/index.${runtime}.js`));
    assert.deepEqual(outsideThePackage(graph), [], runtime);
    assert.ok(graph.some(({ specifier }) => specifier.endsWith('/web/src/worker/handler.js')), runtime);
    // The MCP SDK is the stdio server's, loaded on use: never in a worker's graph.
    assert.ok(!graph.some(({ specifier }) => specifier.endsWith('/web/src/mcp/server.js')), runtime);
  }
  const workerd = await moduleGraph(join(ROOT, 'web/src/worker/index.workerd.js'));
  assert.deepEqual(workerd.filter(({ specifier }) => specifier.endsWith('.wasm')).map(({ kind }) => kind), ['wasm']);
});
