// The same worker under Deno: `Deno.serve` on 127.0.0.1, config from the
// environment. Run from the repository root:
//   deno run --allow-net --allow-env --config worker/deno.json worker/deno.js
// PORT picks the port (default 8787; 0 for any free one).
import handler from './src/handler.js';
import { WORKER_VARIABLES } from './src/variables.js';

const env = Object.fromEntries(WORKER_VARIABLES.map((name) => [name, Deno.env.get(name)]).filter(([, value]) => value !== undefined));

// Deno has no ExecutionContext; a turn's stream keeps the request alive by itself.
const ctx = { waitUntil: (promise) => promise.catch(() => {}), passThroughOnException() {} };

Deno.serve(
  {
    hostname: '127.0.0.1',
    port: Number(Deno.env.get('PORT') ?? 8787),
    onListen: ({ hostname, port }) => console.log(`alfred-act worker (Deno) listening on http://${hostname}:${port}`),
  },
  (request) => handler.fetch(request, env, ctx),
);
