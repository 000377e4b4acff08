// A local Supabase on the test's own SQL: PGlite migrated with the Supabase
// bootstrap (db/migrations), alfred-act's act_sessions (db/sessions: the
// database of an app whose MCP server keeps sessions there) and then `sql`, served by the real PostgREST 12
// through the same socket, settings and /rest/v1 gateway as db/local-stack.mjs,
// with no domain pack and no seed. Before the socket opens (PostgREST is then
// the only client), `inspect(query)` may read the database; the catalog
// reader is tested that way.
import assert from 'node:assert/strict';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { createHash } from 'node:crypto';
import { after, before } from 'node:test';
import { anonKey, newJwtSecret, postgrestJwtSecret, serviceKey, userToken } from '../../../db/jwt.mjs';
import { MIGRATIONS_DIR, readMigrations, SESSIONS_MIGRATIONS_DIR } from '../../../db/migrations.mjs';
import { openDatabase } from '../../../db/pglite.mjs';
import { freePort } from '../../../db/ports.mjs';
import { startPostgrest } from '../../../db/postgrest.mjs';
import { startRestGateway } from '../../../db/rest-proxy.mjs';
import { pullDomain } from '../../../web/src/index.node.js';

const HOST = '127.0.0.1';
export const ADA = { id: 'a1f0ed00-0000-4000-8000-00000000000a', email: 'ada@example.com' };

/**
 * Starts PGlite migrated with the bootstrap and `sql` (one migration named
 * `900_test.sql`; `users` are inserted into auth.users), resolves
 * `inspect(query)` before serving it, then PostgREST and the gateway.
 * Resolves to `{ supabaseUrl, restUrl, anonKey, serviceKey, jwtSecret, token, tokenOf(user), inspected, stop() }`;
 * `token` is a signed-in token of ADA, `tokenOf(user)` one of any user of `users`.
 *
 * @example
 * const stack = await startSqlStack({ sql: 'create table public.t (id bigint primary key)', inspect: (query) => catalogFacts(query) })
 */
export async function startSqlStack({ sql, inspect, users = [ADA] }) {
  const migration = { version: '900', name: 'test', sql, checksum: createHash('sha256').update(sql).digest('hex') };
  const { db } = await openDatabase({ migrations: [...readMigrations(MIGRATIONS_DIR, SESSIONS_MIGRATIONS_DIR), migration], useSnapshot: false });
  let socket;
  let postgrest;
  let gateway;
  const stop = async () => {
    await gateway?.stop();
    await postgrest?.stop();
    await socket?.stop();
    if (!db.closed) await db.close();
  };
  try {
    for (const user of users) await db.query('insert into auth.users (id, email) values ($1, $2)', [user.id, user.email]);
    const inspected = inspect ? await inspect((text) => db.query(text)) : undefined;
    const jwtSecret = newJwtSecret();
    const pgPort = await freePort(HOST);
    socket = new PGLiteSocketServer({ db, host: HOST, port: pgPort, maxConnections: 1 });
    await socket.start();
    const keys = { anonKey: anonKey(jwtSecret), serviceKey: serviceKey(jwtSecret) };
    postgrest = await startPostgrest({
      host: HOST,
      pgPort,
      httpPort: await freePort(HOST),
      adminPort: await freePort(HOST),
      jwtSecret: postgrestJwtSecret(jwtSecret),
      probe: { path: '/', headers: { apikey: keys.serviceKey, authorization: `Bearer ${keys.serviceKey}` } },
    });
    gateway = await startRestGateway({ host: HOST, port: await freePort(HOST), restUrl: postgrest.url });
    return { supabaseUrl: gateway.url, restUrl: postgrest.url, ...keys, jwtSecret, token: userToken(ADA, jwtSecret), tokenOf: (user) => userToken(user, jwtSecret), inspected, stop };
  } catch (error) {
    await stop().catch(() => {});
    throw error;
  }
}

/**
 * One such stack for the file: started in a before hook, stopped in after.
 * Returns a getter.
 *
 * @example
 * const stack = sharedSqlStack({ sql })
 * test('pull', async () => { const { supabaseUrl } = stack(); … })
 */
export function sharedSqlStack(options) {
  let stack;
  before(async () => {
    stack = await startSqlStack(options);
  }, { timeout: 60_000 });
  after(() => stack?.stop());
  return () => {
    if (!stack) throw new Error('sharedSqlStack: the stack is not started yet (use it inside a test)');
    return stack;
  };
}

/**
 * The domain `pullDomain` derives from a started stack (`startSqlStack`'s),
 * as ADA and with the catalog facts the stack inspected; a pull that fails
 * fails the test. Resolves to `{ domain, notes }`.
 *
 * @example
 * const { domain, notes } = await pulledDomain(stack(), core)
 */
export async function pulledDomain(stack, core) {
  const { data, error, notes } = await pullDomain({ url: stack.supabaseUrl, apiKey: stack.anonKey, accessToken: stack.token, core, catalog: stack.inspected });
  assert.equal(error, null);
  return { domain: data, notes };
}
