// The main job: the backend (a fresh local stack unless SUPABASE_URL is set)
// and a scripted tool-call session against it, each step's executed query
// printed. `--session-only` stops after the session; otherwise the demo page
// and the worker are served on 127.0.0.1 until Ctrl-C.
import { openBackend } from '../cli/backend.mjs';
import { runSession } from './session.mjs';
import { loadCore } from '../web/src/index.node.js';

const sessionOnly = process.argv.includes('--session-only');
const backend = await openBackend();
try {
  console.log(backend.local ? `Local stack: ${backend.url} (signed in as ${backend.local.users[0].email})` : `Backend: ${backend.url}`);
  const core = await loadCore();
  const { url, apiKey, accessToken, userId } = backend;
  const act = core.createAct({ url, apiKey, accessToken, userId });
  const results = await runSession({ core, act });
  const failed = results.filter((result) => result.error);
  console.log(`\nSession: ${results.length} steps, ${failed.length} errors. Registry: ${act.registry.toJSON().refs.length} refs.`);
  if (failed.length) process.exitCode = 1;
} finally {
  if (sessionOnly) await backend.stop();
}
if (!sessionOnly) {
  const { serveApps } = await import('./serve-apps.mjs');
  await serveApps(backend);
}
