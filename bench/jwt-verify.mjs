// What verifying the caller's token costs the worker per request: HS256,
// ES256 and RS256 access tokens through createTokenVerifier (WebCrypto; the
// JWK set inline, so no fetch is timed), in this Node process: a token seen
// for the first time (its signature checked), and the same token again (a
// user's next request: the signature remembered, the claims checked).
//
//   node bench/jwt-verify.mjs            (N=5000 tokens per algorithm by default)
import { createTokenVerifier } from '../web/src/index.node.js';
import { newJwtSecret, signJwt, signJwtWithKey, signingKey } from '../db/jwt.mjs';

const N = Number(process.env.N ?? 5_000);
const secret = newJwtSecret();
const keys = { ES256: signingKey('ES256'), RS256: signingKey('RS256') };
const verifier = createTokenVerifier({ jwtSecret: secret, jwks: { keys: [keys.ES256.publicJwk, keys.RS256.publicJwk] } });
const claims = { role: 'authenticated', aud: 'authenticated', sub: 'a1f0ed00-0000-4000-8000-000000000001', email: 'ada@example.com' };
const tokenFor = {
  HS256: (n) => signJwt({ ...claims, jti: `t${n}` }, secret),
  ES256: (n) => signJwtWithKey({ ...claims, jti: `t${n}` }, keys.ES256),
  RS256: (n) => signJwtWithKey({ ...claims, jti: `t${n}` }, keys.RS256),
};

console.log(`verify: ${N} valid tokens per algorithm, one at a time, Node ${process.version}`);
const timed = async (alg, tokens) => {
  const started = performance.now();
  for (const token of tokens) {
    const { error } = await verifier.verify(token);
    if (error) throw new Error(`${alg}: ${error.code}`);
  }
  return ((performance.now() - started) * 1000) / tokens.length;
};
for (const alg of ['HS256', 'ES256', 'RS256']) {
  const warm = Array.from({ length: 200 }, (_, i) => tokenFor[alg](-1 - i));
  await timed(alg, warm);
  const fresh = Array.from({ length: N }, (_, i) => tokenFor[alg](i));
  const first = await timed(alg, fresh);
  const again = await timed(alg, Array(N).fill(fresh[0]));
  console.log(`  ${alg}: ${first.toFixed(1)} µs per new token, ${again.toFixed(1)} µs per token seen before`);
}
