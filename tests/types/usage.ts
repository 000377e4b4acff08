// Compile-time checks of web/index.d.ts as a user sees it through the
// package's exports; `@ts-expect-error` lines prove misuse is rejected.
import {
  AlfredError,
  Core,
  Registry,
  STEP_TOOLS,
  TOOL_NAMES,
  kitchen,
  loadCore,
  type AlfredErrorShape,
  type BuildRequestOptions,
  type DomainConfig,
  type FilterClause,
  type HttpRequest,
  type LoadOptions,
  type ReadParams,
  type RegistryState,
  type Result,
  type ToolName,
  type ToolParams,
} from 'alfred-act';
import { SqlFileError, startStack, type Stack, type StackOptions } from 'alfred-act/stack';

declare const precompiled: WebAssembly.Module;
const options: LoadOptions = { wasmModule: precompiled };
const core: Core = await loadCore(options);
await loadCore();
await loadCore({ warmUp: false, maxInputBytes: 1 << 20 });

const domain: DomainConfig = kitchen;
const columnType: 'uuid' | 'text' | 'integer' | 'numeric' | 'boolean' | 'date' | 'timestamp' | 'text[]' | 'uuid[]' | 'tsvector' | 'jsonb' =
  domain.tables['recipes']!.columns['id']!.type;
void columnType;
const custom: DomainConfig = {
  name: 'notes',
  owner_column: 'user_id',
  tables: {
    notes: {
      ref: 'note',
      user_owned: true,
      label: ['title'],
      label_format: '{title}',
      relations: {},
      hidden: ['embedding'],
      columns: {
        id: { type: 'uuid', writable: false, nullable: false },
        title: { type: 'text', required: true },
        kind: { type: 'text', values: ['a', 'b'] },
        parent_id: { type: 'uuid', references: 'notes' },
      },
    },
  },
};

const registry: Registry = core.createRegistry();
const saved: RegistryState = registry.toJSON();
core.createRegistry(saved).delete();
core.createRegistry(JSON.stringify(saved)).delete();
const turn: number = registry.turn;
registry.setTurn(turn + 1);
registry.endTurn();

// The core's rules: tool names, the step rule, the ref grammar, a ref's table.
const tools: readonly ToolName[] = TOOL_NAMES;
const readTools: readonly ToolName[] = STEP_TOOLS.read;
const writeTools: readonly ToolName[] = core.stepTools.write;
const shape: { generated: boolean; prefix: string; number: number } | null = core.parseRef('gen_recipe_1');
const refTable: string | null = registry.tableOf('gen_recipe_1');
void [tools, readTools, writeTools, shape, refTable];
// @ts-expect-error STEP_TOOLS has only the four step types
void STEP_TOOLS.think;

const filter: FilterClause = { field: 'name', op: 'ilike', value: '%chicken%' };
const aliased: FilterClause[] = [
  { field: 'servings', op: 'gte', value: 2 },
  { field: 'id', op: 'not_in', value: ['recipe_1'] },
  { field: 'cuisine', op: 'is_null' },
];
const read: ReadParams = {
  table: 'recipes',
  filters: [filter, ...aliased],
  or_filters: [],
  columns: 'name, recipe_ingredients(name)',
  limit: 10,
  offset: 0,
  order_by: 'name',
  order_dir: 'desc',
  count: 'planned',
};
const requestOptions: BuildRequestOptions = {
  domain: custom,
  registry,
  userId: '11111111-1111-4111-8111-111111111111',
  baseUrl: 'http://127.0.0.1:3000',
  apiKey: 'anon',
  accessToken: 'jwt',
  maxUrlLength: 4000,
};

const result: Result<HttpRequest> = core.buildRequest('db_read', read, requestOptions);
if (result.error) {
  const shape: AlfredErrorShape = result.error;
  const fields: [string, string, string, string] = [shape.code, shape.message, shape.path, shape.hint];
  void fields;
} else {
  const request: HttpRequest = result.data;
  const body: string | null = request.body;
  const header: string | undefined = request.headers['Prefer'];
  void [request.method, request.url, body, header];
}
core.buildRequest('db_create', { table: 'inventory', data: [{ name: 'milk', quantity: 1 }] }, requestOptions);
core.buildRequest('db_update', { table: 'inventory', filters: [filter], data: { quantity: 2 } }, requestOptions);
core.buildRequest('db_delete', { table: 'inventory', filters: [filter] }, requestOptions);

// Model output typed only as "some tool call" is accepted; the core validates it.
declare const call: { name: ToolName; arguments: ToolParams[ToolName] };
core.buildRequest(call.name, call.arguments, requestOptions);

