// Source sizes: no source file over 500 lines and no function body over 60
// lines without a written reason next to it. A file past the limit names its
// reason in a comment starting with `Longer than 500 lines because` within
// its first 15 lines; a function past the limit carries `Longer than 60 lines
// because` in the comment right above it. Covered: the C++ of core/ and wasm/
// (.cpp, .h) and the JavaScript of web/src, worker/ (not its node_modules),
// cli/ and db/*.mjs.
//
// The scan is a heuristic that holds on this codebase: comments and the
// insides of literals are blanked first (C++ here, JavaScript by the lexer of
// support/js-source.mjs), then braces are matched. A C++ function is a brace
// block opened at namespace or class scope after a parameter list; a
// JavaScript function is a `function` (declaration or expression, at any
// depth), a method (class or object literal), or an arrow function at the top
// level of a module. A body's length counts the lines from its `{` to its `}`.
import { test } from 'node:test';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, extname, join, relative } from 'node:path';
import assert from 'node:assert/strict';
import { scanSource } from './support/js-source.mjs';
import { ROOT, SCRATCH } from './support/paths.mjs';

const FILE_LIMIT = 500;
const FUNCTION_LIMIT = 60;
const FILE_REASON = /^\s*(?:\/\/+|\/\*+|\*)\s*Longer than 500 lines because/m;
const FUNCTION_REASON = /Longer than 60 lines because/;

// `text` with comments, the insides of string and character literals (not
// digit separators as in 1'000) and preprocessor lines replaced by spaces;
// quotes, offsets and line breaks kept.
function blankCpp(text) {
  const code = text.split('');
  const erase = (from, to) => {
    for (let k = from; k < to; k++) if (code[k] !== '\n') code[k] = ' ';
  };
  let i = 0;
  while (i < text.length) {
    const end = cppSkipEnd(text, i);
    if (end === i) {
      i++;
      continue;
    }
    const quoted = text[i] === '"' || text[i] === "'";
    erase(quoted ? i + 1 : i, quoted ? end - 1 : end);
    i = end;
  }
  return code.join('');
}

const lineEnd = (text, i) => (text.indexOf('\n', i) < 0 ? text.length : text.indexOf('\n', i));

// The end of the comment, literal or preprocessor line at `i`, or `i` when
// none starts there.
function cppSkipEnd(text, i) {
  const c = text[i];
  if (text.startsWith('//', i)) return lineEnd(text, i);
  if (text.startsWith('/*', i)) return text.indexOf('*/', i + 2) + 2 || text.length;
  if (c === '#' && /^[ \t]*$/.test(text.slice(text.lastIndexOf('\n', i - 1) + 1, i))) {
    let end = lineEnd(text, i);
    while (text[end - 1] === '\\') end = lineEnd(text, end + 1);
    return end;
  }
  if (c === '"' && /(?:^|[^\w])(?:u8|u|U|L)?R$/.test(text.slice(Math.max(0, i - 3), i))) {
    const delimiter = text.slice(i + 1, text.indexOf('(', i));
    return text.indexOf(`)${delimiter}"`, i) + delimiter.length + 2;
  }
  if (c === "'" && /^\d/.test(/\w*$/.exec(text.slice(Math.max(0, i - 40), i))[0])) return i; // a digit separator
  if (c !== '"' && c !== "'") return i;
  let k = i + 1;
  while (k < text.length && text[k] !== c) k += text[k] === '\\' ? 2 : 1;
  return k + 1;
}

function matchingClose(code, open) {
  let depth = 0;
  for (let k = open; k < code.length; k++) {
    if (code[k] === '{') depth++;
    else if (code[k] === '}' && --depth === 0) return k;
  }
  return code.length - 1;
}

function matchingOpenParen(code, close) {
  let depth = 0;
  for (let k = close; k >= 0; k--) {
    if (code[k] === ')') depth++;
    else if (code[k] === '(' && --depth === 0) return k;
  }
  return 0;
}

