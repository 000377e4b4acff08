// Where the per-user limits keep their counts. The worker needs two things of
// a store, each atomic per key:
//
//   take(key, { amount, limit, windowMs, now, force? })
//     → { allowed, used, retryAfterMs }
//     A counter in a fixed window that opens at the first counted use of
//     `key` and lasts `windowMs`. Adds `amount` when `used + amount <= limit`
//     (or always with `force`, for tokens counted after the call that spent
//     them); `allowed` says whether it was added, `used` is the count after,
//     `retryAfterMs` how long until the window closes. `amount: 0` only reads.
//
//   acquire(key, { limit, leaseMs, now }) → { allowed, lease, retryAfterMs }
//   release(key, lease)
//     A slot among `limit` for one running turn. A lease that is never
//     released (an isolate that died mid-turn) frees itself after `leaseMs`.
//
// Every method may return a value or a promise. MemoryLimitStore keeps the
// counts in the isolate; DurableObjectLimitStore (durable.js, `alfred-act/worker/durable`)
// shares them between isolates. Both apply the same two rules below
// (takeFromWindow, acquireLease) to the state of one key.

/**
 * The take rule on one key's window (`{ used, endsAt }` or null): the answer
 * and the window to keep (null: nothing to keep).
 *
 * @example
 * takeFromWindow(null, { amount: 1, limit: 10, windowMs: 60_000, now: 0 })
 * // { answer: { allowed: true, used: 1, retryAfterMs: 60000 }, window: { used: 1, endsAt: 60000 } }
 */
export function takeFromWindow(window, { amount, limit, windowMs, now, force = false }) {
  const current = window && now < window.endsAt ? window : { used: 0, endsAt: now + windowMs };
  const allowed = force || current.used + amount <= limit;
  const used = allowed ? current.used + amount : current.used;
  const answer = { allowed, used, retryAfterMs: Math.max(0, current.endsAt - now) };
  // An empty read does not open a window.
  const keep = used > 0 || current === window ? { used, endsAt: current.endsAt } : null;
  return { answer, window: keep };
}

/**
 * The acquire rule on one key's leases (`{ [lease]: expiresAt }`): the answer
 * and the leases to keep, expired ones dropped. `lease` names the new one.
 *
 * @example
 * acquireLease({}, { limit: 2, leaseMs: 900_000, now: 0, lease: 'a' })
 * // { answer: { allowed: true, lease: 'a', retryAfterMs: 0 }, leases: { a: 900000 } }
 */
export function acquireLease(leases, { limit, leaseMs, now, lease }) {
  const live = Object.fromEntries(Object.entries(leases ?? {}).filter(([, expiresAt]) => expiresAt > now));
  const held = Object.values(live);
  if (held.length >= limit) return { answer: { allowed: false, lease: null, retryAfterMs: Math.max(0, Math.min(...held) - now) }, leases: live };
  return { answer: { allowed: true, lease, retryAfterMs: 0 }, leases: { ...live, [lease]: now + leaseMs } };
}

/**
 * Counts in this isolate's memory: exact within one isolate, not shared
 * between isolates or instances (each has its own budget). Closed windows
 * and expired leases are swept as the store is used, so memory follows the
 * number of users active within the longest window.
 *
 * @example
 * const store = new MemoryLimitStore()
 * store.take('turns:user-1', { amount: 1, limit: 10, windowMs: 60_000, now: Date.now() }) // { allowed: true, used: 1, retryAfterMs: 60000 }
 */
export class MemoryLimitStore {
  #windows = new Map();
  #leases = new Map();
  #nextLease = 0;
  #sweptAt = 0;

  take(key, request) {
    this.#sweep(request.now);
    const { answer, window } = takeFromWindow(this.#windows.get(key) ?? null, request);
    if (window) this.#windows.set(key, window);
    return answer;
  }

  acquire(key, { limit, leaseMs, now }) {
    this.#sweep(now);
    const { answer, leases } = acquireLease(this.#leases.get(key), { limit, leaseMs, now, lease: String((this.#nextLease += 1)) });
    this.#leases.set(key, leases);
    return answer;
  }

  release(key, lease) {
    const leases = this.#leases.get(key);
    if (leases) delete leases[lease];
  }

  // At most once a second: drop closed windows and expired leases.
  #sweep(now) {
    if (now - this.#sweptAt < 1_000) return;
    this.#sweptAt = now;
    for (const [key, window] of this.#windows) if (now >= window.endsAt) this.#windows.delete(key);
    for (const [key, leases] of this.#leases) if (Object.values(leases).every((expiresAt) => expiresAt <= now)) this.#leases.delete(key);
  }
}