const rows: Result<Array<{ [column: string]: unknown }>> = registry.translateRows('recipes', [{ id: 'x' }], {
  action: 'created',
});
const row = registry.translateRows('recipes', { id: 'x' });
if (row.data) {
  const single: { [column: string]: unknown } = row.data;
  void single;
}
const ref: Result<string> = registry.registerGenerated('recipes', { name: 'Soup' }, { domain: kitchen });
const promoted: Result<string> = registry.promote('gen_recipe_1', '11111111-1111-4111-8111-111111111111', 'Soup');
void [rows, ref, promoted];

{
  using scoped = core.createRegistry();
  void scoped.turn;
}
registry.delete();

try {
  await loadCore({ wasmModule: precompiled });
} catch (e) {
  if (e instanceof AlfredError) {
    const code: string = e.code;
    const json: AlfredErrorShape = e.toJSON();
    void [code, json, e.path, e.hint, e.message];
  }
}
new AlfredError({ code: 'x', message: 'y' });

// @ts-expect-error unknown tool name
core.buildRequest('db_drop', { table: 'recipes' }, requestOptions);
// @ts-expect-error a param no tool has
core.buildRequest('db_read', { table: 'recipes', limt: 5 }, requestOptions);
// @ts-expect-error db_update needs data
core.buildRequest('db_update', { table: 'recipes', filters: [] }, requestOptions);
// @ts-expect-error unsupported operator
const badOp: FilterClause = { field: 'name', op: 'matches', value: 'x' };
// @ts-expect-error url, restUrl or baseUrl is required
const noBase: BuildRequestOptions = { userId: 'u' };
// @ts-expect-error unknown column type
const badColumn: DomainConfig = { tables: { t: { ref: 't', columns: { id: { type: 'serial' } } } } };
// @ts-expect-error the core cannot be constructed directly
new Core();
// @ts-expect-error a registry comes from createRegistry()
new Registry();
// @ts-expect-error url and restUrl exclude each other
const twoBases: BuildRequestOptions = { url: 'https://abcd.supabase.co', restUrl: 'http://127.0.0.1:3000' };
const supabaseBase: BuildRequestOptions = { url: 'https://abcd.supabase.co', accessToken: 'jwt' };
void [badOp, noBase, badColumn, twoBases, supabaseBase];

// The executor and the loop, as a TypeScript user writes them.
export async function executorUsage(core: import('alfred-act').Core, saved: import('alfred-act').RegistryState | null) {
  const { createAct, lexicalEmbedder } = await import('alfred-act');
  const act = createAct({ restUrl: 'http://127.0.0.1:3000', apiKey: 'anon', accessToken: 'jwt', userId: 'u', state: saved, embedder: lexicalEmbedder });
  const { data, error, query, count } = await act.execute('db_read', { table: 'inventory' });
  const direct = core.createAct({ url: 'http://127.0.0.1:54321' });
  // A supabase-js client, typed structurally (supabase-js is not a dependency of the package, and its
  // types need the DOM lib): the public auth.getSession() result union of supabase-js 2.x.
  type SessionResult =
    | { data: { session: { access_token: string; refresh_token: string } }; error: null }
    | { data: { session: null }; error: Error }
    | { data: { session: null }; error: null };
  const supabase = { auth: { getSession: async (): Promise<SessionResult> => ({ data: { session: null }, error: null }) }, from: (table: string) => table };
  const withSession = createAct({ supabase });
  const withGetter = createAct({ url: 'https://abcd.supabase.co', apiKey: 'anon', accessToken: async () => 'jwt' });
  const withSyncGetter = core.createAct({ url: 'https://abcd.supabase.co', accessToken: () => null });
  // @ts-expect-error supabase brings its own URL
  createAct({ supabase, url: 'https://abcd.supabase.co' });
  // @ts-expect-error accessToken is a string or a function returning one
  createAct({ url: 'https://abcd.supabase.co', accessToken: 42 });
  void [withSession, withGetter, withSyncGetter];
  const rows: unknown = data;
  return [rows, error?.code, query?.table, count, direct.registry.toJSON()];
}

