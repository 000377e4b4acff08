// `alfred-act <tool> '<params JSON>'`: runs one tool call against the
// configured backend and prints the requests sent, the result as the model
// sees it and the executed-query summary: the first thing to reach for when a
// tool call misbehaves.
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { loadCore } from '../web/src/index.node.js';
import { APPROVE_DEFAULTS, POLICY_FLAGS, policyFromFlags } from '../web/src/policy/options.js';
import { EMBEDDER_FLAGS, chooseEmbedder, readEmbedderSettings } from '../web/src/embedder-settings.js';
import { openBackend } from './backend.mjs';
import { isDemoStack } from '../web/src/mcp/domain.js';
import { domainName } from '../web/src/mcp/tools.js';
import { codes } from '../web/dist/error-codes.mjs';

export { TOOL_NAMES as TOOLS } from '../web/src/tools.js';

export const USAGE = `usage: alfred-act <db_read|db_create|db_update|db_delete|db_aggregate|db_call> '<params JSON>' [options]

  --json          print only the { data, error, query, count } result as JSON on stdout
                  (the request trace goes to stderr)
  --state FILE    keep the ref registry between calls (read before, written after);
                  needs a database that outlives the call: --data-dir or SUPABASE_URL
  --data-dir DIR  keep the local stack's database in DIR between calls
  --user N        the in-process demo stack's seeded user to sign in as (0 or 1;
                  default 0); not with SUPABASE_URL, whose user is the token's
  --domain FILE   the domain JSON to validate against (for example one written by
                  alfred-act domain pull); default: the local stack pack's domain.
                  With SUPABASE_URL it is needed unless that is the local demo
                  stack (a request for its schema description tells; otherwise
                  the command refuses, and says how to write one)
  --schema PACK   the local stack's domain pack: kitchen (default) or crm; with
                  SUPABASE_URL, the pack of the stack it points at

Safety controls (docs/safety-controls.md); where a flag is absent, from
ALFRED_READ_ONLY (true, false, 1, 0, on, off, yes or no, any case),
ALFRED_TABLES, ALFRED_APPROVE and ALFRED_MAX_AFFECTED:
  --read-only         refuse creates, updates and deletes (read_only)
  --tables A,B        only these tables exist for the call
  --approve MODE      none (default), deletes, changes (updates and deletes)
                      or writes (creates too): such a write is held and its
                      preview printed (approval_required)
  --approved          run a held write as approved by you (its rows are read
                      again and the write is restricted to them)
  --max-affected N    an update or delete changes at most N rows (default 50,
                      0: no limit)

Embeddings (the text of a search by meaning, a db_call vector argument): the
model your rows were embedded with, at an OpenAI-compatible POST /embeddings
(docs/functions.md#embeddings-from-the-command-line):
  --embedding-model M       the model; lexical: the offline lexical embedder
                            (ALFRED_EMBEDDING_MODEL)
  --embedding-url URL       the endpoint's base URL (ALFRED_EMBEDDING_URL;
                            default OPENAI_BASE_URL, else api.openai.com/v1)
  --embedding-dimensions N  the vectors' size, sent as dimensions
                            (ALFRED_EMBEDDING_DIMENSIONS; default: the model's)
  The key: ALFRED_EMBEDDING_API_KEY (default OPENAI_API_KEY, unless the URL is
  named). None configured: the demo domain (no --domain) uses the lexical
  embedder its data was embedded with; with --domain a search by meaning fails
  (embedding_failed) saying what to set, instead of ranking by shared words.

Backend: SUPABASE_URL, SUPABASE_ANON_KEY and ALFRED_ACCESS_TOKEN (ALFRED_USER_ID
is optional: the token's sub) from the environment (a Supabase project, or a
running local stack: \`npx alfred-act stack start\` prints them), else the
embedded local stack (PGlite + PostgREST, seeded demo data), started only when
the call reaches the database.`;

/** A refusal before anything ran: exit code 2, as a usage error. */
class UsageError extends Error {
  constructor(code, message, hint = '', path = '') {
    super(message);
    this.detail = { code, path, message, hint };
  }
}

