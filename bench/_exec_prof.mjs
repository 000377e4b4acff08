import { startStack } from '../db/stack.mjs';
import { loadCore } from '../build/webprof/src/index.node.js';
const stack = await startStack();
try {
  const core = await loadCore();
  const [user] = stack.users;
  const act = core.createAct({ restUrl: stack.url, apiKey: stack.anonKey, accessToken: user.token, userId: user.id });
  const params = JSON.parse(process.argv[2] ?? '{"table":"recipes","limit":20}');
  for (let i = 0; i < 20; i++) await act.execute('db_read', params);
  const t = performance.now();
  for (let i = 0; i < 600; i++) { const r = await act.execute('db_read', params); if (r.error) throw new Error(r.error.message); }
  console.log('per execute', ((performance.now() - t) / 600).toFixed(2), 'ms');
} finally { await stack.stop(); }
