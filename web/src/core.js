// The runtime-independent part of the package: wraps an instantiated
// Emscripten module in the public API. Each runtime entry (node, browser,
// workerd, deno) only decides how the .wasm is compiled.
import createAlfredCore from '../dist/alfred_core.mjs';
import { kitchen } from './kitchen.js';
import { defaultDomain } from './default-domain.js';
import { AlfredError, internalError } from './errors.js';
import { Act } from './act.js';
import { DEFAULT_MAX_INPUT_BYTES, MAX_INPUT_BYTES } from './limits.js';
import { actDecisionSchema, parseDecision, renderQuery } from './prompt.js';
import { domainFromOpenApiWith } from './domain-pull.js';
import { deepFreeze, toolDefinitions, toolResult, toolResultText, toolSchemaOption } from './tools.js';

/**
 * Instantiates the core from a compiled `WebAssembly.Module`. Workers pass the
 * module their bundler imported; other runtimes compile the shipped `.wasm`.
 * `domain` is the core's domain: what its registries and calls are bound to
 * unless they name another (loadCore passes the kitchen by default).
 */
export async function instantiateCore(wasmModule, { maxInputBytes, domain = defaultDomain } = {}) {
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
  return new Core(module, domain, maxInputBytes);
}

const parseResult = (text) => JSON.parse(text);

// loadCore({ maxInputBytes }), see limits.js.
function checkedInputLimit(value) {
  if (value === undefined || value === null) return DEFAULT_MAX_INPUT_BYTES;
  if (!Number.isSafeInteger(value) || value < 1 || value > MAX_INPUT_BYTES) {
    throw new AlfredError({ code: 'invalid_option', path: 'maxInputBytes', message: `maxInputBytes must be a whole number from 1 to ${MAX_INPUT_BYTES}` });
  }
  return value;
}

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

// Buffers above this are given back to the allocator after the call (see
// trimBuffers in wasm/bindings.cpp); below it they are kept for reuse.
const KEEP_BYTES = 1 << 20;

/** Bytes of `text` in UTF-8, without encoding it. */
export function utf8Length(text) {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) continue;
    if (unit < 0x800) bytes += 1;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 2; // four bytes for the pair's two units
        i++;
      } else bytes += 2;
    } else bytes += 2;
  }
  return bytes;
}

function tooLarge(code, path, what, bytes, limit) {
  return new AlfredError({
    code,
    path,
    message: `the size of ${what} is ${bytes === null ? 'over' : `${bytes} bytes, over`} the limit of ${limit} bytes`,
    hint: 'split the work into smaller calls, or raise the limit',
  });
}

// Refuses `text` over `limit` UTF-8 bytes before anything is copied into
// WASM memory; returns its exact size when that is cheap to know.
function checkSize(text, limit, code, path, what) {
  if (text.length > limit) throw tooLarge(code, path, what, null, limit);
  if (text.length * 3 <= limit) return;
  const bytes = utf8Length(text);
  if (bytes > limit) throw tooLarge(code, path, what, bytes, limit);
}

// The one way bytes go into WASM memory (see wasm/bindings.cpp): `value`
// (text or a Uint8Array) is written at the address `room(size)` gives for at
// least `size` bytes, and its length in bytes returned. encodeInto and
// TextDecoder are native, embind's string marshalling is a JS loop. A large
// text is encoded in JS first, so WASM holds its exact size rather than three
// bytes per character. `room` may grow the memory: HEAPU8 is read after it.
function copyIn(module, value, room) {
  if (typeof value === 'string' && value.length > KEEP_BYTES / 3) value = encoder.encode(value);
  if (typeof value !== 'string') {
    const pointer = room(value.length);
    if (value.length > 0) module.HEAPU8.set(value, pointer);
    return value.length;
  }
  const capacity = value.length * 3; // UTF-8 needs at most 3 bytes per UTF-16 unit
  const pointer = room(capacity);
  return encoder.encodeInto(value, module.HEAPU8.subarray(pointer, pointer + capacity)).written;
}

// `text` into the shared input buffer. The buffer moves only when
// inputBuffer grows it, so `input` ({ pointer, capacity }) keeps its address
// and the boundary is crossed for it only when a text needs more room.
// Returns the byte length.
function writeInput(module, input, text) {
  return copyIn(module, text, (size) => {
    if (size > input.capacity) {
      input.pointer = module.inputBuffer(size);
      input.capacity = size;
    }
    return input.pointer;
  });
}

