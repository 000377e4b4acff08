// The worker's limits and configuration as units, in Node, on a clock the
// test moves: the in-memory store (web/src/worker/limit-store.js), turn admission
// and the model budget (web/src/worker/limits.js, with the real driver against
// the scripted model server), and how config.js reads the auth and limit
// variables. tests/js/worker-auth.test.mjs runs the same code in workerd and Deno.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createChatModel } from 'alfred-act';
import { configOf, readConfig } from '../../web/src/worker/config.js';
import { MemoryLimitStore } from '../../web/src/worker/limit-store.js';
import { admitRequest, admitTurn, budgetedModel, retryAfterSeconds } from '../../web/src/worker/limits.js';
import { TURN_STATE_LIMITS, readTurnRequest } from '../../web/src/worker/turn.js';
import { createTurnState } from '../../web/src/loop/state.js';
import { WORKER_VARIABLES } from '../../web/src/worker/variables.js';
import { anonKey, newJwtSecret } from '../../db/jwt.mjs';
import { startScriptedModel } from './support/scripted-model.mjs';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const T0 = 1_800_000_000_000;
const LIMITS = { turnsPerMinute: 2, concurrentTurns: 1, modelCallsPerTurn: 3, tokensPerTurn: 250, modelCallsPerDay: 5, tokensPerDay: 400, requestsPerMinute: 3, concurrentRequests: 2 };

test('the configuration is read once per env object while its variables stay the same, and frozen', () => {
  const env = { SUPABASE_URL: 'https://project.supabase.co', SUPABASE_ANON_KEY: 'anon', SUPABASE_JWT_SECRET: 'x'.repeat(32), ALFRED_TURNS_PER_MINUTE: '3' };
  const first = configOf(env);
  assert.equal(first.error, null);
  assert.deepEqual(first, readConfig(env));
  assert.equal(configOf(env), first);
  assert.ok(Object.isFrozen(first.data.limits) && Object.isFrozen(first.data.auth));
  assert.throws(() => {
    first.data.limits.turnsPerMinute = 1000;
  }, TypeError);
  // A changed variable is read again, an error included.
  env.ALFRED_TURNS_PER_MINUTE = '5';
  assert.equal(configOf(env).data.limits.turnsPerMinute, 5);
  env.ALFRED_TURNS_PER_MINUTE = 'many';
  assert.equal(configOf(env).error.code, 'worker_misconfigured');
  delete env.ALFRED_TURNS_PER_MINUTE;
  assert.equal(configOf(env).data.limits.turnsPerMinute, 10);
  // Another object with the same variables is its own entry.
  assert.notEqual(configOf({ ...env }), configOf(env));
});

