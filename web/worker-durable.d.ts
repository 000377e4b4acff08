// alfred-act/worker/durable: the per-user limits counted in Durable Objects,
// shared by every isolate of a Cloudflare worker (docs/worker-auth.md).
// Cloudflare Workers only: it imports cloudflare:workers.
import type { LimitAcquire, LimitStore, LimitTake } from './worker.js';

/**
 * The Durable Object class holding one counter key; export it from the
 * worker's main module and bind it (wrangler.jsonc `durable_objects`).
 *
 * @example
 * export { LimitCounter } from 'alfred-act/worker/durable'
 */
export declare class LimitCounter {
  constructor(ctx: unknown, env: unknown);
  take(request: { amount: number; limit: number; windowMs: number; now: number; force?: boolean }): Promise<LimitTake>;
  acquire(request: { limit: number; leaseMs: number; now: number }): Promise<LimitAcquire>;
  release(lease: string): Promise<void>;
  alarm(): Promise<void>;
}

/** The part of a Durable Object namespace binding the store uses. */
export interface LimitCounterNamespace {
  idFromName(name: string): unknown;
  get(id: unknown): Pick<LimitCounter, 'take' | 'acquire' | 'release'>;
}

/**
 * A LimitStore over the LimitCounter namespace binding.
 *
 * @example
 * export default createHandler({ domain, limitStore: (env) => new DurableObjectLimitStore(env.LIMITS) })
 */
export declare class DurableObjectLimitStore implements LimitStore {
  constructor(namespace: LimitCounterNamespace);
  take(key: string, request: { amount: number; limit: number; windowMs: number; now: number; force?: boolean }): Promise<LimitTake>;
  acquire(key: string, request: { limit: number; leaseMs: number; now: number }): Promise<LimitAcquire>;
  release(key: string, lease: string): Promise<void>;
}

/**
 * createHandler's `limitStore`: one DurableObjectLimitStore per isolate over
 * the binding named `binding` (default `LIMITS`).
 *
 * @example
 * import { createHandler } from 'alfred-act/worker'
 * import { durableLimitStore } from 'alfred-act/worker/durable'
 * export { LimitCounter } from 'alfred-act/worker/durable'
 * export default createHandler({ domain, limitStore: durableLimitStore('LIMITS') })
 */
export declare function durableLimitStore(binding?: string): (env: Record<string, unknown>) => LimitStore;
