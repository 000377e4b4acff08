// Types of the MCP layer (web/src/mcp/), `alfred-act/mcp`: the SDK server,
// token sources, the domain a server serves, tools, sessions and session
// stores, shared by `alfred-act mcp` (stdio) and the edge worker's /mcp route.
// The root 'alfred-act' re-exports the transport-free part.
import type { Act, ActFetch, ActOptions, AlfredErrorShape, Core, SafetyOptions, DomainConfig, DomainNote, DomainPullResult, Embedder, JsonValue, PullDomainOptions, RegistryState, Result, ResultLimits, ToolResult, ToolSchemaMode, WritePreview } from './index.js';

declare global {
  interface AbortSignal {}
}

/** What a host may decide from, per tool (MCP `annotations`). */
export interface McpToolAnnotations {
  /** db_read and db_schema change nothing. */
  readOnlyHint: boolean;
  /** db_update and db_delete change or remove existing rows. */
  destructiveHint: boolean;
  /** Sending the same call again changes nothing more (reads, updates, deletes). */
  idempotentHint: boolean;
  /** Always false: the tools reach only the project's own database. */
  openWorldHint: false;
}

/** One entry of `tools/list`. */
export interface McpTool {
  name: 'db_read' | 'db_create' | 'db_update' | 'db_delete' | 'db_schema';
  /** For people: 'Read rows', 'Create rows', 'Update rows', 'Delete rows', 'Database schema'. */
  title: string;
  description: string;
  /** A JSON Schema with `type: 'object'`. */
  inputSchema: { type: 'object'; [keyword: string]: JsonValue | undefined };
  /** The JSON Schema of the result's `structuredContent`. */
  outputSchema: { type: 'object'; [keyword: string]: JsonValue | undefined };
  annotations: McpToolAnnotations;
}

/**
 * The policy on writes an MCP server passes to its act (`createMcpServer`,
 * the worker's `createHandler`, `alfred-act mcp`'s flags).
 */
export interface McpWritePolicy {
  /** List and run only db_read and db_schema; writes are `read_only`. */
  readOnly?: boolean;
  /** Serve only these tables; the others are named nowhere (tools, instructions, schema) and are `unknown_table`. */
  tables?: string[];
  /** Which writes ask the user first: `'changes'` (updates and deletes; the default), `'deletes'`, `'writes'` (creates too), `'none'`. */
  approve?: 'none' | 'deletes' | 'changes' | 'writes';
  /** The most rows one update or delete may touch (`too_many_rows`). */
  maxAffected?: number;
  /**
   * Default true: a write that needs approval is put to the user through the
   * client's elicitation, and a client that cannot elicit gets
   * `approval_required` (nothing is written). False runs writes unasked (`approve: 'none'`).
   */
  confirm?: boolean;
  /** As createAct's: called once per request sent and once per refused call. */
  onAudit?: SafetyOptions['onAudit'];
  /** As createAct's: an OpenTelemetry tracer, a span per call. */
  tracer?: SafetyOptions['tracer'];
}

/** One entry of `resources/list`. */
export interface McpResource {
  uri: string;
  name: string;
  title: string;
  description: string;
  mimeType: string;
}

/**
 * An MCP CallToolResult: one text block, the JSON of the tool result for the
 * model (`ToolResult`: `{ ok: true, tool, table, count, rows, query }`, or
 * `{ ok: false, tool, table, error: { code, path, message, hint } }` with
 * `isError`). db_schema's text is the schema itself.
 */
export interface McpToolResult {
  content: { type: 'text'; text: string }[];
  /** The same result as an object, matching the tool's `outputSchema` (db_schema: `{ schema }`). */
  structuredContent: ToolResult | { schema: string };
  isError: boolean;
}

/** The server's instructions to the model when no domain is named; `mcpInstructions(domain)` names it. */
export declare const MCP_INSTRUCTIONS: string;
/** The schema description's resource URI: `alfred-act://schema`. */
export declare const SCHEMA_URI: string;
/** The version a server reports in `serverInfo` unless told another. */
export declare const MCP_SERVER_VERSION: string;

/** `serverInfo` of `initialize`: the title names the domain served. */
export interface McpServerInfo {
  name: 'alfred-act';
  title: string;
  version: string;
}

/**
 * A domain's name as a server shows it: its `name`, else `"database"`.
 *
 * @example
 * domainName(domain) // 'crm'
 */
export declare function domainName(domain: DomainConfig | null | undefined): string;

