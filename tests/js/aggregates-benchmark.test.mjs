// The aggregates benchmark as a test: every question of bench/aggregates/
// (68 on the kitchen demo, the CRM pack, letsrunit and Chatbot UI) as each
// of two signed-in users, through act.execute('db_aggregate', …), against
// SQL run through PostgREST as the same user (bench_truth, SECURITY
// INVOKER: row-level security decides), once with PostgREST's aggregates on
// and once with them off. Every group and value must match (refs mapped
// back to UUIDs, labels compared, decimals exact, averages to 6 places); with
// aggregates off the only other answer allowed is aggregate_too_large where
// more rows match than the documented bound. Counts must read no row pages:
// their requests are recorded. One stack per schema and mode, on 127.0.0.1.
// The printed benchmark is bench/aggregates.mjs.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadCore } from '../../web/src/index.node.js';
import { QUESTIONS, countsRowsOnly, questionsOf } from '../../bench/aggregates/questions.mjs';
import { SCHEMAS } from '../../bench/aggregates/schemas.mjs';
import { ask, mustReadNoRows, openSchema } from '../../bench/aggregates/run.mjs';

const STACK_START = { timeout: 90_000 };
const BOUNDED = { timeout: 30_000 };
/** The rows the tool computes a total from when the server does not aggregate (none of these domains sets max_rows lower). */
const BOUND = 1000;

let core;
before(async () => {
  core = await loadCore();
});

/** Every answer, for the checks across the set at the end. */
const answers = [];

test('the question set: at least 40 questions on four schemas, two users each, and every kind of question the tool takes', () => {
  assert.ok(QUESTIONS.length >= 40, `${QUESTIONS.length} questions`);
  assert.equal(new Set(QUESTIONS.map((question) => question.id)).size, QUESTIONS.length, 'ids are unique');
  assert.deepEqual(SCHEMAS.map((schema) => schema.name), ['kitchen', 'crm', 'letsrunit', 'chatbot-ui']);
  for (const schema of SCHEMAS) {
    assert.equal(new Set(schema.users.map((user) => user.email)).size, 2, `${schema.name}: two users`);
    assert.ok(questionsOf(schema.name).length >= 10, `${schema.name}: ${questionsOf(schema.name).length} questions`);
  }
  const params = QUESTIONS.map((question) => question.params);
  for (const fn of ['count', 'count_distinct', 'sum', 'avg', 'min', 'max']) assert.ok(params.some((p) => p.metrics.some((m) => m.fn === fn)), fn);
  for (const part of ['filters', 'or_filters', 'group_by', 'having', 'order_by', 'limit']) assert.ok(params.some((p) => p[part] !== undefined), part);
  assert.ok(params.some((p) => p.group_by?.length > 1), 'a group of two columns');
  assert.ok(params.some((p) => !p.group_by && countsRowsOnly(p)), 'a plain count');
});

for (const schema of SCHEMAS) {
  for (const aggregates of [true, false]) {
    describe(`${schema.name}, PostgREST aggregates ${aggregates ? 'on' : 'off'}`, () => {
      let session;
      before(async () => {
        session = await openSchema(schema, { aggregates, core });
      }, STACK_START);
      after(() => session?.stop());

      test('the domain the act uses offers the model no bench_truth', () => {
        assert.equal(session.domain.functions?.bench_truth, undefined);
        const act = core.createAct({ url: session.stack.supabaseUrl, apiKey: session.stack.anonKey, accessToken: session.users[0].token, domain: session.domain });
        assert.doesNotMatch(JSON.stringify(act.tools()), /bench_truth/);
      });

      for (const question of questionsOf(schema.name)) {
        test(`${question.id}: ${question.text}`, BOUNDED, async () => {
          for (const user of session.users) {
            const result = await ask(session, question, user);
            answers.push(result);
            assert.deepEqual(result.problems, [], `${question.id} as ${user.name}, aggregates ${session.mode}`);
            if (result.refused) {
              assert.equal(aggregates, false, 'refused only where the server does not aggregate');
              assert.ok(result.alt.rows > BOUND, `refused with ${result.alt.rows} rows matching`);
            }
            if (!question.params.group_by && countsRowsOnly(question.params)) {
              // A plain count: one request, limit=0, the count in Content-Range.
              assert.equal(result.requests.length, 1, JSON.stringify(result.requests));
              const [request] = result.requests;
              const url = new URL(request.url);
              assert.equal(request.method, 'GET');
              assert.ok(url.pathname.endsWith(`/rest/v1/${question.params.table}`), url.pathname);
              assert.equal(url.searchParams.get('limit'), '0');
              assert.equal(request.prefer, 'count=exact');
            }
            if (mustReadNoRows(session, question.params)) assert.equal(result.countCheck, 'ok', `${user.name}: ${result.problems.join('; ')}`);
          }
        });
      }
    });
  }
}

test('across the set: the users see different data in every schema, the bound is exceeded with aggregates off and those answers come with aggregates on', () => {
  assert.equal(answers.length, QUESTIONS.length * 2 * 2, 'every question, both users, both ways');
  for (const schema of SCHEMAS) {
    const differ = questionsOf(schema.name).filter((question) => {
      const [first, second] = answers.filter((r) => r.id === question.id && r.mode === 'on');
      return JSON.stringify(first.truth) !== JSON.stringify(second.truth);
    });
    assert.ok(differ.length >= questionsOf(schema.name).length / 2, `${schema.name}: the users' answers differ on ${differ.length} questions`);
  }
  const refused = answers.filter((r) => r.refused);
  assert.ok(refused.length >= 1, 'at least one question exceeds the bound with aggregates off');
  for (const r of refused) {
    assert.equal(r.refused, 'aggregate_too_large');
    const on = answers.find((a) => a.id === r.id && a.user === r.user && a.mode === 'on');
    assert.equal(on.correct, true, `${r.id} as ${r.user} with aggregates on`);
    assert.ok(on.alt.rows > BOUND);
  }
  assert.ok(answers.filter((r) => r.mode === 'off').every((r) => r.correct));
});
