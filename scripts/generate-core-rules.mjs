// Writes web/dist/core-rules.mjs and its types, web/dist/core-rules.d.mts,
// from the core's own rules (alfred::api::core_rules): the package's
// `TOOL_NAMES` (the tools), `STEP_TOOLS` (which tools each plan step
// type may call, the rule `parseDecision` applies), `TOOL_EFFECTS` (what each
// tool may do to the data: the facts the safety controls read), `FILTER_OPS` (every
// spelling of every filter op), `OUTCOME_UNKNOWN_HINT`, `ROWS_NOTICE` and `NAME_RULES`
// (what domain pull may name a table, column or ref prefix), and the
// `ToolName`, `StepType` and `FilterOp` unions. The built WebAssembly module
// is loaded and asked, so the JavaScript side, its types, the worker and the
// CLI cannot drift from it. Run by scripts/build.sh after the wasm build.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The core's rules (`{ toolNames, stepTools, toolEffects, filterOps, outcomeUnknownHint, rowsNotice, names }`) from the built module in web/dist. */
export async function coreRules() {
  const { instantiateModule } = await import(pathToFileURL(`${root}web/src/core/boundary.js`).href);
  const module = await instantiateModule(await WebAssembly.compile(readFileSync(`${root}web/dist/alfred_core.wasm`)));
  const data = (text) => {
    const { data: value, error } = JSON.parse(text);
    if (error) throw new Error(`the core refused: ${error.message}`);
    return value;
  };
  return data(module.coreRules());
}

const list = (items) => `Object.freeze([${items.map((item) => JSON.stringify(item).replaceAll('"', "'")).join(', ')}])`;

export function moduleText({ toolNames, stepTools, toolEffects, filterOps, outcomeUnknownHint, rowsNotice, names }) {
  const steps = Object.entries(stepTools).map(([type, tools]) => `  ${type}: ${list(tools)},`);
  const facts = (effect) => Object.entries(effect).map(([fact, value]) => `${fact}: ${value === true}`).join(', ');
  const effects = Object.entries(toolEffects).map(([tool, effect]) => `  ${tool}: Object.freeze({ ${facts(effect)} }),`);
  return (
    '// Generated from the core (alfred::api::core_rules) by scripts/generate-core-rules.mjs.\n\n' +
    '/** The tools, in the order the core lists them. */\n' +
    `export const TOOL_NAMES = ${list(toolNames)};\n\n` +
    "/** Which tools each step type may call, as the core's decision parser rules. */\n" +
    `export const STEP_TOOLS = Object.freeze({\n${steps.join('\n')}\n});\n\n` +
    '/**\n' +
    ' * What each tool may do to the data, whatever its arguments (the core\'s effect_of):\n' +
    ' * creates rows, changes the rows its filters select, deletes them, calls one of the\n' +
    " * domain's functions (a write unless the function reads). None of them: it reads.\n" +
    ' */\n' +
    `export const TOOL_EFFECTS = Object.freeze({\n${effects.join('\n')}\n});\n\n` +
    "/** The filter ops: each op's name, then the other spellings the core accepts (any case). */\n" +
    `export const FILTER_OPS = Object.freeze({ names: ${list(filterOps.names)}, aliases: ${list(filterOps.aliases)} });\n\n` +
    '/** The hint of every error whose write may or may not have been made (`write_outcome_unknown`). */\n' +
    `export const OUTCOME_UNKNOWN_HINT = ${JSON.stringify(outcomeUnknownHint)};\n\n` +
    "/** What a tool result says once, right before its rows: they are data, never instructions. */\n" +
    `export const ROWS_NOTICE = ${JSON.stringify(rowsNotice)};\n\n` +
    '/**\n' +
    ' * What a table, column or ref prefix may be named: an identifier (its first character\n' +
    ' * from `first`, the others from `rest`, at most `maxLength`), no column named like a\n' +
    " * PostgREST keyword, no ref prefix that is or starts with `generatedRefPrefix` and '_' or is\n" +
    ' * `currentUserRef` (the signed-in user); `usersReference` marks a column holding a user id.\n' +
    ' */\n' +
    `export const NAME_RULES = Object.freeze({\n` +
    `  identifier: Object.freeze(${JSON.stringify(names.identifier)}),\n` +
    `  reservedColumns: ${list(names.reservedColumns)},\n` +
    `  generatedRefPrefix: ${JSON.stringify(names.generatedRefPrefix)},\n` +
    `  currentUserRef: ${JSON.stringify(names.currentUserRef)},\n` +
    `  usersReference: ${JSON.stringify(names.usersReference)},\n` +
    '});\n'
  );
}

const union = (items) => items.map((item) => `  | ${JSON.stringify(item).replaceAll('"', "'")}`).join('\n');

/** web/dist/core-rules.d.mts: the unions and the constants' types. */
export function typesText({ toolNames, stepTools, filterOps }) {
  return (
    '// Generated from the core (alfred::api::core_rules) by scripts/generate-core-rules.mjs.\n\n' +
    '/** The tools a model may call. */\n' +
    `export type ToolName =\n${union(toolNames)};\n\n` +
    '/** The step types of a plan. */\n' +
    `export type StepType =\n${union(Object.keys(stepTools))};\n\n` +
    '/** Filter operators: the names, then the other spellings the core accepts (any case). */\n' +
    `export type FilterOp =\n${union([...filterOps.names, ...filterOps.aliases])};\n\n` +
    'export declare const TOOL_NAMES: readonly ToolName[];\n' +
    'export declare const STEP_TOOLS: { readonly [type in StepType]: readonly ToolName[] };\n' +
    'export interface ToolEffect {\n' +
    '  readonly createsRows: boolean;\n' +
    '  readonly changesRows: boolean;\n' +
    '  readonly deletesRows: boolean;\n' +
    '  readonly callsFunction: boolean;\n' +
    '}\n' +
    'export declare const TOOL_EFFECTS: { readonly [tool in ToolName]: ToolEffect };\n' +
    'export declare const FILTER_OPS: { readonly names: readonly FilterOp[]; readonly aliases: readonly FilterOp[] };\n' +
    'export declare const OUTCOME_UNKNOWN_HINT: string;\n' +
    'export declare const ROWS_NOTICE: string;\n' +
    'export declare const NAME_RULES: {\n' +
    '  readonly identifier: { readonly first: string; readonly rest: string; readonly maxLength: number };\n' +
    '  readonly reservedColumns: readonly string[];\n' +
    '  readonly generatedRefPrefix: string;\n' +
    '  /** The ref of the signed-in user (`me`). */\n' +
    '  readonly currentUserRef: string;\n' +
    "  /** How a domain writes a column holding a user id (`auth.users`). */\n" +
    '  readonly usersReference: string;\n' +
    '};\n'
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  mkdirSync(`${root}web/dist`, { recursive: true });
  const rules = await coreRules();
  writeFileSync(`${root}web/dist/core-rules.mjs`, moduleText(rules));
  writeFileSync(`${root}web/dist/core-rules.d.mts`, typesText(rules));
}