function parse(argv, env) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        state: { type: 'string' },
        'data-dir': { type: 'string' },
        user: { type: 'string' },
        domain: { type: 'string' },
        schema: { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h' },
        approved: { type: 'boolean', default: false },
        ...POLICY_FLAGS,
        ...EMBEDDER_FLAGS,
      },
    });
  } catch (cause) {
    throw new UsageError(codes.invalid_option, cause.message, 'alfred-act --help lists the options');
  }
  const { values: flags, positionals } = parsed;
  const [tool, paramsText = '{}', ...extra] = positionals;
  if (extra.length) throw new UsageError(codes.invalid_option, `unexpected argument ${JSON.stringify(extra[0])}`, "quote the params JSON: 'db_read' '{\"table\":\"inventory\"}'");
  if (flags.user !== undefined && !/^[01]$/.test(flags.user)) throw new UsageError(codes.invalid_option, `--user must be 0 or 1, not ${JSON.stringify(flags.user)}`);
  let params;
  try {
    params = JSON.parse(paramsText);
  } catch (cause) {
    throw new UsageError(codes.invalid_params, `params are not JSON: ${cause.message}`, `for example '{"table":"inventory"}'`);
  }
  let policy;
  try {
    policy = policyFromFlags(flags, env);
    // The person at the command line runs what they typed (APPROVE_DEFAULTS.cli).
    policy.approve ??= APPROVE_DEFAULTS.cli;
  } catch (cause) {
    throw new UsageError(codes.invalid_option, cause.message, cause.hint, cause.path);
  }
  const { data: embedding, error } = readEmbedderSettings({ flags, env });
  if (error) throw new UsageError(error.code, error.message, error.hint, error.path);
  return { flags, tool, params, policy, embedding };
}

async function readState(file) {
  try {
    return await readFile(file, 'utf8');
  } catch (cause) {
    if (cause.code === 'ENOENT') return undefined;
    throw cause;
  }
}

/** Runs the command; resolves to the exit code. `out`/`err` write a line. */
export async function runToolCall(argv, { env = process.env, out = console.log, err = console.error } = {}) {
  const json = argv.includes('--json');
  const fail = (code, detail) => {
    if (json) out(JSON.stringify({ data: null, error: detail, query: null, count: null }, null, 2));
    else err(`alfred-act: ${detail.message}${detail.hint ? `\n  hint: ${detail.hint}` : ''}`);
    return code;
  };
  let options;
  try {
    options = parse(argv, env);
  } catch (cause) {
    if (cause instanceof UsageError) return fail(2, cause.detail);
    throw cause;
  }
  const { flags, tool, params, policy, embedding } = options;
  if (flags.help) {
    out(USAGE);
    return 0;
  }
  const conflict = conflictingFlags(flags, env);
  if (conflict) return fail(2, conflict);
  let domain;
  if (flags.domain) {
    try {
      domain = JSON.parse(await readFile(flags.domain, 'utf8'));
    } catch (cause) {
      return fail(2, { code: codes.invalid_option, path: '--domain', message: `cannot read the domain ${flags.domain}: ${cause.message}`, hint: '' });
    }
  }
  let backend;
  try {
    backend = await openBackend(env, { user: Number(flags.user ?? 0), dataDir: flags['data-dir'], schema: flags.schema, lazy: true });
  } catch (cause) {
    // The environment's and --user's own refusals say where; anything else is the domain pack --schema names.
    return fail(2, cause.detail ?? { code: codes.invalid_option, path: '--schema', message: cause.message, hint: 'leave --schema out for the kitchen demo, or name one of the packs the message lists' });
  }
  try {
    const core = await loadCore();
    domain ??= backend.domain;
    const state = flags.state ? await readState(flags.state) : undefined;
    const { url, apiKey, accessToken, userId } = backend;
    const { embedder, described } = cliEmbedder(embedding, flags);
    const createAct = (fetchImpl, embedderImpl = embedder) => core.createAct({ url, apiKey, accessToken, userId, ...(domain ? { domain } : {}), ...policy, fetch: fetchImpl, embedder: embedderImpl, state });
    const trace = json ? err : out;
    const refused = await setupRefusal(createAct, { core, domain, backend, flags, trace });
    if (refused) return fail(refused.code === codes.backend_unavailable ? 1 : 2, refused);
    const call = { tool, params, executeOptions: flags.approved ? { approved: true } : undefined };
    const { act, result, failure } = await runCall(createAct, call, { env, backend, trace, forModel: !json });
    if (failure) return fail(1, failure);
    if (json) out(JSON.stringify(result, null, 2));
    else printResult(result, { out, answeredLocally: !env.SUPABASE_URL && !backend.local });
    if (embedder.used && described) trace(`(the search text was embedded by ${described})`);
    if (flags.state) await writeFile(flags.state, JSON.stringify(act.registry.toJSON()));
    return result.error ? 1 : 0;
  } finally {
    await backend.stop();
  }
}

