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
// Every method may return a value or a promise. MemoryLimitStore below keeps
// the counts in the isolate; a shared store (a Durable Object, see
// docs/worker-auth.md) implements the same three methods.

/**
 * Counts in this isolate's memory: exact within one isolate, not shared
 * between isolates or instances (each has its own budget). Expired windows
 * and leases are swept as the store is used, so memory follows the number
 * of users active within the longest window.
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

  take(key, { amount, limit, windowMs, now, force = false }) {
    this.#sweep(now);
    let window = this.#windows.get(key);
    if (!window || now >= window.endsAt) {
      window = { used: 0, endsAt: now + windowMs };
      // An empty read does not open a window.
      if (amount > 0) this.#windows.set(key, window);
    }
    const allowed = force || window.used + amount <= limit;
    if (allowed) window.used += amount;
    return { allowed, used: window.used, retryAfterMs: Math.max(0, window.endsAt - now) };
  }

  acquire(key, { limit, leaseMs, now }) {
    this.#sweep(now);
    const held = this.#liveLeases(key, now);
    if (held.size >= limit) {
      const soonest = Math.min(...held.values());
      return { allowed: false, lease: null, retryAfterMs: Math.max(0, soonest - now) };
    }
    const lease = String((this.#nextLease += 1));
    held.set(lease, now + leaseMs);
    this.#leases.set(key, held);
    return { allowed: true, lease, retryAfterMs: 0 };
  }

  release(key, lease) {
    const held = this.#leases.get(key);
    if (!held) return;
    held.delete(lease);
    if (held.size === 0) this.#leases.delete(key);
  }

  #liveLeases(key, now) {
    const held = this.#leases.get(key) ?? new Map();
    for (const [lease, expiresAt] of held) if (expiresAt <= now) held.delete(lease);
    return held;
  }

  // At most once a second: drop closed windows and expired leases.
  #sweep(now) {
    if (now - this.#sweptAt < 1_000) return;
    this.#sweptAt = now;
    for (const [key, window] of this.#windows) if (now >= window.endsAt) this.#windows.delete(key);
    for (const key of [...this.#leases.keys()]) if (this.#liveLeases(key, now).size === 0) this.#leases.delete(key);
  }
}
