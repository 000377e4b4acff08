// The runtime-independent part of the package: wraps an instantiated
// Emscripten module in the public API (the Core facade). Each runtime entry
// (node, browser, workerd, deno) only decides how the .wasm is compiled.
// Bytes cross into and out of WASM memory in core/boundary.js; the Registry
// wrapper is core/registry.js; what the other parts of the package need from
// a Core, and its users do not, is core/plumbing.js.
import { kitchen } from '../kitchen.js';
import { defaultDomain } from '../default-domain.js';
import { AlfredError } from '../errors.js';
import { Act } from '../act/index.js';
import { actDecisionSchema, parseDecision, renderQuery } from '../prompt.js';
import { domainFromOpenApiWith } from '../pull/index.js';
import { cachedToolDefinitions, deepFreeze, toolResult, toolResultText } from '../tools.js';
import { asResult, instantiateModule, jsonText, parseResult, throwingAlfredError } from './boundary.js';
import { validateDomainWith } from './domains.js';
import { internalsOf, setInternals } from './internals.js';
import { CorePlumbing } from './plumbing.js';
import { LastContext } from './requests.js';
import { Registry, bindCoreModule, boundRegistry, registryHandleOf, restoreRegistry } from './registry.js';
import { codes } from '../../dist/error-codes.mjs';
import { promptTemplatesJson } from '../../dist/prompt-templates.mjs';

/**
 * Instantiates the core from a compiled `WebAssembly.Module`. Workers pass the
 * module their bundler imported; other runtimes compile the shipped `.wasm`.
 * `domain` is the core's domain: what its registries and calls are bound to
 * unless they name another (loadCore passes the kitchen by default).
 */
export async function instantiateCore(wasmModule, { maxInputBytes, domain = defaultDomain, warmUp } = {}) {
  if (warmUp !== undefined && warmUp !== null && typeof warmUp !== 'boolean') {
    throw new AlfredError({ code: codes.invalid_option, path: 'warmUp', message: 'warmUp must be true or false', hint: 'leave it out to warm the core up when the runtime is idle' });
  }
  if (!(wasmModule instanceof WebAssembly.Module)) {
    throw new AlfredError({
      code: codes.invalid_option,
      path: 'wasmModule',
      message: 'wasmModule must be a compiled WebAssembly.Module',
      hint: 'pass the module your bundler imports from alfred-act/alfred_core.wasm',
    });
  }
  const module = await instantiateModule(wasmModule);
  const core = new Core(module, domain, maxInputBytes);
  // What the warm-up needs (loadCore schedules it: core/warm-up.js).
  Object.assign(internalsOf(core).warmUp, { wanted: warmUp !== false, module: wasmModule });
  return core;
}

/**
 * The loaded core. Stateless calls (`buildRequest`) need no handle; a
 * registry owns WASM memory and has `delete()` / `[Symbol.dispose]`.
 */
export class Core {
  #module;
  // The module, input buffer and compiled domains, shared with the other parts of the package (core/plumbing.js).
  #plumbing;
  #domain;
  // One registry per domain for calls that pass none.
  #defaultRegistries = new WeakMap();
  #toolDefinitions = new WeakMap();

  // The options buildRequest was last given, and their context (a session's repeat).
  #contexts = new LastContext();
  #executionLimits;
  // Whether this instance has its prompt templates (#givePromptTemplates).
  #promptTemplatesGiven = false;
  #stepTools;

