// The serving half of the main job: the browser demo and the edge worker (in
// workerd, as Cloudflare runs it) on 127.0.0.1, both against `backend`, until
// Ctrl-C. A model from OPENAI_API_KEY / OPENAI_BASE_URL is offered to both.
import { modelConfigFromEnv } from '../web/src/llm/index.js';
import { startWorkerd } from './serve-worker.mjs';
import { WORKER_VARIABLES } from '../web/src/worker/variables.js';
import { startDemoServer } from './serve-demo.mjs';

/**
 * What a newcomer needs once everything runs: the URLs, a signed-in user's
 * token, the worker's routes with a request to paste, and the configuration
 * an MCP client (Claude Desktop, Cursor) takes for the same user.
 *
 * @example
 * console.log(newcomerText({ backend, users, demo, worker, model }))
 */
export function newcomerText({ backend, users, demo, worker, model }) {
  const [user] = users;
  const mcpConfig = {
    mcpServers: {
      'alfred-act': {
        command: 'npx',
        args: ['alfred-act', 'mcp', ...(backend.domainFile ? ['--domain', backend.domainFile] : [])],
        env: { SUPABASE_URL: backend.url, SUPABASE_ANON_KEY: backend.apiKey, SUPABASE_ACCESS_TOKEN: user?.token ?? '<user JWT>' },
      },
    },
  };
  return `
Demo page:    ${demo.url}
Supabase URL: ${backend.url}   (anon key ${backend.apiKey})
Signed in:    ${user?.email ?? 'no user'}${user ? `\n  token       ${user.token}` : ''}
Worker:       ${worker.url}
  POST ${worker.url}/act/execute   one tool call: {"tool":"db_read","params":{"table":"inventory"}}
  POST ${worker.url}/act/turn      a whole turn as server-sent events: {"message":"what is in my fridge?"}
  POST ${worker.url}/mcp           MCP over Streamable HTTP (Authorization: Bearer <token>)
  try:  TOKEN=${user?.token ?? '<token>'}
        curl -s ${worker.url}/act/execute -H "authorization: Bearer $TOKEN" -H 'content-type: application/json' \\
          -d '{"tool":"db_read","params":{"table":"inventory","limit":3}}'
MCP client configuration (claude_desktop_config.json, .cursor/mcp.json), stdio as the signed-in user:
${JSON.stringify(mcpConfig, null, 2)}
Model:        ${model ? `${model.model} at ${model.baseUrl}` : 'none configured (the page offers manual tool calls and a recorded replay; set OPENAI_API_KEY or OPENAI_BASE_URL for a live model)'}
Press Ctrl-C to stop.`;
}

export async function serveApps(backend, env = process.env) {
  const model = modelConfigFromEnv(env);
  const users = backend.local
    ? backend.local.users
    : [{ id: backend.userId, email: 'configured user', token: backend.accessToken }];
  const demo = await startDemoServer({ supabase: { url: backend.url, anonKey: backend.apiKey }, users, model });
  const workerEnv = {};
  for (const name of WORKER_VARIABLES) if (env[name]) workerEnv[name] = env[name];
  Object.assign(workerEnv, { SUPABASE_URL: backend.url, SUPABASE_ANON_KEY: backend.apiKey });
  // The local stack's tokens are HS256 with its own secret; a hosted backend
  // brings SUPABASE_JWT_SECRET / SUPABASE_JWKS_URL from the environment.
  if (backend.local) workerEnv.SUPABASE_JWT_SECRET = backend.local.jwtSecret;
  // The local stack's own pack; for a configured backend ALFRED_DOMAIN (a pulled domain file), else the kitchen demo.
  const worker = await startWorkerd({ env: workerEnv, domain: backend.domain ?? (env.ALFRED_DOMAIN || undefined) });
  console.log(newcomerText({ backend, users, demo, worker, model }));
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await Promise.allSettled([demo.close(), worker.stop()]);
    await backend.stop();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
