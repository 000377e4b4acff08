// Test helpers for the embedded local Supabase (db/local-stack.mjs): a fresh,
// seeded stack on free ports that stops when the test or suite ends, and a
// small fetch wrapper for talking to its PostgREST.
import { after, before } from 'node:test';
import { startStack } from '../../../db/local-stack.mjs';

export { SEED_USERS } from '../../../db/seed/ids.mjs';

/**
 * Starts a stack for one test and stops it when that test ends.
 *
 * @example
 * test('reads', async (t) => { const stack = await withStack(t); … })
 */
export async function withStack(t, options) {
  const stack = await startStack(options);
  t.after(() => stack.stop());
  return stack;
}

/**
 * One stack for every test of the file (or of the enclosing describe):
 * started in a before hook, stopped in an after hook. Returns a getter.
 *
 * @example
 * const stack = sharedStack()
 * test('reads', async () => { const { url } = stack(); … })
 */
export function sharedStack(options) {
  let stack;
  before(async () => {
    stack = await startStack(options);
  });
  after(() => stack?.stop());
  return () => {
    if (!stack) throw new Error('sharedStack: the stack is not started yet (use it inside a test)');
    return stack;
  };
}

/**
 * `fetch` against the stack's PostgREST with `token` as the bearer (no token:
 * anon). `body` is sent as JSON. Resolves to `{ status, body, headers }`,
 * `body` parsed when it is JSON.
 *
 * @example
 * const { status, body } = await rest(stack, ada.token, 'GET', '/recipes?select=name')
 */
export async function rest(stack, token, method, path, { body, prefer, headers = {} } = {}) {
  const response = await fetch(`${stack.url}${path}`, {
    method,
    headers: {
      apikey: stack.anonKey,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(prefer ? { prefer } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed = text;
  try {
    parsed = text === '' ? null : JSON.parse(text);
  } catch {}
  return { status: response.status, body: parsed, headers: response.headers };
}
