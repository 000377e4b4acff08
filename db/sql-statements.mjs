// Splits a SQL file into its statements, and runs them one at a time so a
// failure names the file, the line and the statement. The Supabase CLI runs
// migration and seed files the same way (statement by statement, split at the
// semicolons that end a statement). A semicolon ends a statement unless it is
// inside a string ('…', E'…'), a quoted identifier ("…"), a dollar-quoted body
// ($$…$$, $fn$…$fn$), a comment (-- …, nested /* … */) or a BEGIN ATOMIC … END
// function body.

const WORD_START = /[A-Za-z_\u0080-\uffff]/;
const WORD_CHAR = /[A-Za-z0-9_$\u0080-\uffff]/;
const DOLLAR_TAG = /^\$([A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/;

/**
 * The statements of `text`: `[{ sql, start, end, line }]`, where `sql` is
 * `text.slice(start, end)` (from the first token to the terminating
 * semicolon, or to the end of the text for a last statement without one) and
 * `line` the 1-based line of `start`. Pieces made only of comments and
 * whitespace are left out.
 *
 * @example
 * splitStatements("create table t (id int);\n-- done\ninsert into t values (1);")
 * // [{ sql: 'create table t (id int);', start: 0, end: 24, line: 1 },
 * //  { sql: 'insert into t values (1);', start: 33, end: 58, line: 3 }]
 */
export function splitStatements(text) {
  const statements = [];
  let start = -1; // index of the current statement's first token
  let atomicDepth = 0; // inside BEGIN ATOMIC … END: CASE … END nests
  let previousWord = '';
  let i = 0;
  const finish = (end) => {
    // A lone semicolon is an empty statement, nothing to run.
    if (start >= 0 && text.slice(start, end) !== ';') statements.push({ sql: text.slice(start, end), start, end, line: lineOf(text, start) });
    start = -1;
    atomicDepth = 0;
    previousWord = '';
  };
  while (i < text.length) {
    const gap = gapEnd(text, i);
    if (gap > i) {
      i = gap;
      continue;
    }
    if (start < 0) start = i;
    const c = text[i];
    if (c === ';') {
      if (atomicDepth === 0) {
        finish(i + 1);
      } else {
        previousWord = '';
      }
      i += 1;
      continue;
    }
    const literal = literalEnd(text, i);
    if (literal > i) {
      i = literal;
      previousWord = '';
      continue;
    }
    if (WORD_START.test(c)) {
      let j = i + 1;
      while (j < text.length && WORD_CHAR.test(text[j])) j += 1;
      const word = text.slice(i, j).toLowerCase();
      if (previousWord === 'begin' && word === 'atomic') atomicDepth += 1;
      else if (atomicDepth > 0 && word === 'case') atomicDepth += 1;
      else if (atomicDepth > 0 && word === 'end') atomicDepth -= 1;
      previousWord = word;
      i = j;
      continue;
    }
    previousWord = '';
    i += 1;
  }
  finish(text.length);
  return statements;
}

// The end of the comment or whitespace character at `i`, or `i` when there
// is none.
function gapEnd(text, i) {
  const c = text[i];
  const next = text[i + 1];
  if (c === '-' && next === '-') {
    const newline = text.indexOf('\n', i);
    return newline === -1 ? text.length : newline + 1;
  }
  if (c === '/' && next === '*') return skipBlockComment(text, i);
  return /\s/.test(c) ? i + 1 : i;
}

// The end of the string, quoted identifier or dollar-quoted body starting at
// `i`, or `i` when none starts there.
function literalEnd(text, i) {
  const c = text[i];
  if (c === "'") {
    const escapes = i > 0 && /[eE]/.test(text[i - 1]) && (i < 2 || !WORD_CHAR.test(text[i - 2]));
    return skipQuoted(text, i, "'", escapes);
  }
  if (c === '"') return skipQuoted(text, i, '"', false);
  if (c === '$' && (i === 0 || !WORD_CHAR.test(text[i - 1]))) {
    const tag = DOLLAR_TAG.exec(text.slice(i, i + 64));
    if (tag) {
      const close = text.indexOf(tag[0], i + tag[0].length);
      return close === -1 ? text.length : close + tag[0].length;
    }
  }
  return i;
}

function skipBlockComment(text, from) {
  let depth = 0;
  let i = from;
  while (i < text.length) {
    if (text[i] === '/' && text[i + 1] === '*') {
      depth += 1;
      i += 2;
    } else if (text[i] === '*' && text[i + 1] === '/') {
      depth -= 1;
      i += 2;
      if (depth === 0) return i;
    } else {
      i += 1;
    }
  }
  return text.length;
}

// A doubled quote stands for one; with `escapes` (E'…'), a backslash escapes
// the next character.
function skipQuoted(text, from, quote, escapes) {
  let i = from + 1;
  while (i < text.length) {
    if (escapes && text[i] === '\\') {
      i += 2;
    } else if (text[i] === quote) {
      if (text[i + 1] === quote) i += 2;
      else return i + 1;
    } else {
      i += 1;
    }
  }
  return text.length;
}

/**
 * The 1-based line of the character at `index`.
 *
 * @example
 * lineOf('select 1;\nselect 2;', 10) // 2
 */
export function lineOf(text, index) {
  let line = 1;
  for (let i = 0; i < index && i < text.length; i++) if (text[i] === '\n') line += 1;
  return line;
}

const columnOf = (text, index) => index - text.lastIndexOf('\n', index - 1);

/**
 * A SQL file's statement that PostgreSQL refused. `message` says where and
 * why; the fields carry the parts: `file`, `line` (of the error position when
 * PostgreSQL reports one, else of the statement's start) and `column` (when it does),
 * `statementNumber` (1-based), `statementLine`, `statement` (its text),
 * `code` (SQLSTATE), `pgMessage`, `detail`, `hint`.
 *
 * @example
 * try { await startStack({ migrations: 'supabase/migrations' }) }
 * catch (error) { if (error instanceof SqlFileError) console.error(`${error.file}:${error.line}`, error.pgMessage) }
 */
export class SqlFileError extends Error {
  constructor(fields, { cause } = {}) {
    super(formatSqlFileError(fields), { cause });
    this.name = 'SqlFileError';
    Object.assign(this, fields);
  }
}

function formatSqlFileError({ what, file, line, column, statementNumber, statementLine, statement, code, pgMessage, detail, hint }) {
  const excerpt = statement.split('\n').slice(0, 3).join('\n    ');
  return [
    `${what} ${file} failed at line ${line}${column ? `, column ${column}` : ''}: ${pgMessage}${code ? ` (SQLSTATE ${code})` : ''}`,
    ...(detail ? [`  detail: ${detail}`] : []),
    ...(hint ? [`  hint: ${hint}`] : []),
    `  in statement ${statementNumber}, from line ${statementLine}:`,
    `    ${excerpt}${statement.split('\n').length > 3 ? '\n    …' : ''}`,
  ].join('\n');
}

/**
 * Runs the statements of `text` on `db` (a PGlite) one after another, in the
 * caller's transaction if it opened one. A statement PostgreSQL refuses
 * throws a SqlFileError naming `file` (as the caller wants it shown) and the
 * line; `what` is the word for the file in the message ('migration', 'seed').
 * Resolves to the number of statements run.
 *
 * @example
 * await db.exec('begin')
 * try { await runSqlText(db, readFileSync(path, 'utf8'), { file: path, what: 'migration' }); await db.exec('commit') }
 * catch (error) { await db.exec('rollback'); throw error }
 */
export async function runSqlText(db, text, { file, what = 'SQL file' }) {
  const statements = splitStatements(text);
  for (const [index, statement] of statements.entries()) {
    try {
      await db.exec(statement.sql);
    } catch (cause) {
      if (typeof cause?.code !== 'string') throw cause;
      // PostgreSQL's position is 1-based, in characters of the statement.
      const position = Number(cause.position);
      const located = Number.isInteger(position) && position > 0;
      const at = located ? statement.start + position - 1 : statement.start;
      throw new SqlFileError(
        {
          what,
          file,
          line: lineOf(text, at),
          column: located ? columnOf(text, at) : undefined,
          statementNumber: index + 1,
          statementLine: statement.line,
          statement: statement.sql,
          code: cause.code,
          pgMessage: cause.message,
          detail: cause.detail,
          hint: cause.hint,
        },
        { cause },
      );
    }
  }
  return statements.length;
}
