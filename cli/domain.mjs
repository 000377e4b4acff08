// `alfred-act domain pull`: derives a domain from a live database through
// PostgREST's OpenAPI description, merges overrides and validates it with the
// core (docs/own-schema.md). Prints the domain JSON (or writes --out) and the
// notes on what was left out; exit 1 with path, message and hint on an error.
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { formatDomain } from '../web/src/domain-pull.js';
import { loadCore, pullDomain } from '../web/src/index.node.js';

export const DOMAIN_USAGE = `usage: alfred-act domain pull [--url URL] [--key KEY] [--token JWT] [--owner-column NAME]
                              [--overrides FILE] [--out FILE] [--name NAME] [--schema PACK]

  Derives a domain from the database behind URL (the Supabase URL; PostgREST is under /rest/v1),
  from PostgREST's OpenAPI description, and checks it with the core's domain parser.

  --url URL            default SUPABASE_URL; without either, a fresh local stack (--schema)
  --key KEY            the API key sent as apikey (default SUPABASE_ANON_KEY). Hosted Supabase
                       describes the schema only for a secret (service-role) key: pass it here;
                       it is used for this one request, never stored, never used by the Act
  --token JWT          a signed-in user's JWT, sent as the bearer (default ALFRED_ACCESS_TOKEN;
                       optional)
  --owner-column NAME  the uuid column RLS compares with auth.uid(); needed when no column
                       defaults to auth.uid()
  --overrides FILE     JSON merged on top of what was derived (per table, per column; null removes)
  --out FILE           write the domain there instead of printing it
  --name NAME          the domain's name (default: the overrides' "name", else "database")
  --schema PACK        the local stack's domain pack when no URL is given: kitchen (default) or crm`;

async function readJson(file, what) {
  let text;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    throw new Error(`cannot read ${what} ${file}: ${cause.message}`);
  }
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new Error(`${what} ${file} is not JSON: ${cause.message}`);
  }
}

/** Runs `domain <subcommand> …`; resolves to the exit code. */
export async function runDomainCommand(argv, { env = process.env, stdout = process.stdout, stderr = process.stderr } = {}) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        url: { type: 'string' },
        key: { type: 'string' },
        token: { type: 'string' },
        'owner-column': { type: 'string' },
        overrides: { type: 'string' },
        out: { type: 'string' },
        name: { type: 'string' },
        schema: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (cause) {
    stderr.write(`${cause.message}\n\n${DOMAIN_USAGE}\n`);
    return 2;
  }
  const { values: flags, positionals } = parsed;
  if (flags.help) {
    stdout.write(`${DOMAIN_USAGE}\n`);
    return 0;
  }
  if (positionals[0] !== 'pull' || positionals.length > 1) {
    stderr.write(`${DOMAIN_USAGE}\n`);
    return 2;
  }

  let overrides;
  try {
    overrides = flags.overrides ? await readJson(flags.overrides, 'overrides file') : undefined;
  } catch (cause) {
    stderr.write(`${cause.message}\n`);
    return 1;
  }
  const url = flags.url ?? env.SUPABASE_URL;
  let stack = null;
  let source;
  if (url) {
    source = { url, apiKey: flags.key ?? env.SUPABASE_ANON_KEY ?? '', accessToken: flags.token ?? env.ALFRED_ACCESS_TOKEN ?? '' };
  } else {
    const { startStack } = await import('../db/stack.mjs');
    stack = await startStack({ schema: flags.schema ?? 'kitchen' });
    source = { url: stack.supabaseUrl, apiKey: stack.anonKey, accessToken: stack.users[0].token };
    stderr.write(`no --url or SUPABASE_URL: pulled from a fresh local stack (${stack.schema} schema)\n`);
  }
  try {
    const core = await loadCore();
    const { data: domain, error, notes } = await pullDomain({
      ...source,
      core,
      overrides,
      ownerColumn: flags['owner-column'],
      name: flags.name ?? overrides?.name,
    });
    for (const note of notes) stderr.write(`note: ${note.path}: ${note.message}\n`);
    if (error) {
      stderr.write(`error ${error.code}${error.path ? ` at ${error.path}` : ''}: ${error.message}\n${error.hint ? `hint: ${error.hint}\n` : ''}`);
      return 1;
    }
    const text = `${formatDomain(domain)}\n`;
    if (flags.out) {
      await writeFile(flags.out, text);
      stderr.write(`wrote ${flags.out}: ${Object.keys(domain.tables).length} tables (${Object.keys(domain.tables).join(', ')}), owner column ${domain.owner_column}\n`);
    } else {
      stdout.write(text);
    }
    return 0;
  } finally {
    await stack?.stop();
  }
}
