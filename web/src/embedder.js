// Text → vectors for a domain's embedding columns and its
// semantic-search RPC (the kitchen's recipes.embedding and match_recipes).
// Two embedders with one shape, { name, dimensions, embed(texts) }:
//
// - lexicalEmbedder: offline and deterministic, no model, no network. It is
//   LEXICAL, not semantic: two texts are close only when they share words
//   (after lower-casing, accent folding and a tiny plural stemmer), so
//   "spicy chicken curry" finds "Chicken Curry" but not "Vindaloo". Each word
//   and each pair of adjacent words is feature-hashed (FNV-1a) into one of
//   1536 dimensions with a hashed sign, and the vector is L2-normalized, so
//   cosine distance (pgvector's <=>) falls as the share of common words grows.
//   Good for tests, demos and offline use; vectors from it are not comparable
//   with a model's vectors, so a database is embedded with one or the other.
// - openAIEmbedder: any OpenAI-compatible POST /embeddings endpoint
//   (text-embedding-3-small by default). Its vectors are the model's size:
//   `dimensions` is sent only when the caller gives it (ada-002 and many
//   compatible servers refuse or ignore the parameter), and an answer is
//   then held to it; without it, every vector of one answer must have the
//   same size. The act checks the size against the function's declared
//   `dimensions` (embedding_failed, before anything is sent).
//
// Runs in Node, browsers, workers and Deno: no node: imports.

import { codes } from '../dist/error-codes.mjs';

export const EMBEDDING_DIMENSIONS = 1536;

/** The largest vector pgvector's `vector` type holds, and the largest `dimensions` a domain's argument declares. */
export const MAX_EMBEDDING_DIMENSIONS = 65535;

/** A failed embedding call; `code` is `http_error`, `bad_response` or `network_error`. */
export class EmbeddingError extends Error {
  constructor({ code, message, status = null, cause }) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'EmbeddingError';
    this.code = code;
    this.status = status;
  }
}

// Words that carry no meaning for matching recipes to requests.
const STOP_WORDS = new Set(['a', 'an', 'and', 'the', 'with', 'of', 'in', 'on', 'for', 'to', 'or', 'my', 'some']);
const BIGRAM_WEIGHT = 0.5;
const utf8 = new TextEncoder();

