// Domains in the core: a domain configuration compiled once per domain
// object (and freed when the object is collected), and the core's own check
// of a configuration.
import { AlfredError } from '../errors.js';
import { jsonText, parseResult } from './boundary.js';
import { codes } from '../../dist/error-codes.mjs';

/**
 * Whether a table configuration takes creates: `"writable"` absent, `true`,
 * or a list naming `"create"` (docs/own-schema.md#writable).
 *
 * @example
 * takesCreates({ writable: ['update'] }) // false
 */
export const takesCreates = (table) => table?.writable === undefined || table.writable === true || (Array.isArray(table.writable) && table.writable.includes('create'));

// The core's handles are not garbage-collected: free a compiled domain when
// the domain object it was cached for is collected.
const domainFinalizer =
  typeof FinalizationRegistry === 'function' ? new FinalizationRegistry((handle) => handle.delete()) : null;

// The core's compiled form of a domain's JSON text, passed through the input
// buffer (`plumbing`: the Core's, core/plumbing.js).
const loadDomain = (plumbing, module, text) => plumbing.callWithInput(text, (length) => new module.Domain(length), { read: false });

// Core#validateDomain: `{ data: domain, error }` by the core's own parser.
export function validateDomainWith(plumbing, module, domain) {
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
    return { data: null, error: { code: codes.invalid_domain, path: '', message: `the domain is not JSON: ${cause.message}`, hint: '' } };
  }
  const handle = loadDomain(plumbing, module, text);
  try {
    const failure = handle.loadError();
    return failure ? { data: null, error: parseResult(failure).error } : { data: value, error: null };
  } finally {
    handle.delete();
  }
}

// The compiled form of `domain` (CorePlumbing#domainHandle), cached in `domains`.
export function compiledDomain(plumbing, module, domains, domain) {
  if (!domain || typeof domain !== 'object') {
    throw new AlfredError({ code: codes.invalid_option, path: 'domain', message: 'domain must be a domain configuration object' });
  }
  let handle = domains.get(domain);
  if (!handle) {
    handle = loadDomain(plumbing, module, JSON.stringify(domain));
    const failure = handle.loadError();
    if (failure) {
      handle.delete();
      throw new AlfredError(parseResult(failure).error);
    }
    domains.set(domain, handle);
    domainFinalizer?.register(domain, handle);
  }
  return handle;
}
