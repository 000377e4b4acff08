// The static import graph of an entry, as Deno resolves it (it understands
// wasm and source-phase imports, which a regex or Node's parser would not).
import { bin, DENO_ENV, exec } from './paths.mjs';

/** `[{ kind: 'esm' | 'wasm' | 'external' | 'node' | …, specifier }]` for every module the entry reaches. */
export async function moduleGraph(entryPath) {
  const { stdout } = await exec(bin('deno'), ['info', '--json', entryPath], { env: DENO_ENV });
  return JSON.parse(stdout).modules.map(({ kind, specifier }) => ({ kind, specifier }));
}
