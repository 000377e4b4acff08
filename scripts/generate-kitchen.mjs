// Writes web/dist/kitchen.mjs from the kitchen pack (domains/kitchen/:
// domain.json and its prompts/ examples), so the package's default domain
// ships as a plain ES module (JSON imports are not portable across runtimes).
import { writeFileSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readPackDomain } from '../db/packs.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const domain = readPackDomain('kitchen');
mkdirSync(`${root}web/dist`, { recursive: true });
writeFileSync(
  `${root}web/dist/kitchen.mjs`,
  `// Generated from domains/kitchen/ (domain.json, prompts/) by scripts/generate-kitchen.mjs.\n` +
    `const deepFreeze = (value) => {\n` +
    `  if (value && typeof value === 'object') {\n` +
    `    for (const item of Object.values(value)) deepFreeze(item);\n` +
    `    Object.freeze(value);\n` +
    `  }\n` +
    `  return value;\n` +
    `};\n\n` +
    `/** The kitchen domain: tables, columns and types, ownership, foreign keys, ref prefixes and labels. */\n` +
    `export const kitchen = deepFreeze(${JSON.stringify(domain, null, 2)});\n`,
);
