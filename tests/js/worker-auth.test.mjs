// Who may make the edge worker spend: every bearer token verified in the
// worker (web/src/worker/auth.js, web/src/jwt-verify.js) and the per-user limits
// on /act/turn (web/src/worker/limits.js), in workerd and in Deno.
//
// Real parts: the local stack (PGlite + PostgREST 12) configured with the
// same HS256 secret and with a JWK set of ES256/RS256 keys generated here; a
// JWKS endpoint on 127.0.0.1 the worker fetches the keys from; the scripted
// OpenAI-compatible model server; and a recording proxy in front of
// PostgREST, so that "the database received nothing" is observed, not assumed.
//
// PostgREST reads its key set once at start, so it trusts every key the test
// uses throughout; the rotation under test is the worker's (its JWKS cache).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createPublicKey, randomUUID } from 'node:crypto';
import { signJwt, signJwtWithKey, signingKey } from '../../db/jwt.mjs';
import { freePort } from '../../db/ports.mjs';
import { startStack } from '../../db/local-stack.mjs';
import { startDeno, startWorkerd } from '../../scripts/serve-worker.mjs';
import { stepComplete, toolCall, where } from './support/decisions.mjs';
import { startJwksServer } from './support/jwks-server.mjs';
import { startRecordingProxy } from './support/recording-proxy.mjs';
import { startScriptedModel } from './support/scripted-model.mjs';
import { rest } from './support/stack.mjs';
import { post, turn } from './support/worker-client.mjs';

const REFETCH_SECONDS = 1;
// The limits of the main workers; every limit test uses users of its own.
const LIMITS = {
  ALFRED_TURNS_PER_MINUTE: '3',
  ALFRED_CONCURRENT_TURNS: '1',
  ALFRED_MODEL_CALLS_PER_TURN: '3',
  // Room for one real prompt (about 4,000 tokens, estimated before each call is sent).
  ALFRED_TOKENS_PER_TURN: '6000',
  ALFRED_MODEL_CALLS_PER_DAY: '7',
  ALFRED_TOKENS_PER_DAY: '12000',
};

const ec = signingKey('ES256', { kid: 'ec-1' });
const rsa = signingKey('RS256', { kid: 'rsa-1' });
const ecNext = signingKey('ES256', { kid: 'ec-2' });
const attackerRsa = signingKey('RS256', { kid: 'rsa-1' }); // another key under a published kid
const outsider = signingKey('ES256', { kid: 'not-published' });

let stack;
let proxy;
let model;
const jwks = {};
const workers = {};

// The model answers each request from the queue of the turn it belongs to:
// every turn's message carries a tag ("[turn u-1] …") that reaches the
// prompts, so turns running at the same time cannot take each other's answers.
const answers = new Map();
const modelCalls = new Map();
const TAG = /\[turn ([\w-]+)\]/;
function routedAnswer(body) {
  const tag = TAG.exec(JSON.stringify(body?.messages ?? ''))?.[1];
  modelCalls.set(tag, (modelCalls.get(tag) ?? 0) + 1);
  return answers.get(tag)?.shift() ?? { status: 500, body: { error: { message: `no answer queued for turn ${tag}` } } };
}
/** A fresh tag with its answers queued; returns the tag. */
function script(...queued) {
  const tag = randomUUID().slice(0, 8);
  answers.set(tag, queued);
  return tag;
}
const callsOf = (tag) => modelCalls.get(tag) ?? 0;

before(async () => {
  stack = await startStack({ jwks: { keys: [ec.publicJwk, rsa.publicJwk, ecNext.publicJwk] } });
  proxy = await startRecordingProxy(stack.url);
  model = await startScriptedModel(Array.from({ length: 2_000 }, () => routedAnswer));
  [jwks.workerd, jwks.deno, jwks.fixed] = await Promise.all([0, 1, 2].map(() => startJwksServer([ec.publicJwk, rsa.publicJwk])));
  const closedPort = await freePort();
  const base = {
    SUPABASE_REST_URL: proxy.url,
    SUPABASE_ANON_KEY: stack.anonKey,
    OPENAI_BASE_URL: model.baseUrl,
    ALFRED_LLM_MODEL: 'scripted',
    ALFRED_JWKS_REFETCH_SECONDS: String(REFETCH_SECONDS),
  };
  const main = (runtime) => ({ ...base, ...LIMITS, SUPABASE_JWT_SECRET: stack.jwtSecret, SUPABASE_JWKS_URL: jwks[runtime].url });
  [workers.workerd, workers.deno, workers.jwksOnly, workers.jwksDown, workers.noAuth, workers.durable] = await Promise.all([
    startWorkerd({ env: main('workerd') }),
    startDeno({ env: main('deno') }),
    startWorkerd({ env: { ...base, SUPABASE_JWKS_URL: jwks.fixed.url } }),
    startDeno({ env: { ...base, SUPABASE_JWT_SECRET: stack.jwtSecret, SUPABASE_JWKS_URL: `http://127.0.0.1:${closedPort}/auth/v1/.well-known/jwks.json` } }),
    startDeno({ env: base }),
    // Two isolates counting in the same Durable Objects (worker/src/durable.js).
    startWorkerd({ env: { ...base, ...LIMITS, SUPABASE_JWT_SECRET: stack.jwtSecret }, durableLimits: true, instances: 2 }),
  ]);
});

