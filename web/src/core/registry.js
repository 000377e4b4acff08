// The registry wrapper: a Registry object around the core's ref registry
// handle, and the checks that tie a registry to its Core and its domain.
import { AlfredError, internalError } from '../errors.js';
import { jsonText, parseResult, rowsRoom, throwingAlfredError, tooLarge } from './boundary.js';
import { internalsOf } from './internals.js';
import { codes } from '../../dist/error-codes.mjs';
import { usersRefs, withUsableUserRefs } from './users.js';

const handles = new WeakMap();

// Frees a registry's memory in the core, once: `entry` is its record in
// `handles`, emptied here.
function release(entry) {
  if (!entry?.handle) return;
  entry.handle.delete();
  entry.handle = null;
}

// The core's handles are not garbage-collected: a registry nobody holds any
// more (an act made per request and dropped without `registry.delete()`)
// frees its refs' memory when it is collected; after `delete()` there is
// nothing left to free.
const registryFinalizer = typeof FinalizationRegistry === 'function' ? new FinalizationRegistry(release) : null;

// Two domain objects are the same domain when they are one object or have the
// same JSON (a copy read from the same file).
export const sameDomain = (a, b) => a === b || JSON.stringify(a) === JSON.stringify(b);

const nameOfDomain = (domain) => (typeof domain?.name === 'string' ? domain.name : 'unnamed');

export function domainMismatch(bound, given) {
  return new AlfredError({
    code: codes.invalid_option,
    path: 'domain',
    message: `this registry is bound to the ${nameOfDomain(bound)} domain, not ${nameOfDomain(given)}`,
    hint: 'a registry serves one domain: createRegistry(state, { domain }) for each',
  });
}

// The refs of a restored state must be refs of `domain`: a kitchen state
// read into a CRM registry would otherwise turn recipe_1 into nonsense.
// `parseRef` is the core's ref grammar.
export function foreignRefs(state, domain, parseRef) {
  const users = usersRefs(domain);
  for (const [index, entry] of (state.refs ?? []).entries()) {
    const prefix = parseRef(String(entry.ref))?.prefix;
    const expected = entry.table === users.table ? users.prefix : domain.tables?.[entry.table]?.ref;
    if (expected !== prefix) {
      return {
        code: codes.invalid_state,
        path: `refs[${index}]`,
        message: `${entry.ref} (table ${entry.table}) is not a ref of the ${nameOfDomain(domain)} domain`,
        hint: 'this state was saved with another domain: restore it with that domain, or start a new registry',
      };
    }
  }
  return null;
}
// The Emscripten module of each Core, for calls made on a registry's behalf.
const modules = new WeakMap();

/** @internal Records the Emscripten module of `core` (its constructor calls this). */
export function bindCoreModule(core, module) {
  modules.set(core, module);
}

// A response body given as bytes, or null for text and parsed values.
function rowBytes(rows) {
  if (rows instanceof Uint8Array) return rows;
  if (rows instanceof ArrayBuffer) return new Uint8Array(rows);
  if (ArrayBuffer.isView(rows)) return new Uint8Array(rows.buffer, rows.byteOffset, rows.byteLength);
  return null;
}


export function registryDomainOf(registry, core) {
  registryHandleOf(registry, core);
  return handles.get(registry).domain;
}

export function registryHandleOf(registry, core) {
  const entry = handles.get(registry);
  if (!entry || entry.core !== core) {
    throw new AlfredError({
      code: codes.invalid_option,
      path: 'registry',
      message: 'registry must come from createRegistry() of the same core',
    });
  }
  if (entry.handle === null) {
    throw new AlfredError({ code: codes.invalid_option, path: 'registry', message: 'registry was deleted' });
  }
  return entry.handle;
}

