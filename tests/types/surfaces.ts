// Compile-time checks of alfred-act/mcp, alfred-act/loop, alfred-act/worker and
// alfred-act/worker/durable as a user sees them, through the package exports,
// with no DOM or Workers lib (the declarations must stand alone).
import { loadCore, type DomainConfig, type Embedder } from 'alfred-act';
import { createMcpServer, accessTokenSource, readMcpConfig, MemorySessionStore, mcpInstructions, type McpConfig } from 'alfred-act/mcp';
import { createHandler, MemoryLimitStore, WORKER_VARIABLES, type WorkerHandler } from 'alfred-act/worker';
import { DurableObjectLimitStore, durableLimitStore, LimitCounter } from 'alfred-act/worker/durable';
import { createTurnState, readTurnState, runTurn, STEP_TOOLS, type TurnState } from 'alfred-act/loop';

declare const domain: DomainConfig;
declare const request: Request;

const served = await createMcpServer({ domain, url: 'http://127.0.0.1:54321', apiKey: 'anon', accessToken: 'jwt' });
if (served.error) {
  const path: string = served.error.path;
  void path;
} else {
  await served.data.server.connect({});
  const sessionId: string = served.data.sessionId;
  void sessionId;
}
const core = await loadCore({ domain });
await createMcpServer({ core, url: 'http://127.0.0.1:54321', apiKey: 'anon', getAccessToken: accessTokenSource({ command: 'cat token' }), store: new MemorySessionStore() });
// @ts-expect-error url is required
await createMcpServer({ domain, apiKey: 'anon', accessToken: 'jwt' });
// The write policy: read-only, an allow-list, which writes ask, a cap; confirm: false runs writes unasked.
await createMcpServer({ domain, url: 'http://127.0.0.1:54321', apiKey: 'anon', accessToken: 'jwt', readOnly: true, tables: ['deals'], approve: 'writes', maxAffected: 20 });
await createMcpServer({ domain, url: 'http://127.0.0.1:54321', apiKey: 'anon', accessToken: 'jwt', confirm: false });
// @ts-expect-error approve is one of none, deletes, writes
await createMcpServer({ domain, url: 'http://127.0.0.1:54321', apiKey: 'anon', accessToken: 'jwt', approve: 'all' });
// The embedder of the database's vectors, for functions that take one.
declare const embedder: Embedder;
await createMcpServer({ domain, url: 'http://127.0.0.1:54321', apiKey: 'anon', accessToken: 'jwt', embedder });
// @ts-expect-error an embedder has embed(texts)
await createMcpServer({ domain, url: 'http://127.0.0.1:54321', apiKey: 'anon', accessToken: 'jwt', embedder: { name: 'x' } });
const config = readMcpConfig(['--domain', 'domain.json']);
if (config.data) {
  const source: McpConfig['domain'] = config.data.domain;
  void source;
}
const instructions: string = mcpInstructions(domain);
void instructions;

const handler: WorkerHandler = createHandler({ domain, limitStore: () => new MemoryLimitStore() });
const response: Response = await handler.fetch(request, { SUPABASE_URL: 'https://abcd.supabase.co' }, { waitUntil() {} });
void response;
// @ts-expect-error the domain is required
createHandler({});
createHandler({ domain, readOnly: false, tables: ['deals', 'contacts'], approve: 'deletes', maxAffected: 50, confirm: true });
createHandler({ domain, embedder });
createHandler({ domain, embedder: (env) => ({ name: 'binding', dimensions: 384, embed: async (texts) => texts.map(() => [env.AI ? 1 : 0]) }) });
const durable = createHandler({ domain, limitStore: durableLimitStore('LIMITS') });
void durable;
declare const namespace: ConstructorParameters<typeof DurableObjectLimitStore>[0];
createHandler({ domain, limitStore: () => new DurableObjectLimitStore(namespace) });
const names: readonly string[] = WORKER_VARIABLES;
void names, LimitCounter;

// alfred-act/loop: the turn state is one JSON value, read back checked.
const turnState: TurnState = createTurnState();
const readBack = readTurnState(JSON.parse(JSON.stringify(turnState)));
if (!readBack.error) {
  const again: TurnState = readBack.data;
  void again;
}
const readTools: readonly string[] = STEP_TOOLS.read;
void readTools, runTurn;
