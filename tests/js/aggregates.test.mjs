// db_aggregate and full-text search on the local stack, as two signed-in
// users: the same questions with PostgREST's aggregates on and off (the off
// stack answers counts with counted requests and totals from the rows within
// the bound), the answers checked against the rows each user reads, the
// requests a count makes (no row pages), what one act learns about a server
// kept for the next act, the bound refused with its SQL line, and text search
// (websearch) on arbitrary text never refused by the database.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadCore } from '../../web/src/index.node.js';
import { forgetAggregateServers } from '../../web/src/act/faults.js';
import { aiTools } from '../../web/src/adapters/ai.js';
import { runStep } from '../../web/src/loop/index.js';
import { createChatModel } from '../../web/src/llm/index.js';
import { recordingFetch, queryParams } from './support/recording-fetch.mjs';
import { rest, sharedStack } from './support/stack.mjs';
import { completionBody, startScriptedModel, toolCallsBody } from './support/scripted-model.mjs';
import { stepComplete, where } from './support/decisions.mjs';

const core = await loadCore();
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** Every row `user` reads of `path` (PostgREST, no limit on the local stack): the ground truth. */
async function rowsOf(stack, user, path) {
  const { status, body } = await rest(stack, user.token, 'GET', path);
  assert.equal(status, 200, JSON.stringify(body));
  return body;
}

const countBy = (rows, key) => {
  const out = new Map();
  for (const row of rows) out.set(row[key], (out.get(row[key]) ?? 0) + 1);
  return out;
};

const ok = (outcome) => {
  assert.equal(outcome.error, null, JSON.stringify(outcome.error));
  return outcome;
};

// The questions both stacks answer, with what the rows say.
async function checkQuestions(stack, user, act) {
  const inventory = await rowsOf(stack, user, '/inventory?select=location,quantity,unit,expiry_date,name');
  // "How many items are in my inventory?"
  assert.deepEqual(ok(await act.execute('db_aggregate', { table: 'inventory', metrics: [{ fn: 'count' }] })).data, [{ count: inventory.length }]);
  // "How many in the fridge?"
  const fridge = inventory.filter((row) => row.location === 'fridge');
  assert.deepEqual(
    ok(await act.execute('db_aggregate', { table: 'inventory', filters: [where('location', '=', 'fridge')], metrics: [{ fn: 'count' }] })).data,
    [{ count: fridge.length }],
  );
  // "Items and total quantity per location, most first" (exact decimals).
  const perLocation = ok(await act.execute('db_aggregate', {
    table: 'inventory', group_by: ['location'], metrics: [{ fn: 'count' }, { fn: 'sum', field: 'quantity' }], order_by: { metric: 1, dir: 'desc' },
  })).data;
  const expected = [...countBy(inventory, 'location')].map(([location, count]) => ({
    location,
    count,
    sum_quantity: inventory.filter((row) => row.location === location).reduce((sum, row) => sum + Number(row.quantity), 0),
  })).sort((a, b) => b.sum_quantity - a.sum_quantity);
  assert.deepEqual(perLocation.map((row) => ({ ...row, sum_quantity: Number(row.sum_quantity) })), expected);
  // "Which units do I use, and how many distinct?"
  assert.deepEqual(
    ok(await act.execute('db_aggregate', { table: 'inventory', metrics: [{ fn: 'count_distinct', field: 'unit' }] })).data,
    [{ count_distinct_unit: new Set(inventory.map((row) => row.unit).filter((unit) => unit !== null)).size }],
  );
  // "The earliest expiry per location" (dates as dates).
  const earliest = ok(await act.execute('db_aggregate', { table: 'inventory', group_by: ['location'], metrics: [{ fn: 'min', field: 'expiry_date' }] })).data;
  for (const row of earliest) {
    const dates = inventory.filter((item) => item.location === row.location && item.expiry_date).map((item) => item.expiry_date).sort();
    assert.equal(row.min_expiry_date, dates[0] ?? null, row.location);
  }
  // "Cuisines with at least two recipes, top 3 by count."
  const recipes = await rowsOf(stack, user, '/recipes?select=cuisine');
  const cuisines = [...countBy(recipes, 'cuisine')].filter(([, count]) => count >= 2).sort((a, b) => b[1] - a[1] || String(a[0]).localeCompare(String(b[0])));
  const top = ok(await act.execute('db_aggregate', {
    table: 'recipes', group_by: ['cuisine'], metrics: [{ fn: 'count' }], having: [{ metric: 0, op: '>=', value: 2 }], order_by: { metric: 0, dir: 'desc' }, limit: 3,
  }));
  assert.deepEqual(top.data.map((row) => row.count), cuisines.slice(0, 3).map(([, count]) => count));
  // "How many meals are planned per recipe?": the recipe is a ref with its label, never a UUID.
  const plans = await rowsOf(stack, user, '/meal_plans?select=recipe_id,recipes(name)');
  const perRecipe = ok(await act.execute('db_aggregate', { table: 'meal_plans', group_by: ['recipe_id'], metrics: [{ fn: 'count' }], order_by: { metric: 0, dir: 'desc' } })).data;
  assert.doesNotMatch(JSON.stringify(perRecipe), UUID);
  const truth = countBy(plans, 'recipe_id');
  assert.equal(perRecipe.reduce((sum, row) => sum + row.count, 0), plans.length);
  for (const row of perRecipe) {
    if (row.recipe_id === null) continue;
    assert.match(row.recipe_id, /^recipe_\d+$/);
    const uuid = act.registry.toJSON().refs.find((entry) => entry.ref === row.recipe_id).uuid;
    assert.equal(row.count, truth.get(uuid));
    assert.equal(row._recipe_id_label, plans.find((plan) => plan.recipe_id === uuid).recipes.name);
  }
  return { inventory: inventory.length };
}

