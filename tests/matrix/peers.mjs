// Runs the project's own code against one matrix folder's framework packages:
//   NODE_OPTIONS=--import=<file URL of this file>?matrix=node20 node --test …
// A bare import of a peer (ai, openai, @supabase/supabase-js,
// @modelcontextprotocol/sdk, zod, and their subpaths) made by a file of this
// repository outside any node_modules (the tests, web/src, bin, cli) resolves
// as if it were made from tests/matrix/<name>/, so it gets that folder's
// installed version; the peers' own imports then resolve inside that folder
// as usual. Everything else resolves as it always does. NODE_PATH cannot do
// this: ESM bare imports ignore it. NODE_OPTIONS carries the hook into child
// processes (the test runner's per-file processes, `alfred-act mcp`).
import { register } from 'node:module';

const matrix = new URL(import.meta.url).searchParams.get('matrix');
if (!matrix || !/^[\w-]+$/.test(matrix)) throw new Error(`tests/matrix/peers.mjs: ?matrix=<folder name> is required, got ${JSON.stringify(matrix)}`);

register('./peers-hook.mjs', import.meta.url, {
  data: { root: new URL('../../', import.meta.url).href, dir: new URL(`./${matrix}/`, import.meta.url).href },
});
