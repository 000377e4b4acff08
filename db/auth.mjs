// A small GoTrue-compatible /auth/v1 for the local stack: password sign-in,
// refresh, the current user, sign-out and sign-up, answered in GoTrue's shapes
// so supabase-js's signInWithPassword, refreshSession, getUser, signOut and
// signUp work against the stack unchanged. Email and password only: no
// magic links, OTP, OAuth, MFA, admin API or email sending.
//
// Where users live: in the database (auth.users, auth.sessions,
// auth.refresh_tokens), never in this process. Once the socket is open
// PostgREST must be PGlite's only client, so every read and write goes
// through the functions of migration 013_auth_api.sql, called over PostgREST
// with the service key and the profile alfred_auth, a schema only
// service_role may use. That keeps what a real Supabase keeps in the
// database there: a sign-up inserts into auth.users, so the app's
// `after insert on auth.users` triggers (handle_new_user) run; passwords are
// checked by pgcrypto's crypt() against encrypted_password, as seeds write
// them; sessions survive a restart with a data dir; and no user list is held
// in memory that a seed, a trigger or a sign-up could leave stale.
//
// Access tokens are HS256 JWTs signed with the stack's secret (the tokens
// PostgREST verifies), with GoTrue's claims: sub, role, aud, email, phone,
// app_metadata, user_metadata, aal, amr, session_id, is_anonymous, iss, iat,
// exp. Refresh tokens are single-use: each refresh revokes the one presented
// and returns its child; presenting a revoked one ends the session.
import { request as httpRequest } from 'node:http';
import { createTokenVerifier } from '../web/src/jwt-verify.js';
import { signJwt } from './jwt.mjs';

/** The schema of the sign-in functions (migration 013_auth_api.sql). */
export const AUTH_SCHEMA = 'alfred_auth';

const MAX_BODY_BYTES = 64 * 1024;
const MIN_PASSWORD_LENGTH = 6;
const API_VERSION_HEADER = 'x-supabase-api-version';
const API_VERSION = '2024-01-01';

// GoTrue's status and message for each refusal the database functions return.
const REFUSALS = {
  invalid_credentials: [400, 'Invalid login credentials'],
  user_banned: [400, 'User is banned'],
  refresh_token_not_found: [400, 'Invalid Refresh Token: Refresh Token Not Found'],
  refresh_token_already_used: [400, 'Invalid Refresh Token: Already Used'],
  session_not_found: [403, 'Session from session_id claim in JWT does not exist'],
  user_not_found: [403, 'User from sub claim in JWT does not exist'],
  user_already_exists: [422, 'User already registered'],
};

const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'authorization, apikey, content-type, x-client-info, x-supabase-api-version',
  'access-control-allow-methods': 'GET, POST, PUT, DELETE, OPTIONS',
  'access-control-expose-headers': 'x-supabase-api-version',
};

/**
 * The /auth/v1 handler of a stack: `handle(req, res, path)` answers one
 * request whose path below /auth/v1 is `path` (e.g. `/token?grant_type=password`).
 *
 * - `restUrl`: PostgREST's bare root; `serviceKey`: the stack's service key
 *   (for the alfred_auth functions);
 * - `jwtSecret`: the HS256 secret access tokens are signed and verified with;
 *   `jwks`: public keys whose ES256 / RS256 tokens /user and /logout accept too;
 * - `issuer`: the `iss` claim, the stack's `<supabaseUrl>/auth/v1`;
 * - `jwtExpiry`: seconds an access token lives (default 3600, as GoTrue's);
 * - `accessTokenHook`: true when the stack configured a custom access token
 *   hook (alfred_auth.hooks): every token's claims go through it.
 *
 * @example
 * const auth = createAuthHandler({ restUrl: postgrest.url, serviceKey, jwtSecret, issuer: `${supabaseUrl}/auth/v1` })
 * createServer((req, res) => auth.handle(req, res, req.url.slice('/auth/v1'.length)))
 */
export function createAuthHandler({ restUrl, serviceKey, jwtSecret, jwks, issuer, jwtExpiry = 3600, accessTokenHook = false }) {
  if (!Number.isInteger(jwtExpiry) || jwtExpiry < 1) throw new TypeError(`jwtExpiry must be a whole number of seconds ≥ 1, got ${jwtExpiry}`);
  const verifier = createTokenVerifier({ jwtSecret, ...(jwks ? { jwks } : {}), clockSkewSeconds: 0 });
  const call = (fn, args) => callAuthFunction(restUrl, serviceKey, fn, args);
  const session = (result, method) => sessionAnswer(result, method, { call, jwtSecret, issuer, jwtExpiry, accessTokenHook });
  const routes = authRoutes({ call, verifier, session });
  return { handle: (req, res, path) => answerAuth(routes, req, res, path) };
}

