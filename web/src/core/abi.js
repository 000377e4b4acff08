// The core's exports as the rest of the package calls them, and the one
// place where bytes cross between JS and WASM memory. The WebAssembly module
// exports plain C functions over numbers (wasm/handles.h): a handle is its
// address in WASM memory, texts go in through the input buffer, the rows
// buffer, a response's body buffer (each written by `copyIn`) or the
// argument buffer (a call's short texts, `args`), and come out through the
// result slot (`output`, `readRequest`). This module turns them into handle
// objects with methods and `delete()`, and functions that take and return
// text (docs/architecture.md, "The boundary").
import { AlfredError } from '../errors.js';
import { codes } from '../../dist/error-codes.mjs';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
// For bytes that continue a text (a piece after the first, the text after
// a line): a U+FEFF at their start is a character of the text, which
// `decoder` would drop as a byte-order mark.
const continuing = new TextDecoder('utf-8', { ignoreBOM: true });

// A large output that is all ASCII (rows of English text, say) is read with
// Buffer's ASCII decoder where the runtime is Node (nodeBuffer): Node
// 20's TextDecoder takes about 0.8 ns a byte even on ASCII, the ASCII decoder
// a fifth of that, and `isAscii` checks 2.5 MB in 30 µs (docs/benchmarks.md,
// "Round trips where an agent waits, the module's templates, large ASCII
// results"). Every other output goes through TextDecoder; for ASCII bytes
// both give the same string.
const ASCII_PATH_BYTES = 16384;
let asciiText; // undefined until probed; null where the runtime has no such module

// Node's buffer module where the runtime is Node, else null. Deno's and
// Bun's have one too, but Deno's decodes Latin-1 and ASCII a character at a
// time in JavaScript, slower than its TextDecoder.
function nodeBuffer() {
  const runtime = globalThis.process;
  if (runtime?.versions?.deno || runtime?.versions?.bun) return null;
  try {
    return runtime?.getBuiltinModule?.('buffer') ?? null;
  } catch {
    return null; // a runtime whose process shim refuses: TextDecoder alone
  }
}

