// Whose refs a registry holds (docs/sessions.md, "One user's refs"): the
// core binds a registry to the first signed-in user whose call succeeds and
// refuses another user's calls; these are the same checks where no call is
// made (createAct with a state, and a turn before its prompt is built).
import { codes } from '../../dist/error-codes.mjs';

// The prefix the core writes a registry state with, up to its user.
const STATE_USER = /^\{"format":"alfred-act\/registry","version":\d+,"turn":\d+,"user":"((?:[^"\\]|\\.)*)"/;

/** The user a saved state's refs were made for (its `"user"`), or null. */
export function stateUser(state) {
  if (typeof state === 'string') {
    const match = STATE_USER.exec(state);
    if (match) return JSON.parse(`"${match[1]}"`);
    // Written some other way (pretty-printed, reordered): read whole, only then.
    if (!state.includes('"user"')) return null;
    try {
      return stateUser(JSON.parse(state));
    } catch {
      return null; // the core reports a damaged state
    }
  }
  return typeof state?.user === 'string' && state.user !== '' ? state.user : null;
}

/** The user a registry's refs were made for, or null. */
export const registryUser = (registry) => stateUser(registry.toJSON());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether two user ids name the same user (a UUID in either letter case). */
export const sameUser = (a, b) => a === b || (UUID.test(a) && UUID.test(b) && a.toLowerCase() === b.toLowerCase());

/**
 * Why `user` (null when no one is signed in) may not use refs made for
 * `bound` (null: bound to no one), as the core words it; null when it may.
 */
export function refusedUser(bound, user) {
  if (!bound || (user && sameUser(bound, user))) return null;
  return {
    code: codes.state_of_another_user,
    path: 'state',
    message: user
      ? "these refs are another signed-in user's"
      : "these refs are a signed-in user's, and no one is signed in now",
    hint: 'sign in as the user these refs were made for, or start a new conversation (an act without that state)',
  };
}
