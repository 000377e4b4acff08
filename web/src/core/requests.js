// Request contexts: buildRequest's and the act's options made ready once in
// the core for many requests (the core's request_context).
import { AlfredError } from '../errors.js';
import { callWithText, jsonText, parseResult, throwingAlfredError } from './boundary.js';
import { codes } from '../../dist/error-codes.mjs';

// Whether `options` has exactly the members and values of `known`.
export function sameOptions(known, options) {
  let count = 0;
  for (const key in options) {
    if (!Object.hasOwn(options, key) || !Object.hasOwn(known, key) || known[key] !== options[key]) return false;
    count++;
  }
  return count === Object.keys(known).length;
}

// CorePlumbing#requestContext.
export function newRequestContext(plumbing, module, input, options) {
  const text = jsonText(options ?? null, 'options');
  plumbing.checkInput(text, 'options');
  const handle = callWithText(module, input, text, (length) => new module.RequestContext(length), { read: false });
  try {
    const failure = handle.loadError();
    if (failure) throw new AlfredError(parseResult(failure).error);
    return { handle, headers: Object.freeze(JSON.parse(handle.headers())) };
  } catch (cause) {
    handle.delete();
    throw cause;
  }
}

// CorePlumbing#checkedRequestContext: `context`, or deleted and refused when no
// request could be sent with it.
export function sendableContext(context) {
  try {
    const { error } = throwingAlfredError(() => parseResult(context.handle.sendError()));
    if (error) throw new AlfredError(error);
    return context;
  } catch (cause) {
    context.handle.delete();
    throw cause;
  }
}

// buildRequest's options are written as JSON for the core.
export function refuseFunctions(options) {
  // JSON would drop a function silently: a token getter cannot be
  // awaited by this synchronous call, so it is an error, not anon.
  for (const [name, value] of Object.entries(options)) {
    if (typeof value === 'function' || typeof value === 'symbol') {
      throw new AlfredError({
        code: codes.invalid_option,
        path: name,
        message: `${name} must be a string, got a ${typeof value}`,
        hint: name === 'accessToken' ? 'await your token getter first and pass the token, or use createAct, which calls it per request' : '',
      });
    }
  }
}

// The context of buildRequest's options: the last one when they are the
// same, else a new one (the old is deleted: calls are synchronous).
export class LastContext {
  #last = null;

  // `plumbing`: the Core's (core/plumbing.js).
  of(plumbing, options) {
    const last = this.#last;
    if (last && sameOptions(last.options, options)) return last;
    refuseFunctions(options);
    const context = { options: { ...options }, ...plumbing.requestContext(options) };
    if (last) {
      this.#last = null;
      last.handle.delete();
    }
    this.#last = context;
    return context;
  }
}
