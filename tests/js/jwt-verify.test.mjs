// The access-token verifier (web/src/jwt-verify.js) in Node through the
// package entry: every algorithm it accepts, every forged token it must
// refuse (with its exact code), the clock skew, and the JWK set cache (TTL,
// refetch on an unknown kid, refetches rate-limited, one fetch in flight)
// against a real JWKS endpoint on 127.0.0.1. The worker tests run the same
// module in workerd and Deno.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { createTokenVerifier, verifyAccessToken, TOKEN_ERROR_STATUS } from 'alfred-act';
import { newJwtSecret, signJwt, signJwtWithKey, signingKey } from '../../db/jwt.mjs';
import { startJwksServer } from './support/jwks-server.mjs';

const secret = newJwtSecret();
const USER = 'a1f0ed00-0000-4000-8000-000000000001';
const user = (claims = {}) => ({ role: 'authenticated', aud: 'authenticated', sub: USER, ...claims });
const nowSeconds = () => Math.floor(Date.now() / 1000);
const b64 = (value) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
/** A token put together by hand: any header, any claims, any signature text. */
const forge = (header, claims, signature = '') => `${b64(header)}.${b64(claims)}.${signature}`;

const ec = signingKey('ES256', { kid: 'ec-1' });
const rsa = signingKey('RS256', { kid: 'rsa-1' });
const attacker = signingKey('ES256', { kid: 'ec-1' }); // another key under a published kid

let jwks;
before(async () => {
  jwks = await startJwksServer([ec.publicJwk, rsa.publicJwk]);
});
after(() => jwks?.stop());

async function refused(verifier, token, code) {
  const { data, error } = await verifier.verify(token);
  assert.equal(data, null, `${code}: no data`);
  assert.equal(error?.code, code, `expected ${code}, got ${JSON.stringify(error)}`);
  assert.equal(error.status, TOKEN_ERROR_STATUS[code]);
  assert.ok(error.message.length > 0);
  return error;
}

describe('accepted tokens', () => {
  test('HS256 with the project secret: the user id, role, algorithm and claims', async () => {
    const verifier = createTokenVerifier({ jwtSecret: secret });
    const { data, error } = await verifier.verify(signJwt(user({ email: 'ada@example.com' }), secret));
    assert.equal(error, null);
    assert.deepEqual([data.userId, data.role, data.alg, data.kid, data.claims.email], [USER, 'authenticated', 'HS256', null, 'ada@example.com']);
  });

  test('ES256 and RS256 from the JWK set, by kid; a token without kid is tried against the keys of its algorithm', async () => {
    const verifier = createTokenVerifier({ jwksUrl: jwks.url });
    for (const key of [ec, rsa]) {
      const { data, error } = await verifier.verify(signJwtWithKey(user(), key));
      assert.equal(error, null, key.alg);
      assert.deepEqual([data.userId, data.alg, data.kid], [USER, key.alg, key.kid]);
    }
    const { data } = await verifier.verify(signJwtWithKey(user(), ec, { header: { kid: undefined } }));
    assert.deepEqual([data.alg, data.kid], ['ES256', null]);
  });

  test('an inline JWK set works like a fetched one', async () => {
    const verifier = createTokenVerifier({ jwks: { keys: [ec.publicJwk] } });
    assert.equal((await verifier.verify(signJwtWithKey(user(), ec))).data.userId, USER);
    await refused(verifier, signJwtWithKey(user(), rsa), 'unknown_key');
  });

  test('aud may be a list; audience can be a list, or null to skip the check; issuer is exact when set', async () => {
    const token = signJwt(user({ aud: ['other', 'authenticated'], iss: 'https://ref.supabase.co/auth/v1' }), secret);
    assert.equal((await createTokenVerifier({ jwtSecret: secret }).verify(token)).error, null);
    assert.equal((await createTokenVerifier({ jwtSecret: secret, audience: ['x', 'other'] }).verify(token)).error, null);
    const noAud = signJwt(user({ aud: undefined }), secret);
    assert.equal((await createTokenVerifier({ jwtSecret: secret, audience: null }).verify(noAud)).error, null);
    assert.equal((await createTokenVerifier({ jwtSecret: secret, issuer: 'https://ref.supabase.co/auth/v1' }).verify(token)).error, null);
    await refused(createTokenVerifier({ jwtSecret: secret, issuer: 'https://other.supabase.co/auth/v1' }), token, 'invalid_issuer');
  });

  test('clock skew: exp and nbf get 30 s either way by default, and exactly what clockSkewSeconds says', async () => {
    const lenient = createTokenVerifier({ jwtSecret: secret });
    const strict = createTokenVerifier({ jwtSecret: secret, clockSkewSeconds: 0 });
    const justExpired = signJwt(user({ exp: nowSeconds() - 10 }), secret);
    const almostValid = signJwt(user({ nbf: nowSeconds() + 10 }), secret);
    assert.equal((await lenient.verify(justExpired)).error, null);
    assert.equal((await lenient.verify(almostValid)).error, null);
    await refused(strict, justExpired, 'token_expired');
    await refused(strict, almostValid, 'token_not_yet_valid');
    await refused(lenient, signJwt(user({ exp: nowSeconds() - 31 }), secret), 'token_expired');
    await refused(lenient, signJwt(user({ nbf: nowSeconds() + 31 }), secret), 'token_not_yet_valid');
  });
});

