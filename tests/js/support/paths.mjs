// Locations shared by the tests, and child processes with a hard time limit
// whose error message carries the child's stderr.
import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { promisify } from 'node:util';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const FIXTURES = join(ROOT, 'tests/js/fixtures');
/** Gitignored; everything a test writes goes here. It exists once this module is imported (a clean clone has none). */
export const SCRATCH = join(ROOT, '.scratch');
mkdirSync(SCRATCH, { recursive: true });

export const bin = (name) => join(ROOT, 'node_modules/.bin', name);

/** Deno keeps its cache under .scratch and never looks for updates (no network here). */
export const DENO_ENV = { DENO_DIR: join(SCRATCH, 'deno-dir'), DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' };

const execFileAsync = promisify(execFile);

export function exec(command, args, { cwd = ROOT, env = {}, timeout = 60_000 } = {}) {
  return execFileAsync(command, args, {
    cwd,
    env: { ...process.env, ...env },
    timeout,
    killSignal: 'SIGKILL',
    maxBuffer: 16 << 20,
  });
}
