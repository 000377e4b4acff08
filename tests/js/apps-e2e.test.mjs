// Real Supabase apps end to end: each app's migrations as published (or as
// Supabase Studio writes them) run in the local stack, `domain pull` derives
// the domain (PostgREST's description plus the catalog the stack read), a
// user signs in with supabase-js, and the plain requests a user of that app
// makes run as tool calls through createAct({ supabase }). Every write is
// read back from the database past RLS (the service role), and every result
// the model would see is checked for UUIDs.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createClient } from '@supabase/supabase-js';
import { startStack } from '../../db/local-stack.mjs';
import { loadCore, pullDomain } from '../../web/src/index.node.js';
import { ROOT } from './support/paths.mjs';
import { rest } from './support/stack.mjs';

const APPS = join(ROOT, 'tests/apps');
const BOUNDED = { timeout: 180_000 };
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const where = (field, op, value = null) => ({ field, op, value });

class NoRealtimeSocket {
  constructor() {
    throw new Error('realtime is not used by these tests');
  }
}
const realtime = { transport: globalThis.WebSocket ?? NoRealtimeSocket };

let core;
before(async () => {
  core = await loadCore();
});

/** The app's stack, its pulled domain (with the pull's notes) and a way to sign its users in. */
async function appUnderTest(name, options = {}) {
  const dir = join(APPS, name, 'supabase');
  const stack = await startStack({ migrations: join(dir, 'migrations'), seed: join(dir, 'seed.sql'), ...options });
  const pulled = await pullDomain({ url: stack.supabaseUrl, apiKey: stack.serviceKey, catalog: stack.catalog, core, name });
  assert.equal(pulled.error, null, JSON.stringify(pulled.error));
  const clients = [];
  return {
    stack,
    domain: pulled.data,
    notes: pulled.notes,
    /** A signed-in act for `email` (supabase-js signInWithPassword against the stack's /auth/v1). */
    async actAs(email, password) {
      const supabase = createClient(stack.supabaseUrl, stack.anonKey, { realtime, auth: { persistSession: false, autoRefreshToken: false } });
      clients.push(supabase);
      const { data, error } = await supabase.auth.signInWithPassword({ email, password });
      assert.equal(error, null, `${email} signs in`);
      const appCore = await loadCore({ domain: pulled.data });
      return { act: appCore.createAct({ supabase }), user: data.user };
    },
    /** Rows as the database holds them, past RLS. */
    async db(path) {
      const { status, body } = await rest(stack, stack.serviceKey, 'GET', path);
      assert.equal(status, 200, `GET ${path}: ${JSON.stringify(body)}`);
      return body;
    },
    async stop() {
      for (const supabase of clients) await supabase.auth.signOut().catch(() => {});
      await stack.stop();
    },
  };
}

/** A result the model may see: no error, no UUID anywhere. */
function ok(result) {
  assert.equal(result.error, null, `unexpected error: ${JSON.stringify(result.error)}`);
  assert.doesNotMatch(JSON.stringify({ data: result.data, query: result.query }), UUID);
  return result;
}

const tableOf = (domain, name) => {
  assert.ok(domain.tables[name], `the pull kept ${name}: ${Object.keys(domain.tables).join(', ')}`);
  return domain.tables[name];
};