describe('refused tokens', () => {
  const both = () => createTokenVerifier({ jwtSecret: secret, jwksUrl: jwks.url });
  const pem = createPublicKey(ec.privateKey).export({ type: 'spki', format: 'pem' });

  test('missing, garbage and malformed tokens', async () => {
    const verifier = both();
    await refused(verifier, '', 'missing_token');
    await refused(verifier, undefined, 'missing_token');
    for (const token of ['garbage', 'a.b.c', 'a.b', '...', `${b64({ alg: 'HS256' })}.${b64('[1]')}.x`, `${b64('"text"')}.${b64(user())}.x`, `${b64({ alg: 'HS256' })}.${b64(user())}.sig+/`, 'x'.repeat(20_000)]) {
      await refused(verifier, token, 'malformed_token');
    }
    // Two parts: a JWT with its signature cut off.
    await refused(verifier, signJwt(user(), secret).split('.').slice(0, 2).join('.'), 'malformed_token');
    await refused(verifier, forge({ alg: 'HS256', crit: ['exp'] }, user(), 'x'), 'malformed_token');
    await refused(verifier, forge({ alg: 'ES256', kid: 42 }, user(), 'x'), 'malformed_token');
  });

  test('unsigned: an empty signature, and alg none in any spelling', async () => {
    const verifier = both();
    const signed = signJwt(user(), secret);
    await refused(verifier, `${signed.slice(0, signed.lastIndexOf('.'))}.`, 'invalid_signature');
    for (const alg of ['none', 'None', 'NONE', '', null, 'HS512', 'RS384', 'PS256', 'EdDSA']) {
      await refused(verifier, forge({ alg, typ: 'JWT' }, user()), 'algorithm_not_allowed');
      await refused(verifier, forge({ alg, typ: 'JWT' }, user(), 'c2ln'), 'algorithm_not_allowed');
    }
    await refused(verifier, forge({ typ: 'JWT' }, user(), 'c2ln'), 'algorithm_not_allowed');
  });

  test('algorithm confusion: HS256 "signed" with the public key is never checked against it', async () => {
    const verifier = both();
    // Known kid: the key says ES256, the token says HS256.
    assert.equal((await verifier.verify(signJwtWithKey(user(), ec))).error, null); // the set is cached now
    await refused(verifier, signJwt(user(), JSON.stringify(ec.publicJwk), { header: { kid: 'ec-1' } }), 'algorithm_not_allowed');
    // No kid: HS256 means the secret, which the public key text is not.
    await refused(verifier, signJwt(user(), pem), 'invalid_signature');
    await refused(verifier, signJwt(user(), JSON.stringify(ec.publicJwk)), 'invalid_signature');
    // Without a secret, HS256 is not accepted at all.
    await refused(createTokenVerifier({ jwksUrl: jwks.url }), signJwt(user(), pem), 'algorithm_not_allowed');
    // An RS256 header on an EC key's kid, and ES256 on the RSA key's kid.
    await refused(verifier, signJwtWithKey(user(), ec, { header: { alg: 'RS256' } }), 'algorithm_not_allowed');
    await refused(verifier, signJwtWithKey(user(), ec, { header: { kid: 'rsa-1' } }), 'algorithm_not_allowed');
    // Without a JWK set, ES256 and RS256 are not accepted at all.
    await refused(createTokenVerifier({ jwtSecret: secret }), signJwtWithKey(user(), ec), 'algorithm_not_allowed');
  });

  test('wrong keys: another secret, another EC key under a published kid, an unknown kid', async () => {
    const verifier = both();
    await refused(verifier, signJwt(user(), newJwtSecret()), 'invalid_signature');
    await refused(verifier, signJwtWithKey(user(), attacker), 'invalid_signature');
    await refused(verifier, signJwtWithKey(user(), signingKey('ES256', { kid: 'not-published' })), 'unknown_key');
    // A valid signature over other claims: the claims were swapped after signing.
    const [header, , signature] = signJwt(user(), secret).split('.');
    await refused(verifier, `${header}.${b64(user({ sub: 'a1f0ed00-0000-4000-8000-000000000002' }))}.${signature}`, 'invalid_signature');
    const es = signJwtWithKey(user(), ec).split('.');
    await refused(verifier, `${es[0]}.${es[1]}.${es[2].slice(0, -4)}`, 'invalid_signature');
  });

  test('claims: expired, not yet valid, wrong or missing aud, service_role, anon, no sub, no or bad exp', async () => {
    const verifier = both();
    const cases = [
      [user({ exp: nowSeconds() - 3600 }), 'token_expired'],
      [user({ nbf: nowSeconds() + 3600 }), 'token_not_yet_valid'],
      [user({ aud: 'other-app' }), 'invalid_audience'],
      [user({ aud: undefined }), 'invalid_audience'],
      [user({ role: 'service_role' }), 'service_key_refused'],
      [{ role: 'service_role' }, 'service_key_refused'],
      [{ role: 'anon' }, 'not_a_user_token'],
      [user({ role: undefined }), 'not_a_user_token'],
      [user({ sub: undefined }), 'missing_subject'],
      [user({ sub: '' }), 'missing_subject'],
      [user({ sub: 42 }), 'missing_subject'],
      [user({ exp: undefined }), 'invalid_claims'],
      [user({ exp: '9999999999' }), 'invalid_claims'],
      [user({ nbf: 'soon' }), 'invalid_claims'],
    ];
    for (const [claims, code] of cases) {
      await refused(verifier, signJwt(claims, secret), code);
      await refused(verifier, signJwtWithKey(claims, rsa), code);
    }
  });

  test('options that cannot verify anything are a TypeError, never a verifier that lets tokens through', () => {
    assert.throws(() => createTokenVerifier({}), TypeError);
    assert.throws(() => createTokenVerifier({ jwtSecret: '' }), TypeError);
    assert.throws(() => createTokenVerifier({ jwksUrl: 'not a url' }), TypeError);
    assert.throws(() => createTokenVerifier({ jwtSecret: secret, roles: ['authenticated', 'service_role'] }), /service_role/);
    assert.throws(() => createTokenVerifier({ jwtSecret: secret, clockSkewSeconds: -1 }), TypeError);
    assert.throws(() => verifyAccessToken('x'), TypeError);
  });
});

