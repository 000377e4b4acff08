// A JavaScript source file's string literals, read by a small lexer that
// knows comments, strings, template literals (with `${…}` inside) and regular
// expression literals: enough to tell `code: 'x'` in code from the same text
// in a comment or inside another string, without a parser dependency.

const REGEX_AFTER_WORD = new Set(['return', 'typeof', 'case', 'do', 'else', 'in', 'of', 'new', 'delete', 'void', 'throw', 'instanceof', 'yield', 'await']);
const WORD = /[\w$]/;

/**
 * The file's literals, and its text with comments and the insides of every
 * string, template and regular expression blanked (`bare`), which keeps every
 * offset and line break of `text`.
 * A literal is a quoted string or a template without `${…}`:
 * `{ value, start, end, line }`, `start`/`end` around the quotes.
 * @example
 *   scanSource("f({ code: 'x' }) // 'y'").literals.map((l) => l.value) // ['x']
 */
export function scanSource(text) {
  const literals = [];
  const blank = []; // [from, to]: a comment, or the inside of a string, template or regular expression
  const templates = []; // brace depth at each open `${`
  let depth = 0;
  let last = '('; // the previous token: a punctuator, or 'value'
  let i = 0;

  const template = (from, opening) => {
    // From just past '`' or the '}' of a `${…}`, to the closing '`' or the next '${'.
    let j = from;
    while (j < text.length) {
      if (text[j] === '\\') j += 2;
      else if (text[j] === '`') {
        blank.push([from, j]);
        if (opening !== undefined) literals.push({ value: text.slice(from, j), start: opening, end: j + 1 });
        last = 'value';
        return j + 1;
      } else if (text[j] === '$' && text[j + 1] === '{') {
        blank.push([from, j]);
        templates.push(depth);
        last = '(';
        return j + 2;
      } else j++;
    }
    throw new Error(`unterminated template literal at offset ${opening ?? from}`);
  };

  while (i < text.length) {
    const c = text[i];
    if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      const stop = end < 0 ? text.length : end;
      blank.push([i, stop]);
      i = stop;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      if (end < 0) throw new Error(`unterminated comment at offset ${i}`);
      blank.push([i, end + 2]);
      i = end + 2;
    } else if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== c) {
        if (text[j] === '\n') throw new Error(`unterminated string at offset ${i}`);
        j += text[j] === '\\' ? 2 : 1;
      }
      literals.push({ value: text.slice(i + 1, j), start: i, end: j + 1 });
      blank.push([i + 1, j]);
      last = 'value';
      i = j + 1;
    } else if (c === '`') {
      i = template(i + 1, i);
    } else if (c === '}' && templates.length && templates.at(-1) === depth) {
      templates.pop();
      i = template(i + 1);
    } else if (c === '/' && (last !== 'value' && last !== ')' && last !== ']')) {
      // A regular expression literal: to its closing '/', past classes and escapes.
      let j = i + 1;
      let inClass = false;
      while (j < text.length && (inClass || text[j] !== '/')) {
        if (text[j] === '\n') throw new Error(`unterminated regular expression at offset ${i}`);
        if (text[j] === '\\') j++;
        else if (text[j] === '[') inClass = true;
        else if (text[j] === ']') inClass = false;
        j++;
      }
      blank.push([i + 1, j]);
      i = j + 1;
      while (i < text.length && WORD.test(text[i])) i++;
      last = 'value';
    } else if (WORD.test(c)) {
      let j = i;
      while (j < text.length && WORD.test(text[j])) j++;
      last = REGEX_AFTER_WORD.has(text.slice(i, j)) ? '(' : 'value';
      i = j;
    } else if (/\s/.test(c)) {
      i++;
    } else {
      if (c === '{') depth++;
      if (c === '}') depth--;
      last = c;
      i++;
    }
  }

  const lineStarts = [0];
  for (let k = 0; k < text.length; k++) if (text[k] === '\n') lineStarts.push(k + 1);
  for (const literal of literals) {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (lineStarts[mid] <= literal.start) low = mid;
      else high = mid - 1;
    }
    literal.line = low + 1;
  }
  // The ranges come in the text's order and do not overlap.
  let bare = '';
  let at = 0;
  for (const [from, to] of blank) {
    bare += text.slice(at, from) + text.slice(from, to).replace(/[^\n]/g, ' ');
    at = to;
  }
  return { literals, bare: bare + text.slice(at) };
}

