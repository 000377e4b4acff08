// The calls of the core with text in and a result out, over the module's
// transfer (abi.js, the one module that writes into and reads out of WASM
// memory): `callWithText` is the one helper for "a call with text in and a
// result out", with the input buffer kept between calls and given back after
// a large one; an execution's calls (startExecutionWith); the size checks
// before anything is copied; a call's errors as values.
import { coreAbi } from './abi.js';
import { instantiateWasm } from './instance.js';
import { AlfredError, internalError } from '../errors.js';
import { DEFAULT_MAX_INPUT_BYTES, MAX_INPUT_BYTES } from '../limits.js';
import { codes } from '../../dist/error-codes.mjs';

// The core's calls (abi.js) over an instance of a compiled `WebAssembly.Module`
// (instance.js: never fetched or compiled here, since Cloudflare Workers
// forbid compiling from bytes).
export async function instantiateModule(wasmModule) {
  return coreAbi(instantiateWasm(wasmModule));
}

// loadCore({ maxInputBytes }), see limits.js.
export function checkedInputLimit(value) {
  if (value === undefined || value === null) return DEFAULT_MAX_INPUT_BYTES;
  if (!Number.isSafeInteger(value) || value < 1 || value > MAX_INPUT_BYTES) {
    throw new AlfredError({ code: codes.invalid_option, path: 'maxInputBytes', message: `maxInputBytes must be a whole number from 1 to ${MAX_INPUT_BYTES}` });
  }
  return value;
}

// A call's `{ data, error }`: an AlfredError it threw as its error, anything
// else as an internal error.
export function asResult(run) {
  try {
    return run();
  } catch (cause) {
    if (cause instanceof AlfredError) return { data: null, error: cause.toJSON() };
    return { data: null, error: internalError(cause) };
  }
}

// The core's answers are JSON text.
export const parseResult = (text) => JSON.parse(text);

// Runs `call` on the core; a C++ exception that escaped it (out of memory
// while crossing the boundary) is thrown as an AlfredError, never as a raw
// WebAssembly.Exception.
export function throwingAlfredError(call) {
  try {
    return call();
  } catch (cause) {
    throw cause instanceof AlfredError ? cause : new AlfredError(internalError(cause));
  }
}

// JSON text of a caller's value; a BigInt or a cycle is the caller's error,
// not the core's.
export function jsonText(value, path) {
  try {
    return JSON.stringify(value);
  } catch (cause) {
    throw new AlfredError({
      code: path === 'params' ? codes.invalid_params : codes.invalid_option,
      path: '',
      message: `${path} cannot be written as JSON: ${cause?.message ?? cause}`,
      hint: 'use plain objects, arrays, strings, numbers, booleans and null',
    });
  }
}
const encoder = new TextEncoder();

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

export function tooLarge(code, path, what, bytes, limit) {
  return new AlfredError({
    code,
    path,
    message: `the size of ${what} is ${bytes === null ? 'over' : `${bytes} bytes, over`} the limit of ${limit} bytes`,
    hint: 'split the work into smaller calls, or raise the limit',
  });
}

// Refuses `text` over `limit` UTF-8 bytes before anything is copied into
// WASM memory; returns its exact size when that is cheap to know.
export function checkSize(text, limit, code, path, what) {
  if (text.length > limit) throw tooLarge(code, path, what, null, limit);
  if (text.length * 3 <= limit) return;
  const bytes = utf8Length(text);
  if (bytes > limit) throw tooLarge(code, path, what, bytes, limit);
}

// `text` into the shared input buffer. The buffer moves only when
// inputBuffer grows it, so `input` ({ pointer, capacity }) keeps its address
// and the boundary is crossed for it only when a text needs more room.
// Returns the byte length.
export function writeInput(module, input, text) {
  return module.copyIn(text, (size) => {
    if (size > input.capacity) {
      input.pointer = module.inputBuffer(size);
      input.capacity = size;
    }
    return input.pointer;
  });
}

// After a large call, the buffers go back to the allocator: one huge input
// must not pin its memory for the life of the instance.
export function trimAfterLargeCall(module, input, bytes) {
  if (input.capacity <= module.keepBytes && bytes <= module.keepBytes) return;
  module.trimBuffers();
  input.pointer = 0;
  input.capacity = 0;
}

// Room for `size` bytes of rows in WASM memory; out_of_memory when the core
// cannot make it (address 0 is never written to).
export function rowsRoom(module, size) {
  const pointer = module.rowsBuffer(size);
  if (pointer === 0 && size > 0) {
    throw new AlfredError({ code: codes.out_of_memory, path: 'rows', message: `the core could not make room for ${size} bytes of rows`, hint: 'translate the rows in smaller parts' });
  }
  return pointer;
}

