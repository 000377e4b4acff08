// `alfred-act/worker` for Node: the core compiled from the shipped .wasm on disk (for tests, or a Node server calling `fetch(request, env)`).
import { loadCore } from '../index.node.js';
import { createHandlerWith } from './handler.js';

export { WORKER_VARIABLES } from './variables.js';
export { MemoryLimitStore, acquireLease, takeFromWindow } from './limit-store.js';

/**
 * The edge worker's `{ fetch(request, env, ctx) }`, serving `domain` (the
 * JSON `alfred-act domain pull` writes; required, never a demo by default):
 * `/act/execute`, `/act/turn`, `/mcp` and `/health`, every request verified
 * as its caller's Supabase JWT before anything is spent. The configuration
 * (project URL, anon key, JWT secret or JWK set, model, limits) comes from
 * `env` on each request (worker/README.md). Options: `limitStore(env)` (the
 * per-user limits' store, per isolate by default; `durableLimitStore()` from
 * `alfred-act/worker/durable` shares them), `sessionStore(env, config)` for
 * /mcp sessions, `wasm` / `wasmModule` for loadCore. Throws an AlfredError
 * (`invalid_option`) at once when `domain` is not an object; a domain the
 * core refuses is a 500 `core_unavailable` naming its path.
 *
 * @example
 * import { createHandler } from 'alfred-act/worker'
 * import domain from '../domain.json' with { type: 'json' }
 *
 * export default createHandler({ domain })
 */
export const createHandler = (options) => createHandlerWith(loadCore, options);