describe('MemoryLimitStore', () => {
  test('take: a window opens at the first counted use and lasts windowMs; a refused take adds nothing', () => {
    const store = new MemoryLimitStore();
    const take = (now, amount = 1) => store.take('k', { amount, limit: 2, windowMs: MINUTE, now });
    assert.deepEqual(take(T0), { allowed: true, used: 1, retryAfterMs: MINUTE });
    assert.deepEqual(take(T0 + 10_000), { allowed: true, used: 2, retryAfterMs: 50_000 });
    assert.deepEqual(take(T0 + 20_000), { allowed: false, used: 2, retryAfterMs: 40_000 });
    assert.deepEqual(take(T0 + MINUTE), { allowed: true, used: 1, retryAfterMs: MINUTE }, 'a new window');
    assert.deepEqual(store.take('other', { amount: 1, limit: 2, windowMs: MINUTE, now: T0 }), { allowed: true, used: 1, retryAfterMs: MINUTE }, 'per key');
  });

  test('take: amount 0 reads without opening a window; force counts past the limit', () => {
    const store = new MemoryLimitStore();
    assert.deepEqual(store.take('t', { amount: 0, limit: 10, windowMs: DAY, now: T0 }), { allowed: true, used: 0, retryAfterMs: DAY });
    assert.deepEqual(store.take('t', { amount: 7, limit: 10, windowMs: DAY, now: T0 + 5_000 }), { allowed: true, used: 7, retryAfterMs: DAY });
    assert.deepEqual(store.take('t', { amount: 8, limit: 10, windowMs: DAY, now: T0 + 6_000 }), { allowed: false, used: 7, retryAfterMs: DAY - 1_000 });
    assert.deepEqual(store.take('t', { amount: 8, limit: 10, windowMs: DAY, now: T0 + 6_000, force: true }), { allowed: true, used: 15, retryAfterMs: DAY - 1_000 });
  });

  test('acquire/release: a slot per running turn; a lease never released frees itself after leaseMs', () => {
    const store = new MemoryLimitStore();
    const acquire = (now) => store.acquire('r', { limit: 2, leaseMs: MINUTE, now });
    const first = acquire(T0);
    const second = acquire(T0 + 1_000);
    assert.ok(first.allowed && second.allowed && first.lease !== second.lease);
    assert.deepEqual(acquire(T0 + 2_000), { allowed: false, lease: null, retryAfterMs: 58_000 });
    store.release('r', first.lease);
    assert.equal(acquire(T0 + 3_000).allowed, true);
    assert.equal(acquire(T0 + 4_000).allowed, false);
    // The second and third leases expire; nobody released them.
    assert.equal(acquire(T0 + 1_000 + MINUTE).allowed, true);
    store.release('r', 'no-such-lease');
    store.release('unknown-key', '1');
  });
});

describe('admitTurn', () => {
  test('turns per minute, running turns, and a spent day budget: 429s with Retry-After, per user', async () => {
    const store = new MemoryLimitStore();
    const admit = (userId, now) => admitTurn({ store, limits: LIMITS, userId, now });
    const first = await admit('ada', T0);
    assert.equal(first.error, null);
    const busy = await admit('ada', T0 + 1_000);
    assert.deepEqual([busy.error.status, busy.error.code, busy.error.retryAfterMs], [429, 'too_many_concurrent_turns', 5_000]);
    assert.equal((await admit('ben', T0 + 1_000)).error, null, 'another user');
    await first.data.release();
    const second = await admit('ada', T0 + 2_000);
    await second.data.release();
    const third = await admit('ada', T0 + 3_000);
    assert.deepEqual([third.error.code, third.error.retryAfterMs], ['too_many_turns', MINUTE - 3_000]);
    assert.match(third.error.hint, /retry after 57 s/);
    // The refused turn gave its running slot back: after the minute, ada is admitted.
    assert.equal((await admit('ada', T0 + MINUTE)).error, null);
  });

  test('a spent day budget refuses before a slot or a minute slot is taken', async () => {
    const store = new MemoryLimitStore();
    store.take('model-calls:ada', { amount: LIMITS.modelCallsPerDay, limit: LIMITS.modelCallsPerDay, windowMs: DAY, now: T0 });
    const refused = await admitTurn({ store, limits: LIMITS, userId: 'ada', now: T0 + 1_000 });
    assert.deepEqual([refused.error.code, refused.error.retryAfterMs], ['daily_model_calls_exhausted', DAY - 1_000]);
    assert.equal(store.acquire('running:ada', { limit: 1, leaseMs: MINUTE, now: T0 + 1_000 }).allowed, true, 'no slot was held');
    assert.equal(store.take('turns:ada', { amount: 0, limit: 2, windowMs: MINUTE, now: T0 + 1_000 }).used, 0, 'no turn was counted');
    store.take('tokens:ben', { amount: 400, limit: 400, windowMs: DAY, now: T0 });
    assert.equal((await admitTurn({ store, limits: LIMITS, userId: 'ben', now: T0 })).error.code, 'daily_tokens_exhausted');
  });

  test('Retry-After is whole seconds, at least 1', () => {
    assert.deepEqual([0, 1, 999, 1_000, 1_001, 57_000].map(retryAfterSeconds), [1, 1, 1, 1, 2, 57]);
  });
});