// The text a *_at call published through the result slot.
function readOutput(module, slot) {
  const words = new Uint32Array(module.HEAPU8.buffer);
  const at = words[slot >>> 2];
  const length = words[(slot >>> 2) + 1];
  return decoder.decode(module.HEAPU8.subarray(at, at + length));
}

// After a large call, the buffers go back to the allocator: one huge input
// must not pin its memory for the life of the instance.
function trimAfterLargeCall(module, input, bytes) {
  if (input.capacity <= KEEP_BYTES && bytes <= KEEP_BYTES) return;
  module.trimBuffers();
  input.pointer = 0;
  input.capacity = 0;
}

// The one way a text goes into the core: it is written into the input
// buffer and `invoke(length)` runs on it; the text the call published through
// the result slot is returned (with `read: false`, what `invoke` returned).
// After a large call, or a failed one, the buffers go back to the allocator.
// Room for `size` bytes of rows in WASM memory; out_of_memory when the core
// cannot make it (address 0 is never written to).
function rowsRoom(module, size) {
  const pointer = module.rowsBuffer(size);
  if (pointer === 0 && size > 0) {
    throw new AlfredError({ code: 'out_of_memory', path: 'rows', message: `the core could not make room for ${size} bytes of rows`, hint: 'translate the rows in smaller parts' });
  }
  return pointer;
}

function callWithText(module, slot, input, text, invoke, { read = true } = {}) {
  const length = writeInput(module, input, text);
  let outLength = 0;
  try {
    const value = invoke(length);
    if (!read) return value;
    const out = readOutput(module, slot);
    outLength = out.length;
    return out;
  } finally {
    trimAfterLargeCall(module, input, outLength);
  }
}

// The headers that vary by request (`{"Content-Type":…,"Prefer":…}`) come
// in a handful of combinations: each text is parsed once.
const requestHeaderSets = new Map();
const MAX_HEADER_SETS = 64;

function requestHeaders(text) {
  let headers = requestHeaderSets.get(text);
  if (!headers) {
    headers = Object.freeze(JSON.parse(text));
    if (requestHeaderSets.size < MAX_HEADER_SETS) requestHeaderSets.set(text, headers);
  }
  return headers;
}

// The request a buildRequestAt call published: the output text holds the
// method, the URL, the body (when there is one) and the per-request
// headers, at the byte lengths the result slot's words 2 to 5 give
// (wasm/bindings.cpp, publish_layout). `headers` are the context's own.
function readRequest(module, slot, headers) {
  const heap = module.HEAPU8;
  const words = new Uint32Array(heap.buffer, slot, 6);
  const [at, length, methodLength, urlLength, bodyLength, hasBody] = words;
  const method = decoder.decode(heap.subarray(at, at + methodLength));
  const urlEnd = at + methodLength + urlLength;
  const url = decoder.decode(heap.subarray(at + methodLength, urlEnd));
  const bodyEnd = hasBody ? urlEnd + bodyLength : urlEnd;
  const body = hasBody ? decoder.decode(heap.subarray(urlEnd, bodyEnd)) : null;
  const own = requestHeaders(decoder.decode(heap.subarray(bodyEnd, at + length)));
  return { method, url, headers: { ...headers, ...own }, body };
}

// Whether `options` has exactly the members and values of `known`.
function sameOptions(known, options) {
  let count = 0;
  for (const key in options) {
    if (!Object.hasOwn(options, key) || !Object.hasOwn(known, key) || known[key] !== options[key]) return false;
    count++;
  }
  return count === Object.keys(known).length;
}

/**
 * The loaded core. Stateless calls (`buildRequest`) need no handle; a
 * registry owns WASM memory and has `delete()` / `[Symbol.dispose]`.
 */
export class Core {
  #module;
  #domain;
  #domains = new WeakMap();
  // One registry per domain for calls that pass none.
  #defaultRegistries = new WeakMap();
  #toolDefinitions = new WeakMap();
  // A registry with no refs, for tool results made without one.
  #emptyRegistry = null;

  #slot;
  #input = { pointer: 0, capacity: 0 };
  // The request options buildRequest was last given, and their context: a
  // session calls with the same options again and again.
  #lastContext = null;
  #executionLimits;
  #maxInputBytes;
  #stepTools;
  #defaultTracer = null;

