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

/** The fenced blocks of `markdown`: `[{ lang, text }]`. */
function codeBlocks(markdown) {
  return [...markdown.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map(([, lang, text]) => ({ lang, text }));
}

/** `VAR=value … <command> mcp [flags]` → the variables and the flags after `mcp`, placeholders filled in. */
function commandLine(line) {
  const filled = line.replace(/<anon key>/g, anonKey(secret)).replace(/<user JWT>/g, userToken).replace(/<ref>/g, 'abcd');
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

test('docs/mcp.md: the stdio command line configures the server', () => {
  const lines = blocks.filter(({ lang, text }) => lang === 'sh' && text.includes(' mcp'));
  assert.equal(lines.length, 1);
  const { env, argv } = commandLine(lines[0].text.trim());
  const { data, error } = readMcpConfig(argv, env);
  assert.equal(error, null);
  assert.deepEqual(data, { url: 'https://abcd.supabase.co', apiKey: anonKey(secret), token: { accessToken: userToken }, store: 'memory', sessionId: undefined });
});

test('docs/mcp.md: the client configurations are JSON; the stdio one configures the server with its env', () => {
  const configs = blocks.filter(({ lang }) => lang === 'json').map(({ text }) => JSON.parse(text));
  assert.equal(configs.length, 2);
  const stdio = configs[0].mcpServers['alfred-act'];
  assert.deepEqual(stdio.args.slice(-1), ['mcp']);
  const env = { ...stdio.env, SUPABASE_URL: stdio.env.SUPABASE_URL.replace('<ref>', 'abcd'), SUPABASE_ANON_KEY: anonKey(secret) };
  const { data, error } = readMcpConfig([], env);
  assert.equal(error, null);
  assert.deepEqual(data.token, { command: 'cat ~/.config/alfred-act/token' });
  const http = configs[1].mcpServers['alfred-act'];
  assert.match(http.url, /\/mcp$/);
  assert.match(http.headers.Authorization, /^Bearer /);
});

test('docs/mcp.md: every flag and variable in the flag table is one the server reads', () => {
  const rows = [...docs.matchAll(/^\| `(--[a-z-]+)` \| `([A-Z_]+)` \|/gm)].map(([, flag, variable]) => [flag, variable]);
  assert.equal(rows.length, 7);
  const base = { SUPABASE_URL: 'http://127.0.0.1:1', SUPABASE_ANON_KEY: anonKey(secret) };
  for (const [flag, variable] of rows) {
    const value = flag === '--store' ? 'supabase' : flag === '--session' ? 'abcdefghijklmnopqrstuvwxyz' : flag === '--url' ? 'http://127.0.0.1:2' : 'x';
    const extra = flag === '--session' ? { ALFRED_MCP_STORE: 'supabase' } : {};
    const token = ['--access-token', '--token-command', '--token-file'].includes(flag) ? {} : { SUPABASE_ACCESS_TOKEN: userToken };
    const viaFlag = readMcpConfig([flag, value], { ...base, ...token, ...extra });
    const viaVariable = readMcpConfig([], { ...base, ...token, ...extra, [variable]: value });
    assert.equal(viaFlag.error, null, flag);
    assert.deepEqual(viaVariable.data, viaFlag.data, `${flag} and ${variable} mean the same`);
  }
});

test('docs/mcp.md: the act_sessions table shown is the migration', async () => {
  const migration = await readFile(join(ROOT, 'db/migrations/010_act_sessions.sql'), 'utf8');
  const [sql] = blocks.filter(({ lang }) => lang === 'sql');
  for (const line of sql.text.split('\n').filter((text) => text && !text.startsWith('--'))) assert.ok(migration.includes(line), line);
});

test("README: the \"Use as an MCP server\" section's command configures the server", async (t) => {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  const section = /^#+ Use as an MCP server\n([\s\S]*?)(?=^#+ |(?![\s\S]))/m.exec(readme);
  if (!section) return t.skip('the README has no such section yet');
  const [line] = codeBlocks(section[1]).filter(({ lang }) => lang === 'sh');
  const { env, argv } = commandLine(line.text.trim());
  const { error } = readMcpConfig(argv, env);
  assert.equal(error, null);
});
