// The browser demo's server, on 127.0.0.1: the package's web/ folder as
// static files (the page at /web/demo/), /config.json with what the page
// needs to sign in to PostgREST, and, when the environment names a model,
// /llm/v1/chat/completions forwarded to it so the API key stays here.
// Library (startDemoServer) and CLI (`node scripts/serve-demo.mjs`).
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { subjectOf } from '../web/src/policy/audit.js';

const WEB_ROOT = fileURLToPath(new URL('../web/', import.meta.url));
const PAGE = '/web/demo/';
const MODEL_ROUTE = '/llm/v1/chat/completions';
// A chat request carries a prompt of a few tens of KB; this only stops abuse.
const MAX_MODEL_BODY = 4 << 20;

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

const COMMON_HEADERS = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };

function send(response, status, body, type = 'text/plain; charset=utf-8', headers = {}) {
  response.writeHead(status, { ...COMMON_HEADERS, 'content-type': type, ...headers }).end(body);
}

/** What /config.json tells the page; never the model's API key. */
function pageConfig({ supabase, users, model }) {
  return {
    supabase: { url: supabase.url, anonKey: supabase.anonKey },
    users: users.map(({ id, email, token }) => ({ id, email, token })),
    model: model ? { baseUrl: '/llm/v1', model: model.model, responseFormat: model.responseFormat ?? 'json_schema' } : null,
  };
}

async function serveFile(response, path) {
  const file = normalize(join(WEB_ROOT, path.slice('/web/'.length)));
  if (!file.startsWith(WEB_ROOT) || file.includes(`${sep}.`)) return send(response, 403, 'forbidden');
  try {
    const body = await readFile(file);
    send(response, 200, body, TYPES[extname(file)] ?? 'application/octet-stream');
  } catch {
    send(response, 404, `not found: ${path}`);
  }
}

async function readBody(request, limit) {
  const chunks = [];
  let size = 0;
  for await (const chunk of request) {
    size += chunk.length;
    if (size > limit) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

// The page's model requests, forwarded with the server's key; the answer
// (status, Retry-After, body) goes back unchanged so the page's driver sees
// what the provider said.
async function forwardToModel(request, response, model) {
  if (request.method !== 'POST') return send(response, 405, 'POST only', undefined, { allow: 'POST' });
  const body = await readBody(request, MAX_MODEL_BODY);
  if (body === null) return send(response, 413, 'request too large');
  let upstream;
  try {
    upstream = await fetch(`${model.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(model.apiKey ? { authorization: `Bearer ${model.apiKey}` } : {}) },
      body,
      signal: AbortSignal.timeout(120_000),
    });
  } catch (cause) {
    const message = `the demo server could not reach the model at ${model.baseUrl}: ${cause?.cause?.message ?? cause?.message ?? cause}`;
    return send(response, 502, JSON.stringify({ error: { message } }), 'application/json');
  }
  const headers = {};
  const retryAfter = upstream.headers.get('retry-after');
  if (retryAfter) headers['retry-after'] = retryAfter;
  send(response, upstream.status, Buffer.from(await upstream.arrayBuffer()), upstream.headers.get('content-type') ?? 'application/json', headers);
}

/**
 * Serves the demo page.
 *
 * - `supabase`: `{ url, anonKey }`, the PostgREST root or Supabase project URL the page calls.
 * - `users`: `[{ id, email, token }]`, whose JWTs the page signs in with (the first is the default).
 * - `model`: `{ baseUrl, apiKey, model, responseFormat }` or null; when given, the page may use it
 *   through /llm/v1 without ever seeing the key.
 *
 * Resolves to `{ url, origin, close() }`; `url` is the page.
 *
 * @example
 * const stack = await startStack()
 * const demo = await startDemoServer({ supabase: { url: stack.supabaseUrl, anonKey: stack.anonKey }, users: stack.users })
 * console.log(demo.url) // http://127.0.0.1:PORT/web/demo/
 */
export async function startDemoServer({ supabase, users, model = null, host = '127.0.0.1', port = 0 }) {
  if (!supabase?.url || !supabase?.anonKey) throw new Error('startDemoServer: supabase.url and supabase.anonKey are required');
  if (!Array.isArray(users) || users.length === 0) throw new Error('startDemoServer: at least one user { id, email, token } is required');
  const config = JSON.stringify(pageConfig({ supabase, users, model }));

  const server = createServer(async (request, response) => {
    try {
      const path = decodeURIComponent(new URL(request.url, 'http://localhost').pathname);
      if (path === '/' || path === '/web/demo') return send(response, 302, '', undefined, { location: PAGE });
      if (path === '/config.json') return send(response, 200, config, 'application/json');
      if (path === MODEL_ROUTE) {
        if (!model) return send(response, 404, JSON.stringify({ error: { message: 'the demo server has no model (set OPENAI_API_KEY or OPENAI_BASE_URL)' } }), 'application/json');
        return await forwardToModel(request, response, model);
      }
      if (request.method !== 'GET' && request.method !== 'HEAD') return send(response, 405, 'GET only', undefined, { allow: 'GET, HEAD' });
      if (path.startsWith('/web/')) return await serveFile(response, path.endsWith('/') ? `${path}index.html` : path);
      send(response, 404, `not found: ${path}`);
    } catch (error) {
      if (!response.headersSent) send(response, 500, String(error?.message ?? error));
      else response.destroy();
    }
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const origin = `http://${host}:${server.address().port}`;
  return {
    url: `${origin}${PAGE}`,
    origin,
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

async function main(argv) {
  let port = 0;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--port' && /^\d+$/.test(argv[i + 1] ?? '')) port = Number(argv[++i]);
    else throw new Error('usage: node scripts/serve-demo.mjs [--port N]\n  SUPABASE_URL, SUPABASE_ANON_KEY, ALFRED_ACCESS_TOKEN (ALFRED_USER_ID optional): an existing backend (else a local stack is started)\n  OPENAI_API_KEY / OPENAI_BASE_URL, ALFRED_LLM_MODEL: the model offered to the page');
  }
  const { modelConfigFromEnv } = await import('../web/src/llm/index.js');
  const env = process.env;
  let stack = null;
  let backend;
  if (env.SUPABASE_URL) {
    backend = {
      supabase: { url: env.SUPABASE_URL, anonKey: env.SUPABASE_ANON_KEY },
      users: [{ id: env.ALFRED_USER_ID || subjectOf(env.ALFRED_ACCESS_TOKEN), email: env.ALFRED_USER_EMAIL ?? 'user', token: env.ALFRED_ACCESS_TOKEN }],
    };
  } else {
    const { startStack } = await import('../db/local-stack.mjs');
    stack = await startStack();
    backend = { supabase: { url: stack.supabaseUrl, anonKey: stack.anonKey }, users: stack.users };
  }
  const model = modelConfigFromEnv(env);
  const demo = await startDemoServer({ ...backend, model, port });
  console.log(`alfred-act demo: ${demo.url}`);
  console.log(`  Supabase URL ${backend.supabase.url}${stack ? ' (local stack, seeded)' : ''}`);
  console.log(`  model     ${model ? `${model.model} at ${model.baseUrl} (proxied at /llm/v1)` : 'none: manual mode and replay, or set one in the page'}`);
  await new Promise((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await demo.close();
  await stack?.stop();
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    () => process.exit(0),
    (error) => {
      console.error(error.message);
      process.exit(1);
    },
  );
}