// A session answer (POST /token, POST /signup) from a database result, or
// the hook's refusal.
async function sessionAnswer({ user, session_id: sessionId, refresh_token: refreshToken }, method, { call, jwtSecret, issuer, jwtExpiry, accessTokenHook }) {
  const now = Math.floor(Date.now() / 1000);
  const expiresAt = now + jwtExpiry;
  let claims = accessTokenClaims(user, { sessionId, method, issuer, now, exp: expiresAt });
  if (accessTokenHook) {
    const answer = await call('run_access_token_hook', { p_event: accessTokenHookEvent(claims, method) });
    const { claims: hooked, error } = hookedClaims(answer);
    if (error) return refusal(error.status, 'unexpected_failure', error.message);
    claims = hooked;
  }
  const body = { access_token: signJwt(claims, jwtSecret), token_type: 'bearer', expires_in: jwtExpiry, expires_at: expiresAt, refresh_token: refreshToken, user };
  return ok(200, body);
}

// The routes below /auth/v1, by `METHOD /path`: each takes the request and
// its URL and resolves to an answer (`{ status, body }` or a refusal).
function authRoutes({ call, verifier, session }) {
  return {
    'POST /token': async (req, url) => {
      const grant = url.searchParams.get('grant_type');
      const body = await readJson(req);
      if (grant === 'password') {
        if (typeof body.email !== 'string' || body.email === '') {
          return refusal(400, body.phone ? 'phone_provider_disabled' : 'validation_failed', body.phone ? 'Phone logins are disabled' : 'missing email or phone');
        }
        if (typeof body.password !== 'string') return refusal(400, 'validation_failed', 'missing password');
        const result = await call('sign_in_with_password', { p_email: body.email, p_password: body.password });
        return result.error ? tokenRefusal(result.error) : session(result, 'password');
      }
      if (grant === 'refresh_token') {
        if (typeof body.refresh_token !== 'string' || body.refresh_token === '') return refusal(400, 'validation_failed', 'refresh_token required');
        const result = await call('refresh_session', { p_refresh_token: body.refresh_token });
        return result.error ? tokenRefusal(result.error) : session(result, 'token_refresh');
      }
      return refusal(400, 'validation_failed', `unsupported_grant_type: the local stack signs in with grant_type=password or refresh_token, not ${JSON.stringify(grant)}`);
    },
    'GET /user': async (req) => {
      const { claims, failure } = await bearer(req, verifier);
      if (failure) return failure;
      const result = await call('get_user', { p_user_id: claims.sub, p_session_id: claims.session_id ?? null });
      return result.error ? refused(result.error) : ok(200, result.user);
    },
    'POST /logout': async (req, url) => {
      const scope = url.searchParams.get('scope') ?? 'global';
      if (!['global', 'local', 'others'].includes(scope)) return refusal(400, 'validation_failed', 'Unsupported logout scope');
      const { claims, failure } = await bearer(req, verifier);
      if (failure) return failure;
      await call('sign_out', { p_user_id: claims.sub, p_session_id: claims.session_id ?? null, p_scope: scope });
      return { status: 204 };
    },
    'POST /signup': async (req) => {
      const body = await readJson(req);
      if (typeof body.email !== 'string' || !/^[^\s@]+@[^\s@]+$/.test(body.email)) {
        return refusal(400, body.phone ? 'phone_provider_disabled' : 'validation_failed', body.phone ? 'Phone signups are disabled' : 'Unable to validate email address: invalid format');
      }
      if (typeof body.password !== 'string' || body.password.length < MIN_PASSWORD_LENGTH) {
        return refusal(422, 'weak_password', `Password should be at least ${MIN_PASSWORD_LENGTH} characters.`, { weak_password: { reasons: ['length'] } });
      }
      const data = body.data !== null && typeof body.data === 'object' && !Array.isArray(body.data) ? body.data : {};
      const result = await call('sign_up', { p_email: body.email, p_password: body.password, p_data: data });
      return result.error ? refused(result.error) : session(result, 'password');
    },
    'GET /settings': async () =>
      ok(200, {
        external: { email: true, phone: false, anonymous_users: false },
        disable_signup: false,
        mailer_autoconfirm: true,
        phone_autoconfirm: false,
        sms_provider: '',
        saml_enabled: false,
      }),
    'GET /health': async () => ok(200, { name: 'GoTrue', version: 'alfred-act local stack', description: 'email and password sign-in for the local stack' }),
  };
}

