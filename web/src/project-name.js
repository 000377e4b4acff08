// The name of the project in a folder: its package.json `name`, without an
// npm scope, for the domain `domain pull` writes (Node only: it reads a file).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * `name` of `<cwd>/package.json` without its scope, or undefined.
 *
 * @example
 * await projectName(process.cwd()) // 'my-crm' for { "name": "@acme/my-crm" }
 */
export async function projectName(cwd) {
  try {
    const { name } = JSON.parse(await readFile(join(cwd, 'package.json'), 'utf8'));
    return typeof name === 'string' && name.trim() ? name.trim().replace(/^@[^/]+\//, '') : undefined;
  } catch {
    return undefined;
  }
}