/** tomatoes → tomato, berries → berry, dishes → dish, eggs → egg; "hummus", "glass" stay. */
function singular(word) {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && /(oes|ches|shes|sses|xes)$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !/(ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

/** Lower-cased, accent-folded word tokens (Unicode letters and digits), singular, no stop words. */
export function lexicalTokens(text) {
  const folded = String(text).toLowerCase().normalize('NFKD').replace(/\p{M}+/gu, '');
  const words = folded.match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.filter((word) => !STOP_WORDS.has(word)).map(singular);
}

function fnv1a(text) {
  let hash = 0x811c9dc5;
  for (const byte of utf8.encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

// murmur3's finalizer: the sign must not follow from the dimension (both
// would otherwise come from the same low bits of one hash).
function mix(hash) {
  let h = hash;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

function addFeature(vector, feature, weight) {
  const hash = fnv1a(feature);
  vector[hash % EMBEDDING_DIMENSIONS] += mix(hash) & 1 ? weight : -weight;
}

/** The lexical vector of one text; all zeros when it has no words. */
export function lexicalVector(text) {
  const vector = new Array(EMBEDDING_DIMENSIONS).fill(0);
  const tokens = lexicalTokens(text);
  tokens.forEach((token, i) => {
    addFeature(vector, token, 1);
    // A space cannot occur inside a token, so "a b" never collides with a word.
    if (i > 0) addFeature(vector, `${tokens[i - 1]} ${token}`, BIGRAM_WEIGHT);
  });
  const norm = Math.hypot(...vector);
  return norm === 0 ? vector : vector.map((x) => x / norm);
}

/**
 * The offline, deterministic, lexical embedder (see the top of this file).
 *
 * @example
 * const [query] = await lexicalEmbedder.embed(['spicy chicken curry'])
 * await fetch(`${url}/rpc/match_recipes`, { method: 'POST', headers, body: JSON.stringify({ query_embedding: query }) })
 */
export const lexicalEmbedder = Object.freeze({
  name: 'lexical',
  dimensions: EMBEDDING_DIMENSIONS,
  async embed(texts) {
    return texts.map(lexicalVector);
  },
});

/**
 * An embedder behind an OpenAI-compatible `POST {baseUrl}/embeddings`.
 * `dimensions` (a whole number from 1 to 65535) is sent as the request's
 * `dimensions` and every vector must have that many numbers; left out, the
 * request has no `dimensions` (text-embedding-ada-002 and most compatible
 * servers refuse or ignore it), the model's own size is taken, and
 * `.dimensions` is null. Throws TypeError for a missing `baseUrl`, a
 * `dimensions` that is not such a number, or no `fetch`; `embed` rejects with
 * an `EmbeddingError`.
 *
 * @example
 * const embedder = openAIEmbedder({ baseUrl: 'https://api.openai.com/v1', apiKey })
 * const [vector] = await embedder.embed(['spicy chicken curry'])   // 1536 numbers, text-embedding-3-small's own size
 * const small = openAIEmbedder({ baseUrl: 'http://127.0.0.1:8080/v1', model: 'gte-small', dimensions: 384 })
 */
export function openAIEmbedder({ baseUrl, apiKey, model = 'text-embedding-3-small', dimensions, fetch = globalThis.fetch } = {}) {
  if (typeof baseUrl !== 'string' || baseUrl === '') throw new TypeError('openAIEmbedder: baseUrl is required');
  if (typeof fetch !== 'function') throw new TypeError('openAIEmbedder: no fetch in this runtime; pass one');
  const size = dimensions ?? null;
  if (size !== null && !(Number.isSafeInteger(size) && size >= 1 && size <= MAX_EMBEDDING_DIMENSIONS)) {
    throw new TypeError(`openAIEmbedder: dimensions must be a whole number from 1 to ${MAX_EMBEDDING_DIMENSIONS} (the size of the vectors your rows hold), got ${String(dimensions).slice(0, 40)}`);
  }
  const url = `${baseUrl.replace(/\/+$/, '')}/embeddings`;
  const headers = { 'content-type': 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) };

  async function embed(texts) {
    if (!Array.isArray(texts) || texts.some((text) => typeof text !== 'string')) {
      throw new TypeError('embed: texts must be an array of strings');
    }
    if (texts.length === 0) return [];
    const body = JSON.stringify({ model, input: texts, ...(size === null ? {} : { dimensions: size }) });
    let response;
    try {
      response = await fetch(url, { method: 'POST', headers, body });
    } catch (cause) {
      throw new EmbeddingError({ code: codes.network_error, message: `embedding request to ${url} failed: ${cause?.message ?? cause}`, cause });
    }
    const text = await response.text();
    if (!response.ok) {
      throw new EmbeddingError({
        code: codes.http_error,
        status: response.status,
        message: `embedding request failed with HTTP ${response.status}: ${providerMessage(text)}`,
      });
    }
    return vectorsOf(text, texts.length, size);
  }

  return Object.freeze({ name: `openai:${model}`, dimensions: size, embed });
}

function providerMessage(text) {
  try {
    return JSON.parse(text)?.error?.message ?? text.slice(0, 200);
  } catch {
    return text.slice(0, 200);
  }
}

// The vectors of an embeddings response in input order (data[].index), each
// checked to be finite numbers: `size` of them when the caller asked for a
// size, else as many as the answer's other vectors (a server that mixes sizes
// in one answer is broken, and rows embedded by it could not be compared).
function vectorsOf(text, count, size) {
  const bad = (why) => new EmbeddingError({ code: codes.bad_response, message: `embedding response ${why}` });
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    throw bad('is not JSON');
  }
  if (!Array.isArray(json?.data) || json.data.length !== count) throw bad(`does not hold ${count} embeddings`);
  const vectors = new Array(count);
  let first = null;
  for (const [position, item] of json.data.entries()) {
    const index = Number.isInteger(item?.index) ? item.index : position;
    const vector = item?.embedding;
    if (index < 0 || index >= count || vectors[index]) throw bad(`has a wrong or repeated index ${index}`);
    if (!Array.isArray(vector) || vector.length === 0 || !vector.every(Number.isFinite)) throw bad(`embedding ${index} is not a list of numbers`);
    if (size !== null && vector.length !== size) {
      throw bad(`embedding ${index} is not ${size} numbers (it has ${vector.length}): the dimensions asked for; the model or server may not take \`dimensions\``);
    }
    if (first && vector.length !== first.length) {
      throw bad(`embedding ${index} has ${vector.length} numbers and embedding ${first.index} has ${first.length}: one answer's embeddings differ in size`);
    }
    first ??= { index, length: vector.length };
    vectors[index] = vector;
  }
  return vectors;
}

/**
 * The text a row of `table` is embedded from: the columns the domain lists in
 * that table's `middleware.semantic.text`, in order; each text column is one
 * part, the items of the text[] columns are joined into one last part. Throws
 * TypeError when the table has no such list (nothing to embed by).
 *
 * @example
 * embeddingText(kitchen, 'recipes', { name: 'Chicken Curry', cuisine: 'indian', tags: ['spicy'] })  // 'Chicken Curry. indian. spicy'
 */
export function embeddingText(domain, table, row) {
  const columns = domain?.tables?.[table]?.middleware?.semantic?.text;
  if (!Array.isArray(columns)) throw new TypeError(`embeddingText: ${table} has no middleware.semantic.text in the domain`);
  const spec = domain.tables[table].columns;
  const lists = columns.filter((name) => spec[name]?.type === 'text[]').flatMap((name) => row[name] ?? []);
  return [...columns.filter((name) => spec[name]?.type !== 'text[]').map((name) => row[name]), lists.join(', ')]
    .map((part) => (typeof part === 'string' ? part.trim().replace(/\.+$/, '') : ''))
    .filter((part) => part !== '')
    .join('. ');
}