/**
 * The functions `bare` (scanSource's) declares, as name → the index of their
 * parameter named `code`, -1 for none: `function fail(code, …)`,
 * `const refuse = (status, code, …) =>`.
 * @example
 *   codeParameters(scanSource('const fail = (status, code) => ({ status, code });').bare) // Map { 'fail' => 1 }
 */
export function codeParameters(bare) {
  const found = new Map();
  const declarations = /\bfunction\s+([\w$]+)\s*\(([^()]*)\)|\b(?:const|let)\s+([\w$]+)\s*=\s*(?:async\s*)?\(([^()]*)\)\s*=>/g;
  for (const match of bare.matchAll(declarations)) {
    // A destructured parameter ({ code, … }) is one parameter, not a `code` one.
    const params = (match[2] ?? match[4]).replace(/\{[^{}]*\}|\[[^[\]]*\]/g, '{}').split(',');
    found.set(match[1] ?? match[3], params.map((param) => param.trim().split(/[\s=]/)[0]).indexOf('code'));
  }
  return found;
}

/**
 * Where a literal sits if it is in an error code's place, or null: in the
 * value of a `code:` property (a conditional's branch included), a side of a
 * comparison with a `code`, the value of `code =`, the fallback of a
 * `code ??` or `code ||`, the first argument of `new …Error(`, or the
 * argument of a call that takes a `code` there: a function of the file
 * (`local`, codeParameters's) or, for a name the file does not declare, one
 * of another file (`shared`: name → the indexes of its `code` parameters).
 * @example
 *   const { bare, literals } = scanSource("if (e.code === 'x') fail('y')");
 *   literals.map((l) => codePlace(bare, l, { local: new Map([['fail', 0]]), shared: new Map() })) // ['code === …', 'fail(…)']
 */
export function codePlace(bare, literal, { local, shared }) {
  // Enough text either side for the patterns below (anchored at the literal).
  const before = bare.slice(Math.max(0, literal.start - 200), literal.start);
  const after = bare.slice(literal.end, literal.end + 200);
  if (/\bcode\s*[!=]==?\s*$/.test(before) || /^\s*[!=]==?\s*[\w$.?]*\bcode\b(?!\s*\()/.test(after)) return 'code === …';
  if (/\bcode\s*=\s*$/.test(before)) return 'code = …';
  if (/\bcode\s*(?:\?\?|\|\|)\s*$/.test(before)) return 'code ?? …';
  // Back to the start of the expression holding the literal, then, for a
  // call's argument, to the call's '(' counting the arguments before it.
  let depth = 0;
  let argument = 0;
  let segmentStart = -1;
  for (let k = literal.start - 1; k >= 0; k--) {
    const c = bare[k];
    if (c === ')' || c === ']' || c === '}') depth++;
    else if ((c === '(' || c === '[' || c === '{') && depth > 0) depth--;
    else if (depth === 0 && (c === '(' || c === '[' || c === '{' || c === ',' || c === ';')) {
      if (segmentStart < 0) {
        segmentStart = k + 1;
        if (/^\s*code\s*:/.test(bare.slice(segmentStart, literal.start))) return 'code: …';
        // Only a whole argument is a call's argument, not a part of one.
        if (!/^\s*$/.test(bare.slice(segmentStart, literal.start)) || !/^\s*[,)]/.test(after)) return null;
      }
      if (c === ',') {
        argument++;
        continue;
      }
      if (c !== '(') return null;
      const callee = /(\bnew\s+)?([\w$]+)\s*$/.exec(bare.slice(Math.max(0, k - 200), k));
      if (!callee) return null;
      const [, isNew, name] = callee;
      if (isNew && name.endsWith('Error') && argument === 0) return `new ${name}(…)`;
      const takes = local.has(name) ? local.get(name) === argument : shared.get(name)?.has(argument);
      return takes ? `${name}(…)` : null;
    }
  }
  return null;
}