// Limits: the defaults, per act, and the error fields of a failed exchange.
export async function limitsUsage(core: import('alfred-act').Core) {
  const defaults: Readonly<import('alfred-act').ExecutionLimits> = core.executionLimits;
  const act = core.createAct({ url: 'http://127.0.0.1:3000', limits: { maxRows: 500, maxResponseBytes: defaults.maxResponseBytes }, timeoutMs: 5000 });
  const rows: number = act.limits.maxRows;
  const { error } = await act.execute('db_read', { table: 'tasks' });
  const status: number | undefined = error?.code === 'write_outcome_unknown' ? error.status : undefined;
  const raw: string | undefined = error?.rawBody;
  const input: number = core.maxInputBytes;
  return [input, rows, status, raw];
}

// What reaches the model: result caps, a compact or inline tool list, and a cut result's fields.
export async function resultLimitsUsage(core: import('alfred-act').Core) {
  const act = core.createAct({ url: 'http://127.0.0.1:3000', resultLimits: { rows: 20 } });
  const caps: import('alfred-act').ResultLimits = act.resultLimits;
  const compact = act.tools({ strict: true });
  const inline = core.toolDefinitions({ schema: 'inline' });
  // @ts-expect-error schema is 'compact' or 'inline'
  act.tools({ schema: 'full' });
  const result = await act.callTool('db_read', { table: 'tasks' });
  const cut: [true | undefined, number | undefined, string | undefined] | null = result.ok ? [result.truncated, result.shown, result.hint] : null;
  const capped = core.toolResult('db_read', await act.execute('db_read', { table: 'tasks' }), { registry: act.registry, resultLimits: { chars: 4000 } });
  return [caps.rows, caps.chars, compact.length, inline.length, cut, capped.ok];
}

// A domain pulled from a live database, with overrides.
export async function domainPullUsage(core: import('alfred-act').Core, spec: Record<string, unknown>) {
  const { domainFromOpenApi, pullDomain, createAct } = await import('alfred-act');
  const overrides: import('alfred-act').DomainOverrides = {
    name: 'crm',
    tables: { deals: { ref: 'deal', columns: { stage: { values: ['lead', 'won'] }, notes: null } }, activity_log: null },
  };
  const fromSpec = await domainFromOpenApi(spec, overrides, { ownerColumn: 'owner_id' });
  const pulled = await pullDomain({ url: 'http://127.0.0.1:3000', apiKey: 'anon', accessToken: 'jwt', overrides, core });
  // Per table: the key, the owner (any name, or none), the scope; the catalog as facts or as a query function.
  const perTable: import('alfred-act').DomainOverrides = {
    tables: { channel_members: { key: ['channel_id', 'member_id'], owner: 'member_id' }, todos: { owner: 'author_id', scope: 'owner' }, tags: { owner: null } },
  };
  const query = async (sql: string) => ({ rows: [{ sql }] });
  const withCatalog = await pullDomain({ url: 'http://127.0.0.1:3000', apiKey: 'secret', catalog: query, overrides: perTable, defaultName: 'chat', core });
  const facts: import('alfred-act').CatalogFacts = { schema: 'public', tables: { todos: { kind: 'table', rls: true, privileges: null, policies: [], references: {} } } };
  const sync = core.domainFromOpenApi(spec, overrides, { catalog: facts });
  // Functions: an opt-in, a read, an argument's table; null leaves one out.
  const withFunctions: import('alfred-act').DomainOverrides = {
    functions: { get_account_members: { expose: true, read: true, args: { account_id: { references: 'accounts' } } }, purge: null },
  };
  const saved: import('alfred-act').CatalogFacts = { ...facts, referencedTables: [], functions: [] };
  if (withCatalog.data) {
    const called: import('alfred-act').FunctionConfig | undefined = withCatalog.data.functions?.get_accounts;
    const exposed: boolean | undefined = withCatalog.data.tables.accounts?.exposed;
    void [called, exposed];
  }
  void [withFunctions, saved];
  // @ts-expect-error a scope is "rls" or "owner"
  const badScope: import('alfred-act').DomainOverrides = { tables: { todos: { scope: 'mine' } } };
  void [withCatalog, badScope];
  const checked = core.validateDomain('{"tables": {}}');
  const notes: import('alfred-act').DomainNote[] = fromSpec.notes;
  if (pulled.error) return [pulled.error.path, pulled.error.hint, notes];
  const act = createAct({ url: 'http://127.0.0.1:3000', domain: pulled.data });
  // @ts-expect-error a column override is settings, not a type name
  const bad: import('alfred-act').DomainOverrides = { tables: { deals: { columns: { stage: 'text' } } } };
  return [act, sync.data?.tables, checked.error?.code, bad];
}