describe('slack clone: bigint keys, owners created_by and user_id, channels and messages every signed-in user reads', () => {
  let app;
  let ada;
  let ben;
  before(async () => {
    app = await appUnderTest('slack-clone', {
      users: [
        { email: 'ada@example.com', password: 'ada-password', user_metadata: { username: 'ada' } },
        { email: 'ben@example.com', password: 'ben-password', user_metadata: { username: 'ben' } },
      ],
    });
    ada = await app.actAs('ada@example.com', 'ada-password');
    ben = await app.actAs('ben@example.com', 'ben-password');
  }, BOUNDED);
  after(() => app?.stop());

  test('the pull keeps every table the API exposes that users may read, with its key, owner and references', () => {
    const { domain } = app;
    assert.deepEqual(Object.keys(domain.tables).sort(), ['channels', 'messages', 'users']);
    // Row-level security on and no policy: only the app's authorize() function reads it.
    assert.match(app.notes.find((note) => note.path === 'tables.role_permissions').message, /^left out: no row-level security policy lets a signed-in user read its rows/);
    assert.equal(tableOf(domain, 'channels').owner, 'created_by');
    assert.equal(tableOf(domain, 'messages').owner, 'user_id');
    assert.equal(tableOf(domain, 'users').owner, 'id', 'users is keyed by auth.users: its key is its owner');
    assert.deepEqual(tableOf(domain, 'messages').columns.channel_id, { type: 'integer', required: true, references: 'channels' });
    assert.equal(tableOf(domain, 'messages').columns.id.type, 'integer');
    assert.equal(tableOf(domain, 'messages').scope, undefined, 'row-level security decides');
  });

  test('"post hello in #random": the channel by its name, the message created as Ada, read back', BOUNDED, async () => {
    const { act, user } = ada;
    const channels = ok(await act.execute('db_read', { table: 'channels', filters: [where('slug', '=', 'random')] }));
    assert.equal(channels.data.length, 1);
    const [random] = channels.data;
    assert.match(random.id, /^channel_\d+$/);
    const text = `hello from alfred ${process.pid}`;
    const created = ok(await act.execute('db_create', { table: 'messages', data: { message: text, channel_id: random.id } }));
    assert.deepEqual([created.data.message, created.data.channel_id, created.data.user_id], [text, random.id, 'me']);
    assert.match(created.data.id, /^message_\d+$/);
    const [row] = await app.db(`/messages?message=eq.${encodeURIComponent(text)}&select=user_id,channel_id,channels(slug)`);
    assert.deepEqual([row.user_id, row.channels.slug], [user.id, 'random']);
  });

  test('"what was said in #public?": every user\'s messages (RLS shares them), others as refs with their names', BOUNDED, async () => {
    const { act } = ben;
    const [channel] = ok(await act.execute('db_read', { table: 'channels', filters: [where('slug', '=', 'public')] })).data;
    const read = ok(await act.execute('db_read', { table: 'messages', filters: [where('channel_id', '=', channel.id)] }));
    const truth = await app.db('/messages?select=id,user_id,channels!inner(slug)&channels.slug=eq.public');
    assert.equal(read.data.length, truth.length);
    assert.ok(truth.length > 0, "the seed's bot wrote in #public");
    for (const message of read.data) {
      assert.match(message.user_id, /^(me|user_\d+)$/);
      if (message.user_id !== 'me') assert.equal(typeof message._user_id_label, 'string');
    }
  });

  test('"my messages" filters on me; "delete that one" deletes it by ref, and Ben cannot delete Ada\'s', BOUNDED, async () => {
    const { act, user } = ada;
    const mine = ok(await act.execute('db_read', { table: 'messages', filters: [where('user_id', '=', 'me')] }));
    const truth = await app.db(`/messages?user_id=eq.${user.id}&select=id`);
    assert.equal(mine.data.length, truth.length);
    assert.ok(mine.data.every((m) => m.user_id === 'me'));
    const target = mine.data.at(-1);
    // Ben reaches the same row through his own read, and RLS refuses his delete (0 rows).
    const bensView = ok(await ben.act.execute('db_read', { table: 'messages', filters: [where('message', '=', target.message)] }));
    const bensRef = bensView.data.find((m) => m.message === target.message)?.id;
    assert.ok(bensRef);
    const refused = ok(await ben.act.execute('db_delete', { table: 'messages', filters: [where('id', '=', bensRef)] }));
    assert.deepEqual([refused.data, refused.count], [[], 0]);
    assert.equal((await app.db(`/messages?user_id=eq.${user.id}&select=id`)).length, truth.length);
    const deleted = ok(await act.execute('db_delete', { table: 'messages', filters: [where('id', '=', target.id)] }));
    assert.equal(deleted.count, 1);
    assert.equal((await app.db(`/messages?user_id=eq.${user.id}&select=id`)).length, truth.length - 1);
  });

  test('"start a channel called plans": created_by is Ada, the bigint key comes back as a ref', BOUNDED, async () => {
    const { act, user } = ada;
    const slug = `plans-${process.pid}`;
    const created = ok(await act.execute('db_create', { table: 'channels', data: { slug } }));
    assert.equal(created.data.created_by, 'me');
    const [row] = await app.db(`/channels?slug=eq.${slug}&select=id,created_by`);
    assert.equal(row.created_by, user.id);
    const again = ok(await act.execute('db_read', { table: 'channels', filters: [where('id', '=', created.data.id)] }));
    assert.deepEqual(again.data.map((c) => c.slug), [slug]);
  });

  test('a raw id the model writes is refused before any request', BOUNDED, async () => {
    const { act, user } = ada;
    const pastedUser = await act.execute('db_read', { table: 'messages', filters: [where('user_id', '=', user.id)] });
    assert.equal(pastedUser.error.code, 'raw_id');
    const pastedNumber = await act.execute('db_read', { table: 'messages', filters: [where('channel_id', '=', 1)] });
    assert.equal(pastedNumber.error.code, 'raw_id');
  });
});