for (const aggregates of [true, false]) {
  describe(`db_aggregate with PostgREST's aggregates ${aggregates ? 'on' : 'off'}`, () => {
    const stack = sharedStack({ aggregates });
    const ada = () => stack().users[0];
    const ben = () => stack().users[1];
    const actFor = (user, options = {}) => core.createAct({ url: stack().supabaseUrl, apiKey: stack().anonKey, accessToken: user.token, userId: user.id, ...options });

    test('the questions, as Ada and as Ben: each answer is what the user\'s rows say (RLS decides)', async () => {
      const [adas, bens] = [await checkQuestions(stack(), ada(), actFor(ada())), await checkQuestions(stack(), ben(), actFor(ben()))];
      assert.notEqual(adas.inventory, bens.inventory, 'the two users hold different inventories');
    });

    test('a count reads no rows: one request with limit=0 and a counted Prefer, whatever the server aggregates', async () => {
      forgetAggregateServers();
      const fetch = recordingFetch();
      const act = actFor(ada(), { fetch });
      const { data } = ok(await act.execute('db_aggregate', { table: 'tasks', filters: [where('completed', '=', false)], metrics: [{ fn: 'count' }] }));
      assert.equal(data[0].count, (await rowsOf(stack(), ada(), '/tasks?select=id&completed=eq.false')).length);
      assert.equal(fetch.requests.length, 1);
      const [request] = fetch.requests;
      assert.equal(request.method, 'GET');
      assert.deepEqual(Object.fromEntries(queryParams(request.url)).limit, '0');
      assert.match(request.headers.prefer, /count=exact/);
      // Estimated on request, and the result says it is not exact.
      fetch.reset();
      const estimated = ok(await act.execute('db_aggregate', { table: 'tasks', metrics: [{ fn: 'count' }], count: 'estimated' }));
      assert.match(fetch.requests[0].headers.prefer, /count=estimated/);
      assert.equal(estimated.query.exact, false);
    });

    test('what the first aggregate learns about the server is kept: the next act sends no request the server refuses', async () => {
      forgetAggregateServers();
      const first = recordingFetch();
      ok(await actFor(ada(), { fetch: first }).execute('db_aggregate', { table: 'inventory', group_by: ['location'], metrics: [{ fn: 'sum', field: 'quantity' }] }));
      const refused = first.requests.filter((request) => request.status === 400);
      assert.equal(refused.length, aggregates ? 0 : 1, 'only a server without aggregates refuses, once');
      const next = recordingFetch();
      const outcome = ok(await actFor(ben(), { fetch: next }).execute('db_aggregate', { table: 'inventory', group_by: ['location'], metrics: [{ fn: 'sum', field: 'quantity' }] }));
      assert.equal(next.requests.filter((request) => request.status !== 200 && request.status !== 206).length, 0);
      assert.equal(outcome.query.aggregates, aggregates ? 'on' : 'off');
      if (!aggregates) assert.ok(next.requests.every((request) => !/sum\(\)/.test(decodeURIComponent(request.url))));
    });

    test('a total over more rows than the bound: exact with aggregates, else aggregate_too_large with the SQL line, never a partial sum', async () => {
      const domain = { ...core.kitchen, max_rows: 5 };
      const act = actFor(ada(), { domain });
      const outcome = await act.execute('db_aggregate', { table: 'inventory', metrics: [{ fn: 'sum', field: 'quantity' }] });
      if (aggregates) {
        const inventory = await rowsOf(stack(), ada(), '/inventory?select=quantity');
        assert.equal(Number(ok(outcome).data[0].sum_quantity), inventory.reduce((sum, row) => sum + Number(row.quantity), 0));
      } else {
        assert.equal(outcome.data, null);
        assert.equal(outcome.error.code, 'aggregate_too_large');
        assert.match(outcome.error.hint, /alter role authenticator set pgrst\.db_aggregates_enabled = 'true'|db-aggregates-enabled/);
      }
      // A count stays exact either way: it is counted, not read.
      const count = ok(await act.execute('db_aggregate', { table: 'inventory', metrics: [{ fn: 'count' }] }));
      assert.equal(count.query.exact, true);
    });

    test('values the domain does not list are counted, and a distinct count over the bound is refused, never a count of the first values', async () => {
      // The kitchen's overrides list easy, medium and hard; the column takes any text.
      const added = await rest(stack(), ada().token, 'POST', '/recipes', {
        body: [{ name: 'Croquembouche', difficulty: 'expert', instructions: ['stack'] }, { name: 'Toast', difficulty: 'Easy', instructions: ['toast'] }],
        prefer: 'return=representation',
      });
      assert.equal(added.status, 201, JSON.stringify(added.body));
      try {
        const recipes = await rowsOf(stack(), ada(), '/recipes?select=difficulty');
        const truth = [...countBy(recipes, 'difficulty')].map(([difficulty, count]) => ({ difficulty, count }));
        const byDifficulty = ok(await actFor(ada()).execute('db_aggregate', { table: 'recipes', group_by: ['difficulty'], metrics: [{ fn: 'count' }] }));
        const key = (row) => String(row.difficulty);
        assert.deepEqual([...byDifficulty.data].sort((a, b) => key(a).localeCompare(key(b))), truth.sort((a, b) => key(a).localeCompare(key(b))));
        assert.equal(byDifficulty.query.exact, true);
        assert.ok(byDifficulty.data.some((row) => row.difficulty === 'expert'));
      } finally {
        for (const row of added.body) await rest(stack(), ada().token, 'DELETE', `/recipes?id=eq.${row.id}`);
      }
      const names = new Set((await rowsOf(stack(), ada(), '/inventory?select=name')).map((row) => row.name));
      assert.ok(names.size > 5);
      const act = actFor(ada(), { domain: { ...core.kitchen, max_rows: 5 } });
      const distinct = await act.execute('db_aggregate', { table: 'inventory', metrics: [{ fn: 'count_distinct', field: 'name' }] });
      assert.equal(distinct.data, null);
      assert.equal(distinct.error.code, 'aggregate_too_large', JSON.stringify(distinct.error));
      const within = ok(await actFor(ada()).execute('db_aggregate', { table: 'inventory', metrics: [{ fn: 'count_distinct', field: 'name' }] }));
      assert.deepEqual(within.data, [{ count_distinct_name: names.size }]);
    });

    test('the model reads groups, refs and labels, how many groups there are and whether the answer is exact; mistakes are errors with a path before any request', async () => {
      const fetch = recordingFetch();
      const act = actFor(ada(), { fetch });
      const result = await act.callTool('db_aggregate', JSON.stringify({ table: 'meal_plans', group_by: ['meal_type'], metrics: [{ fn: 'count' }], order_by: { metric: 0, dir: 'desc' }, limit: 2 }));
      assert.equal(result.ok, true, JSON.stringify(result));
      assert.equal(result.tool, 'db_aggregate');
      assert.equal(result.rows.length, Math.min(2, result.groups_total));
      assert.equal(result.exact, true);
      assert.match(result.query, /Group by: meal_type \| Metrics: count/);
      fetch.reset();
      for (const [params, code, path] of [
        [{ table: 'recipes', metrics: [{ fn: 'sum', field: 'name' }] }, 'invalid_param', 'metrics[0].field'],
        [{ table: 'recipes', metrics: [{ fn: 'avg', field: 'id' }] }, 'invalid_param', 'metrics[0].field'],
        [{ table: 'recipes', metrics: [{ fn: 'median', field: 'servings' }] }, 'invalid_param', 'metrics[0].fn'],
        [{ table: 'recipes', metrics: [{ fn: 'count' }], order_by: { metric: 3, dir: 'desc' } }, 'invalid_param', 'order_by.metric'],
        [{ table: 'recipes', metrics: [] }, 'invalid_param', 'metrics'],
      ]) {
        const refused = await act.callTool('db_aggregate', JSON.stringify(params));
        assert.equal(refused.ok, false, JSON.stringify(params));
        assert.deepEqual([refused.error.code, refused.error.path], [code, path], JSON.stringify(refused.error));
      }
      assert.equal(fetch.requests.length, 0);
    });
  });
}