after(async () => {
  await Promise.all(Object.values(workers).map((worker) => worker.stop()));
  await Promise.all(Object.values(jwks).map((server) => server.stop()));
  await model?.stop();
  await proxy?.stop();
  await stack?.stop();
});

const ada = () => stack.users[0];
const claimsFor = (sub, extra = {}) => ({ role: 'authenticated', aud: 'authenticated', sub, ...extra });
const hs256 = (sub = ada().id, extra) => signJwt(claimsFor(sub, extra), stack.jwtSecret);
const newUser = () => hs256(randomUUID());
const nowSeconds = () => Math.floor(Date.now() / 1000);
const b64 = (value) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const fridgeRead = { table: 'inventory', filters: [where('location', '=', 'fridge')], order_by: 'name', order_dir: 'asc' };
const execute = (worker, token) => post(worker, '/act/execute', { tool: 'db_read', params: fridgeRead }, { token });
const analyzeTurn = (worker, tag, token) => turn(worker, { message: `[turn ${tag}] think it over`, plan: [{ description: `Think it over [turn ${tag}]`, type: 'analyze' }] }, { token });

/** What the model and PostgREST have received so far, to compare after a refused request. */
const received = () => ({ model: model.requests.length, postgrest: proxy.requests.length });

/** A request that must be refused with `status` + `code` and reach neither the model nor PostgREST. */
async function assertRefused(send, status, code, label = code) {
  const before = received();
  const response = await send();
  assert.deepEqual([response.status, response.body?.error?.code], [status, code], `${label}: ${JSON.stringify(response.body)}`);
  assert.ok(response.body.error.message.length > 0, `${label}: a message`);
  assert.deepEqual(received(), before, `${label}: no model call, no PostgREST request`);
  return response;
}

test('the stack with a JWK set: PostgREST accepts ES256 and RS256 tokens from its keys and HS256 from its secret, and refuses another key', async () => {
  const truth = await rest(stack, ada().token, 'GET', '/recipes?select=name&order=name.asc');
  assert.equal(truth.status, 200);
  assert.ok(truth.body.length > 0);
  for (const key of [ec, rsa, ecNext]) {
    const { status, body } = await rest(stack, signJwtWithKey(claimsFor(ada().id), key), 'GET', '/recipes?select=name&order=name.asc');
    assert.deepEqual([status, body], [200, truth.body], key.kid);
  }
  const refused = await rest(stack, signJwtWithKey(claimsFor(ada().id), outsider), 'GET', '/recipes?select=name');
  assert.equal(refused.status, 401);
  assert.equal(refused.body.code, 'PGRST301');
});

