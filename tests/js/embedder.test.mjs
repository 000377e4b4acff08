// web/src/embedder.js: the lexical embedder's tokens and geometry, the recipe
// text, and openAIEmbedder against a real local HTTP server.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { test } from 'node:test';
import {
  EmbeddingError,
  embeddingText,
  lexicalEmbedder,
  lexicalTokens,
  lexicalVector,
  openAIEmbedder,
} from '../../web/src/embedder.js';
import { kitchen, recipeEmbeddingText } from '../../web/src/kitchen.js';

const dot = (a, b) => a.reduce((sum, x, i) => sum + x * b[i], 0);
const cosineDistance = (a, b) => 1 - dot(a, b);

test('tokens: lower-case, accent-folded, singular, without stop words', () => {
  assert.deepEqual(lexicalTokens('Tomatoes, JALAPEÑOS & the Dishes of berries'), ['tomato', 'jalapeno', 'dish', 'berry']);
  assert.deepEqual(lexicalTokens('hummus glass eggs 2 boxes'), ['hummus', 'glass', 'egg', '2', 'box']);
  assert.deepEqual(lexicalTokens('Phở Gà — 100% rye!'), ['pho', 'ga', '100', 'rye']);
  assert.deepEqual(lexicalTokens('  ,;  '), []);
});

test('lexicalEmbedder: 1536 unit-length numbers, deterministic, zero for text without words', async () => {
  assert.equal(lexicalEmbedder.name, 'lexical');
  assert.equal(lexicalEmbedder.dimensions, 1536);
  const [a, b, empty] = await lexicalEmbedder.embed(['spicy chicken curry', 'spicy chicken curry', '...']);
  assert.equal(a.length, 1536);
  assert.ok(Math.abs(dot(a, a) - 1) < 1e-12);
  assert.deepEqual(a, b);
  assert.ok(empty.every((x) => x === 0));
  assert.deepEqual(await lexicalEmbedder.embed([]), []);
});

test('lexical distance falls with shared words, plural or accented', () => {
  const query = lexicalVector('spicy chicken curry');
  const curry = lexicalVector(recipeEmbeddingText({ name: 'Thai Red Chicken Curry', cuisine: 'thai', tags: ['curry', 'chicken'], flavor_tags: ['spicy'] }));
  const stew = lexicalVector('Chicken stew with carrots');
  const dessert = lexicalVector('Crème brûlée with vanilla');
  assert.ok(cosineDistance(query, curry) < cosineDistance(query, stew));
  assert.ok(cosineDistance(query, stew) < cosineDistance(query, dessert));
  assert.ok(Math.abs(cosineDistance(query, dessert) - 1) < 0.1, 'no shared word: about orthogonal');
  assert.ok(cosineDistance(lexicalVector('creme brulee'), dessert) < 0.5);
  assert.ok(cosineDistance(lexicalVector('tomatoes'), lexicalVector('tomato')) < 1e-12);
});

test('recipeEmbeddingText joins name, description, cuisine and tags, skipping blanks', () => {
  assert.equal(
    recipeEmbeddingText({ name: 'Chana Masala', description: 'Chickpea curry.', cuisine: 'indian', tags: ['vegan'], flavor_tags: ['spicy'], occasions: null }),
    'Chana Masala. Chickpea curry. indian. vegan, spicy',
  );
  assert.equal(recipeEmbeddingText({ name: 'Toast', description: ' ', cuisine: null }), 'Toast');
});

test('embeddingText: the columns the domain lists in semantic.text, for any domain; none listed is an error', () => {
  assert.deepEqual(kitchen.tables.recipes.middleware.semantic.text, ['name', 'description', 'cuisine', 'tags', 'flavor_tags', 'occasions', 'health_tags']);
  const recipe = { name: 'Dal', cuisine: 'indian', occasions: ['weeknight'], tags: ['vegan'] };
  assert.equal(embeddingText(kitchen, 'recipes', recipe), recipeEmbeddingText(recipe));
  assert.equal(recipeEmbeddingText(recipe), 'Dal. indian. vegan, weeknight');
  const notes = {
    tables: {
      notes: {
        ref: 'note',
        middleware: { semantic: { rpc: 'match_notes', text: ['title', 'labels', 'body'] } },
        columns: { id: { type: 'uuid' }, title: { type: 'text' }, body: { type: 'text' }, labels: { type: 'text[]' } },
      },
    },
  };
  assert.equal(embeddingText(notes, 'notes', { title: 'Q3 plan.', body: 'Hire two', labels: ['draft', 'ops'] }), 'Q3 plan. Hire two. draft, ops');
  assert.throws(() => embeddingText(kitchen, 'inventory', { name: 'milk' }), /embeddingText: inventory has no middleware\.semantic\.text in the domain/);
});

