// Overloaded functions: PostgREST tells them apart by the argument names a
// call gives, and a domain holds one function per name, so the overrides may
// choose one by its argument names (docs/functions.md, "Overrides").
import { INPUT_MODES } from './catalog-functions.js';

/** `name(arg type, …)`, as notes write a function. */
export const signature = (fn) => `${fn.name}(${fn.args.filter((a) => INPUT_MODES.has(a.mode)).map((a) => `${a.name ? `${a.name} ` : ''}${a.type}`).join(', ')})`;
const inputsOf = (fn) => fn.args.filter((arg) => INPUT_MODES.has(arg.mode));
const inputNames = (fn) => inputsOf(fn).map((arg) => arg.name);
const sameNames = (a, b) => a.length === b.length && new Set(a).size === a.length && a.every((name) => b.includes(name));

// The overload the overrides chose by its argument names (`overload`), or null.
export function chosenOverload(overloads, settings) {
  if (overloads.length < 2 || !Array.isArray(settings?.overload)) return null;
  const matching = overloads.filter((fn) => sameNames(inputNames(fn), settings.overload));
  return matching.length === 1 ? matching[0] : null;
}

// Why `list` chooses no overload of `name` PostgREST can call unambiguously
// (`{ message, hint }`), or null. A chosen overload is called with every
// argument; PostgREST takes a call for a function whose required arguments
// the call names and whose arguments hold all the call names.
export function overloadProblem(name, catalogFunctions, list) {
  if (!catalogFunctions) return { message: 'choosing an overload needs the catalog, which tells the overloads apart', hint: 'pull with the catalog (--db-url, or the catalog option of pullDomain)' };
  const overloads = catalogFunctions.filter((fn) => fn.name === name);
  if (overloads.length < 2) return { message: `${name} has one function of that name: no overload to choose`, hint: 'leave out "overload"' };
  const matching = Array.isArray(list) && list.every((item) => typeof item === 'string') ? overloads.filter((fn) => sameNames(inputNames(fn), list)) : [];
  if (matching.length === 0) return { message: 'must list the argument names of one of its overloads', hint: `one of ${overloads.map((fn) => JSON.stringify(inputNames(fn))).join(' or ')}` };
  if (matching.length > 1) return { message: `${matching.map(signature).join(' and ')} take these names (in other types): PostgREST cannot tell them apart`, hint: 'rename or drop one of them' };
  const [chosen] = matching;
  const fits = (fn) => inputsOf(fn).every((arg) => arg.hasDefault || list.includes(arg.name)) && list.every((item) => inputNames(fn).includes(item));
  const clash = overloads.find((fn) => fn !== chosen && fits(fn));
  return clash ? { message: `a call with every argument of ${signature(chosen)} fits ${signature(clash)} too: PostgREST cannot tell them apart`, hint: 'rename or drop one of them' } : null;
}

// A chosen overload's arguments, all required: a call gives them all, so
// PostgREST tells it from the others (a call with fewer could fit another
// and be answered PGRST203). The note says which was chosen.
export function requireAll(spec, chosen) {
  for (const arg of Object.values(spec.args)) arg.required = true;
  return { path: `functions.${chosen.name}`, message: `overloaded: the overrides chose ${signature(chosen)}; every argument is required, so PostgREST tells it from the others` };
}