// The C++ functions: { start, open, close, name } as offsets into `code`.
// Namespaces and classes are walked into; a function's body, an enum or an
// initializer is skipped whole once classified.
function cppFunctions(code) {
  const found = [];
  let headStart = 0;
  for (let i = 0; i < code.length; i++) {
    const c = code[i];
    if (c === ';' || c === '}') headStart = i + 1;
    if (c !== '{') continue;
    const head = code.slice(headStart, i);
    const kind = cppBlockKind(head);
    if (kind === 'scope') {
      headStart = i + 1;
      continue;
    }
    const close = matchingClose(code, i);
    if (kind === 'function') {
      const lead = /^(?:\s|\b(?:public|private|protected)\s*:)*/.exec(head)[0].length;
      const name = /(operator\s*(?:\(\)|[^\w\s(]+)|[~\w:]+)\s*\(/.exec(withoutTemplateHeader(head))?.[1] ?? '?';
      found.push({ start: headStart + lead, open: i, close, name });
      headStart = close + 1;
    }
    // 'other' (an enum, an initializer, a brace inside a parameter list) and
    // 'member-init' (a constructor's `member_{…}`) keep the head going.
    i = close;
  }
  return found;
}

// `template <…>` headers off the front of a declaration.
function withoutTemplateHeader(head) {
  let rest = head;
  while (/^\s*template\s*</.test(rest)) {
    let depth = 0;
    let k = rest.indexOf('<');
    for (; k < rest.length; k++) {
      if (rest[k] === '<') depth++;
      else if (rest[k] === '>' && --depth === 0) break;
    }
    rest = rest.slice(k + 1);
  }
  return rest;
}

// What a `{` opens, from the declaration text before it: 'scope' (namespace,
// extern "C", class, struct, union), 'function', 'member-init' or 'other'.
function cppBlockKind(rawHead) {
  const head = withoutTemplateHeader(rawHead.replace(/\b(?:public|private|protected)\s*:/g, ' ')).replace(/\boperator\s*[^\w\s(]+/g, 'operator_');
  if (/\bnamespace\b/.test(head) || /^\s*extern\s*"/.test(head)) return 'scope';
  if (!head.includes('(')) return /\b(?:class|struct|union)\b/.test(head) ? 'scope' : 'other';
  let depth = 0;
  let lastClose = -1;
  for (let k = 0; k < head.length; k++) {
    const c = head[k];
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') {
      depth--;
      if (depth === 0 && c === ')') lastClose = k;
    } else if (c === '=' && depth === 0 && !'=!<>'.includes(head[k - 1]) && head[k + 1] !== '=') return 'other';
  }
  if (depth !== 0 || lastClose < 0) return 'other';
  const constructorInit = /\)\s*:(?!:)/.test(head);
  if (constructorInit) return /[\w>]\s*$/.test(head) ? 'member-init' : 'function';
  const tail = head.slice(lastClose + 1);
  if (/^\s*(?:(?:const|noexcept|override|final|mutable|volatile|&&?|->[^;]*)\s*)*$/.test(tail)) return 'function';
  return /\b(?:class|struct|union)\b/.test(head) ? 'scope' : 'other';
}

const NOT_METHODS = new Set(['if', 'for', 'while', 'switch', 'catch', 'with', 'await', 'function', 'return', 'typeof']);

// The JavaScript functions: { start, open, close, name }. Arrows count only
// at the top level of the module.
function jsFunctions(code) {
  const found = [];
  let depth = 0;
  for (let i = 0; i < code.length; i++) {
    if (code[i] === '}') depth--;
    if (code[i] !== '{') continue;
    const fn = jsFunctionBefore(code, i, depth);
    if (fn) found.push({ ...fn, open: i, close: matchingClose(code, i) });
    depth++;
  }
  return found;
}

function previousCode(code, k) {
  while (k >= 0 && /\s/.test(code[k])) k--;
  return k;
}

// The function whose body opens at `open`, or null when the brace opens
// something else (a block, an object, a class body).
function jsFunctionBefore(code, open, depth) {
  const last = previousCode(code, open - 1);
  if (code[last] === '>' && code[last - 1] === '=') {
    if (depth !== 0) return null;
    const params = previousCode(code, last - 2);
    let start = code[params] === ')' ? matchingOpenParen(code, params) : /[\w$]+$/.exec(code.slice(0, params + 1)).index;
    const lead = code.slice(Math.max(0, start - 120), start);
    const assigned = /(?:(?:export\s+)?(?:const|let|var)\s+)?([\w$]+)\s*=\s*(?:async\s+)?$/.exec(lead);
    if (assigned) start -= lead.length - assigned.index;
    return { start, name: assigned?.[1] ?? '(arrow)' };
  }
  if (code[last] !== ')') return null;
  const paren = matchingOpenParen(code, last);
  const lead = code.slice(Math.max(0, paren - 120), paren);
  const declared = /\bfunction\b\s*\*?\s*([\w$]*)\s*$/.exec(lead);
  if (declared) return { start: paren - lead.length + declared.index, name: declared[1] || '(function)' };
  const method = /(?:\[[^\]]*\]|[#\w$]+)\s*$/.exec(lead);
  if (!method || NOT_METHODS.has(method[0].trim())) return null;
  return { start: paren - lead.length + method.index, name: method[0].trim() };
}

const lineCount = (text) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

// The comment lines right above line `line` (1-based), joined into one text:
// lines with no code whose text starts as a comment does.
function commentAbove(codeLines, textLines, line) {
  const texts = [];
  for (let j = line - 2; j >= 0 && codeLines[j].trim() === '' && /^\s*(?:\/\/|\/\*|\*)/.test(textLines[j]); j--) {
    texts.unshift(textLines[j].replace(/^\s*(?:\/\/+|\/\*+|\*+\/?)?/, '').replace(/\*\/\s*$/, ''));
  }
  return texts.join(' ').replace(/\s+/g, ' ');
}

/**
 * The offenders in one source text: `{ line, what, lines }` per file or
 * function past its limit without a reason.
 */
function offendersIn(text, language) {
  const offenders = [];
  const total = lineCount(text);
  if (total > FILE_LIMIT && !FILE_REASON.test(text.split('\n').slice(0, 15).join('\n'))) {
    offenders.push({ line: 1, what: 'file', lines: total });
  }
  const code = language === 'cpp' ? blankCpp(text) : scanSource(text).bare;
  const lineStarts = [0];
  for (let k = 0; k < code.length; k++) if (code[k] === '\n') lineStarts.push(k + 1);
  const lineOf = (offset) => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (lineStarts[middle] <= offset) low = middle;
      else high = middle - 1;
    }
    return low + 1;
  };
  const codeLines = code.split('\n');
  const textLines = text.split('\n');
  for (const fn of (language === 'cpp' ? cppFunctions : jsFunctions)(code)) {
    const lines = lineOf(fn.close) - lineOf(fn.open) + 1;
    const line = lineOf(fn.start);
    if (lines > FUNCTION_LIMIT && !FUNCTION_REASON.test(commentAbove(codeLines, textLines, line))) {
      offenders.push({ line, what: `${fn.name}()`, lines });
    }
  }
  return offenders;
}

const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', '.wrangler']);

function walk(dir, recurse = true) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return recurse && !SKIPPED_FOLDERS.has(name) ? walk(path) : [];
    return [path];
  });
}

