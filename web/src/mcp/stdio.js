// `alfred-act mcp`: an MCP server over stdio that acts as the signed-in user
// on one domain. Every tool call goes to PostgREST with the project's anon
// key and the user's access token, so row-level security applies; a service
// key is refused. The domain is a file (--domain), pulled at start (--pull),
// or the kitchen demo against the local demo stack only (domain.js). Built on
// @modelcontextprotocol/sdk's Server (server.js) and StdioServerTransport (an
// optional peer dependency, loaded on use). Node only.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { resolveMcpDomain } from './domain.js';
import { createMcpServer } from './server.js';
import { MAX_MESSAGE_BYTES, boundedLines } from './stdio-limit.js';
import { MemorySessionStore, SupabaseSessionStore } from './store.js';
import { domainName } from './tools.js';
import { expiresSoon, isServiceKey, readUserToken } from './user-token.js';
import { policyFlags, readPolicySettings } from '../policy/options.js';
import { EMBEDDER_FLAGS, chooseEmbedder, embeddingUses, readEmbedderSettings } from '../embedder-settings.js';
import { codes } from '../../dist/error-codes.mjs';

export { createMcpServer };

export const MCP_USAGE = `usage: alfred-act mcp [--domain FILE | --pull [--key KEY] [--db-url URL] [--owner-column NAME] [--overrides FILE]]
                    [--url URL] [--anon-key KEY]
                    [--access-token JWT | --token-command CMD | --token-file FILE]
                    [--store memory|supabase] [--session ID] [--schema compact|inline]
                    [--read-only] [--tables T1,T2] [--approve changes|deletes|writes|none]
                    [--max-affected N] [--no-confirm]
                    [--embedding-model M [--embedding-url URL] [--embedding-dimensions N]]

An MCP server on stdin/stdout whose tools (db_read, db_create, db_update,
db_delete, db_schema) act as the signed-in user on your domain's tables,
under row-level security.

  --domain FILE        the domain to serve: the JSON \`alfred-act domain pull
                       --out FILE\` writes                                (ALFRED_DOMAIN)
  --pull               derive the domain from the project at start instead
  --key KEY            with --pull: a secret key to read the schema with
                       (hosted Supabase describes it only for one); used
                       for that one request, never by a tool call      (SUPABASE_SECRET_KEY)
  --db-url URL         with --pull: the database itself (postgres://…), whose
                       catalog adds owners from the policies, writes as the
                       grants allow, references and functions, as for
                       \`alfred-act domain pull\` (a local stack's own catalog
                       is read with its service key without it)         (SUPABASE_DB_URL)
  --owner-column NAME  with --pull: the column RLS compares with auth.uid()
  --overrides FILE     with --pull: overrides merged on the pulled domain
  --url URL            the Supabase project URL or a PostgREST root     (SUPABASE_URL)
  --anon-key KEY       the anon / publishable key, never a service key  (SUPABASE_ANON_KEY)
  --access-token JWT   the signed-in user's access token                (SUPABASE_ACCESS_TOKEN,
                       or ALFRED_ACCESS_TOKEN as the local stack prints it)
  --token-command CMD  a shell command printing a fresh access token,
                       run again when the last one is about to expire  (ALFRED_TOKEN_COMMAND)
  --token-file FILE    a file holding the access token, read again when
                       the last one is about to expire                 (ALFRED_TOKEN_FILE)
  --store STORE        where the session's refs live: memory (default), or
                       supabase: the act_sessions table of the user's own
                       database, under row-level security             (ALFRED_MCP_STORE)
  --session ID         with --store supabase, resume this session's refs (ALFRED_MCP_SESSION)
  --schema MODE        compact (default): db_read lists one line per table
                       and db_schema gives the rest; inline: the whole
                       schema in db_read's description                (ALFRED_MCP_SCHEMA)
  --read-only          list and run only db_read and db_schema; writes are
                       refused (read_only) before any request         (ALFRED_READ_ONLY)
  --tables T1,T2       serve only these tables; others are unknown_table (ALFRED_TABLES)
  --approve MODE       which writes ask the user first, through the client's
                       elicitation: changes (updates and deletes; the
                       default), deletes, writes (creates too) or none  (ALFRED_APPROVE)
  --max-affected N     the most rows one update or delete may touch
                       (default 50, 0: no limit)                      (ALFRED_MAX_AFFECTED)
  --no-confirm         run writes without asking (approve none); without
                       it, a client that cannot ask gets approval_required
                       and nothing is written                          (ALFRED_CONFIRM=false)
  --embedding-model M  the model your rows were embedded with, for searches
                       by meaning (a function's vector argument), at an
                       OpenAI-compatible POST /embeddings; lexical: the
                       offline lexical embedder                       (ALFRED_EMBEDDING_MODEL)
  --embedding-url URL  the endpoint's base URL (default OPENAI_BASE_URL,
                       else https://api.openai.com/v1)                (ALFRED_EMBEDDING_URL)
  --embedding-dimensions N  the vectors' size, sent as dimensions
                       (default: the model's own)               (ALFRED_EMBEDDING_DIMENSIONS)
                       The key: ALFRED_EMBEDDING_API_KEY (default
                       OPENAI_API_KEY unless the URL is named). None
                       configured: the demo stack's data gets the lexical
                       embedder it was made with; any other database none,
                       and a search by meaning is embedding_failed.

The variables that are true or false take true, false, 1, 0, on, off, yes
or no (any case); a flag wins over its variable.

Without --domain or --pull the server starts only against the local demo
stack (npx alfred-act stack start), serving its kitchen demo domain.`;

