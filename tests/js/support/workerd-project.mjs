// Writes a `workerd test` project into the consumer: a worker that imports the
// package's workerd entry and prints the probe result, and a capnp config
// listing every module that entry reaches, the .wasm as a wasm module (what
// wrangler does for a .wasm import).
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const WORKER = (entry) => `import * as alfred from './${entry}';
import { probe } from './probe.mjs';

export default {
  async test() {
    console.log('PROBE ' + JSON.stringify(await probe(alfred)));
  },
};
`;

/**
 * `entry` and each module `path` are relative to `dir`; `modules` is the
 * entry's import graph as `[{ kind: 'esm' | 'wasm', path }]`. Returns the config path.
 */
export async function writeWorkerdProject(dir, entry, modules) {
  const lines = [
    '(name = "worker.mjs", esModule = embed "worker.mjs")',
    '(name = "probe.mjs", esModule = embed "probe.mjs")',
  ];
  for (const { kind, path } of modules) {
    if (kind === 'esm') lines.push(`(name = "${path}", esModule = embed "${path}")`);
    else if (kind === 'wasm') lines.push(`(name = "${path}", wasm = embed "${path}")`);
    else throw new Error(`workerd cannot load ${path} (${kind})`);
  }
  const config = `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [(name = "main", worker = .worker)],
);

const worker :Workerd.Worker = (
  modules = [
    ${lines.join(',\n    ')},
  ],
  compatibilityDate = "2025-06-01",
);
`;
  await writeFile(join(dir, 'worker.mjs'), WORKER(entry));
  await writeFile(join(dir, 'config.capnp'), config);
  return join(dir, 'config.capnp');
}
