// What verifying the caller's token costs the worker per request: HS256,
// ES256 and RS256 access tokens through createTokenVerifier (WebCrypto; the
// JWK set inline, so no fetch is timed), in this Node process.
//
//   node bench/jwt-verify.mjs            (N=5000 tokens per algorithm by default)
import { createTokenVerifier } from '../web/src/index.node.js';
import { newJwtSecret, signJwt, signJwtWithKey, signingKey } from '../db/jwt.mjs';

const N = Number(process.env.N ?? 5_000);
const secret = newJwtSecret();
const keys = { ES256: signingKey('ES256'), RS256: signingKey('RS256') };
const verifier = createTokenVerifier({ jwtSecret: secret, jwks: { keys: [keys.ES256.publicJwk, keys.RS256.publicJwk] } });
const claims = { role: 'authenticated', aud: 'authenticated', sub: 'a1f0ed00-0000-4000-8000-000000000001', email: 'ada@example.com' };
const tokenFor = { HS256: () => signJwt(claims, secret), ES256: () => signJwtWithKey(claims, keys.ES256), RS256: () => signJwtWithKey(claims, keys.RS256) };

console.log(`verify: ${N} valid tokens per algorithm, one at a time, Node ${process.version}`);
for (const alg of ['HS256', 'ES256', 'RS256']) {
  const token = tokenFor[alg]();
  for (let i = 0; i < 200; i += 1) await verifier.verify(token); // warm-up
  const started = performance.now();
  for (let i = 0; i < N; i += 1) {
    const { error } = await verifier.verify(token);
    if (error) throw new Error(`${alg}: ${error.code}`);
  }
  const perCall = ((performance.now() - started) * 1000) / N;
  console.log(`  ${alg}: ${perCall.toFixed(1)} µs per token`);
}
