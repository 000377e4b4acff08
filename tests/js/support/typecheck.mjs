// tsc over a scratch project, for the README check (tests/js/readme.test.mjs)
// and the peer-set type check (tests/matrix/types.test.mjs). tsc runs with
// --listFiles, so a run that checked nothing cannot pass: the caller gets the
// files tsc read and asserts its own are among them (and which copy of a
// framework package was used).
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { bin, exec } from './paths.mjs';

/**
 * Writes `dir/tsconfig.json` ({ compilerOptions, files }) and runs tsc on it.
 * Resolves to `{ errors, listed }`: the diagnostics text ('' when clean) and
 * the absolute paths tsc read. Rejects when tsc did not run or exited in a
 * way that is not "checked, with or without errors" (a missing binary, a
 * crash, a time-out), or exited non-zero without a diagnostic. `tsc` is
 * the compiler to run (the root's by default).
 *
 * @example
 * const { errors, listed } = await typecheck(dir, { strict: true, noEmit: true }, ['a.mts'])
 * assert.equal(errors, '')
 */
export async function typecheck(dir, compilerOptions, files, { tsc = bin('tsc'), timeout = 50_000 } = {}) {
  await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files }, null, 2));
  let stdout;
  let failed = false;
  try {
    ({ stdout } = await exec(tsc, ['-p', dir, '--listFiles'], { cwd: dir, timeout }));
  } catch (error) {
    // tsc exits 1 or 2 when it reported diagnostics; anything else is a failure to check.
    if (typeof error.code !== 'number' || error.code > 2 || error.killed || error.signal) {
      throw new Error(`tsc did not run in ${dir}: ${error.message}\n${error.stdout ?? ''}${error.stderr ?? ''}`);
    }
    stdout = error.stdout;
    failed = true;
  }
  const lines = stdout.split('\n');
  const isFile = (line) => line.startsWith('/') && /\.(d\.)?[mc]?ts$/.test(line);
  const errors = lines.filter((line) => line.trim() && !isFile(line)).join('\n');
  if (failed && !errors) throw new Error(`tsc failed in ${dir} without a diagnostic:\n${stdout}`);
  return { errors, listed: lines.filter(isFile) };
}
