/**
 * A failed model call. `code` is what to branch on:
 * - `rate_limited`: 429 after the retries; `retryAfterMs` says when to try again (or `null`; also
 *   set for other statuses that sent Retry-After);
 * - `timeout`: no answer within `timeoutMs`;
 * - `aborted`: the caller's `AbortSignal` fired;
 * - `http_error`: any other non-2xx; `status` and the provider's own `providerMessage`;
 * - `bad_response`: a 2xx the driver cannot use (not JSON, no choices, no content, a refusal);
 * - `network_error`: the request never got an HTTP answer (DNS, refused connection, reset).
 *
 * @example
 * try { await model.complete({ messages }) } catch (e) {
 *   if (e instanceof LlmError && e.code === 'rate_limited') await sleep(e.retryAfterMs ?? 10_000)
 * }
 */
export class LlmError extends Error {
  constructor({ code, message, status = null, retryAfterMs = null, providerMessage = null, cause }) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'LlmError';
    this.code = code;
    this.status = status;
    this.retryAfterMs = retryAfterMs;
    this.providerMessage = providerMessage;
  }

  toJSON() {
    return {
      code: this.code,
      message: this.message,
      status: this.status,
      retryAfterMs: this.retryAfterMs,
      providerMessage: this.providerMessage,
    };
  }
}