for (const runtime of ['workerd', 'deno']) {
  describe(`in ${runtime}`, () => {
    const worker = () => workers[runtime];

    test('ES256, RS256 and HS256 tokens of the user read their rows; PostgREST receives the same bearer', async () => {
      const truth = await rest(stack, ada().token, 'GET', '/inventory?select=name&location=eq.fridge&order=name.asc');
      assert.ok(truth.body.length > 0);
      for (const token of [signJwtWithKey(claimsFor(ada().id), ec), signJwtWithKey(claimsFor(ada().id), rsa), hs256()]) {
        const start = proxy.requests.length;
        const { status, body } = await execute(worker(), token);
        assert.equal(status, 200);
        assert.equal(body.error, null);
        assert.deepEqual(body.data.map((row) => row.name), truth.body.map((row) => row.name));
        const sent = proxy.requests.slice(start);
        assert.ok(sent.length > 0);
        assert.ok(sent.every((request) => request.authorization === `Bearer ${token}`));
      }
    });

    test('a whole turn with an ES256 token: the read runs as the user', async () => {
      const tag = script(toolCall('db_read', fridgeRead), stepComplete('Read the fridge'), 'Eggs and more.');
      const token = signJwtWithKey(claimsFor(ada().id), ec);
      const { status, events } = await turn(worker(), { message: `[turn ${tag}] what is in my fridge?`, plan: [{ description: 'Read the fridge', type: 'read' }] }, { token });
      assert.equal(status, 200);
      const { result } = events.at(-1);
      assert.equal(result.status, 'done', JSON.stringify(result.error));
      assert.ok(result.steps[0].queries[0].data.length > 0);
      assert.equal(callsOf(tag), 3);
    });

    test('every forged or unusable token is a 401 with its code; neither the model nor PostgREST hears of it', async () => {
      // The key set is in the worker's cache from here on (the confusion case below needs it).
      assert.equal((await execute(worker(), signJwtWithKey(claimsFor(ada().id), rsa))).status, 200);
      const signed = hs256();
      const publicPem = createPublicKey(rsa.privateKey).export({ type: 'spki', format: 'pem' });
      const bens = signJwt(claimsFor(stack.users[1].id), stack.jwtSecret);
      const cases = [
        [null, 'missing_token'],
        ['garbage', 'malformed_token'],
        ['a.b.c', 'malformed_token'],
        [signed.split('.').slice(0, 2).join('.'), 'malformed_token', 'unsigned, signature part missing'],
        [`${signed.slice(0, signed.lastIndexOf('.'))}.`, 'invalid_signature', 'unsigned, empty signature'],
        [`${b64({ alg: 'none', typ: 'JWT' })}.${b64(claimsFor(ada().id, { exp: nowSeconds() + 600 }))}.`, 'algorithm_not_allowed', 'alg none'],
        [`${b64({ alg: 'NONE', typ: 'JWT' })}.${b64(claimsFor(ada().id, { exp: nowSeconds() + 600 }))}.c2ln`, 'algorithm_not_allowed', 'alg NONE'],
        [signJwt(claimsFor(ada().id), publicPem), 'invalid_signature', 'HS256 signed with the public key PEM'],
        [signJwt(claimsFor(ada().id), JSON.stringify(rsa.publicJwk), { header: { kid: 'rsa-1' } }), 'algorithm_not_allowed', 'HS256 signed with the public JWK, its kid'],
        [signJwtWithKey(claimsFor(ada().id), ec, { header: { kid: 'rsa-1' } }), 'algorithm_not_allowed', 'ES256 on the RSA key'],
        [signJwt(claimsFor(ada().id), 'another-secret-that-is-long-enough-for-hs256'), 'invalid_signature', 'HS256, wrong secret'],
        [signJwtWithKey(claimsFor(ada().id), attackerRsa), 'invalid_signature', 'RS256, wrong key under a published kid'],
        [signJwtWithKey(claimsFor(ada().id), outsider), 'unknown_key', 'ES256, unpublished key'],
        [hs256(ada().id, { exp: nowSeconds() - 3600 }), 'token_expired'],
        [signJwtWithKey(claimsFor(ada().id, { exp: nowSeconds() - 3600 }), ec), 'token_expired', 'ES256 expired'],
        [hs256(ada().id, { nbf: nowSeconds() + 3600 }), 'token_not_yet_valid'],
        [hs256(ada().id, { aud: 'another-app' }), 'invalid_audience'],
        [stack.serviceKey, 'service_key_refused'],
        [signJwtWithKey({ role: 'service_role', aud: 'authenticated', sub: ada().id }, ec), 'service_key_refused', 'ES256 service_role'],
        [stack.anonKey, 'not_a_user_token'],
        [signJwt(claimsFor(undefined), stack.jwtSecret), 'missing_subject'],
        [`${signed.slice(0, signed.lastIndexOf('.'))}.${bens.split('.')[2]}`, 'invalid_signature', "another token's valid signature"],
      ];
      for (const [token, code, label = code] of cases) {
        const tag = script(stepComplete('must not run'), 'must not run');
        await assertRefused(() => analyzeTurn(worker(), tag, token), 401, code, `/act/turn, ${label}`);
        await assertRefused(() => execute(worker(), token), 401, code, `/act/execute, ${label}`);
        assert.equal(callsOf(tag), 0);
      }
    });

    test('key rotation: a new kid is fetched and accepted; a retired key is refused once the set is fetched again', async () => {
      const server = jwks[runtime];
      const fetches = server.fetches;
      assert.equal((await execute(worker(), signJwtWithKey(claimsFor(ada().id), ec))).status, 200);
      assert.equal(server.fetches, fetches, 'the cached set is used');

      server.setKeys([ec.publicJwk, rsa.publicJwk, ecNext.publicJwk]);
      await sleep(REFETCH_SECONDS * 1000 + 100);
      const rotated = await execute(worker(), signJwtWithKey(claimsFor(ada().id), ecNext));
      assert.deepEqual([rotated.status, rotated.body.error], [200, null]);
      assert.equal(server.fetches, fetches + 1, 'one fetch for the new kid');

      server.setKeys([rsa.publicJwk, ecNext.publicJwk]);
      // Until the set is fetched again the worker still trusts ec-1 (as a
      // cache must); an unknown kid makes it fetch, and then ec-1 is gone.
      await sleep(REFETCH_SECONDS * 1000 + 100);
      await assertRefused(() => execute(worker(), signJwtWithKey(claimsFor(ada().id), outsider)), 401, 'unknown_key');
      assert.equal(server.fetches, fetches + 2);
      await assertRefused(() => execute(worker(), signJwtWithKey(claimsFor(ada().id), ec)), 401, 'unknown_key', 'retired key');
      assert.equal((await execute(worker(), signJwtWithKey(claimsFor(ada().id), ecNext))).status, 200);
      assert.equal(server.fetches, fetches + 2);
    });

    test('a flood of tokens with unknown kids cannot hammer the JWKS endpoint', async () => {
      const server = jwks[runtime];
      const fetches = server.fetches;
      const started = Date.now();
      const flood = Array.from({ length: 40 }, (_, i) => signJwtWithKey(claimsFor(ada().id), outsider, { header: { kid: `forged-${i}` } }));
      const before = received();
      const responses = await Promise.all(flood.map((token) => execute(worker(), token)));
      for (const response of responses) assert.deepEqual([response.status, response.body.error.code], [401, 'unknown_key']);
      for (const token of flood.slice(0, 10)) assert.equal((await execute(worker(), token)).status, 401);
      const elapsed = Date.now() - started;
      assert.deepEqual(received(), before);
      const allowed = 1 + Math.floor(elapsed / (REFETCH_SECONDS * 1000));
      assert.ok(server.fetches - fetches <= allowed, `${server.fetches - fetches} fetches for 50 unknown kids in ${elapsed} ms (at most ${allowed})`);
    });

    describe('per-user limits on /act/turn', () => {
      test('turns per minute: the 4th turn in a minute is a 429 with Retry-After; another user is not affected', async () => {
        const token = newUser();
        for (let i = 0; i < 3; i += 1) {
          const tag = script(stepComplete('Thought'), 'ok');
          const { status, events } = await analyzeTurn(worker(), tag, token);
          assert.equal(status, 200);
          assert.equal(events.at(-1).result.status, 'done');
        }
        const tag = script(stepComplete('Thought'), 'ok');
        const refused = await assertRefused(() => analyzeTurn(worker(), tag, token), 429, 'too_many_turns');
        const retryAfter = Number(refused.headers.get('retry-after'));
        assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
        assert.match(refused.body.error.hint, /retry after \d+ s/);
        const other = await analyzeTurn(worker(), tag, newUser());
        assert.deepEqual([other.status, other.events.at(-1).result.status], [200, 'done']);
        assert.equal(callsOf(tag), 2, 'only the other user\'s turn reached the model');
      });

      test('concurrent turns: a second turn while one runs is a 429; other users go on; the slot is free once the turn ends', async () => {
        const token = newUser();
        const slow = script({ delayMs: 2_000, then: stepComplete('Slow thought') }, 'ok');
        const running = fetch(`${worker().url}/act/turn`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ message: `[turn ${slow}] slow`, plan: [{ description: 'Think slowly', type: 'analyze' }] }),
        });
        const response = await running;
        assert.equal(response.status, 200);
        const reader = response.body.getReader();
        assert.match(new TextDecoder().decode((await reader.read()).value), /^event: turn_started/);
        while (callsOf(slow) === 0) await sleep(20); // its first model call is under way

        const second = script(stepComplete('Thought'), 'ok');
        const refused = await assertRefused(() => analyzeTurn(worker(), second, token), 429, 'too_many_concurrent_turns');
        assert.equal(refused.headers.get('retry-after'), '5');
        const other = await analyzeTurn(worker(), second, newUser());
        assert.equal(other.events.at(-1).result.status, 'done');

        while (!(await reader.read()).done);
        assert.equal(callsOf(slow), 2);
        const again = await analyzeTurn(worker(), script(stepComplete('Thought'), 'ok'), token);
        assert.equal(again.events.at(-1).result.status, 'done');
      });

      test('model calls per turn: the 4th call of a turn is refused before it reaches the model', async () => {
        const tag = script('x', 'x', 'x', 'x', 'x');
        const { status, events } = await analyzeTurn(worker(), tag, newUser());
        assert.equal(status, 200);
        const { result } = events.at(-1);
        assert.deepEqual([result.status, result.error.code], ['error', 'turn_model_calls_exceeded']);
        assert.equal(callsOf(tag), 3);
        assert.equal(events.filter((event) => event.type === 'retry').length, 3);
      });

      test('model calls per day: refused mid-turn at the 8th call, then a 429 before the next turn starts', async () => {
        const token = newUser();
        const tags = [script('x', 'x', 'x'), script('x', 'x', 'x'), script('x', 'x', 'x')];
        const codes = [];
        for (const tag of tags) codes.push((await analyzeTurn(worker(), tag, token)).events.at(-1).result.error.code);
        assert.deepEqual(codes, ['turn_model_calls_exceeded', 'turn_model_calls_exceeded', 'daily_model_calls_exhausted']);
        assert.deepEqual(tags.map(callsOf), [3, 3, 1]);
        const refused = await assertRefused(() => analyzeTurn(worker(), script('x'), token), 429, 'daily_model_calls_exhausted');
        const retryAfter = Number(refused.headers.get('retry-after'));
        assert.ok(retryAfter > 86_000 && retryAfter <= 86_400, `Retry-After ${retryAfter}`);
      });

      test('tokens per turn and per day: counted from the provider\'s usage; a spent day budget is a 429', async () => {
        // 24,000 characters of content: usage 100 prompt + 6,000 completion tokens.
        const long = 'y'.repeat(24_000);
        const token = newUser();
        const first = script(long, long);
        const { events } = await analyzeTurn(worker(), first, token);
        assert.equal(events.at(-1).result.error.code, 'turn_tokens_exceeded');
        assert.equal(callsOf(first), 1, 'the call that crossed the turn budget completed; the next did not start');
        const second = script(long, long);
        await analyzeTurn(worker(), second, token);
        assert.equal(callsOf(second), 1);
        await assertRefused(() => analyzeTurn(worker(), script(long), token), 429, 'daily_tokens_exhausted');
      });

      test('a client that disconnects stops the turn: no model call after the abort, and its slot is freed', async () => {
        const token = newUser();
        // The model would take 5 s; the worker's heartbeat (1 s) finds the hang-up well before.
        const tag = script({ delayMs: 5_000, then: toolCall('db_read', fridgeRead) }, stepComplete('late'), 'late');
        const controller = new AbortController();
        const response = await fetch(`${worker().url}/act/turn`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ message: `[turn ${tag}] slow`, plan: [{ description: 'Read the fridge', type: 'read' }] }),
          signal: controller.signal,
        });
        const reader = response.body.getReader();
        assert.match(new TextDecoder().decode((await reader.read()).value), /^event: turn_started/);
        const postgrest = proxy.requests.length;
        controller.abort();
        // The worker dropped the model call it was waiting on…
        await model.untilHungUp((request) => JSON.stringify(request.body).includes(`[turn ${tag}]`));
        // …and the turn has ended once the user's only running-turn slot is free again.
        const next = script(stepComplete('Thought'), 'ok');
        const deadline = Date.now() + 15_000;
        let admitted;
        while (!admitted) {
          const attempt = await analyzeTurn(worker(), next, token);
          if (attempt.status === 200) admitted = attempt;
          else assert.deepEqual([attempt.status, attempt.body.error.code], [429, 'too_many_concurrent_turns']);
          assert.ok(admitted || Date.now() < deadline, 'the cancelled turn still held its slot after 15 s');
          if (!admitted) await sleep(100);
        }
        assert.equal(admitted.events.at(-1).result.status, 'done');
        assert.equal(callsOf(tag), 1, 'no model call after the abort');
        assert.deepEqual(proxy.requests.slice(postgrest).filter((request) => request.path.startsWith('/inventory')), [], 'the tool call the model was about to make never ran');
      });
    });
  });
}

