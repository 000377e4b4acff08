// A scratch project that depends on the packed tarball, as a user's would:
// `npm pack` in the repo, `npm install <tarball>` in the consumer (offline;
// the package has no dependencies).
import { access, copyFile, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { exec, FIXTURES, ROOT, SCRATCH } from './paths.mjs';

/** Returns the consumer directory; the caller removes its parent. */
export async function installPackedConsumer() {
  await access(join(ROOT, 'web/dist/alfred_core.wasm')).catch(() => {
    throw new Error('web/dist is not built: run `npm run build` first');
  });
  await mkdir(SCRATCH, { recursive: true });
  const workspace = await mkdtemp(join(SCRATCH, 'packed-'));
  const { stdout } = await exec('npm', ['pack', '--json', '--pack-destination', workspace]);
  const [{ filename }] = JSON.parse(stdout);

  const consumer = join(workspace, 'consumer');
  await mkdir(consumer);
  await writeFile(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  await exec('npm', ['install', '--no-audit', '--no-fund', '--offline', '--ignore-scripts', join(workspace, filename)], {
    cwd: consumer,
  });
  for (const file of ['probe.mjs', 'main.mjs']) await copyFile(join(FIXTURES, file), join(consumer, file));
  return consumer;
}