describe('db_aggregate on the surfaces: AI SDK tools, a read step of the Act loop', () => {
  const stack = sharedStack();
  const ada = () => stack().users[0];
  const actFor = (options = {}) => core.createAct({ url: stack().supabaseUrl, apiKey: stack().anonKey, accessToken: ada().token, userId: ada().id, ...options });

  test('AI SDK: db_aggregate is a tool that never asks for approval; its result is the model\'s text', async () => {
    const tools = aiTools(actFor({ approve: 'writes' }));
    assert.ok(tools.db_aggregate);
    assert.equal(tools.db_aggregate.needsApproval, undefined);
    const output = await tools.db_aggregate.execute({ table: 'tasks', filters: null, or_filters: null, group_by: ['completed'], metrics: [{ fn: 'count', field: null }], order_by: null, having: null, limit: null, count: null }, { toolCallId: 'a', messages: [] });
    assert.equal(output.ok, true, JSON.stringify(output));
    assert.deepEqual(output.rows.map((row) => row.completed).sort(), [false, true].filter((value) => output.rows.some((row) => row.completed === value)));
  });

  test('"how many items are in my fridge?": a read step answers with one db_aggregate call', async (t) => {
    const truth = (await rowsOf(stack(), ada(), '/inventory?select=id&location=eq.fridge')).length;
    const model = await startScriptedModel([
      toolCallsBody([{ name: 'db_aggregate', arguments: { table: 'inventory', filters: [where('location', '=', 'fridge')], or_filters: null, group_by: null, metrics: [{ fn: 'count', field: null }], order_by: null, having: null, limit: null, count: null } }]),
      (body) => {
        // The step's prompt shows the call and its one group.
        const prompt = body.messages.at(-1).content;
        assert.match(prompt, /Query: Table: inventory \| Filters: location = fridge \| Metrics: count\nOutcome: 1 group computed\n- count: (\d+)/);
        assert.equal(Number(/- count: (\d+)/.exec(prompt)[1]), truth);
        return { status: 200, body: completionBody(JSON.stringify(stepComplete(`${truth} items in the fridge`))) };
      },
    ]);
    t.after(() => model.stop());
    const result = await runStep({
      core, act: actFor(), toolCalling: 'native',
      model: createChatModel({ baseUrl: model.baseUrl, apiKey: 'test', model: 'scripted' }),
      step: { description: 'Count the items in the fridge', type: 'read' },
    });
    assert.equal(result.status, 'complete', JSON.stringify(result));
    assert.equal(result.queries.length, 1);
    assert.equal(model.requests[0].body.tools.some((tool) => tool.function.name === 'db_aggregate'), true);
  });
});

