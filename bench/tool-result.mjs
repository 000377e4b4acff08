// A tool result for the model, in Node: the time from PostgREST's response
// bytes to the text a model receives, alfred-act against a hand-written
// supabase-js tool on the same rows, each as its own request brings them
// (the cases and what each side does: bench/tool-result-cases.mjs).
// bench/tool-result-browser.mjs runs the same cases in Chromium. Run: node
// bench/tool-result.mjs (npm run bench:result).
// Environment: BENCH_ROUNDS (7), BENCH_SIZES ("10,100,1000"), BENCH_ASCII=1
// (the same rows in plain ASCII),
// BENCH_JSON=1 prints the results as one JSON line instead.
import { cpus, loadavg } from 'node:os';
import { createClient } from '@supabase/supabase-js';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
// The package as Node loads it (web/dist/node-index.js, the bundled build).
import { loadCore } from 'alfred-act';
import { TOOL_RESULT_TARGETS, runToolResultCases, toolResultLines } from './tool-result-cases.mjs';

const rounds = Number(process.env.BENCH_ROUNDS ?? 7);
const sizes = (process.env.BENCH_SIZES ?? '10,100,1000').split(',').map(Number);
const json = process.env.BENCH_JSON === '1';
const ascii = process.env.BENCH_ASCII === '1';

if (!json) {
  console.log(`a tool result for the model: alfred-act vs a hand-written supabase-js tool, same rows, Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model.split(' ')[0] ?? 'cpu'}, load average ${loadavg()[0].toFixed(2)}`);
  console.log(`${rounds} interleaved rounds; ratio = supabase-js time / alfred-act time per round (min, median, max)\n`);
}
// Tokens as OpenAI's o200k_base counts them (npm gpt-tokenizer).
const results = await runToolResultCases({ loadCore, createClient, rounds, sizes, ascii, countTokens: (text) => encode(text).length });
if (json) console.log(JSON.stringify({ runtime: `Node ${process.version}`, results }));
else {
  for (const line of toolResultLines(results)) console.log(line);
  console.log(`\ntarget: supabase-js / alfred-act ≥ ${Object.entries(TOOL_RESULT_TARGETS).map(([n, x]) => `${x.toFixed(1)}× at ${n}`).join(', ')} rows`);
}
// bench/index.mjs sums the benches up from this line.
if (process.env.BENCH_SUMMARY === '1') console.log(`@summary ${JSON.stringify({ toolResult: { node: results } })}`);
