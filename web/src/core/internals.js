// The plumbing of each Core (core/plumbing.js), kept off the public class:
// the Act, the registry wrapper, the prompt and tool-result helpers and the
// runtime entries reach it with internalsOf(core). A module of its own with
// no imports, so that every part can import it without a cycle. Not exported
// by the package.
const plumbingOf = new WeakMap();

/** @internal Records the plumbing of `core` (its constructor calls this). */
export function setInternals(core, plumbing) {
  plumbingOf.set(core, plumbing);
}

/**
 * @internal The plumbing of `core` (a CorePlumbing): its WASM memory, compiled
 * domains, request contexts and executions. Throws for an object that is not
 * a loaded Core.
 *
 * @example
 * const context = internalsOf(core).checkedRequestContext({ url, apiKey, accessToken, userId })
 */
export function internalsOf(core) {
  const plumbing = plumbingOf.get(core);
  if (!plumbing) throw new TypeError('expected a Core from loadCore()');
  return plumbing;
}
