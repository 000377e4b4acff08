// The worker with its per-user limits shared by every isolate: the same
// handler, counting in Durable Objects (durable-limit-store.js) bound as
// LIMITS. Cloudflare Workers only; use it as `main` instead of handler.js
// (docs/worker-auth.md has the wrangler configuration).
import { createHandler } from './handler.js';
import { DurableObjectLimitStore } from './durable-limit-store.js';

export { LimitCounter } from './durable-limit-store.js';

const stores = new WeakMap();

export default createHandler({
  limitStore(env) {
    if (!env.LIMITS) throw new Error('the LIMITS Durable Object binding is missing (see docs/worker-auth.md)');
    let store = stores.get(env.LIMITS);
    if (!store) {
      store = new DurableObjectLimitStore(env.LIMITS);
      stores.set(env.LIMITS, store);
    }
    return store;
  },
});