test('JWK set only (no secret): HS256 tokens are refused whoever signed them; ES256 works', async () => {
  const worker = workers.jwksOnly;
  await assertRefused(() => execute(worker, hs256()), 401, 'algorithm_not_allowed', 'HS256 with the real secret');
  await assertRefused(() => execute(worker, signJwt(claimsFor(ada().id), JSON.stringify(ec.publicJwk))), 401, 'algorithm_not_allowed', 'HS256 with the public key');
  const tag = script(stepComplete('must not run'));
  await assertRefused(() => analyzeTurn(worker, tag, hs256()), 401, 'algorithm_not_allowed');
  const { status, body } = await execute(worker, signJwtWithKey(claimsFor(ada().id), ec));
  assert.deepEqual([status, body.error], [200, null]);
});

test('JWK set unreachable: ES256 tokens get a 503 jwks_unavailable (nothing spent); HS256 tokens still work', async () => {
  const worker = workers.jwksDown;
  const refused = await assertRefused(() => execute(worker, signJwtWithKey(claimsFor(ada().id), ec)), 503, 'jwks_unavailable');
  assert.match(refused.body.error.message, /could not be fetched/);
  await assertRefused(() => analyzeTurn(worker, script(stepComplete('no')), signJwtWithKey(claimsFor(ada().id), ec)), 503, 'jwks_unavailable');
  assert.equal((await execute(worker, hs256())).status, 200);
});