// Answers one request with `routes`, in GoTrue's shape (its error body, its
// API version header when the client sent one).
async function answerAuth(routes, req, res, path) {
  const url = new URL(path || '/', 'http://local');
  const versioned = (req.headers[API_VERSION_HEADER] ?? '') >= API_VERSION;
  let answer;
  if (req.method === 'OPTIONS') {
    answer = { status: 204 };
  } else {
    const route = routes[`${req.method} ${url.pathname.replace(/\/+$/, '') || '/'}`];
    try {
      answer = route
        ? await route(req, url)
        : refusal(404, 'not_found', `${req.method} /auth/v1${url.pathname} is not served by the local stack's sign-in (email and password only: /token, /user, /logout, /signup)`);
    } catch (error) {
      answer = error instanceof RequestError ? refusal(error.status, error.code, error.message) : refusal(500, 'unexpected_failure', `Database error: ${error.message}`);
    }
  }
  const headers = { ...CORS_HEADERS, ...(versioned ? { [API_VERSION_HEADER]: API_VERSION } : {}) };
  if (answer.status === 204) {
    res.writeHead(204, headers).end();
    return;
  }
  const body = answer.error ? errorBody(answer, { versioned }) : answer.body;
  res.writeHead(answer.status, { ...headers, 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/**
 * GoTrue's claims for `user`'s access token in session `sessionId`.
 *
 * @example
 * signJwt(accessTokenClaims(user, { sessionId, method: 'password', issuer, now, exp: now + 3600 }), secret)
 */
export function accessTokenClaims(user, { sessionId, method = 'password', issuer, now = Math.floor(Date.now() / 1000), exp }) {
  return {
    aud: user.aud ?? 'authenticated',
    exp,
    iat: now,
    iss: issuer,
    sub: user.id,
    email: user.email ?? '',
    phone: user.phone ?? '',
    app_metadata: user.app_metadata ?? {},
    user_metadata: user.user_metadata ?? {},
    role: user.role ?? 'authenticated',
    aal: 'aal1',
    amr: [{ method, timestamp: now }],
    session_id: sessionId,
    is_anonymous: user.is_anonymous ?? false,
  };
}

/**
 * The event GoTrue gives a custom access token hook.
 *
 * @example
 * accessTokenHookEvent(claims, 'password') // { user_id, claims, authentication_method: 'password' }
 */
export const accessTokenHookEvent = (claims, method) => ({ user_id: claims.sub, claims, authentication_method: method });

/**
 * The claims a custom access token hook answered, or its refusal as
 * `{ error: { status, message } }` (its `error.http_code`, or 500 when its
 * answer has no claims object), as GoTrue reads the answer.
 *
 * @example
 * const { claims, error } = hookedClaims({ claims: { ...claims, user_role: 'admin' } })
 */
export function hookedClaims(answer) {
  if (answer?.error) {
    const status = Number.isInteger(answer.error.http_code) ? answer.error.http_code : 500;
    return { error: { status, message: String(answer.error.message ?? 'the access token hook refused the request') } };
  }
  if (answer === null || typeof answer?.claims !== 'object' || Array.isArray(answer.claims) || answer.claims === null) {
    return { error: { status: 500, message: 'Error running hook URI: output claims do not conform to the expected schema' } };
  }
  return { claims: answer.claims };
}

class RequestError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

const ok = (status, body) => ({ status, body });
const refusal = (status, code, message, extra = {}) => ({ status, error: { code, message, extra } });
const refused = (code) => refusal(REFUSALS[code][0], code, REFUSALS[code][1]);
// Token-endpoint refusals also carry the OAuth fields GoTrue answered them with
// before error codes existed (`error: invalid_grant`).
const tokenRefusal = (code) => {
  const answer = refused(code);
  answer.error.extra = { error: 'invalid_grant', error_description: answer.error.message };
  return answer;
};

// GoTrue's two error shapes: for clients that send X-Supabase-Api-Version
// 2024-01-01 (supabase-js does) `{ code, message }`, else `{ code: status,
// error_code, msg }`.
function errorBody({ status, error: { code, message, extra } }, { versioned }) {
  return versioned ? { code, message, ...extra } : { code: status, error_code: code, msg: message, ...extra };
}

// The verified claims of the request's bearer token, or GoTrue's refusal.
async function bearer(req, verifier) {
  const match = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  if (!match) return { failure: refusal(401, 'no_authorization', 'This endpoint requires a valid Bearer token') };
  const { data, error } = await verifier.verify(match[1]);
  if (error) return { failure: refusal(403, 'bad_jwt', `invalid JWT: unable to parse or verify signature, ${error.message}`) };
  return { claims: data.claims };
}

async function readJson(req) {
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new RequestError(413, 'request_too_large', `the request body is larger than ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  try {
    const value = JSON.parse(text);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value;
  } catch {}
  throw new RequestError(400, 'validation_failed', 'Could not parse request body as JSON');
}

// POST <restUrl>/rpc/<fn> as service_role in the alfred_auth profile; the
// function's jsonb answer. A database error (a failing handle_new_user
// trigger, say) throws with PostgREST's message.
function callAuthFunction(restUrl, serviceKey, fn, args) {
  const target = new URL(`/rpc/${fn}`, restUrl);
  const payload = JSON.stringify(args);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers: {
          apikey: serviceKey,
          authorization: `Bearer ${serviceKey}`,
          'content-type': 'application/json',
          'content-profile': AUTH_SCHEMA,
          'accept-profile': AUTH_SCHEMA,
          'content-length': Buffer.byteLength(payload),
        },
      },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body;
          try {
            body = JSON.parse(text);
          } catch {
            body = text;
          }
          if (res.statusCode === 200 && body !== null && typeof body === 'object') resolve(body);
          else reject(new Error(typeof body === 'object' && body?.message ? `${body.message}${body.details ? ` (${body.details})` : ''}` : `PostgREST answered ${res.statusCode}: ${text.slice(0, 300)}`));
        });
        res.on('error', reject);
      },
    );
    req.on('error', (cause) => reject(new Error(`PostgREST did not answer: ${cause.message}`)));
    req.end(payload);
  });
}
