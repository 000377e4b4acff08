// README code blocks as modules tsc can check (tests/js/readme.test.mjs).
const LANGUAGES = new Set(['js', 'javascript', 'mjs', 'ts', 'typescript']);
const MARKER = /^<!--\s*readme-check:\s*(skip|prelude)\b([\s\S]*?)-->\s*$/;

/** The README's code blocks: `{ line, lang, code, skip, prelude }`. */
export function readmeBlocks(markdown) {
  const lines = markdown.split('\n');
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)/.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, lang] = open;
    const closing = new RegExp(`^\\s*\\${fence[0]}{${fence.length},}\\s*$`);
    let end = i + 1;
    while (end < lines.length && !closing.test(lines[end])) end++;
    const marker = MARKER.exec(lines[i - 1]?.trim() ?? '');
    if (LANGUAGES.has(lang.toLowerCase())) {
      blocks.push({
        line: i + 1,
        lang: lang.toLowerCase(),
        code: lines.slice(i + 1, end).map((line) => line.slice(indent.length)).join('\n'),
        skip: marker?.[1] === 'skip',
        prelude: marker?.[1] === 'prelude' ? marker[2].trim() : '',
      });
    }
    i = end;
  }
  return blocks;
}

// A block as a module: its imports stay on top, the rest runs in an async
// function (examples `return` and `await` as the reader's code would).
export function blockModule({ code, prelude }) {
  const imports = [];
  const body = [];
  let inImport = false;
  for (const line of code.split('\n')) {
    if (inImport || /^import\s/.test(line)) {
      imports.push(line);
      inImport = !/;\s*$|from\s+['"][^'"]+['"]\s*;?\s*$/.test(line);
    } else {
      body.push(line);
    }
  }
  const preludeTypes = [...new Set(prelude.match(/\b[A-Z]\w*\b/g) ?? [])];
  return [
    ...imports,
    ...(preludeTypes.length ? [`import type { ${preludeTypes.join(', ')} } from 'alfred-act';`] : []),
    prelude,
    'export async function example(): Promise<unknown> {',
    ...body.map((line) => `  ${line}`),
    '  return undefined;',
    '}',
  ].join('\n');
}