// Flags that cannot go together with the environment, as the error to
// report; null when they can.
function conflictingFlags(flags, env) {
  if (flags.state && !flags['data-dir'] && !env.SUPABASE_URL) {
    return {
      code: codes.invalid_option,
      path: '--state',
      message: '--state keeps refs to rows of a database that outlives the call, but the local stack is in memory',
      hint: 'add --data-dir DIR (the same on every call), or set SUPABASE_URL to a running one',
    };
  }
  if (flags['data-dir'] && env.SUPABASE_URL) {
    return { code: codes.invalid_option, path: '--data-dir', message: '--data-dir is for the local stack, but SUPABASE_URL is set', hint: 'drop one of them' };
  }
  // With SUPABASE_URL the user is ALFRED_ACCESS_TOKEN's: --user would be ignored.
  if (flags.user !== undefined && env.SUPABASE_URL) {
    return {
      code: codes.invalid_option,
      path: '--user',
      message: "--user picks a seeded user of the in-process demo stack, but SUPABASE_URL is set: the user is ALFRED_ACCESS_TOKEN's",
      hint: 'drop --user; to act as another user, set ALFRED_ACCESS_TOKEN to their token (stack start prints one per user) and ALFRED_USER_ID to their id, or unset it',
    };
  }
  return null;
}

// The variable each of createAct's connection options comes from here: an
// error about one names the variable, never the API option, which the user
// of the command does not write.
const OPTION_VARIABLES = { url: 'SUPABASE_URL', restUrl: 'SUPABASE_URL', apiKey: 'SUPABASE_ANON_KEY', accessToken: 'ALFRED_ACCESS_TOKEN', userId: 'ALFRED_USER_ID' };
const URL_HINT = "set SUPABASE_URL to the project URL without /rest/v1 (https://<project>.supabase.co, or the http://127.0.0.1:… `npx alfred-act stack start` prints)";

// Why createAct refused the options, named by the flag or variable that gave them.
function actOptionsFailure(cause, flags) {
  const variable = OPTION_VARIABLES[cause.path];
  if (cause.code === codes.invalid_option && variable) {
    const named = (text) => String(text ?? '').replace(/\b(url|restUrl|apiKey|accessToken|userId)\b/g, (name) => OPTION_VARIABLES[name]);
    return { code: cause.code, path: variable, message: named(cause.message), hint: variable === 'SUPABASE_URL' ? URL_HINT : named(cause.hint) };
  }
  if (cause.code === codes.invalid_option) return { code: cause.code, path: cause.path === 'tables' ? '--tables' : cause.path, message: cause.message, hint: cause.hint ?? '' };
  if (cause.code === codes.invalid_domain) {
    const where = `${flags.domain ?? 'the domain'}${cause.path ? ` at ${cause.path}` : ''}`;
    return { code: cause.code, path: '--domain', message: `${where}: ${cause.message}`, hint: cause.hint ?? '' };
  }
  return { code: cause.code ?? codes.invalid_state, path: '--state', message: `${flags.state}: ${cause.message}`, hint: cause.hint ?? '' };
}

// Why the call cannot run as configured, or null: options createAct refuses,
// or no domain for a database that is not the demo's.
async function setupRefusal(createAct, { core, domain, backend, flags, trace }) {
  try {
    createAct(fetch);
  } catch (cause) {
    return actOptionsFailure(cause, flags);
  }
  return domain ? null : notTheDemo(core, backend, trace);
}

// How long the schema description may take: a stack that accepts the
// connection but never answers would otherwise hold the command.
const DEMO_CHECK_MS = 10_000;