test('neither a JWT secret nor a JWK set: /act/turn and /act/execute refuse to run (500 auth_not_configured); /health still answers', async () => {
  const worker = workers.noAuth;
  const health = await fetch(`${worker.url}/health`);
  assert.equal(health.status, 200);
  for (const token of [hs256(), signJwtWithKey(claimsFor(ada().id), ec), 'garbage', null]) {
    const refused = await assertRefused(() => execute(worker, token), 500, 'auth_not_configured');
    assert.match(refused.body.error.hint, /SUPABASE_JWT_SECRET/);
    await assertRefused(() => analyzeTurn(worker, script(stepComplete('no')), token), 500, 'auth_not_configured');
  }
});

test('limits in Durable Objects (worker/src/durable.js): two isolates share one count per user', async () => {
  const [first, second] = workers.durable.urls.map((url) => ({ url }));
  const token = newUser();
  for (const worker of [first, second, first]) {
    const { status, events } = await analyzeTurn(worker, script(stepComplete('Thought'), 'ok'), token);
    assert.deepEqual([status, events.at(-1).result.status], [200, 'done']);
  }
  await assertRefused(() => analyzeTurn(second, script(stepComplete('Thought'), 'ok'), token), 429, 'too_many_turns', 'the 4th turn, on the other isolate');
  assert.equal((await analyzeTurn(second, script(stepComplete('Thought'), 'ok'), newUser())).status, 200, 'another user');

  // A turn running on one isolate holds the user's only slot on the other too.
  const other = newUser();
  const slow = script({ delayMs: 1_500, then: stepComplete('Slow thought') }, 'ok');
  const running = analyzeTurn(first, slow, other);
  while (callsOf(slow) === 0) await sleep(20);
  await assertRefused(() => analyzeTurn(second, script(stepComplete('Thought'), 'ok'), other), 429, 'too_many_concurrent_turns');
  assert.equal((await running).events.at(-1).result.status, 'done');
  assert.equal((await analyzeTurn(second, script(stepComplete('Thought'), 'ok'), other)).events.at(-1).result.status, 'done', 'the slot was released');
});

test('model calls per day in Durable Objects: spent on one isolate, refused on the other', async () => {
  const [first, second] = workers.durable.urls.map((url) => ({ url }));
  const token = newUser();
  const codes = [];
  for (const worker of [first, second]) codes.push((await analyzeTurn(worker, script('x', 'x', 'x'), token)).events.at(-1).result.error.code);
  assert.deepEqual(codes, ['turn_model_calls_exceeded', 'turn_model_calls_exceeded']);
  const tag = script('x', 'x');
  assert.equal((await analyzeTurn(first, tag, token)).events.at(-1).result.error.code, 'daily_model_calls_exhausted');
  assert.equal(callsOf(tag), 1, 'the 7th call of the day ran, the 8th did not');
  await assertRefused(() => analyzeTurn(second, script('x'), token), 429, 'daily_model_calls_exhausted');
});
