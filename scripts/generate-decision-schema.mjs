// Writes web/dist/decision-schema.mjs from prompts/act/decision.schema.json,
// the one copy (the core's tests check it against the core's rules), so the
// package's actDecisionSchema is generated instead of kept by hand.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const schema = JSON.parse(readFileSync(`${root}prompts/act/decision.schema.json`, 'utf8'));
mkdirSync(`${root}web/dist`, { recursive: true });
writeFileSync(
  `${root}web/dist/decision-schema.mjs`,
  `// Generated from prompts/act/decision.schema.json by scripts/generate-decision-schema.mjs.\n` +
    `const deepFreeze = (value) => {\n` +
    `  if (value && typeof value === 'object') {\n` +
    `    for (const item of Object.values(value)) deepFreeze(item);\n` +
    `    Object.freeze(value);\n` +
    `  }\n` +
    `  return value;\n` +
    `};\n\n` +
    `/** The ActDecision JSON Schema (OpenAI strict structured outputs). */\n` +
    `export const actDecisionSchema = deepFreeze(${JSON.stringify(schema, null, 2)});\n`,
);
