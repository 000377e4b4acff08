// Which domain `alfred-act mcp` serves: a domain file (--domain FILE or
// ALFRED_DOMAIN), one derived from the project at start (--pull, through the
// package's domain pull), or the kitchen demo, but only against the local
// demo stack: a server given no domain must never serve the demo's tables
// against somebody else's database. Node only (it reads files).
import { projectName } from '../project-name.js';
import { readFile } from 'node:fs/promises';
import { fetchOpenApi } from '../pull/index.js';
import { NO_CATALOG_NOTE, openPullCatalog } from '../pull/catalog-source.js';
import { domainName } from './tools.js';
import { codes } from '../../dist/error-codes.mjs';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);
const NO_DOMAIN_HINT = 'pass --domain domain.json (the file `alfred-act domain pull --out domain.json` writes; or ALFRED_DOMAIN=domain.json), or --pull to derive it from the project at start';

/**
 * Whether `url` names this machine (localhost, 127.0.0.0/8, ::1).
 *
 * @example
 * isLoopbackUrl('http://127.0.0.1:54321') // true
 * isLoopbackUrl('https://abcd.supabase.co') // false
 */
export function isLoopbackUrl(url) {
  if (!URL.canParse(url)) return false;
  const { hostname } = new URL(url);
  return LOOPBACK_HOSTS.has(hostname) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/**
 * Reads and checks a domain file: `{ data: domain, error }`. The error names
 * the file, and for a domain the core refuses carries the core's `path` into
 * the domain and its `hint`.
 *
 * @example
 * const { data: domain, error } = await readDomainFile('domain.json', core)
 * // error: { code: 'invalid_domain', path: 'tables.deals.columns.stage.values', message: 'the domain file domain.json does not load: …', hint: '…' }
 */
export async function readDomainFile(file, core) {
  const refused = (path, message, hint) => ({ data: null, error: { code: codes.invalid_domain, path, message: `the domain file ${file} does not load: ${message}`, hint } });
  let text;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    return refused('', cause.code === 'ENOENT' ? 'there is no such file' : cause.message, 'write it with `alfred-act domain pull --out domain.json`, or pass --pull');
  }
  let domain;
  try {
    domain = JSON.parse(text);
  } catch (cause) {
    return refused('', `it is not JSON (${cause.message})`, 'the file `alfred-act domain pull --out FILE` writes is JSON');
  }
  const { error } = core.validateDomain(domain);
  if (error) return refused(error.path, error.message, error.hint);
  return { data: domain, error: null };
}

/**
 * Whether `url` is the local demo stack: on this machine, and its schema
 * description (PostgREST's, read with the anon key alone, as the local stack
 * serves it; no user token, so an expired one does not matter) has every
 * table and column of `demo`. `{ data: { demo, reason, unreachable? }, error: null }`
 * (`unreachable` when the description could not be read); never throws.
 *
 * @example
 * const { data } = await isDemoStack({ url, apiKey: anonKey, demo: core.kitchen })
 * // data: { demo: false, reason: 'it has no table recipes, inventory, …' }
 */
export async function isDemoStack({ url, apiKey, demo, fetch }) {
  if (!isLoopbackUrl(url)) return { data: { demo: false, reason: 'it is not on this machine' }, error: null };
  let spec;
  try {
    spec = await fetchOpenApi({ url, apiKey, ...(fetch ? { fetch } : {}) });
  } catch (cause) {
    return { data: { demo: false, unreachable: true, reason: `its schema description could not be read (${cause?.message ?? cause})` }, error: null };
  }
  const described = spec?.definitions ?? {};
  const missing = [];
  for (const [table, { columns = {} }] of Object.entries(demo.tables)) {
    const properties = described[table]?.properties;
    if (!properties) missing.push(`table ${table}`);
    else for (const column of Object.keys(columns)) if (!Object.hasOwn(properties, column)) missing.push(`column ${table}.${column}`);
  }
  if (missing.length === 0) return { data: { demo: true, reason: null }, error: null };
  const shown = missing.length > 5 ? `${missing.slice(0, 5).join(', ')} and ${missing.length - 5} more` : missing.join(', ');
  return { data: { demo: false, reason: `its database has no ${shown} of the ${domainName(demo)} demo` }, error: null };
}

