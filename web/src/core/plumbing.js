// What a Core does for the other parts of the package and never for its
// users: the Emscripten module and the input buffer every call shares, the
// compiled domains, request contexts and executions for the Act, the tool
// result written for a model, and the default tracer. The public Core class
// (core/index.js) shows only its public API; the parts reach this with
// internalsOf(core) (core/internals.js).
import { AlfredError } from '../errors.js';
import { callWithText, checkSize, checkedInputLimit, startExecutionWith } from './boundary.js';
import { compiledDomain } from './domains.js';
import { newRequestContext, sendableContext } from './requests.js';
import { registryHandleOf } from './registry.js';
import { codes } from '../../dist/error-codes.mjs';

/** @internal The plumbing of one Core; the Core owns it and it lives as long. */
export class CorePlumbing {
  #domains = new WeakMap();
  // A registry with no refs, for tool results and scrubbing done without one.
  #emptyRegistry = null;
  #defaultTracer = null;

  constructor(core, module, maxInputBytes) {
    /** The Core this is the plumbing of. */
    this.core = core;
    /** The instantiated Emscripten module. */
    this.module = module;
    /** The input buffer in WASM memory every call with text in reuses (`{ pointer, capacity }`). */
    this.input = { pointer: 0, capacity: 0 };
    /** The most UTF-8 bytes one stateless call takes (`loadCore({ maxInputBytes })`). */
    this.maxInputBytes = checkedInputLimit(maxInputBytes);
    /**
     * This instance's warm-up (core/warm-up.js): `{ wanted, module, state,
     * done }`, `state` one of none, scheduled, running, done, failed,
     * skipped; `done` a promise of the final state once one is scheduled.
     */
    this.warmUp = { wanted: false, module: null, state: 'none', done: null };
    /** How many executions were started (the warm-up skips itself once the app has started one). */
    this.executionsStarted = 0;
  }

  /**
   * The OpenTelemetry tracer acts use when not given a `tracer` (the Node
   * entry sets @opentelemetry/api's global one when it is installed).
   */
  get defaultTracer() {
    return this.#defaultTracer;
  }

  /** Sets `defaultTracer`; anything without `startSpan` clears it. */
  useDefaultTracer(tracer) {
    this.#defaultTracer = tracer && typeof tracer.startSpan === 'function' ? tracer : null;
  }

  /** Passes `text` through WASM memory to `invoke(length)`; returns the published text (`{ read: false }`: `invoke`'s value). */
  callWithInput(text, invoke, options) {
    return callWithText(this.module, this.input, text, invoke, options);
  }

  /** Refuses a stateless call's input over maxInputBytes (`input_too_large`). */
  checkInput(text, path) {
    checkSize(text, this.maxInputBytes, codes.input_too_large, path, `the ${path}`);
  }

  /** The bytes the WASM memory has grown to (it never shrinks). */
  get memoryBytes() {
    return this.module.HEAPU8.buffer.byteLength;
  }

  /** The registry handle of `registry` (this core's), or of an empty registry when none is given. */
  registryHandle(registry) {
    return registry ? registryHandleOf(registry, this.core) : (this.#emptyRegistry ??= new this.module.Registry());
  }

  /** The compiled form of a domain, cached per domain object; throws `AlfredError` for one the core refuses. */
  domainHandle(domain) {
    return compiledDomain(this, this.module, this.#domains, domain);
  }

  /**
   * Request options made ready once for many requests (the core's
   * request_context): `{ handle, headers }`, where `headers` are the ones
   * every request carries. Throws `AlfredError` for options that do not
   * parse. `delete()` the handle when done with it.
   */
  requestContext(options) {
    return newRequestContext(this, this.module, this.input, options);
  }

  /**
   * `requestContext(options)`, refused (`AlfredError`) when no request
   * could be sent with it (a service key, a URL that is not http(s)).
   */
  checkedRequestContext(options) {
    return sendableContext(this.requestContext(options));
  }

  /**
   * One tool call's execution in the core, for the user of `context`
   * (`requestContext`): `needs()` of each round,
   * `respond(index, { status, contentRange, contentType, body: Uint8Array })`,
   * then `result()`. Always `delete()` it. `settingsText`: `settings` as
   * JSON text already (an act writes its fixed settings once).
   */
  startExecution(tool, params, context, { registry, domain, settings, settingsText }) {
    this.executionsStarted++;
    const handles = [this.domainHandle(domain), registryHandleOf(registry, this.core), context.handle];
    const maxParams = settings?.limits?.maxParamsBytes ?? this.core.executionLimits.maxParamsBytes;
    return startExecutionWith(this.module, this.input, handles, { tool, params, settings, settingsText, maxParams, contextHeaders: context.headers });
  }

  /**
   * The tool result for the model of `outcome` (what `act.execute`
   * resolved to) as the JSON text the model reads, written by the core: cut
   * to `limits` (`{ rows, chars }`) between whole rows, UUIDs in values as
   * refs (through `registry`) or `<id>`, the query rendered. `limited`: the
   * read was sent with the cap as its limit; `offset`: the read's, for the
   * hint; `returned`: the rows the call returned, when `outcome.data` holds
   * only the first; `fence`: the call's marker around the row text
   * (newFence); `table`: the table the call named, for one refused before it
   * had a query.
   */
  modelToolResultText(tool, outcome, { registry, limits, limited = false, offset = 0, returned = 0, fence = '', table }) {
    const module = this.module;
    const registryHandle = this.registryHandle(registry);
    const error = outcome?.error ?? null;
    const head = { tool: String(tool), limits, limited, offset, returned, error, query: outcome?.query ?? null, count: outcome?.count ?? null, fence, ...(table === undefined ? {} : { table }) };
    const data = outcome?.data ?? null;
    const rows = error || data === null ? '[]' : JSON.stringify(Array.isArray(data) ? data : [data]);
    const text = `${JSON.stringify(head)}\n${rows}`;
    this.checkInput(text, 'outcome');
    const out = this.callWithInput(text, (length) => module.modelToolResultAt(registryHandle, length));
    if (out.startsWith('{"data":null,"error":')) throw new AlfredError(JSON.parse(out).error);
    return out;
  }
}