  constructor(module, domain, maxInputBytes) {
    this.#module = module;
    modules.set(this, module);
    this.#slot = module.resultSlot();
    this.#executionLimits = Object.freeze(JSON.parse(module.executionLimits()));
    this.#maxInputBytes = checkedInputLimit(maxInputBytes);
    this.domainHandle(domain); // throws AlfredError for a domain the core refuses
    this.#domain = domain;
  }

  /**
   * The default limits of one `execute` call (`maxParamsBytes`,
   * `maxStringBytes`, `maxResponseBytes`, `maxRows`); `createAct({ limits })`
   * overrides them per act. See docs/limits-and-faults.md.
   */
  get executionLimits() {
    return this.#executionLimits;
  }

  /**
   * The most UTF-8 bytes one stateless call (`buildRequest`, `buildActPrompt`,
   * `parseDecision`, `renderQuery`, `translateRows`) takes; larger inputs are
   * refused with `input_too_large` before they reach WASM memory.
   * `loadCore({ maxInputBytes })` sets it.
   */
  get maxInputBytes() {
    return this.#maxInputBytes;
  }

  /**
   * @internal The OpenTelemetry tracer acts use when not given a `tracer`
   * (the Node entry sets @opentelemetry/api's global one when it is installed).
   */
  get defaultTracer() {
    return this.#defaultTracer;
  }

  /** @internal Sets `defaultTracer`. */
  useDefaultTracer(tracer) {
    this.#defaultTracer = tracer && typeof tracer.startSpan === 'function' ? tracer : null;
  }

