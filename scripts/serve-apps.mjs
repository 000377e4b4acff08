// The serving half of the main job: the browser demo and the edge worker (in
// workerd, as Cloudflare runs it) on 127.0.0.1, both against `backend`, until
// Ctrl-C. A model from OPENAI_API_KEY / OPENAI_BASE_URL is offered to both.
import { modelConfigFromEnv } from '../web/src/llm.js';
import { startWorkerd } from '../worker/local.mjs';
import { WORKER_VARIABLES } from '../web/src/worker/variables.js';
import { startDemoServer } from './serve-demo.mjs';

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
  console.log(`
Demo page:  ${demo.url}
Worker:     ${worker.url}  (POST /act/execute, POST /act/turn with Authorization: Bearer <user JWT>)
Model:      ${model ? `${model.model} at ${model.baseUrl}` : 'none configured (the page offers manual tool calls and a recorded replay; set OPENAI_API_KEY or OPENAI_BASE_URL for a live model)'}
Press Ctrl-C to stop.`);
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
