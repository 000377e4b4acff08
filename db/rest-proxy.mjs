// The Supabase URL of the local stack: a loopback HTTP server that serves
// PostgREST under /rest/v1 and the local sign-in (db/auth.mjs) under
// /auth/v1, as a Supabase project (and `supabase start`'s API gateway) does,
// so supabase-js's createClient(url, key) and createAct({ url }) work against
// it unchanged. PostgREST itself has no setting for a path prefix (it serves
// tables at /<table>).
import { createServer, request as httpRequest } from 'node:http';
import { LOCAL_CATALOG_PATH } from '../web/src/pull/catalog-source.js';

const REST_PREFIX = '/rest/v1';
const AUTH_PREFIX = '/auth/v1';
// The catalog facts `domain pull` reads (web/src/pull/catalog.js), read from
// the database before PostgREST connected; for the service key only, as a
// hosted project's catalog is for its database URL only. Where every pull
// looks for them (web/src/pull/catalog-source.js).
export const CATALOG_PATH = LOCAL_CATALOG_PATH;

const under = (path, prefix) => path === prefix || path.startsWith(`${prefix}/`) || path.startsWith(`${prefix}?`);

// What the gateway of a Supabase project answers for a path it has no
// route for.
const NO_ROUTE = JSON.stringify({ message: 'no Route matched with those values' });

// What the gateway answers, once PostgREST runs at `restUrl`.
function gatewayRoute({ restUrl, auth, catalog }) {
  const upstream = new URL(restUrl);
  return (req, res) => {
    const path = req.url ?? '/';
    if (catalog && path === CATALOG_PATH && req.method === 'GET') {
      const allowed = req.headers.apikey === catalog.serviceKey;
      res.writeHead(allowed ? 200 : 401, { 'content-type': 'application/json' });
      res.end(JSON.stringify(allowed ? catalog.facts : { message: 'the catalog is served for the service key only' }));
      return;
    }
    if (auth && under(path, AUTH_PREFIX)) {
      // The handler answers every request itself, errors included; a throw
      // here is a broken connection.
      auth.handle(req, res, path.slice(AUTH_PREFIX.length)).catch((cause) => res.destroy(cause));
      return;
    }
    if (!under(path, REST_PREFIX)) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(NO_ROUTE);
      return;
    }
    const forwardedPath = path.slice(REST_PREFIX.length) || '/';
    const proxied = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: forwardedPath.startsWith('/') ? forwardedPath : `/${forwardedPath}`,
        headers: { ...req.headers, host: upstream.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    proxied.on('error', (cause) => {
      if (res.headersSent) res.destroy(cause);
      else res.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ message: `PostgREST did not answer: ${cause.message}` }));
    });
    req.pipe(proxied);
  };
}

/**
 * Starts the gateway on `host:port` in front of PostgREST at `restUrl`, with
 * `auth` (createAuthHandler's result, optional) answering /auth/v1, and
 * `catalog` (`{ facts, serviceKey }`, optional) answering CATALOG_PATH.
 * Resolves to `{ url, stop() }`; `url` is the Supabase URL (no path).
 *
 * @example
 * const gateway = await startRestGateway({ host: '127.0.0.1', port: 54321, restUrl: 'http://127.0.0.1:3000' })
 * await fetch(`${gateway.url}/rest/v1/recipes?select=name`, { headers })
 */
export async function startRestGateway({ host, port, restUrl, auth, catalog }) {
  const gateway = await openRestGateway({ host, port });
  gateway.serve({ restUrl, auth, catalog });
  return gateway;
}

/**
 * Binds the gateway's port now (`port` 0 or absent: one the system picks,
 * so no other process can take it between choosing and binding) and serves
 * once `serve({ restUrl, auth, catalog })` is called; until then every
 * request is a 503. Resolves to `{ url, port, serve, stop() }`.
 *
 * @example
 * const gateway = await openRestGateway({ host: '127.0.0.1' })
 * // … sign users in with issuer `${gateway.url}/auth/v1`, start PostgREST …
 * gateway.serve({ restUrl: postgrest.url, auth })
 */
export async function openRestGateway({ host, port = 0 }) {
  let route = (req, res) => res.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'the local stack is starting' }));
  const server = createServer((req, res) => route(req, res));
  // Node closes an idle kept-alive connection after 5 s by default; a client
  // in the same process whose event loop was busy longer (a test compiling
  // a database in process) could reuse it just as it closes ("fetch
  // failed"). A minute, as hosted gateways keep them.
  server.keepAliveTimeout = 60_000;
  const serve = (options) => {
    route = gatewayRoute(options);
  };
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port: boundPort } = server.address();
  let stopping;
  return {
    url: `http://${host}:${boundPort}`,
    port: boundPort,
    serve,
    /** Closes the listener and every open connection; safe to call twice. */
    stop: () =>
      (stopping ??= new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      })),
  };
}