async function embeddingsServer(answer) {
  const requests = [];
  const server = createServer(async (request, response) => {
    const chunks = [];
    for await (const chunk of request) chunks.push(chunk);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    requests.push({ method: request.method, path: request.url, headers: request.headers, body });
    const { status = 200, json } = answer(body);
    response.writeHead(status, { 'content-type': 'application/json' }).end(typeof json === 'string' ? json : JSON.stringify(json));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${server.address().port}/v1`,
    requests,
    stop: () => new Promise((resolve) => server.close(resolve)),
  };
}

const vectorOf = (seed, size = 1536) => Array.from({ length: size }, (_, i) => (i === seed ? 1 : 0));
const answerOf = (body, size) => ({ json: { object: 'list', data: body.input.map((_, i) => ({ object: 'embedding', index: i, embedding: vectorOf(i, size) })) } });

test('openAIEmbedder posts {model, input} to /embeddings, without dimensions unless given, and returns the vectors in input order', async (t) => {
  const server = await embeddingsServer((body) => ({
    // Out of order on purpose: the index field decides.
    json: { object: 'list', data: body.input.map((_, i) => ({ object: 'embedding', index: i, embedding: vectorOf(i) })).reverse() },
  }));
  t.after(server.stop);
  const embedder = openAIEmbedder({ baseUrl: `${server.baseUrl}/`, apiKey: 'sk-test' });
  assert.equal(embedder.name, 'openai:text-embedding-3-small');
  assert.equal(embedder.dimensions, null, 'the model decides the size');
  const vectors = await embedder.embed(['a', 'b', 'c']);
  assert.deepEqual(vectors, [vectorOf(0), vectorOf(1), vectorOf(2)]);
  const [request] = server.requests;
  assert.equal(request.method, 'POST');
  assert.equal(request.path, '/v1/embeddings');
  assert.equal(request.headers.authorization, 'Bearer sk-test');
  assert.deepEqual(request.body, { model: 'text-embedding-3-small', input: ['a', 'b', 'c'] });
  assert.deepEqual(await embedder.embed([]), [], 'no request for no texts');
  assert.equal(server.requests.length, 1);
});

// chatgpt-your-files embeds with gte-small: 384 numbers. The embedder used to
// send dimensions 1536 whatever the model and refuse the 384-number answer.
test('regression: a 384-dimension model (gte-small) without dimensions: no dimensions sent, its 384 numbers taken', async (t) => {
  const server = await embeddingsServer((body) => answerOf(body, 384));
  t.after(server.stop);
  const embedder = openAIEmbedder({ baseUrl: server.baseUrl, model: 'Supabase/gte-small' });
  assert.equal(embedder.name, 'openai:Supabase/gte-small');
  const [a, b] = await embedder.embed(['breads baking', 'sourdough']);
  assert.deepEqual([a, b], [vectorOf(0, 384), vectorOf(1, 384)]);
  assert.deepEqual(server.requests[0].body, { model: 'Supabase/gte-small', input: ['breads baking', 'sourdough'] });
  assert.equal(server.requests[0].headers.authorization, undefined, 'no key, no authorization header');
});

test('openAIEmbedder({ dimensions: 384 }): sent in the request, .dimensions is 384, and an answer of another size is bad_response', async (t) => {
  const sizes = [384, 1536];
  const server = await embeddingsServer((body) => answerOf(body, sizes.shift()));
  t.after(server.stop);
  const embedder = openAIEmbedder({ baseUrl: server.baseUrl, apiKey: 'sk-test', model: 'text-embedding-3-small', dimensions: 384 });
  assert.equal(embedder.dimensions, 384);
  assert.deepEqual(await embedder.embed(['x']), [vectorOf(0, 384)]);
  assert.deepEqual(server.requests[0].body, { model: 'text-embedding-3-small', input: ['x'], dimensions: 384 });
  // A server that ignores the parameter answers with its own size.
  await assert.rejects(embedder.embed(['x']), {
    name: 'EmbeddingError',
    code: 'bad_response',
    message: 'embedding response embedding 0 is not 384 numbers (it has 1536): the dimensions asked for; the model or server may not take `dimensions`',
  });
  assert.equal(openAIEmbedder({ baseUrl: server.baseUrl, dimensions: null }).dimensions, null, 'null: not given');
});

test('openAIEmbedder without dimensions: one answer whose embeddings differ in size, or hold no numbers, is bad_response', async (t) => {
  const answers = [
    { json: { data: [{ index: 0, embedding: vectorOf(0, 384) }, { index: 1, embedding: vectorOf(1, 383) }] } },
    { json: { data: [{ index: 0, embedding: [] }] } },
    { json: { data: [{ index: 0, embedding: [1, 'two'] }] } },
  ];
  const server = await embeddingsServer(() => answers.shift());
  t.after(server.stop);
  const embedder = openAIEmbedder({ baseUrl: server.baseUrl });
  await assert.rejects(embedder.embed(['a', 'b']), {
    code: 'bad_response',
    message: "embedding response embedding 1 has 383 numbers and embedding 0 has 384: one answer's embeddings differ in size",
  });
  await assert.rejects(embedder.embed(['a']), { code: 'bad_response', message: 'embedding response embedding 0 is not a list of numbers' });
  await assert.rejects(embedder.embed(['a']), { code: 'bad_response', message: 'embedding response embedding 0 is not a list of numbers' });
});

test('openAIEmbedder refuses a dimensions that is not a whole number from 1 to 65535, before any request', () => {
  for (const dimensions of [0, -384, 384.5, 65536, '384', Number.NaN, true]) {
    assert.throws(() => openAIEmbedder({ baseUrl: 'http://127.0.0.1:1/v1', dimensions }), {
      name: 'TypeError',
      message: new RegExp(`^openAIEmbedder: dimensions must be a whole number from 1 to 65535 \\(the size of the vectors your rows hold\\), got ${String(dimensions).replace('.', '\\.')}$`),
    });
  }
  assert.equal(openAIEmbedder({ baseUrl: 'http://127.0.0.1:1/v1', dimensions: 65535 }).dimensions, 65535);
});

test('openAIEmbedder errors carry a code: http_error with status, bad_response, network_error', async (t) => {
  const answers = [
    { status: 401, json: { error: { message: 'Incorrect API key provided' } } },
    { json: 'not json' },
    { json: { data: [{ index: 0, embedding: [1, 2, 3] }] } },
    { json: { data: [] } },
  ];
  const server = await embeddingsServer(() => answers.shift());
  t.after(server.stop);
  const embedder = openAIEmbedder({ baseUrl: server.baseUrl, apiKey: 'sk-bad', dimensions: 1536 });
  await assert.rejects(embedder.embed(['x']), (e) => e instanceof EmbeddingError && e.code === 'http_error' && e.status === 401 && /Incorrect API key/.test(e.message));
  await assert.rejects(embedder.embed(['x']), { code: 'bad_response', message: /not JSON/ });
  await assert.rejects(embedder.embed(['x']), { code: 'bad_response', message: /embedding 0 is not 1536 numbers \(it has 3\)/ });
  await assert.rejects(embedder.embed(['x']), { code: 'bad_response', message: /does not hold 1 embeddings/ });
  await assert.rejects(embedder.embed('x'), TypeError);

  const closed = openAIEmbedder({ baseUrl: 'http://127.0.0.1:1/v1' });
  await assert.rejects(closed.embed(['x']), { code: 'network_error' });
});

// The act, not the embedder, holds the vector to the function's declared size.
test('openAIEmbedder in an act: a 384-number answer goes to a vector(384) argument; a function declaring 1536 refuses it before any request', async (t) => {
  const { loadCore } = await import('../../web/src/index.node.js');
  const { signJwt } = await import('../../db/jwt.mjs');
  const core = await loadCore();
  const server = await embeddingsServer((body) => answerOf(body, 384));
  t.after(server.stop);
  const sections = (dimensions) => ({
    name: 'files',
    tables: {
      documents: { ref: 'doc', label: ['name'], columns: { id: { type: 'uuid', writable: false }, name: { type: 'text' } } },
    },
    functions: {
      match_page_sections: {
        read: true,
        args: { embedding: { type: 'vector', required: true, dimensions }, match_count: { type: 'integer' } },
        returns: { type: 'json', set: true },
      },
    },
  });
  const sent = [];
  const fetch = async (url, init) => {
    sent.push({ url, body: init.body });
    return new Response('[{"content":"Bake the sourdough bread"}]', { status: 200, headers: { 'content-type': 'application/json' } });
  };
  const userId = 'a1f0ed00-0000-4000-8000-00000000000a';
  const accessToken = signJwt({ sub: userId, role: 'authenticated', exp: Math.floor(Date.now() / 1000) + 600 }, 'test-secret-of-at-least-32-characters!');
  const actOf = (dimensions) =>
    core.createAct({ restUrl: 'http://127.0.0.1:9', apiKey: 'anon', accessToken, userId, domain: sections(dimensions), fetch, embedder: openAIEmbedder({ baseUrl: server.baseUrl, model: 'gte-small' }) });
  const call = { function: 'match_page_sections', args: { embedding: 'breads baking', match_count: 3 } };

  const found = await actOf(384).execute('db_call', call);
  assert.equal(found.error, null, JSON.stringify(found.error));
  assert.deepEqual(found.data, [{ content: 'Bake the sourdough bread' }]);
  assert.equal(sent.length, 1);
  // pgvector's text form of the 384 numbers.
  assert.deepEqual(JSON.parse(sent[0].body), { embedding: JSON.stringify(vectorOf(0, 384)), match_count: 3 });

  const refused = await actOf(1536).execute('db_call', call);
  assert.equal(refused.error.code, 'embedding_failed');
  assert.equal(refused.error.message, 'the embedder gave 384 numbers, and embedding takes a vector of 1536');
  assert.equal(sent.length, 1, 'nothing sent');
  assert.deepEqual(server.requests.map((request) => request.body), [{ model: 'gte-small', input: ['breads baking'] }, { model: 'gte-small', input: ['breads baking'] }]);
});
