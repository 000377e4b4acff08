// Writes web/dist/prompt-templates.mjs from prompts/**/*.md: the templates the
// package hands to the WebAssembly module before its first prompt
// (Core#buildActPrompt), which does not carry them. Named as the native
// build names them (cmake/embed_text.cmake): the path under prompts/ without
// its extension ("act/base").
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const templates = {};
const walk = (folder) => {
  for (const entry of readdirSync(`${root}prompts/${folder}`, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const path = folder ? `${folder}/${entry.name}` : entry.name;
    if (entry.isDirectory()) walk(path);
    else if (entry.name.endsWith('.md')) templates[path.slice(0, -'.md'.length)] = readFileSync(`${root}prompts/${path}`, 'utf8');
  }
};
walk('');
mkdirSync(`${root}web/dist`, { recursive: true });
writeFileSync(
  `${root}web/dist/prompt-templates.mjs`,
  `// Generated from prompts/**/*.md by scripts/generate-prompt-templates.mjs.\n` +
    `/** @internal The prompt templates as JSON text (texts by name), as the core's set_prompt_templates takes them. */\n` +
    `export const promptTemplatesJson = ${JSON.stringify(JSON.stringify(templates))};\n`,
);
