// db/sql-statements.mjs: how a migration or seed file is cut into statements
// (at semicolons outside strings, quoted names, dollar quotes, comments and
// BEGIN ATOMIC bodies), and how a refused statement is reported.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PGlite } from '@electric-sql/pglite';
import { lineOf, runSqlText, splitStatements, SqlFileError } from '../../db/sql-statements.mjs';

const texts = (sql) => splitStatements(sql).map((statement) => statement.sql);

test('statements end at semicolons; comments and blank pieces are not statements', () => {
  const sql = '-- a comment; not a statement\ncreate table t (id int);\n\n/* block; comment */ insert into t values (1);;\n-- trailing\n';
  assert.deepEqual(splitStatements(sql), [
    { sql: 'create table t (id int);', start: 30, end: 54, line: 2 },
    { sql: 'insert into t values (1);', start: 77, end: 102, line: 4 },
  ]);
  assert.deepEqual(texts('select 1'), ['select 1'], 'a last statement without a semicolon');
  assert.deepEqual(texts(' \n-- only a comment\n'), []);
});

test('semicolons inside strings, quoted names, dollar quotes and nested comments do not split', () => {
  assert.deepEqual(texts(`insert into t values ('a;b', 'it''s; fine');select 2;`), [`insert into t values ('a;b', 'it''s; fine');`, 'select 2;']);
  assert.deepEqual(texts(`select E'back\\'slash;'; select 3;`), [`select E'back\\'slash;';`, 'select 3;']);
  assert.deepEqual(texts(`create table "odd;name" ("a""b;" int); select 4;`), [`create table "odd;name" ("a""b;" int);`, 'select 4;']);
  const fn = `create function f() returns int as $$ begin return 1; end; $$ language plpgsql;`;
  const tagged = `do $body$ begin perform 1; /* $$ */ end $body$;`;
  assert.deepEqual(texts(`${fn}\n${tagged}\nselect $1::int;`), [fn, tagged, 'select $1::int;']);
  assert.deepEqual(texts('/* outer /* inner; */ still; */ select 5;'), ['select 5;'], 'block comments nest');
  assert.deepEqual(texts('select x$y; select 6;'), ['select x$y;', 'select 6;'], 'a $ inside a name is no dollar quote');
});

test('a BEGIN ATOMIC body (CASE … END inside) stays one statement', () => {
  const body = `create function g(x int) returns text language sql begin atomic select case when x > 0 then 'pos' else 'neg' end; select 'two'; end;`;
  assert.deepEqual(texts(`${body}\nselect 7;`), [body, 'select 7;']);
});

test('lineOf counts lines from 1', () => {
  assert.equal(lineOf('a\nb\nc', 0), 1);
  assert.equal(lineOf('a\nb\nc', 4), 3);
});

test('a refused statement names the file, the line and column, the statement and PostgreSQL\'s message', async (t) => {
  const db = await PGlite.create();
  t.after(() => db.close());
  const sql = 'create table notes (id int primary key);\n\n-- the second statement\ninsert into notes (id, title)\n  values (1, \'x\');\n';
  const error = await runSqlText(db, sql, { file: 'supabase/migrations/20240101000000_notes.sql', what: 'migration' }).then(
    () => assert.fail('the insert must fail'),
    (e) => e,
  );
  assert.ok(error instanceof SqlFileError);
  assert.equal(error.message, [
    'migration supabase/migrations/20240101000000_notes.sql failed at line 4, column 24: column "title" of relation "notes" does not exist (SQLSTATE 42703)',
    '  in statement 2, from line 4:',
    '    insert into notes (id, title)',
    "      values (1, 'x');",
  ].join('\n'));
  assert.deepEqual(
    { file: error.file, line: error.line, column: error.column, statementNumber: error.statementNumber, code: error.code },
    { file: 'supabase/migrations/20240101000000_notes.sql', line: 4, column: 24, statementNumber: 2, code: '42703' },
  );
  // Statements before the failing one ran (the caller's transaction decides what stays).
  assert.deepEqual((await db.query('select count(*)::int as n from notes')).rows, [{ n: 0 }]);
});