// `bytes` → text with the buffer module's Buffer in `encoding`, or null
// without one.
function bufferDecoder(buffer, encoding) {
  const Buffer = buffer?.Buffer;
  if (typeof Buffer?.from !== 'function') return null;
  return (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString(encoding);
}

function probeAsciiText() {
  const buffer = nodeBuffer();
  const read = bufferDecoder(buffer, 'ascii');
  if (typeof buffer?.isAscii !== 'function' || !read) return null;
  return (bytes) => (buffer.isAscii(bytes) ? read : null);
}

// Buffer's Latin-1 decoder, where the runtime has Node's buffer module and
// it reads ISO-8859-1 exactly (0x80 to 0x9F as U+0080 to U+009F); else null.
// With it, the core writes a large result for the model in Latin-1 when
// every character fits, ASCII included (api::execution_result): Node 20 and
// 22 read UTF-8 with any accent in it about nine times slower than ASCII,
// Latin-1 as fast (docs/benchmarks.md, "A call's settings, and results in
// Latin-1").
let latin1Text;

function latin1Reader() {
  if (latin1Text !== undefined) return latin1Text;
  const read = bufferDecoder(nodeBuffer(), 'latin1');
  latin1Text = null;
  try {
    if (read?.(new Uint8Array([0x41, 0x80, 0x9f, 0xe9, 0xff])) === 'A\u0080\u009f\u00e9\u00ff') latin1Text = read;
  } catch {
    // not Node's Buffer: TextDecoder alone
  }
  return latin1Text;
}

// A text of more than 128 KB is a large object to V8: making one flat costs
// about as much as decoding 1 MB on the machine measured (docs/benchmarks.md,
// "Large texts in pieces, a token read once, and a proxy worker's floor").
// So a large output is decoded in pieces below that size, split where a
// character starts, and joined: the text a model reads is then a rope, as
// JSON.stringify's results are.
const PIECE_BYTES = 65536;

// Where the piece that would end at `end` ends instead: not inside a
// character (at most three continuation bytes back).
function pieceEnd(bytes, end) {
  for (let at = end; at > end - 4; at--) if ((bytes[at] & 0xc0) !== 0x80) return at;
  return end; // not UTF-8 here: any split reads the same
}

/**
 * @internal The text of UTF-8 `bytes` (a view of WASM memory): what
 * TextDecoder gives, faster for large ASCII. `continued`: the bytes continue
 * a text, so a U+FEFF at their start is kept. `latin1`: the bytes are
 * Latin-1 (the core wrote them so for `latin1Reader`), one per character.
 */
export function decodeOutput(bytes, continued = false, latin1 = false) {
  const length = bytes.byteLength;
  if (!latin1 && length < ASCII_PATH_BYTES) return (continued ? continuing : decoder).decode(bytes);
  if (asciiText === undefined) asciiText = probeAsciiText();
  // A reader of one byte per character splits the text anywhere.
  const oneByte = latin1 ? latin1Reader() : (asciiText?.(bytes) ?? false);
  let text = '';
  for (let start = 0; start < length; ) {
    const end = length - start <= PIECE_BYTES ? length : oneByte ? start + PIECE_BYTES : pieceEnd(bytes, start + PIECE_BYTES);
    const piece = bytes.subarray(start, end);
    text += oneByte ? oneByte(piece) : (start > 0 || continued ? continuing : decoder).decode(piece);
    start = end;
  }
  return text;
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

// The text transfer of one instance: `m` is its Emscripten module.
class Transfer {
  constructor(m) {
    this.m = m;
    this.slot = m._alfred_result_slot() >>> 2;
    // Buffers above this many bytes are given back to the allocator after
    // the call that used them; below it they are kept for reuse. The core's
    // own constant (kKeepBytes in wasm/handles.h), read from it.
    this.keepBytes = m._alfred_keep_bytes() >>> 0;
    // Whether the last call that publishes a result asked for it in Latin-1 (askLatin1).
    this.latin1Asked = false;
  }

  /**
   * `value` as it is written into WASM memory: a text long enough to matter
   * is encoded first, so that the memory holds its exact size rather than
   * room for three bytes per character; a short one (or bytes) as it is.
   */
  sized(value) {
    return typeof value === 'string' && value.length > this.keepBytes / 3 ? encoder.encode(value) : value;
  }

  /**
   * Writes `value` (text or a Uint8Array) at the address `room(size)` gives
   * for at least `size` bytes; its length in bytes. encodeInto is native; a
   * JS loop per character is not. `room` may grow the memory: HEAPU8 is
   * read after it.
   */
  copyIn(value, room) {
    value = this.sized(value);
    if (typeof value !== 'string') {
      const pointer = room(value.length);
      if (value.length > 0) this.m.HEAPU8.set(value, pointer);
      return value.length;
    }
    const capacity = value.length * 3; // UTF-8 needs at most 3 bytes per UTF-16 unit
    const pointer = room(capacity);
    return encoder.encodeInto(value, this.m.HEAPU8.subarray(pointer, pointer + capacity)).written;
  }

  /** The text the last call published through the result slot. */
  output() {
    const bytes = this.outputBytes();
    const text = decodeOutput(bytes, false, this.outputIsLatin1());
    if (bytes.length > this.keepBytes) this.m._alfred_trim_output();
    return text;
  }

  /**
   * The output's first line and the rest, each read apart (`[text, null]`
   * without a line break): a large rest stays in pieces (`decodeOutput`),
   * where finding the break in the joined text would make it flat.
   */
  outputLines() {
    const bytes = this.outputBytes();
    const newline = bytes.indexOf(10);
    const latin1 = this.outputIsLatin1();
    let lines;
    if (newline < 0) lines = [decodeOutput(bytes, false, latin1), null];
    else {
      const head = bytes.subarray(0, newline);
      lines = [latin1 ? latin1Reader()(head) : decoder.decode(head), decodeOutput(bytes.subarray(newline + 1), true, latin1)];
    }
    if (bytes.length > this.keepBytes) this.m._alfred_trim_output();
    return lines;
  }

  /**
   * 1 when outputs may come in Latin-1 (the runtime reads it faster), else
   * 0: what an execution's result asks for. Until the output is read, the
   * slot's word 6 says which it is.
   */
  askLatin1() {
    this.latin1Asked = latin1Reader() !== null;
    return this.latin1Asked ? 1 : 0;
  }

  /**
   * Whether the output is Latin-1 rather than UTF-8: the result slot's word
   * 6, read only when the call that published it asked (a module of another
   * build may leave that word as anything).
   */
  outputIsLatin1() {
    const asked = this.latin1Asked;
    this.latin1Asked = false;
    return asked === true && new Uint32Array(this.m.HEAPU8.buffer)[this.slot + 6] === 1;
  }

  outputBytes() {
    const heap = this.m.HEAPU8;
    const words = new Uint32Array(heap.buffer);
    const at = words[this.slot];
    return heap.subarray(at, at + words[this.slot + 1]);
  }

  /**
   * The request a build published: the output text holds the method, the
   * URL, the body (when there is one) and the per-request headers, at the
   * byte lengths the result slot's words 2 to 5 give (wasm/bindings.cpp,
   * publish_layout). `headers` are the request context's own.
   */
  readRequest(headers) {
    const heap = this.m.HEAPU8;
    const words = new Uint32Array(heap.buffer, this.slot << 2, 6);
    const [at, length, methodLength, urlLength, bodyLength, hasBody] = words;
    const method = decoder.decode(heap.subarray(at, at + methodLength));
    const urlEnd = at + methodLength + urlLength;
    const url = decoder.decode(heap.subarray(at + methodLength, urlEnd));
    const bodyEnd = hasBody ? urlEnd + bodyLength : urlEnd;
    const body = hasBody ? decoder.decode(heap.subarray(urlEnd, bodyEnd)) : null;
    const own = requestHeaders(decoder.decode(heap.subarray(bodyEnd, at + length)));
    return { method, url, headers: { ...headers, ...own }, body };
  }

  /**
   * `texts` one after another into the argument buffer; their byte lengths.
   * The core gives a buffer over keepBytes back after the call that read it.
   */
  args(...texts) {
    const parts = texts.map((text) => this.sized(text));
    let room = 0;
    for (const part of parts) room += typeof part === 'string' ? part.length * 3 : part.length; // UTF-8: at most 3 bytes per UTF-16 unit
    const pointer = this.m._alfred_argument_buffer(room);
    const heap = this.m.HEAPU8; // read after the call: it may have grown the memory
    let at = pointer;
    return parts.map((part) => {
      let written = part.length;
      if (typeof part === 'string') ({ written } = encoder.encodeInto(part, heap.subarray(at, pointer + room)));
      else heap.set(part, at);
      at += written;
      return written;
    });
  }
}

// A handle: `address` is 0 once deleted, and a deleted handle is refused
// rather than read (its memory may hold something else by then).
class Handle {
  #address;
  #free;

  constructor(io, address, free) {
    this.io = io;
    this.#address = address;
    this.#free = free;
  }

  /** The handle's address; throws once it was deleted. */
  get address() {
    if (this.#address === 0) {
      throw new AlfredError({ code: codes.internal_error, path: '', message: 'alfred-act core: a deleted handle was used' });
    }
    return this.#address;
  }

  delete() {
    const address = this.address;
    this.#address = 0;
    this.#free(address);
  }

  /** Runs `call(m, address)`; the text it published. */
  text(call) {
    call(this.io.m, this.address);
    return this.io.output();
  }
}

class DomainHandle extends Handle {
  /** A domain from the first `length` bytes of the input buffer. */
  constructor(io, length) {
    super(io, io.m._alfred_domain_new(length), (address) => io.m._alfred_domain_delete(address));
  }

  loadError() {
    return this.text((m, address) => m._alfred_domain_load_error(address));
  }
}

class RegistryHandle extends Handle {
  constructor(io) {
    super(io, io.m._alfred_registry_new(), (address) => io.m._alfred_registry_delete(address));
  }

  /** Restores the state in the first `length` bytes of the input buffer. */
  restoreAt(length) {
    return this.text((m, address) => m._alfred_registry_restore(address, length));
  }

  toJSON() {
    return this.text((m, address) => m._alfred_registry_state(address));
  }

  turn() {
    return this.io.m._alfred_registry_turn(this.address);
  }

  setTurn(turn) {
    this.io.m._alfred_registry_set_turn(this.address, turn);
  }

  endTurn() {
    this.io.m._alfred_registry_end_turn(this.address);
  }

  // The handles are checked before the texts are written (`args` reads them).
  registerGenerated(domain, table, content) {
    const [address, domainAddress] = [this.address, domain.address];
    const lengths = this.io.args(table, content);
    this.io.m._alfred_registry_register_generated(address, domainAddress, ...lengths);
    return this.io.output();
  }

  promote(domain, ref, key, label) {
    const [address, domainAddress] = [this.address, domain.address];
    const lengths = this.io.args(ref, key, label);
    this.io.m._alfred_registry_promote(address, domainAddress, ...lengths);
    return this.io.output();
  }
}

class RequestContextHandle extends Handle {
  /** Request options from the first `length` bytes of the input buffer. */
  constructor(io, length) {
    super(io, io.m._alfred_request_context_new(length), (address) => io.m._alfred_request_context_delete(address));
  }

  loadError() {
    return this.text((m, address) => m._alfred_request_context_load_error(address));
  }

  headers() {
    return this.text((m, address) => m._alfred_request_context_headers(address));
  }

  sendError() {
    return this.text((m, address) => m._alfred_request_context_send_error(address));
  }
}

class ExecutionHandle extends Handle {
  /** One tool call's execution; the input buffer holds its call. */
  constructor(io, domain, registry, context, length) {
    const address = io.m._alfred_execution_new(domain.address, registry.address, context.address, length);
    super(io, address, (at) => io.m._alfred_execution_delete(at));
  }

  done() {
    return this.io.m._alfred_execution_done(this.address) !== 0;
  }

  needs() {
    return this.text((m, address) => m._alfred_execution_needs(address));
  }

  bodyBuffer(length) {
    return this.io.m._alfred_execution_body_buffer(this.address, length) >>> 0;
  }

  respondAt(index, status, contentRange, contentType, failureName) {
    const address = this.address;
    this.io.m._alfred_execution_respond(address, index, status, ...this.io.args(contentRange, contentType, failureName));
  }

  resultAt() {
    this.io.m._alfred_execution_result(this.address, this.io.askLatin1());
  }
}

// `Class` with the instance's transfer as its first constructor argument.
const bound = (Class, io) =>
  class extends Class {
    constructor(...values) {
      super(io, ...values);
    }
  };

// The functions that are not a handle's methods. A call ending in `At`
// reads the input buffer and leaves its text in the result slot.
function functions(io) {
  const { m } = io;
  const text = (call) => (...values) => {
    call(...values);
    return io.output();
  };
  return {
    inputBuffer: (size) => m._alfred_input_buffer(size) >>> 0,
    trimBuffers: () => m._alfred_trim_buffers(),
    // The text the last call published (a large one's buffer given back).
    output: () => io.output(),
    // Its first line and the rest, each read apart (Transfer.outputLines).
    outputLines: () => io.outputLines(),
    buildRequestAt: (domain, registry, context, length) =>
      m._alfred_build_request(domain.address, registry.address, context.address, length) !== 0,
    executionLimits: text(() => m._alfred_execution_limits()),
    buildActPromptAt: (domain, registry, length) => m._alfred_build_act_prompt(domain.address, registry.address, length),
    setPromptTemplatesAt: (length) => m._alfred_set_prompt_templates(length),
    renderQueryAt: (length, style) => m._alfred_render_query(length, ...io.args(style)),
    parseDecisionAt: (length, step) => m._alfred_parse_decision(length, ...io.args(step)),
    promptExamples: text((domain) => m._alfred_prompt_examples(domain.address)),
    coreRules: text(() => m._alfred_core_rules()),
    schemaDescription: text((domain, fixed = '') => m._alfred_schema_description(domain.address, ...io.args(fixed))),
    registryUpdateGenerated: text((registry, domain, ref, content) =>
      m._alfred_registry_update_generated(registry.address, domain.address, ...io.args(ref, content)),
    ),
    registryRefTable: text((registry, ref) => m._alfred_registry_ref_table(registry.address, ...io.args(ref))),
    parseRef: text((ref) => m._alfred_parse_ref(...io.args(ref))),
    registryUncertainIds: text((registry, key) => m._alfred_registry_uncertain_ids(registry.address, ...io.args(key))),
    registrySetUncertain: text((registry, key, ids) => m._alfred_registry_set_uncertain(registry.address, ...io.args(key, ids))),
    withoutUuids: text((registry, value) => m._alfred_without_uuids(registry.address, ...io.args(value))),
    modelToolResultAt: (registry, length) => m._alfred_model_tool_result(registry.address, length),
    toolDefinitions: text((domain, strict, inline, readsOnly = false, fixed = '') =>
      m._alfred_tool_definitions(domain.address, strict ? 1 : 0, inline ? 1 : 0, readsOnly ? 1 : 0, ...io.args(fixed)),
    ),
    rowsBuffer: (size) => m._alfred_rows_buffer(size) >>> 0,
    translateRowsAt: (domain, registry, table, action, user, length) =>
      m._alfred_translate_rows(domain.address, registry.address, ...io.args(table, action, user), length) !== 0,
  };
}

/** @internal The core's calls over the Emscripten module `m`: handle classes, functions and `HEAPU8`. */
export function coreAbi(m) {
  const io = new Transfer(m);
  return {
    get HEAPU8() {
      return m.HEAPU8;
    },
    Domain: bound(DomainHandle, io),
    Registry: bound(RegistryHandle, io),
    RequestContext: bound(RequestContextHandle, io),
    Execution: bound(ExecutionHandle, io),
    /** See Transfer: the kept-buffer size, and the writes into and reads out of WASM memory. */
    keepBytes: io.keepBytes,
    copyIn: (value, room) => io.copyIn(value, room),
    readRequest: (headers) => io.readRequest(headers),
    ...functions(io),
  };
}