// Without --domain the call is checked against the demo domain, which is
// right only for the local demo stack: any other database's tables would be
// refused as "not a table of the kitchen domain". As `alfred-act mcp` does,
// the command then refuses and says how to get the app's domain; null when
// the database is the demo's. The request is traced as the call's are.
async function notTheDemo(core, { url, apiKey }, trace) {
  const demo = core.domain ?? core.kitchen;
  const traced = tracingFetch(trace);
  const { data: check } = await isDemoStack({ url, apiKey, demo, fetch: (to, init) => traced(to, { method: 'GET', ...init, signal: AbortSignal.timeout(DEMO_CHECK_MS) }) });
  if (check.demo) return null;
  if (check.unreachable) {
    return { code: codes.backend_unavailable, path: 'SUPABASE_URL', message: `no --domain given, and the database at ${url} could not be checked: ${check.reason}`, hint: 'is it running? (`npx alfred-act stack start` prints the variables of a new local stack); or pass --domain domain.json' };
  }
  return {
    code: codes.invalid_option,
    path: '--domain',
    message: `no --domain given, and ${url} is not the local demo stack: ${check.reason}. Without a domain the call would be checked against the ${domainName(demo)} demo's tables`,
    hint: `write your app's domain once (npx alfred-act domain pull --url ${url} --key <service key> --out domain.json) and pass --domain domain.json`,
  };
}

// Runs the call: `{ act, result }`, or `{ failure }` when the local stack
// does not start. `forModel`: the call the model makes (`act.callTool`: a
// read capped by the result limits, its result as the model reads it),
// else `act.execute`'s `{ data, error, query, count }`. A local stack starts
// only when the call gets as far as a request: a first pass whose fetch
// sends nothing finds out (a refused call or a read of generated refs ends
// there), then the call runs again from the same state once the stack is
// up. No request was sent in the first pass.
async function runCall(createAct, { tool, params, executeOptions }, { env, backend, trace, forModel }) {
  const run = (act) => (forModel ? act.callTool(tool, params, executeOptions) : act.execute(tool, params, executeOptions));
  if (!env.SUPABASE_URL) {
    let needsDatabase = false;
    const notStarted = () => {
      needsDatabase = true;
      throw new Error('the local stack is not started');
    };
    // An embedding is asked for only on the way to a request: the probe
    // stops there, so the embedder is called once, in the real pass.
    const probe = createAct(async () => notStarted(), { name: 'probe', dimensions: null, embed: async () => notStarted() });
    const result = await run(probe);
    if (!needsDatabase) return { act: probe, result };
    try {
      await backend.start();
    } catch (cause) {
      return { failure: { code: codes.backend_unavailable, path: '', message: `the local stack did not start: ${cause.message}`, hint: '' } };
    }
  }
  const act = createAct(tracingFetch(trace));
  return { act, result: await run(act) };
}

// The call's embedder (embedder-settings.js): the configured one, else for
// the demo domain (no --domain: its data was embedded with it) the lexical
// one, else none, whose failure says what to set. `embedder.used` tells
// whether a call asked it for a vector; `described` is what to print then,
// so a ranking is never silently lexical (null for none: its error says it).
function cliEmbedder(settings, flags) {
  const { embedder, description } = chooseEmbedder({ settings, demo: !flags.domain });
  const watched = {
    name: embedder.name,
    dimensions: embedder.dimensions,
    used: false,
    embed: (texts) => {
      watched.used = true;
      return embedder.embed(texts);
    },
  };
  return { embedder: watched, described: embedder.name === 'none' ? null : description };
}

// fetch, showing every request and response status through `trace`.
function tracingFetch(trace) {
  return async (url, init) => {
    trace(`→ ${init.method} ${decodeURIComponent(url)}${init.body ? `\n  body: ${init.body.slice(0, 500)}` : ''}`);
    const response = await fetch(url, init);
    const range = response.headers.get('content-range');
    // A server without max-affected refuses it before running anything;
    // the act then counts the rows first (docs/safety-controls.md).
    const refusedCap = response.status === 400 && (await response.clone().text().catch(() => '')).includes('PGRST122');
    const why = refusedCap ? ': PGRST122, this PostgREST (before 13) does not take max-affected; nothing ran, counting the rows first instead' : '';
    trace(`← ${response.status}${range ? ` (Content-Range ${range})` : ''}${why}`);
    return response;
  };
}

// The result as the model sees it: the tool result an adapter gives the
// model (rows with refs, UUIDs in text scrubbed, the query rendered, the
// notice, an error without its HTTP status or the database's own words, a
// held write's preview).
function printResult(result, { out, answeredLocally }) {
  out(`\nResult as the model sees it:\n${JSON.stringify(result, null, 2)}`);
  if (result.error?.code === codes.approval_required) out('\n(held for approval: run the same command with --approved to make the change)');
  if (answeredLocally) out('(answered without starting the database)');
}
