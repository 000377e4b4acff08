// Which embedder `alfred-act <tool>` and `alfred-act mcp` search by meaning with
// (web/src/embedder-settings.js): the lexical one only for the demo data it
// embedded, an OpenAI-compatible endpoint from ALFRED_EMBEDDING_* (or the
// --embedding-* flags), and, for a domain of your own with none configured,
// embedding_failed saying what to set, never a silent lexical ranking. On
// the kitchen stack as a running Supabase, with a real local HTTP server
// standing in for the embeddings endpoint.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, test } from 'node:test';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { runToolCall } from '../../cli/tool-call.mjs';
import { lexicalVector } from '../../web/src/embedder.js';
import { EMBEDDER_FLAGS, EMBEDDER_TABLE, chooseEmbedder, embeddingUses, readEmbedderSettings } from '../../web/src/embedder-settings.js';
import { kitchen } from '../../web/src/kitchen.js';
import { mcpClient } from './support/mcp-client.mjs';
import { ROOT, SCRATCH } from './support/paths.mjs';
import { sharedStack } from './support/stack.mjs';

const stack = sharedStack();
const ada = () => stack().users[0];

// An OpenAI-compatible /embeddings that answers with the lexical vectors
// the kitchen seed was embedded with, so its rankings are the seed's.
let embeddings;
let dir;
let domainFile;
before(async () => {
  await mkdir(SCRATCH, { recursive: true });
  dir = await mkdtemp(join(SCRATCH, 'cli-embedder-'));
  domainFile = join(dir, 'domain.json');
  await writeFile(domainFile, JSON.stringify(kitchen));
  const requests = [];
  const server = createServer(async (request, response) => {
    const chunks = [];
    for await (const chunk of request) chunks.push(chunk);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    requests.push({ path: request.url, authorization: request.headers.authorization, body });
    const data = body.input.map((text, index) => ({ object: 'embedding', index, embedding: lexicalVector(text) }));
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data }));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  embeddings = { url: `http://127.0.0.1:${server.address().port}/v1`, requests, stop: () => new Promise((resolve) => server.close(resolve)) };
});
after(async () => {
  await embeddings?.stop();
  await rm(dir, { recursive: true, force: true });
});

