// Writes web/dist/core-rules.mjs: the package's `TOOL_NAMES` (the four
// tools) and `STEP_TOOLS` (which tools each plan step type may call), from
// the core's own rules. The built WebAssembly module is loaded and asked
// (`toolNames`, `stepTools`: the rule `parseDecision` applies), so the
// JavaScript side, the worker and the CLI cannot drift from it.
// Run by scripts/build.sh after the wasm build.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** `{ toolNames, stepTools }` from the built module in web/dist. */
export async function coreRules() {
  const { default: createAlfredCore } = await import(pathToFileURL(`${root}web/dist/alfred_core.mjs`).href);
  const wasmModule = await WebAssembly.compile(readFileSync(`${root}web/dist/alfred_core.wasm`));
  const module = await createAlfredCore({
    instantiateWasm(imports, done) {
      const instance = new WebAssembly.Instance(wasmModule, imports);
      done(instance, wasmModule);
      return instance.exports;
    },
    locateFile: (path) => path,
  });
  const data = (text) => {
    const { data: value, error } = JSON.parse(text);
    if (error) throw new Error(`the core refused: ${error.message}`);
    return value;
  };
  return { toolNames: data(module.toolNames()), stepTools: data(module.stepTools()) };
}

const list = (items) => `Object.freeze([${items.map((item) => JSON.stringify(item).replaceAll('"', "'")).join(', ')}])`;

export function moduleText({ toolNames, stepTools }) {
  const steps = Object.entries(stepTools).map(([type, tools]) => `  ${type}: ${list(tools)},`);
  return (
    '// Generated from the core (alfred::api::tool_names, step_tools) by scripts/generate-core-rules.mjs.\n\n' +
    '/** The four tools, in the order the core lists them. */\n' +
    `export const TOOL_NAMES = ${list(toolNames)};\n\n` +
    "/** Which tools each step type may call, as the core's decision parser rules. */\n" +
    `export const STEP_TOOLS = Object.freeze({\n${steps.join('\n')}\n});\n`
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  mkdirSync(`${root}web/dist`, { recursive: true });
  writeFileSync(`${root}web/dist/core-rules.mjs`, moduleText(await coreRules()));
}
