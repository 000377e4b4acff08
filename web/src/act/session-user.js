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
    return match ? JSON.parse(`"${match[1]}"`) : null;
  }
  return typeof state?.user === 'string' && state.user !== '' ? state.user : null;
}

/** The user a registry's refs were made for, or null. */
export const registryUser = (registry) => stateUser(registry.toJSON());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether two user ids name the same user (a UUID in either letter case). */
export const sameUser = (a, b) => a === b || (UUID.test(a) && UUID.test(b) && a.toLowerCase() === b.toLowerCase());

/** The refusal of another user's refs, as the core words it. */
export const anotherUserError = () => ({
  code: codes.state_of_another_user,
  path: 'state',
  message: "the refs of this conversation were made for another signed-in user, and are not this user's",
  hint: 'start a new conversation for this user: an act without that state (or a new registry)',
});
