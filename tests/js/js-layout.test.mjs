// The JavaScript's layout: the file list says where things are. A part with
// a folder has its entry inside that folder (web/src/loop/index.js, never
// web/src/loop.js beside web/src/loop/); the model driver is one folder,
// web/src/llm/; the library under db/ imports no command-line code from cli/
// (the command imports the library, never the other way), and the edge
// worker template holds only what a user copies. The public Core class
// shows only public API; its plumbing is core/plumbing.js.
import { test } from 'node:test';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join, relative, resolve } from 'node:path';
import assert from 'node:assert/strict';
import { ROOT, SCRATCH } from './support/paths.mjs';

const WEB_SRC = join(ROOT, 'web/src');
// The one module under db/ that may import cli/: `node db/stack.mjs start`,
// the documented script entry of the stack's command (cli/stack.mjs). It is
// a script, not a library: it exports nothing and nothing imports it.
const DB_SCRIPT_ENTRIES = ['db/stack.mjs'];

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? [path, ...walk(path)] : [path];
  });
}

/** The relative specifiers `text` imports, statically or with `import()`. */
export function relativeImports(text) {
  const specifiers = [];
  for (const [, specifier] of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm)) specifiers.push(specifier);
  return specifiers;
}

/** The `X.js` files under `root`'s web/src that sit beside a folder `X/`, at any depth (paths from `root`). */
export function filesBesideFolders(root) {
  const entries = walk(join(root, 'web/src'));
  const folders = new Set(entries.filter((path) => statSync(path).isDirectory()));
  return entries
    .filter((path) => extname(path) === '.js' && folders.has(join(dirname(path), basename(path, '.js'))))
    .map((path) => relative(root, path));
}

/** The modules `files` (paths from `root`, under db/) that import a module under cli/. */
function dbImportsOfCli(root, files) {
  return files.flatMap((file) =>
    relativeImports(readFileSync(join(root, file), 'utf8'))
      .filter((specifier) => relative(root, resolve(root, dirname(file), specifier)).startsWith('cli/'))
      .map((specifier) => `${file} imports ${specifier}`),
  );
}

const modulesOfDb = (root) =>
  readdirSync(join(root, 'db'))
    .filter((name) => extname(name) === '.mjs')
    .map((name) => `db/${name}`);

test('the import scanner finds static, bare and dynamic relative imports, and no package imports', () => {
  const text = "import { a } from './a.js';\nimport './side.js';\nexport * from '../b.js';\nconst c = await import('../../cli/c.mjs');\nimport x from 'node:fs';";
  assert.deepEqual(relativeImports(text), ['./a.js', './side.js', '../b.js', '../../cli/c.mjs']);
});

test('a folder or a file, not both: no web/src/X.js beside a folder web/src/X/ (the entry is X/index.js)', () => {
  assert.deepEqual(filesBesideFolders(ROOT), []);
  for (const part of ['core', 'act', 'loop', 'pull', 'llm', 'mcp']) assert.ok(existsSync(join(WEB_SRC, part, 'index.js')), `web/src/${part}/index.js`);
});

test('the model driver is one folder: web/src/llm/ holds it, and no llm*.js sits at the top of web/src', () => {
  assert.deepEqual(readdirSync(WEB_SRC).filter((name) => name.startsWith('llm')), ['llm']);
  assert.deepEqual(readdirSync(join(WEB_SRC, 'llm')).sort(), ['error.js', 'http.js', 'index.js']);
});

test('no library module under db/ imports from cli/; the script entry db/stack.mjs exports nothing and no module imports it', () => {
  const libraries = modulesOfDb(ROOT).filter((file) => !DB_SCRIPT_ENTRIES.includes(file));
  assert.ok(libraries.includes('db/local-stack.mjs'), 'the stack library is read');
  assert.deepEqual(dbImportsOfCli(ROOT, libraries), []);
  for (const entry of DB_SCRIPT_ENTRIES) {
    assert.doesNotMatch(readFileSync(join(ROOT, entry), 'utf8'), /^\s*export\b/m, `${entry} is a script entry: the library it runs belongs in another module`);
  }
  const sources = ['web/src', 'cli', 'bin', 'db', 'scripts', 'bench', 'tests/js', 'worker']
    .flatMap((dir) => walk(join(ROOT, dir)).filter((path) => !path.includes('node_modules') && ['.js', '.mjs'].includes(extname(path))));
  const importers = sources.filter((path) =>
    relativeImports(readFileSync(path, 'utf8')).some((specifier) => DB_SCRIPT_ENTRIES.includes(relative(ROOT, resolve(dirname(path), specifier)))),
  );
  assert.deepEqual(importers.map((path) => relative(ROOT, path)), [], 'import the library (db/local-stack.mjs, alfred-act/stack), not the script entry');
  // The package's alfred-act/stack is the library, not the script.
  const { exports } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  assert.equal(exports['./stack'].default, './db/local-stack.mjs');
});

test('the checks find the old layout: web/src/loop.js beside web/src/loop/, and a db module whose run-as-script guard imports cli/', (t) => {
  mkdirSync(SCRATCH, { recursive: true });
  const root = mkdtempSync(join(SCRATCH, 'js-layout-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const plant = (path, text = '') => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  for (const path of ['web/src/loop.js', 'web/src/loop/step.js', 'web/src/llm.js', 'web/src/pull/index.js', 'web/src/mcp/tools.js', 'web/src/mcp/tools/list.js']) plant(path);
  assert.deepEqual(filesBesideFolders(root).sort(), ['web/src/loop.js', 'web/src/mcp/tools.js']);
  plant('db/stack.mjs', "import { x } from './jwt.mjs';\nif (main) import('../cli/stack.mjs').then(({ runStackCommand }) => runStackCommand(argv));\n");
  plant('db/jwt.mjs', "export { codes } from '../web/dist/error-codes.mjs';\n");
  assert.deepEqual(dbImportsOfCli(root, modulesOfDb(root)), ['db/stack.mjs imports ../cli/stack.mjs']);
});

test('the worker template holds only what a user copies: every file of worker/ ships in the package', () => {
  const { files } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const template = walk(join(ROOT, 'worker'))
    .filter((path) => !statSync(path).isDirectory() && !/\/(node_modules|dist|\.wrangler)\//.test(path))
    .map((path) => relative(ROOT, path));
  const shipped = (path) => files.some((entry) => path === entry || path.startsWith(`${entry}/`));
  assert.deepEqual(template.filter((path) => !shipped(path)), [], 'a runner for this repository belongs in scripts/ (as scripts/serve-worker.mjs)');
});

test('the public Core class shows its public API only: every member of Core.prototype is declared on Core in web/index.d.ts', async () => {
  const { Core } = await import('../../web/src/core/index.js');
  const types = readFileSync(join(ROOT, 'web/index.d.ts'), 'utf8');
  const start = types.indexOf('export declare class Core<');
  const body = types.slice(start, types.indexOf('\n}\n', start));
  const declared = new Set([...body.matchAll(/^ {2}(?:readonly |get |static )?([A-Za-z]+)[(<:?]/gm)].map(([, name]) => name));
  assert.ok(declared.has('buildRequest') && declared.has('createAct'), 'the declaration is read');
  const members = Object.getOwnPropertyNames(Core.prototype).filter((name) => name !== 'constructor');
  assert.deepEqual(members.filter((name) => !declared.has(name)), [], 'plumbing belongs in web/src/core/plumbing.js, reached with internalsOf(core)');
});
