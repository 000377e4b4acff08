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

const vectorOf = (seed) => Array.from({ length: 1536 }, (_, i) => (i === seed ? 1 : 0));

test('openAIEmbedder posts {model, input, dimensions} to /embeddings and returns the vectors in input order', async (t) => {
  const server = await embeddingsServer((body) => ({
    // Out of order on purpose: the index field decides.
    json: { object: 'list', data: body.input.map((_, i) => ({ object: 'embedding', index: i, embedding: vectorOf(i) })).reverse() },
  }));
  t.after(server.stop);
  const embedder = openAIEmbedder({ baseUrl: `${server.baseUrl}/`, apiKey: 'sk-test' });
  assert.equal(embedder.name, 'openai:text-embedding-3-small');
  assert.equal(embedder.dimensions, 1536);
  const vectors = await embedder.embed(['a', 'b', 'c']);
  assert.deepEqual(vectors, [vectorOf(0), vectorOf(1), vectorOf(2)]);
  const [request] = server.requests;
  assert.equal(request.method, 'POST');
  assert.equal(request.path, '/v1/embeddings');
  assert.equal(request.headers.authorization, 'Bearer sk-test');
  assert.deepEqual(request.body, { model: 'text-embedding-3-small', input: ['a', 'b', 'c'], dimensions: 1536 });
  assert.deepEqual(await embedder.embed([]), [], 'no request for no texts');
  assert.equal(server.requests.length, 1);
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
  const embedder = openAIEmbedder({ baseUrl: server.baseUrl, apiKey: 'sk-bad' });
  await assert.rejects(embedder.embed(['x']), (e) => e instanceof EmbeddingError && e.code === 'http_error' && e.status === 401 && /Incorrect API key/.test(e.message));
  await assert.rejects(embedder.embed(['x']), { code: 'bad_response', message: /not JSON/ });
  await assert.rejects(embedder.embed(['x']), { code: 'bad_response', message: /not 1536 numbers/ });
  await assert.rejects(embedder.embed(['x']), { code: 'bad_response', message: /does not hold 1 embeddings/ });
  await assert.rejects(embedder.embed('x'), TypeError);

  const closed = openAIEmbedder({ baseUrl: 'http://127.0.0.1:1/v1' });
  await assert.rejects(closed.embed(['x']), { code: 'network_error' });
});
