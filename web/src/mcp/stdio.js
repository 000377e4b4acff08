// `alfred-act mcp`: an MCP server over stdio that acts as the signed-in user.
// Every tool call goes to PostgREST with the project's anon key and the
// user's access token, so row-level security applies; a service key is
// refused. Built on @modelcontextprotocol/sdk's Server and
// StdioServerTransport (an optional peer dependency, loaded on use). Node only.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { callSessionTool, findSession, newSessionId, openSession } from './session.js';
import { MemorySessionStore, SupabaseSessionStore } from './store.js';
import { MCP_INSTRUCTIONS, SCHEMA_URI, coreDomain, mcpResourceList, mcpToolList, mcpToolError, schemaDescription } from './tools.js';
import { expiresSoon, isServiceKey, readUserToken } from './user-token.js';

export const MCP_USAGE = `usage: alfred-act mcp [--url URL] [--anon-key KEY]
                    [--access-token JWT | --token-command CMD | --token-file FILE]
                    [--store memory|supabase] [--session ID]

An MCP server on stdin/stdout whose tools (db_read, db_create, db_update,
db_delete, db_schema) act as the signed-in user, under row-level security.

  --url URL            the Supabase project URL or a PostgREST root     (SUPABASE_URL)
  --anon-key KEY       the anon / publishable key, never a service key  (SUPABASE_ANON_KEY)
  --access-token JWT   the signed-in user's access token                (SUPABASE_ACCESS_TOKEN)
  --token-command CMD  a shell command printing a fresh access token,
                       run again when the last one is about to expire  (ALFRED_TOKEN_COMMAND)
  --token-file FILE    a file holding the access token, read again when
                       the last one is about to expire                 (ALFRED_TOKEN_FILE)
  --store STORE        where the session's refs live: memory (default), or
                       supabase: the act_sessions table of the user's own
                       database, under row-level security             (ALFRED_MCP_STORE)
  --session ID         with --store supabase, resume this session's refs (ALFRED_MCP_SESSION)`;

const OPTIONS = {
  url: { type: 'string', env: 'SUPABASE_URL' },
  'anon-key': { type: 'string', env: 'SUPABASE_ANON_KEY' },
  'access-token': { type: 'string', env: 'SUPABASE_ACCESS_TOKEN' },
  'token-command': { type: 'string', env: 'ALFRED_TOKEN_COMMAND' },
  'token-file': { type: 'string', env: 'ALFRED_TOKEN_FILE' },
  store: { type: 'string', env: 'ALFRED_MCP_STORE' },
  session: { type: 'string', env: 'ALFRED_MCP_SESSION' },
};

/**
 * The server's configuration from flags and the environment (a flag wins):
 * `{ data: { url, apiKey, token, store, sessionId }, error: message }`.
 * `token` is `{ accessToken }`, `{ command }` or `{ file }`.
 */
export function readMcpConfig(argv, env = {}) {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: Object.fromEntries(Object.entries(OPTIONS).map(([name, { type }]) => [name, { type }])), strict: true }));
  } catch (cause) {
    return { data: null, error: cause.message };
  }
  const get = (name) => values[name] ?? (env[OPTIONS[name].env] || undefined);
  const url = get('url');
  const apiKey = get('anon-key');
  if (!url || !apiKey) return { data: null, error: 'the Supabase URL and anon key are required (--url and --anon-key, or SUPABASE_URL and SUPABASE_ANON_KEY)' };
  if (!URL.canParse(url)) return { data: null, error: `the Supabase URL is not a URL: ${url}` };
  if (isServiceKey(apiKey)) return { data: null, error: 'the anon key given is a service-role key, which bypasses row-level security; this server acts only as the signed-in user: pass the anon (publishable) key' };
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
  return { data: { url, apiKey, token: { [field]: get(name) }, store, sessionId }, error: null };
}

/**
 * A function giving the user's current access token, read by readUserToken:
 * a fixed token, or one from a command or file, fetched again when the last
 * is about to expire. Resolves to `{ data: { accessToken, userId, expiresAt }, error }`.
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
      return { data: null, error: { code: 'token_unavailable', message: `the access token could not be read: ${cause.message}`, hint: command !== undefined ? 'check --token-command' : 'check --token-file' } };
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

async function loadSdk() {
  try {
    const [{ Server }, { StdioServerTransport }, types] = await Promise.all([
      import('@modelcontextprotocol/sdk/server/index.js'),
      import('@modelcontextprotocol/sdk/server/stdio.js'),
      import('@modelcontextprotocol/sdk/types.js'),
    ]);
    return { Server, StdioServerTransport, types };
  } catch (cause) {
    throw new Error(`alfred-act mcp needs @modelcontextprotocol/sdk (npm install @modelcontextprotocol/sdk): ${cause.message}`);
  }
}

/**
 * An SDK `Server` whose tools act as the user of `getAccessToken()`, for
 * one session: its refs are kept in `store` under `sessionId`. Connect it
 * to any SDK transport.
 *
 * @example
 * const { server } = await createMcpServer({ core, url, apiKey: anonKey, getAccessToken: accessTokenSource({ accessToken }) })
 * await server.connect(new StdioServerTransport())
 */