describe('admitRequest (/act/execute and /mcp)', () => {
  test('requests at once and a minute, per user: 429s with Retry-After; a refused request gives its slot back', async () => {
    const store = new MemoryLimitStore();
    const admit = (userId, now) => admitRequest({ store, limits: LIMITS, userId, now });
    const first = await admit('ada', T0);
    const second = await admit('ada', T0 + 100);
    assert.equal(first.error, null);
    assert.equal(second.error, null);
    const busy = await admit('ada', T0 + 200);
    assert.deepEqual([busy.error.status, busy.error.code, busy.error.retryAfterMs], [429, 'too_many_concurrent_requests', 5_000]);
    assert.equal((await admit('ben', T0 + 200)).error, null, 'another user');
    await first.data.release();
    await second.data.release();
    const third = await admit('ada', T0 + 300);
    await third.data.release();
    const fourth = await admit('ada', T0 + 400);
    assert.deepEqual([fourth.error.code, fourth.error.retryAfterMs], ['too_many_requests', MINUTE - 400]);
    assert.match(fourth.error.message, /more than 3 requests a minute/);
    // The refused request holds no slot: two run at once again after the minute.
    assert.equal((await admit('ada', T0 + MINUTE)).error, null);
    assert.equal((await admit('ada', T0 + MINUTE + 1)).error, null);
  });
});

describe('the turn state a client sends back (/act/turn)', () => {
  const stateWith = (change) => ({ ...createTurnState(), ...change });
  const refusal = (state) => readTurnRequest({ message: 'hello', state }).error;

  test('a state the worker returned passes; one past the limits is a 400 turn_state_too_large before anything is spent', () => {
    const message = (turn, content = 'fine') => ({ role: 'user', content, turn });
    assert.equal(refusal(stateWith({ conversation: Array.from({ length: 12 }, (_, i) => message(i)) })), null);
    const cases = [
      [{ conversation: Array.from({ length: 13 }, (_, i) => message(i)) }, 'state.conversation', /13 messages; a turn keeps at most 12/],
      [{ recentTurns: [{ turn: 1, steps: [] }, { turn: 2, steps: [] }, { turn: 3, steps: [] }] }, 'state.recentTurns', /3 turns; a turn keeps at most 2/],
      [{ conversation: [message(1, 'x'.repeat(TURN_STATE_LIMITS.messageChars + 1))] }, 'state.conversation[0].content', /16001 characters; at most 16000/],
      [{ conversation: [{ role: 'user', content: { text: 'not text' }, turn: 1 }] }, 'state.conversation[0].content', /must be text/],
      [{ recentTurns: [{ turn: 1, steps: [{ result: 'y'.repeat(TURN_STATE_LIMITS.chars) }] }] }, 'state', /at most 200000/],
    ];
    for (const [change, path, message] of cases) {
      const error = refusal(stateWith(change));
      assert.deepEqual([error?.status, error?.code, error?.path], [400, 'turn_state_too_large', path], path);
      assert.match(error.message, message);
    }
  });
});

