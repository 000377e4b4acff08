// The code blocks of docs/adapters.md ("Use with the AI SDK", "Use with
// OpenAI") run as written against the real local stack: each is extracted
// from the document (a ```ts block stripped of its types by esbuild; tsc
// checks the types in tests/js/readme.test.mjs), given its free variables (url, anonKey, accessToken,
// userId; `model` for the AI SDK, OPENAI_* for the OpenAI client), written to
// a module inside the package (so 'alfred-act' resolves through its exports)
// and imported. The models are scripted (the AI SDK's MockLanguageModelV4; the
// OpenAI-compatible server on loopback); the database is read back.
import assert from 'node:assert/strict';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { after, test } from 'node:test';
import { transform } from 'esbuild';
import { MockLanguageModelV4 } from 'ai/test';
import { completionBody, startScriptedModel, toolCallsBody } from './support/scripted-model.mjs';
import { rest, sharedStack } from './support/stack.mjs';

const stack = sharedStack();
const ada = () => stack().users[0];
const root = new URL('../../', import.meta.url);
const doc = await readFile(new URL('docs/adapters.md', root), 'utf8');
const readme = await readFile(new URL('README.md', root), 'utf8');

/** The first ```js or ```ts block after `<!-- snippet:name` in `text` (docs/adapters.md by default). */
function snippet(name, text = doc, file = 'docs/adapters.md') {
  const marker = text.indexOf(`<!-- snippet:${name} `);
  assert.notEqual(marker, -1, `${file} has no snippet:${name}`);
  const match = /```(js|ts)\n([\s\S]*?)```/.exec(text.slice(marker));
  return { lang: match[1], code: match[2] };
}

/** The snippet as JavaScript (a ```ts block without its types, by esbuild). */
async function snippetCode(name) {
  const { lang, code } = snippet(name);
  return lang === 'ts' ? (await transform(code, { loader: 'ts', format: 'esm' })).code : code;
}

test('the README\'s "Use with the AI SDK" and "Use with OpenAI" blocks are the ones run here', () => {
  for (const name of ['ai', 'openai']) assert.deepEqual(snippet(name, readme, 'README.md'), snippet(name));
});

const globals = new Map();
const written = [];
after(async () => {
  globals.clear();
  for (const file of written) await rm(file, { force: true });
});

/** Runs `code` as a module with `bindings` as its free variables; resolves to what `exports` names. */
async function runSnippet(name, code, bindings, exports) {
  const dir = new URL('build/snippets/', root);
  await mkdir(dir, { recursive: true });
  const key = `${name}-${process.pid}`;
  globals.set(key, bindings);
  const prelude = `const { ${Object.keys(bindings).join(', ')} } = globalThis.__alfredSnippets.get(${JSON.stringify(key)});\n`;
  const file = new URL(`${key}.mjs`, dir);
  // Imports first (they are hoisted anyway), then the bindings, then the code.
  const lines = code.split('\n');
  const imports = lines.filter((line) => line.startsWith('import '));
  const body = lines.filter((line) => !line.startsWith('import '));
  await writeFile(file, `${imports.join('\n')}\n${prelude}${body.join('\n')}\nexport { ${exports.join(', ')} };\n`);
  written.push(file);
  globalThis.__alfredSnippets = globals;
  return import(file.href);
}

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } };

test('docs/adapters.md "Use with the AI SDK" runs: the model reads the fridge through aiTools', async () => {
  const model = new MockLanguageModelV4({
    doGenerate: async ({ prompt }) => {
      const last = prompt.at(-1);
      if (last.role !== 'tool') {
        const input = { table: 'inventory', filters: [{ field: 'location', op: '=', value: 'fridge' }], or_filters: null, columns: ['name'], limit: null, offset: null, order_by: 'name', order_dir: null, count: null };
        return { content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'db_read', input: JSON.stringify(input) }], finishReason: { unified: 'tool-calls', raw: undefined }, usage, warnings: [] };
      }
      // The model reads the text the core wrote (the same JSON a json output would carry, without a second encoding).
      const { output } = last.content[0];
      assert.equal(output.type, 'text');
      const result = JSON.parse(output.value);
      return { content: [{ type: 'text', text: result.rows.map((row) => row.name).join(', ') }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] };
    },
  });
  const { supabaseUrl: url, anonKey } = stack();
  const { text, steps } = await runSnippet('ai', await snippetCode('ai'), { url, anonKey, accessToken: ada().token, userId: ada().id, model }, ['text', 'steps']);
  const fridge = await rest(stack(), ada().token, 'GET', '/inventory?location=eq.fridge&select=name&order=name');
  assert.ok(fridge.body.length > 0);
  assert.equal(text, fridge.body.map((row) => row.name).join(', '));
  assert.equal(steps.length, 2);
});

test('docs/adapters.md "Use with OpenAI" runs: a create without its unit is corrected from the error; the row is in the database', async (t) => {
  const create = (data) => toolCallsBody([{ name: 'db_create', arguments: { table: 'inventory', data: JSON.stringify(data) } }]);
  const server = await startScriptedModel([
    create({ name: 'oat milk', quantity: 2, location: 'fridge' }),
    (body) => {
      const answer = JSON.parse(body.messages.at(-1).content);
      assert.equal(answer.error.code, 'missing_column');
      return create({ name: 'oat milk', quantity: 2, location: 'fridge', unit: 'l' });
    },
    (body) => ({ status: 200, body: completionBody(`Added ${JSON.parse(body.messages.at(-1).content).rows[0].id}.`) }),
  ]);
  t.after(() => server.stop());
  const saved = { key: process.env.OPENAI_API_KEY, base: process.env.OPENAI_BASE_URL };
  process.env.OPENAI_API_KEY = 'test-key';
  process.env.OPENAI_BASE_URL = server.baseUrl;
  t.after(() => {
    for (const [name, value] of [['OPENAI_API_KEY', saved.key], ['OPENAI_BASE_URL', saved.base]]) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });
  const { supabaseUrl: url, anonKey } = stack();
  const { messages } = await runSnippet('openai', await snippetCode('openai'), { url, anonKey, accessToken: ada().token, userId: ada().id }, ['messages']);
  assert.equal(server.used, 3);
  assert.match(messages.at(-1).content, /^Added inv_\d+\.$/);
  assert.deepEqual(messages.map((message) => message.role), ['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant']);
  const { body } = await rest(stack(), ada().token, 'GET', '/inventory?name=eq.oat%20milk&select=quantity,unit,location');
  assert.deepEqual(body, [{ quantity: 2, unit: 'l', location: 'fridge' }]);
});