export async function createMcpServer({ core, url, apiKey, getAccessToken, store = new MemorySessionStore(), sessionId, domain = coreDomain(core), fetch, version = '0.1.0' }) {
  const { Server, types } = await loadSdk();
  const { data: first, error } = await getAccessToken();
  if (error) return { data: null, error };
  const userId = first.userId;
  const id = sessionId ?? newSessionId();
  const caller = { userId, accessToken: first.accessToken };
  const { data: existing, error: findError } = await findSession({ store, sessionId: id, caller });
  if (findError) return { data: null, error: findError };
  if (!existing) {
    const { error: openError } = await openSession({ store, sessionId: id, caller });
    if (openError) return { data: null, error: openError };
  }

  const server = new Server({ name: 'alfred-act', version }, { capabilities: { tools: {}, resources: {} }, instructions: MCP_INSTRUCTIONS });
  const tools = mcpToolList(core, domain);
  server.setRequestHandler(types.ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(types.CallToolRequestSchema, async (request, extra) => {
    const { data: token, error: tokenError } = await getAccessToken();
    if (tokenError) return mcpToolError(request.params.name, tokenError);
    if (token.userId !== userId) {
      return mcpToolError(request.params.name, { code: 'user_changed', message: 'the access token is now for another user than the one this session started with', hint: 'restart the MCP server to act as the new user' });
    }
    const actOptions = { url, apiKey, accessToken: token.accessToken, userId, domain, ...(fetch ? { fetch } : {}) };
    return callSessionTool({ core, store, sessionId: id, actOptions, name: request.params.name, args: request.params.arguments, signal: extra?.signal });
  });
  server.setRequestHandler(types.ListResourcesRequestSchema, () => ({ resources: mcpResourceList() }));
  server.setRequestHandler(types.ReadResourceRequestSchema, (request) => {
    if (request.params.uri !== SCHEMA_URI) throw new types.McpError(types.ErrorCode.InvalidParams, `no resource ${request.params.uri}; resources: ${SCHEMA_URI}`);
    const { data, error: schemaError } = schemaDescription(core, domain);
    if (schemaError) throw new types.McpError(types.ErrorCode.InternalError, schemaError.message);
    return { contents: [{ uri: SCHEMA_URI, mimeType: 'text/markdown', text: data }] };
  });
  return { data: { server, sessionId: id }, error: null };
}

/**
 * Runs `alfred-act mcp` with `argv` (the arguments after `mcp`) until stdin
 * closes. Resolves to the exit code. Diagnostics go to stderr only: stdout
 * carries MCP messages and nothing else.
 */
export async function runMcpCommand(argv, { env = process.env, loadCore } = {}) {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stderr.write(`${MCP_USAGE}\n`);
    return 0;
  }
  const { data: config, error } = readMcpConfig(argv, env);
  if (error) {
    process.stderr.write(`alfred-act mcp: ${error}\n\n${MCP_USAGE}\n`);
    return 2;
  }
  const core = await (loadCore ?? (await import('../index.node.js')).loadCore)();
  const store = config.store === 'supabase' ? new SupabaseSessionStore({ url: config.url, apiKey: config.apiKey }) : new MemorySessionStore();
  const { data: served, error: serverError } = await createMcpServer({
    core,
    url: config.url,
    apiKey: config.apiKey,
    getAccessToken: accessTokenSource(config.token),
    store,
    sessionId: config.sessionId,
  });
  if (serverError) {
    process.stderr.write(`alfred-act mcp: ${serverError.message}${serverError.hint ? ` (${serverError.hint})` : ''}\n`);
    return 1;
  }
  const { StdioServerTransport } = await loadSdk();
  const transport = new StdioServerTransport();
  const closed = new Promise((resolve) => {
    transport.onclose = resolve;
    process.stdin.once('end', resolve);
  });
  await served.server.connect(transport);
  process.stderr.write(`alfred-act mcp: serving ${config.url} over stdio (session store: ${config.store}${config.store === 'supabase' ? `, session ${served.sessionId}` : ''})\n`);
  await closed;
  await served.server.close();
  // Whatever is still queued for stdout goes out before the caller exits.
  await new Promise((resolve) => process.stdout.write('', resolve));
  return 0;
}