describe('the JWK set cache', () => {
  // A verifier on a clock the test moves.
  const clocked = (server, options = {}) => {
    const clock = { ms: Date.now() };
    const verifier = createTokenVerifier({ jwksUrl: server.url, now: () => clock.ms, jwksCacheSeconds: 600, jwksRefetchSeconds: 30, ...options });
    return { verifier, clock };
  };
  const at = (clock) => ({ exp: Math.floor(clock.ms / 1000) + 3600, iat: Math.floor(clock.ms / 1000) });

  test('fetched once, kept for the TTL, fetched again after it', async () => {
    const server = await startJwksServer([ec.publicJwk]);
    try {
      const { verifier, clock } = clocked(server);
      for (let i = 0; i < 5; i += 1) assert.equal((await verifier.verify(signJwtWithKey(user(at(clock)), ec))).error, null);
      assert.equal(server.fetches, 1);
      clock.ms += 599_000;
      await verifier.verify(signJwtWithKey(user(at(clock)), ec));
      assert.equal(server.fetches, 1);
      clock.ms += 2_000;
      await verifier.verify(signJwtWithKey(user(at(clock)), ec));
      assert.equal(server.fetches, 2);
    } finally {
      await server.stop();
    }
  });

  test('rotation: a new kid is fetched on first sight (at most once per refetch interval); a removed key is refused once the set is fetched again', async () => {
    const server = await startJwksServer([ec.publicJwk]);
    const next = signingKey('ES256', { kid: 'ec-2' });
    try {
      const { verifier, clock } = clocked(server);
      assert.equal((await verifier.verify(signJwtWithKey(user(at(clock)), ec))).error, null);
      server.setKeys([ec.publicJwk, next.publicJwk]);
      // Within the refetch interval of the first fetch: not fetched again.
      await refused(verifier, signJwtWithKey(user(at(clock)), next), 'unknown_key');
      assert.equal(server.fetches, 1);
      clock.ms += 30_000;
      assert.equal((await verifier.verify(signJwtWithKey(user(at(clock)), next))).error, null);
      assert.equal(server.fetches, 2);
      // ec-1 is retired: still trusted until the set is fetched again (TTL or an unknown kid).
      server.setKeys([next.publicJwk]);
      assert.equal((await verifier.verify(signJwtWithKey(user(at(clock)), ec))).error, null);
      clock.ms += 601_000;
      await refused(verifier, signJwtWithKey(user(at(clock)), ec), 'unknown_key');
      assert.equal(server.fetches, 3);
      assert.equal((await verifier.verify(signJwtWithKey(user(at(clock)), next))).error, null);
    } finally {
      await server.stop();
    }
  });

  test('a flood of unknown kids costs at most one fetch per refetch interval; concurrent misses share one fetch', async () => {
    const server = await startJwksServer([ec.publicJwk]);
    try {
      const { verifier, clock } = clocked(server);
      await verifier.verify(signJwtWithKey(user(at(clock)), ec));
      clock.ms += 30_000;
      const flood = Array.from({ length: 50 }, (_, i) => signJwtWithKey(user(at(clock)), ec, { header: { kid: `forged-${i}` } }));
      const results = await Promise.all(flood.map((token) => verifier.verify(token)));
      assert.deepEqual(new Set(results.map((result) => result.error?.code)), new Set(['unknown_key']));
      assert.equal(server.fetches, 2, 'one refetch for all 50');
      for (const token of flood) await refused(verifier, token, 'unknown_key');
      assert.equal(server.fetches, 2);
      clock.ms += 30_000;
      await refused(verifier, flood[0], 'unknown_key');
      assert.equal(server.fetches, 3);
    } finally {
      await server.stop();
    }
  });

  test('an unreachable JWK set is a 503 jwks_unavailable, retried at most once per refetch interval; a failed refetch keeps the known keys', async () => {
    const server = await startJwksServer([ec.publicJwk]);
    try {
      const { verifier, clock } = clocked(server);
      server.answer({ status: 500, body: { message: 'down' } });
      const error = await refused(verifier, signJwtWithKey(user(at(clock)), ec), 'jwks_unavailable');
      assert.match(error.message, /HTTP 500/);
      await refused(verifier, signJwtWithKey(user(at(clock)), ec), 'jwks_unavailable');
      assert.equal(server.fetches, 1);
      server.answer({ status: 200, body: '{"not":"a set"}' });
      clock.ms += 30_000;
      assert.match((await refused(verifier, signJwtWithKey(user(at(clock)), ec), 'jwks_unavailable')).message, /not a JWK set/);
      server.answer(null);
      clock.ms += 30_000;
      assert.equal((await verifier.verify(signJwtWithKey(user(at(clock)), ec))).error, null);
      // Past the TTL with the endpoint down: the keys already known still verify.
      server.answer({ status: 503, body: {} });
      clock.ms += 700_000;
      assert.equal((await verifier.verify(signJwtWithKey(user(at(clock)), ec))).error, null);
      assert.equal(server.fetches, 4);
    } finally {
      await server.stop();
    }
  });

  test('a huge JWK set answer is not read past the size limit: jwks_unavailable, the rest never fetched', async () => {
    const server = await startJwksServer([ec.publicJwk]);
    try {
      const { verifier, clock } = clocked(server);
      const total = 64 * 1024 * 1024;
      server.answer({ streamBytes: total });
      const error = await refused(verifier, signJwtWithKey(user(at(clock)), ec), 'jwks_unavailable');
      assert.match(error.message, /the JWK set is larger than 262144 bytes/);
      // The server writes only while the client reads (plus what sockets buffer): far from the 64 MB.
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.ok(server.streamed < 16 * 1024 * 1024, `${server.streamed} bytes were sent`);
      server.answer(null);
      clock.ms += 30_000;
      assert.equal((await verifier.verify(signJwtWithKey(user(at(clock)), ec))).error, null);
    } finally {
      await server.stop();
    }
  });

  test('keys the verifier must not use are skipped: symmetric, encryption, short RSA, alg that disagrees with the key', async () => {
    const rsa1024 = generateKeyPairSync('rsa', { modulusLength: 1024 });
    const short = { ...rsa1024.publicKey.export({ format: 'jwk' }), kid: 'short', alg: 'RS256' };
    const keys = [
      { kty: 'oct', k: Buffer.from(secret).toString('base64url'), kid: 'oct', alg: 'HS256' },
      { ...ec.publicJwk, kid: 'enc', use: 'enc' },
      { ...ec.publicJwk, kid: 'mislabelled', alg: 'RS256' },
      short,
    ];
    const verifier = createTokenVerifier({ jwks: { keys } });
    await refused(verifier, signJwt(user(), secret, { header: { kid: 'oct' } }), 'algorithm_not_allowed');
    await refused(verifier, signJwtWithKey(user(), ec, { header: { kid: 'enc' } }), 'unknown_key');
    await refused(verifier, signJwtWithKey(user(), ec, { header: { kid: 'mislabelled' } }), 'unknown_key');
    const shortToken = signJwtWithKey(user(), { alg: 'RS256', kid: 'short', privateKey: rsa1024.privateKey });
    await refused(verifier, shortToken, 'unknown_key');
  });

  test('verifyAccessToken keeps one verifier (and one cache) per options object', async () => {
    const server = await startJwksServer([ec.publicJwk]);
    try {
      const options = { jwksUrl: server.url };
      for (let i = 0; i < 3; i += 1) assert.equal((await verifyAccessToken(signJwtWithKey(user(), ec), options)).data.userId, USER);
      assert.equal(server.fetches, 1);
      await verifyAccessToken(signJwtWithKey(user(), ec), { jwksUrl: server.url });
      assert.equal(server.fetches, 2);
    } finally {
      await server.stop();
    }
  });
});

