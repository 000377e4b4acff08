// The package's one default domain: what loadCore() and createAct() bind to
// when they are given none. Everything else takes its domain from the core,
// the registry or the act it works with.
export { kitchen as defaultDomain } from './kitchen.js';
