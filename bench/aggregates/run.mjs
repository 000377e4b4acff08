// Runs the aggregates benchmark's questions on one schema's stack, with
// PostgREST's aggregates on or off: each question as each user, through
// act.execute('db_aggregate', …) with every request recorded, against the
// SQL ground truth (bench_truth, called through PostgREST with the user's
// token so RLS applies), next to reading the rows and summing in JS.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startStack } from '../../db/local-stack.mjs';
import { readPackDomain } from '../../db/packs.mjs';
import { pullDomain } from '../../web/src/index.node.js';
import { differences } from './compare.mjs';
import { countsRowsOnly, questionsOf } from './questions.mjs';
import { BENCH_TRUTH_SQL } from './schemas.mjs';
import { readRows, sumInJs } from './read-and-sum.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The rows the tool computes from when the server does not aggregate, unless the domain says otherwise. */
const DEFAULT_MAX_ROWS = 1000;

/** The median of numbers (the mean of the middle two for an even count). */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

const headerOf = (headers, name) => {
  if (!headers) return undefined;
  if (typeof headers.get === 'function') return headers.get(name) ?? undefined;
  const found = Object.keys(headers).find((key) => key.toLowerCase() === name);
  return found === undefined ? undefined : headers[found];
};

/**
 * A `fetch` that records each request the act makes: method, URL, Prefer,
 * status and the bytes of the answer.
 */