describe('the verified-signature cache', () => {
  // Counts WebCrypto signature checks while `run` runs.
  async function countingVerifies(run) {
    const proto = Object.getPrototypeOf(globalThis.crypto.subtle);
    const original = proto.verify;
    let calls = 0;
    proto.verify = function (...args) {
      calls += 1;
      return original.apply(this, args);
    };
    try {
      await run();
    } finally {
      proto.verify = original;
    }
    return calls;
  }

  test("a token's signature is checked once a minute; its claims on every use, a changed token always", async () => {
    const clock = { ms: Date.now() };
    const verifier = createTokenVerifier({ jwtSecret: secret, now: () => clock.ms });
    const exp = Math.floor(clock.ms / 1000) + 120;
    const token = signJwt(user({ exp, app_metadata: { team: 'a' } }), secret);
    const calls = await countingVerifies(async () => {
      for (let i = 0; i < 5; i += 1) {
        const { data, error } = await verifier.verify(token);
        assert.equal(error, null);
        assert.equal(data.claims.app_metadata.team, 'a');
        // The caller owns what it is given: changing it changes nothing kept.
        data.claims.app_metadata.team = 'b';
        data.claims.sub = 'someone-else';
      }
    });
    assert.equal(calls, 1);
    // Another signature on the same claims is checked, and refused.
    const [head, body] = token.split('.');
    await refused(verifier, `${head}.${body}.${b64('x'.repeat(32))}`, 'invalid_signature');
    // After a minute the signature is checked again.
    clock.ms += 61_000;
    assert.equal(await countingVerifies(() => verifier.verify(token)), 1);
    // The claims are checked on every use: once exp (plus the skew) passes, the kept token is refused.
    clock.ms += 40_000;
    assert.equal((await verifier.verify(token)).error, null);
    clock.ms += 60_000;
    await refused(verifier, token, 'token_expired');
  });

  test('a key rotated out of the JWK set is refused from the next fetch of the set, however late in the set\'s life the token was kept', async () => {
    const server = await startJwksServer([ec.publicJwk]);
    try {
      const clock = { ms: Date.now() };
      const verifier = createTokenVerifier({ jwksUrl: server.url, now: () => clock.ms, jwksCacheSeconds: 600, jwksRefetchSeconds: 0 });
      const token = signJwtWithKey(user({ exp: Math.floor(clock.ms / 1000) + 3600 }), ec);
      // The set is fetched at 0; the token is first seen (and kept) at 590 s.
      assert.equal((await verifier.verify(signJwtWithKey(user({ exp: Math.floor(clock.ms / 1000) + 3600, jti: 'other' }), ec))).error, null);
      clock.ms += 590_000;
      assert.equal((await verifier.verify(token)).error, null);
      server.setKeys([rsa.publicJwk]);
      // At 605 s the set is fetched again without the key: the kept token is refused at once.
      clock.ms += 15_000;
      await refused(verifier, token, 'unknown_key');
    } finally {
      await server.stop();
    }
  });
});

test('one catalog of codes: every code the verifier emits is in TOKEN_ERROR_STATUS and in the TokenErrorCode type', async () => {
  const { readFile } = await import('node:fs/promises');
  const source = await readFile(new URL('../../web/src/jwt-verify.js', import.meta.url), 'utf8');
  const emitted = new Set([...source.matchAll(/\bfail\(codes\.([a-z_]+)/g)].map(([, code]) => code));
  const types = await readFile(new URL('../../web/jwt-verify.d.ts', import.meta.url), 'utf8');
  const union = types.slice(types.indexOf('export type TokenErrorCode'), types.indexOf(';', types.indexOf('export type TokenErrorCode')));
  const typed = new Set([...union.matchAll(/'([a-z_]+)'/g)].map(([, code]) => code));
  assert.ok(emitted.size >= 12);
  for (const code of emitted) assert.ok(code in TOKEN_ERROR_STATUS, `${code} is not in TOKEN_ERROR_STATUS`);
  assert.deepEqual([...typed].sort(), Object.keys(TOKEN_ERROR_STATUS).sort());
});
