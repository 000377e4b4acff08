// Which embedder the command-line surfaces (`alfred-act <tool>` and
// `alfred-act mcp`) give their acts: one table of settings (flag, variable,
// meaning), read by one rule, as the policy options are (policy/options.js)
// and as the model is read from OPENAI_API_KEY / OPENAI_BASE_URL /
// ALFRED_LLM_MODEL (llm/index.js). The embedder must be the model the rows
// were embedded with: the offline lexical embedder on somebody's real
// database gives rankings that mean nothing, so it is the default only for
// the demo data (embedded with it); elsewhere, with nothing configured, a
// search by meaning fails with a message that says what to set.

import { EmbeddingError, MAX_EMBEDDING_DIMENSIONS, lexicalEmbedder, openAIEmbedder } from './embedder.js';
import { codes } from '../dist/error-codes.mjs';

/** The model name that picks the offline lexical embedder (`lexicalEmbedder`). */
export const LEXICAL_MODEL = 'lexical';

const DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/**
 * The embedder settings, one row each: the setting, its command-line flag
 * (null: the environment only, as a key should be), its environment variable
 * and what it means. docs/functions.md holds the same table.
 *
 * @example
 * EMBEDDER_TABLE.find((row) => row.setting === 'model').variable // 'ALFRED_EMBEDDING_MODEL'
 */
export const EMBEDDER_TABLE = Object.freeze(
  [
    {
      setting: 'model',
      flag: '--embedding-model',
      variable: 'ALFRED_EMBEDDING_MODEL',
      meaning: `the model of an OpenAI-compatible POST /embeddings endpoint, the one your rows were embedded with; ${LEXICAL_MODEL}: the offline lexical embedder (shared words, not meaning)`,
    },
    {
      setting: 'baseUrl',
      flag: '--embedding-url',
      variable: 'ALFRED_EMBEDDING_URL',
      meaning: `the endpoint's base URL (…/v1); default OPENAI_BASE_URL, else ${DEFAULT_BASE_URL}`,
    },
    {
      setting: 'dimensions',
      flag: '--embedding-dimensions',
      variable: 'ALFRED_EMBEDDING_DIMENSIONS',
      meaning: "the vectors' size, sent as the request's dimensions and required of the answer; default: the model's own size, nothing sent",
    },
    {
      setting: 'apiKey',
      flag: null,
      variable: 'ALFRED_EMBEDDING_API_KEY',
      meaning: "the endpoint's key; default OPENAI_API_KEY, unless ALFRED_EMBEDDING_URL or --embedding-url names the endpoint",
    },
  ].map((row) => Object.freeze(row)),
);

/** `parseArgs` options for the embedder flags. */
export const EMBEDDER_FLAGS = Object.freeze(
  Object.fromEntries(EMBEDDER_TABLE.filter((row) => row.flag).map((row) => [row.flag.slice(2), Object.freeze({ type: 'string' })])),
);

const quoted = (text) => JSON.stringify(String(text).slice(0, 60));

/**
 * The embedder settings from flags (`parseArgs`'s values, EMBEDDER_FLAGS)
 * and the environment, a flag winning over its variable and an empty value
 * not given: `{ data: { model, baseUrl, apiKey, dimensions, given } | null,
 * error: { code, path, message, hint } | null }`. `data` is null when no
 * model is named (no embedder configured); `given` is the flag or variable
 * that named it. The URL, the key and the size without a model are refused,
 * never ignored.
 *
 * @example
 * readEmbedderSettings({ env: { ALFRED_EMBEDDING_MODEL: 'gte-small', ALFRED_EMBEDDING_URL: 'http://127.0.0.1:8080/v1', ALFRED_EMBEDDING_DIMENSIONS: '384' } })
 * // { data: { model: 'gte-small', baseUrl: 'http://127.0.0.1:8080/v1', apiKey: undefined, dimensions: 384, given: 'ALFRED_EMBEDDING_MODEL' }, error: null }
 */
