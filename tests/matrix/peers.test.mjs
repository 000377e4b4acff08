// Run by tests/matrix/run.sh in each peer set: proves the set is the one in
// use, in this process and in a child process started the way the MCP stdio
// test starts `alfred-act mcp` (its own environment, NODE_OPTIONS kept), so
// the adapter tests that follow cannot pass on the root's packages instead.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ROOT } from '../js/support/paths.mjs';

const name = process.env.ALFRED_MATRIX;
const dir = name ? join(ROOT, 'tests/matrix', name) : null;
const pinned = dir ? JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).dependencies : {};

// One importable entry of each package (the MCP SDK has no root export).
const ENTRY = {
  ai: 'ai',
  openai: 'openai',
  '@supabase/supabase-js': '@supabase/supabase-js',
  '@modelcontextprotocol/sdk': '@modelcontextprotocol/sdk/server/index.js',
  zod: 'zod',
};

/** The installed version of `pkg` that `url` (a resolved entry) belongs to, checked to be the set's. */
function versionAt(pkg, url) {
  const home = join(dir, 'node_modules', pkg);
  const path = fileURLToPath(url);
  assert.ok(path.startsWith(`${home}/`), `${pkg} resolved to ${path}, not under ${home}`);
  return JSON.parse(readFileSync(join(home, 'package.json'), 'utf8')).version;
}

test('run through tests/matrix/run.sh: ALFRED_MATRIX names a peer set and the resolve hook is on', () => {
  assert.ok(name, 'ALFRED_MATRIX is not set: run `bash tests/matrix/run.sh [name]`');
  assert.match(process.env.NODE_OPTIONS ?? '', /tests\/matrix\/peers\.mjs\?matrix=/);
  assert.deepEqual(Object.keys(pinned).sort(), Object.keys(ENTRY).sort());
});

test('the project\'s imports of the framework packages resolve to the set\'s pinned versions', () => {
  for (const [pkg, entry] of Object.entries(ENTRY)) assert.equal(versionAt(pkg, import.meta.resolve(entry)), pinned[pkg], pkg);
});

test('a child process with only PATH and NODE_OPTIONS (as `alfred-act mcp` is started) resolves them the same way', async () => {
  const probe = `for (const entry of ${JSON.stringify(Object.values(ENTRY))}) console.log(import.meta.resolve(entry));`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', probe], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, NODE_OPTIONS: process.env.NODE_OPTIONS },
    timeout: 20_000,
  });
  const urls = stdout.trim().split('\n');
  assert.deepEqual(Object.keys(ENTRY).map((pkg, i) => versionAt(pkg, urls[i])), Object.keys(ENTRY).map((pkg) => pinned[pkg]));
});
