// The runtime-independent part of the package: wraps an instantiated
// Emscripten module in the public API. Each runtime entry (node, browser,
// workerd, deno) only decides how the .wasm is compiled.
import createAlfredCore from '../dist/alfred_core.mjs';
import { kitchen } from '../dist/kitchen.mjs';
import { AlfredError, internalError } from './errors.js';
import { Act } from './act.js';
import { actDecisionSchema, parseDecision, renderQuery } from './prompt.js';

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

// Runs `call` on the core; a C++ exception that escaped it (out of memory
// while crossing the boundary) is thrown as an AlfredError, never as a raw
// WebAssembly.Exception.
function throwingAlfredError(call) {
  try {
    return call();
  } catch (cause) {
    throw cause instanceof AlfredError ? cause : new AlfredError(internalError(cause));
  }
}

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
  #emptyRegistry;

  #slot;
  #input = { pointer: 0, capacity: 0 };

  constructor(module) {
    this.#module = module;
    modules.set(this, module);
    this.#slot = module.resultSlot();
    this.#defaultRegistry = new Registry(this, new module.Registry());
  }

  /** The JSON Schema of the Act model's output (OpenAI strict structured outputs). */
  get actDecisionSchema() {
    return actDecisionSchema;
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
    const handle = throwingAlfredError(() => new this.#module.Registry());
    if (state !== undefined && state !== null) {
      let error;
      try {
        const text = typeof state === 'string' ? state : JSON.stringify(state);
        ({ error } = throwingAlfredError(() => parseResult(handle.restore(text))));
      } catch (cause) {
        handle.delete();
        throw cause;
      }
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

  /**
   * Builds the Act prompt for one step: `{ system, user }`. `input` is
   * `{ step: { type, description, index, total, subdomain }, user_message, today, plan, conversation,
   * previous_steps, current_step_results, previous_turns, user_profile, subdomain_guidance, templates, limits }`
   * (docs/prompt-anatomy.md). Entity context comes from `registry`, the schema section from `domain`.
   *
   * @example
   * const { data, error } = core.buildActPrompt({ step: { type: 'read', description: 'Read the fridge', index: 0, total: 2 },
   *   user_message: "what's in my fridge?", today: '2026-02-09' }, { registry })
   * // data.system, data.user
   */
  buildActPrompt(input, { domain = kitchen, registry = this.#defaultRegistry } = {}) {
    try {
      const module = this.#module;
      const domainHandle = this.domainHandle(domain);
      const registryHandle = registryHandleOf(registry, this);
      const text = jsonText(input ?? null, 'input');
      return parseResult(
        callWithText(module, this.#slot, this.#input, text, (length) => module.buildActPromptAt(domainHandle, registryHandle, length)),
      );
    } catch (cause) {
      if (cause instanceof AlfredError) return { data: null, error: cause.toJSON() };
      return { data: null, error: internalError(cause) };
    }
  }

  /**
   * `text` as the model may see it: every UUID replaced with the ref
   * `registry` holds for it, or with `<id>` (every UUID, without a registry).
   * The core's scrubber, the same that guards the Act prompt and the
   * executor's errors. `text` that is not a string is converted with
   * `String()`. Throws `AlfredError` only for a `registry` that is not this
   * core's (or deleted), or when the core fails.
   *
   * @example
   * core.withoutUuids('Key (id)=(c69607bb-5d2e-4b8a-9f3c-1e2d3c4b5a61) already exists', { registry: act.registry })
   * // 'Key (id)=(inv_1) already exists'
   */
  withoutUuids(text, { registry } = {}) {
    const module = this.#module;
    const handle = registry ? registryHandleOf(registry, this) : (this.#emptyRegistry ??= new module.Registry());
    const { data, error } = throwingAlfredError(() => parseResult(module.withoutUuids(handle, String(text))));
    if (error) throw new AlfredError(error);
    return data;
  }

  /**
   * Parses the model's ActDecision text (fenced, strict-mode or not) into
   * `{ action, … }`; with `stepType`, actions the step may not take are errors.
   *
   * @example
   * const { data: decision, error } = core.parseDecision(text, { stepType: 'read' })
   * if (decision?.action === 'tool_call') core.buildRequest(decision.tool, decision.params, options)
   */
  parseDecision(text, options) {
    return parseDecision(this.#module, text, options);
  }

  /**
   * Renders an executed query record (or a step result item) as
   * `Query: … / Effective: … / Outcome: …` lines, or `{ style: 'line' }` as one line.
   *
   * @example
   * core.renderQuery(result.query).data // 'Query: Table: inventory | Filters: location = pantry | Limit: 100\nOutcome: 0 records found\n…'
   */
  renderQuery(record, options) {
    return renderQuery(this.#module, record, options);
  }

  /**
   * An executor for one user: `execute(tool, params)` resolves to
   * `{ data, error, query, count }`. Options: `{ url, apiKey, accessToken,
   * userId, domain, fetch, state, registry, embedder, timeoutMs }`.
   *
   * @example
   * const act = core.createAct({ url: process.env.SUPABASE_URL, apiKey: anonKey, accessToken: jwt, userId })
   * const { data, error, query } = await act.execute('db_read', { table: 'inventory' })
   * saved = act.registry.toJSON()
   */
  createAct(options) {
    return new Act(this, options);
  }

  /**
   * @internal One tool call's execution in the core: `needs()` of each round,
   * `respond(index, { status, contentRange, contentType, body: Uint8Array })`,
   * then `result()`. Always `delete()` it.
   */
  startExecution(tool, params, requestOptions, { registry, domain }) {
    const module = this.#module;
    const domainHandle = this.domainHandle(domain);
    const registryHandle = registryHandleOf(registry, this);
    const call = `[${JSON.stringify(String(tool))},${jsonText(params ?? null, 'params')},${jsonText(requestOptions, 'options')}]`;
    const input = this.#input;
    const slot = this.#slot;
    const capacity = call.length * 3;
    if (capacity > input.capacity) {
      input.pointer = module.inputBuffer(capacity);
      input.capacity = capacity;
    }
    const { written } = encoder.encodeInto(call, module.HEAPU8.subarray(input.pointer, input.pointer + capacity));
    const handle = new module.Execution(domainHandle, registryHandle, written);
    const readResult = () => {
      const words = new Uint32Array(module.HEAPU8.buffer);
      return decoder.decode(module.HEAPU8.subarray(words[slot >>> 2], words[slot >>> 2] + words[(slot >>> 2) + 1]));
    };
    return {
      done: () => handle.done(),
      needs: () => JSON.parse(handle.needs()),
      respond(index, { status, contentRange, contentType, body }) {
        if (body.length > input.capacity) {
          input.pointer = module.inputBuffer(body.length);
          input.capacity = body.length;
        }
        module.HEAPU8.set(body, input.pointer);
        handle.respondAt(index, status, contentRange, contentType, body.length);
      },
      result() {
        handle.resultAt();
        return JSON.parse(readResult());
      },
      delete: () => handle.delete(),
    };
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
// The Emscripten module of each Core, for calls made on a registry's behalf.
const modules = new WeakMap();

// A response body given as bytes, or null for text and parsed values.
function rowBytes(rows) {
  if (rows instanceof Uint8Array) return rows;
  if (rows instanceof ArrayBuffer) return new Uint8Array(rows);
  if (ArrayBuffer.isView(rows)) return new Uint8Array(rows.buffer, rows.byteOffset, rows.byteLength);
  return null;
}


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

  /**
   * The serializable state (`{ format, version, turn, counters, gen_counters, refs }`).
   * Throws `AlfredError` (`internal_error`) only if the core runs out of memory writing it.
   */
  toJSON() {
    const { data, error } = throwingAlfredError(() => parseResult(this.#handle().toJSON()));
    if (error) throw new AlfredError(error);
    return data;
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
   * registers them; a foreign key whose target row has a label gets
   * `_<column>_label` after it. `rows` is the response body as bytes
   * (`Uint8Array`, `ArrayBuffer`: the fastest, no JSON.parse of the UUID-laden
   * original), as JSON text, or as parsed values. `action` is `read`
   * (default), `created`, `updated` or `deleted`.
   *
   * @example
   * const { data } = registry.translateRows('recipes', new Uint8Array(await response.arrayBuffer()))
   * // [{ id: 'recipe_1', name: 'Butter Chicken', recipe_ingredients: [{ id: 'ri_1', recipe_id: 'recipe_1',
   * //    _recipe_id_label: 'Butter Chicken', … }] }]
   */
  translateRows(table, rows, options) {
    const { data, error } = this.translateRowsText(table, rows, options);
    return error ? { data: null, error } : { data: JSON.parse(data), error: null };
  }

  /**
   * `translateRows` that returns the model-facing rows as JSON text, for
   * callers that decide themselves when (or whether) to parse it.
   *
   * @example
   * const { data: text } = registry.translateRowsText('meal_plans', bytes) // '[{"id":"meal_1",…}]'
   */
  translateRowsText(table, rows, { domain = kitchen, action = 'read' } = {}) {
    try {
      const module = modules.get(this.#core);
      const domainHandle = this.#core.domainHandle(domain);
      const handle = this.#handle();
      const bytes = rowBytes(rows);
      let length;
      if (bytes) {
        length = bytes.length;
        const pointer = module.rowsBuffer(length); // may grow memory: read HEAPU8 after it
        module.HEAPU8.set(bytes, pointer);
      } else {
        const text = typeof rows === 'string' ? rows : jsonText(rows ?? null, 'rows');
        const capacity = text.length * 3; // UTF-8 needs at most 3 bytes per UTF-16 unit
        const pointer = module.rowsBuffer(capacity);
        length = encoder.encodeInto(text, module.HEAPU8.subarray(pointer, pointer + capacity)).written;
      }
      const ok = module.translateRowsAt(domainHandle, handle, String(table), String(action), length);
      const words = new Uint32Array(module.HEAPU8.buffer);
      const slot = module.resultSlot() >>> 2;
      const text = decoder.decode(module.HEAPU8.subarray(words[slot], words[slot] + words[slot + 1]));
      return ok ? { data: text, error: null } : parseResult(text);
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
   * Replaces the content of a pending `gen_` ref (the model revised the
   * artifact); `data` is the ref. A saved or unknown ref is an error.
   *
   * @example
   * registry.updateGenerated('gen_recipe_1', { name: 'Spicy Thai Basil Chicken', … }) // { data: 'gen_recipe_1', error: null }
   */
  updateGenerated(genRef, content, { domain = kitchen } = {}) {
    try {
      const module = modules.get(this.#core);
      const domainHandle = this.#core.domainHandle(domain);
      return parseResult(
        module.registryUpdateGenerated(this.#handle(), domainHandle, String(genRef), jsonText(content ?? null, 'content')),
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