export function promptExamplesUsage(core: import('alfred-act').Core, domain: DomainConfig) {
  const examples: Result<Record<string, string>> = core.promptExamples(domain);
  const withOwn: DomainConfig = { ...domain, prompt_examples: { assistant_role: 'a helpful sales assistant' } };
  return [examples.data?.gen_ref, withOwn];
}

// Access-token verification (web/jwt-verify.d.ts).
import { createTokenVerifier, verifyAccessToken, TOKEN_ERROR_STATUS, type TokenErrorCode, type VerifyResult } from 'alfred-act';
const verifier = createTokenVerifier({ jwtSecret: 'x'.repeat(32), jwksUrl: 'https://example.supabase.co/auth/v1/.well-known/jwks.json', audience: null });
const verified: VerifyResult = await verifier.verify('token');
if (verified.error) {
  const code: TokenErrorCode = verified.error.code;
  const status: 401 | 503 = TOKEN_ERROR_STATUS[code];
  void status;
} else {
  const userId: string = verified.data.userId;
  void userId;
}
await verifyAccessToken('token', { jwks: { keys: [{ kty: 'EC', crv: 'P-256', x: '', y: '', kid: 'k' }] } });
// @ts-expect-error roles is a list of strings
createTokenVerifier({ jwtSecret: 'x', roles: 'authenticated' });

// One definition of every type: a loaded core and an act are what the loop takes.
import { createTurnState, runTurn, type ExecuteResult, type Row } from 'alfred-act';
import wasm from 'alfred-act/alfred_core.wasm';
export async function loopUsage(model: import('alfred-act').ChatModel, cdnUrl: URL) {
  const loaded = await loadCore({ wasm });
  await loadCore({ wasm: cdnUrl });
  const act = loaded.createAct({ url: 'http://127.0.0.1:3000' });
  const { status } = await runTurn({ core: loaded, act, model, turn: { userMessage: 'hi' }, state: createTurnState() });
  const result: ExecuteResult = await act.execute('db_read', { table: 'inventory' });
  if (result.error) {
    const missing: null = result.data;
    const code: string = result.error.code;
    void missing, code;
  } else {
    const rows: Row[] | Row = result.data;
    void rows;
  }
  return status;
}

// The MCP layer (web/mcp.d.ts): tools, sessions and a store of one's own.
import { callSessionTool, mcpToolList, MemorySessionStore, openSession, readUserToken, type SessionStore, type SessionState } from 'alfred-act';
async function mcpUsage(core: Core) {
  const tools = mcpToolList(core, core.kitchen);
  const names: string[] = tools.map((tool) => tool.name);
  const kept = new Map<string, SessionState>();
  const custom: SessionStore = {
    get: (id, { userId }) => kept.get(`${userId}/${id}`) ?? null,
    put: async (id, state, { userId }) => void kept.set(`${userId}/${id}`, state),
    delete: (id, { userId }) => void kept.delete(`${userId}/${id}`),
  };
  const store: SessionStore = new MemorySessionStore({ maxSessions: 10 });
  const caller = { userId: 'u', accessToken: 't' };
  await openSession({ store: custom, sessionId: 's', caller });
  const result = await callSessionTool({ core, store, sessionId: 's', actOptions: { url: 'http://127.0.0.1:3000', ...caller }, name: 'db_read', args: { table: 'inventory' } });
  const text: string = result.content[0].text;
  const token = readUserToken('jwt');
  const userId: string | undefined = token.data?.userId;
  return [names, text, result.isError, userId];
}
void mcpUsage;

// alfred-act/stack: the local Supabase on an app's own migrations.

const stackOptions: StackOptions = {
  migrations: 'supabase/migrations',
  seed: 'supabase/seed.sql',
  users: [{ email: 'ada@example.com', password: 'ada-password', user_metadata: { full_name: 'Ada' } }],
  accessTokenHook: 'public.custom_access_token_hook',
};
try {
  const stack: Stack = await startStack(stackOptions);
  const { id, token, refreshToken }: { id: string; token: string; refreshToken: string } = stack.users[0]!;
  const urls: string[] = [stack.supabaseUrl, stack.authUrl, stack.restUrl];
  const pack: string | null = stack.schema;
  void id, token, refreshToken, urls, pack;
  await stack.stop();
} catch (error) {
  if (error instanceof SqlFileError) {
    const where: string = `${error.file}:${error.line}: ${error.pgMessage} (${error.code})`;
    void where;
  }
}
await startStack({ schema: 'crm', seed: false });
// @ts-expect-error seed is a boolean, a path or a list of paths
await startStack({ migrations: 'supabase/migrations', seed: 1 });
// @ts-expect-error a user needs a password
await startStack({ users: [{ email: 'ada@example.com' }] });

