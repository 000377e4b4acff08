// The executor on the JS side: runs a tool call's needs (HTTP requests to
// PostgREST, embeddings) round by round for the C++ executor, which decides
// everything else (wasm/executor_bindings.cpp, core/src/executor/executor.cpp). What
// it owns is the I/O and its failures: a timeout that holds even against a
// fetch that ignores its signal, a response size limit enforced while the
// body streams in, and a report of how each exchange ended, so that the core
// can tell "nothing was sent" from "the write may have happened".
// Its options are read in act/options.js, its faults handled in
// act/faults.js, tool calls' arguments and results in act/tool-results.js;
// the package-level createAct is act/factory.js.
import { AlfredError, internalError } from '../errors.js';
import { httpExchange } from '../http-exchange.js';
import { limitsAsSent } from '../limits.js';
import { startTrail, subjectOf } from '../policy/audit.js';
import { Gate } from '../policy/gate.js';
import { APPROVE_DEFAULTS, EXPLICIT_POLICY, SURFACE, checkedExecuteOptions } from '../policy/options.js';
import { stateForDomain } from '../policy/tables.js';
import { internalsOf } from '../core/internals.js';
import { withArgumentText } from '../core/boundary.js';
import { actDomain, callToken, checkContextNames, checkedActOptions, invalidOption, present } from './options.js';
import {
  CHANGES_ROWS,
  WRITE_METHODS,
  aggregatesOf,
  callWrites,
  rememberAggregates,
  coreFailedAfterWrite,
  createIds,
  isCounting,
  learnServer,
  maxAffectedUnsupported,
  rememberCounting,
  serverKey,
  settle,
} from './faults.js';
import { outcomeText, toolCallParams } from './tool-results.js';
import { refusedUser, registryUser, stateUser } from './session-user.js';
import { newFence } from '../model-json.js';
import { codes } from '../../dist/error-codes.mjs';

export { restUrl } from './options.js';
export { forgetAggregateServers, forgetCountingServers } from './faults.js';
export { createActFactory } from './factory.js';

const encoder = new TextEncoder();

// The tools whose arguments text reaches the core as it came (callToolText).
const READS_AS_WRITTEN = new Set(['db_read', 'db_aggregate']);

async function performEmbed(embedder, need) {
  try {
    const [vector] = await embedder.embed([need.text]);
    return { status: 200, contentRange: '', contentType: 'application/json', body: encoder.encode(JSON.stringify(vector)), failure: '' };
  } catch (cause) {
    return { status: 0, contentRange: '', contentType: '', body: encoder.encode(String(cause?.message ?? cause)), failure: '' };
  }
}

// The label of a ref the registry holds ("" for none), for a held call's
// preview.
function labelIn(registry, ref) {
  const entry = registry.toJSON()?.refs?.find((item) => item.ref === ref);
  return typeof entry?.label === 'string' ? entry.label : '';
}

// Frees an act's request context when the act is collected.
const contextFinalizer =
  typeof FinalizationRegistry === 'function' ? new FinalizationRegistry((held) => held.context?.handle.delete()) : null;

/**
 * Runs the Act step's tool calls against PostgREST for one user. Create it
 * with `core.createAct(options)` or the package's `createAct(options)`.
 */
export class Act {
  #core;
  #options;
  #registry;
  // Creates whose outcome is unknown (the call's JSON → the row ids it sent,
  // and each gen_ ref it saved → its row's id) are kept in the registry, so
  // they travel with its state: a retry, in this act or in a later call,
  // sends the same ids and the database refuses it as a duplicate.
  // The request context of the last access token (#contextOf), held apart
  // from the act so that it is freed when the act is collected.
  #held = { context: null };
  // The safety controls (readOnly, approve, maxAffected, onAudit, tracer)
  // and the gate that applies them to each call.
  #policy;
  #gate;
  // How maxAffected is enforced: 'header' until the server shows it does
  // not take the preference (PGRST122, or a version before 13 in any
  // answer's Server header, this act's or another's in this process), then
  // 'count' (#maxAffectedBy).
  #counting = false;
  #server;
  // The settings' members that are the same for every call (#settingsText).
  #fixedSettings = null;
  #forModelText = null;

