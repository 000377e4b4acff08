// Writes web/dist/kitchen.mjs from domains/kitchen/domain.json, so the domain
// ships as a plain ES module (JSON imports are not portable across runtimes).
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const domain = JSON.parse(readFileSync(`${root}domains/kitchen/domain.json`, 'utf8'));
mkdirSync(`${root}web/dist`, { recursive: true });
writeFileSync(
  `${root}web/dist/kitchen.mjs`,
  `// Generated from domains/kitchen/domain.json by scripts/generate-kitchen.mjs.\n` +
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
