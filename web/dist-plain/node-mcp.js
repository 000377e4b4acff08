import {
  DEFAULT_APPROVE,
  MCP_INSTRUCTIONS,
  MCP_SERVER_VERSION,
  MemorySessionStore,
  POLICY_TABLE,
  SCHEMA_URI,
  SupabaseSessionStore,
  TOOL_RESULT_SCHEMA,
  actPolicy,
  answerOf,
  callSessionTool,
  callUserTool,
  checkedResultLimits,
  closeSession,
  codes,
  confirmationRequest,
  coreDomain,
  domainName,
  expiresSoon,
  fetchOpenApi,
  findSession,
  isServiceKey,
  loadCore,
  mcpInstructions,
  mcpResourceList,
  mcpSchemaResult,
  mcpServerInfo,
  mcpToolError,
  mcpToolList,
  mcpToolResult,
  newSessionId,
  openSession,
  policyFlags,
  readPolicySettings,
  readUserToken,
  restrictDomain,
  runConfirmedCall,
  schemaDescription,
  userRefsId
} from "./node-shared-B27DOBPA.js";

// web/src/mcp/server.js
async function loadMcpSdk() {
  try {
    const [{ Server }, types] = await Promise.all([import("@modelcontextprotocol/sdk/server/index.js"), import("@modelcontextprotocol/sdk/types.js")]);
    return { Server, types };
  } catch (cause) {
    throw new Error(`the alfred-act MCP server needs @modelcontextprotocol/sdk (npm install @modelcontextprotocol/sdk): ${cause.message}`);
  }
}
var confirmationValidator = {
  getValidator(schema) {
    const properties = schema?.properties ?? {};
    const required = Array.isArray(schema?.required) ? schema.required : [];
    const kinds = { boolean: "boolean", string: "string", number: "number", integer: "number" };
    return (input) => {
      const fail = (errorMessage) => ({ valid: false, data: void 0, errorMessage });
      if (input === null || typeof input !== "object" || Array.isArray(input)) return fail("must be an object");
      for (const name of required) if (!(name in input)) return fail(`must have required property '${name}'`);
      for (const [name, value] of Object.entries(input)) {
        const type = properties[name]?.type;
        if (type && kinds[type] && typeof value !== kinds[type]) return fail(`${name} must be ${type}`);
      }
      return { valid: true, data: input, errorMessage: void 0 };
    };
  }
};
var invalidOption = (path, message, hint) => ({ data: null, error: { code: codes.invalid_option, path, message, hint } });
var SERVER_OPTIONS = ["core", "domain", "url", "apiKey", "accessToken", "getAccessToken", "store", "sessionId", "fetch", "version", "schema", "resultLimits", "embedder"];
var MCP_SERVER_OPTION_NAMES = Object.freeze([...SERVER_OPTIONS, ...POLICY_TABLE.map((row) => row.option)]);
async function createMcpServerWithCore(options = {}) {
  const unknown = Object.keys(options ?? {}).find((name) => !MCP_SERVER_OPTION_NAMES.includes(name));
  if (unknown !== void 0) return invalidOption(unknown, `unknown option ${unknown}`, `options are ${MCP_SERVER_OPTION_NAMES.join(", ")}`);
  const { core, domain, url, apiKey, accessToken, getAccessToken, store = new MemorySessionStore(), sessionId, fetch, version = MCP_SERVER_VERSION, schema, resultLimits, embedder, readOnly, tables, approve, maxAffected, onAudit, tracer, confirm } = options ?? {};
  const { data: checked, error: optionsError } = checkServerOptions({ core, domain, url, apiKey, accessToken, getAccessToken, schema, resultLimits, embedder, readOnly, tables, approve, maxAffected, onAudit, tracer, confirm });
  if (optionsError) return { data: null, error: optionsError };
  const { served, shown, tokenOf, policy, tools } = checked;
  let sdk;
  try {
    sdk = await loadMcpSdk();
  } catch (cause) {
    return { data: null, error: { code: codes.invalid_option, path: "", message: cause.message, hint: "npm install @modelcontextprotocol/sdk" } };
  }
  const { data: session, error: sessionError } = await startSession({ store, sessionId, tokenOf });
  if (sessionError) return { data: null, error: sessionError };
  const server = new sdk.Server(mcpServerInfo(shown, version), {
    capabilities: { tools: {}, resources: {} },
    instructions: mcpInstructions(shown),
    jsonSchemaValidator: confirmationValidator
  });
  const actOptions = { url, apiKey, domain: served, ...policy, ...fetch ? { fetch } : {}, ...resultLimits ? { resultLimits } : {}, ...embedder ? { embedder } : {} };
  serveRequests(server, sdk.types, { core, store, served: shown, tools, tokenOf, session, actOptions });
  return { data: { server, sessionId: session.id, domain: shown }, error: null };
}
function checkServerOptions({ core, domain, url, apiKey, accessToken, getAccessToken, schema, resultLimits, embedder, readOnly, tables, approve, maxAffected, onAudit, tracer, confirm }) {
  if (!core || typeof core.toolDefinitions !== "function") return invalidOption("core", "createMcpServer needs a loaded core", "const core = await loadCore() (from 'alfred-act'), or import createMcpServer from 'alfred-act/mcp', which loads one");
  const served = domain ?? coreDomain(core);
  const { error: domainError } = core.validateDomain(served);
  if (domainError) return { data: null, error: { ...domainError, path: domainError.path ? `domain.${domainError.path}` : "domain" } };
  if (typeof url !== "string" || !URL.canParse(url)) return invalidOption("url", `url must be the Supabase URL or a PostgREST root, got ${JSON.stringify(url ?? null)}`, "https://<ref>.supabase.co");
  if (typeof apiKey !== "string" || apiKey === "") return invalidOption("apiKey", "apiKey must be the anon (publishable) key", "the project's anon key; never a service key");
  if (accessToken === void 0 === (getAccessToken === void 0)) {
    return invalidOption("accessToken", "give the user's token as accessToken or getAccessToken, one of them", "accessToken: session.access_token, or getAccessToken: accessTokenSource({ command }) for one that is refreshed");
  }
  const tokenOf = getAccessToken ?? (async () => readUserToken(accessToken));
  const { data: policy, error: policyError } = actPolicy({ readOnly, tables, approve, maxAffected, onAudit, tracer, confirm });
  if (policyError) return { data: null, error: policyError };
  try {
    checkedResultLimits(resultLimits);
    core.createAct({ url, apiKey, accessToken: "", domain: served, ...policy, ...embedder === void 0 ? {} : { embedder } }).registry.delete();
    const shown = policy.tables ? restrictDomain(served, policy.tables) : served;
    const tools = mcpToolList(core, shown, { schema, readOnly: policy.readOnly === true });
    return { data: { served, shown, tokenOf, policy, tools }, error: null };
  } catch (cause) {
    if (cause?.name !== "AlfredError") throw cause;
    return { data: null, error: { code: cause.code, path: cause.path, message: cause.message, hint: cause.hint ?? "" } };
  }
}
async function startSession({ store, sessionId, tokenOf }) {
  const { data: first, error } = await tokenOf();
  if (error) return { data: null, error };
  const id = sessionId ?? newSessionId();
  const caller = { userId: first.userId, accessToken: first.accessToken };
  const { data: existing, error: findError } = await findSession({ store, sessionId: id, caller });
  if (findError) return { data: null, error: findError };
  if (!existing) {
    const { error: openError } = await openSession({ store, sessionId: id, caller });
    if (openError) return { data: null, error: openError };
  }
  return { data: { id, userId: first.userId }, error: null };
}
function serveRequests(server, types, { core, store, served, tools, tokenOf, session, actOptions }) {
  const confirmation = async (preview) => {
    if (!server.getClientCapabilities()?.elicitation) return { action: "unavailable" };
    try {
      return { action: answerOf(await server.elicitInput(confirmationRequest(preview))) };
    } catch {
      return { action: "cancel" };
    }
  };
  server.setRequestHandler(types.ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(types.CallToolRequestSchema, async (request, extra) => {
    const { data: token, error: tokenError } = await tokenOf();
    if (tokenError) return mcpToolError(request.params.name, tokenError);
    if (token.userId !== session.userId) {
      return mcpToolError(request.params.name, { code: codes.user_changed, message: "the access token is now for another user than the one this session started with", hint: "restart the MCP server to act as the new user" });
    }
    const options = { ...actOptions, accessToken: token.accessToken, userId: session.userId };
    return callSessionTool({ core, store, sessionId: session.id, actOptions: options, name: request.params.name, args: request.params.arguments, signal: extra?.signal, confirmation });
  });
  server.setRequestHandler(types.ListResourcesRequestSchema, () => ({ resources: mcpResourceList(served) }));
  server.setRequestHandler(types.ReadResourceRequestSchema, (request) => {
    if (request.params.uri !== SCHEMA_URI) throw new types.McpError(types.ErrorCode.InvalidParams, `no resource ${request.params.uri}; resources: ${SCHEMA_URI}`);
    const { data, error: schemaError } = schemaDescription(core, served);
    if (schemaError) throw new types.McpError(types.ErrorCode.InternalError, schemaError.message);
    return { contents: [{ uri: SCHEMA_URI, mimeType: "text/markdown", text: data }] };
  });
}

// web/src/mcp/stdio.js
import { execFile } from "node:child_process";
import { readFile as readFile3 } from "node:fs/promises";
import { parseArgs } from "node:util";

// web/src/project-name.js
import { readFile } from "node:fs/promises";
import { join } from "node:path";
async function projectName(cwd) {
  try {
    const { name } = JSON.parse(await readFile(join(cwd, "package.json"), "utf8"));
    return typeof name === "string" && name.trim() ? name.trim().replace(/^@[^/]+\//, "") : void 0;
  } catch {
    return void 0;
  }
}

// web/src/mcp/domain.js
import { readFile as readFile2 } from "node:fs/promises";

// web/src/pull/catalog-source.js
var LOCAL_CATALOG_PATH = "/alfred/v1/catalog";
var NO_CATALOG_NOTE = "no --db-url: owners and user ids come from auth.uid() defaults, foreign keys and column names alone, and no functions are offered; --db-url adds the row-level security policies, the references to auth.users and to other schemas, and the functions";
var LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;
function databaseAt(dbUrl) {
  try {
    const url = new URL(dbUrl);
    return `${url.hostname}${url.port ? `:${url.port}` : ""}`;
  } catch {
    return "the database URL";
  }
}
async function connect(dbUrl) {
  let pg;
  try {
    ({ default: pg } = await import("pg"));
  } catch {
    return { error: { code: codes.invalid_option, path: "db_url", message: "--db-url needs the pg package, which is not installed", hint: "npm install pg (an optional peer dependency of alfred-act), or pull without --db-url" } };
  }
  const client = new pg.Client({ connectionString: dbUrl, connectionTimeoutMillis: 15e3, query_timeout: 15e3 });
  client.on("error", () => {
  });
  try {
    await client.connect();
  } catch (cause) {
    await client.end().catch(() => {
    });
    return {
      error: {
        code: codes.network_error,
        path: "db_url",
        message: `cannot connect to the database at ${databaseAt(dbUrl)}: ${cause.message}`,
        hint: "the connection string of Supabase's Connect dialog (Session pooler or direct), with the password; or pull without --db-url"
      }
    };
  }
  return { client };
}
async function localStackCatalog(url, apiKey, fetchImpl) {
  let host;
  try {
    host = new URL(url).hostname;
  } catch {
    return { facts: void 0, notes: [] };
  }
  if (!apiKey || !LOOPBACK.test(host)) return { facts: void 0, notes: [] };
  try {
    const response = await fetchImpl(new URL(LOCAL_CATALOG_PATH, url), { headers: { apikey: apiKey }, signal: AbortSignal.timeout(5e3) });
    if (response.status === 401) {
      const message = "this local stack serves its catalog (policies, grants, references to auth.users, functions) to its service key only, not to this key; pass --key <the service key `stack start` printed> for owners that come out right";
      return { facts: void 0, notes: [{ path: "catalog", message }] };
    }
    if (!response.ok) return { facts: void 0, notes: [] };
    return { facts: await response.json(), notes: [{ path: "catalog", message: "read from the local stack" }] };
  } catch {
    return { facts: void 0, notes: [] };
  }
}
async function openPullCatalog({ url, apiKey, dbUrl, fetch: fetchImpl = globalThis.fetch }) {
  if (dbUrl) {
    const { client, error } = await connect(dbUrl);
    if (error) return { data: null, error };
    return { data: { catalog: (sql) => client.query(sql), notes: [], close: () => client.end().catch(() => {
    }) }, error: null };
  }
  const { facts, notes } = await localStackCatalog(url, apiKey, fetchImpl);
  return { data: { catalog: facts, notes, close: async () => {
  } }, error: null };
}

// web/src/mcp/domain.js
var LOOPBACK_HOSTS = /* @__PURE__ */ new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);
var NO_DOMAIN_HINT = "pass --domain domain.json (the file `alfred-act domain pull --out domain.json` writes; or ALFRED_DOMAIN=domain.json), or --pull to derive it from the project at start";
function isLoopbackUrl(url) {
  if (!URL.canParse(url)) return false;
  const { hostname } = new URL(url);
  return LOOPBACK_HOSTS.has(hostname) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}
async function readDomainFile(file, core) {
  const refused = (path, message, hint) => ({ data: null, error: { code: codes.invalid_domain, path, message: `the domain file ${file} does not load: ${message}`, hint } });
  let text;
  try {
    text = await readFile2(file, "utf8");
  } catch (cause) {
    return refused("", cause.code === "ENOENT" ? "there is no such file" : cause.message, "write it with `alfred-act domain pull --out domain.json`, or pass --pull");
  }
  let domain;
  try {
    domain = JSON.parse(text);
  } catch (cause) {
    return refused("", `it is not JSON (${cause.message})`, "the file `alfred-act domain pull --out FILE` writes is JSON");
  }
  const { error } = core.validateDomain(domain);
  if (error) return refused(error.path, error.message, error.hint);
  return { data: domain, error: null };
}
async function isDemoStack({ url, apiKey, demo, fetch }) {
  if (!isLoopbackUrl(url)) return { data: { demo: false, reason: "it is not on this machine" }, error: null };
  let spec;
  try {
    spec = await fetchOpenApi({ url, apiKey, ...fetch ? { fetch } : {} });
  } catch (cause) {
    return { data: { demo: false, reason: `its schema description could not be read (${cause?.message ?? cause})` }, error: null };
  }
  const described = spec?.definitions ?? {};
  const missing = [];
  for (const [table, { columns = {} }] of Object.entries(demo.tables)) {
    const properties = described[table]?.properties;
    if (!properties) missing.push(`table ${table}`);
    else for (const column of Object.keys(columns)) if (!Object.hasOwn(properties, column)) missing.push(`column ${table}.${column}`);
  }
  if (missing.length === 0) return { data: { demo: true, reason: null }, error: null };
  const shown = missing.length > 5 ? `${missing.slice(0, 5).join(", ")} and ${missing.length - 5} more` : missing.join(", ");
  return { data: { demo: false, reason: `its database has no ${shown} of the ${domainName(demo)} demo` }, error: null };
}
async function resolveMcpDomain({ source, url, apiKey, accessToken, core, pullDomain, fetch }) {
  if (source?.file !== void 0) {
    const { data, error } = await readDomainFile(source.file, core);
    return error ? { data: null, error } : { data: { domain: data, origin: "file", notes: [] }, error: null };
  }
  if (source?.pull) {
    const { key, ownerColumn, overrides: overridesFile, dbUrl } = source.pull;
    let overrides;
    if (overridesFile !== void 0) {
      try {
        overrides = JSON.parse(await readFile2(overridesFile, "utf8"));
      } catch (cause) {
        return { data: null, error: { code: codes.invalid_option, path: "--overrides", message: `the overrides file ${overridesFile} does not load: ${cause.message}`, hint: "a JSON object, as for `alfred-act domain pull --overrides`" } };
      }
    }
    const credentials = key ? { apiKey: key, accessToken: "" } : { apiKey, accessToken };
    const defaultName = await projectName(process.cwd());
    const { data: opened, error: catalogError } = await openPullCatalog({ url, apiKey: credentials.apiKey, dbUrl, ...fetch ? { fetch } : {} });
    if (catalogError) return { data: null, error: { ...catalogError, path: "--db-url" } };
    let pulled;
    try {
      pulled = await pullDomain({ url, ...credentials, core, overrides, ownerColumn, name: overrides?.name, defaultName, catalog: opened.catalog, ...fetch ? { fetch } : {} });
    } finally {
      await opened.close();
    }
    const { data, error, notes } = pulled;
    if (error) return { data: null, error: { ...error, message: `the domain could not be pulled from ${url}: ${error.message}` } };
    const said = [...opened.notes, ...notes, ...opened.catalog ? [] : [{ path: "catalog", message: NO_CATALOG_NOTE }]];
    return { data: { domain: data, origin: "pull", notes: said }, error: null };
  }
  const demo = core.domain ?? core.kitchen;
  const { data: check } = await isDemoStack({ url, apiKey, demo, fetch });
  if (check.demo) return { data: { domain: demo, origin: "demo", notes: [] }, error: null };
  return {
    data: null,
    error: {
      code: codes.invalid_option,
      path: "--domain",
      message: `no domain given (--domain or --pull), and ${url} is not the local demo stack: ${check.reason}. The server serves the tables of a domain and will not serve the ${domainName(demo)} demo's against another database`,
      hint: NO_DOMAIN_HINT
    }
  };
}

// web/src/mcp/stdio-limit.js
import { Transform } from "node:stream";
var MAX_MESSAGE_BYTES = 10 * 1024 * 1024;
var EDGE_BYTES = 512;
var NEWLINE = 10;
var ID = String.raw`(-?\d{1,16}|"(?:[^"\\]|\\.){0,200}")`;
var ID_AT_END = new RegExp(String.raw`"id"\s*:\s*${ID}\s*\}\s*$`);
var ID_AT_START = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${ID}`);
function idOfOversized(head, tail) {
  const match = ID_AT_END.exec(tail.replace(/\r$/, "")) ?? ID_AT_START.exec(head);
  if (!match) return null;
  try {
    return JSON.parse(match[1]);
  } catch {
    return null;
  }
}
function boundedLines({ maxBytes = MAX_MESSAGE_BYTES, onOversized }) {
  let parts = [];
  let length = 0;
  let dropping = null;
  const keepTail = (tail, piece) => {
    const joined = Buffer.concat([tail, piece]);
    return joined.subarray(Math.max(0, joined.length - EDGE_BYTES));
  };
  return new Transform({
    transform(chunk, _encoding, done) {
      let start = 0;
      while (start < chunk.length) {
        const newline = chunk.indexOf(NEWLINE, start);
        const end = newline === -1 ? chunk.length : newline;
        const piece = chunk.subarray(start, end);
        if (!dropping && length + piece.length > maxBytes) {
          const whole = Buffer.concat([...parts, piece]);
          dropping = { bytes: whole.length, head: whole.subarray(0, EDGE_BYTES), tail: whole.subarray(Math.max(0, whole.length - EDGE_BYTES)) };
          parts = [];
          length = 0;
        } else if (dropping) {
          dropping.bytes += piece.length;
          dropping.tail = keepTail(dropping.tail, piece);
        } else {
          parts.push(piece);
          length += piece.length;
        }
        if (newline === -1) break;
        if (dropping) {
          const { bytes, head, tail } = dropping;
          dropping = null;
          onOversized({ bytes, id: idOfOversized(head.toString("utf8"), tail.toString("utf8")) });
        } else {
          parts.push(Buffer.from([NEWLINE]));
          this.push(Buffer.concat(parts));
          parts = [];
          length = 0;
        }
        start = newline + 1;
      }
      done();
    }
  });
}

// web/src/mcp/stdio.js
var MCP_USAGE = `usage: alfred-act mcp [--domain FILE | --pull [--key KEY] [--db-url URL] [--owner-column NAME] [--overrides FILE]]
                    [--url URL] [--anon-key KEY]
                    [--access-token JWT | --token-command CMD | --token-file FILE]
                    [--store memory|supabase] [--session ID] [--schema compact|inline]
                    [--read-only] [--tables T1,T2] [--approve changes|deletes|writes|none]
                    [--max-affected N] [--no-confirm]

An MCP server on stdin/stdout whose tools (db_read, db_create, db_update,
db_delete, db_schema) act as the signed-in user on your domain's tables,
under row-level security.

  --domain FILE        the domain to serve: the JSON \`alfred-act domain pull
                       --out FILE\` writes                                (ALFRED_DOMAIN)
  --pull               derive the domain from the project at start instead
  --key KEY            with --pull: a secret key to read the schema with
                       (hosted Supabase describes it only for one); used
                       for that one request, never by a tool call      (SUPABASE_SECRET_KEY)
  --db-url URL         with --pull: the database itself (postgres://\u2026), whose
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

The variables that are true or false take true, false, 1, 0, on, off, yes
or no (any case); a flag wins over its variable.

Without --domain or --pull the server starts only against the local demo
stack (npx alfred-act stack start), serving its kitchen demo domain.`;
var OPTIONS = {
  domain: { type: "string", env: "ALFRED_DOMAIN" },
  pull: { type: "boolean" },
  key: { type: "string", env: "SUPABASE_SECRET_KEY" },
  "db-url": { type: "string", env: "SUPABASE_DB_URL" },
  "owner-column": { type: "string" },
  overrides: { type: "string" },
  url: { type: "string", env: "SUPABASE_URL" },
  "anon-key": { type: "string", env: "SUPABASE_ANON_KEY" },
  "access-token": { type: "string", env: ["SUPABASE_ACCESS_TOKEN", "ALFRED_ACCESS_TOKEN"] },
  "token-command": { type: "string", env: "ALFRED_TOKEN_COMMAND" },
  "token-file": { type: "string", env: "ALFRED_TOKEN_FILE" },
  store: { type: "string", env: "ALFRED_MCP_STORE" },
  session: { type: "string", env: "ALFRED_MCP_SESSION" },
  schema: { type: "string", env: "ALFRED_MCP_SCHEMA" },
  // --read-only, --tables, --approve, --max-affected, --no-confirm: the
  // policy table's (readPolicyOptions reads them and their variables).
  ...policyFlags("mcp")
};
var PULL_ONLY = ["key", "db-url", "owner-column", "overrides"];
function readMcpConfig(argv, env = {}) {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: Object.fromEntries(Object.entries(OPTIONS).map(([name2, { type }]) => [name2, { type }])), strict: true }));
  } catch (cause) {
    return { data: null, error: cause.message };
  }
  const fromEnv = (names) => [names ?? []].flat().map((variable) => env[variable]).find(Boolean);
  const get = (name2) => values[name2] ?? fromEnv(OPTIONS[name2].env);
  const url = get("url");
  const apiKey = get("anon-key");
  if (!url || !apiKey) return { data: null, error: "the Supabase URL and anon key are required (--url and --anon-key, or SUPABASE_URL and SUPABASE_ANON_KEY)" };
  if (!URL.canParse(url)) return { data: null, error: `the Supabase URL is not a URL: ${url}` };
  if (isServiceKey(apiKey)) return { data: null, error: "the anon key given is a service-role key, which bypasses row-level security; this server acts only as the signed-in user: pass the anon (publishable) key" };
  const { data: domain, error: domainError } = readDomainSource(values, get);
  if (domainError) return { data: null, error: domainError };
  const sources = [
    ["access-token", "accessToken"],
    ["token-command", "command"],
    ["token-file", "file"]
  ].filter(([name2]) => get(name2));
  if (sources.length !== 1) {
    return { data: null, error: sources.length === 0 ? "the user's access token is required: --access-token, --token-command or --token-file" : `give one token source, not ${sources.map(([name2]) => `--${name2}`).join(" and ")}` };
  }
  const [[name, field]] = sources;
  const store = get("store") ?? "memory";
  if (store !== "memory" && store !== "supabase") return { data: null, error: `--store must be memory or supabase, got ${store}` };
  const sessionId = get("session");
  if (sessionId !== void 0 && store !== "supabase") return { data: null, error: "--session resumes a stored session: it needs --store supabase" };
  if (sessionId !== void 0 && !/^[A-Za-z0-9_-]{16,128}$/.test(sessionId)) return { data: null, error: "--session must be 16 to 128 characters of A-Z, a-z, 0-9, - and _" };
  const schema = get("schema") ?? "compact";
  if (schema !== "compact" && schema !== "inline") return { data: null, error: `--schema must be compact or inline, got ${schema}` };
  const { data: policy, error: policyError } = readPolicyOptions(values, env);
  if (policyError) return { data: null, error: policyError };
  return { data: { url, apiKey, token: { [field]: get(name) }, store, sessionId, domain, schema, policy }, error: null };
}
function policyWords({ readOnly, approve, confirm, tables, maxAffected }) {
  const words = [];
  if (readOnly) words.push("read-only");
  else if (confirm === false || approve === "none") words.push("writes run without asking");
  else words.push(approve === "writes" ? "creates, updates and deletes ask the user first" : approve === "deletes" ? "deletes ask the user first" : "updates and deletes ask the user first");
  if (tables) words.push(`tables ${tables.join(", ")} only`);
  if (maxAffected) words.push(`at most ${maxAffected} rows per update or delete`);
  else if (maxAffected === 0) words.push("no limit on the rows per update or delete");
  return words.join(", ");
}
function readPolicyOptions(values, env = {}) {
  const { data, error } = readPolicySettings("mcp", { flags: values, env });
  return error ? { data: null, error: error.message } : { data, error: null };
}
function readDomainSource(values, get) {
  if (values.pull) {
    if (values.domain !== void 0) return { data: null, error: "give --domain or --pull, not both" };
    const overrides = get("overrides");
    return { data: { pull: { key: get("key"), dbUrl: get("db-url"), ownerColumn: get("owner-column"), overrides } }, error: null };
  }
  const strays = PULL_ONLY.filter((name) => values[name] !== void 0);
  if (strays.length > 0) return { data: null, error: `${strays.map((name) => `--${name}`).join(" and ")} ${strays.length === 1 ? "goes" : "go"} with --pull (they say how to derive the domain)` };
  const file = get("domain");
  if (file === "") return { data: null, error: "--domain needs a file" };
  return { data: file === void 0 ? null : { file }, error: null };
}
function accessTokenSource({ accessToken, command, file }) {
  let current = null;
  const fetchToken = async () => {
    if (accessToken !== void 0) return readUserToken(accessToken, "the access token");
    try {
      if (command !== void 0) {
        const stdout = await new Promise(
          (resolve, reject) => execFile("/bin/sh", ["-c", command], { timeout: 3e4, maxBuffer: 64 * 1024 }, (error, out) => error ? reject(error) : resolve(out))
        );
        return readUserToken(stdout, "the token command's output");
      }
      return readUserToken(await readFile3(file, "utf8"), `the token file ${file}`);
    } catch (cause) {
      return { data: null, error: { code: codes.token_unavailable, message: `the access token could not be read: ${cause.message}`, hint: command !== void 0 ? "check --token-command" : "check --token-file" } };
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
async function runMcpCommand(argv, { env = process.env, loadCore: loadCore2, pullDomain, stderr = process.stderr } = {}) {
  const say = (line) => stderr.write(`alfred-act mcp: ${line}
`);
  if (argv.includes("--help") || argv.includes("-h")) {
    stderr.write(`${MCP_USAGE}
`);
    return 0;
  }
  const { data: config, error } = readMcpConfig(argv, env);
  if (error) {
    stderr.write(`alfred-act mcp: ${error}

${MCP_USAGE}
`);
    return 2;
  }
  const node = loadCore2 && pullDomain ? null : await import("./node-index.js");
  const core = await (loadCore2 ?? node.loadCore)();
  const getAccessToken = accessTokenSource(config.token);
  const { data: token, error: tokenError } = await getAccessToken();
  if (tokenError) {
    say(`${tokenError.message}${tokenError.hint ? ` (${tokenError.hint})` : ""}`);
    return 1;
  }
  const domainFile = config.domain?.file;
  const { served, exitCode } = await servedDomain(config, { core, accessToken: token.accessToken, pullDomain: pullDomain ?? node.pullDomain, say, stderr });
  if (!served) return exitCode;
  const store = config.store === "supabase" ? new SupabaseSessionStore({ url: config.url, apiKey: config.apiKey }) : new MemorySessionStore();
  const { data: server, error: serverError } = await createMcpServerWithCore({
    core,
    domain: served.domain,
    url: config.url,
    apiKey: config.apiKey,
    getAccessToken,
    store,
    sessionId: config.sessionId,
    schema: config.schema,
    ...config.policy
  });
  if (serverError) {
    say(`${serverError.message}${serverError.hint ? ` (${serverError.hint})` : ""}`);
    return 1;
  }
  const { closed } = await connectStdio(server.server, say);
  const tables = Object.keys(server.domain.tables);
  const from = { file: `from ${domainFile}`, pull: `pulled from ${config.url}`, demo: "the demo" }[served.origin];
  say(
    `serving the ${domainName(served.domain)} domain (${from}; ${tables.length} tables: ${tables.join(", ")}) for ${config.url} over stdio (session store: ${config.store}${config.store === "supabase" ? `, session ${server.sessionId}` : ""}; ${policyWords(config.policy)})`
  );
  await closed;
  await server.server.close();
  await new Promise((resolve) => process.stdout.write("", resolve));
  return 0;
}
async function servedDomain(config, { core, accessToken, pullDomain, say, stderr }) {
  let source = config.domain;
  config.domain = null;
  const { data: served, error } = await resolveMcpDomain({ source, url: config.url, apiKey: config.apiKey, accessToken, core, pullDomain });
  source = null;
  if (error) {
    say(`${error.message}${error.path && error.code !== codes.invalid_option ? ` (at ${error.path})` : ""}`);
    if (error.hint) stderr.write(`hint: ${error.hint}
`);
    return { exitCode: error.code === codes.invalid_option ? 2 : 1 };
  }
  for (const note of served.notes) say(`note: ${note.path}: ${note.message}`);
  if (served.origin === "demo") say(`no --domain or --pull: serving the ${domainName(served.domain)} demo domain, as ${config.url} is the local demo stack`);
  return { served };
}
async function connectStdio(server, say) {
  const { StdioServerTransport } = await import("@modelcontextprotocol/sdk/server/stdio.js");
  let transport;
  const input = process.stdin.pipe(
    boundedLines({
      onOversized: ({ bytes, id }) => {
        say(`a message of ${bytes} bytes is over the ${MAX_MESSAGE_BYTES} this server reads; answered with an error and dropped`);
        transport.send({ jsonrpc: "2.0", id, error: { code: -32600, message: `Invalid Request: the message is ${bytes} bytes, over the ${MAX_MESSAGE_BYTES} bytes this server reads`, data: { code: codes.message_too_large } } }).catch(() => {
        });
      }
    })
  );
  transport = new StdioServerTransport(input, process.stdout, { maxBufferSize: MAX_MESSAGE_BYTES + (1 << 20) });
  const closed = new Promise((resolve) => {
    transport.onclose = resolve;
    input.once("end", resolve);
  });
  await server.connect(transport);
  server.onerror = (cause) => say(`error: ${cause?.message ?? cause}`);
  return { closed };
}

// web/src/mcp/index.js
async function createMcpServer(options = {}) {
  if (options.core) return createMcpServerWithCore(options);
  if (options.domain === void 0 || options.domain === null) {
    return {
      data: null,
      error: {
        code: codes.invalid_option,
        path: "domain",
        message: "createMcpServer needs the domain it serves",
        hint: "domain: the JSON `alfred-act domain pull --out domain.json` writes (or pass a core loaded with one)"
      }
    };
  }
  let core;
  try {
    core = await loadCore({ domain: options.domain });
  } catch (cause) {
    if (cause?.name !== "AlfredError") throw cause;
    const { code, path, message, hint } = cause;
    return { data: null, error: { code, path: path ? `domain.${path}` : "domain", message, hint } };
  }
  return createMcpServerWithCore({ ...options, core });
}
export {
  DEFAULT_APPROVE,
  MCP_INSTRUCTIONS,
  MCP_SERVER_VERSION,
  MCP_USAGE,
  MemorySessionStore,
  SCHEMA_URI,
  SupabaseSessionStore,
  TOOL_RESULT_SCHEMA,
  accessTokenSource,
  answerOf,
  callSessionTool,
  callUserTool,
  closeSession,
  confirmationRequest,
  coreDomain,
  createMcpServer,
  domainName,
  findSession,
  isDemoStack,
  isLoopbackUrl,
  isServiceKey,
  loadMcpSdk,
  mcpInstructions,
  mcpResourceList,
  mcpSchemaResult,
  mcpServerInfo,
  mcpToolError,
  mcpToolList,
  mcpToolResult,
  newSessionId,
  openSession,
  readDomainFile,
  readMcpConfig,
  readPolicyOptions,
  readUserToken,
  resolveMcpDomain,
  runConfirmedCall,
  runMcpCommand,
  schemaDescription,
  userRefsId
};