describe('todo list: one table, a bigint identity key, user_id without a default, own rows only', () => {
  let app;
  let ada;
  before(async () => {
    app = await appUnderTest('todo-list');
    ada = await app.actAs('ada@example.com', 'ada-password');
  }, BOUNDED);
  after(() => app?.stop());

  test('"add buy milk, eggs and bread", "tick off the milk", "what is left?"', BOUNDED, async () => {
    const { act, user } = ada;
    assert.equal(tableOf(app.domain, 'todos').owner, 'user_id');
    const tag = process.pid.toString(36);
    const created = ok(await act.execute('db_create', { table: 'todos', data: ['milk', 'eggs', 'bread'].map((item) => ({ task: `buy ${item} ${tag}` })) }));
    assert.equal(created.data.length, 3);
    const rows = await app.db(`/todos?task=like.*${tag}&select=task,user_id,is_complete&order=id`);
    assert.deepEqual(rows.map((r) => [r.task, r.user_id]), ['milk', 'eggs', 'bread'].map((item) => [`buy ${item} ${tag}`, user.id]));
    const milk = created.data.find((t) => t.task.startsWith('buy milk'));
    ok(await act.execute('db_update', { table: 'todos', filters: [where('id', '=', milk.id)], data: { is_complete: true } }));
    const left = ok(await act.execute('db_read', { table: 'todos', filters: [where('task', 'ilike', `%${tag}`), where('is_complete', '=', false)] }));
    assert.deepEqual(left.data.map((t) => t.task).sort(), [`buy bread ${tag}`, `buy eggs ${tag}`]);
    assert.deepEqual((await app.db(`/todos?task=like.buy%20milk%20${tag}&select=is_complete`)), [{ is_complete: true }]);
  });

  test('Ben sees none of Ada\'s todos, and cannot change them', BOUNDED, async () => {
    const ben = await app.actAs('ben@example.com', 'ben-password');
    const adas = await app.db(`/todos?user_id=eq.${ada.user.id}&select=id`);
    assert.ok(adas.length > 0);
    const read = ok(await ben.act.execute('db_read', { table: 'todos' }));
    assert.ok(read.data.every((t) => t.user_id === 'me'));
    const cleared = ok(await ben.act.execute('db_update', { table: 'todos', filters: [where('is_complete', '=', false)], data: { is_complete: true } }));
    assert.ok(cleared.data.every((t) => t.user_id === 'me'));
    assert.equal((await app.db(`/todos?user_id=eq.${ada.user.id}&is_complete=eq.false&select=id`)).length > 0, true);
  });
});

describe('user management: a profiles table keyed by auth.users, readable by everyone, written by its owner', () => {
  let app;
  let ada;
  before(async () => {
    app = await appUnderTest('user-management');
    ada = await app.actAs('ada@example.com', 'ada-password');
  }, BOUNDED);
  after(() => app?.stop());

  test('"set my website": the update finds the user\'s own row through me', BOUNDED, async () => {
    const { act, user } = ada;
    assert.equal(tableOf(app.domain, 'profiles').owner, 'id');
    const website = `https://ada.example.com/${process.pid}`;
    const updated = ok(await act.execute('db_update', { table: 'profiles', filters: [where('id', '=', 'me')], data: { website } }));
    assert.deepEqual(updated.data.map((p) => [p.id, p.website]), [['me', website]]);
    assert.deepEqual(await app.db(`/profiles?id=eq.${user.id}&select=website`), [{ website }]);
  });

  test('"who else is here?": other people\'s profiles as refs, the user\'s own as me', BOUNDED, async () => {
    const { act } = ada;
    const everyone = ok(await act.execute('db_read', { table: 'profiles' }));
    const truth = await app.db('/profiles?select=id');
    assert.equal(everyone.data.length, truth.length);
    assert.equal(everyone.data.filter((p) => p.id === 'me').length, 1);
    assert.ok(everyone.data.filter((p) => p.id !== 'me').every((p) => /^profile_\d+$/.test(p.id)));
  });

  test('"delete my profile": the app\'s policies let a user create and update a profile, not delete it, so db_delete does not offer profiles and a call is refused unsent; the row stays', BOUNDED, async () => {
    const { act, user } = ada;
    assert.deepEqual(tableOf(app.domain, 'profiles').writable, ['create', 'update']);
    assert.match(app.notes.find((note) => note.path === 'tables.profiles.writable').message, /^create and update only: no row-level security policy lets a signed-in user delete its rows/);
    const offered = Object.fromEntries(act.tools().map((tool) => [tool.name, tool.parameters.properties?.table?.enum ?? null]));
    assert.ok(offered.db_update.includes('profiles'));
    assert.equal(offered.db_delete, undefined, 'no table of this app takes a delete: the tool is not offered');
    assert.match(act.tools().find((tool) => tool.name === 'db_read').description, /- profiles \(profile_N, no delete\)/);
    const refused = await act.execute('db_delete', { table: 'profiles', filters: [where('id', '=', 'me')] });
    assert.equal(refused.error?.code, 'read_only_table');
    assert.equal(refused.error.message, 'profiles takes no delete here; db_delete is not allowed on it');
    assert.equal((await app.db(`/profiles?id=eq.${user.id}&select=id`)).length, 1);
  });
});