  constructor(module, domain, maxInputBytes) {
    this.#module = module;
    this.#plumbing = new CorePlumbing(this, module, maxInputBytes);
    setInternals(this, this.#plumbing);
    bindCoreModule(this, module);
    // A caller's domain is checked now; the package's default, known to load, on first use (an app with its own
    // domain never pays for it: a fresh process's first domain is its costliest call).
    if (domain !== defaultDomain) this.#plumbing.domainHandle(domain);
    this.#domain = domain;
  }

  /**
   * The default limits of one `execute` call (`maxParamsBytes`,
   * `maxStringBytes`, `maxResponseBytes`, `maxRows`); `createAct({ limits })`
   * overrides them per act. See docs/limits-and-faults.md.
   */
  get executionLimits() {
    return (this.#executionLimits ??= Object.freeze(JSON.parse(this.#module.executionLimits())));
  }

  /**
   * The most UTF-8 bytes one stateless call (`buildRequest`, `buildActPrompt`,
   * `parseDecision`, `renderQuery`, `translateRows`) takes; larger inputs are
   * refused with `input_too_large` before they reach WASM memory.
   * `loadCore({ maxInputBytes })` sets it.
   */
  get maxInputBytes() {
    return this.#plumbing.maxInputBytes;
  }

  /** The domain this core was loaded with (`loadCore({ domain })`, the kitchen by default). */
  get domain() {
    return this.#domain;
  }

  // The registry and domain of a call: a registry brings its own domain, and
  // a different `domain` next to it is an error rather than a silent mix.
  #bound(options) {
    return boundRegistry(this, this.#module, this.#defaultRegistries, this.#domain, options);
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
   * The domain's schema as the model reads it (markdown, the Act prompt's
   * Schema section, functions included): `{ data, error }`.
   *
   * @example
   * const { data } = core.schemaDescription({ domain }) // 'Types: … ### recipes (refs recipe_N) - id: ref (recipe_N), read-only …'
   */
  schemaDescription({ domain, fixed = [] } = {}) {
    return asResult(() => parseResult(this.#module.schemaDescription(this.#plumbing.domainHandle(domain ?? this.#domain), [...fixed].sort().join(','))));
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
    return validateDomainWith(this.#plumbing, this.#module, domain);
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
    this.#plumbing.domainHandle(domain);
    const handle = throwingAlfredError(() => new this.#module.Registry());
    if (state !== undefined && state !== null) restoreRegistry(handle, state, domain, this);
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
    return asResult(() => {
      const context = this.#contexts.of(this.#plumbing, rest);
      const { domain, registry } = this.#bound({ domain: given, registry: givenRegistry });
      const domainHandle = this.#plumbing.domainHandle(domain);
      const registryHandle = registryHandleOf(registry, this);
      // One string crosses the boundary: [tool, params]; the options are the context's.
      const call = `[${JSON.stringify(String(tool))},${jsonText(params ?? null, 'params')}]`;
      this.#plumbing.checkInput(call, 'params');
      const module = this.#module;
      // Read inside the call: after a large one the buffers are trimmed.
      const build = (length) => (module.buildRequestAt(domainHandle, registryHandle, context.handle, length) ? { data: module.readRequest(context.headers), error: null } : parseResult(module.output()));
      return this.#plumbing.callWithInput(call, build, { read: false });
    });
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
    return asResult(() => {
      const { domain, registry } = this.#bound(options ?? {});
      const module = this.#module;
      const domainHandle = this.#plumbing.domainHandle(domain);
      const registryHandle = registryHandleOf(registry, this);
      const text = jsonText(input ?? null, 'input');
      this.#plumbing.checkInput(text, 'input');
      this.#givePromptTemplates();
      return parseResult(
        this.#plumbing.callWithInput(text, (length) => module.buildActPromptAt(domainHandle, registryHandle, length)),
      );
    });
  }

  // The module does not carry the prompt templates (prompts/*.md): they are
  // handed to this instance once, before its first prompt.
  #givePromptTemplates() {
    if (this.#promptTemplatesGiven) return;
    const module = this.#module;
    const given = parseResult(this.#plumbing.callWithInput(promptTemplatesJson, (length) => module.setPromptTemplatesAt(length)));
    if (given.error) throw new AlfredError(given.error);
    this.#promptTemplatesGiven = true;
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
    return asResult(() => parseResult(this.#module.promptExamples(this.#plumbing.domainHandle(domain))));
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
    const handle = this.#plumbing.registryHandle(registry);
    const { data, error } = throwingAlfredError(() => parseResult(this.#module.withoutUuids(handle, String(text))));
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
    return parseDecision(this.#plumbing, this.#module, text, options);
  }

  /**
   * Renders an executed query record (or a step result item) as
   * `Query: … / Effective: … / Outcome: …` lines, or `{ style: 'line' }` as one line.
   *
   * @example
   * core.renderQuery(result.query).data // 'Query: Table: inventory | Filters: location = pantry | Limit: 100\nOutcome: 0 records found\n…'
   */
  renderQuery(record, options) {
    return renderQuery(this.#plumbing, this.#module, record, options);
  }

  /**
   * The tools (`db_read`, `db_create`, `db_update`, `db_delete`,
   * `db_aggregate`, and `db_call` where the domain has functions) as
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
   * lists the reads (`db_read`, `db_call` of reading functions) as a
   * read-only act does; `fixed`: names the app sets (`createAct({ context
   * })`), offered nowhere. Frozen; throws `AlfredError` only for an
   * invalid `domain` or option.
   *
   * @example
   * const tools = core.toolDefinitions({ strict: true })
   * // [{ name: 'db_read', description: 'Read rows of the kitchen database. …', parameters: { type: 'object', … } }, …]
   */
  toolDefinitions({ domain = this.#domain, strict = false, schema = 'compact', readOnly = false, fixed = [] } = {}) {
    return cachedToolDefinitions(this.#plumbing, this.#module, this.#toolDefinitions, { domain, strict, schema, readOnly, fixed });
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
}

export { AlfredError, Registry };
export { utf8Length } from './boundary.js';
