// The per-user limits shared by every isolate of the worker: one Durable
// Object per counter key (`turns:<user>`, `running:<user>`, …), which runs one
// request at a time, so each take/acquire is atomic. Counts are kept in the
// object's storage, so they survive the object being evicted. Cloudflare
// Workers only (it imports cloudflare:workers): `alfred-act/worker/durable`.
// The worker template's src/durable.js uses it, and docs/worker-auth.md
// shows the wrangler configuration.
import { DurableObject } from 'cloudflare:workers';
import { acquireLease, takeFromWindow } from './limit-store.js';

/**
 * The Durable Object class: the state of one counter key. Its methods are
 * called over RPC by DurableObjectLimitStore.
 */
export class LimitCounter extends DurableObject {
  async take(request) {
    const { answer, window } = takeFromWindow((await this.ctx.storage.get('window')) ?? null, request);
    if (window) await this.ctx.storage.put('window', window);
    await this.#expireAt(window?.endsAt);
    return answer;
  }

  async acquire(request) {
    const lease = crypto.randomUUID();
    const { answer, leases } = acquireLease(await this.ctx.storage.get('leases'), { ...request, lease });
    await this.ctx.storage.put('leases', leases);
    await this.#expireAt(Math.max(0, ...Object.values(leases)));
    return answer;
  }

  async release(lease) {
    const leases = (await this.ctx.storage.get('leases')) ?? {};
    delete leases[lease];
    await this.ctx.storage.put('leases', leases);
  }

  // The object's storage is deleted once its window and leases are over.
  async #expireAt(time) {
    if (!time) return;
    const current = await this.ctx.storage.getAlarm();
    if (current === null || current < time) await this.ctx.storage.setAlarm(time);
  }

  async alarm() {
    const now = Date.now();
    const window = await this.ctx.storage.get('window');
    const leases = Object.values((await this.ctx.storage.get('leases')) ?? {});
    const until = Math.max(window?.endsAt ?? 0, ...leases);
    if (until <= now) await this.ctx.storage.deleteAll();
    else await this.ctx.storage.setAlarm(until);
  }
}

/**
 * The LimitStore (limit-store.js) over a LimitCounter namespace binding.
 *
 * @example
 * export default createHandler({ domain, limitStore: (env) => new DurableObjectLimitStore(env.LIMITS) })
 */
export class DurableObjectLimitStore {
  constructor(namespace) {
    this.namespace = namespace;
  }

  #counter(key) {
    return this.namespace.get(this.namespace.idFromName(key));
  }

  take(key, request) {
    return this.#counter(key).take(request);
  }

  acquire(key, request) {
    return this.#counter(key).acquire(request);
  }

  release(key, lease) {
    return this.#counter(key).release(lease);
  }
}

/**
 * `limitStore` for createHandler: one DurableObjectLimitStore per isolate
 * over the LimitCounter namespace bound as `binding` (default `LIMITS`). A
 * missing binding fails the request that needs it, saying which.
 *
 * @example
 * import { createHandler } from 'alfred-act/worker'
 * import { durableLimitStore } from 'alfred-act/worker/durable'
 * export { LimitCounter } from 'alfred-act/worker/durable'
 * export default createHandler({ domain, limitStore: durableLimitStore('LIMITS') })
 */
export function durableLimitStore(binding = 'LIMITS') {
  const stores = new WeakMap();
  return (env) => {
    const namespace = env?.[binding];
    if (!namespace) throw new Error(`the ${binding} Durable Object binding is missing (bind the LimitCounter class as ${binding}; see docs/worker-auth.md)`);
    let store = stores.get(namespace);
    if (!store) {
      store = new DurableObjectLimitStore(namespace);
      stores.set(namespace, store);
    }
    return store;
  };
}
