#!/usr/bin/env node
// Runs one tool call against the configured backend (the embedded local stack
// by default) and prints the requests sent, the result as the model sees it
// and the executed-query summary: the first thing to reach for when a tool
// call misbehaves.
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { openBackend } from '../scripts/backend.mjs';
import { loadCore } from '../web/src/index.node.js';
import { runMcpCommand } from '../web/src/mcp/stdio.js';

const USAGE = `usage: alfred-act <db_read|db_create|db_update|db_delete> '<params JSON>' [--state FILE] [--user N] [--json]

  --state FILE  keep the ref registry between calls (read before, written after)
  --user N      the local stack's seeded user to sign in as (0 or 1; default 0)
  --json        print the whole { data, error, query, count } result as JSON

Backend: SUPABASE_URL, SUPABASE_ANON_KEY, ALFRED_ACCESS_TOKEN and ALFRED_USER_ID
from the environment, else a fresh local stack (PGlite + PostgREST) with demo data.`;

// `alfred-act mcp …`: the MCP server over stdio (web/src/mcp/stdio.js).
if (process.argv[2] === 'mcp') process.exit(await runMcpCommand(process.argv.slice(3), { loadCore }));

const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: { state: { type: 'string' }, user: { type: 'string', default: '0' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
});
if (flags.help || positionals.length < 1) {
  console.log(USAGE);
  process.exit(flags.help ? 0 : 2);
}
const [tool, paramsText = '{}'] = positionals;
let params;
try {
  params = JSON.parse(paramsText);
} catch (cause) {
  console.error(`params are not JSON: ${cause.message}`);
  process.exit(2);
}

async function readState(file) {
  try {
    return await readFile(file, 'utf8');
  } catch (cause) {
    if (cause.code === 'ENOENT') return undefined;
    throw cause;
  }
}

const backend = await openBackend(process.env, { user: Number(flags.user) });
try {
  const core = await loadCore();
  const state = flags.state ? await readState(flags.state) : undefined;
  // A pass-through fetch that shows every request the executor sends.
  const showingFetch = async (url, init) => {
    console.log(`→ ${init.method} ${decodeURIComponent(url)}${init.body ? `\n  body: ${init.body.slice(0, 500)}` : ''}`);
    const response = await fetch(url, init);
    console.log(`← ${response.status}${response.headers.get('content-range') ? ` (Content-Range ${response.headers.get('content-range')})` : ''}`);
    return response;
  };
  const act = core.createAct({ ...backend, fetch: showingFetch, state });
  const result = await act.execute(tool, params);
  if (flags.json) {
    console.log(JSON.stringify(result, null, 2));
  } else {
    console.log(`\nResult as the model sees it:\n${JSON.stringify(result.error ? { error: result.error } : result.data, null, 2)}`);
    console.log(`\n${core.renderQuery(result).data ?? JSON.stringify(result.query)}`);
  }
  if (flags.state) await writeFile(flags.state, JSON.stringify(act.registry.toJSON()));
  process.exitCode = result.error ? 1 : 0;
} finally {
  await backend.stop();
}