/**
 * The instructions sent with `initialize`: the domain served, its tables, refs
 * as they look there, how to correct a refused call.
 *
 * @example
 * mcpInstructions(domain) // 'This server serves the crm domain (tables: contacts, deals, organizations, tasks): …'
 */
export declare function mcpInstructions(domain: DomainConfig): string;

/**
 * `serverInfo` naming the domain.
 *
 * @example
 * mcpServerInfo(domain, '0.1.0') // { name: 'alfred-act', title: 'alfred-act: crm domain', version: '0.1.0' }
 */
export declare function mcpServerInfo(domain: DomainConfig, version: string): McpServerInfo;

/** The domain a core validates against by default. */
export declare function coreDomain(core: Core): DomainConfig;

/**
 * The four database tools and db_schema, with their input schemas.
 *
 * @example
 * const tools = mcpToolList(core, core.kitchen)
 */
export declare function mcpToolList(core: Core, domain: DomainConfig, options?: { schema?: ToolSchemaMode; readOnly?: boolean }): McpTool[];
/**
 * `resources/list`: the schema description, named after the domain.
 *
 * @example
 * mcpResourceList(domain) // [{ uri: 'alfred-act://schema', name: 'crm schema', title: 'Database schema: crm', … }]
 */
export declare function mcpResourceList(domain?: DomainConfig): McpResource[];
/** The domain's tables and columns as the model reads them (markdown), generated by the core. */
export declare function schemaDescription(core: Core, domain: DomainConfig): Result<string>;
/** `act.callTool`'s result as a CallToolResult. */
export declare function mcpToolResult(result: ToolResult, text?: string): McpToolResult;
/** db_schema's result: the markdown as text, and `{ schema }` as structuredContent. */
export declare function mcpSchemaResult(text: string): McpToolResult;
/** The JSON Schema of a database tool's structuredContent (each tool's `outputSchema`). */
export declare const TOOL_RESULT_SCHEMA: { type: 'object'; [keyword: string]: JsonValue };
/** An error of the MCP layer (unknown tool, session gone, store failed) in the same shape. */
export declare function mcpToolError(tool: string, error: { code: string; message: string; path?: string; hint?: string }): McpToolResult;

/** Who a session belongs to: the verified (or, for stdio, configured) user. */
export interface SessionCaller {
  userId: string;
  accessToken: string;
}