export function readEmbedderSettings({ flags = {}, env = {} } = {}) {
  const text = (value) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);
  const read = {};
  for (const row of EMBEDDER_TABLE) {
    const fromFlag = row.flag ? text(flags[row.flag.slice(2)]) : undefined;
    const value = fromFlag ?? text(env[row.variable]);
    if (value !== undefined) read[row.setting] = { value, name: fromFlag !== undefined ? row.flag : row.variable };
  }
  const refused = (path, message, hint) => ({ data: null, error: { code: codes.invalid_option, path, message, hint } });
  const modelHint = 'set ALFRED_EMBEDDING_MODEL (or --embedding-model) to the model your rows were embedded with';
  if (!read.model) {
    const stray = read.baseUrl ?? read.dimensions ?? read.apiKey;
    return stray ? refused(stray.name, `${stray.name} says where or how to embed, but no embedding model is named`, modelHint) : { data: null, error: null };
  }
  const model = read.model.value;
  let dimensions = null;
  if (read.dimensions) {
    const { value, name } = read.dimensions;
    dimensions = Number(value);
    if (!/^\d+$/.test(value) || dimensions < 1 || dimensions > MAX_EMBEDDING_DIMENSIONS) {
      return refused(name, `${name} must be a whole number from 1 to ${MAX_EMBEDDING_DIMENSIONS}, got ${quoted(value)}`, `the size of your vector columns: ${name}=384 for vector(384)`);
    }
  }
  if (model === LEXICAL_MODEL) {
    const stray = read.baseUrl ?? read.apiKey ?? (dimensions !== null && dimensions !== lexicalEmbedder.dimensions ? read.dimensions : undefined);
    if (stray) return refused(stray.name, `the ${LEXICAL_MODEL} embedder is offline and makes ${lexicalEmbedder.dimensions} numbers: ${stray.name} does not apply`, `drop ${stray.name}, or name a model in ${read.model.name}`);
    return { data: { model, baseUrl: null, apiKey: undefined, dimensions: lexicalEmbedder.dimensions, given: read.model.name }, error: null };
  }
  const baseUrl = read.baseUrl?.value ?? text(env.OPENAI_BASE_URL) ?? DEFAULT_BASE_URL;
  if (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol)) {
    const name = read.baseUrl?.name ?? 'OPENAI_BASE_URL';
    return refused(name, `${name} is not an http(s) URL: ${quoted(baseUrl)}`, `${name}=http://127.0.0.1:8080/v1, the base the endpoint's /embeddings is under`);
  }
  // OPENAI_API_KEY goes only where OPENAI_BASE_URL (or OpenAI itself) is: a
  // separately named endpoint gets its own key, or none.
  const apiKey = read.apiKey?.value ?? (read.baseUrl ? undefined : text(env.OPENAI_API_KEY));
  return { data: { model, baseUrl, apiKey, dimensions, given: read.model.name }, error: null };
}

const UNCONFIGURED =
  'no embedder is configured, and the lexical one (shared words, not meaning) would rank your rows by chance: ' +
  'set ALFRED_EMBEDDING_MODEL (or --embedding-model) to the model your rows were embedded with, and ALFRED_EMBEDDING_URL and ' +
  `ALFRED_EMBEDDING_DIMENSIONS as it needs, or ${LEXICAL_MODEL} to rank by shared words on purpose`;

/**
 * An embedder whose every call fails, saying what to configure (`message`,
 * by default in the command line's words): what a surface gets with no
 * embedder configured on a database that is not the demo's. The act reports
 * the failure as `embedding_failed` with this message, and sends nothing.
 *
 * @example
 * const embedder = unconfiguredEmbedder()
 * await embedder.embed(['breads baking']) // rejects: no embedder is configured …
 */
export function unconfiguredEmbedder(message = UNCONFIGURED) {
  return Object.freeze({
    name: 'none',
    dimensions: null,
    async embed() {
      throw new EmbeddingError({ code: codes.invalid_option, message });
    },
  });
}

/**
 * The embedder a command-line surface uses, and one line saying which:
 * `{ embedder, description }`. The configured one (readEmbedderSettings's
 * `data`); else, for the demo data (`demo`: embedded with it), the lexical
 * embedder; else unconfiguredEmbedder. `fetch` goes to openAIEmbedder.
 *
 * @example
 * const { embedder, description } = chooseEmbedder({ settings: null, demo: false })
 * // description: 'none configured: search by meaning fails (embedding_failed) until ALFRED_EMBEDDING_MODEL or --embedding-model names the model your rows were embedded with'
 */
export function chooseEmbedder({ settings, demo, fetch }) {
  if (settings?.model === LEXICAL_MODEL) return { embedder: lexicalEmbedder, description: `${LEXICAL_MODEL} (offline: shared words, not meaning; ${settings.given})` };
  if (settings) {
    const embedder = openAIEmbedder({ baseUrl: settings.baseUrl, apiKey: settings.apiKey, model: settings.model, dimensions: settings.dimensions, ...(fetch ? { fetch } : {}) });
    const size = settings.dimensions === null ? "the model's own size" : `${settings.dimensions} dimensions`;
    return { embedder, description: `${embedder.name} at ${settings.baseUrl} (${size})` };
  }
  if (demo) return { embedder: lexicalEmbedder, description: `${LEXICAL_MODEL} (offline, the demo data's; ALFRED_EMBEDDING_MODEL or --embedding-model for your own)` };
  return {
    embedder: unconfiguredEmbedder(),
    description: 'none configured: search by meaning fails (embedding_failed) until ALFRED_EMBEDDING_MODEL or --embedding-model names the model your rows were embedded with',
  };
}

/**
 * What in `domain` needs an embedder: the functions with a vector argument
 * (`name(arg)`) and the tables with semantic search (`table (search by
 * meaning)`); empty when nothing does.
 *
 * @example
 * embeddingUses(domain) // ['match_page_sections(embedding)']
 */
export function embeddingUses(domain) {
  const functions = Object.entries(domain?.functions ?? {}).flatMap(([name, fn]) =>
    Object.entries(fn?.args ?? {})
      .filter(([, spec]) => spec?.type === 'vector')
      .map(([arg]) => `${name}(${arg})`),
  );
  const tables = Object.entries(domain?.tables ?? {})
    .filter(([, spec]) => spec?.middleware?.semantic)
    .map(([name]) => `${name} (search by meaning)`);
  return [...functions, ...tables];
}