// The safety controls: options, the held write's preview, the host's approval, the audit entries.
export async function safetyUsage(core: import('alfred-act').Core) {
  const entries: import('alfred-act').AuditEntry[] = [];
  const act = core.createAct({
    url: 'http://127.0.0.1:3000',
    readOnly: false,
    tables: ['inventory'],
    approve: async (call, preview) => call.tool !== 'db_delete' || preview.count <= 3,
    maxAffected: 20,
    onAudit: (entry) => {
      entries.push(entry);
    },
  });
  const policy: import('alfred-act').ActPolicy = act.policy;
  const held = await act.execute('db_delete', { table: 'inventory', filters: [{ field: 'id', op: '=', value: 'inv_1' }] });
  if (held.error?.code === 'approval_required' && held.error.preview) {
    const preview: import('alfred-act').WritePreview = held.error.preview;
    const shown: number = preview.rows.length + preview.count;
    await act.execute('db_delete', { table: 'inventory', filters: [{ field: 'id', op: '=', value: 'inv_1' }] }, { approved: true, preview });
    void shown;
  }
  const result = await act.callTool('db_delete', '{"table":"inventory","filters":[]}', { approved: true });
  if (!result.ok && result.error.preview) {
    const count: number = result.error.preview.count;
    void count;
  }
  const entry = entries[0];
  const audited: [string | null, number | null, boolean | null] | undefined = entry && [entry.request?.method ?? null, entry.affected, entry.approved];
  const readOnlyTools: readonly import('alfred-act').ToolDefinition[] = core.toolDefinitions({ readOnly: true });
  core.createAct({ url: 'http://127.0.0.1:3000', approve: 'deletes' });
  // @ts-expect-error approve is 'none', 'deletes', 'changes', 'writes' or a function
  core.createAct({ url: 'http://127.0.0.1:3000', approve: 'always' });
  // @ts-expect-error approved is the host's boolean
  await act.execute('db_read', { table: 'inventory' }, { approved: 'yes' });
  // The error is a union on code: approval_required and preview_changed always carry the preview.
  const again = await act.execute('db_update', { table: 'inventory', filters: [{ field: 'id', op: '=', value: 'inv_1' }], data: { quantity: 0 } });
  if (again.error?.code === 'approval_required' || again.error?.code === 'preview_changed') {
    const preview: import('alfred-act').WritePreview = again.error.preview;
    void preview;
  } else if (again.error) {
    // @ts-expect-error other errors have no preview
    const none: import('alfred-act').WritePreview = again.error.preview;
    void none;
  }
  return [policy.maxAffected, audited, readOnlyTools.length];
}

// Without a domain's types, execute still checks what every domain shares: the tool
// names, the filter ops (aliases included) and the params each tool takes.
export async function strictToolsUsage(core: import('alfred-act').Core) {
  const act = core.createAct({ url: 'http://127.0.0.1:3000' });
  await act.execute('db_read', { table: 'anything', filters: [{ field: 'qty', op: '==', value: 1 }, { field: 'name', op: 'not ilike', value: 'x%' }] });
  await act.execute('db_call', { function: 'archive_project', args: { project_id: 'project_2' } });
  await act.execute('db_aggregate', { table: 'deals', metrics: [{ fn: 'sum', field: 'amount' }], order_by: { metric: 0, dir: 'desc' } });
  // @ts-expect-error a misspelt tool
  await act.execute('db_raed', { table: 'inventory' });
  // @ts-expect-error an op the core has under no spelling
  await act.execute('db_read', { table: 'inventory', filters: [{ field: 'qty', op: '===', value: 1 }] });
  // @ts-expect-error a param db_read does not take
  await act.execute('db_read', { table: 'inventory', limt: 5 });
  // @ts-expect-error a filter's value is value, not valeu
  await act.execute('db_delete', { table: 'inventory', filters: [{ field: 'id', op: '=', valeu: 'inv_1' }] });
  // @ts-expect-error db_update needs data
  await act.execute('db_update', { table: 'inventory', filters: [] });
  // @ts-expect-error a metric names its fn
  await act.execute('db_aggregate', { table: 'deals', metrics: [{ field: 'amount' }] });
  // @ts-expect-error db_call names its function
  await act.execute('db_call', { args: {} });
  // A tool call from a model is a string until the core checks it.
  const name: string = JSON.parse('"db_read"');
  await act.callTool(name, '{"table":"inventory"}');
  await act.callToolText(name, { table: 'inventory' });
}