/** The files the rule covers under `root`, with the language of each. */
function coveredSources(root) {
  const cpp = ['core', 'wasm'].flatMap((dir) => walk(join(root, dir))).filter((path) => ['.cpp', '.h'].includes(extname(path)));
  const js = [...['web/src', 'worker', 'cli'].flatMap((dir) => walk(join(root, dir))), ...walk(join(root, 'db'), false)]
    .filter((path) => ['.js', '.mjs'].includes(extname(path)))
    .filter((path) => !path.startsWith(join(root, 'db')) || extname(path) === '.mjs');
  return [...cpp.map((path) => [path, 'cpp']), ...js.map((path) => [path, 'js'])];
}

/** Every offender under `root` as `path:line what N lines`. */
function offendersUnder(root) {
  return coveredSources(root).flatMap(([path, language]) =>
    offendersIn(readFileSync(path, 'utf8'), language).map(({ line, what, lines }) => `${relative(root, path)}:${line} ${what} ${lines} lines`),
  );
}

const filler = (count, line = 'x = 1;') => Array.from({ length: count }, () => `  ${line}`).join('\n');

// A C++ function whose body spans `bodyLines` lines, braces included.
const cppFunction = (head, bodyLines) => `${head} {\n${filler(bodyLines - 2)}\n}`;

