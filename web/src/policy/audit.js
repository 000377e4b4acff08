// The audit trail of one tool call: one entry per request sent to the
// database, and one more when the call ended with an error no request's
// answer carries (refused before sending anything, or between two requests:
// read_only, approval_required, a validation error, too_many_rows by count).
// The call's error code is in exactly one entry. Entries go to `onAudit`
// when the call ends; an OpenTelemetry span (when a tracer is given) covers
// the call, with an event per request. Neither may break or stall the call:
// a hook that throws or rejects is ignored, and nothing here is awaited.
import { codes } from '../../dist/error-codes.mjs';

const WRITE_METHODS = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);
// OpenTelemetry's SpanKind.CLIENT and SpanStatusCode.ERROR / OK (stable values of the API).
const SPAN_KIND_CLIENT = 2;
const STATUS_OK = 1;
const STATUS_ERROR = 2;

const ok = (response) => !response.failure && response.status >= 200 && response.status < 300;

// The `sub` of a JWT, read without verifying it: the label of the entries
// when the act was not given a userId (the database verifies the token); the
// CLI's user when ALFRED_USER_ID is not set.
export function subjectOf(token) {
  if (typeof token !== 'string') return null;
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const json = atob(part.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(part.length / 4) * 4, '='));
    const sub = JSON.parse(json)?.sub;
    return typeof sub === 'string' ? sub : null;
  } catch {
    return null;
  }
}

// `params` as the model may see them: a UUID a value holds becomes its ref,
// or `<id>` (the core's scrubber).
function paramsWithoutUuids(core, registry, params) {
  try {
    const text = JSON.stringify(params ?? null);
    return JSON.parse(core.withoutUuids(text, { registry }));
  } catch {
    return null;
  }
}

function requestOf(url, method) {
  try {
    const parsed = new URL(url);
    return { method, path: parsed.pathname, query: parsed.search.replace(/^\?/, '') };
  } catch {
    return { method, path: String(url).slice(0, 200), query: '' };
  }
}

// Calls `hook(entry)`; a throw or a rejection is dropped.
function deliver(hook, entry) {
  try {
    const returned = hook(entry);
    if (returned && typeof returned.then === 'function') returned.then(undefined, () => {});
  } catch {
    // The hook's failure is the hook's: the call goes on.
  }
}

function safely(action) {
  try {
    return action();
  } catch {
    return undefined;
  }
}

/** A trail that records nothing: acts without onAudit or tracer. */
const SILENT = Object.freeze({
  attempt: () => SILENT_ATTEMPT,
  finish: () => {},
  set approved(_) {},
});
const SILENT_ATTEMPT = Object.freeze({ sent: () => () => {}, end: () => {} });

/**
 * Starts the trail of one call. `sink` is `{ onAudit, tracer, core,
 * registry, userId, token }`; without `onAudit` and `tracer` the trail is a
 * no-op. `trail.attempt()` records one run of the core (its requests);
 * `trail.finish(result)` emits the entries and ends the span.
 *
 * @example
 * const trail = startTrail({ onAudit, tracer, core, registry, userId }, 'db_delete', params)
 * const attempt = trail.attempt(); const done = attempt.sent(need); done(response); attempt.end(result)
 * trail.finish(result)
 */
export function startTrail(sink, tool, params) {
  const { onAudit, tracer } = sink;
  if (!onAudit && !tracer) return SILENT;
  const trail = new Trail(sink, tool, params);
  // A tracer that records nothing (@opentelemetry/api with no provider
  // registered): nothing to do for this call.
  return onAudit || trail.recording ? trail : SILENT;
}

class Trail {
  #sink;
  #tool;
  #table;
  #params;
  #entries = [];
  #span = null;
  /** true: the call ran with the host's approval; false: it needed one and did not get it; null: none needed. */
  approved = null;

  constructor(sink, tool, params) {
    this.#sink = sink;
    this.#tool = String(tool);
    this.#table = typeof params?.table === 'string' ? params.table : null;
    this.#params = params;
    if (sink.tracer) {
      this.#span = safely(() => sink.tracer.startSpan(`alfred-act ${this.#tool}`, {
        kind: SPAN_KIND_CLIENT,
        attributes: { 'alfred.tool': this.#tool, ...(this.#table ? { 'alfred.table': this.#table } : {}) },
      })) ?? null;
      if (this.#span && safely(() => this.#span.isRecording?.()) === false) {
        safely(() => this.#span.end());
        this.#span = null;
      }
    }
  }

  /** Whether a span records this call. */
  get recording() {
    return this.#span !== null;
  }

  /** One run of the core: `sent(need)` when a request leaves, its return value when the answer is in, `end(result)`. */
  attempt() {
    const requests = [];
    return {
      sent: (need) => {
        const started = Date.now();
        const entry = { at: started, url: need.url, method: need.method, status: null, affected: null, ms: null, error: null, write: WRITE_METHODS.has(need.method), ok: false };
        requests.push(entry);
        return (response) => {
          // Refused before it left (connection refused): not a request sent.
          if (response.failure === 'not_sent') return;
          entry.ms = Date.now() - started;
          entry.status = response.status || 0;
          entry.failure = response.failure || '';
          entry.ok = ok(response);
          if (this.#span) safely(() => this.#span.addEvent('request', { 'http.request.method': need.method, 'url.path': requestOf(need.url, need.method).path, 'http.response.status_code': entry.status, 'alfred.ms': entry.ms }));
        };
      },
      end: (result) => {
        const code = result?.error?.code ?? null;
        // A create whose rows are not read back (a write-only table's) has none in `data`: `count` says how many.
        const rows = Array.isArray(result?.data) ? result.data.length || (Number.isInteger(result?.count) ? result.count : 0) : result?.data ? 1 : 0;
        for (const entry of requests) {
          if (entry.status === null) continue; // never answered (an abort): not sent as far as the trail knows
          // A refused request of a call that then succeeded (a create sent again without its read-back) keeps its refusal.
          entry.error = entry.ok ? null : code ?? (entry.status === 401 || entry.status === 403 ? codes.permission_denied : null);
          if (entry.write) entry.affected = entry.ok ? (code ? null : rows) : entry.failure ? null : 0;
          this.#entries.push(entry);
        }
      },
    };
  }

  /** Emits the entries (and a refusal entry when the call's error is in none), ends the span. */
  finish(result) {
    const code = result?.error?.code ?? null;
    if (code && !this.#entries.some((entry) => entry.error === code)) {
      this.#entries.push({ at: Date.now(), url: null, status: null, affected: null, ms: 0, error: code });
    }
    const { onAudit, core, registry } = this.#sink;
    const span = this.#span;
    if (span) {
      safely(() => {
        span.setAttribute('alfred.requests', this.#entries.filter((entry) => entry.url).length);
        if (this.approved !== null) span.setAttribute('alfred.approved', this.approved);
        if (code) span.setAttribute('alfred.error', code);
        span.setStatus(code ? { code: STATUS_ERROR, message: code } : { code: STATUS_OK });
      });
      safely(() => span.end());
    }
    if (!onAudit) return;
    const userId = this.#sink.userId || subjectOf(this.#sink.token) || null;
    const params = paramsWithoutUuids(core, registry, this.#params);
    for (const entry of this.#entries) {
      deliver(onAudit, {
        at: new Date(entry.at).toISOString(),
        userId,
        tool: this.#tool,
        table: this.#table,
        params,
        request: entry.url ? requestOf(entry.url, entry.method) : null,
        status: entry.status,
        affected: entry.affected,
        ms: entry.ms,
        error: entry.error,
        approved: this.approved,
      });
    }
  }
}