async function cli(args, { env: extra = {} } = {}) {
  const out = [];
  const err = [];
  const env = { SUPABASE_URL: stack().supabaseUrl, SUPABASE_ANON_KEY: stack().anonKey, ALFRED_ACCESS_TOKEN: ada().token, ...extra };
  const code = await runToolCall(args, { env, out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, lines: out.join('\n'), trace: err.join('\n') };
}

const SEARCH = JSON.stringify({ table: 'recipes', filters: [{ field: '_semantic', op: 'similar', value: 'spicy chicken curry' }], limit: 2, columns: ['name'] });
const resultOf = (lines) => JSON.parse(lines);

test('the demo domain (no --domain), nothing configured: the lexical embedder its data was made with, and the output says so', async () => {
  const { code, lines } = await cli(['db_read', SEARCH]);
  assert.equal(code, 0, lines);
  assert.match(lines, /^→ POST .*\/rpc\/match_recipes/m);
  assert.match(lines, /\n\(the search text was embedded by lexical \(offline, the demo data's; ALFRED_EMBEDDING_MODEL or --embedding-model for your own\)\)$/);
});

test('regression: a domain of your own (--domain) with no embedder configured is embedding_failed before any request, saying what to set', async () => {
  const { code, lines, trace } = await cli(['db_read', SEARCH, '--domain', domainFile, '--json']);
  assert.equal(code, 1);
  const { error } = resultOf(lines);
  assert.equal(error.code, 'embedding_failed');
  assert.match(error.message, /^embedding the search text failed: no embedder is configured, and the lexical one \(shared words, not meaning\) would rank your rows by chance: set ALFRED_EMBEDDING_MODEL \(or --embedding-model\)/);
  assert.doesNotMatch(trace, /→/, 'nothing sent');
  assert.doesNotMatch(trace, /embedded by/);
});

test('ALFRED_EMBEDDING_MODEL and ALFRED_EMBEDDING_URL: the endpoint embeds (no dimensions sent), its own key only, and the output names it', async () => {
  embeddings.requests.length = 0;
  const env = { ALFRED_EMBEDDING_MODEL: 'gte-small', ALFRED_EMBEDDING_URL: embeddings.url, OPENAI_API_KEY: 'sk-for-openai-only' };
  const { code, lines, trace } = await cli(['db_read', SEARCH, '--domain', domainFile, '--json'], { env });
  assert.equal(code, 0, lines);
  assert.equal(resultOf(lines).data.length, 2);
  assert.deepEqual(embeddings.requests, [{ path: '/v1/embeddings', authorization: undefined, body: { model: 'gte-small', input: ['spicy chicken curry'] } }]);
  assert.match(trace, new RegExp(`\\(the search text was embedded by openai:gte-small at ${embeddings.url} \\(the model's own size\\)\\)$`));

  // The flags win over the variables; dimensions and the endpoint's own key are sent.
  embeddings.requests.length = 0;
  const flagged = await cli(['db_read', SEARCH, '--domain', domainFile, '--embedding-model', 'text-embedding-3-small', '--embedding-dimensions', '1536'], {
    env: { ...env, ALFRED_EMBEDDING_API_KEY: 'sk-embeddings' },
  });
  assert.equal(flagged.code, 0, flagged.lines);
  assert.deepEqual(embeddings.requests, [{ path: '/v1/embeddings', authorization: 'Bearer sk-embeddings', body: { model: 'text-embedding-3-small', input: ['spicy chicken curry'], dimensions: 1536 } }]);
  assert.match(flagged.lines, /\(the search text was embedded by openai:text-embedding-3-small at .* \(1536 dimensions\)\)$/);
});

test('--embedding-model lexical picks the lexical embedder on purpose, for any domain', async () => {
  const { code, lines } = await cli(['db_read', SEARCH, '--domain', domainFile, '--embedding-model', 'lexical']);
  assert.equal(code, 0, lines);
  assert.match(lines, /\(the search text was embedded by lexical \(offline: shared words, not meaning; --embedding-model\)\)$/);
});

test('embedder settings that cannot work are usage errors naming the flag or variable, before anything runs', async () => {
  const cases = [
    [['--embedding-dimensions', '384'], {}, '--embedding-dimensions', '--embedding-dimensions says where or how to embed, but no embedding model is named'],
    [[], { ALFRED_EMBEDDING_URL: 'http://127.0.0.1:1/v1' }, 'ALFRED_EMBEDDING_URL', 'ALFRED_EMBEDDING_URL says where or how to embed, but no embedding model is named'],
    [['--embedding-model', 'gte-small', '--embedding-dimensions', '384.5'], {}, '--embedding-dimensions', '--embedding-dimensions must be a whole number from 1 to 65535, got "384.5"'],
    [[], { ALFRED_EMBEDDING_MODEL: 'gte-small', ALFRED_EMBEDDING_DIMENSIONS: '0' }, 'ALFRED_EMBEDDING_DIMENSIONS', 'ALFRED_EMBEDDING_DIMENSIONS must be a whole number from 1 to 65535, got "0"'],
    [['--embedding-model', 'gte-small', '--embedding-url', 'localhost:8080'], {}, '--embedding-url', '--embedding-url is not an http(s) URL: "localhost:8080"'],
    [['--embedding-model', 'lexical', '--embedding-dimensions', '384'], {}, '--embedding-dimensions', 'the lexical embedder is offline and makes 1536 numbers: --embedding-dimensions does not apply'],
  ];
  for (const [flags, env, path, message] of cases) {
    const { code, lines } = await cli(['db_read', SEARCH, ...flags, '--json'], { env });
    assert.equal(code, 2, `${flags.join(' ')} ${JSON.stringify(env)}`);
    assert.deepEqual([resultOf(lines).error.code, resultOf(lines).error.path, resultOf(lines).error.message], ['invalid_option', path, message]);
  }
});

test('readEmbedderSettings: a flag wins over its variable, empty is not given, OPENAI_* fill in only for OpenAI\'s own endpoint', () => {
  assert.deepEqual(readEmbedderSettings({ env: {} }), { data: null, error: null });
  assert.deepEqual(readEmbedderSettings({ env: { ALFRED_EMBEDDING_MODEL: '  ' } }), { data: null, error: null });
  // A key without a model would be silently ignored: it is refused, like the URL and the size.
  assert.deepEqual(readEmbedderSettings({ env: { ALFRED_EMBEDDING_API_KEY: 'sk-e' } }).error?.path, 'ALFRED_EMBEDDING_API_KEY');
  assert.equal(readEmbedderSettings({ env: { ALFRED_EMBEDDING_MODEL: 'lexical', ALFRED_EMBEDDING_API_KEY: 'sk-e' } }).error?.message, 'the lexical embedder is offline and makes 1536 numbers: ALFRED_EMBEDDING_API_KEY does not apply');
  assert.deepEqual(readEmbedderSettings({ env: { ALFRED_EMBEDDING_MODEL: 'text-embedding-3-small', OPENAI_API_KEY: 'sk-1' } }).data, {
    model: 'text-embedding-3-small', baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-1', dimensions: null, given: 'ALFRED_EMBEDDING_MODEL',
  });
  assert.deepEqual(readEmbedderSettings({ env: { ALFRED_EMBEDDING_MODEL: 'nomic', OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1', OPENAI_API_KEY: 'ollama' } }).data, {
    model: 'nomic', baseUrl: 'http://127.0.0.1:11434/v1', apiKey: 'ollama', dimensions: null, given: 'ALFRED_EMBEDDING_MODEL',
  });
  assert.deepEqual(
    readEmbedderSettings({ flags: { 'embedding-model': 'gte-small', 'embedding-dimensions': '384' }, env: { ALFRED_EMBEDDING_MODEL: 'other', ALFRED_EMBEDDING_DIMENSIONS: '1536', ALFRED_EMBEDDING_URL: 'http://h:1/v1', OPENAI_API_KEY: 'sk-1' } }).data,
    { model: 'gte-small', baseUrl: 'http://h:1/v1', apiKey: undefined, dimensions: 384, given: '--embedding-model' },
  );
  assert.deepEqual(Object.keys(EMBEDDER_FLAGS), ['embedding-model', 'embedding-url', 'embedding-dimensions']);
  assert.deepEqual(EMBEDDER_TABLE.map((row) => row.variable), ['ALFRED_EMBEDDING_MODEL', 'ALFRED_EMBEDDING_URL', 'ALFRED_EMBEDDING_DIMENSIONS', 'ALFRED_EMBEDDING_API_KEY']);
});

test('chooseEmbedder and embeddingUses: the configured one, lexical for the demo, else one that fails saying what to set', async () => {
  assert.equal(chooseEmbedder({ settings: null, demo: true }).embedder.name, 'lexical');
  const none = chooseEmbedder({ settings: null, demo: false });
  assert.equal(none.embedder.name, 'none');
  await assert.rejects(none.embedder.embed(['x']), { name: 'EmbeddingError', code: 'invalid_option', message: /^no embedder is configured/ });
  const { embedder } = chooseEmbedder({ settings: { model: 'gte-small', baseUrl: 'http://h:1/v1', apiKey: undefined, dimensions: 384, given: 'x' }, demo: true });
  assert.deepEqual([embedder.name, embedder.dimensions], ['openai:gte-small', 384]);
  assert.deepEqual(embeddingUses(kitchen), ['recipes (search by meaning)']);
  assert.deepEqual(embeddingUses({ tables: {}, functions: { match_page_sections: { args: { embedding: { type: 'vector' }, match_count: { type: 'integer' } } }, get_accounts: {} } }), ['match_page_sections(embedding)']);
});

test('the embedded local stack (no SUPABASE_URL): the call that needs the database is first tried without it, and the endpoint is asked once', async () => {
  embeddings.requests.length = 0;
  const out = [];
  const env = { ALFRED_EMBEDDING_MODEL: 'gte-small', ALFRED_EMBEDDING_URL: embeddings.url };
  const code = await runToolCall(['db_read', SEARCH], { env, out: (line) => out.push(line), err: (line) => out.push(line) });
  assert.equal(code, 0, out.join('\n'));
  assert.equal(embeddings.requests.length, 1, 'the probe pass, which stops before the first request, never embeds');
  assert.match(out.join('\n'), /^→ POST .*\/rpc\/match_recipes/m);
});

// `alfred-act mcp` with `args` and `env` on the kitchen stack, connected:
// `{ client, stderr() }`.
async function mcp(t, { args = [], env = {} } = {}) {
  const nodeOptions = process.env.NODE_OPTIONS ? { NODE_OPTIONS: process.env.NODE_OPTIONS } : {};
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['bin/alfred-act.mjs', 'mcp', ...args],
    cwd: ROOT,
    env: { PATH: process.env.PATH, ...nodeOptions, SUPABASE_URL: stack().supabaseUrl, SUPABASE_ANON_KEY: stack().anonKey, SUPABASE_ACCESS_TOKEN: ada().token, ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr.on('data', (chunk) => (stderr += chunk));
  const client = mcpClient();
  await client.connect(transport);
  t.after(() => client.close());
  return { client, stderr: () => stderr };
}

const searchByMeaning = async (client) => {
  const result = await client.callTool({ name: 'db_read', arguments: JSON.parse(SEARCH) });
  return { isError: result.isError, body: JSON.parse(result.content[0].text) };
};

test('alfred-act mcp on a domain of your own with no embedder: a note at start, and a search by meaning is embedding_failed saying what to set', async (t) => {
  const { client, stderr } = await mcp(t, { args: ['--domain', domainFile] });
  const { isError, body } = await searchByMeaning(client);
  assert.equal(isError, true);
  assert.equal(body.error.code, 'embedding_failed');
  assert.match(body.error.message, /no embedder is configured, and the lexical one \(shared words, not meaning\) would rank your rows by chance: set ALFRED_EMBEDDING_MODEL/);
  assert.match(stderr(), /\nalfred-act mcp: note: embeddings for recipes \(search by meaning\): none configured: search by meaning fails \(embedding_failed\) until ALFRED_EMBEDDING_MODEL or --embedding-model names the model your rows were embedded with\n/);
});

test('alfred-act mcp with ALFRED_EMBEDDING_MODEL and --embedding-url: the endpoint embeds the search, said at start', async (t) => {
  embeddings.requests.length = 0;
  const { client, stderr } = await mcp(t, { args: ['--domain', domainFile, '--embedding-url', embeddings.url], env: { ALFRED_EMBEDDING_MODEL: 'gte-small' } });
  const { isError, body } = await searchByMeaning(client);
  assert.equal(Boolean(isError), false, JSON.stringify(body));
  assert.deepEqual(body.rows.map((row) => row.name), ['Thai Red Chicken Curry', 'Butter Chicken']);
  assert.deepEqual(embeddings.requests.map((request) => request.body), [{ model: 'gte-small', input: ['spicy chicken curry'] }]);
  assert.match(stderr(), new RegExp(`\\nalfred-act mcp: embeddings for recipes \\(search by meaning\\): openai:gte-small at ${embeddings.url} \\(the model's own size\\)\\n`));
});

test('alfred-act mcp on the demo stack (no --domain): the lexical embedder of its data, said at start; a bad setting is a usage error', async (t) => {
  const { client, stderr } = await mcp(t);
  const { isError, body } = await searchByMeaning(client);
  assert.equal(Boolean(isError), false, JSON.stringify(body));
  assert.deepEqual(body.rows.map((row) => row.name), ['Thai Red Chicken Curry', 'Butter Chicken'], 'the ranking the endpoint of lexical vectors gave');
  assert.match(stderr(), /\nalfred-act mcp: embeddings for recipes \(search by meaning\): lexical \(offline, the demo data's; ALFRED_EMBEDDING_MODEL or --embedding-model for your own\)\n/);

  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, ['bin/alfred-act.mjs', 'mcp', '--embedding-dimensions', '384'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, SUPABASE_URL: stack().supabaseUrl, SUPABASE_ANON_KEY: stack().anonKey, SUPABASE_ACCESS_TOKEN: ada().token },
  });
  let err = '';
  child.stderr.on('data', (chunk) => (err += chunk));
  child.stdin.end();
  assert.equal(await new Promise((resolve) => child.once('exit', resolve)), 2);
  assert.match(err, /^alfred-act mcp: --embedding-dimensions says where or how to embed, but no embedding model is named \(set ALFRED_EMBEDDING_MODEL \(or --embedding-model\) to the model your rows were embedded with\)\n/);
});