describe('budgetedModel (the real driver, the scripted model server)', () => {
  let server;
  const queue = [];
  before(async () => {
    server = await startScriptedModel(Array.from({ length: 200 }, () => () => queue.shift() ?? { status: 500, body: { error: { message: 'nothing queued' } } }));
  });
  after(() => server?.stop());
  const driver = () => createChatModel({ baseUrl: server.baseUrl, model: 'scripted', maxRetries: 0 });
  const ask = (model) => model.complete({ messages: [{ role: 'user', content: 'hello' }] });
  const refusal = async (promise, code) => {
    await assert.rejects(promise, (error) => error.name === 'LlmError' && error.code === code);
  };

  test('model calls per turn: the call past the budget throws and never reaches the server', async () => {
    const store = new MemoryLimitStore();
    const model = budgetedModel(driver(), { store, limits: { ...LIMITS, modelCallsPerDay: 100, tokensPerDay: 10_000, tokensPerTurn: 10_000 }, userId: 'ada' });
    queue.push('a', 'b', 'c', 'd');
    const start = server.requests.length;
    for (const expected of ['a', 'b', 'c']) assert.equal((await ask(model)).content, expected);
    await refusal(ask(model), 'turn_model_calls_exceeded');
    assert.equal(server.requests.length - start, 3);
    assert.deepEqual(model.usage, { calls: 3, tokens: 303 });
    queue.length = 0;
  });

  test('tokens per turn and per day come from usage; the day budget is shared by the user\'s turns', async () => {
    const store = new MemoryLimitStore();
    const limits = { ...LIMITS, modelCallsPerTurn: 10, modelCallsPerDay: 100, tokensPerDay: 300 };
    const turn1 = budgetedModel(driver(), { store, limits, userId: 'ada' });
    queue.push('x'.repeat(400), 'never');
    await ask(turn1); // 100 prompt + 100 completion tokens
    await ask(turn1); // starts at 200 < 250, ends at 302
    await refusal(ask(turn1), 'turn_tokens_exceeded');
    const turn2 = budgetedModel(driver(), { store, limits, userId: 'ada' });
    await refusal(ask(turn2), 'daily_tokens_exhausted');
    assert.equal(store.take('tokens:ada', { amount: 0, limit: 300, windowMs: DAY, now: Date.now() }).used, 302);
    const ben = budgetedModel(driver(), { store, limits, userId: 'ben' });
    queue.push('ok');
    assert.equal((await ask(ben)).content, 'ok');
  });

  test('model calls per day: counted across turns, refused at the limit', async () => {
    const store = new MemoryLimitStore();
    const limits = { ...LIMITS, modelCallsPerDay: 2, tokensPerDay: 10_000 };
    queue.push('1', '2', '3');
    await ask(budgetedModel(driver(), { store, limits, userId: 'ada' }));
    const second = budgetedModel(driver(), { store, limits, userId: 'ada' });
    await ask(second);
    await refusal(ask(second), 'daily_model_calls_exhausted');
    queue.length = 0;
  });

  test('no usage in the answer: tokens are estimated at one per 4 characters sent and received', async () => {
    const store = new MemoryLimitStore();
    const model = budgetedModel(driver(), { store, limits: { ...LIMITS, tokensPerTurn: 10_000 }, userId: 'ada' });
    const body = { id: 'x', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'y'.repeat(80) }, finish_reason: 'stop' }] };
    queue.push({ status: 200, body });
    await ask(model);
    const sent = JSON.stringify([{ role: 'user', content: 'hello' }]).length;
    assert.equal(model.usage.tokens, Math.ceil((sent + 80) / 4));
  });

  test("a call whose estimated prompt does not fit what is left of the turn's tokens is refused before it is sent", async () => {
    const store = new MemoryLimitStore();
    const model = budgetedModel(driver(), { store, limits: { ...LIMITS, tokensPerTurn: 1_000, tokensPerDay: 100_000, modelCallsPerDay: 100 }, userId: 'ada' });
    const start = server.requests.length;
    // About 1,000 tokens of prompt (4,000 characters) against 1,000 tokens for the whole turn.
    await refusal(model.complete({ messages: [{ role: 'user', content: 'x'.repeat(4_000) }] }), 'turn_tokens_exceeded');
    assert.equal(server.requests.length, start, 'nothing was sent');
    assert.deepEqual(model.usage, { calls: 0, tokens: 0 });
    queue.push('small');
    assert.equal((await ask(model)).content, 'small', 'a call that fits still runs');
  });

  test('an aborted signal stops the next call before it is sent', async () => {
    const controller = new AbortController();
    const model = budgetedModel(driver(), { store: new MemoryLimitStore(), limits: LIMITS, userId: 'ada', signal: controller.signal });
    controller.abort();
    const start = server.requests.length;
    await refusal(ask(model), 'aborted');
    assert.equal(server.requests.length, start);
  });
});

