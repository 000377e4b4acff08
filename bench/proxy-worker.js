// The floor of any worker in front of PostgREST, for bench/load.mjs: what a
// developer writes by hand when a worker only has to pass a signed-in user's
// read through. It verifies the caller's Supabase JWT (HS256 with the
// project's secret, and its expiry), sends the PostgREST request the body
// names (`{ path }`: the path and query under /rest/v1 of a read) with the anon key as
// apikey and the caller's token as the bearer, and answers the rows as JSON.
// No validation, refs, labels, limits, policy or state: alfred-act's worker
// does all of those on top of this much.
const encoder = new TextEncoder();
let hmacKey;

const fromBase64url = (text) => Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));

async function verified(token, secret) {
  const [head, claims, signature] = token.split('.');
  if (!signature) return null;
  hmacKey ??= crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
  try {
    const ok = await crypto.subtle.verify('HMAC', await hmacKey, fromBase64url(signature), encoder.encode(`${head}.${claims}`));
    if (!ok) return null;
    const payload = JSON.parse(new TextDecoder().decode(fromBase64url(claims)));
    return typeof payload.exp === 'number' && payload.exp * 1000 > Date.now() ? payload : null;
  } catch {
    return null; // not base64url, not JSON: not a token
  }
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname === '/health') return new Response('ok');
    const token = /^Bearer (.+)$/.exec(request.headers.get('authorization') ?? '')?.[1];
    if (request.method !== 'POST' || !token || !(await verified(token, env.SUPABASE_JWT_SECRET))) return new Response('unauthorized', { status: 401 });
    const { path } = await request.json();
    const response = await fetch(`${env.SUPABASE_URL}/rest/v1${path}`, {
      headers: { apikey: env.SUPABASE_ANON_KEY, authorization: `Bearer ${token}`, accept: 'application/json' },
    });
    const rows = await response.json();
    return new Response(JSON.stringify({ data: rows }), { status: response.status, headers: { 'content-type': 'application/json' } });
  },
};
