// The package-level createAct: an act usable at once, loading the core on
// first use.
import { defaultDomain } from '../default-domain.js';
import { AlfredError, internalError } from '../errors.js';
import { EXPLICIT_POLICY } from '../policy/options.js';
import { restrictDomain } from '../policy/tables.js';
import { loadFailureText } from './tool-results.js';
import { codes } from '../../dist/error-codes.mjs';

/**
 * The package-level `createAct(options)`: usable at once, loading the core on
 * first use. `options.core` skips the loading. Before the core is loaded,
 * `registry.toJSON()` returns the state the act was created with; `await
 * act.ready` for the real registry.
 */
export function createActFactory(loadCore) {
  // A method, so that its name is createAct in the bundled build too (the
  // bundler renames a function declared here that shares a name with the
  // entry's export; a method's name is its key).
  return {
    createAct(options = {}) {
      // `core` and `wasmModule` are this function's own; the rest is the act's.
      const { core, wasmModule, ...actOptions } = options ?? {};
      if (core) return core.createAct(actOptions);
      const loading = { act: null };
      const ready = loadCore({ wasmModule }).then((loaded) => {
        loading.act = loaded.createAct(actOptions);
        return loading.act;
      });
      // Surfaced by execute(); an unobserved rejection must not crash the process.
      ready.catch(() => {});
      return deferredAct(ready, loading, options);
    },
  }.createAct;
}

// The act's surface while the core loads: each member waits for `ready`, or
// answers from `options` until `loading.act` is there.
function deferredAct(ready, loading, options) {
  const pendingRegistry = {
    toJSON: () => (typeof options.state === 'string' ? JSON.parse(options.state) : (options.state ?? null)),
  };
  const callToolText = async (name, args, callOptions) => {
    try {
      await ready;
    } catch (cause) {
      return loadFailureText(name, cause);
    }
    return loading.act.callToolText(name, args, callOptions);
  };
  return {
    ready,
    get registry() {
      return loading.act ? loading.act.registry : pendingRegistry;
    },
    get domain() {
      return loading.act ? loading.act.domain : pendingDomain(options);
    },
    get limits() {
      return loading.act ? loading.act.limits : null;
    },
    get resultLimits() {
      return loading.act ? loading.act.resultLimits : null;
    },
    get policy() {
      return loading.act ? loading.act.policy : null;
    },
    get context() {
      return loading.act ? loading.act.context : Object.freeze({ ...(options.context ?? {}) });
    },
    get [EXPLICIT_POLICY]() {
      return loading.act ? loading.act[EXPLICIT_POLICY] : { approve: options.approve !== undefined && options.approve !== null };
    },
    async execute(tool, params, executeOptions) {
      const error = await loadError(ready);
      return error ? { data: null, error, query: null, count: null } : loading.act.execute(tool, params, executeOptions);
    },
    async checkSession() {
      const error = await loadError(ready);
      return error ? { data: null, error } : loading.act.checkSession();
    },
    // Tool definitions need the core: `await act.ready` first.
    tools(toolOptions) {
      if (!loading.act) {
        throw new AlfredError({ code: codes.not_ready, path: '', message: 'the core is not loaded yet', hint: 'await act.ready before act.tools()' });
      }
      return loading.act.tools(toolOptions);
    },
    async callTool(name, args, callOptions) {
      return JSON.parse(await callToolText(name, args, callOptions));
    },
    callToolText,
  };
}

// Why the core did not load, as an error value, or null once it has.
async function loadError(ready) {
  try {
    await ready;
    return null;
  } catch (cause) {
    return cause instanceof AlfredError ? cause.toJSON() : internalError(cause);
  }
}

// The domain the act will have, before the core is loaded to check it.
function pendingDomain(options) {
  const base = options.domain ?? options.registry?.domain ?? defaultDomain;
  try {
    return Array.isArray(options.tables) ? restrictDomain(base, options.tables) : base;
  } catch {
    return base; // the act refuses the tables when the core is loaded
  }
}