// Core#createRegistry's restore: `state` (registry.toJSON() of an earlier
// turn) into `handle`, refused (and `handle` deleted) when damaged or when
// its refs belong to another domain than `domain`.
export function restoreRegistry(handle, state, domain, core) {
  let error;
  let foreign = null;
  try {
    const given = typeof state === 'string' ? state : JSON.stringify(state);
    internalsOf(core).checkInput(given, 'state');
    // Other users' refs saved where users were named another way are left out (web/src/core/users.js).
    const usable = withUsableUserRefs(given, domain);
    const text = typeof usable === 'string' ? usable : JSON.stringify(usable);
    ({ error } = throwingAlfredError(() => parseResult(internalsOf(core).callWithInput(text, (length) => handle.restoreAt(length), { read: false }))));
    if (!error) foreign = foreignRefs(throwingAlfredError(() => parseResult(handle.toJSON())).data, domain, (ref) => core.parseRef(ref));
  } catch (cause) {
    handle.delete();
    throw cause;
  }
  if (error || foreign) {
    handle.delete();
    throw new AlfredError(error ?? foreign);
  }
}

// Core's registry and domain of a call: a registry brings its own domain,
// and a different `domain` next to it is an error rather than a silent mix;
// without one, the registry kept in `defaults` for the domain (the core's,
// `coreDomain`, unless the call names another).
export function boundRegistry(core, module, defaults, coreDomain, { domain, registry }) {
  if (registry !== undefined && registry !== null) {
    const bound = registryDomainOf(registry, core);
    if (domain !== undefined && domain !== null && !sameDomain(domain, bound)) throw domainMismatch(bound, domain);
    return { domain: bound, registry };
  }
  const chosen = domain ?? coreDomain;
  let fallback = defaults.get(chosen);
  if (!fallback) {
    internalsOf(core).domainHandle(chosen);
    fallback = new Registry(core, new module.Registry(), chosen);
    defaults.set(chosen, fallback);
  }
  return { domain: chosen, registry: fallback };
}

/**
 * Session-long ref state: which UUID each ref (`recipe_1`, `gen_recipe_1`)
 * stands for, its label and last action. Serialize it with `toJSON()` between
 * turns.
 */
export class Registry {
  #core;

  constructor(core, handle, domain) {
    this.#core = core;
    const entry = { core, handle, domain };
    handles.set(this, entry);
    registryFinalizer?.register(this, entry);
  }

  #handle() {
    return registryHandleOf(this, this.#core);
  }

  /** The domain this registry's refs belong to. */
  get domain() {
    return handles.get(this).domain;
  }

