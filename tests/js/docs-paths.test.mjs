// The documents name files that exist. Every repository path a document writes
// in inline code or as a link (`web/src/loop/step.js`, `core/src/...`,
// [limits-and-faults.md](limits-and-faults.md#messages)) must be there, and
// every relative Markdown link must reach a file and, when it names one, a
// heading of that file. A file moved or split without its documents fails
// here with the document, the line and the path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { ROOT } from './support/paths.mjs';

/** The documents checked: the README, docs/, and the READMEs of the folders a reader opens. */
const DOCUMENTS = [
  'README.md',
  'worker/README.md',
  'db/README.md',
  'web/demo/README.md',
  ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`),
];

/** The repository's top-level folders: a path in inline code is one that starts with one of them. */
const TOP_FOLDERS = ['bench', 'bin', 'cli', 'cmake', 'core', 'db', 'docs', 'domains', 'prompts', 'scripts', 'tests', 'wasm', 'web', 'worker'];
const PATH_IN_CODE = new RegExp(`(?<![\\w./@-])((?:${TOP_FOLDERS.join('|')})/[\\w./{},*<>-]*)`, 'g');

/** Lines outside fenced code blocks, with their line numbers. */
export function proseLines(text) {
  const lines = [];
  let fence = null;
  text.split('\n').forEach((line, index) => {
    const opener = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (opener && opener[1][0] === fence[0] && opener[1].length >= fence.length && line.trim() === opener[1]) fence = null;
    } else if (opener) {
      fence = opener[1];
    } else {
      lines.push({ line, number: index + 1 });
    }
  });
  return lines;
}

/** The contents of the inline code spans of one line. */
export function codeSpans(line) {
  return [...line.matchAll(/(`+)(.+?)\1(?!`)/g)].map((match) => match[2]);
}

/**
 * Repository paths named in a code span: `a/{b,c}.js` is two, a trailing dot
 * or comma is prose. A path that starts with `../` is relative to the
 * document's folder (`document` is the document's own path).
 */
export function pathsInCode(span, document = 'README.md') {
  const paths = [];
  for (const [, relativePath] of span.matchAll(/(?<![\w./@-])((?:\.\.\/)+[\w./{},*<>-]+)/g)) {
    paths.push(...pathsInCode(normalize(join(dirname(document), relativePath))));
  }
  for (const [, raw] of span.matchAll(PATH_IN_CODE)) {
    if (raw.includes('...') || /[<>]/.test(raw)) continue; // a placeholder, not a path
    const path = raw.replace(/[.,]+$/, '');
    paths.push(...expandBraces(path));
  }
  return paths;
}

function expandBraces(path) {
  const match = /\{([^{}]*)\}/.exec(path);
  if (!match) return [path];
  return match[1].split(',').flatMap((part) => expandBraces(path.slice(0, match.index) + part + path.slice(match.index + match[0].length)));
}

/** Relative link targets of one line: `[text](target)` and `![alt](target)`, external addresses aside. */
export function linkTargets(line) {
  return [...line.matchAll(/\]\(([^()\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1]);
}

/** GitHub's anchor for a heading: lowercase, markup and punctuation dropped, spaces as hyphens, repeats numbered. */
export function headingAnchors(text) {
  const seen = new Map();
  const anchors = new Set();
  for (const { line } of proseLines(text)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const words = heading[1]
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/<[^>]+>/g, '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(words) ?? 0;
    seen.set(words, count + 1);
    anchors.add(count === 0 ? words : `${words}-${count}`);
  }
  return anchors;
}

/** Whether a path with `*` matches a file: each `*` stands for part of one name. */
function globExists(path) {
  const parts = path.split('/').filter(Boolean);
  const walk = (dir, index) => {
    if (index === parts.length) return true;
    if (!parts[index].includes('*')) {
      const next = join(dir, parts[index]);
      return existsSync(next) && (index === parts.length - 1 || statSync(next).isDirectory()) && walk(next, index + 1);
    }
    const pattern = new RegExp(`^${parts[index].split('*').map((piece) => piece.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]*')}$`);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) return false;
    return readdirSync(dir).some((name) => pattern.test(name) && walk(join(dir, name), index + 1));
  };
  return walk(ROOT, 0);
}

