// The state a caller sends back: either the turn state /act/turn returned
// (`{ format: 'alfred-act.turn-state', registry, … }`) or a bare registry
// state (`registry.toJSON()`). Either comes back in the same form.
import { readTurnState } from '../loop/index.js';
import { invalid } from './http.js';

const TURN_STATE_FORMAT = 'alfred-act.turn-state';

/**
 * `{ data: { registry, withRegistry(registryJson) }, error }`: the registry
 * state to start the executor from, and how to fold the registry after the
 * call back into the caller's form.
 */
export function callerState(state) {
  if (state === undefined || state === null) return { data: { registry: undefined, withRegistry: (registry) => registry }, error: null };
  if (typeof state !== 'object' || Array.isArray(state)) return { data: null, error: invalid('state', 'state must be an object (the last response\'s state)') };
  // Anything else is taken as a registry state, which the core checks.
  if (state.format !== TURN_STATE_FORMAT) return { data: { registry: state, withRegistry: (registry) => registry }, error: null };
  const { data: turnState, error } = readTurnState(state);
  if (error) return { data: null, error: { status: 400, ...error } };
  return { data: { registry: turnState.registry ?? undefined, withRegistry: (registry) => ({ ...turnState, registry }) }, error: null };
}
