// One MCP session's tool calls: the session's ref registry is loaded from the
// store, the call runs as the caller (their token, under row-level security),
// and the registry is stored back. Used by the stdio server and by the edge
// worker's /mcp route alike.
import { DATABASE_TOOLS, SCHEMA_TOOL, coreDomain, mcpToolError, mcpToolResult, schemaDescription } from './tools.js';

/**
 * A new session id: 32 random bytes, base64url (not UUID-shaped, so no
 * scrubber or reader mistakes it for a row id).
 */
export function newSessionId() {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * Stores a fresh session for `caller`: `{ data: state, error }`.
 *
 * @example
 * const sessionId = newSessionId()
 * await openSession({ store, sessionId, caller: { userId, accessToken }, protocolVersion: '2025-06-18' })
 */
export async function openSession({ store, sessionId, caller, protocolVersion = null }) {
  const now = new Date().toISOString();
  const state = { userId: caller.userId, registry: null, protocolVersion, createdAt: now, updatedAt: now };
  try {
    await store.put(sessionId, state, caller);
    return { data: state, error: null };
  } catch (cause) {
    return { data: null, error: storeFailure(cause) };
  }
}

/**
 * The session's state for `caller`: `{ data: state | null, error }`. A
 * session stored for another user is null, as one that never existed.
 */
export async function findSession({ store, sessionId, caller }) {
  try {
    const state = await store.get(sessionId, caller);
    if (!state || state.userId !== caller.userId) return { data: null, error: null };
    return { data: state, error: null };
  } catch (cause) {
    return { data: null, error: storeFailure(cause) };
  }
}

/** Forgets the session: `{ data: true, error }`. */
export async function closeSession({ store, sessionId, caller }) {
  try {
    await store.delete(sessionId, caller);
    return { data: true, error: null };
  } catch (cause) {
    return { data: null, error: storeFailure(cause) };
  }
}

// Calls of one session run one after another within a process, so two
// concurrent calls never start from the same registry and hand out the same
// ref twice. Across processes a store must serialize them itself.
const running = new Map();

function serialized(key, task) {
  const previous = running.get(key) ?? Promise.resolve();
  const current = previous.then(task, task);
  const settled = current.then(
    () => {},
    () => {},
  );
  running.set(key, settled);
  settled.then(() => {
    if (running.get(key) === settled) running.delete(key);
  });
  return current;
}

/**
 * Runs one `tools/call` in a session: resolves to an MCP CallToolResult
 * whose text is `act.callTool`'s result for the model; never rejects for bad
 * arguments, a missing session or a database failure (those are `isError`
 * results with `code`, `path`, `message`, `hint`).
 * `actOptions` are createAct's (url, apiKey, accessToken, userId, domain,
 * fetch, …); the caller is `{ userId, accessToken }` from them.
 *
 * @example
 * const result = await callSessionTool({ core, store, sessionId, actOptions, name: 'db_read', args: { table: 'inventory' } })
 * // { content: [{ type: 'text', text: '{"ok":true,"tool":"db_read","table":"inventory","count":4,"rows":[{"id":"inv_1",…}],"query":"Query: …"}' }], isError: false }
 */
export async function callSessionTool({ core, store, sessionId, actOptions, name, args, signal }) {
  if (name === SCHEMA_TOOL) {
    const { data, error } = schemaDescription(core, actOptions.domain ?? coreDomain(core));
    return error ? mcpToolError(name, error) : { content: [{ type: 'text', text: data }], isError: false };
  }
  if (!DATABASE_TOOLS.includes(name)) {
    return mcpToolError(name, { code: 'unknown_tool', message: `there is no tool ${JSON.stringify(name)}`, path: 'name', hint: `tools: ${[...DATABASE_TOOLS, SCHEMA_TOOL].join(', ')}` });
  }
  const caller = { userId: actOptions.userId, accessToken: actOptions.accessToken };
  return serialized(`${caller.userId}\n${sessionId}`, async () => {
    const { data: session, error: findError } = await findSession({ store, sessionId, caller });
    if (findError) return mcpToolError(name, findError);
    if (!session) return mcpToolError(name, sessionNotFound());
    let act;
    try {
      act = core.createAct({ ...actOptions, state: session.registry ?? undefined });
    } catch (cause) {
      if (cause?.name !== 'AlfredError') throw cause;
      return mcpToolError(name, { code: cause.code, message: `the session's state is unusable: ${cause.message}`, path: 'session', hint: 'start a new session' });
    }
    try {
      // Arguments as the client sent them: the core takes plain and strict-mode
      // params alike, and refuses anything else with a path.
      const result = await act.callTool(name, args ?? {}, { signal });
      const next = { ...session, registry: act.registry.toJSON(), updatedAt: new Date().toISOString() };
      try {
        await store.put(sessionId, next, caller);
      } catch (cause) {
        // The call ran (a write is done): it is reported as it happened, never
        // as a failure the model would retry, with what was lost said.
        const answer = mcpToolResult(result);
        answer.content.push({ type: 'text', text: `note: ${storeFailure(cause).message}; refs from this result may not resolve in later calls` });
        return answer;
      }
      return mcpToolResult(result);
    } finally {
      act.registry.delete();
    }
  });
}

export function sessionNotFound() {
  return { code: 'session_not_found', message: 'this MCP session does not exist, has expired or belongs to another user', hint: 'initialize a new session' };
}

function storeFailure(cause) {
  return { code: 'session_store_failed', message: `the session store failed: ${cause?.message ?? cause}` };
}