const OPTIONS = {
  domain: { type: 'string', env: 'ALFRED_DOMAIN' },
  pull: { type: 'boolean' },
  key: { type: 'string', env: 'SUPABASE_SECRET_KEY' },
  'db-url': { type: 'string', env: 'SUPABASE_DB_URL' },
  'owner-column': { type: 'string' },
  overrides: { type: 'string' },
  url: { type: 'string', env: 'SUPABASE_URL' },
  'anon-key': { type: 'string', env: 'SUPABASE_ANON_KEY' },
  'access-token': { type: 'string', env: ['SUPABASE_ACCESS_TOKEN', 'ALFRED_ACCESS_TOKEN'] },
  'token-command': { type: 'string', env: 'ALFRED_TOKEN_COMMAND' },
  'token-file': { type: 'string', env: 'ALFRED_TOKEN_FILE' },
  store: { type: 'string', env: 'ALFRED_MCP_STORE' },
  session: { type: 'string', env: 'ALFRED_MCP_SESSION' },
  schema: { type: 'string', env: 'ALFRED_MCP_SCHEMA' },
  // --read-only, --tables, --approve, --max-affected, --no-confirm: the
  // policy table's (readPolicyOptions reads them and their variables).
  ...policyFlags('mcp'),
  // --embedding-model, --embedding-url, --embedding-dimensions: the embedder
  // table's (readEmbedderSettings reads them and their variables).
  ...EMBEDDER_FLAGS,
};
const PULL_ONLY = ['key', 'db-url', 'owner-column', 'overrides'];

/**
 * The server's configuration from flags and the environment (a flag wins):
 * `{ data: { url, apiKey, token, store, sessionId, domain, schema, policy, embedding }, error: message }`.
 * `token` is `{ accessToken }`, `{ command }` or `{ file }`; `domain` is
 * `{ file }`, `{ pull: { key, dbUrl, ownerColumn, overrides } }` or null (none
 * given: resolveMcpDomain then serves the demo against the local demo stack
 * only); `embedding` is readEmbedderSettings's, null when none is
 * configured. Nothing is read or fetched here.
 *
 * @example
 * const { data, error } = readMcpConfig(['--domain', 'domain.json'], process.env)
 * // data.domain: { file: 'domain.json' }
 */
