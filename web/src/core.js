// The runtime-independent part of the package: wraps an instantiated
// Emscripten module in the public API. Each runtime entry (node, browser,
// workerd, deno) only decides how the .wasm is compiled.
import createAlfredCore from '../dist/alfred_core.mjs';
import { kitchen } from '../dist/kitchen.mjs';
import { AlfredError, internalError } from './errors.js';

/**
 * Instantiates the core from a compiled `WebAssembly.Module`. Workers pass the
 * module their bundler imported; other runtimes compile the shipped `.wasm`.
 */
export async function instantiateCore(wasmModule) {
  if (!(wasmModule instanceof WebAssembly.Module)) {
    throw new AlfredError({
      code: 'invalid_option',
      path: 'wasmModule',
      message: 'wasmModule must be a compiled WebAssembly.Module',
      hint: 'pass the module your bundler imports from alfred-act/alfred_core.wasm',
    });
  }
  const module = await createAlfredCore({
    // The glue never fetches or compiles on its own: Cloudflare Workers
    // forbid compiling from bytes, and import.meta.url is undefined there.
    instantiateWasm(imports, done) {
      const instance = new WebAssembly.Instance(wasmModule, imports);
      done(instance, wasmModule);
      return instance.exports;
    },
    locateFile: (path) => path,
  });
  return new Core(module);
}

const parseResult = (text) => JSON.parse(text);

// JSON text of a caller's value; a BigInt or a cycle is the caller's error,
// not the core's.
function jsonText(value, path) {
  try {
    return JSON.stringify(value);
  } catch (cause) {
    throw new AlfredError({
      code: path === 'params' ? 'invalid_params' : 'invalid_option',
      path: '',
      message: `${path} cannot be written as JSON: ${cause?.message ?? cause}`,
      hint: 'use plain objects, arrays, strings, numbers, booleans and null',
    });
  }
}
const encoder = new TextEncoder();
const decoder = new TextDecoder();

// Passes `text` through WASM memory (see wasm/bindings.cpp): encodeInto and
// TextDecoder are native, embind's string marshalling is a JS loop. The
// input buffer never shrinks and moves only when inputBuffer grows it, so
// `input` ({ pointer, capacity }) keeps its address and the boundary is
// crossed for it only when a text needs more room.
function callWithText(module, slot, input, text, invoke) {
  const capacity = text.length * 3;
  if (capacity > input.capacity) {
    input.pointer = module.inputBuffer(capacity);
    input.capacity = capacity;
  }
  const { pointer } = input;
  const { written } = encoder.encodeInto(text, module.HEAPU8.subarray(pointer, pointer + capacity));
  invoke(written);
  const words = module.HEAPU32 ?? new Uint32Array(module.HEAPU8.buffer);
  const at = words[slot >>> 2];
  const length = words[(slot >>> 2) + 1];
  return decoder.decode(module.HEAPU8.subarray(at, at + length));
}

/**
 * The loaded core. Stateless calls (`buildRequest`) need no handle; a
 * registry owns WASM memory and has `delete()` / `[Symbol.dispose]`.
 */
export class Core {
  #module;
  #domains = new WeakMap();
  #defaultRegistry;

  #slot;
  #input = { pointer: 0, capacity: 0 };

  constructor(module) {
    this.#module = module;
    this.#slot = module.resultSlot();
    this.#defaultRegistry = new Registry(this, new module.Registry());
  }

  /** The kitchen domain configuration (the default `domain`). */
  get kitchen() {
    return kitchen;
  }

  /**
   * A ref registry, empty or restored from `registry.toJSON()` of an earlier
   * turn. Throws `AlfredError` (`invalid_state`, `unsupported_state_version`)
   * for a damaged or foreign state instead of silently starting over.
   *
   * @example
   * const registry = core.createRegistry(saved ?? undefined)
   * // … run the turn …
   * saved = registry.toJSON()
   */
  createRegistry(state) {
    const handle = new this.#module.Registry();
    if (state !== undefined && state !== null) {
      const text = typeof state === 'string' ? state : JSON.stringify(state);
      const { error } = parseResult(handle.restore(text));
      if (error) {
        handle.delete();
        throw new AlfredError(error);
      }
    }
    return new Registry(this, handle);
  }

