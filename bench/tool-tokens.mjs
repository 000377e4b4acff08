// What each surface's tool list costs in the model's context, in tokens
// (o200k_base, npm gpt-tokenizer) of the JSON the model is given: the AI
// SDK's tools as the SDK hands them to a provider (captured with its own
// mock model), OpenAI Chat Completions and Responses tools (openaiTools),
// and the MCP tools/list (mcpToolList, db_schema included). For the kitchen
// (9 tables), CRM (6), a ten-table shop domain and a team app with eight
// functions (bench/fixtures), with the
// compact default and with the whole schema inline.
// Run: npm run bench:tools (node bench/tool-tokens.mjs).
import { readFileSync } from 'node:fs';
import { generateText } from 'ai';
import * as aiTest from 'ai/test';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { loadCore } from '../web/src/index.node.js';
import { aiTools } from '../web/src/adapters/ai.js';
import { openaiTools } from '../web/src/adapters/openai.js';
import { mcpToolList } from '../web/src/mcp/tools.js';

const readJson = (path) => JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8'));
const DOMAINS = [
  ['kitchen', readJson('../domains/kitchen/domain.json')],
  ['crm', readJson('../domains/crm/domain.json')],
  ['shop (10 tables)', readJson('./fixtures/shop-domain.json')],
  ['team (8 functions)', readJson('./fixtures/team-domain.json')],
];
/** The budget for a ten-table domain's compact tool list on any surface. */
const COMPACT_BUDGET = 2_000;

const tokens = (value) => encode(typeof value === 'string' ? value : JSON.stringify(value)).length;

// The tools exactly as the AI SDK passes them to the provider's model
// (`options.tools` of the language-model call), from one generateText call
// against the SDK's mock model.
const MockLanguageModel = aiTest.MockLanguageModelV4 ?? aiTest.MockLanguageModelV3 ?? aiTest.MockLanguageModelV2;
async function aiSdkTools(tools) {
  let seen = null;
  const v2 = new MockLanguageModel().specificationVersion === 'v2';
  const model = new MockLanguageModel({
    doGenerate: async (options) => {
      seen = options.tools;
      return {
        content: [{ type: 'text', text: 'ok' }],
        finishReason: v2 ? 'stop' : { unified: 'stop', raw: 'stop' },
        usage: v2
          ? { inputTokens: 1, outputTokens: 1, totalTokens: 2 }
          : { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } },
        warnings: [],
      };
    },
  });
  await generateText({ model, tools, prompt: 'hi' });
  return seen;
}

const core = await loadCore();
const rows = [];
for (const [name, domain] of DOMAINS) {
  const act = core.createAct({ restUrl: 'http://127.0.0.1:1', domain });
  for (const schema of ['compact', 'inline']) {
    const surfaces = {
      'AI SDK (strict)': await aiSdkTools(aiTools(act, { schema })),
      'OpenAI chat': openaiTools(act, { schema }),
      'OpenAI responses': openaiTools(act, { api: 'responses', schema }),
      'MCP tools/list': { tools: mcpToolList(core, domain, { schema }) },
    };
    for (const [surface, list] of Object.entries(surfaces)) rows.push({ domain: name, schema, surface, tokens: tokens(list) });
  }
  act.registry.delete();
}

const pad = (s, n) => String(s).padEnd(n);
const num = (s, n) => String(s).padStart(n);
console.log('Tool list tokens (o200k_base, the JSON each surface gives the model)\n');
console.log(`${pad('domain', 20)}${pad('surface', 20)}${num('compact', 9)}${num('inline', 9)}${num('saved', 8)}`);
let worst = 0;
for (const [name] of DOMAINS) {
  for (const surface of ['AI SDK (strict)', 'OpenAI chat', 'OpenAI responses', 'MCP tools/list']) {
    const of = (schema) => rows.find((r) => r.domain === name && r.surface === surface && r.schema === schema).tokens;
    const compact = of('compact');
    const inline = of('inline');
    if (name.startsWith('shop') || name.startsWith('team')) worst = Math.max(worst, compact);
    console.log(`${pad(name, 20)}${pad(surface, 20)}${num(compact.toLocaleString('en'), 9)}${num(inline.toLocaleString('en'), 9)}${num(`${Math.round((1 - compact / inline) * 100)} %`, 8)}`);
  }
}
console.log(`\ntarget: every compact tool list of the ten-table domain, and of a team app with eight functions, under ${COMPACT_BUDGET.toLocaleString('en')} tokens (${worst <= COMPACT_BUDGET ? 'met' : 'missed'}: at most ${worst.toLocaleString('en')})`);
if (process.env.BENCH_JSON) console.log(JSON.stringify(rows));