  constructor(core, options = {}) {
    const { resolved, state, registry, embedder, fetchImpl, timeoutMs, limits, resultLimits, policy, context: fixed } = checkedActOptions(core, options);
    // Another user's saved refs, before any prompt could show them (session-user.js).
    const user = subjectOf(resolved.fixedToken) || resolved.userId;
    const saved = !user ? null : present(state) ? stateUser(state) : present(registry) ? registryUser(registry) : null;
    const refused = saved ? refusedUser(saved, user) : null;
    if (refused) throw new AlfredError(refused);
    this.#core = core;
    contextFinalizer?.register(this, this.#held);
    const domain = actDomain(core, options, registry, policy);
    checkContextNames(options.domain ?? registry?.domain ?? core.domain, fixed);
    const requestOptions = { ...resolved.location, apiKey: resolved.apiKey, accessToken: resolved.fixedToken ?? '', userId: resolved.userId };
    this.#server = serverKey(resolved.location);
    // The URL, key, user and domain are checked now, not at the first call,
    // and before a registry that would need deleting is made.
    const plumbing = internalsOf(core);
    const context = plumbing.checkedRequestContext(requestOptions);
    try {
      plumbing.domainHandle(domain);
    } catch (cause) {
      context.handle.delete();
      // A restricted domain the core refuses is the allow-list's fault.
      if (policy.tables && cause instanceof AlfredError && cause.code === codes.invalid_domain) {
        throw invalidOption('tables', `the tables ${policy.tables.join(', ')} do not make a domain on their own: ${cause.message}`, cause.hint);
      }
      throw cause;
    }
    // Kept for the calls: a fixed token's context is the one they use.
    this.#held.context = { accessToken: requestOptions.accessToken, ...context };
    // A restricted act restores the refs of its own tables only.
    this.#registry = registry ?? core.createRegistry(policy.tables && present(state) ? stateForDomain(state, domain) : state, { domain });
    this.#policy = { ...policy, tracer: policy.tracer ?? plumbing.defaultTracer ?? null };
    this.#gate = new Gate(this.#policy, domain);
    this.#options = {
      requestOptions,
      token: resolved.token,
      domain,
      fetch: fetchImpl,
      embedder,
      timeoutMs,
      limits,
      resultLimits,
      fixed,
    };
  }