export function readMcpConfig(argv, env = {}) {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: Object.fromEntries(Object.entries(OPTIONS).map(([name, { type }]) => [name, { type }])), strict: true }));
  } catch (cause) {
    return { data: null, error: cause.message };
  }
  // An option's variables in order (the first one set wins), after its flag.
  const fromEnv = (names) => [names ?? []].flat().map((variable) => env[variable]).find(Boolean);
  const get = (name) => values[name] ?? fromEnv(OPTIONS[name].env);
  const url = get('url');
  const apiKey = get('anon-key');
  if (!url || !apiKey) return { data: null, error: 'the Supabase URL and anon key are required (--url and --anon-key, or SUPABASE_URL and SUPABASE_ANON_KEY)' };
  if (!URL.canParse(url)) return { data: null, error: `the Supabase URL is not a URL: ${url}` };
  if (isServiceKey(apiKey)) return { data: null, error: 'the anon key given is a service-role key, which bypasses row-level security; this server acts only as the signed-in user: pass the anon (publishable) key' };
  const { data: domain, error: domainError } = readDomainSource(values, get);
  if (domainError) return { data: null, error: domainError };
  const sources = [
    ['access-token', 'accessToken'],
    ['token-command', 'command'],
    ['token-file', 'file'],
  ].filter(([name]) => get(name));
  if (sources.length !== 1) {
    return { data: null, error: sources.length === 0 ? "the user's access token is required: --access-token, --token-command or --token-file" : `give one token source, not ${sources.map(([name]) => `--${name}`).join(' and ')}` };
  }
  const [[name, field]] = sources;
  const store = get('store') ?? 'memory';
  if (store !== 'memory' && store !== 'supabase') return { data: null, error: `--store must be memory or supabase, got ${store}` };
  const sessionId = get('session');
  if (sessionId !== undefined && store !== 'supabase') return { data: null, error: '--session resumes a stored session: it needs --store supabase' };
  if (sessionId !== undefined && !/^[A-Za-z0-9_-]{16,128}$/.test(sessionId)) return { data: null, error: '--session must be 16 to 128 characters of A-Z, a-z, 0-9, - and _' };
  const schema = get('schema') ?? 'compact';
  if (schema !== 'compact' && schema !== 'inline') return { data: null, error: `--schema must be compact or inline, got ${schema}` };
  const { data: policy, error: policyError } = readPolicyOptions(values, env);
  if (policyError) return { data: null, error: policyError };
  const { data: embedding, error: embeddingError } = readEmbedderSettings({ flags: values, env });
  if (embeddingError) return { data: null, error: `${embeddingError.message} (${embeddingError.hint})` };
  return { data: { url, apiKey, token: { [field]: get(name) }, store, sessionId, domain, schema, policy, embedding }, error: null };
}

// The write policy in a few words, for the start-up line on stderr.
function policyWords({ readOnly, approve, confirm, tables, maxAffected }) {
  const words = [];
  if (readOnly) words.push('read-only');
  else if (confirm === false || approve === 'none') words.push('writes run without asking');
  // Every mode but none holds the calls of functions that change data too (docs/functions.md).
  else words.push(`${approve === 'writes' ? 'creates, updates, deletes' : approve === 'deletes' ? 'deletes' : 'updates, deletes'} and functions that change data ask the user first`);
  if (tables) words.push(`tables ${tables.join(', ')} only`);
  if (maxAffected) words.push(`at most ${maxAffected} rows per update or delete`);
  else if (maxAffected === 0) words.push('no limit on the rows per update or delete');
  return words.join(', ');
}

/**
 * The policy on writes from flags and the environment (a flag wins), by the
 * rule every surface reads it with (readPolicySettings, the policy table in
 * web/src/policy/options.js):
 * `{ data: { readOnly?, tables?, approve?, maxAffected?, confirm? }, error: message }`,
 * as createMcpServer and createHandler take it.
 *
 * @example
 * readPolicyOptions({ 'read-only': true, tables: 'deals,contacts' }, {}) // { data: { readOnly: true, tables: ['deals', 'contacts'] }, error: null }
 */
export function readPolicyOptions(values, env = {}) {
  const { data, error } = readPolicySettings('mcp', { flags: values, env });
  return error ? { data: null, error: error.message } : { data, error: null };
}

// --domain FILE (or ALFRED_DOMAIN), --pull with its options, or neither.
// The --pull flag wins over ALFRED_DOMAIN; the two flags together are refused.
function readDomainSource(values, get) {
  if (values.pull) {
    if (values.domain !== undefined) return { data: null, error: 'give --domain or --pull, not both' };
    const overrides = get('overrides');
    return { data: { pull: { key: get('key'), dbUrl: get('db-url'), ownerColumn: get('owner-column'), overrides } }, error: null };
  }
  const strays = PULL_ONLY.filter((name) => values[name] !== undefined);
  if (strays.length > 0) return { data: null, error: `${strays.map((name) => `--${name}`).join(' and ')} ${strays.length === 1 ? 'goes' : 'go'} with --pull (they say how to derive the domain)` };
  const file = get('domain');
  if (file === '') return { data: null, error: '--domain needs a file' };
  return { data: file === undefined ? null : { file }, error: null };
}

