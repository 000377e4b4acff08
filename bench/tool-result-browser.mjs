// The tool-result benchmark (bench/tool-result-cases.mjs) in Chromium:
// Debian's chromium through playwright-core, the package's browser entry
// loaded as ES modules from a server on 127.0.0.1, supabase-js bundled
// for the page with esbuild. Run: node bench/tool-result-browser.mjs.
// Environment: BENCH_ROUNDS (7), BENCH_SIZES ("10,100,1000"), BENCH_JSON=1
// prints the results as one JSON line.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { serveDirectory } from '../tests/js/support/static-server.mjs';
import { TOOL_RESULT_TARGETS, toolResultLines } from './tool-result-cases.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');
const rounds = Number(process.env.BENCH_ROUNDS ?? 7);
const sizes = (process.env.BENCH_SIZES ?? '10,100,1000').split(',').map(Number);
const json = process.env.BENCH_JSON === '1';

// supabase-js for the page: one ES module under build/ (served with the repository).
const bundled = join(ROOT, 'build', 'bench-browser');
await mkdir(bundled, { recursive: true });
await build({
  stdin: { contents: "export { createClient } from '@supabase/supabase-js';", resolveDir: ROOT, loader: 'js' },
  bundle: true,
  format: 'esm',
  platform: 'browser',
  minify: true,
  outfile: join(bundled, 'supabase.js'),
  logLevel: 'error',
});

const server = await serveDirectory(ROOT);
const profile = await mkdtemp(join(tmpdir(), 'alfred-bench-chromium-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
try {
  const page = await context.newPage();
  await page.goto(`${server.origin}/bench/fixtures/blank.html`);
  const version = context.browser()?.version() ?? (await page.evaluate('navigator.userAgent.match(/Chrome\\/([\\d.]+)/)?.[1] ?? ""'));
  const results = await page.evaluate(`(async () => {
    const { loadCore } = await import('/web/src/index.browser.js');
    const { createClient } = await import('/build/bench-browser/supabase.js');
    const { runToolResultCases } = await import('/bench/tool-result-cases.mjs');
    return runToolResultCases({ loadCore, createClient, rounds: ${rounds}, sizes: ${JSON.stringify(sizes)} });
  })()`);
  if (json) console.log(JSON.stringify({ runtime: `Chromium ${version}`, results }));
  else {
    console.log(`a tool result for the model in Chromium ${version}: alfred-act vs a hand-written supabase-js tool, same rows`);
    console.log(`${rounds} interleaved rounds; ratio = supabase-js time / alfred-act time per round (min, median, max)\n`);
    for (const line of toolResultLines(results)) console.log(line);
    console.log(`\ntarget: supabase-js / alfred-act ≥ ${Object.entries(TOOL_RESULT_TARGETS).map(([n, x]) => `${x.toFixed(1)}× at ${n}`).join(', ')} rows`);
  }
  // bench/index.mjs sums the benches up from this line.
  if (process.env.BENCH_SUMMARY === '1') console.log(`@summary ${JSON.stringify({ toolResult: { chromium: results } })}`);
} finally {
  await context.close();
  await server.close();
  await rm(profile, { recursive: true, force: true });
}