/** What a session store keeps per session (JSON). */
export interface SessionState {
  userId: string;
  /** `registry.toJSON()` after the last call; null before the first. */
  registry: RegistryState | null;
  protocolVersion: string | null;
  /** The client's capabilities from `initialize` (a 2025 session; `elicitation` says it can confirm writes). */
  clientCapabilities?: { [key: string]: JsonValue } | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * Where sessions live between calls. Each method may be sync or async and
 * throws when the store fails. A session put by one user is never returned
 * to another (`get` gives null).
 */
export interface SessionStore {
  get(sessionId: string, caller: SessionCaller): SessionState | null | Promise<SessionState | null>;
  put(sessionId: string, state: SessionState, caller: SessionCaller): void | Promise<void>;
  delete(sessionId: string, caller: SessionCaller): void | Promise<void>;
}

/**
 * Sessions in this process's memory (least recently used dropped past
 * `maxSessions`, default 10 000; idle ones after `idleMs`, default a day).
 *
 * @example
 * const store = new MemorySessionStore({ maxSessions: 1000 })
 */
export declare class MemorySessionStore implements SessionStore {
  constructor(options?: { maxSessions?: number; idleMs?: number; now?: () => number });
  get(sessionId: string, caller: Pick<SessionCaller, 'userId'>): SessionState | null;
  put(sessionId: string, state: SessionState, caller: Pick<SessionCaller, 'userId'>): void;
  delete(sessionId: string, caller: Pick<SessionCaller, 'userId'>): void;
  readonly size: number;
}

/**
 * Sessions in the `act_sessions` table of the user's own database, through
 * PostgREST as the user (row-level security: each user sees only their own).
 *
 * @example
 * const store = new SupabaseSessionStore({ url: SUPABASE_URL, apiKey: anonKey })
 */
export declare class SupabaseSessionStore implements SessionStore {
  constructor(options: { url: string; apiKey: string; fetch?: ActFetch; table?: string });
  get(sessionId: string, caller: SessionCaller): Promise<SessionState | null>;
  put(sessionId: string, state: SessionState, caller: SessionCaller): Promise<void>;
  delete(sessionId: string, caller: SessionCaller): Promise<void>;
}

/** 32 random bytes, base64url. */
export declare function newSessionId(): string;
export declare function openSession(options: { store: SessionStore; sessionId: string; caller: SessionCaller; protocolVersion?: string | null; clientCapabilities?: { [key: string]: JsonValue } | null }): Promise<Result<SessionState>>;
/** null data: no such session for this caller. */
export declare function findSession(options: { store: SessionStore; sessionId: string; caller: SessionCaller }): Promise<Result<SessionState | null>>;
export declare function closeSession(options: { store: SessionStore; sessionId: string; caller: SessionCaller }): Promise<Result<true>>;

/**
 * One `tools/call` in a session, as the user of `actOptions`; never rejects
 * for bad arguments, a missing session or a database failure.
 *
 * @example
 * const result = await callSessionTool({ core, store, sessionId, actOptions: { url, apiKey, accessToken, userId }, name: 'db_read', args: { table: 'inventory' } })
 */
export declare function callSessionTool(options: {
  core: Core;
  store: SessionStore;
  sessionId: string;
  actOptions: ActOptions & { accessToken: string; userId: string };
  name: string;
  args?: JsonValue;
  signal?: AbortSignal;
  /** How a write the act holds for approval is put to the user (default: it cannot be; nothing is sent). */
  confirmation?: McpConfirmation;
}): Promise<McpToolResult>;

/**
 * Asks the user about a write's preview: `accept` runs it (refused with
 * `preview_changed` if it would now touch rows `preview` did not show),
 * `decline` / `cancel` send nothing, `unavailable` means the client cannot be asked.
 */
export type McpConfirmation = (preview: WritePreview) => Promise<{ action: 'accept'; preview?: WritePreview } | { action: 'decline' | 'cancel' | 'unavailable' | 'pending' }>;

/**
 * The id under which a server without sessions (MCP 2026-07-28) keeps one
 * user's refs in a session store: one registry per user and domain.
 *
 * @example
 * userRefsId(domain) // 'alfred-act-refs:crm'
 */
export declare function userRefsId(domain: DomainConfig): string;

/**
 * One `tools/call` without a session: the caller's refs come from `store`
 * (under userRefsId; a fresh registry when they expired) and go back after
 * the call. `{ pending }` when `confirmation` answered `pending` (nothing sent).
 *
 * @example
 * const { result, pending } = await callUserTool({ core, store, actOptions, name: 'db_delete', args, confirmation })
 */
export declare function callUserTool(options: {
  core: Core;
  store: SessionStore;
  actOptions: ActOptions & { accessToken: string; userId: string; domain?: DomainConfig };
  name: string;
  args?: JsonValue;
  signal?: AbortSignal;
  confirmation?: McpConfirmation;
}): Promise<{ result: McpToolResult; pending?: undefined } | { result?: undefined; pending: WritePreview }>;

/** The approve mode of an MCP server unless told another: `'changes'` (updates and deletes ask). */
export declare const DEFAULT_APPROVE: 'changes';

/** The elicitation (form mode) that asks the user about a write's preview: one boolean field, `confirm`. */
export interface McpConfirmationRequest {
  mode: 'form';
  message: string;
  requestedSchema: { type: 'object'; properties: { confirm: { type: 'boolean'; title: string; description: string; default: false } }; required: ['confirm'] };
}

/**
 * The elicitation asking the user about `preview`: what would change, with up to ten rows by ref and label.
 *
 * @example
 * confirmationRequest(preview).message // 'Delete 1 row of recipes: recipe_3 "Shakshuka"?'
 */
export declare function confirmationRequest(preview: WritePreview): McpConfirmationRequest;

/**
 * The user's answer: `accept` only for an accepted form whose `confirm` is true.
 *
 * @example
 * answerOf({ action: 'accept', content: { confirm: true } }) // 'accept'
 */
export declare function answerOf(result: { action?: string; content?: { [key: string]: JsonValue } } | null | undefined): 'accept' | 'decline' | 'cancel';

/**
 * One database tool call on `act`, confirmed through `confirmation` where the act asks for approval.
 *
 * @example
 * const { result } = await runConfirmedCall({ core, act, name: 'db_delete', args, confirmation })
 */
export declare function runConfirmedCall(options: {
  core: Core;
  act: Act;
  name: string;
  args?: JsonValue;
  signal?: AbortSignal;
  confirmation: McpConfirmation;
}): Promise<{ result: ToolResult; pending?: undefined } | { result?: undefined; pending: WritePreview }>;

/**
 * The write policy from `alfred-act mcp`'s flags (`--read-only`, `--tables`,
 * `--approve`, `--max-affected`, `--no-confirm`) and the environment
 * (`ALFRED_READ_ONLY`, `ALFRED_TABLES`, `ALFRED_APPROVE`, `ALFRED_MAX_AFFECTED`, `ALFRED_CONFIRM`).
 *
 * @example
 * readPolicyOptions({ 'read-only': true }, process.env).data // { readOnly: true }
 */
export declare function readPolicyOptions(values: { [flag: string]: string | boolean | undefined }, env?: Record<string, string | undefined>): { data: McpWritePolicy; error: null } | { data: null; error: string };

/**
 * A user's access token read (not verified) for its user id and expiry;
 * service keys, the anon key and tokens without `sub` are refused.
 *
 * @example
 * const { data, error } = readUserToken(session.access_token)
 */
export declare function readUserToken(
  token: string,
  source?: string,
): { data: { accessToken: string; userId: string; expiresAt: number | null }; error: null } | { data: null; error: { code: string; message: string; hint?: string } };

/** Whether `key` is a service key (`sb_secret_…` or a JWT whose role is `service_role`); never one for a user. */
export declare function isServiceKey(key: unknown): boolean;

/** A source of the user's current token: `{ data: { accessToken, userId, expiresAt }, error }`. */
export type AccessTokenSource = () => Promise<
  { data: { accessToken: string; userId: string; expiresAt?: number | null }; error: null } | { data: null; error: { code: string; message: string; hint?: string } }
>;

/**
 * The user's token from a fixed value, a command or a file, fetched again
 * when the last is within a minute of expiring. Node only.
 *
 * @example
 * const getAccessToken = accessTokenSource({ command: 'cat ~/.config/alfred-act/token' })
 */
export declare function accessTokenSource(source: { accessToken: string } | { command: string } | { file: string }): AccessTokenSource;

/** The part of the MCP SDK's `Server` a host uses: connect it to a transport, close it. */
export interface McpSdkServer {
  connect(transport: unknown): Promise<void>;
  close(): Promise<void>;
}

export interface CreateMcpServerOptions {
  /**
   * The domain served: the JSON `alfred-act domain pull` writes. Required
   * unless `core` is given (then the core's own domain by default).
   */
  domain?: DomainConfig;
  /** A loaded core; from `alfred-act/mcp`, one is loaded for `domain` when omitted. */
  core?: Core;
  /** The Supabase URL (PostgREST under /rest/v1) or a PostgREST root. */
  url: string;
  /** The anon (publishable) key; never a service key. */
  apiKey: string;
  /** The signed-in user's access token, fixed; or `getAccessToken` for one that is refreshed. */
  accessToken?: string;
  getAccessToken?: AccessTokenSource;
  /** Where the session's refs live (default a MemorySessionStore). */
  store?: SessionStore;
  /** Resume this session's refs. */
  sessionId?: string;
  fetch?: ActFetch;
  /** `serverInfo.version` (default MCP_SERVER_VERSION). */
  version?: string;
  /** `'compact'` (default: one line per table, the whole schema from db_schema) or `'inline'`. */
  schema?: ToolSchemaMode;
  /** The caps on each tool result (`createAct({ resultLimits })`). */
  resultLimits?: Partial<ResultLimits>;
  /**
   * Turns the text of db_call's `vector` arguments (and semantic search) into
   * vectors, of the size the database's functions take (`createAct({ embedder })`).
   * Default: the lexical embedder for the kitchen
   * demo's domain (its rows were embedded with it); for any other domain,
   * none: a search by meaning is `embedding_failed`, saying what to pass.
   */
  embedder?: Embedder;
}

export interface CreateMcpServerOptions extends McpWritePolicy {}

/**
 * An SDK server whose tools act as the signed-in user on `domain`, for one
 * session; connect it to any SDK transport. Never rejects for a bad option, a
 * refused domain (`invalid_domain` with the `path` into it) or token, or a
 * failing store: those are `error`.
 *
 * @example
 * import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
 * const { data, error } = await createMcpServer({ domain, url: SUPABASE_URL, apiKey: anonKey, accessToken })
 * if (error) throw new Error(`${error.path}: ${error.message} (${error.hint})`)
 * await data.server.connect(new StdioServerTransport())
 */
export declare function createMcpServer(options: CreateMcpServerOptions): Promise<Result<{ server: McpSdkServer; sessionId: string; domain: DomainConfig }>>;

/**
 * The SDK's server module and types, loaded on use (an optional peer
 * dependency); rejects with how to install it.
 *
 * @example
 * const { Server, types } = await loadMcpSdk()
 */
export declare function loadMcpSdk(): Promise<{ Server: unknown; types: unknown }>;

/** Where the served domain comes from, as `alfred-act mcp` was told: a file, a pull at start, or nothing. */
export type McpDomainSource = { file: string } | { pull: { key?: string; dbUrl?: string; ownerColumn?: string; overrides?: string } } | null;

/** `alfred-act mcp`'s configuration. */
export interface McpConfig {
  url: string;
  apiKey: string;
  token: { accessToken: string } | { command: string } | { file: string };
  store: 'memory' | 'supabase';
  sessionId: string | undefined;
  domain: McpDomainSource;
  /** `--schema`: how much of the schema the tool list carries. */
  schema: ToolSchemaMode;
  /** --read-only, --tables, --approve, --max-affected, --no-confirm (and their variables). */
  policy: McpWritePolicy;
  /**
   * --embedding-model, --embedding-url, --embedding-dimensions (ALFRED_EMBEDDING_MODEL, _URL, _DIMENSIONS,
   * _API_KEY): the embedder of an OpenAI-compatible endpoint (`model: 'lexical'`: the offline lexical one);
   * null when none is configured (the demo stack's then gets the lexical one, any other database none).
   */
  embedding: { model: string; baseUrl: string | null; apiKey: string | undefined; dimensions: number | null; given: string } | null;
}

/** `alfred-act mcp --help`. */
export declare const MCP_USAGE: string;

/**
 * `alfred-act mcp`'s configuration from its arguments and environment (a flag
 * wins); `error` is the message for a usage error. Reads and fetches nothing.
 *
 * @example
 * const { data, error } = readMcpConfig(['--domain', 'domain.json'], process.env)
 */
export declare function readMcpConfig(argv: string[], env?: Record<string, string | undefined>): { data: McpConfig; error: null } | { data: null; error: string };

/**
 * Runs `alfred-act mcp` until stdin closes; resolves to the exit code (2 for
 * a usage error, including no domain against a database that is not the
 * local demo stack; 1 for a token, domain file or pull that fails).
 *
 * @example
 * process.exitCode = await runMcpCommand(process.argv.slice(3))
 */
export declare function runMcpCommand(
  argv: string[],
  options?: {
    env?: Record<string, string | undefined>;
    loadCore?: () => Promise<Core>;
    pullDomain?: (options: PullDomainOptions) => Promise<DomainPullResult>;
    stderr?: { write(text: string): unknown };
  },
): Promise<number>;

/** Whether `url` names this machine (localhost, 127.0.0.0/8, ::1). */
export declare function isLoopbackUrl(url: string): boolean;

/**
 * A domain file read and checked by the core; the error names the file, the
 * path into the domain and the hint. Node only.
 *
 * @example
 * const { data: domain, error } = await readDomainFile('domain.json', core)
 */
export declare function readDomainFile(file: string, core: Core): Promise<Result<DomainConfig>>;

/**
 * Whether `url` is the local demo stack: on this machine, with every table
 * and column of `demo` in its schema description (read with the anon key).
 *
 * @example
 * const { data } = await isDemoStack({ url, apiKey: anonKey, demo: core.domain })
 */
export declare function isDemoStack(options: { url: string; apiKey: string; demo: DomainConfig; fetch?: PullDomainOptions['fetch'] }): Promise<{ data: { demo: boolean; reason: string | null }; error: null }>;

/**
 * The domain a server serves: from a file, pulled at start (the secret key
 * used for that one request), or the core's demo domain against the local
 * demo stack only; otherwise an `invalid_option` error at `--domain`.
 *
 * @example
 * const { data, error } = await resolveMcpDomain({ source: { file: 'domain.json' }, url, apiKey, accessToken, core, pullDomain })
 */
export declare function resolveMcpDomain(options: {
  source: McpDomainSource;
  url: string;
  apiKey: string;
  accessToken: string;
  core: Core;
  pullDomain: (options: PullDomainOptions) => Promise<DomainPullResult>;
  fetch?: PullDomainOptions['fetch'];
}): Promise<{ data: { domain: DomainConfig; origin: 'file' | 'pull' | 'demo'; notes: DomainNote[] }; error: null } | { data: null; error: AlfredErrorShape }>;
