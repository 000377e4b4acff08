// Transport details of the chat-completions driver: signals that combine a
// timeout with the caller's cancellation, abortable waits, and how long a
// provider asks us to wait before retrying.

/**
 * One signal that fires when any of `signals` fires, with that signal's
 * reason. AbortSignal.any is missing in older browsers and Node < 20.3.
 */
export function anySignal(signals) {
  const present = signals.filter(Boolean);
  if (present.length === 1) return present[0];
  if (typeof AbortSignal.any === 'function') return AbortSignal.any(present);
  const controller = new AbortController();
  for (const signal of present) {
    if (signal.aborted) {
      controller.abort(signal.reason);
      break;
    }
    signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
  }
  return controller.signal;
}

/** A signal that fires after `ms`; AbortSignal.timeout where it exists. */
export function timeoutSignal(ms) {
  if (typeof AbortSignal.timeout === 'function') return AbortSignal.timeout(ms);
  const controller = new AbortController();
  setTimeout(() => controller.abort(new DOMException('timed out', 'TimeoutError')), ms);
  return controller.signal;
}

/** Waits `ms`, or rejects with the signal's reason as soon as it fires. */
export function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Milliseconds the provider asked us to wait, or null. OpenAI sends
 * `retry-after-ms`; the standard `Retry-After` is seconds or an HTTP date.
 */
export function retryAfterMs(headers, now = Date.now()) {
  const ms = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return Math.ceil(ms);
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** Exponential backoff with jitter: base, 2×base, 4×base … capped at 8 s. */
export function backoffMs(attempt, baseMs) {
  const exact = Math.min(8000, baseMs * 2 ** attempt);
  return Math.round(exact * (0.75 + Math.random() * 0.25));
}

// Statuses worth another try: the ones OpenAI's own SDKs retry.
export const isRetryableStatus = (status) => status === 408 || status === 409 || status === 429 || status >= 500;