  /**
   * The current session's user against the refs: `{ data: { userId }, error }`,
   * `userId` null without a signed-in user; the error is the token getter's,
   * or `state_of_another_user` when the registry's refs were made for another
   * signed-in user (docs/sessions.md, "One user's refs"). runTurn asks it
   * before building a prompt.
   */
  async checkSession() {
    let accessToken = this.#options.requestOptions.accessToken;
    if (this.#options.token) {
      const current = await callToken(this.#options.token);
      if (current.error) return { data: null, error: current.error };
      accessToken = current.token;
    }
    // The token's own user first: a userId given beside a session that changed is the old one.
    const userId = subjectOf(accessToken) || this.#options.requestOptions.userId || null;
    const refused = refusedUser(registryUser(this.#registry), userId);
    return refused ? { data: null, error: refused } : { data: { userId }, error: null };
  }

  /** The ref registry; `registry.toJSON()` is the state to keep for the next turn. */
  get registry() {
    return this.#registry;
  }

  /** The domain configuration the calls are validated against. */
  get domain() {
    return this.#options.domain;
  }

  /** The limits of one call (`maxResponseBytes`, `maxRows`, `maxParamsBytes`, `maxStringBytes`). */
  get limits() {
    return { ...this.#options.limits };
  }

  /**
   * The caps on one tool result for the model (`{ rows, chars }`,
   * `createAct({ resultLimits })`); `execute` is not capped.
   *
   * @example
   * act.resultLimits // { rows: 50, chars: 16000 }
   */
  get resultLimits() {
    return this.#options.resultLimits;
  }

  /**
   * The act's safety controls (docs/safety-controls.md): `{ readOnly,
   * tables, approve, maxAffected }`, `approve` being `'none'`, `'deletes'`,
   * `'changes'`, `'writes'` or the function given. Adapters read it to map approval to
   * their framework's own.
   *
   * @example
   * act.policy // { readOnly: false, tables: null, approve: 'deletes', maxAffected: 50 }
   */
  get policy() {
    const { readOnly, tables, approve, maxAffected } = this.#policy;
    return Object.freeze({ readOnly, tables: tables ? Object.freeze([...tables]) : null, approve, maxAffected });
  }

  /** @internal Whether the developer gave `approve` (surfaceApprove in policy/options.js reads it). */
  get [EXPLICIT_POLICY]() {
    return { approve: this.#policy.approveGiven };
  }

  // The approval mode of a call from `surface` (null: the developer's own
  // call): the act's `approve` when given, else the surface's default.
  #approveFor(surface) {
    const { approve, approveGiven } = this.#policy;
    return approveGiven || surface === null ? approve : APPROVE_DEFAULTS[surface];
  }

  /**
   * The tool definitions for this act's domain (`core.toolDefinitions`):
   * `[{ name, description, parameters }]`; `{ strict: true }` for OpenAI
   * strict mode, `{ schema: 'inline' }` for the whole schema in the tools
   * instead of one line per table. A read-only act lists `db_read` only; an
   * act restricted with `tables` names no other table.
   *
   * @example
   * const tools = act.tools({ strict: true }).map((t) => ({ type: 'function', function: { ...t, strict: true } }))
   */
  tools({ strict = false, schema } = {}) {
    const fixed = Object.keys(this.#options.fixed);
    return this.#core.toolDefinitions({ domain: this.#options.domain, strict, schema, readOnly: this.#policy.readOnly, fixed });
  }

  /**
   * The values the app sets for every call (`createAct({ context })`): a
   * create of a table with a column of that name gets it, a function with an
   * argument of that name gets it, and the model may give neither.
   *
   * @example
   * createAct({ supabase, domain, context: { account_id: team.id } }).context // { account_id: '…' }
   */
  get context() {
    return this.#options.fixed;
  }

  /**
   * Runs one native tool call and resolves to the result for the model
   * (`core.toolResult`): `{ ok: true, tool, table, count, query, rows }`
   * (with `truncated`, `shown` and `hint` when the result was cut to the
   * act's `resultLimits`, and `notice` before non-empty rows) or
   * `{ ok: false, tool, table, error: { code, path, message, hint } }`.
   * A read without a limit is sent with the cap as its limit and an exact
   * count. `args` is the arguments object, or the JSON text a provider
   * sends; strict-mode nulls and `data` as JSON text are accepted.
   * `approved` and `preview` are the host's, as for `execute`. Never throws
   * but when `signal` aborts.
   *
   * @example
   * const result = await act.callTool('db_read', '{"table":"inventory","filters":null}')
   * // { ok: true, tool: 'db_read', table: 'inventory', count: 3, rows: [{ id: 'inv_1', … }], query: 'Query: …' }
   */
  async callTool(name, args, options) {
    return JSON.parse(await this.callToolText(name, args, options));
  }

  /**
   * `callTool`'s result as the JSON text the model reads, as the core wrote
   * it: the rows go from PostgREST's bytes to this text without being
   * parsed into JS objects and serialized again. What the OpenAI adapter
   * sends as the tool message and the MCP server as text content. Never
   * throws but when `signal` aborts.
   *
   * @example
   * messages.push({ role: 'tool', tool_call_id: call.id, content: await act.callToolText(call.function.name, call.function.arguments) })
   */
  async callToolText(name, args, { signal, approved, preview, [SURFACE]: surface } = {}) {
    const resultLimits = this.#options.resultLimits;
    const { params, text } = toolCallParams(this.#core, name, args, resultLimits);
    if (text !== undefined) return text;
    // A read's arguments go to the core as the model wrote them: nothing in JS
    // decides on what they hold (an audit trail reports the params it saw).
    if (typeof args === 'string' && READS_AS_WRITTEN.has(name) && !this.#policy.onAudit && !this.#policy.tracer) withArgumentText(params, args);
    const options = { signal, ...(approved === undefined ? {} : { approved }), ...(preview === undefined ? {} : { preview }), ...(surface === undefined ? {} : { [SURFACE]: surface }) };
    // The marker that fences this result's row text, drawn for this call.
    const fence = newFence();
    const outcome = await this.#execute(name, params, options, { ...resultLimits, fence });
    return outcomeText(this.#core, name, outcome, this.#registry, resultLimits, { fence, table: params?.table });
  }

  /**
   * Executes one tool call: `{ data, error, query, count }`. Never throws for
   * bad params, database or network failures (they are `error`); rejects
   * only when `signal` aborts. A write whose answer was lost is
   * `write_outcome_unknown`, never "no effect".
   *
   * The act's safety controls apply first (docs/safety-controls.md): a
   * write on a read-only act is `read_only`; a write that needs approval
   * sends no write and is `approval_required` with `error.preview`, until
   * the host runs it again with `{ approved: true }` (its option, never a
   * tool argument): the rows are read again, and a write that would now
   * change rows the preview did not show is `preview_changed`. `preview` is
   * the `error.preview` the host showed, for a host whose act did not keep
   * it (a new act per request).
   *
   * @example
   * const { data, error, query } = await act.execute('db_read', { table: 'inventory', filters: [{ field: 'location', op: '=', value: 'fridge' }] })
   * const held = await act.execute('db_delete', params)           // error.code 'approval_required', error.preview
   * if (await askUser(held.error.preview)) await act.execute('db_delete', params, { approved: true })
   */
  execute(tool, params, options) {
    return this.#execute(tool, params, options, null);
  }

  // `execute`, or for the model (`forModel`: the result limits) the call's
  // own run capped and its result written for the model as `modelText`
  // (`data` is then null for a read).
  async #execute(tool, params, options, forModel) {
    let checked;
    try {
      checked = checkedExecuteOptions(options);
    } catch (cause) {
      return { data: null, error: cause.toJSON(), query: null, count: null };
    }
    const { signal, approved, preview, surface } = checked;
    signal?.throwIfAborted();
    let accessToken = this.#options.requestOptions.accessToken;
    const { token } = this.#options;
    if (token) {
      // Read before every call, so a refreshed token is the one sent.
      const current = await callToken(token);
      if (current.error) return { data: null, error: current.error, query: null, count: null };
      accessToken = current.token;
    }
    const { onAudit, tracer } = this.#policy;
    const trail = startTrail({ onAudit, tracer, core: this.#core, registry: this.#registry, userId: this.#options.requestOptions.userId, token: accessToken }, tool, params);
    let result;
    try {
      const io = {
        // The gate's own reads (a preview) are not the model's.
        run: (runTool, runParams) => this.#run(runTool, runParams, signal, accessToken, trail, runTool === tool ? forModel : null),
        validate: (runTool, runParams) => this.#validate(runTool, runParams, accessToken),
        labelOf: (ref) => labelIn(this.#registry, ref),
        trail,
      };
      result = await this.#gate.execute({ tool, params, approved, preview, approve: this.#approveFor(surface) }, io);
    } catch (cause) {
      if (signal?.aborted) {
        trail.finish({ data: null, error: { code: codes.aborted } });
        throw signal.reason ?? cause;
      }
      result = { data: null, error: cause instanceof AlfredError ? cause.toJSON() : internalError(cause), query: null, count: null };
    }
    trail.finish(result);
    return result;
  }

  // The error that would refuse the call before any request, or null: the
  // core builds its request without sending it.
  #validate(tool, params, accessToken) {
    const { requestOptions, domain } = this.#options;
    const built = this.#core.buildRequest(tool, params, { ...requestOptions, accessToken, registry: this.#registry, domain });
    return built.error && built.error.code !== codes.requires_executor ? built.error : null;
  }

  // One call in the core, under maxAffected. A server that does not take
  // the max-affected preference refuses it before running anything
  // (PGRST122): the act counts instead from then on, and runs the call again.
  async #run(tool, params, signal, accessToken, trail, forModel) {
    const tried = this.#maxAffectedBy;
    const result = await this.#attempt(tool, params, signal, accessToken, trail, forModel);
    if (tried === 'header' && CHANGES_ROWS.has(tool) && this.#policy.maxAffected > 0 && maxAffectedUnsupported(result)) {
      this.#counting = true;
      rememberCounting(this.#server);
      return this.#attempt(tool, params, signal, accessToken, trail, forModel);
    }
    return result;
  }

  // How maxAffected is enforced now: by count once this act or this process
  // learnt that the server does not take the preference.
  get #maxAffectedBy() {
    return this.#counting || isCounting(this.#server) ? 'count' : 'header';
  }

  // The request context of `accessToken`: the options are parsed and checked
  // once per token, not per call. An execution copies the context when it
  // starts, so the one it replaces can go at once.
  #contextOf(accessToken) {
    const held = this.#held;
    const last = held.context;
    if (last && last.accessToken === accessToken) return last;
    const context = { accessToken, ...internalsOf(this.#core).requestContext({ ...this.#options.requestOptions, accessToken }) };
    held.context = context;
    last?.handle.delete();
    return context;
  }

  // `settings` as JSON text: the members every call of this act sends the
  // same (limits, maxAffected, context) are written once, and what the core
  // takes by default is left out (limits at the core's own values, the
  // 'header' check): the core reads the settings of every call, and the
  // limits were most of their bytes.
  #settingsText({ rowIds, limits, maxAffected, maxAffectedBy, forModel, context, aggregates }) {
    // maxAffected, always a number, comes first: the members after it each start with a comma.
    this.#fixedSettings ??= JSON.stringify({ maxAffected, ...limitsAsSent(limits, this.#core.executionLimits), ...(context ? { context } : {}) }).slice(0, -1);
    let text = this.#fixedSettings;
    if (maxAffectedBy !== 'header') text += `,"maxAffectedBy":${JSON.stringify(maxAffectedBy)}`;
    if (rowIds) text += `,"rowIds":${JSON.stringify(rowIds)}`;
    if (forModel) {
      // forModel is the act's result limits and the call's fence (callToolText).
      this.#forModelText ??= JSON.stringify(this.#options.resultLimits).slice(1, -1);
      text += `,"forModel":{${this.#forModelText ? `${this.#forModelText},` : ''}"fence":${JSON.stringify(forModel.fence)}}`;
    }
    if (aggregates !== undefined) text += `,"aggregates":${JSON.stringify(aggregates)}`;
    return `${text}}`;
  }

  async #attempt(tool, params, signal, accessToken, trail, forModel) {
    const { domain, limits } = this.#options;
    const { maxAffected } = this.#policy;
    const call = createIds(this.#registry, limits.maxRows, tool, params);
    const { fixed } = this.#options;
    const settings = {
      rowIds: call.rowIds,
      limits,
      maxAffected,
      maxAffectedBy: this.#maxAffectedBy,
      ...(forModel ? { forModel } : {}),
      ...(Object.keys(fixed).length > 0 ? { context: fixed } : {}),
      ...(tool === 'db_aggregate' ? { aggregates: aggregatesOf(this.#server) } : {}),
    };
    const execution = internalsOf(this.#core).startExecution(tool, params, this.#contextOf(accessToken), {
      registry: this.#registry,
      domain,
      settings,
      settingsText: this.#settingsText(settings),
    });
    const attempt = trail.attempt();
    let result;
    // The answer to the write's own request once it may have reached the
    // database: from then on a failure of the core is an unknown outcome.
    const written = { answer: null };
    try {
      await this.#answerNeeds(execution, attempt, callWrites(domain, tool, params), written, signal);
      result = execution.result();
      const failed = written.answer ? result?.error?.code : null;
      if (failed === codes.internal_error || failed === codes.out_of_memory) {
        result = { data: null, error: coreFailedAfterWrite(tool, params, written.answer, result.error, { domain, rowIds: call.rowIds }), query: result.query ?? null, count: null };
      }
    } catch (cause) {
      // A throw from the execution handle (the core answering a response,
      // reading its needs or result) is a result, never a raw exception; the
      // caller's abort still rejects.
      if (signal?.aborted) throw signal.reason ?? cause;
      const failure = cause instanceof AlfredError ? cause.toJSON() : internalError(cause);
      result = { data: null, error: written.answer ? coreFailedAfterWrite(tool, params, written.answer, failure, { domain, rowIds: call.rowIds }) : failure, query: null, count: null };
    } finally {
      try {
        execution.delete();
      } catch {
        // A handle the core failed in may fail to free too; the result (or
        // the error above) stands.
      }
    }
    settle(this.#registry, call, result);
    if (tool === 'db_aggregate') rememberAggregates(this.#server, result?.query?.aggregates);
    attempt.end(result);
    return result;
  }

  // The execution's needs, round by round until it is done: HTTP requests
  // through fetch (each reported to the trail's `attempt`), embeddings
  // through the embedder. `written.answer`: the answer of a write's own
  // request once it was sent.
  async #answerNeeds(execution, attempt, isWrite, written, signal) {
    const { fetch: fetchImpl, embedder, timeoutMs, limits } = this.#options;
    const exchange = (need, options) => {
      const answered = attempt.sent(need);
      return httpExchange(fetchImpl, need, options).then((response) => {
        answered(response);
        learnServer(this.#server, response.server);
        return response;
      });
    };
    const exchangeOptions = { signal, timeoutMs, maxResponseBytes: limits.maxResponseBytes };
    const perform = (need) => (need.kind === 'embed' ? performEmbed(embedder, need) : exchange(need, exchangeOptions));
    while (!execution.done()) {
      signal?.throwIfAborted();
      const needs = execution.needs();
      // Most rounds have one need: awaited as it is, without Promise.all's array.
      const responses = needs.length === 1 ? [await perform(needs[0])] : await Promise.all(needs.map(perform));
      signal?.throwIfAborted();
      responses.forEach((response, index) => {
        const need = needs[index];
        if (isWrite && need.kind === 'http' && WRITE_METHODS.has(need.method) && response.failure !== 'not_sent') written.answer = response;
        execution.respond(index, response);
      });
    }
  }
}