describe('subscription payments: text keys (Stripe ids), a text foreign key, public catalogs, a users table keyed by auth.users', () => {
  let app;
  let ada;
  before(async () => {
    app = await appUnderTest('subscription-payments');
    ada = await app.actAs('ada@example.com', 'ada-password');
  }, BOUNDED);
  after(() => app?.stop());

  test('"which plans are there, and what do they cost?": products by text key, prices linked by a text foreign key', BOUNDED, async () => {
    const { act } = ada;
    assert.equal(tableOf(app.domain, 'prices').columns.product_id.references, 'products');
    const products = ok(await act.execute('db_read', { table: 'products', filters: [where('active', '=', true)] }));
    const truth = await app.db('/products?active=eq.true&select=id');
    assert.equal(products.data.length, truth.length);
    assert.ok(products.data.length > 0);
    const [first] = products.data;
    assert.match(first.id, /^product_\d+$/);
    const prices = ok(await act.execute('db_read', { table: 'prices', filters: [where('product_id', '=', first.id)] }));
    const rawFirst = (await app.db(`/products?active=eq.true&select=id&order=id`)).map((p) => p.id);
    assert.ok(prices.data.every((p) => p.product_id === first.id));
    const priceTruth = await app.db(`/prices?product_id=in.(${rawFirst.join(',')})&select=id,product_id`);
    assert.ok(priceTruth.some((p) => prices.data.length === priceTruth.filter((q) => q.product_id === p.product_id).length));
  });

  test('"change my name": the users row found by me, updated, read back', BOUNDED, async () => {
    const { act, user } = ada;
    const full_name = `Ada Lovelace ${process.pid}`;
    const updated = ok(await act.execute('db_update', { table: 'users', filters: [where('id', '=', 'me')], data: { full_name } }));
    assert.equal(updated.count, 1);
    assert.deepEqual(await app.db(`/users?id=eq.${user.id}&select=full_name`), [{ full_name }]);
  });
});

describe('tables as Supabase Studio creates them: identity keys, created_at default now(), user_id default auth.uid()', () => {
  let app;
  let ada;
  let ben;
  before(async () => {
    app = await appUnderTest('studio');
    ada = await app.actAs('ada@example.com', 'ada-password');
    ben = await app.actAs('ben@example.com', 'ben-password');
  }, BOUNDED);
  after(() => app?.stop());

  test('"note to self: buy stamps" as Ada; Ben comments on Ada\'s public note; each row read back', BOUNDED, async () => {
    assert.equal(tableOf(app.domain, 'notes').owner, 'user_id');
    assert.equal(tableOf(app.domain, 'comments').owner, 'author_id');
    const title = `buy stamps ${process.pid}`;
    const note = ok(await ada.act.execute('db_create', { table: 'notes', data: { title, is_public: true } }));
    assert.equal(note.data.user_id, 'me');
    const [row] = await app.db(`/notes?title=eq.${encodeURIComponent(title)}&select=id,user_id,is_public`);
    assert.deepEqual([row.user_id, row.is_public], [ada.user.id, true]);
    // Ben finds Ada's public note by its title and comments on it.
    const found = ok(await ben.act.execute('db_read', { table: 'notes', filters: [where('title', '=', 'stamps')] }));
    const shared = found.data.find((n) => n.title === title);
    assert.ok(shared, 'a public note of Ada is readable by Ben');
    assert.match(shared.user_id, /^user_\d+$/, "another user's id is a user's ref");
    // "What else has she shared?": her notes by that ref, the public ones only (RLS).
    const hers = ok(await ben.act.execute('db_read', { table: 'notes', filters: [where('user_id', '=', shared.user_id)] }));
    assert.ok(hers.data.length >= 1 && hers.data.every((n) => n.user_id === shared.user_id && n.is_public === true), JSON.stringify(hers.data));
    const comment = ok(await ben.act.execute('db_create', { table: 'comments', data: { note_id: shared.id, body: 'first!' } }));
    assert.deepEqual([comment.data.note_id, comment.data.author_id], [shared.id, 'me']);
    assert.deepEqual(await app.db(`/comments?note_id=eq.${row.id}&select=body,author_id`), [{ body: 'first!', author_id: ben.user.id }]);
  });
});