/** The package's subpaths (`alfred-act/openai`), from its export map. */
const SUBPATHS = new Set(Object.keys(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).exports).map((key) => key.replace(/^\./, 'alfred-act')));
export const subpathsInCode = (span) => [...span.matchAll(/(?<![\w./@-])alfred-act\/[\w./-]*\w/g)].map((match) => match[0]);

const pathExists = (path) => (path.includes('*') ? globExists(path) : existsSync(join(ROOT, path)));

const documents = DOCUMENTS.map((name) => ({ name, text: readFileSync(join(ROOT, name), 'utf8') }));

test('the checks read what they should: code spans, braces, placeholders, links and anchors', () => {
  assert.deepEqual(codeSpans('see `web/src/a.js` and ``b `c` d``'), ['web/src/a.js', 'b `c` d']);
  assert.deepEqual(pathsInCode('node db/stack.mjs start'), ['db/stack.mjs']);
  assert.deepEqual(pathsInCode('web/src/core/{boundary,registry}.js'), ['web/src/core/boundary.js', 'web/src/core/registry.js']);
  assert.deepEqual(pathsInCode('core/src/...'), []);
  assert.deepEqual(pathsInCode('tests/js/<file>.test.mjs'), []);
  assert.deepEqual(pathsInCode('./web/src/x.js'), []);
  assert.deepEqual(pathsInCode('`../domains/crm/migrations/002_crm.sql`', 'db/README.md'), ['domains/crm/migrations/002_crm.sql']);
  assert.deepEqual(subpathsInCode('import from alfred-act/worker/durable, npx alfred-act db_read'), ['alfred-act/worker/durable']);
  assert.deepEqual(pathsInCode('@supabase/postgrest-js, tests/js/faults.test.mjs.'), ['tests/js/faults.test.mjs']);
  assert.deepEqual(linkTargets('[a](b.md#c) and ![d](e.png) [f](https://example.com)'), ['b.md#c', 'e.png', 'https://example.com']);
  assert.deepEqual([...headingAnchors('# Limits of one `execute`\n## A, b: c\n```\n# not a heading\n```\n## A, b: c')], ['limits-of-one-execute', 'a-b-c', 'a-b-c-1']);
  assert.equal(pathExists('web/src/loop/*.js'), true);
  assert.equal(pathExists('web/src/loop-*.js'), false);
});

test('every repository path and package subpath a document names in inline code exists', () => {
  const missing = [];
  for (const { name, text } of documents) {
    for (const { line, number } of proseLines(text)) {
      for (const span of codeSpans(line)) {
        for (const path of pathsInCode(span, name)) {
          if (!pathExists(path)) missing.push(`${name}:${number}: ${path}`);
        }
        for (const subpath of subpathsInCode(span)) {
          if (!SUBPATHS.has(subpath)) missing.push(`${name}:${number}: ${subpath} (not in package.json exports)`);
        }
      }
    }
  }
  assert.deepEqual(missing, []);
});

test('every link in a document stays in the repository and reaches a file and a heading', () => {
  const anchorsOf = new Map();
  const anchors = (file) => {
    if (!anchorsOf.has(file)) anchorsOf.set(file, headingAnchors(readFileSync(join(ROOT, file), 'utf8')));
    return anchorsOf.get(file);
  };
  const broken = [];
  for (const { name, text } of documents) {
    for (const { line, number } of proseLines(text)) {
      for (const target of linkTargets(line)) {
        const where = `${name}:${number}: ${target}`;
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
          broken.push(`${where} (outside the repository)`);
          continue;
        }
        const [path, anchor] = target.split('#');
        const file = path === '' ? name : normalize(join(dirname(name), decodeURIComponent(path)));
        if (relative(ROOT, join(ROOT, file)).startsWith('..')) broken.push(`${where} (outside the repository)`);
        else if (!existsSync(join(ROOT, file))) broken.push(`${where} (no such file)`);
        else if (anchor !== undefined && (!file.endsWith('.md') || !anchors(file).has(decodeURIComponent(anchor)))) broken.push(`${where} (no such heading)`);
      }
    }
  }
  assert.deepEqual(broken, []);
});
