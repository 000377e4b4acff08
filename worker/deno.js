// The same worker under Deno: `Deno.serve` on 127.0.0.1, its configuration
// from the environment. From this folder, after `npm install alfred-act`:
//   deno run --allow-net --allow-env --config deno.json deno.js
// PORT picks the port (default 8787; 0 for any free one).
import { WORKER_VARIABLES } from 'alfred-act/worker';
import handler from './src/index.js';

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