// The one way a text goes into the core: it is written into the input
// buffer and `invoke(length)` runs on it; the text the call published through
// the result slot is returned (with `read: false`, what `invoke` returned).
// After a large call, or a failed one, the buffers go back to the allocator.
export function callWithText(module, input, text, invoke, { read = true } = {}) {
  const length = writeInput(module, input, text);
  let outLength = 0;
  try {
    const value = invoke(length);
    if (!read) return value;
    const out = module.output();
    outLength = out.length;
    return out;
  } finally {
    trimAfterLargeCall(module, input, outLength);
  }
}

// The JSON text a tool call's params were parsed from, where the core may
// read that text as it came instead of the params written out again
// (withArgumentText).
const ARGUMENT_TEXT = Symbol('argument text');

/**
 * Marks `params` as parsed from `text`, so that an execution of them sends
 * `text` to the core as it is. Only for calls whose handling in JS does not
 * depend on what the params hold (reads): with a duplicate key, JSON.parse
 * and the core could each see a different value.
 */
export function withArgumentText(params, text) {
  // A symbol-keyed property of the object JSON.parse made: JSON.stringify
  // and Object.keys do not see it.
  if (params !== null && typeof params === 'object') params[ARGUMENT_TEXT] = text;
  return params;
}

// Core#startExecution: `[tool, settings]`, a newline and the params (the
// core parses the params once) into a new Execution handle for
// `[domainHandle, registryHandle, contextHandle]`; the params over
// `maxParams` bytes are refused before they are copied. `contextHeaders`
// are the context's (its `headers`), which every request sends first.
export function startExecutionWith(module, input, [domainHandle, registryHandle, contextHandle], { tool, params, settings, settingsText, maxParams, contextHeaders }) {
  // Without them every request would leave without its key and token.
  if (contextHeaders === null || typeof contextHeaders !== 'object') throw new TypeError("startExecution needs the request context's headers");
  const paramsText = params?.[ARGUMENT_TEXT] ?? jsonText(params ?? null, 'params');
  checkSize(paramsText, maxParams, codes.params_too_large, '', 'the params');
  const call = `[${JSON.stringify(String(tool))},${settingsText ?? jsonText(settings ?? null, 'options')}]\n${paramsText}`;
  const handle = callWithText(module, input, call, (length) => new module.Execution(domainHandle, registryHandle, contextHandle, length), { read: false });
  return executionCalls(module, input, handle, settings, contextHeaders);
}

// A successful result for the model keeps its fields' text under HEAD;
// `query` and `count` are getters (one pair for every result, not closures
// made per call) that parse it when first read, and setters that make them
// plain values.
const HEAD = Symbol('result fields');
const lazyField = (key) => ({
  enumerable: true,
  configurable: true,
  get() {
    const head = this[HEAD];
    return (head.fields ??= JSON.parse(head.text))[key];
  },
  set(value) {
    Object.defineProperty(this, key, { value, writable: true, enumerable: true, configurable: true });
  },
});
const LAZY_FIELDS = { query: lazyField('query'), count: lazyField('count') };

// How the fields of a call for the model that succeeded begin (its rows are
// in the model's text, not in data).
const SUCCEEDED = '{"data":null,"error":null,';

// The calls of one Execution handle (Core#startExecution): the needs of each
// round, the responses' bodies into the handle's buffer, the result out of
// the result slot. `input` is the Core's input buffer, trimmed after a large
// result.
export function executionCalls(module, input, handle, settings, contextHeaders) {
  return {
    done: () => handle.done(),
    // An error instead of the list: the core could not write the needs
    // (out of memory); thrown, so the caller reports it as a result. An
    // HTTP need's headers from the core are the request's own: the
    // context's (the access token among them) go first, from JS, as they
    // would not change from one request to the next.
    needs: () => {
      const needs = JSON.parse(handle.needs());
      if (!Array.isArray(needs)) throw new AlfredError(needs?.error ?? internalError(new Error('the core returned no needs')));
      for (const need of needs) if (need.kind === 'http') need.headers = { ...contextHeaders, ...need.headers };
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
      module.copyIn(bytes, () => pointer);
      handle.respondAt(index, status, contentRange, contentType, kind);
    },
    // For the model (`settings.forModel`), the core writes the result's
    // fields, a newline and the tool result's JSON text: the text is kept
    // as it is (`modelText`), never parsed here.
    result() {
      handle.resultAt();
      if (!settings?.forModel) {
        const text = module.output();
        trimAfterLargeCall(module, input, text.length);
        return JSON.parse(text);
      }
      const [head, modelText] = module.outputLines();
      trimAfterLargeCall(module, input, head.length + (modelText?.length ?? 0));
      if (modelText === null) return JSON.parse(head);
      if (!head.startsWith(SUCCEEDED)) return { ...JSON.parse(head), modelText };
      // A call that succeeded, for the model: what it needs is modelText, and
      // the query and count are parsed only when read.
      return Object.defineProperties({ data: null, error: null, modelText, [HEAD]: { text: head, fields: null } }, LAZY_FIELDS);
    },
    delete: () => handle.delete(),
  };
}