  /** @internal Passes `text` through WASM memory to `invoke(length)`; returns the published result text. */
  callWithInput(text, invoke) {
    return callWithText(this.#module, this.#slot, this.#input, text, invoke);
  }

  /** @internal Refuses a stateless call's input over maxInputBytes. */
  checkInput(text, path) {
    checkSize(text, this.#maxInputBytes, 'input_too_large', path, `the ${path}`);
  }

  /** @internal The bytes the WASM memory has grown to (it never shrinks). */
  get memoryBytes() {
    return this.#module.HEAPU8.buffer.byteLength;
  }

  /** The domain this core was loaded with (`loadCore({ domain })`, the kitchen by default). */
  get domain() {
    return this.#domain;
  }

  // The registry and domain of a call: a registry brings its own domain, and
  // a different `domain` next to it is an error rather than a silent mix.
  #bound({ domain, registry }) {
    if (registry !== undefined && registry !== null) {
      const bound = registryDomainOf(registry, this);
      if (domain !== undefined && domain !== null && !sameDomain(domain, bound)) throw domainMismatch(bound, domain);
      return { domain: bound, registry };
    }
    const chosen = domain ?? this.#domain;
    let fallback = this.#defaultRegistries.get(chosen);
    if (!fallback) {
      this.domainHandle(chosen);
      fallback = new Registry(this, new this.#module.Registry(), chosen);
      this.#defaultRegistries.set(chosen, fallback);
    }
    return { domain: chosen, registry: fallback };
  }

  /**
   * The parts of a ref by the core's ref grammar, or `null` for text that
   * is not shaped like one. No registry lookup: `recipe_1` parses whether
   * or not it was ever handed out.
   *
   * @example
   * core.parseRef('gen_recipe_1') // { generated: true, prefix: 'recipe', number: 1 }
   * core.parseRef('Recipe 2')     // null
   */
  parseRef(text) {
    if (typeof text !== 'string' || text.length > 256) return null;
    const { data, error } = throwingAlfredError(() => parseResult(this.#module.parseRef(text)));
    if (error) throw new AlfredError(error);
    return data;
  }

  /**
   * Which tools each step type may call, the rule `parseDecision({ stepType })`
   * applies; the package's `STEP_TOOLS` is generated from it.
   *
   * @example
   * core.stepTools.read // ['db_read']
   */
  get stepTools() {
    if (!this.#stepTools) {
      const { data, error } = throwingAlfredError(() => parseResult(this.#module.coreRules()));
      if (error) throw new AlfredError(error);
      this.#stepTools = deepFreeze(data.stepTools);
    }
    return this.#stepTools;
  }

  /**
   * The domain's schema as the model reads it (markdown, the body of the Act
   * prompt's Schema section): `{ data, error }`.
   *
   * @example
   * const { data } = core.schemaDescription({ domain }) // 'Types: … ### recipes (refs recipe_N) - id: ref (recipe_N), read-only …'
   */
  schemaDescription({ domain } = {}) {
    try {
      return parseResult(this.#module.schemaDescription(this.domainHandle(domain ?? this.#domain)));
    } catch (cause) {
      if (cause instanceof AlfredError) return { data: null, error: cause.toJSON() };
      return { data: null, error: internalError(cause) };
    }
  }

  /** The JSON Schema of the Act model's output (OpenAI strict structured outputs). */
  get actDecisionSchema() {
    return actDecisionSchema;
  }

  /** The kitchen domain configuration (what `loadCore()` binds to unless given another). */
  get kitchen() {
    return kitchen;
  }

  /**
   * Checks a domain configuration (an object or JSON text) with the core's
   * own parser, the one every call uses: `{ data: domain, error }`. `error`
   * has the `path` into the domain (`tables.deals.columns.stage.values`), a
   * `message` and a `hint`.
   *
   * @example
   * const { error } = core.validateDomain(JSON.parse(readFileSync('domain.json', 'utf8')))
   * if (error) console.error(`${error.path}: ${error.message} (${error.hint})`)
   */
  validateDomain(domain) {
    let text;
    let value = domain;
    try {
      if (typeof domain === 'string') {
        text = domain;
        value = JSON.parse(domain);
      } else {
        text = jsonText(domain ?? null, 'domain');
      }
    } catch (cause) {
      if (cause instanceof AlfredError) return { data: null, error: cause.toJSON() };
      return { data: null, error: { code: 'invalid_domain', path: '', message: `the domain is not JSON: ${cause.message}`, hint: '' } };
    }
    const handle = new this.#module.Domain(text);
    try {
      const failure = handle.loadError();
      return failure ? { data: null, error: parseResult(failure).error } : { data: value, error: null };
    } finally {
      handle.delete();
    }
  }

  /**
   * Derives a domain from PostgREST's OpenAPI description of the database
   * (`GET /` with `Accept: application/openapi+json`), merges `overrides` on
   * top and validates the result: `{ data: domain, error, notes }`. `notes`
   * lists tables and columns left out and why. Rules: docs/own-schema.md.
   *
   * @example
   * const spec = await (await fetch(`${url}/`, { headers: { apikey, accept: 'application/openapi+json' } })).json()
   * const { data: domain, error, notes } = core.domainFromOpenApi(spec, { tables: { deals: { ref: 'deal' } } }, { ownerColumn: 'owner_id' })
   * const act = core.createAct({ url, apiKey, accessToken, userId, domain })
   */
  domainFromOpenApi(spec, overrides, options) {
    return domainFromOpenApiWith(this, spec, overrides, options);
  }

  /**
   * A ref registry bound to `domain` (the core's by default), empty or
   * restored from `registry.toJSON()` of an earlier turn. Throws `AlfredError`
   * (`invalid_state`, `unsupported_state_version`) for a damaged state or one
   * whose refs belong to another domain, instead of silently starting over.
   *
   * @example
   * const registry = core.createRegistry(saved ?? undefined, { domain })
   * // … run the turn …
   * saved = registry.toJSON()
   */
  createRegistry(state, { domain = this.#domain } = {}) {
    this.domainHandle(domain);
    const handle = throwingAlfredError(() => new this.#module.Registry());
    if (state !== undefined && state !== null) {
      let error;
      let foreign = null;
      try {
        const text = typeof state === 'string' ? state : JSON.stringify(state);
        this.checkInput(text, 'state');
        ({ error } = throwingAlfredError(() => parseResult(handle.restore(text))));
        if (!error) foreign = foreignRefs(throwingAlfredError(() => parseResult(handle.toJSON())).data, domain, (ref) => this.parseRef(ref));
      } catch (cause) {
        handle.delete();
        throw cause;
      }
      if (error || foreign) {
        handle.delete();
        throw new AlfredError(error ?? foreign);
      }
    }
    return new Registry(this, handle, domain);
  }

  /**
   * Validates a tool call, translates its refs and builds the PostgREST
   * request. Never throws for bad input: `error` is `{ code, message, path, hint }`.
   *
   * @example
   * const { data, error } = core.buildRequest('db_read',
   *   { table: 'inventory', filters: [{ field: 'location', op: '=', value: 'fridge' }] },
   *   { registry, url: 'https://<project>.supabase.co', apiKey, accessToken }) // userId: the token's sub
   * if (!error) await fetch(data.url, { method: data.method, headers: data.headers, body: data.body })
   */
  buildRequest(tool, params, options) {
    const { domain: given, registry: givenRegistry, ...rest } = options ?? {};
    try {
      const context = this.#contextOf(rest);
      const { domain, registry } = this.#bound({ domain: given, registry: givenRegistry });
      const domainHandle = this.domainHandle(domain);
      const registryHandle = registryHandleOf(registry, this);
      // One string crosses the boundary: [tool, params]; the options are the context's.
      const call = `[${JSON.stringify(String(tool))},${jsonText(params ?? null, 'params')}]`;
      this.checkInput(call, 'params');
      const module = this.#module;
      const slot = this.#slot;
      const built = callWithText(module, slot, this.#input, call, (length) => module.buildRequestAt(domainHandle, registryHandle, context.handle, length), { read: false });
      if (!built) return parseResult(readOutput(module, slot));
      return { data: readRequest(module, slot, context.headers), error: null };
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
  buildActPrompt(input, options = {}) {
    try {
      const { domain, registry } = this.#bound(options ?? {});
      const module = this.#module;
      const domainHandle = this.domainHandle(domain);
      const registryHandle = registryHandleOf(registry, this);
      const text = jsonText(input ?? null, 'input');
      this.checkInput(text, 'input');
      return parseResult(
        callWithText(module, this.#slot, this.#input, text, (length) => module.buildActPromptAt(domainHandle, registryHandle, length)),
      );
    } catch (cause) {
      if (cause instanceof AlfredError) return { data: null, error: cause.toJSON() };
      return { data: null, error: internalError(cause) };
    }
  }

  /**
   * The examples the Act prompt shows for `domain` (the core's by default):
   * `{ data: { slot: text }, error }`, the domain's own `prompt_examples`
   * where it has them, the others derived from its tables (docs/own-schema.md).
   *
   * @example
   * core.promptExamples(crm).data.gen_ref // 'gen_org_1'
   */
  promptExamples(domain = this.#domain) {
    try {
      return parseResult(this.#module.promptExamples(this.domainHandle(domain)));
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
    return parseDecision(this, this.#module, text, options);
  }

  /**
   * @internal The tool result for the model of `outcome` (what
   * `act.execute` resolved to) as the JSON text the model reads, written by
   * the core: cut to `limits` (`{ rows, chars }`) between whole rows, UUIDs in
   * values as refs (through `registry`) or `<id>`, the query rendered.
   * `limited`: the read was sent with the cap as its limit; `offset`: the
   * read's, for the hint; `returned`: the rows the call returned, when
   * `outcome.data` holds only the first ones.
   */
  modelToolResultText(tool, outcome, { registry, limits, limited = false, offset = 0, returned = 0 }) {
    const module = this.#module;
    const registryHandle = registry ? registryHandleOf(registry, this) : (this.#emptyRegistry ??= new module.Registry());
    const error = outcome?.error ?? null;
    const head = { tool: String(tool), limits, limited, offset, returned, error, query: outcome?.query ?? null, count: outcome?.count ?? null };
    const data = outcome?.data ?? null;
    const rows = error || data === null ? '[]' : JSON.stringify(Array.isArray(data) ? data : [data]);
    const text = `${JSON.stringify(head)}\n${rows}`;
    this.checkInput(text, 'outcome');
    const out = callWithText(module, this.#slot, this.#input, text, (length) => module.modelToolResultAt(registryHandle, length));
    if (out.startsWith('{"data":null,"error":')) throw new AlfredError(JSON.parse(out).error);
    return out;
  }

  /**
   * Renders an executed query record (or a step result item) as
   * `Query: … / Effective: … / Outcome: …` lines, or `{ style: 'line' }` as one line.
   *
   * @example
   * core.renderQuery(result.query).data // 'Query: Table: inventory | Filters: location = pantry | Limit: 100\nOutcome: 0 records found\n…'
   */
  renderQuery(record, options) {
    return renderQuery(this, this.#module, record, options);
  }

  /**
   * The four tools (`db_read`, `db_create`, `db_update`, `db_delete`) as
   * `[{ name, description, parameters }]`, `parameters` being a JSON Schema
   * the core generates from `domain`: table names as an enum, the filter
   * ops, and the tables' columns. `schema: 'compact'` (the default) lists
   * each table on one line of db_read's description (ref prefix, column
   * names, `*` for required, allowed values) and leaves rows as open
   * objects: about a third of the tokens, with the full schema on demand
   * (`core.schemaDescription`, MCP's db_schema). `schema: 'inline'` puts the
   * whole schema in the tools: every column with its type in db_read's
   * description, columns as enums, rows typed per table. `strict: true`
   * gives the variant valid under OpenAI strict structured outputs (every
   * property required, null for "left out", `data` as JSON text);
   * `act.execute` accepts what any variant produces. `readOnly: true`
   * lists only the tools that read (`db_read`), as a read-only act offers
   * them. Frozen; throws `AlfredError` only for an invalid `domain` or option.
   *
   * @example
   * const tools = core.toolDefinitions({ strict: true })
   * // [{ name: 'db_read', description: 'Read rows of the kitchen database. …', parameters: { type: 'object', … } }, …]
   */
  toolDefinitions({ domain = this.#domain, strict = false, schema = 'compact', readOnly = false } = {}) {
    if (typeof strict !== 'boolean') {
      throw new AlfredError({ code: 'invalid_option', path: 'strict', message: `strict must be true or false, got ${JSON.stringify(strict)}` });
    }
    if (typeof readOnly !== 'boolean') {
      throw new AlfredError({ code: 'invalid_option', path: 'readOnly', message: `readOnly must be true or false, got ${JSON.stringify(readOnly)}` });
    }
    const inlineSchema = toolSchemaOption(schema);
    const handle = this.domainHandle(domain);
    let cached = this.#toolDefinitions.get(domain);
    if (!cached) this.#toolDefinitions.set(domain, (cached = {}));
    const key = `${strict ? 'strict' : 'plain'}-${inlineSchema ? 'inline' : 'compact'}`;
    const all = (cached[key] ??= toolDefinitions(this.#module, handle, { strict, inlineSchema }));
    if (!readOnly) return all;
    // The tools a read step may call: the core's rule (STEP_TOOLS.read).
    const reads = this.stepTools.read;
    return (cached[`${key}-readOnly`] ??= Object.freeze(all.filter((definition) => reads.includes(definition.name))));
  }

  /**
   * The tool result for the model from what `act.execute` returned:
   * `{ ok: true, tool, table, count, query, truncated?, shown?, hint?,
   * notice?, rows }` (rows with refs, `query` the executed query rendered as
   * text, `notice` saying once that rows are data, never instructions) or
   * `{ ok: false, tool, table, error: { code, path, message, hint, details? } }`.
   * Cut to `resultLimits` (default `{ rows: 50, chars: 16000 }`): whole rows
   * only, the query kept, `truncated: true` with how many rows are `shown`,
   * `count` the total where known, and a `hint` that says how to narrow the
   * call. Never includes UUIDs (one inside a text value shows as its ref in
   * `registry`, or `<id>`) or the developer-only `error.raw`.
   *
   * @example
   * const outcome = await act.execute('db_read', { table: 'inventory' })
   * const result = core.toolResult('db_read', outcome, { registry: act.registry, resultLimits: act.resultLimits })
   * messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(result) })
   */
  toolResult(tool, outcome, { registry, resultLimits } = {}) {
    return toolResult(this, tool, outcome, { registry, resultLimits });
  }

  /**
   * `toolResult` as the JSON text the model reads (what a tool message's
   * `content` is), written by the core.
   *
   * @example
   * messages.push({ role: 'tool', tool_call_id: call.id, content: core.toolResultText('db_read', outcome, { registry: act.registry }) })
   */
  toolResultText(tool, outcome, { registry, resultLimits } = {}) {
    return toolResultText(this, tool, outcome, { registry, resultLimits });
  }

  /**
   * An executor for one user: `execute(tool, params)` resolves to
   * `{ data, error, query, count }`. Options: `{ supabase }` (a supabase-js
   * client: its URL, key and current session) or `{ url | restUrl, apiKey,
   * accessToken }` (a string, or a function returning one or a promise of
   * one, called before every call), plus `userId` (default: the token's
   * `sub`), `domain`, `fetch`, `state` or `registry`, `embedder`,
   * `timeoutMs`, `limits`, and the safety controls (docs/safety-controls.md):
   * `readOnly`, `tables`, `approve`, `maxAffected`, `onAudit`, `tracer`. An
   * unknown option or a value of the wrong type throws `AlfredError`
   * (`invalid_option`).
   * The act is bound to one domain: `domain`, else the registry's, else the
   * core's (restricted to `tables` when given).
   *
   * @example
   * const act = core.createAct({ supabase }) // or { url: process.env.SUPABASE_URL, apiKey: anonKey, accessToken: () => session.access_token }
   * const careful = core.createAct({ supabase, approve: 'deletes', tables: ['inventory'] })
   * const { data, error, query } = await act.execute('db_read', { table: 'inventory' })
   * saved = act.registry.toJSON()
   */
  createAct(options) {
    return new Act(this, options);
  }

  /**
   * @internal Throws `AlfredError` for request options (`{ url | restUrl,
   * apiKey, accessToken, userId }`) no request could be built with.
   */
  checkRequestOptions(options) {
    this.checkedRequestContext(options).handle.delete();
  }

  /**
   * @internal `requestContext(options)`, refused (`AlfredError`) when no
   * request could be sent with it (a service key, a URL that is not http(s)).
   */
  checkedRequestContext(options) {
    const context = this.requestContext(options);
    try {
      const { error } = throwingAlfredError(() => parseResult(context.handle.sendError()));
      if (error) throw new AlfredError(error);
      return context;
    } catch (cause) {
      context.handle.delete();
      throw cause;
    }
  }

  /**
   * @internal Request options made ready once for many requests (the core's
   * request_context): `{ handle, headers }`, where `headers` are the ones
   * every request carries. Throws `AlfredError` for options that do not
   * parse. `delete()` the handle when done with it.
   */
  requestContext(options) {
    const module = this.#module;
    const text = jsonText(options ?? null, 'options');
    this.checkInput(text, 'options');
    const handle = callWithText(module, this.#slot, this.#input, text, (length) => new module.RequestContext(length), { read: false });
    try {
      const failure = handle.loadError();
      if (failure) throw new AlfredError(parseResult(failure).error);
      return { handle, headers: Object.freeze(JSON.parse(handle.headers())) };
    } catch (cause) {
      handle.delete();
      throw cause;
    }
  }

  // The context of buildRequest's options: the last one when they are the
  // same, else a new one (the old is deleted: calls are synchronous).
  #contextOf(options) {
    const last = this.#lastContext;
    if (last && sameOptions(last.options, options)) return last;
    // JSON would drop a function silently: a token getter cannot be
    // awaited by this synchronous call, so it is an error, not anon.
    for (const [name, value] of Object.entries(options)) {
      if (typeof value === 'function' || typeof value === 'symbol') {
        throw new AlfredError({
          code: 'invalid_option',
          path: name,
          message: `${name} must be a string, got a ${typeof value}`,
          hint: name === 'accessToken' ? 'await your token getter first and pass the token, or use createAct, which calls it per request' : '',
        });
      }
    }
    const context = { options: { ...options }, ...this.requestContext(options) };
    if (last) {
      this.#lastContext = null;
      last.handle.delete();
    }
    this.#lastContext = context;
    return context;
  }

  /**
   * @internal One tool call's execution in the core, for the user of
   * `context` (`requestContext`): `needs()` of each round,
   * `respond(index, { status, contentRange, contentType, body: Uint8Array })`,
   * then `result()`. Always `delete()` it.
   */
  startExecution(tool, params, context, { registry, domain, settings }) {
    const module = this.#module;
    const domainHandle = this.domainHandle(domain);
    const registryHandle = registryHandleOf(registry, this);
    const paramsText = jsonText(params ?? null, 'params');
    const maxParams = settings?.limits?.maxParamsBytes ?? this.#executionLimits.maxParamsBytes;
    checkSize(paramsText, maxParams, 'params_too_large', '', 'the params');
    // [tool, settings], a newline, the params: the core parses the params once.
    const call = `[${JSON.stringify(String(tool))},${jsonText(settings ?? null, 'options')}]\n${paramsText}`;
    const input = this.#input;
    const slot = this.#slot;
    const handle = callWithText(module, slot, input, call, (length) => new module.Execution(domainHandle, registryHandle, context.handle, length), { read: false });
    return {
      done: () => handle.done(),
      // An error instead of the list: the core could not write the needs
      // (out of memory); thrown, so the caller reports it as a result.
      needs: () => {
        const needs = JSON.parse(handle.needs());
        if (!Array.isArray(needs)) throw new AlfredError(needs?.error ?? internalError(new Error('the core returned no needs')));
        return needs;
      },
      // The body goes into the handle's own buffer, which the core takes
      // over without a copy.
      respond(index, { status, contentRange, contentType, body, failure = '' }) {
        let bytes = body;
        let kind = failure;
        let pointer = handle.bodyBuffer(bytes.length);
        if (pointer === 0 && bytes.length > 0) {
          bytes = encoder.encode(`the core could not make room for ${bytes.length} bytes`);
          kind = 'too_large';
          pointer = handle.bodyBuffer(bytes.length);
          if (pointer === 0) bytes = new Uint8Array(0); // not even for the message: the failure alone
        }
        copyIn(module, bytes, () => pointer);
        handle.respondAt(index, status, contentRange, contentType, kind);
      },
      // For the model (`settings.forModel`), the core writes the result's
      // fields, a newline and the tool result's JSON text: the text is kept
      // as it is (`modelText`), never parsed here.
      result() {
        handle.resultAt();
        const text = readOutput(module, slot);
        trimAfterLargeCall(module, input, text.length);
        if (!settings?.forModel) return JSON.parse(text);
        const newline = text.indexOf('\n');
        if (newline < 0) return JSON.parse(text);
        const out = JSON.parse(text.slice(0, newline));
        out.modelText = text.slice(newline + 1);
        return out;
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

// Two domain objects are the same domain when they are one object or have the
// same JSON (a copy read from the same file).
const sameDomain = (a, b) => a === b || JSON.stringify(a) === JSON.stringify(b);

const domainName = (domain) => (typeof domain?.name === 'string' ? domain.name : 'unnamed');

function domainMismatch(bound, given) {
  return new AlfredError({
    code: 'invalid_option',
    path: 'domain',
    message: `this registry is bound to the ${domainName(bound)} domain, not ${domainName(given)}`,
    hint: 'a registry serves one domain: createRegistry(state, { domain }) for each',
  });
}

// The refs of a restored state must be refs of `domain`: a kitchen state
// read into a CRM registry would otherwise turn recipe_1 into nonsense.
// `parseRef` is the core's ref grammar.
function foreignRefs(state, domain, parseRef) {
  for (const [index, entry] of (state.refs ?? []).entries()) {
    const prefix = parseRef(String(entry.ref))?.prefix;
    if (domain.tables?.[entry.table]?.ref !== prefix) {
      return {
        code: 'invalid_state',
        path: `refs[${index}]`,
        message: `${entry.ref} (table ${entry.table}) is not a ref of the ${domainName(domain)} domain`,
        hint: 'this state was saved with another domain: restore it with that domain, or start a new registry',
      };
    }
  }
  return null;
}
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

function registryDomainOf(registry, core) {
  registryHandleOf(registry, core);
  return handles.get(registry).domain;
}

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

  constructor(core, handle, domain) {
    this.#core = core;
    handles.set(this, { core, handle, domain });
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
   * callers that decide themselves when (or whether) to parse it. `userId`
   * (the signed-in user's id) is shown as `me`.
   *
   * @example
   * const { data: text } = registry.translateRowsText('meal_plans', bytes) // '[{"id":"meal_1",…}]'
   */
  translateRowsText(table, rows, { domain, action = 'read', userId = '' } = {}) {
    try {
      const module = modules.get(this.#core);
      const domainHandle = this.#core.domainHandle(this.#domain(domain));
      const handle = this.#handle();
      const bytes = rowBytes(rows);
      let value = bytes;
      if (bytes) {
        if (bytes.length > this.#core.maxInputBytes) {
          throw tooLarge('input_too_large', 'rows', 'the rows', bytes.length, this.#core.maxInputBytes);
        }
      } else {
        value = typeof rows === 'string' ? rows : jsonText(rows ?? null, 'rows');
        this.#core.checkInput(value, 'rows');
      }
      const length = copyIn(module, value, (size) => rowsRoom(module, size));
      // No table or action name is that long; an error repeats at most this much of one.
      const ok = module.translateRowsAt(domainHandle, handle, String(table).slice(0, 256), String(action).slice(0, 256), String(userId).slice(0, 64), length);
      const text = readOutput(module, module.resultSlot());
      if (text.length > KEEP_BYTES) module.trimBuffers();
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
      this.#core.checkInput(text, 'content');
      return parseResult(this.#handle().registerGenerated(this.#core.domainHandle(this.#domain(domain)), String(table).slice(0, 256), text));
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
      const domainHandle = this.#core.domainHandle(this.#domain(domain));
      const text = jsonText(content ?? null, 'content');
      this.#core.checkInput(text, 'content');
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
      const domainHandle = this.#core.domainHandle(this.#domain(domain));
      return parseResult(this.#handle().promote(domainHandle, String(genRef).slice(0, 256), String(key).slice(0, 256), String(label).slice(0, 4096)));
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

export { AlfredError };
