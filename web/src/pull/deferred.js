// pull/index.js (a domain from PostgREST's OpenAPI description) is not
// imported with the package: it is a fifth of the JavaScript `alfred-act`
// reaches and most apps never call it, and every module a fresh process
// imports is compiled first (docs/benchmarks.md, cold start). The entries'
// domainFromOpenApi and pullDomain load it on their first call; loadCore
// starts loading it before it compiles the .wasm, so that a core's
// synchronous `domainFromOpenApi` has it (core/index.js).

let loading;

/**
 * pull/index.js, loaded once: resolves to the module. A failed load is
 * tried again on the next call.
 */
export function loadPull() {
  loading ??= import('./index.js').catch((cause) => {
    loading = undefined;
    throw cause;
  });
  return loading;
}

/**
 * The package-level `domainFromOpenApi` and `pullDomain` of a runtime entry:
 * like `createAct`, they load the core on first use unless `options.core` is
 * given, and never throw (`{ data, error, notes }`). pull/index.js's
 * `createDomainPull` does the work, loaded on the first call.
 */
export function createDomainPull(loadCore) {
  let pull;
  const loaded = async () => (pull ??= (await loadPull()).createDomainPull(loadCore));

  /**
   * Derives a domain from PostgREST's OpenAPI description (a parsed object or
   * JSON text), merges `overrides` and validates it with the core:
   * `{ data: domain, error, notes }`. Options: `catalog` (facts from
   * `catalogFacts`), `ownerColumn`, `name`, `defaultName`, `core`.
   *
   * @example
   * import { domainFromOpenApi, createAct } from 'alfred-act'
   * const spec = await (await fetch(`${url}/rest/v1/`, { headers: { apikey, accept: 'application/openapi+json' } })).json()
   * const { data: domain, error, notes } = await domainFromOpenApi(spec, { tables: { deals: { label: ['title'] } } })
   * if (error) throw new Error(`${error.path}: ${error.message} (${error.hint})`)
   * const act = createAct({ url, apiKey, accessToken, userId, domain })
   */
  async function domainFromOpenApi(spec, overrides, options = {}) {
    return (await loaded()).domainFromOpenApi(spec, overrides, options);
  }

  /**
   * Fetches the description from a live database and derives its domain:
   * `{ data: domain, error, notes, spec }`. Options: `url` (a Supabase project
   * URL or a PostgREST root), `apiKey`, `accessToken`, `catalog` (facts from
   * `catalogFacts`, or a `query(sql)` function to read them with),
   * `ownerColumn`, `name`, `defaultName` (default: the first label of the
   * URL's host, `<ref>` of `<ref>.supabase.co`), `overrides`, `fetch`, `core`.
   *
   * @example
   * const { data: domain, error, notes } = await pullDomain({ url: SUPABASE_URL, apiKey: secretKey, catalog: (sql) => client.query(sql) })
   */
  async function pullDomain(options = {}) {
    return (await loaded()).pullDomain(options);
  }

  return { domainFromOpenApi, pullDomain };
}