describe('readConfig: auth and limits', () => {
  const secret = newJwtSecret();
  const base = { SUPABASE_REST_URL: 'http://127.0.0.1:3000', SUPABASE_ANON_KEY: anonKey(secret) };
  const config = (env) => readConfig({ ...base, ...env });

  test('a PostgREST root: no JWK set unless SUPABASE_JWKS_URL is given; no secret either means auth is null', () => {
    assert.equal(config({}).data.auth, null);
    const { auth } = config({ SUPABASE_JWT_SECRET: secret }).data;
    assert.deepEqual(auth, { jwtSecret: secret, jwksUrl: undefined, audience: 'authenticated', issuer: undefined, clockSkewSeconds: 30, jwksCacheSeconds: 600, jwksRefetchSeconds: 30 });
    assert.equal(config({ SUPABASE_JWKS_URL: 'http://127.0.0.1:9999/jwks.json' }).data.auth.jwksUrl, 'http://127.0.0.1:9999/jwks.json');
  });

  test('a Supabase project URL: the project JWK set by default; off turns it off', () => {
    const project = { SUPABASE_REST_URL: undefined, SUPABASE_URL: 'https://abcd.supabase.co' };
    assert.equal(config(project).data.auth.jwksUrl, 'https://abcd.supabase.co/auth/v1/.well-known/jwks.json');
    assert.equal(config({ ...project, SUPABASE_JWKS_URL: 'off' }).data.auth, null);
    const tuned = config({ ...project, SUPABASE_JWT_AUDIENCE: 'app', SUPABASE_JWT_ISSUER: 'https://abcd.supabase.co/auth/v1', ALFRED_JWT_CLOCK_SKEW_SECONDS: '5', ALFRED_JWKS_CACHE_SECONDS: '60', ALFRED_JWKS_REFETCH_SECONDS: '0' }).data.auth;
    assert.deepEqual([tuned.audience, tuned.issuer, tuned.clockSkewSeconds, tuned.jwksCacheSeconds, tuned.jwksRefetchSeconds], ['app', 'https://abcd.supabase.co/auth/v1', 5, 60, 0]);
  });

  test('limits: defaults, numbers, unlimited; anything else is a 500 worker_misconfigured naming the variable', () => {
    assert.deepEqual(config({}).data.limits, { turnsPerMinute: 10, concurrentTurns: 2, modelCallsPerTurn: 20, tokensPerTurn: 200_000, modelCallsPerDay: 500, tokensPerDay: 2_000_000, requestsPerMinute: 120, concurrentRequests: 4 });
    const set = config({ ALFRED_TURNS_PER_MINUTE: '3', ALFRED_TOKENS_PER_DAY: 'unlimited' }).data.limits;
    assert.deepEqual([set.turnsPerMinute, set.tokensPerDay], [3, Number.MAX_SAFE_INTEGER]);
    for (const [name, value] of [['ALFRED_TURNS_PER_MINUTE', '0'], ['ALFRED_CONCURRENT_TURNS', '-1'], ['ALFRED_MODEL_CALLS_PER_TURN', '2.5'], ['ALFRED_TOKENS_PER_TURN', 'lots'], ['ALFRED_MODEL_CALLS_PER_DAY', '']]) {
      const { error } = config({ [name]: value });
      assert.equal(error?.code, 'worker_misconfigured', `${name}=${value}`);
      assert.match(error.message, new RegExp(name));
    }
    for (const [name, value] of [['SUPABASE_JWT_SECRET', 'short'], ['SUPABASE_JWKS_URL', 'not a url'], ['ALFRED_JWT_CLOCK_SKEW_SECONDS', '-5'], ['ALFRED_JWKS_CACHE_SECONDS', 'soon']]) {
      const { error } = config({ [name]: value });
      assert.equal(error?.code, 'worker_misconfigured', `${name}=${value}`);
      assert.match(error.message, new RegExp(name));
    }
  });

  test('the write policy, the state secret and the authorization server from the variables', () => {
    assert.deepEqual(config({}).data.policy, {});
    assert.deepEqual(config({ ALFRED_READ_ONLY: 'yes', ALFRED_TABLES: 'deals, tasks', ALFRED_APPROVE: 'writes', ALFRED_MAX_AFFECTED: '10', ALFRED_CONFIRM: 'true' }).data.policy, {
      readOnly: true,
      tables: ['deals', 'tasks'],
      approve: 'writes',
      maxAffected: 10,
      confirm: true,
    });
    assert.deepEqual(config({ ALFRED_APPROVE: 'none', ALFRED_CONFIRM: 'false' }).data.policy, { approve: 'none', confirm: false });
    // Writes unasked, and writes asked about: a misconfiguration, named, like any bad variable.
    assert.equal(config({ ALFRED_APPROVE: 'writes', ALFRED_CONFIRM: 'false' }).error.message, 'ALFRED_CONFIRM=false runs writes without asking, and ALFRED_APPROVE=writes asks before some: give one of them');
    assert.equal(config({}).data.stateSecret, null);
    assert.deepEqual(config({ SUPABASE_JWT_SECRET: secret }).data.stateSecret, { derivedFrom: secret });
    assert.equal(config({ SUPABASE_JWT_SECRET: secret, ALFRED_STATE_SECRET: 's'.repeat(32) }).data.stateSecret, 's'.repeat(32));
    assert.equal(config({}).data.authorizationServer, null);
    assert.equal(config({ SUPABASE_REST_URL: undefined, SUPABASE_URL: 'https://abcd.supabase.co/' }).data.authorizationServer, 'https://abcd.supabase.co/auth/v1');
    assert.equal(config({ ALFRED_AUTHORIZATION_SERVER: 'https://auth.example.com' }).data.authorizationServer, 'https://auth.example.com');
    // ALFRED_MAX_AFFECTED=0 is no limit, as maxAffected: 0 (docs/safety-controls.md).
    assert.deepEqual(config({ ALFRED_MAX_AFFECTED: '0' }).data.policy, { maxAffected: 0 });
    for (const [name, value] of [['ALFRED_READ_ONLY', 'maybe'], ['ALFRED_APPROVE', 'all'], ['ALFRED_MAX_AFFECTED', '-1'], ['ALFRED_CONFIRM', '2'], ['ALFRED_STATE_SECRET', 'short'], ['ALFRED_AUTHORIZATION_SERVER', 'not a url'], ['ALFRED_REQUESTS_PER_MINUTE', '0']]) {
      const { error } = config({ [name]: value });
      assert.equal(error?.code, 'worker_misconfigured', `${name}=${value}`);
      assert.match(error.message, new RegExp(name));
    }
  });

  // configOf keeps a configuration while these variables keep their values:
  // a variable read but missing from the list would leave it stale.
  test('every variable the configuration reads (config.js, policy.js, the policy table, llm/index.js) is in WORKER_VARIABLES (the list configOf, deno.js and scripts/serve-worker.mjs use)', async () => {
    const { readFile } = await import('node:fs/promises');
    const files = ['worker/config.js', 'worker/policy.js', 'policy/options.js', 'llm/index.js'];
    const source = (await Promise.all(files.map((file) => readFile(new URL(`../../web/src/${file}`, import.meta.url), 'utf8')))).join('\n');
    const read = new Set([...source.matchAll(/\b((?:SUPABASE|ALFRED|OPENAI|ALLOWED|MAX_BODY)_[A-Z_]+)\b/g)].map(([, name]) => name));
    for (const name of read) assert.ok(WORKER_VARIABLES.includes(name), `${name} is missing from web/src/worker/variables.js`);
    assert.ok(read.has('ALFRED_TOKENS_PER_DAY') && read.has('SUPABASE_JWKS_URL') && read.has('ALFRED_LLM_MODEL'));
  });
});
