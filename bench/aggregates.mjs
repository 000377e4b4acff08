// The aggregates benchmark: questions about many rows ("how many open tasks
// do I have?", "total deal amount per stage", "top 3 organizations by number
// of deals") on four schemas (the kitchen demo, the CRM pack, letsrunit and
// Chatbot UI), each asked as two signed-in users as one db_aggregate call,
// checked against SQL run as the same user (row-level security decides),
// with PostgREST's aggregates on and then off. Next to each: what a user
// writes today, every matching row read through PostgREST (1,000 a page) and
// summed in JavaScript. Prints one line per question and a summary; exits 1
// on any wrong answer. The questions: bench/aggregates/questions.mjs; the
// schemas and their users: bench/aggregates/schemas.mjs.
//
//   node bench/aggregates.mjs                 (npm run bench:aggregates)
//   node bench/aggregates.mjs --markdown      the table as Markdown
//   BENCH_REPEAT=5                            calls per timing (median), default 5
import { loadCore } from '../web/src/index.node.js';
import { QUESTIONS } from './aggregates/questions.mjs';
import { SCHEMAS } from './aggregates/schemas.mjs';
import { askAll, median, openSchema } from './aggregates/run.mjs';

const REPEAT = Number(process.env.BENCH_REPEAT ?? 5);
const MARKDOWN = process.argv.includes('--markdown');

const core = await loadCore();
const results = [];
for (const schema of SCHEMAS) {
  for (const aggregates of [true, false]) {
    const session = await openSchema(schema, { aggregates, core });
    try {
      results.push(...(await askAll(session, { repeat: REPEAT })));
    } finally {
      await session.stop();
    }
    process.stderr.write(`${schema.name}, aggregates ${aggregates ? 'on' : 'off'}: done\n`);
  }
}

const of = (id, mode) => results.filter((r) => r.id === id && r.mode === mode);
const pair = (values) => values.join('/');
const kb = (bytes) => (bytes < 1000 ? `${bytes}B` : `${(bytes / 1000).toFixed(1)}k`);
const ms = (value) => value.toFixed(1);

function status(id) {
  const wrong = ['on', 'off'].flatMap((mode) => of(id, mode).filter((r) => !r.correct).map((r) => `WRONG ${mode} (${r.user}): ${r.problems.join('; ')}`));
  if (wrong.length) return wrong.join(' | ');
  const refused = of(id, 'off').filter((r) => r.refused);
  return refused.length ? `ok; off: aggregate_too_large for ${refused.map((r) => `${r.user} (${r.alt.rows} rows)`).join(', ')}` : 'ok';
}

const rows = QUESTIONS.map((question) => {
  const on = of(question.id, 'on');
  const off = of(question.id, 'off');
  return {
    id: question.id,
    schema: question.schema,
    text: question.text,
    tripsOn: pair(on.map((r) => r.trips)),
    tripsOff: pair(off.map((r) => (r.refused ? `${r.trips}!` : r.trips))),
    msOn: ms(median(on.map((r) => r.ms))),
    msOff: ms(median(off.map((r) => r.ms))),
    altTrips: pair(on.map((r) => r.alt.trips)),
    altBytes: pair(on.map((r) => kb(r.alt.bytes))),
    altMs: ms(median(on.map((r) => r.alt.ms))),
    altRight: on.every((r) => r.alt.correct) ? 'yes' : 'no',
    status: status(question.id),
  };
});

const COLUMNS = [
  ['id', 'id'],
  ['schema', 'schema'],
  ['text', 'question'],
  ['tripsOn', 'trips on'],
  ['tripsOff', 'trips off'],
  ['msOn', 'ms on'],
  ['msOff', 'ms off'],
  ['altTrips', 'read+sum trips'],
  ['altBytes', 'read+sum bytes'],
  ['altMs', 'read+sum ms'],
  ['altRight', 'JS sum right'],
  ['status', 'answer'],
];