  // The registry's domain; a different one passed to a call is an error.
  #domain(given) {
    const bound = this.domain;
    if (given !== undefined && given !== null && !sameDomain(given, bound)) throw domainMismatch(bound, given);
    return bound;
  }

  /**
   * The serializable state (`{ format, version, turn, counters, gen_counters, refs }`, and
   * `user` (the signed-in user the refs were made for), `uncertain` and `joins_refused` when they hold anything).
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
      throw new AlfredError({ code: codes.invalid_option, path: 'turn', message: `turn must be a whole number ≥ 0, got ${n}` });
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
   * callers that decide themselves when (or whether) to parse it. `userId`
   * (the signed-in user's id) is shown as `me`.
   *
   * @example
   * const { data: text } = registry.translateRowsText('meal_plans', bytes) // '[{"id":"meal_1",…}]'
   */
  translateRowsText(table, rows, { domain, action = 'read', userId = '' } = {}) {
    try {
      const module = modules.get(this.#core);
      const domainHandle = internalsOf(this.#core).domainHandle(this.#domain(domain));
      const handle = this.#handle();
      const bytes = rowBytes(rows);
      let value = bytes;
      if (bytes) {
        if (bytes.length > this.#core.maxInputBytes) {
          throw tooLarge(codes.input_too_large, 'rows', 'the rows', bytes.length, this.#core.maxInputBytes);
        }
      } else {
        value = typeof rows === 'string' ? rows : jsonText(rows ?? null, 'rows');
        internalsOf(this.#core).checkInput(value, 'rows');
      }
      const length = module.copyIn(value, (size) => rowsRoom(module, size));
      // No table or action name is that long; an error repeats at most this much of one.
      const ok = module.translateRowsAt(domainHandle, handle, String(table).slice(0, 256), String(action).slice(0, 256), String(userId).slice(0, 64), length);
      // A large output is given back once read; the input buffer's address is the Core's to forget.
      const text = module.output();
      return ok ? { data: text, error: null } : parseResult(text);
    } catch (cause) {
      if (cause instanceof AlfredError) return { data: null, error: cause.toJSON() };
      return { data: null, error: internalError(cause) };
    }
  }

  /**
   * The table a ref this registry holds names (a promoted `gen_` ref: the
   * saved row's), or `null`.
   *
   * @example
   * registry.tableOf('gen_recipe_1') // 'recipes'
   */
  tableOf(ref) {
    if (typeof ref !== 'string') return null;
    const module = modules.get(this.#core);
    const { data, error } = throwingAlfredError(() => parseResult(module.registryRefTable(this.#handle(), ref.slice(0, 256))));
    if (error) throw new AlfredError(error);
    return data;
  }

  /**
   * The row ids a create of unknown outcome (its answer was lost) was sent
   * with, under `key` (the call's `[tool, params]` JSON, or the `gen_` ref it
   * saved), or `null`. They are part of `toJSON()`, so a retry in a later
   * call — another request to the worker or the MCP server, a new act from
   * the state — reuses them and cannot insert twice.
   *
   * @example
   * registry.uncertainIds(JSON.stringify(['db_create', params])) // ['5b0c…'] or null
   */
  uncertainIds(key) {
    const module = modules.get(this.#core);
    const { data, error } = throwingAlfredError(() => parseResult(module.registryUncertainIds(this.#handle(), String(key))));
    if (error) throw new AlfredError(error);
    return data;
  }

  /**
   * Keeps (`ids`, an array of UUIDs) or forgets (`null`) the ids of a create
   * of unknown outcome under `key` (see `uncertainIds`).
   *
   * @example
   * registry.setUncertain(JSON.stringify(['db_create', params]), rowIds)
   */
  setUncertain(key, ids) {
    const module = modules.get(this.#core);
    const { error } = throwingAlfredError(() => parseResult(module.registrySetUncertain(this.#handle(), String(key), JSON.stringify(ids ?? null))));
    if (error) throw new AlfredError(error);
  }

  /**
   * Keeps generated, unsaved content under a new `gen_` ref and returns it.
   *
   * @example
   * const { data: ref } = registry.registerGenerated('recipes', { name: 'Thai Basil Chicken', … }) // 'gen_recipe_1'
   */
  registerGenerated(table, content, { domain } = {}) {
    try {
      const text = jsonText(content ?? null, 'content');
      internalsOf(this.#core).checkInput(text, 'content');
      return parseResult(this.#handle().registerGenerated(internalsOf(this.#core).domainHandle(this.#domain(domain)), String(table).slice(0, 256), text));
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
  updateGenerated(genRef, content, { domain } = {}) {
    try {
      const module = modules.get(this.#core);
      const domainHandle = internalsOf(this.#core).domainHandle(this.#domain(domain));
      const text = jsonText(content ?? null, 'content');
      internalsOf(this.#core).checkInput(text, 'content');
      return parseResult(module.registryUpdateGenerated(this.#handle(), domainHandle, String(genRef).slice(0, 256), text));
    } catch (cause) {
      if (cause instanceof AlfredError) return { data: null, error: cause.toJSON() };
      return { data: null, error: internalError(cause) };
    }
  }

  /**
   * Binds a pending `gen_` ref to the row that saved it (its key: a UUID, a
   * bigint's digits as text, or a text key); `data` is the saved row's
   * regular ref. A second save of the same artifact is an error.
   *
   * @example
   * registry.promote('gen_recipe_1', row.id, row.name) // { data: 'recipe_1', error: null }
   */
  promote(genRef, key, label = '', { domain } = {}) {
    try {
      const domainHandle = internalsOf(this.#core).domainHandle(this.#domain(domain));
      return parseResult(this.#handle().promote(domainHandle, String(genRef).slice(0, 256), String(key).slice(0, 256), String(label).slice(0, 4096)));
    } catch (cause) {
      if (cause instanceof AlfredError) return { data: null, error: cause.toJSON() };
      return { data: null, error: internalError(cause) };
    }
  }

  /** Frees the WASM memory; the registry cannot be used afterwards. */
  delete() {
    release(handles.get(this));
  }

  [Symbol.dispose ?? Symbol.for("Symbol.dispose")]() {
    this.delete();
  }
}
