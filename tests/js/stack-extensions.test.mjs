// What an app's migrations call on Supabase without creating it, on the local
// stack: Storage's helper functions in policies on storage.objects, an app's
// own `create extension vector` next to the stack's copy, and the stand-ins
// for pg_net, http, pg_cron and pg_tle. The migrations are statements as
// published apps write them (the app is named where one is quoted), applied
// after the stack's bootstrap as an app's are, and checked in the database
// itself (PGlite in-process, as the stack runs migrations before its socket
// opens); a trigger's request is also made through PostgREST as a signed-in
// user.
import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CONTRIB, extensionsFor } from '../../db/extensions.mjs';
import { signJwt } from '../../db/jwt.mjs';
import { applyMigrations } from '../../db/migrations.mjs';
import { openDatabase } from '../../db/pglite.mjs';
import { startStack } from '../../db/local-stack.mjs';
import { SCRATCH } from './support/paths.mjs';
import { rest } from './support/stack.mjs';

const BOUNDED = { timeout: 120_000 };
const ADA = '0a0a0a0a-0000-4000-8000-00000000000a';
const BEN = '0b0b0b0b-0000-4000-8000-00000000000b';

/** `[name, sql]` pairs as an app's `supabase/migrations`, in order. */
const asMigrations = (files) =>
  files.map(([name, sql], index) => {
    const version = `2024010100000${index}`;
    return { version, name, sql, checksum: createHash('sha256').update(sql).digest('hex'), path: `supabase/migrations/${version}_${name}.sql` };
  });

