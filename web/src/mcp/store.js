// Where an MCP session's state lives between tool calls. A session store
// has three methods, each given the session id and the caller
// (`{ userId, accessToken }`), and each may return a value or a promise:
//
//   get(sessionId, caller)        → the session's state, or null
//   put(sessionId, state, caller) → stores it (creating the session)
//   delete(sessionId, caller)     → forgets it (no error when absent)
//
// `state` is a JSON value: `{ userId, registry, protocolVersion, createdAt,
// updatedAt }` (registry: the ref registry's toJSON(), null before the
// first call). A store keeps sessions per user: a session id presented by
// another user is not found. A method that fails throws; the MCP layer
// turns that into an error value for the client.
//
// MemorySessionStore keeps them in this process; SupabaseSessionStore in a
// table of the user's own database, under row-level security. A store shared
// between isolates (a Cloudflare Durable Object or KV namespace) needs only
// these three methods (docs/mcp.md).
import { restUrl } from '../act/options.js';

const DEFAULT_MAX_SESSIONS = 10_000;
const DEFAULT_IDLE_MS = 24 * 60 * 60 * 1000;

/**
 * Sessions in this process's memory, keyed by user and session id. The
 * least recently used session goes first past `maxSessions`; a session idle
 * longer than `idleMs` is gone.
 *
 * @example
 * const store = new MemorySessionStore({ maxSessions: 1000 })
 * await store.put('s1', { userId: 'u1', registry: null }, { userId: 'u1' })
 * await store.get('s1', { userId: 'u2' }) // null: another user's session
 */
export class MemorySessionStore {
  #sessions = new Map();
  #maxSessions;
  #idleMs;
  #now;

  constructor({ maxSessions = DEFAULT_MAX_SESSIONS, idleMs = DEFAULT_IDLE_MS, now = Date.now } = {}) {
    this.#maxSessions = maxSessions;
    this.#idleMs = idleMs;
    this.#now = now;
  }

  get(sessionId, { userId }) {
    const key = memoryKey(sessionId, userId);
    const entry = this.#sessions.get(key);
    if (!entry) return null;
    if (this.#now() - entry.usedAt > this.#idleMs) {
      this.#sessions.delete(key);
      return null;
    }
    return JSON.parse(entry.text);
  }

  put(sessionId, state, { userId }) {
    const key = memoryKey(sessionId, userId);
    // Re-inserted, so the Map's order is least recently stored first.
    this.#sessions.delete(key);
    this.#sessions.set(key, { text: JSON.stringify(state), usedAt: this.#now() });
    while (this.#sessions.size > this.#maxSessions) this.#sessions.delete(this.#sessions.keys().next().value);
  }

  delete(sessionId, { userId }) {
    this.#sessions.delete(memoryKey(sessionId, userId));
  }

  /** How many sessions are held (for tests and metrics). */
  get size() {
    return this.#sessions.size;
  }
}

const memoryKey = (sessionId, userId) => `${userId}\n${sessionId}`;

/**
 * Sessions in a table of the user's own Supabase database, read and written
 * through PostgREST as the user (their access token, the anon key), so
 * row-level security keeps each user to their own sessions. The table
 * (db/sessions/010_act_sessions.sql):
 *
 *   act_sessions(id text, user_id uuid default auth.uid(), state jsonb, updated_at timestamptz)
 *   primary key (user_id, id), RLS: user_id = auth.uid()
 *
 * @example
 * const store = new SupabaseSessionStore({ url: SUPABASE_URL, apiKey: anonKey })
 * await store.get(sessionId, { userId, accessToken })
 */
export class SupabaseSessionStore {
  #base;
  #apiKey;
  #fetch;
  #table;

  constructor({ url, restUrl: root, apiKey, fetch: fetchImpl = globalThis.fetch, table = 'act_sessions' }) {
    // `url` is the Supabase URL (gets /rest/v1); `restUrl` a bare PostgREST root.
    this.#base = root ? root.replace(/\/+$/, '') : restUrl(url);
    this.#apiKey = apiKey;
    // Called unbound: workerd's fetch refuses to run with a store as `this`.
    this.#fetch = (...args) => fetchImpl(...args);
    this.#table = table;
  }

  async get(sessionId, caller) {
    const rows = await this.#send(caller, 'GET', `?select=state&id=eq.${encodeURIComponent(sessionId)}`);
    return rows.length === 0 ? null : rows[0].state;
  }

  async put(sessionId, state, caller) {
    // An upsert on the primary key (user_id, id); user_id is auth.uid() by
    // default and checked by the table's policies, never taken from here.
    await this.#send(caller, 'POST', '', {
      body: JSON.stringify({ id: sessionId, state, updated_at: new Date().toISOString() }),
      prefer: 'resolution=merge-duplicates,return=minimal',
    });
  }

  async delete(sessionId, caller) {
    await this.#send(caller, 'DELETE', `?id=eq.${encodeURIComponent(sessionId)}`, { prefer: 'return=minimal' });
  }

  async #send({ accessToken }, method, query, { body, prefer } = {}) {
    const headers = { apikey: this.#apiKey, authorization: `Bearer ${accessToken}`, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (prefer) headers.prefer = prefer;
    const response = await this.#fetch(`${this.#base}/${this.#table}${query}`, { method, headers, body });
    // Only status and arrayBuffer(): any fetch an Act accepts fits here too.
    const text = new TextDecoder().decode(await response.arrayBuffer());
    if (response.status < 200 || response.status > 299) {
      let detail = text;
      let code = null;
      try {
        ({ message: detail = text, code = null } = JSON.parse(text));
      } catch {}
      // No such table (PostgREST 12: 42P01, 13: PGRST205): the database has
      // no act_sessions until its migration is applied.
      const missing = code === '42P01' || code === 'PGRST205' ? ` (create it with alfred-act's db/sessions/010_act_sessions.sql as a migration; the local stack: --sessions, or startStack({ sessions: true }))` : '';
      const error = new Error(`the session store (${this.#table}) answered ${response.status}: ${detail}${missing}`);
      error.status = response.status;
      throw error;
    }
    return text === '' ? null : JSON.parse(text);
  }
}