describe('full-text search on the CRM (tasks.search, a generated tsvector)', () => {
  const stack = sharedStack({ schema: 'crm' });
  const ada = () => stack().users[0];
  const ben = () => stack().users[1];
  let domain;
  const actFor = async (user, options = {}) => {
    if (!domain) domain = JSON.parse((await import('node:fs')).readFileSync(new URL('../../domains/crm/domain.json', import.meta.url), 'utf8'));
    return core.createAct({ url: stack().supabaseUrl, apiKey: stack().anonKey, accessToken: user.token, userId: user.id, domain, ...options });
  };

  test('"find my tasks about the discount": the search column, phrase and language, each user\'s own rows', async () => {
    const act = await actFor(ada());
    const found = ok(await act.execute('db_read', { table: 'tasks', filters: [where('search', 'search', 'discount')], columns: ['title'] }));
    assert.deepEqual(found.data.map((row) => row.title), ['Send revised quote']);
    assert.equal(found.data[0].search, undefined, 'the search column is never read');
    const phrase = ok(await act.execute('db_read', { table: 'tasks', filters: [{ field: 'search', op: 'search', value: 'volume discount', mode: 'phrase', language: 'english' }], columns: ['title'] }));
    assert.deepEqual(phrase.data.map((row) => row.title), ['Send revised quote']);
    const excluded = ok(await act.execute('db_aggregate', { table: 'tasks', filters: [where('search', 'not_search', 'discount')], metrics: [{ fn: 'count' }] }));
    assert.equal(excluded.data[0].count, (await rowsOf(stack(), ada(), '/tasks?select=id')).length - 1);
    // Ben has no such task: RLS decides what the search sees.
    assert.deepEqual(ok(await (await actFor(ben())).execute('db_read', { table: 'tasks', filters: [where('search', 'search', 'discount')] })).data, []);
    // A text column searched directly (PostgreSQL's text @@ tsquery).
    assert.deepEqual(ok(await act.execute('db_read', { table: 'tasks', filters: [where('notes', 'search', 'went well')], columns: ['title'] })).data.map((row) => row.title), ['Kick-off call']);
  });

  test('websearch takes any text: 200 strings of quotes, operators, brackets and scripts, none refused by the database', async () => {
    const act = await actFor(ada());
    const pieces = ['"', "'", '-', 'or', 'OR', '&', '|', '!', ':*', '(', ')', '<->', '\\', ',', '.', '%', '*', 'discount', 'quote', 'é', 'Søren', '日本語', '🙂', ' ', '  ', 'and', 'not', '""', '-"', '\t'];
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    for (let i = 0; i < 200; i++) {
      let text = '';
      const length = 1 + (next() % 8);
      for (let j = 0; j < length; j++) text += pieces[next() % pieces.length];
      if (!text.trim()) text += 'x';
      const outcome = await act.execute('db_read', { table: 'tasks', filters: [where('search', 'search', text)], columns: ['title'], limit: 5 });
      assert.equal(outcome.error, null, `${JSON.stringify(text)}: ${JSON.stringify(outcome.error)}`);
    }
  });

  test('a search column is refused where it cannot be used, before any request', async () => {
    const fetch = recordingFetch();
    const act = await actFor(ada(), { fetch });
    for (const [tool, params, path] of [
      ['db_read', { table: 'tasks', filters: [where('search', '=', 'x')] }, 'filters[0].field'],
      ['db_read', { table: 'tasks', columns: ['search'] }, 'columns[0]'],
      ['db_update', { table: 'tasks', filters: [where('title', '=', 'x')], data: { search: 'x' } }, 'data.search'],
      ['db_aggregate', { table: 'tasks', group_by: ['search'], metrics: [{ fn: 'count' }] }, 'group_by[0]'],
      ['db_read', { table: 'tasks', filters: [{ field: 'search', op: 'search', value: 'x', mode: 'regex' }] }, 'filters[0].mode'],
    ]) {
      const outcome = await act.execute(tool, params);
      assert.equal(outcome.data, null, JSON.stringify(params));
      assert.equal(outcome.error.path, path, JSON.stringify(outcome.error));
    }
    assert.equal(fetch.requests.length, 0);
  });
});