/** A database with the stack's bootstrap (from its snapshot) and `files` applied as an app's migrations. */
async function appDatabase(files) {
  const { db } = await openDatabase({ sql: files.map(([, sql]) => sql) });
  try {
    await applyMigrations(db, asMigrations(files));
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}

/** appDatabase for one test, closed when it ends. */
async function testDatabase(t, files) {
  const db = await appDatabase(files);
  t.after(() => db.close());
  return db;
}

/** Runs `sql` in a transaction as the signed-in user `sub` (as PostgREST would), and rolls it back. */
async function asUser(db, sub, sql, params = []) {
  await db.exec('begin');
  try {
    await db.query("select set_config('request.jwt.claims', $1, true)", [JSON.stringify(sub ? { sub, role: 'authenticated' } : { role: 'anon' })]);
    await db.exec(sub ? 'set local role authenticated' : 'set local role anon');
    return (await db.query(sql, params)).rows;
  } finally {
    await db.exec('rollback');
  }
}

/** The rows of `sql` and the NOTICEs it raised. */
async function withNotices(db, sql, params = []) {
  const notices = [];
  const { rows } = await db.query(sql, params, { onNotice: (notice) => notices.push(notice.message) });
  return { rows, notices };
}

const extensionSchema = async (db, name) => (await db.query('select extnamespace::regnamespace::text as schema from pg_extension where extname = $1', [name])).rows[0]?.schema ?? null;

test('a database gets the contrib bundles its SQL names, quoted or not, and those the bootstrap needs; no others', BOUNDED, async () => {
  const bundles = async (...texts) => Object.keys(await extensionsFor(texts)).sort();
  const always = ['pg_stat_statements', 'pgcrypto', 'standIns', 'uuid_ossp', 'vector'];
  assert.deepEqual(await bundles('create table t (id int);'), always);
  assert.deepEqual(await bundles('CREATE EXTENSION IF NOT EXISTS "citext" WITH SCHEMA "extensions";', 'create extension pg_trgm;'), [...always, 'citext', 'pg_trgm'].sort());
  assert.deepEqual(await bundles('-- create extension hstore (later)'), [...always, 'hstore'].sort(), 'a mention in a comment costs a bundle, never a missing one');
  assert.deepEqual(await bundles('create table lots (isn_code text, my_ltree_path text, cube_id int);'), always, 'part of a longer name is not a mention');
  assert.equal(CONTRIB.length, 32);
});

describe('Storage\'s helper functions, in the storage policies apps write', () => {
  let db;
  after(() => db?.close());
  before(async () => {
    db = await appDatabase([
      // Chatbot UI, supabase/migrations/20240108234541_add_profiles.sql (policy names shortened).
      ['profile_images', `INSERT INTO storage.buckets (id, name, public) VALUES ('profile_images', 'profile_images', true);

CREATE POLICY "public read" ON storage.objects FOR SELECT
    USING (bucket_id = 'profile_images');

CREATE POLICY "own folder insert" ON storage.objects FOR INSERT TO authenticated
    WITH CHECK (bucket_id = 'profile_images' AND (storage.foldername(name))[1] = auth.uid()::text);
`],
      // The shape of Supabase's storage access-control guide: one file type only.
      ['images_only', `insert into storage.buckets (id, name) values ('scans', 'scans');
create policy "jpg uploads" on storage.objects for insert to authenticated
  with check (bucket_id = 'scans' and storage.extension(name) = 'jpg' and storage.filename(name) <> 'thumb.jpg');
`],
    ]);
  }, BOUNDED);

  test('foldername, filename and extension split an object\'s name at / and its last .', BOUNDED, async () => {
    const cases = [
      ['avatars/ada/face.png', ['avatars', 'ada'], 'face.png', 'png'],
      ['face.png', [], 'face.png', 'png'],
      ['a/b/c.tar.gz', ['a', 'b'], 'c.tar.gz', 'gz'],
      ['docs/README', ['docs'], 'README', 'README'],
      ['.env', [], '.env', 'env'],
      ['a//b.png', ['a', ''], 'b.png', 'png'],
      ['dir/', ['dir'], '', ''],
      ['ünï/ファイル.PNG', ['ünï'], 'ファイル.PNG', 'PNG'],
      ['', null, null, null],
      [null, null, null, null],
    ];
    for (const [name, folders, file, extension] of cases) {
      const [row] = (await db.query('select storage.foldername($1) as folders, storage.filename($1) as file, storage.extension($1) as extension', [name])).rows;
      assert.deepEqual(row, { folders, file, extension }, JSON.stringify(name));
    }
    const volatility = (await db.query("select proname, provolatile from pg_proc where pronamespace = 'storage'::regnamespace and proname in ('foldername', 'filename', 'extension') order by proname")).rows;
    assert.deepEqual(volatility.map((f) => f.provolatile), ['i', 'i', 'i'], 'immutable, as Storage marks them');
  });

  test('a user uploads into their own folder; another user\'s folder is refused; anon reads the public bucket', BOUNDED, async () => {
    const insert = "insert into storage.objects (bucket_id, name, owner_id) values ('profile_images', $1, auth.uid()::text) returning name";
    assert.deepEqual(await asUser(db, ADA, insert, [`${ADA}/avatar.png`]), [{ name: `${ADA}/avatar.png` }]);
    await assert.rejects(asUser(db, ADA, insert, [`${BEN}/avatar.png`]), { code: '42501', message: 'new row violates row-level security policy for table "objects"' });
    await assert.rejects(asUser(db, ADA, insert, ['avatar.png']), { code: '42501' }, 'no folder at all');
    await db.query("insert into storage.objects (bucket_id, name) values ('profile_images', $1), ('scans', 'ada/x.jpg')", [`${BEN}/avatar.png`]);
    assert.deepEqual(await asUser(db, null, 'select name from storage.objects order by name'), [{ name: `${BEN}/avatar.png` }]);
    await db.query('delete from storage.objects');
  });

  test('a policy on the file\'s extension and name', BOUNDED, async () => {
    // No returning: reading the row back would need a select policy on the bucket, which it has not.
    const upload = (name) => asUser(db, ADA, "insert into storage.objects (bucket_id, name) values ('scans', $1)", [name]);
    assert.deepEqual(await upload('2024/receipt.jpg'), []);
    await assert.rejects(upload('2024/receipt.png'), { code: '42501' });
    await assert.rejects(upload('2024/thumb.jpg'), { code: '42501' });
    await assert.rejects(upload('2024/receipt.jpg.exe'), { code: '42501' });
  });

  test('the operation helpers read storage.operation, which only the Storage API sets: false without it', BOUNDED, async () => {
    const check = async (operation, expected, any) => {
      await db.exec('begin');
      try {
        if (operation !== null) await db.query("select set_config('storage.operation', $1, true)", [operation]);
        const [row] = (await db.query('select storage.operation() as operation, storage.allow_only_operation($1) as only, storage.allow_any_operation($2) as any', [expected, any])).rows;
        return row;
      } finally {
        await db.exec('rollback');
      }
    };
    assert.deepEqual(await check(null, 'object.upload', ['object.upload']), { operation: null, only: false, any: false });
    assert.deepEqual(await check('storage.object.upload', 'object.upload', ['object.list', 'storage.object.upload']), { operation: 'storage.object.upload', only: true, any: true });
    assert.deepEqual(await check('object.upload', 'storage.object.upload', ['object.list']), { operation: 'object.upload', only: true, any: false });
    assert.deepEqual(await check('storage.object.upload', '', ['', null]), { operation: 'storage.object.upload', only: false, any: false });
  });
});

describe('an app\'s own create extension vector, next to the stack\'s copy', () => {
  test('with schema extensions and no if not exists (Chatbot UI), then with if not exists: both load, vector is the app\'s', BOUNDED, async (t) => {
    const db = await testDatabase(t, [
      ['setup', '-- Enable vector extension\ncreate extension vector with schema extensions;\n'],
      ['items', 'create extension if not exists vector with schema extensions;\ncreate table items (embedding vector(3));\ninsert into items values (\'[1,0,0]\');\n'],
    ]);
    assert.equal(await extensionSchema(db, 'vector'), 'extensions');
    assert.deepEqual((await db.query("select (embedding <=> '[0,1,0]')::float as distance from items")).rows, [{ distance: 1 }]);
    assert.deepEqual((await db.query("select name from alfred_stack.provided_extensions where name = 'vector'")).rows, [], 'no longer the stack\'s');
  });

  test('with schema public, or with no schema at all: installed where a Supabase project puts it', BOUNDED, async (t) => {
    const inPublic = await testDatabase(t, [['vector', 'create extension vector with schema public;\n']]);
    assert.equal(await extensionSchema(inPublic, 'vector'), 'public');
    const noSchema = await testDatabase(t, [['vector', 'create extension if not exists "vector";\ncreate table docs (embedding public.vector(2));\n']]);
    assert.equal(await extensionSchema(noSchema, 'vector'), 'public', 'the first schema of the migration\'s search path');
  });

  test('a second create extension vector fails as on Supabase, naming the file and the line', BOUNDED, async (t) => {
    const migrations = asMigrations([
      ['vector', 'create extension vector with schema extensions;\n'],
      ['again', '-- copied from another project\n\ncreate extension vector with schema extensions;\n'],
    ]);
    const { db } = await openDatabase();
    t.after(() => db.close());
    await assert.rejects(applyMigrations(db, migrations), {
      name: 'SqlFileError',
      file: 'supabase/migrations/20240101000001_again.sql',
      line: 3,
      code: '42710',
      pgMessage: 'extension "vector" already exists',
    });
  });

  test('an app that used the stack\'s vector before creating it keeps that copy; a commented-out create touches nothing', BOUNDED, async (t) => {
    const db = await testDatabase(t, [
      ['items', "create table items (embedding extensions.vector(3));\ninsert into items values ('[1,2,3]');\n"],
      ['enable', '/* create extension vector with schema public; */\ncreate extension if not exists "uuid-ossp" with schema extensions;\n'],
      ['vector', 'create extension if not exists vector with schema public;\n'],
    ]);
    assert.equal(await extensionSchema(db, 'vector'), 'extensions', 'objects depend on it, so it stays');
    assert.deepEqual((await db.query('select embedding::text from items')).rows, [{ embedding: '[1,2,3]' }]);
    assert.deepEqual((await db.query("select name from alfred_stack.provided_extensions where name = 'vector'")).rows, []);
    const untouched = await testDatabase(t, [['enable', '-- create extension vector;\ncreate extension if not exists pgcrypto with schema extensions;\n']]);
    assert.deepEqual((await untouched.query("select name from alfred_stack.provided_extensions where name = 'vector'")).rows, [{ name: 'vector' }]);
    assert.equal(await extensionSchema(untouched, 'vector'), 'extensions');
  });
});

// How `supabase db dump` (and the remote_schema.sql of `supabase db pull`)
// begins, session settings and all, then a migration written for the default
// session.
const DUMP_HEADER = `SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;


CREATE EXTENSION IF NOT EXISTS "pgsodium" WITH SCHEMA "pgsodium";


COMMENT ON SCHEMA "public" IS 'standard public schema';


CREATE EXTENSION IF NOT EXISTS "pg_graphql" WITH SCHEMA "graphql";


CREATE EXTENSION IF NOT EXISTS "pg_stat_statements" WITH SCHEMA "extensions";


CREATE EXTENSION IF NOT EXISTS "pg_trgm" WITH SCHEMA "extensions";


CREATE EXTENSION IF NOT EXISTS "pgcrypto" WITH SCHEMA "extensions";


CREATE EXTENSION IF NOT EXISTS "pgjwt" WITH SCHEMA "extensions";


CREATE EXTENSION IF NOT EXISTS "supabase_vault" WITH SCHEMA "vault";


CREATE EXTENSION IF NOT EXISTS "uuid-ossp" WITH SCHEMA "extensions";


CREATE EXTENSION IF NOT EXISTS "vector" WITH SCHEMA "extensions";


CREATE EXTENSION IF NOT EXISTS "pg_cron" WITH SCHEMA "pg_catalog";


CREATE EXTENSION IF NOT EXISTS "btree_gist" WITH SCHEMA "public";


CREATE TABLE IF NOT EXISTS "public"."places" (
    "id" bigint NOT NULL,
    "name" "text" NOT NULL,
    "embedding" "extensions"."vector"(3)
);
`;

describe('what a supabase db dump begins with, and the migrations after it', () => {
  let db;
  after(() => db?.close());
  before(async () => {
    db = await appDatabase([
      ['remote_schema', DUMP_HEADER],
      ['notes', "create table notes (id bigint generated by default as identity primary key, body text not null, created_at timestamptz default now());\ncreate index notes_body_trgm on notes using gin (body gin_trgm_ops);\nselect vault.create_secret('https://project-ref.supabase.co', 'project_url', 'for webhooks');\n"],
      // A database webhook made in the dashboard, as `supabase db diff` writes it.
      ['webhook', `CREATE TABLE IF NOT EXISTS "public"."notifications" ("id" bigint generated by default as identity primary key, "body" "text");

CREATE OR REPLACE TRIGGER "email_notification" AFTER INSERT ON "public"."notifications" FOR EACH ROW EXECUTE FUNCTION "supabase_functions"."http_request"('https://project-ref.supabase.co/functions/v1/email_notification', 'POST', '{"Content-type":"application/json"}', '{}', '5000');
`],
    ]);
  }, BOUNDED);

  test('the dump loads: the extensions a project starts with are no-ops, the others are created where it says', BOUNDED, async () => {
    const { rows } = await db.query("select extname, extnamespace::regnamespace::text as schema from pg_extension where extname <> 'plpgsql' order by extname");
    assert.deepEqual(rows.map((row) => `${row.extname} ${row.schema}`), [
      'btree_gist public', 'pg_cron pg_catalog', 'pg_graphql graphql', 'pg_net extensions', 'pg_stat_statements extensions', 'pg_trgm extensions',
      'pgcrypto extensions', 'pgjwt extensions', 'pgsodium pgsodium', 'supabase_vault vault', 'uuid-ossp extensions', 'vector extensions',
    ]);
    await assert.rejects(applyMigrations(db, asMigrations([['graphql', 'create extension pg_graphql;']]).map((m) => ({ ...m, version: '20240201000000' }))), {
      code: '42710',
      pgMessage: 'extension "pg_graphql" already exists',
    }, 'installed from the start, as on a project');
  });

  test('the next migration runs in a fresh session (search path, row security), and so do requests after the last', BOUNDED, async () => {
    assert.deepEqual((await db.query("select similarity(body, 'hello') as s from notes")).rows, []);
    assert.deepEqual((await db.query("select current_setting('row_security') as row_security, current_setting('check_function_bodies') as bodies, current_setting('search_path') as path")).rows, [
      { row_security: 'on', bodies: 'on', path: '"$user", public, extensions' },
    ]);
    assert.deepEqual((await db.query("select schemaname, tablename from pg_indexes where indexname = 'notes_body_trgm'")).rows, [{ schemaname: 'public', tablename: 'notes' }], 'unqualified names found public and extensions again');
  });

  test('Vault keeps the secret and reads it back, to the service role only; it is not encrypted', BOUNDED, async () => {
    assert.deepEqual((await db.query('select name, description, secret, decrypted_secret from vault.decrypted_secrets')).rows, [
      { name: 'project_url', description: 'for webhooks', secret: 'https://project-ref.supabase.co', decrypted_secret: 'https://project-ref.supabase.co' },
    ]);
    await assert.rejects(asUser(db, ADA, 'select decrypted_secret from vault.decrypted_secrets'), { code: '42501' });
    await assert.rejects(asUser(db, ADA, "select vault.create_secret('x')"), { code: '42501' });
    await db.exec('begin');
    try {
      await db.exec('set local role service_role');
      assert.deepEqual((await db.query("select decrypted_secret from vault.decrypted_secrets where name = 'project_url'")).rows, [{ decrypted_secret: 'https://project-ref.supabase.co' }]);
    } finally {
      await db.exec('rollback');
    }
    const [{ comment }] = (await db.query("select obj_description('vault.secrets'::regclass) as comment")).rows;
    assert.match(comment, /NOT encrypted on the local stack/);
  });

  test('pgjwt signs and verifies HS256 tokens that Node\'s HMAC agrees with; expired, early and forged ones are invalid', BOUNDED, async () => {
    const secret = 'a-secret-of-thirty-two-characters!';
    const [{ token }] = (await db.query("select extensions.sign(json_build_object('sub', 'ada', 'role', 'authenticated', 'exp', 4102444800), $1) as token", [secret])).rows;
    const [header, payload, signature] = token.split('.');
    assert.equal(signature, createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url'));
    assert.deepEqual(JSON.parse(Buffer.from(payload, 'base64url')), { sub: 'ada', role: 'authenticated', exp: 4102444800 });
    const verify = async (jwt, key = secret, algorithm = 'HS256') => (await db.query('select header, payload, valid from extensions.verify($1, $2, $3)', [jwt, key, algorithm])).rows[0];
    assert.deepEqual(await verify(token), { header: { alg: 'HS256', typ: 'JWT' }, payload: { sub: 'ada', role: 'authenticated', exp: 4102444800 }, valid: true });
    const node = signJwt({ sub: 'ben', exp: Math.floor(Date.now() / 1000) + 60 }, secret);
    assert.equal((await verify(node)).valid, true, 'a token signed in Node');
    assert.equal((await verify(token, 'another-secret')).valid, false);
    assert.equal((await verify(`${header}.${Buffer.from('{"sub":"eve","exp":4102444800}').toString('base64url')}.${signature}`)).valid, false, 'payload swapped');
    const expired = signJwt({ sub: 'ben', exp: Math.floor(Date.now() / 1000) - 1 }, secret);
    const early = signJwt({ sub: 'ben', nbf: Math.floor(Date.now() / 1000) + 3600 }, secret);
    assert.deepEqual([(await verify(expired)).valid, (await verify(early)).valid], [false, false]);
    const [{ hs512 }] = (await db.query("select extensions.sign('{\"n\": 1}'::json, $1, 'HS512') as hs512", [secret])).rows;
    assert.equal((await verify(hs512, secret, 'HS512')).valid, true);
    assert.equal((await verify(hs512, secret, 'HS256')).valid, false);
  });

  test('a database webhook (supabase_functions.http_request) queues its POST through pg_net and records the hook', BOUNDED, async () => {
    const { rows, notices } = await withNotices(db, "insert into notifications (body) values ('Welcome!') returning id");
    assert.deepEqual(rows, [{ id: 1 }]);
    assert.match(notices[0], /^pg_net stand-in: request (\d+) \(POST https:\/\/project-ref\.supabase\.co\/functions\/v1\/email_notification\) is queued/);
    const [queued] = (await db.query("select id, headers, convert_from(body, 'UTF8')::jsonb as body, timeout_milliseconds from net.http_request_queue order by id desc limit 1")).rows;
    assert.deepEqual(queued.body, { type: 'INSERT', table: 'notifications', schema: 'public', record: { id: 1, body: 'Welcome!' }, old_record: null });
    assert.deepEqual([queued.headers, queued.timeout_milliseconds], [{ 'Content-type': 'application/json' }, 5000]);
    assert.deepEqual((await db.query("select hook_table_id::regclass::text as hook_table, hook_name, request_id from supabase_functions.hooks")).rows, [
      { hook_table: 'notifications', hook_name: 'email_notification', request_id: queued.id },
    ]);
  });

  test('pg_graphql answers every query with a GraphQL error; its comment directive is read', BOUNDED, async () => {
    assert.deepEqual((await db.query("select graphql.resolve('{ notesCollection { edges { node { id } } } }') as answer")).rows[0].answer, {
      data: null,
      errors: [{ message: 'pg_graphql stand-in: the local stack does not serve GraphQL; use its REST API (PostgREST) or a Supabase project' }],
    });
    assert.deepEqual((await db.query("select graphql.comment_directive('@graphql({\"totalCount\": {\"enabled\": true}})') as directive")).rows[0].directive, { totalCount: { enabled: true } });
  });
});

// An edge-function webhook as apps write it: a trigger posts the new row's id.
const WEBHOOK_MIGRATION = `create extension if not exists pg_net with schema extensions;

create table public.documents (
  id bigint primary key generated always as identity,
  name text not null,
  created_by uuid not null default auth.uid() references auth.users (id),
  created_at timestamptz not null default now()
);
alter table public.documents enable row level security;
create policy "own documents" on public.documents for all to authenticated
  using (created_by = auth.uid()) with check (created_by = auth.uid());

create schema private;

create function private.embed()
returns trigger
language plpgsql
security definer
as $$
begin
  perform net.http_post(
    url := 'https://project-ref.supabase.co/functions/v1/embed',
    headers := jsonb_build_object('Content-Type', 'application/json', 'Authorization', 'Bearer service-key'),
    body := jsonb_build_object('ids', array[new.id], 'table', tg_table_name),
    timeout_milliseconds := 300000
  );
  return null;
end;
$$;

create trigger embed_documents
  after insert on public.documents
  for each row execute procedure private.embed();
`;

describe('stand-ins for pg_net, http, pg_cron and pg_tle', () => {
  let db;
  after(() => db?.close());
  before(async () => {
    db = await appDatabase([
      ['webhook', WEBHOOK_MIGRATION],
      // Chatbot UI, supabase/migrations/20240108234540_setup.sql (the service key shortened).
      ['http', `-- Enable HTTP extension
create extension http with schema extensions;

CREATE OR REPLACE FUNCTION delete_storage_object(bucket TEXT, object TEXT, OUT status INT, OUT content TEXT)
RETURNS RECORD
LANGUAGE 'plpgsql'
SECURITY DEFINER
AS $$
DECLARE
  project_url TEXT := 'http://supabase_kong_chatbotui:8000';
  service_role_key TEXT := 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9';
  url TEXT := project_url || '/storage/v1/object/' || bucket || '/' || object;
BEGIN
  SELECT
      INTO status, content
           result.status::INT, result.content::TEXT
      FROM extensions.http((
    'DELETE',
    url,
    ARRAY[extensions.http_header('authorization','Bearer ' || service_role_key)],
    NULL,
    NULL)::extensions.http_request) AS result;
END;
$$;
`],
      // Supabase's supachat example enables it so; the schedule is a cleanup job as apps write one.
      ['cron', `CREATE EXTENSION pg_cron;

select cron.schedule('purge-old-documents', '0 3 * * *', $$delete from public.documents where created_at < now() - interval '30 days'$$);
`],
      // letsrunit, supabase/migrations/00000000000000_setup.sql.
      ['tle', 'create extension if not exists pg_tle;\n'],
    ]);
    await db.query("insert into auth.users (id, email) values ($1, 'ada@example.com')", [ADA]);
  }, BOUNDED);

  test('the migrations load; pg_extension lists each stand-in with a comment saying what it does not do', BOUNDED, async () => {
    const { rows } = await db.query("select extname, extversion, extnamespace::regnamespace::text as schema, obj_description(oid, 'pg_extension') as comment from pg_extension where extname in ('pg_net', 'http', 'pg_cron', 'pg_tle') order by extname");
    assert.deepEqual(rows, [
      { extname: 'http', extversion: '1.7', schema: 'extensions', comment: 'HTTP client (alfred-act local stack stand-in: requests raise an error, nothing is sent)' },
      { extname: 'pg_cron', extversion: '1.6', schema: 'public', comment: 'Job scheduler for PostgreSQL (alfred-act local stack stand-in: jobs are recorded, never run)' },
      { extname: 'pg_net', extversion: '0.20.4', schema: 'extensions', comment: 'Async HTTP (alfred-act local stack stand-in: requests are queued, never sent)' },
      { extname: 'pg_tle', extversion: '1.5.2', schema: 'public', comment: 'Trusted Language Extensions (alfred-act local stack stand-in: installing is refused)' },
    ]);
    assert.deepEqual((await db.query('select name from alfred_stack.provided_extensions')).rows, [{ name: 'vector' }], 'the app\'s create extension pg_net replaced the stack\'s');
  });

  test('pg_net: the trigger\'s net.http_post queues the request and returns its id, with a NOTICE that it is not sent', BOUNDED, async () => {
    await db.query('truncate net.http_request_queue restart identity');
    const { rows, notices } = await withNotices(db, "insert into public.documents (name, created_by) values ('Handbook', $1) returning id", [ADA]);
    assert.deepEqual(rows, [{ id: 1 }]);
    assert.deepEqual(notices, ['pg_net stand-in: request 1 (POST https://project-ref.supabase.co/functions/v1/embed) is queued in net.http_request_queue and will not be sent: the local stack has no pg_net worker']);
    const queued = (await db.query("select id, method, url, headers, convert_from(body, 'UTF8')::jsonb as body, timeout_milliseconds from net.http_request_queue")).rows;
    assert.deepEqual(queued, [{
      id: 1,
      method: 'POST',
      url: 'https://project-ref.supabase.co/functions/v1/embed',
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer service-key' },
      body: { ids: [1], table: 'documents' },
      timeout_milliseconds: 300000,
    }]);

    const get = await withNotices(db, "select net.http_get('https://api.example.com/search?lang=en', params := '{\"q\": \"café & co\", \"page\": \"2\"}') as id");
    assert.deepEqual(get.rows, [{ id: 2 }]);
    assert.match(get.notices[0], /^pg_net stand-in: request 2 \(GET https:\/\/api\.example\.com\/search\?lang=en&q=caf%C3%A9%20%26%20co&page=2\) is queued/, 'parameters in jsonb\'s key order, as pg_net takes them');
    assert.deepEqual((await db.query("select net.http_delete('https://api.example.com/items/7') as id")).rows, [{ id: 3 }]);
    assert.deepEqual((await db.query('select method, body from net.http_request_queue where id = 3')).rows, [{ method: 'DELETE', body: null }]);
  });

  test('pg_net: collecting a response answers as for a request still queued; waiting for one, or for the worker, is an error', BOUNDED, async () => {
    assert.deepEqual((await db.query('select (r).status, (r).message, (r).response from (select net._http_collect_response(1) as r) as collected')).rows, [
      { status: 'ERROR', message: 'request matching request_id not found', response: null },
    ]);
    await assert.rejects(db.query('select net._http_collect_response(1, async := false)'), { code: '0A000', message: 'pg_net stand-in: request 1 will never get a response' });
    await assert.rejects(db.query('select net.check_worker_is_up()'), { message: 'the pg_net background worker is not up' });
    await assert.rejects(db.query("select net.http_post('https://x.example', headers := '{\"Content-Type\": \"text/plain\"}')"), { message: 'Content-Type header must be "application/json"' });
    assert.equal((await db.query('select count(*)::int as n from net._http_response')).rows[0].n, 0);
  });

  test('http: the helpers that only compute work; every request is an error that names it, and nothing is recorded as sent', BOUNDED, async () => {
    const [helpers] = (await db.query("select extensions.urlencode('a b/é&c') as text, extensions.urlencode('{\"q\": \"x y\", \"n\": 1}'::jsonb) as json, extensions.http_header('accept', 'application/json')::text as header, extensions.bytea_to_text(extensions.text_to_bytea('héllo')) as round_trip")).rows;
    assert.deepEqual(helpers, { text: 'a%20b%2F%C3%A9%26c', json: 'n=1&q=x%20y', header: '(accept,application/json)', round_trip: 'héllo' });
    assert.deepEqual((await db.query("select extensions.http_set_curlopt('CURLOPT_TIMEOUT', '5') as set, (select array_agg(curlopt || '=' || value) from extensions.http_list_curlopt()) as listed")).rows, [{ set: true, listed: ['CURLOPT_TIMEOUT=5'] }]);
    await assert.rejects(db.query("select * from delete_storage_object('files', 'ada/report.pdf')"), {
      code: '0A000',
      message: 'http stand-in: DELETE http://supabase_kong_chatbotui:8000/storage/v1/object/files/ada/report.pdf was not sent: the local stack makes no HTTP requests',
    });
    await assert.rejects(db.query("select extensions.http_get('https://example.com')"), { code: '0A000', message: /^http stand-in: GET https:\/\/example\.com was not sent/ });
    await assert.rejects(db.query("select extensions.http_post('https://example.com', 'a=1', 'application/x-www-form-urlencoded')"), { message: /^http stand-in: POST https:\/\/example\.com was not sent/ });
  });

  test('pg_cron: jobs are recorded (a named one replaced by name) with a NOTICE that they never run; bad schedules are refused', BOUNDED, async () => {
    assert.deepEqual((await db.query('select jobid, jobname, schedule, active from cron.job')).rows, [{ jobid: 1, jobname: 'purge-old-documents', schedule: '0 3 * * *', active: true }]);
    const renamed = await withNotices(db, "select cron.schedule('purge-old-documents', '30 4 * * *', 'select 1') as id");
    assert.deepEqual(renamed.rows, [{ id: 1 }]);
    assert.deepEqual(renamed.notices, ['pg_cron stand-in: job 1 (purge-old-documents) is recorded in cron.job and will never run: the local stack has no scheduler']);
    assert.deepEqual((await db.query("select cron.schedule('@hourly', 'select 2') as id, cron.schedule('every-10s', '10 seconds', 'select 3') as named")).rows, [{ id: 2, named: 3 }]);
    assert.deepEqual((await db.query('select jobid, schedule, command from cron.job order by jobid')).rows, [
      { jobid: 1, schedule: '30 4 * * *', command: 'select 1' },
      { jobid: 2, schedule: '@hourly', command: 'select 2' },
      { jobid: 3, schedule: '10 seconds', command: 'select 3' },
    ]);
    assert.deepEqual((await db.query("select cron.unschedule('every-10s') as by_name, cron.unschedule(2::bigint) as by_id")).rows, [{ by_name: true, by_id: true }]);
    await assert.rejects(db.query("select cron.unschedule('every-10s')"), { message: "could not find valid entry for job 'every-10s'" });
    await assert.rejects(db.query("select cron.schedule('weekly', 'every monday', 'select 1')"), { message: 'invalid schedule: every monday' });
    assert.equal((await db.query('select count(*)::int as n from cron.job_run_details')).rows[0].n, 0);
  });

  test('pg_tle: installing a trusted-language extension is refused with the reason', BOUNDED, async () => {
    await assert.rejects(db.query("select pgtle.install_extension('my_ext', '1.0', 'mine', 'select 1')"), {
      code: '0A000',
      message: 'pg_tle stand-in: installing the trusted-language extension my_ext 1.0 is not possible on the local stack',
    });
    assert.deepEqual((await db.query('select * from pgtle.available_extensions()')).rows, []);
  });
});

describe('a pg_net webhook through PostgREST', () => {
  // A fixed folder: snapshots are kept per migrations folder.
  const dir = join(SCRATCH, 'stack-extensions/migrations');
  let stack;
  before(async () => {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, '20240101000000_webhook.sql'), WEBHOOK_MIGRATION);
    // For the test to read the queue: net is not an exposed schema.
    writeFileSync(
      join(dir, '20240101000001_queue_view.sql'),
      'create view public.queued_requests as select id, method, url, convert_from(body, \'UTF8\')::jsonb as body from net.http_request_queue;\nrevoke all on public.queued_requests from anon, authenticated;\n',
    );
    stack = await startStack({ migrations: dir, users: [{ email: 'ada@example.com', password: 'ada-password' }] });
  }, BOUNDED);
  after(() => stack?.stop());

  test('a signed-in user\'s insert runs the trigger\'s net.http_post and is answered 201; the request waits in the queue', BOUNDED, async () => {
    const [ada] = stack.users;
    const created = await rest(stack, ada.token, 'POST', '/documents?select=id,name', { body: { name: 'Handbook' }, prefer: 'return=representation' });
    assert.deepEqual([created.status, created.body], [201, [{ id: 1, name: 'Handbook' }]]);
    const queued = await rest(stack, stack.serviceKey, 'GET', '/queued_requests?select=id,method,url,body');
    assert.deepEqual(queued.body, [{ id: 1, method: 'POST', url: 'https://project-ref.supabase.co/functions/v1/embed', body: { ids: [1], table: 'documents' } }]);
    const hidden = await rest(stack, ada.token, 'GET', '/queued_requests');
    assert.equal(hidden.status, 403, 'the queue is not the user\'s to read');
  });
});