/**
 * The domain the server serves, from its configuration's `domain`
 * (`{ file }`, `{ pull: { key, ownerColumn, overrides, dbUrl } }` or null;
 * see readMcpConfig). Resolves to `{ data: { domain, origin, notes }, error }`:
 * `origin` is `file`, `pull` or `demo`; `notes` are domain pull's, with where
 * its catalog came from (read as `alfred-act domain pull` reads it: the
 * database at `dbUrl`, else a local stack's own for the key). With no domain,
 * the core's demo domain is served only when `url` is the local demo stack;
 * otherwise the error is `invalid_option` at `--domain`, saying why. The
 * secret key of `pull` is sent with the schema request (and a local stack's
 * catalog request) and kept nowhere.
 *
 * @example
 * const { data, error } = await resolveMcpDomain({ source: { file: 'domain.json' }, url, apiKey, accessToken, core, pullDomain })
 */
export async function resolveMcpDomain({ source, url, apiKey, accessToken, core, pullDomain, fetch }) {
  if (source?.file !== undefined) {
    const { data, error } = await readDomainFile(source.file, core);
    return error ? { data: null, error } : { data: { domain: data, origin: 'file', notes: [] }, error: null };
  }
  if (source?.pull) {
    const { key, ownerColumn, overrides: overridesFile, dbUrl } = source.pull;
    let overrides;
    if (overridesFile !== undefined) {
      try {
        overrides = JSON.parse(await readFile(overridesFile, 'utf8'));
      } catch (cause) {
        return { data: null, error: { code: codes.invalid_option, path: '--overrides', message: `the overrides file ${overridesFile} does not load: ${cause.message}`, hint: 'a JSON object, as for `alfred-act domain pull --overrides`' } };
      }
    }
    // A secret key describes the schema on hosted Supabase; it goes alone,
    // without the user's token. Without one, the user's own request does.
    const credentials = key ? { apiKey: key, accessToken: '' } : { apiKey, accessToken };
    const defaultName = await projectName(process.cwd());
    const { data: opened, error: catalogError } = await openPullCatalog({ url, apiKey: credentials.apiKey, dbUrl, ...(fetch ? { fetch } : {}) });
    if (catalogError) return { data: null, error: { ...catalogError, path: '--db-url' } };
    let pulled;
    try {
      pulled = await pullDomain({ url, ...credentials, core, overrides, ownerColumn, name: overrides?.name, defaultName, catalog: opened.catalog, ...(fetch ? { fetch } : {}) });
    } finally {
      await opened.close();
    }
    const { data, error, notes } = pulled;
    if (error) return { data: null, error: { ...error, message: `the domain could not be pulled from ${url}: ${error.message}` } };
    const said = [...opened.notes, ...notes, ...(opened.catalog ? [] : [{ path: 'catalog', message: NO_CATALOG_NOTE }])];
    return { data: { domain: data, origin: 'pull', notes: said }, error: null };
  }
  const demo = core.domain ?? core.kitchen;
  const { data: check } = await isDemoStack({ url, apiKey, demo, fetch });
  if (check.demo) return { data: { domain: demo, origin: 'demo', notes: [] }, error: null };
  return {
    data: null,
    error: {
      code: codes.invalid_option,
      path: '--domain',
      message: `no domain given (--domain or --pull), and ${url} is not the local demo stack: ${check.reason}. The server serves the tables of a domain and will not serve the ${domainName(demo)} demo's against another database`,
      hint: NO_DOMAIN_HINT,
    },
  };
}