test('C++: a file past 500 lines and a body past 60 lines are found, braces in literals and comments ignored', () => {
  const tricky = [
    '#include <string>',
    '#define OPEN {',
    'namespace alfred {',
    'namespace {',
    '// a brace in a comment: {',
    '/* and { in a block comment */',
    cppFunction('int plain()', 61),
    'struct widget : base {',
    ' public:',
    '  widget(int n) : n_{n}, m_(n) {}',
    cppFunction('  int method() const', 61).replace('x = 1;', `c = '{'; s = "{\\"}"; r = R"x({ ")" })x"; n = 1'000;`),
    '  int n_, m_;',
    '};',
    'constexpr int kTable[] = {1, 2, 3};',
    'enum class color { red, green };',
    '}  // namespace',
    '// Longer than 60 lines because the table reads best whole.',
    cppFunction('template <typename T>\nT justified(T value)', 80),
    cppFunction('std::string within()', 60),
    cppFunction('bool operator==(const widget& a, const widget& b)', 62),
    '}  // namespace alfred',
  ].join('\n');
  assert.deepEqual(offendersIn(tricky, 'cpp'), [
    { line: 7, what: 'plain()', lines: 61 },
    { line: 71, what: 'method()', lines: 61 },
    { line: 279, what: 'operator==()', lines: 62 },
  ]);
  const long = `${filler(501)}\n`;
  assert.deepEqual(offendersIn(long, 'cpp'), [{ line: 1, what: 'file', lines: 501 }]);
  assert.deepEqual(offendersIn(`// A table.\n// Longer than 500 lines because it is one table.\n${long}`, 'cpp'), []);
  assert.deepEqual(offendersIn(`${filler(20)}\n// Longer than 500 lines because it is one table.\n${long}`, 'cpp'), [{ line: 1, what: 'file', lines: 522 }], 'only in the first 15 lines');
});

test('JavaScript: declarations, methods and top-level arrows past 60 lines are found; literals ignored', () => {
  const js = [
    "const pattern = /[{]\\}/g; const text = `${ { a: 1 }.a } { ${`${'}'}`} `; const half = 4 / 2; // {",
    cppFunction('export async function declared(a = {})', 61),
    'class Thing {',
    cppFunction('  static async *method({ x } = {})', 61),
    '}',
    '/**',
    ' * Has a reason.',
    ' * Longer than 60 lines because it is one switch.',
    ' */',
    cppFunction('function justified()', 70),
    cppFunction('export const arrow = async (x) =>', 61),
    'export const table = {',
    cppFunction('  [Symbol.dispose]()', 61),
    '};',
    cppFunction('function outer()', 64).replace('x = 1;', 'items.map((item) => { return item; });'),
  ].join('\n');
  assert.deepEqual(offendersIn(js, 'js'), [
    { line: 2, what: 'declared()', lines: 61 },
    { line: 64, what: 'method()', lines: 61 },
    { line: 200, what: 'arrow()', lines: 61 },
    { line: 262, what: '[Symbol.dispose]()', lines: 61 },
    { line: 324, what: 'outer()', lines: 64 },
  ]);
});

test('the covered folders: core/ and wasm/ C++, web/src, worker/ (not node_modules or dist), cli/ and db/*.mjs', (t) => {
  mkdirSync(SCRATCH, { recursive: true });
  const root = mkdtempSync(join(SCRATCH, 'source-sizes-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const long = `${filler(501)}\n`;
  const plant = (path, text = long) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  for (const path of ['core/src/a/big.cpp', 'core/include/alfred/big.h', 'wasm/big.cpp', 'web/src/big.js', 'worker/src/big.js', 'worker/deno.js', 'cli/big.mjs', 'db/big.mjs']) plant(path);
  for (const path of ['core/src/a/data.inc', 'worker/node_modules/dep/big.js', 'worker/dist/big.js', 'db/migrations/big.mjs', 'db/big.js', 'web/dist/big.js', 'tests/js/big.mjs']) plant(path);
  plant('wasm/long.cpp', cppFunction('void long_one()', 61));
  plant('web/src/fine.js', cppFunction('function fine()', 60));
  assert.deepEqual(offendersUnder(root).sort(), [
    'cli/big.mjs:1 file 501 lines',
    'core/include/alfred/big.h:1 file 501 lines',
    'core/src/a/big.cpp:1 file 501 lines',
    'db/big.mjs:1 file 501 lines',
    'wasm/big.cpp:1 file 501 lines',
    'wasm/long.cpp:1 long_one() 61 lines',
    'web/src/big.js:1 file 501 lines',
    'worker/deno.js:1 file 501 lines',
    'worker/src/big.js:1 file 501 lines',
  ]);
});

test('no source file over 500 lines and no function over 60 lines without a written reason', () => {
  const offenders = offendersUnder(ROOT);
  assert.deepEqual(offenders, [], `split these, or write the reason (see the top of tests/js/source-sizes.test.mjs):\n${offenders.join('\n')}`);
});