function recordingFetch(requests) {
  return async (url, init = {}) => {
    const response = await fetch(url, init);
    const body = await response.arrayBuffer();
    requests.push({ method: init.method ?? 'GET', url: String(url), prefer: headerOf(init.headers, 'prefer') ?? null, status: response.status, bytes: body.byteLength });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/**
 * Starts `schema`'s stack (its pack or app, bench_truth and its extra rows)
 * with aggregates on or off, and derives its domain: the pack's committed
 * domain.json, or pulled from the app as `domain pull` does, without
 * bench_truth. Resolves to a session for `ask`; `stop()` ends it.
 */
export async function openSchema(schema, { aggregates, core }) {
  const options = { aggregates, sql: [BENCH_TRUTH_SQL, schema.sql] };
  if (schema.stack.app) {
    const dir = join(ROOT, 'tests/apps', schema.stack.app, 'supabase');
    Object.assign(options, { migrations: join(dir, 'migrations'), seed: schema.stack.seeds.map((seed) => join(dir, seed)), users: schema.stack.users });
  } else {
    options.schema = schema.stack.schema;
  }
  const stack = await startStack(options);
  try {
    let domain;
    if (schema.domain.pack) {
      domain = readPackDomain(schema.domain.pack);
    } else {
      const pulled = await pullDomain({ url: stack.supabaseUrl, apiKey: stack.serviceKey, catalog: stack.catalog, core, name: schema.name });
      if (pulled.error) throw new Error(`${schema.name}: the pull failed: ${JSON.stringify(pulled.error)}`);
      domain = pulled.data;
      if (domain.functions) delete domain.functions.bench_truth;
    }
    const users = schema.users.map((user) => {
      const signedIn = stack.users.find((candidate) => candidate.email === user.email);
      if (!signedIn) throw new Error(`${schema.name}: no user ${user.email} on the stack`);
      return { ...user, id: signedIn.id, token: signedIn.token };
    });
    const session = { schema, stack, domain, users, core, mode: aggregates ? 'on' : 'off', stop: () => stack.stop() };
    await warmUp(session);
    return session;
  } catch (error) {
    await stack.stop();
    throw error;
  }
}

/**
 * One aggregate before the questions, so that the act has asked the server
 * once whether it aggregates (an answer kept for the process): the
 * questions' round trips are then those of every later call.
 */
async function warmUp(session) {
  const question = questionsOf(session.schema.name).find((candidate) => !countsRowsOnly(candidate.params));
  const act = actFor(session, session.users[0], fetch);
  const result = await act.execute('db_aggregate', question.params);
  if (result.error && result.error.code !== 'aggregate_too_large') throw new Error(`${session.schema.name}: warm-up ${question.id}: ${JSON.stringify(result.error)}`);
}

function actFor(session, user, fetchImpl) {
  const { stack, domain, core } = session;
  return core.createAct({ url: stack.supabaseUrl, apiKey: stack.anonKey, accessToken: user.token, userId: user.id, domain, fetch: fetchImpl });
}

/** The truth: `sql`'s rows, run through PostgREST as `user` (bench_truth, SECURITY INVOKER). */
export async function truthOf(session, user, sql) {
  const response = await fetch(`${session.stack.supabaseUrl}/rest/v1/rpc/bench_truth`, {
    method: 'POST',
    headers: { apikey: session.stack.anonKey, authorization: `Bearer ${user.token}`, 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ query: sql }),
  });
  const body = await response.text();
  if (!response.ok) throw new Error(`bench_truth ${response.status}: ${body}\n${sql}`);
  return JSON.parse(body);
}

/** Whether a column of `table` takes few known values (an enum's or a boolean's), which a count may count one request each. */
function knownValues(domain, table, column) {
  const spec = domain.tables[table]?.columns?.[column];
  return Boolean(spec && (spec.type === 'boolean' || (Array.isArray(spec.values) && spec.values.length > 0)));
}

/**
 * The requests of a count question that read rows of its table: a GET
 * without an aggregate in its select and without limit=0. A counted request
 * must also ask for the count (Prefer: count=…).
 */
export function rowReadingRequests(params, requests) {
  return requests.filter((request) => {
    const url = new URL(request.url);
    if (request.method !== 'GET' || !url.pathname.endsWith(`/${params.table}`)) return false;
    const aggregate = (url.searchParams.get('select') ?? '').includes('()');
    const counted = url.searchParams.get('limit') === '0' && /count=(exact|planned|estimated)/.test(request.prefer ?? '');
    return !aggregate && !counted;
  });
}

/** Whether a question must be answered without reading row pages in this mode: a count of rows, plain or by columns of known values. */
export function mustReadNoRows(session, params) {
  if (!countsRowsOnly(params)) return false;
  if (session.mode === 'on' || !params.group_by?.length) return true;
  return params.group_by.every((column) => knownValues(session.domain, params.table, column));
}

async function timed(run) {
  const started = performance.now();
  const value = await run();
  return { value, ms: performance.now() - started };
}

/**
 * Asks `question` as `user`: the truth, the tool's answer (its requests
 * recorded, a new act per call as a request handler makes one), and the
 * rows read and summed in JS; `repeat` times for the timings (medians).
 * Resolves to one result:
 * `{ id, user, mode, correct, refused, problems, trips, bytes, requests, ms, countCheck, groups, truth, alt: { trips, bytes, ms, rows, correct, problems } }`;
 * `refused` is 'aggregate_too_large' when the server does not aggregate and
 * more rows match than the fallback computes from (then `correct` too).
 */
export async function ask(session, question, user, { repeat = 1 } = {}) {
  const { params } = question;
  const maxRows = session.domain.max_rows ?? DEFAULT_MAX_ROWS;
  const truth = await truthOf(session, user, question.truth);
  const refColumns = new Set((params.group_by ?? []).filter((column) => {
    const references = session.domain.tables[params.table]?.columns?.[column]?.references;
    return references && references !== 'auth.users';
  }));

  const calls = [];
  for (let i = 0; i < repeat; i++) {
    const requests = [];
    const act = actFor(session, user, recordingFetch(requests));
    const { value: result, ms } = await timed(() => act.execute('db_aggregate', params));
    calls.push({ result, ms, requests, act });
  }
  const first = calls[0];
  const reads = [];
  for (let i = 0; i < repeat; i++) reads.push(await timed(() => readRows({ restUrl: `${session.stack.supabaseUrl}/rest/v1`, apiKey: session.stack.anonKey, token: user.token, params })));
  const read = reads[0].value;
  const overBound = read.rows.length > maxRows;

  const problems = [];
  let refused = null;
  const { result } = first;
  if (result.error) {
    if (result.error.code === 'aggregate_too_large' && session.mode === 'off' && overBound) refused = result.error.code;
    else problems.push(`error ${result.error.code}: ${result.error.message}`);
  } else {
    const refs = new Map(first.act.registry.toJSON().refs.map((entry) => [entry.ref, entry.uuid]));
    problems.push(...differences(params, { rows: result.data, groupsTotal: result.count, truth, refColumns, uuidOf: (ref) => refs.get(ref) ?? `unknown ref ${ref}` }));
    if (result.query?.exact === false) problems.push('the answer says it is not exact');
  }
  let countCheck = 'n/a';
  if (mustReadNoRows(session, params)) {
    const reading = rowReadingRequests(params, first.requests);
    countCheck = reading.length === 0 ? 'ok' : 'read rows';
    if (reading.length) problems.push(`a count read rows: ${reading.map((request) => decodeURIComponent(new URL(request.url).search)).join(' ; ')}`);
  }
  const alt = sumInJs(params, read.rows);
  const altProblems = differences(params, { rows: alt.rows, groupsTotal: alt.total, truth, labels: false });
  return {
    id: question.id,
    schema: question.schema,
    user: user.name,
    mode: session.mode,
    correct: problems.length === 0,
    refused,
    problems,
    trips: first.requests.length,
    bytes: first.requests.reduce((total, request) => total + request.bytes, 0),
    requests: first.requests,
    ms: median(calls.map((call) => call.ms)),
    countCheck,
    groups: truth.length,
    truth,
    alt: { trips: read.trips, bytes: read.bytes, ms: median(reads.map((r) => r.ms)), rows: read.rows.length, correct: altProblems.length === 0, problems: altProblems },
  };
}

/** Every question of the session's schema, as each of its users. */
export async function askAll(session, { repeat = 1, onResult = () => {} } = {}) {
  const results = [];
  for (const question of questionsOf(session.schema.name)) {
    for (const user of session.users) {
      const result = await ask(session, question, user, { repeat });
      results.push(result);
      onResult(result, question);
    }
  }
  return results;
}
