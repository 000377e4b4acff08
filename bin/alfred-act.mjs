#!/usr/bin/env node
// The alfred-act command: a small dispatcher. Each command is a module under
// cli/ with a `run(argv)` resolving to the exit code, loaded only when used;
// a tool name (`alfred-act db_read '{…}'`) runs one tool call.
import { TOOLS } from '../cli/tool-call.mjs';

const COMMANDS = {
  call: {
    usage: "<db_read|db_create|db_update|db_delete|db_aggregate|db_call> '<params JSON>' [--json] [--state FILE] [--data-dir DIR] [--user N] [--domain FILE] [--schema PACK]",
    summary: 'run one tool call and show the requests and the tool result the model would read',
    run: async (argv) => (await import('../cli/tool-call.mjs')).runToolCall(argv),
  },
  domain: {
    usage: 'domain pull [--url URL] [--key KEY] [--token JWT] [--db-url POSTGRES_URL] [--overrides FILE] [--out FILE] [--types FILE] [--schema PACK]',
    summary: "derive a domain from a live database's PostgREST description (docs/own-schema.md)",
    run: async (argv) => (await import('../cli/domain.mjs')).runDomainCommand(argv),
  },
  stack: {
    usage: 'stack start [--migrations supabase/migrations] [--seed supabase/seed.sql] [--user EMAIL:PASSWORD ...] [--data DIR] [--api-port N]',
    summary: 'a local Supabase (PostgREST on PGlite, with email sign-in) on your own migrations and seed (docs/local-stack.md)',
    run: async (argv) => (await import('../cli/stack.mjs')).runStackCommand(argv),
  },
  mcp: {
    usage: 'mcp (--domain FILE | --pull [--key KEY]) [--url URL] [--anon-key KEY] [--access-token JWT | --token-command CMD | --token-file FILE] [--store memory|supabase] [--session ID]',
    summary: "the db_ tools over MCP (stdio) on your domain's tables, acting as the signed-in user (docs/mcp.md)",
    run: async (argv) => {
      const [{ runMcpCommand }, { loadCore, pullDomain }] = await Promise.all([import('../web/src/mcp/stdio.js'), import('../web/src/index.node.js')]);
      return runMcpCommand(argv, { loadCore, pullDomain });
    },
  },
};

function usage() {
  const lines = Object.values(COMMANDS).map(({ usage: line, summary }) => `  alfred-act ${line}\n      ${summary}`);
  return `usage:\n${lines.join('\n')}\n\n  alfred-act <command> --help   the command's options`;
}

const given = process.argv.slice(2);
// Flags may come before the tool (`alfred-act --domain domain.json db_read '{…}'`, or before `call`): it goes first.
const toolAt = given[0]?.startsWith('-') ? given.findIndex((arg) => TOOLS.includes(arg) || arg === 'call') : -1;
const [first, ...rest] = toolAt > 0 ? [given[toolAt], ...given.slice(0, toolAt), ...given.slice(toolAt + 1)] : given;
let command;
let argv = rest;
if (TOOLS.includes(first)) {
  command = COMMANDS.call;
  argv = [first, ...rest];
} else if (first === 'call') {
  // `alfred-act call --help`, or `alfred-act call db_read '{…}'`.
  command = COMMANDS.call;
} else if (Object.hasOwn(COMMANDS, first ?? '')) {
  command = COMMANDS[first];
} else if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
  console.log(usage());
  process.exit(first === undefined ? 2 : 0);
} else {
  console.error(`alfred-act: unknown command or tool ${JSON.stringify(first)}\n\n${usage()}`);
  process.exit(2);
}
process.exitCode = await command.run(argv);
