// The code blocks of docs/mcp.md (and of the README's "Use as an MCP server"
// section) hold: the client configurations are JSON that configures the
// server, the commands' variables and flags are ones it reads, and the SQL
// shown is the migration's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { anonKey, newJwtSecret, signJwt } from '../../db/jwt.mjs';
import { readMcpConfig } from '../../web/src/mcp/stdio.js';
import { ROOT } from './support/paths.mjs';

const secret = newJwtSecret();
const userToken = signJwt({ sub: 'u', role: 'authenticated' }, secret);
// Signed once: two signings a second apart differ in `iat`.
const anonToken = anonKey(secret);

/** The fenced blocks of `markdown`: `[{ lang, text }]`. */
function codeBlocks(markdown) {
  return [...markdown.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map(([, lang, text]) => ({ lang, text }));
}

/** `VAR=value … <command> mcp [flags]` → the variables and the flags after `mcp`, placeholders filled in. */
function commandLine(line) {
  const filled = line.replace(/<anon key>/g, anonToken).replace(/<user JWT>/g, userToken).replace(/<ref>/g, 'abcd').replace(/<secret key>/g, 'sb_secret_abcd');
  const words = filled.split(/\s+/);
  const env = {};
  while (/^[A-Z_]+=/.test(words[0])) {
    const [name, ...value] = words.shift().split('=');
    env[name] = value.join('=');
  }
  const at = words.indexOf('mcp');
  assert.ok(at > 0, `no "mcp" command in ${line}`);
  return { env, argv: words.slice(at + 1) };
}

const docs = await readFile(join(ROOT, 'docs/mcp.md'), 'utf8');
const blocks = codeBlocks(docs);

/** The `… mcp …` command lines of the sh blocks (not `domain pull`). */
const mcpLines = (markdown) =>
  codeBlocks(markdown)
    .filter(({ lang }) => lang === 'sh')
    .flatMap(({ text }) => text.split('\n'))
    .filter((line) => / mcp( |$)/.test(line.replace(/\s+#.*$/, '')));

test('docs/mcp.md: the stdio command lines configure the server, with a domain file or a pull', () => {
  const lines = mcpLines(docs);
  assert.equal(lines.length, 2);
  const configs = lines.map((line) => {
    const { env, argv } = commandLine(line.trim());
    const { data, error } = readMcpConfig(argv, env);
    assert.equal(error, null, line);
    return data;
  });
  const base = { url: 'https://abcd.supabase.co', apiKey: anonToken, token: { accessToken: userToken }, store: 'memory', sessionId: undefined, schema: 'compact', policy: {}, embedding: null };
  assert.deepEqual(configs, [
    { ...base, domain: { file: 'domain.json' } },
    { ...base, domain: { pull: { key: 'sb_secret_abcd', dbUrl: undefined, ownerColumn: undefined, overrides: undefined } } },
  ]);
});

test('docs/mcp.md: the refusal shown is the one the server gives without a domain', async () => {
  const { resolveMcpDomain } = await import('../../web/src/mcp/domain.js');
  const { loadCore } = await import('../../web/src/index.node.js');
  const [shown] = blocks.filter(({ lang }) => lang === 'text');
  const url = 'https://abcd.supabase.co';
  const { error } = await resolveMcpDomain({ source: null, url, apiKey: anonToken, accessToken: userToken, core: await loadCore(), fetch: () => assert.fail('no request') });
  assert.equal(shown.text.replaceAll('<ref>', 'abcd'), `alfred-act mcp: ${error.message}\nhint: ${error.hint}\n`);
});

test('docs/mcp.md: the client configurations are JSON; the stdio one configures the server with its env', () => {
  const configs = blocks.filter(({ lang }) => lang === 'json').map(({ text }) => JSON.parse(text));
  assert.equal(configs.length, 2);
  const stdio = configs[0].mcpServers['alfred-act'];
  assert.deepEqual(stdio.args.slice(0, 2), ['alfred-act', 'mcp']);
  const env = { ...stdio.env, SUPABASE_URL: stdio.env.SUPABASE_URL.replace('<ref>', 'abcd'), SUPABASE_ANON_KEY: anonToken };
  const { data, error } = readMcpConfig(stdio.args.slice(2), env);
  assert.equal(error, null);
  assert.deepEqual(data.token, { command: 'cat ~/.config/alfred-act/token' });
  assert.deepEqual(data.domain, { file: '/path/to/domain.json' });
  const http = configs[1].mcpServers['alfred-act'];
  assert.match(http.url, /\/mcp$/);
  assert.match(http.headers.Authorization, /^Bearer /);
});

test('docs/mcp.md: every flag and variable in the flag table is one the server reads', () => {
  const rows = [...docs.matchAll(/^\| `(--[a-z-]+)` \| `([A-Z_]+)` \|/gm)].map(([, flag, variable]) => [flag, variable]);
  assert.equal(rows.length, 11);
  const base = { SUPABASE_URL: 'http://127.0.0.1:1', SUPABASE_ANON_KEY: anonToken };
  for (const [flag, variable] of rows) {
    const value = { '--store': 'supabase', '--session': 'abcdefghijklmnopqrstuvwxyz', '--url': 'http://127.0.0.1:2', '--schema': 'inline' }[flag] ?? 'x';
    const extra = flag === '--session' ? { ALFRED_MCP_STORE: 'supabase' } : {};
    const token = ['--access-token', '--token-command', '--token-file'].includes(flag) ? {} : { SUPABASE_ACCESS_TOKEN: userToken };
    // --key and --db-url go with --pull.
    const pull = flag === '--key' || flag === '--db-url' ? ['--pull'] : [];
    const viaFlag = readMcpConfig([...pull, flag, value], { ...base, ...token, ...extra });
    const viaVariable = readMcpConfig(pull, { ...base, ...token, ...extra, [variable]: value });
    assert.equal(viaFlag.error, null, flag);
    assert.deepEqual(viaVariable.data, viaFlag.data, `${flag} and ${variable} mean the same`);
  }
  // The flags without a variable.
  const flagsOnly = [...docs.matchAll(/^\| (`--[a-z-]+`(?:, `--[a-z-]+`)*) \| \| /gm)].flatMap(([, cell]) => cell.match(/--[a-z-]+/g));
  assert.deepEqual(flagsOnly, ['--pull', '--owner-column', '--overrides']);
  const { data, error } = readMcpConfig(['--pull', '--owner-column', 'owner_id', '--overrides', 'o.json'], { ...base, SUPABASE_ACCESS_TOKEN: userToken });
  assert.equal(error, null);
  assert.deepEqual(data.domain, { pull: { key: undefined, dbUrl: undefined, ownerColumn: 'owner_id', overrides: 'o.json' } });
});

test('docs/mcp.md: the act_sessions table shown is the migration', async () => {
  const migration = await readFile(join(ROOT, 'db/sessions/010_act_sessions.sql'), 'utf8');
  const [sql] = blocks.filter(({ lang }) => lang === 'sql');
  for (const line of sql.text.split('\n').filter((text) => text && !text.startsWith('--'))) assert.ok(migration.includes(line), line);
});

test("README: the \"Use as an MCP server\" section's command configures the server", async (t) => {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  const section = /^#+ Use as an MCP server\n([\s\S]*?)(?=^#+ |(?![\s\S]))/m.exec(readme);
  if (!section) return t.skip('the README has no such section yet');
  const lines = mcpLines(section[1]);
  assert.ok(lines.length > 0);
  for (const line of lines) {
    const { env, argv } = commandLine(line.trim());
    const { data, error } = readMcpConfig(argv, env);
    assert.equal(error, null, line);
    assert.notEqual(data.domain, null, `${line}: the README's command names a domain`);
  }
});