  /**
   * Validates a tool call, translates its refs and builds the PostgREST
   * request. Never throws for bad input: `error` is `{ code, message, path, hint }`.
   *
   * @example
   * const { data, error } = core.buildRequest('db_read',
   *   { table: 'inventory', filters: [{ field: 'location', op: '=', value: 'fridge' }] },
   *   { registry, userId, baseUrl: 'http://127.0.0.1:3000', apiKey, accessToken })
   * if (!error) await fetch(data.url, { method: data.method, headers: data.headers, body: data.body })
   */
  buildRequest(tool, params, options) {
    const { domain = kitchen, registry = this.#defaultRegistry, ...rest } = options ?? {};
    try {
      const domainHandle = this.domainHandle(domain);
      const registryHandle = registryHandleOf(registry, this);
      // One string crosses the boundary: [tool, params, options].
      const call = `[${JSON.stringify(String(tool))},${jsonText(params ?? null, 'params')},${jsonText(rest, 'options')}]`;
      const module = this.#module;
      return parseResult(
        callWithText(module, this.#slot, this.#input, call, (length) => module.buildRequestAt(domainHandle, registryHandle, length)),
      );
    } catch (cause) {
      if (cause instanceof AlfredError) return { data: null, error: cause.toJSON() };
      return { data: null, error: internalError(cause) };
    }
  }

  /** @internal The compiled form of a domain, cached per domain object. */
  domainHandle(domain) {
    if (!domain || typeof domain !== 'object') {
      throw new AlfredError({ code: 'invalid_option', path: 'domain', message: 'domain must be a domain configuration object' });
    }
    let handle = this.#domains.get(domain);
    if (!handle) {
      handle = new this.#module.Domain(JSON.stringify(domain));
      const failure = handle.loadError();
      if (failure) {
        handle.delete();
        throw new AlfredError(parseResult(failure).error);
      }
      this.#domains.set(domain, handle);
      domainFinalizer?.register(domain, handle);
    }
    return handle;
  }
}

const handles = new WeakMap();

// Embind handles are not garbage-collected: free a compiled domain when the
// domain object it was cached for is collected.
const domainFinalizer =
  typeof FinalizationRegistry === 'function' ? new FinalizationRegistry((handle) => handle.delete()) : null;

function registryHandleOf(registry, core) {
  const entry = handles.get(registry);
  if (!entry || entry.core !== core) {
    throw new AlfredError({
      code: 'invalid_option',
      path: 'registry',
      message: 'registry must come from createRegistry() of the same core',
    });
  }
  if (entry.handle === null) {
    throw new AlfredError({ code: 'invalid_option', path: 'registry', message: 'registry was deleted' });
  }
  return entry.handle;
}

/**
 * Session-long ref state: which UUID each ref (`recipe_1`, `gen_recipe_1`)
 * stands for, its label and last action. Serialize it with `toJSON()` between
 * turns.
 */
export class Registry {
  #core;

  constructor(core, handle) {
    this.#core = core;
    handles.set(this, { core, handle });
  }

  #handle() {
    return registryHandleOf(this, this.#core);
  }

  /** The serializable state (`{ format, version, turn, counters, gen_counters, refs }`). */
  toJSON() {
    return JSON.parse(this.#handle().toJSON());
  }

  /** The current turn number. */
  get turn() {
    return this.#handle().turn();
  }

  /** Moves to turn `n` (turns only go forward). Throws `AlfredError` for anything but a whole number ≥ 0. */
  setTurn(n) {
    if (!Number.isSafeInteger(n) || n < 0 || n > 2_000_000_000) {
      throw new AlfredError({ code: 'invalid_option', path: 'turn', message: `turn must be a whole number ≥ 0, got ${n}` });
    }
    this.#handle().setTurn(n);
  }

  /** Drops the content of generated artifacts that have been saved. */
  endTurn() {
    this.#handle().endTurn();
  }

  /**
   * Replaces UUIDs with refs in rows PostgREST returned for `table` and
   * registers them. `action` is `read` (default), `created`, `updated` or `deleted`.
   *
   * @example
   * const { data } = registry.translateRows('recipes', await response.json())
   * // [{ id: 'recipe_1', name: 'Butter Chicken', recipe_ingredients: [{ id: 'ri_1', … }] }]
   */
  translateRows(table, rows, { domain = kitchen, action = 'read' } = {}) {
    try {
      return parseResult(
        this.#handle().translateRows(this.#core.domainHandle(domain), String(table), JSON.stringify(rows), String(action)),
      );
    } catch (cause) {
      if (cause instanceof AlfredError) return { data: null, error: cause.toJSON() };
      return { data: null, error: internalError(cause) };
    }
  }

  /**
   * Keeps generated, unsaved content under a new `gen_` ref and returns it.
   *
   * @example
   * const { data: ref } = registry.registerGenerated('recipes', { name: 'Thai Basil Chicken', … }) // 'gen_recipe_1'
   */
  registerGenerated(table, content, { domain = kitchen } = {}) {
    try {
      return parseResult(
        this.#handle().registerGenerated(this.#core.domainHandle(domain), String(table), JSON.stringify(content)),
      );
    } catch (cause) {
      if (cause instanceof AlfredError) return { data: null, error: cause.toJSON() };
      return { data: null, error: internalError(cause) };
    }
  }

  /**
   * Binds a pending `gen_` ref to the row that saved it; `data` is the saved
   * row's regular ref. A second save of the same artifact is an error.
   */
  promote(genRef, uuid, label = '') {
    try {
      return parseResult(this.#handle().promote(String(genRef), String(uuid), String(label)));
    } catch (cause) {
      if (cause instanceof AlfredError) return { data: null, error: cause.toJSON() };
      return { data: null, error: internalError(cause) };
    }
  }

  /** Frees the WASM memory; the registry cannot be used afterwards. */
  delete() {
    const entry = handles.get(this);
    if (entry?.handle) {
      entry.handle.delete();
      entry.handle = null;
    }
  }

  [Symbol.dispose ?? Symbol.for("Symbol.dispose")]() {
    this.delete();
  }
}

export { kitchen, AlfredError };
