// The error-code catalog's other forms, generated from its one copy,
// core/include/alfred/errors/error_codes.h (one `X(code, origin, "meaning")` line
// per code):
//   web/dist/error-codes.mjs    the package's `errorCodes` (frozen), and
//                               `codes` (code → itself), which the package,
//                               the worker and the CLI emit codes through
//   web/dist/error-codes.d.mts   the TypeScript `ErrorCode` union and both
//                               constants' types
//   docs/error-codes.md         the list for people (with --docs; a test
//                               checks the committed file is current)
// Run by scripts/build.sh; `node scripts/generate-error-codes.mjs --docs` after editing the catalog.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
export const CATALOG = 'core/include/alfred/errors/error_codes.h';

const ORIGINS = {
  core: 'The core refused the call or an option before any request was sent.',
  executor: 'The call ran, and something other than the database failed.',
  database: 'PostgREST or PostgreSQL refused it; `status`, `dbCode`, `details` and `raw` carry what the database said.',
  package: 'The JavaScript package (loading, the Act loop, domain pull).',
  model: 'The model or embedding endpoint (`LlmError`, `EmbeddingError`).',
  worker: "The edge worker's HTTP API (authentication, limits, configuration), as `{ error: { code } }` with its HTTP status.",
  mcp: 'The MCP server (the stdio command and the worker\'s `/mcp` route).',
};

/** The catalog's lines as `[{ code, origin, meaning }]`, in the header's order; throws on a line it cannot read. */
export function readCatalog(text = readFileSync(`${root}${CATALOG}`, 'utf8')) {
  const start = text.indexOf('#define ALFRED_ERROR_CODES(X)');
  const end = text.indexOf('// clang-format on', start);
  if (start < 0 || end < 0) throw new Error(`${CATALOG}: the ALFRED_ERROR_CODES block is missing`);
  const entries = [];
  for (const line of text.slice(start, end).split('\n').slice(1)) {
    if (line.trim() === '') continue;
    const match = /^\s*X\(([a-z_]+), ([a-z]+), "((?:[^"\\]|\\.)*)"\)\s*\\?$/.exec(line);
    if (!match) throw new Error(`${CATALOG}: cannot read the catalog line ${JSON.stringify(line)}`);
    const [, code, origin, meaning] = match;
    if (!(origin in ORIGINS)) throw new Error(`${CATALOG}: ${code} has the unknown origin ${origin}`);
    entries.push({ code, origin, meaning: JSON.parse(`"${meaning}"`) });
  }
  return entries;
}

export function moduleText(entries) {
  const body = entries.map(({ code, origin, meaning }) => `  ${code}: Object.freeze({ origin: '${origin}', meaning: ${JSON.stringify(meaning)} }),`);
  const names = entries.map(({ code }) => `  ${code}: '${code}',`);
  return `// Generated from ${CATALOG} by scripts/generate-error-codes.mjs.\n` +
    `/** Every error code alfred-act emits: \`code → { origin, meaning }\`. */\n` +
    `export const errorCodes = Object.freeze({\n${body.join('\n')}\n});\n\n` +
    `/** Every error code by name, to emit and compare codes without writing them as text: \`error.code === codes.unknown_table\`. */\n` +
    `export const codes = Object.freeze({\n${names.join('\n')}\n});\n`;
}

export function typesText(entries) {
  const union = entries.map(({ code }) => `  | '${code}'`).join('\n');
  const origins = Object.keys(ORIGINS).map((origin) => `'${origin}'`).join(' | ');
  return `// Generated from ${CATALOG} by scripts/generate-error-codes.mjs.\n` +
    `/** Every error code alfred-act emits (docs/error-codes.md). */\n` +
    `export type ErrorCode =\n${union};\n\n` +
    `/** Who emits a code. */\n` +
    `export type ErrorCodeOrigin = ${origins};\n\n` +
    `/** Every error code alfred-act emits: \`code → { origin, meaning }\`. */\n` +
    `export declare const errorCodes: Readonly<Record<ErrorCode, Readonly<{ origin: ErrorCodeOrigin; meaning: string }>>>;\n\n` +
    `/** Every error code by name: \`codes.unknown_table\` is \`'unknown_table'\`. */\n` +
    `export declare const codes: { readonly [Code in ErrorCode]: Code };\n`;
}

export function docsText(entries) {
  const sections = Object.entries(ORIGINS).map(([origin, about]) => {
    const rows = entries.filter((entry) => entry.origin === origin).map(({ code, meaning }) => `| \`${code}\` | ${meaning.replaceAll('|', '\\|')} |`);
    return `## ${origin}\n\n${about}\n\n| code | meaning |\n| --- | --- |\n${rows.join('\n')}\n`;
  });
  return '# Error codes\n\n' +
    '<!-- Generated from core/include/alfred/errors/error_codes.h by `node scripts/generate-error-codes.mjs --docs`; edit the catalog, not this file. -->\n\n' +
    'Every error alfred-act returns has a `code` from this list (`{ data, error }` in JavaScript, `error.code`; the\n' +
    'TypeScript type is the union `ErrorCode`, and the package exports the list as `errorCodes`). Branch on the code;\n' +
    '`message` and `hint` are for people and models and may change. A code is never reused for another meaning.\n\n' +
    sections.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const entries = readCatalog();
  if (process.argv.includes('--docs')) {
    writeFileSync(`${root}docs/error-codes.md`, docsText(entries));
  } else {
    mkdirSync(`${root}web/dist`, { recursive: true });
    writeFileSync(`${root}web/dist/error-codes.mjs`, moduleText(entries));
    writeFileSync(`${root}web/dist/error-codes.d.mts`, typesText(entries));
  }
}