/**
 * A function giving the user's current access token, read by readUserToken:
 * a fixed token, or one from a command or file, fetched again when the last
 * is about to expire. Resolves to `{ data: { accessToken, userId, expiresAt }, error }`.
 *
 * @example
 * const getAccessToken = accessTokenSource({ command: 'cat ~/.config/alfred-act/token' })
 * const { data, error } = await getAccessToken() // data.userId: the token's sub
 */
export function accessTokenSource({ accessToken, command, file }) {
  let current = null;
  const fetchToken = async () => {
    if (accessToken !== undefined) return readUserToken(accessToken, 'the access token');
    try {
      if (command !== undefined) {
        const stdout = await new Promise((resolve, reject) =>
          execFile('/bin/sh', ['-c', command], { timeout: 30_000, maxBuffer: 64 * 1024 }, (error, out) => (error ? reject(error) : resolve(out))),
        );
        return readUserToken(stdout, 'the token command\'s output');
      }
      return readUserToken(await readFile(file, 'utf8'), `the token file ${file}`);
    } catch (cause) {
      return { data: null, error: { code: codes.token_unavailable, message: `the access token could not be read: ${cause.message}`, hint: command !== undefined ? 'check --token-command' : 'check --token-file' } };
    }
  };
  return async () => {
    if (current && !expiresSoon(current)) return { data: current, error: null };
    const { data, error } = await fetchToken();
    if (error) return { data: null, error };
    current = data;
    return { data, error: null };
  };
}

/**
 * Runs `alfred-act mcp` with `argv` (the arguments after `mcp`) until stdin
 * closes. Resolves to the exit code: 0 after a clean run, 2 for a usage error
 * (a missing or conflicting option, or no domain given against a database
 * that is not the local demo stack), 1 when something given does not work (a
 * token refused, a domain file that does not load, a pull that fails).
 * Diagnostics go to `stderr` only: stdout carries MCP messages and nothing else.
 *
 * @example
 * process.exitCode = await runMcpCommand(['--domain', 'domain.json'], { loadCore })
 */
export async function runMcpCommand(argv, { env = process.env, loadCore, pullDomain, stderr = process.stderr } = {}) {
  const say = (line) => stderr.write(`alfred-act mcp: ${line}\n`);
  if (argv.includes('--help') || argv.includes('-h')) {
    stderr.write(`${MCP_USAGE}\n`);
    return 0;
  }
  const { data: config, error } = readMcpConfig(argv, env);
  if (error) {
    stderr.write(`alfred-act mcp: ${error}\n\n${MCP_USAGE}\n`);
    return 2;
  }
  const node = loadCore && pullDomain ? null : await import('../index.node.js');
  const core = await (loadCore ?? node.loadCore)();
  const getAccessToken = accessTokenSource(config.token);
  const { data: token, error: tokenError } = await getAccessToken();
  if (tokenError) {
    say(`${tokenError.message}${tokenError.hint ? ` (${tokenError.hint})` : ''}`);
    return 1;
  }
  const domainFile = config.domain?.file;
  const { served, exitCode } = await servedDomain(config, { core, accessToken: token.accessToken, pullDomain: pullDomain ?? node.pullDomain, say, stderr });
  if (!served) return exitCode;

  const store = config.store === 'supabase' ? new SupabaseSessionStore({ url: config.url, apiKey: config.apiKey }) : new MemorySessionStore();
  // The demo's data was embedded with the lexical embedder; any other
  // database gets the configured one or none (embedder-settings.js).
  const { embedder, description: embedderWords } = chooseEmbedder({ settings: config.embedding, demo: served.origin === 'demo' });
  const { data: server, error: serverError } = await createMcpServer({
    core,
    domain: served.domain,
    url: config.url,
    apiKey: config.apiKey,
    getAccessToken,
    store,
    sessionId: config.sessionId,
    schema: config.schema,
    embedder,
    ...config.policy,
  });
  if (serverError) {
    say(`${serverError.message}${serverError.hint ? ` (${serverError.hint})` : ''}`);
    return 1;
  }
  const { closed } = await connectStdio(server.server, say);
  sayServing({ server, served, config, domainFile, embedder, embedderWords }, say);
  await closed;
  await server.server.close();
  // Whatever is still queued for stdout goes out before the caller exits.
  await new Promise((resolve) => process.stdout.write('', resolve));
  return 0;
}

