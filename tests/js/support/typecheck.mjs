// tsc over a scratch project, for the README check (tests/js/readme.test.mjs)
// and the peer-set type check (tests/matrix/types.test.mjs), or over a
// project of the repository (tests/js/types.test.mjs, the packed package). tsc runs with
// --listFiles, so a run that checked nothing cannot pass: the caller gets the
// files tsc read and asserts its own are among them (and which copy of a
// framework package was used).
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { bin, exec, ROOT } from './paths.mjs';

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
  return tscProject(dir, { cwd: dir, tsc, timeout });
}

/**
 * Runs tsc on the existing project `project` (a folder with a tsconfig.json,
 * or the file itself) with --listFiles, as strictly as typecheck(): resolves
 * to `{ errors, listed }`, rejects when tsc did not run, crashed or timed out.
 *
 * @example
 * const { errors, listed } = await tscProject('tests/types')
 * assert.equal(errors, ''); assert.ok(listed.includes(join(ROOT, 'tests/types/usage.ts')))
 */
export async function tscProject(project, { cwd = ROOT, tsc = bin('tsc'), timeout = 50_000 } = {}) {
  let stdout;
  let failed = false;
  try {
    ({ stdout } = await exec(tsc, ['-p', project, '--listFiles'], { cwd, timeout }));
  } catch (error) {
    // tsc exits 1 or 2 when it reported diagnostics; anything else is a failure to check.
    if (typeof error.code !== 'number' || error.code > 2 || error.killed || error.signal) {
      throw new Error(`tsc did not run in ${project}: ${error.message}\n${error.stdout ?? ''}${error.stderr ?? ''}`);
    }
    stdout = error.stdout;
    failed = true;
  }
  const lines = stdout.split('\n');
  const isFile = (line) => line.startsWith('/') && /\.(d\.)?[mc]?ts$/.test(line);
  const errors = lines.filter((line) => line.trim() && !isFile(line)).join('\n');
  if (failed && !errors) throw new Error(`tsc failed in ${project} without a diagnostic:\n${stdout}`);
  return { errors, listed: lines.filter(isFile) };
}