if (MARKDOWN) {
  console.log(`| ${COLUMNS.map(([, title]) => title).join(' | ')} |`);
  console.log(`|${COLUMNS.map(() => '---').join('|')}|`);
  for (const row of rows) console.log(`| ${COLUMNS.map(([key]) => String(row[key]).replace(/\|/g, '\\|')).join(' | ')} |`);
} else {
  const widths = COLUMNS.map(([key, title]) => (key === 'status' ? 0 : Math.min(key === 'text' ? 58 : 99, Math.max(title.length, ...rows.map((row) => String(row[key]).length)))));
  const line = (cells) => cells.map((cell, i) => (widths[i] ? String(cell).slice(0, widths[i]).padEnd(widths[i]) : cell)).join('  ');
  console.log(`db_aggregate as two signed-in users per schema, against SQL run as each user; a/b = the two users; ms = medians of ${REPEAT} calls`);
  console.log('trips: requests the act made (on / off = PostgREST aggregates on / off; n! = refused with aggregate_too_large); read+sum: every matching row read (1,000 a page) and summed in JS\n');
  console.log(line(COLUMNS.map(([, title]) => title)));
  for (const row of rows) console.log(line(COLUMNS.map(([key]) => row[key])));
}

const summary = summarize(results);
console.log(`\n${summary.lines.join('\n')}`);
if (summary.wrong > 0) process.exitCode = 1;

function summarize(all) {
  const on = all.filter((r) => r.mode === 'on');
  const off = all.filter((r) => r.mode === 'off');
  const correct = (list) => list.filter((r) => r.correct).length;
  const refused = off.filter((r) => r.refused);
  const answered = off.filter((r) => !r.refused);
  const counted = all.filter((r) => r.countCheck !== 'n/a');
  const ratio = (list) => median(list.map((r) => r.ms / r.alt.ms));
  const mean = (values) => (values.reduce((a, b) => a + b, 0) / values.length).toFixed(2);
  const lines = [
    `questions: ${QUESTIONS.length} on ${SCHEMAS.length} schemas (${SCHEMAS.map((s) => s.name).join(', ')}), each asked as 2 users: ${on.length} answers per mode`,
    `correct with aggregates on: ${correct(on)}/${on.length}; off: ${correct(off)}/${off.length} (${answered.filter((r) => r.correct).length} answered correctly, the same answers as with aggregates on; ${refused.length} refused with aggregate_too_large, where more rows match than the 1,000 the tool computes from without server aggregates, each answered correctly with aggregates on: ${refused.every((r) => of(r.id, 'on').find((o) => o.user === r.user)?.correct) ? 'yes' : 'NO'})`,
    `counts that read no row pages (limit=0 with Prefer: count, or an aggregate select): ${counted.filter((r) => r.countCheck === 'ok').length}/${counted.length}`,
    `round trips per answer, median (mean, max): on ${median(on.map((r) => r.trips))} (${mean(on.map((r) => r.trips))}, ${Math.max(...on.map((r) => r.trips))}); off ${median(off.map((r) => r.trips))} (${mean(off.map((r) => r.trips))}, ${Math.max(...off.map((r) => r.trips))}); read-and-sum ${median(on.map((r) => r.alt.trips))} (${mean(on.map((r) => r.alt.trips))}, ${Math.max(...on.map((r) => r.alt.trips))})`,
    `bytes received per answer, median: on ${median(on.map((r) => r.bytes))}; off ${median(off.map((r) => r.bytes))}; read-and-sum ${median(on.map((r) => r.alt.bytes))}`,
    `time per answer, median: on ${ms(median(on.map((r) => r.ms)))} ms, off ${ms(median(off.map((r) => r.ms)))} ms, read-and-sum ${ms(median(on.map((r) => r.alt.ms)))} ms; median ratio db_aggregate / read-and-sum: on ${ratio(on).toFixed(2)}, off ${ratio(off.filter((r) => !r.refused)).toFixed(2)}`,
    `read-and-sum in JS with plain numbers: ${on.filter((r) => !r.alt.correct).length}/${on.length} answers differ from the SQL (binary floats in sums of decimals)`,
  ];
  return { lines, wrong: all.length - correct(all) };
}