// The start-up lines on stderr: what is served, for whom and under which
// policy; which embedder a domain that searches by meaning gets; and a
// read-only domain that leaves the model nothing to call.
function sayServing({ server, served, config, domainFile, embedder, embedderWords }, say) {
  const tables = Object.keys(server.domain.tables);
  const from = { file: `from ${domainFile}`, pull: `pulled from ${config.url}`, demo: 'the demo' }[served.origin];
  say(
    `serving the ${domainName(served.domain)} domain (${from}; ${tables.length} tables: ${tables.join(', ')}) for ${config.url} over stdio ` +
      `(session store: ${config.store}${config.store === 'supabase' ? `, session ${server.sessionId}` : ''}; ${policyWords(config.policy)})`,
  );
  const embeds = embeddingUses(server.domain);
  if (embeds.length > 0) say(`${embedder.name === 'none' ? 'note: ' : ''}embeddings for ${embeds.join(', ')}: ${embedderWords}`);
  // Read-only over a domain whose tables the API does not serve and whose functions none reads: nothing to call.
  const servesTable = Object.values(server.domain.tables).some((spec) => spec?.exposed !== false);
  const reads = Object.values(server.domain.functions ?? {}).some((fn) => fn?.read === true);
  if (config.policy.readOnly && !servesTable && !reads) {
    say('read-only, and this domain has no table the API serves and no function marked as a read: the model can call nothing but db_schema. Mark the reads with "read": true in the pull\'s overrides (basejump\'s get_accounts is volatile only because nobody wrote stable)');
  }
}

// The domain to serve (resolveMcpDomain), its notes said on stderr:
// `{ served }`, or `{ exitCode }` when there is none. The secret key of
// --pull is used for the one schema request in there; nothing here holds it
// after that.
async function servedDomain(config, { core, accessToken, pullDomain, say, stderr }) {
  let source = config.domain;
  config.domain = null;
  const { data: served, error } = await resolveMcpDomain({ source, url: config.url, apiKey: config.apiKey, accessToken, core, pullDomain });
  source = null;
  if (error) {
    say(`${error.message}${error.path && error.code !== codes.invalid_option ? ` (at ${error.path})` : ''}`);
    if (error.hint) stderr.write(`hint: ${error.hint}\n`);
    return { exitCode: error.code === codes.invalid_option ? 2 : 1 };
  }
  for (const note of served.notes) say(`note: ${note.path}: ${note.message}`);
  if (served.origin === 'demo') say(`no --domain or --pull: serving the ${domainName(served.domain)} demo domain, as ${config.url} is the local demo stack`);
  return { served };
}

// Connects `server` to stdin and stdout; resolves, once connected, to
// `{ closed }`: a promise that settles when the client goes away.
async function connectStdio(server, say) {
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  // Whole lines of at most MAX_MESSAGE_BYTES reach the SDK's transport (its
  // buffer is given room for one): a larger message is answered with an
  // error and dropped, and the server serves on (stdio-limit.js).
  let transport;
  const input = process.stdin.pipe(
    boundedLines({
      onOversized: ({ bytes, id }) => {
        say(`a message of ${bytes} bytes is over the ${MAX_MESSAGE_BYTES} this server reads; answered with an error and dropped`);
        transport
          .send({ jsonrpc: '2.0', id, error: { code: -32600, message: `Invalid Request: the message is ${bytes} bytes, over the ${MAX_MESSAGE_BYTES} bytes this server reads`, data: { code: codes.message_too_large } } })
          .catch(() => {});
      },
    }),
  );
  transport = new StdioServerTransport(input, process.stdout, { maxBufferSize: MAX_MESSAGE_BYTES + (1 << 20) });
  const closed = new Promise((resolve) => {
    transport.onclose = resolve;
    input.once('end', resolve);
  });
  await server.connect(transport);
  server.onerror = (cause) => say(`error: ${cause?.message ?? cause}`);
  return { closed };
}
