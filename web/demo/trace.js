// The trace of what the Act step did, built from the loop's events: per step
// the model's decision, the executed query (core.renderQuery), the rows as
// the model saw them, corrections, and on request the assembled prompt.
import { fieldLines, h, prettyJson } from './dom.js';
import { rowsOf, rowsView } from './rows.js';

const STATUS_TEXT = {
  running: 'running…',
  complete: 'complete',
  ask_user: 'asks the user',
  blocked: 'blocked',
  failed: 'failed',
  limit_reached: 'tool-call limit reached',
  error: 'error',
  aborted: 'stopped',
};

function entry(kind, title, ...content) {
  return h('section', { class: `entry ${kind}` }, h('h5', {}, title), ...content);
}

function errorView(error) {
  return entry(
    'error',
    `Refused: ${error.code}`,
    h('p', {}, error.message),
    error.path ? h('p', { class: 'muted' }, 'at ', h('code', {}, error.path)) : null,
    error.hint ? h('p', { class: 'hint' }, `Hint: ${error.hint}`) : null,
  );
}

const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

// Strict structured output sends every field the action does not use as null.
const withoutNulls = (object) => Object.fromEntries(Object.entries(object).filter(([, value]) => value !== null));

// The decision: the tool and its params, or the action and its fields.
function decisionBody(decision) {
  if (decision.action === 'tool_call') {
    const { table, ...params } = withoutNulls(decision.params ?? {});
    return [h('p', {}, h('code', { class: 'tool' }, decision.tool)), h('pre', { class: 'json' }, fieldLines({ table, ...params }))];
  }
  const { action, ...fields } = withoutNulls(decision);
  return [h('p', {}, h('code', {}, action)), Object.keys(fields).length > 0 ? h('pre', { class: 'json' }, fieldLines(fields)) : null];
}

/**
 * A trace in `container`. `renderQuery(query)` gives the executed query's
 * text (`core.renderQuery(query).data`).
 */
export function createTrace(container, { renderQuery }) {
  let turn = null; // { article, steps: Map(index → { item, entries, badge }), calls }
  let manualCount = 0;

  const reveal = (element) => element.scrollIntoView({ block: 'nearest' });

  function queryView(query) {
    const { data, error } = renderQuery(query);
    return entry('query', 'Executed query', h('pre', { class: 'query-text' }, error ? prettyJson(query) : data));
  }

  function resultView({ data, error, count }) {
    if (error) return errorView(error);
    const rows = rowsOf(data)?.length ?? count ?? 0;
    return entry('rows', `Rows the model saw (${rows})`, rowsView(data, `${rows} rows as the model saw them`));
  }

  function stepOf(index) {
    return turn?.steps.get(index);
  }

  function addToStep(index, element) {
    const step = stepOf(index);
    if (!step) return;
    step.entries.append(element);
    reveal(element);
  }

  function startStep({ step, description, stepType }) {
    const badge = h('span', { class: 'status', 'data-status': 'running' }, STATUS_TEXT.running);
    const entries = h('div', { class: 'entries' });
    const item = h(
      'li',
      { class: 'step' },
      h('h4', {}, `Step ${step + 1} · `, h('span', { class: 'step-type' }, stepType), ` — ${description} `, badge),
      entries,
    );
    turn.steps.set(step, { item, entries, badge, calls: 0 });
    turn.list.append(item);
    reveal(item);
  }

  function finishStep({ step, result }) {
    const current = stepOf(step);
    if (!current) return;
    current.badge.dataset.status = result.status;
    current.badge.textContent = STATUS_TEXT[result.status] ?? result.status;
    const lines = [];
    if (result.summary) lines.push(h('p', { class: 'summary' }, result.summary));
    if (result.question) lines.push(h('p', { class: 'summary' }, `Question: ${result.question}`));
    if (result.blocked) lines.push(h('p', { class: 'summary' }, `Blocked (${result.blocked.reason_code}): ${result.blocked.details}`));
    if (result.error && result.status !== 'blocked') lines.push(errorView(result.error));
    current.entries.append(...lines);
  }

  return {
    /** A new turn; `tag` marks replays. */
    startTurn({ turn: number, userMessage, tag }) {
      const list = h('ol', { class: 'steps' });
      const footer = h('p', { class: 'turn-status muted' }, 'planning…');
      const article = h(
        'article',
        { class: 'turn', 'data-turn': number },
        h('h3', {}, `Turn ${number}`, tag ? h('span', { class: 'tag' }, tag) : null),
        h('p', { class: 'message' }, `“${userMessage}”`),
        list,
        footer,
      );
      turn = { article, list, footer, steps: new Map() };
      container.append(article);
      reveal(article);
    },

    /** One loop event (runTurnEvents). */
    onEvent(event) {
      if (!turn) return;
      switch (event.type) {
        case 'plan':
          turn.footer.textContent = `Plan: ${event.steps.length} step${event.steps.length === 1 ? '' : 's'}`;
          break;
        case 'step_started':
          startStep(event);
          break;
        case 'prompt': {
          const step = stepOf(event.step);
          if (!step) break;
          step.calls += 1;
          addToStep(
            event.step,
            h(
              'details',
              { class: 'entry prompt' },
              h('summary', {}, `Assembled prompt (model call ${step.calls})`),
              h('h5', {}, 'System'),
              h('pre', {}, event.system),
              h('h5', {}, 'User'),
              h('pre', {}, event.user),
            ),
          );
          break;
        }
        case 'decision':
          addToStep(event.step, entry('decision', 'Decision', ...decisionBody(event.decision)));
          break;
        case 'query':
          addToStep(event.step, queryView(event.query));
          break;
        case 'result':
          addToStep(event.step, resultView(event));
          break;
        case 'retry':
          addToStep(
            event.step,
            h('p', { class: 'entry retry' }, `Sent back to the model to correct (${event.reason}; ${event.retriesLeft} correction${event.retriesLeft === 1 ? '' : 's'} left).`),
          );
          break;
        case 'step_done':
          finishStep(event);
          break;
        case 'turn_done': {
          const { status, usage, error } = event.result;
          const tokens = usage.prompt_tokens + usage.completion_tokens;
          turn.footer.textContent = `Turn ${status}${tokens > 0 ? ` · ${usage.prompt_tokens} prompt + ${usage.completion_tokens} completion tokens` : ''}`;
          if (error && turn.steps.size === 0) turn.article.insertBefore(errorView(error), turn.footer);
          reveal(turn.footer);
          turn = null;
          break;
        }
        default:
          break;
      }
    },

    /** A tool call the user wrote (manual mode) and its outcome from act.execute. */
    manualCall(tool, params, outcome) {
      manualCount += 1;
      const article = h(
        'article',
        { class: 'turn manual', 'data-manual': manualCount },
        h('h3', {}, `Manual call ${manualCount}`, h('span', { class: 'tag' }, 'no model')),
        entry('decision', 'Tool call', h('p', {}, h('code', { class: 'tool' }, tool)), h('pre', { class: 'json' }, isObject(params) ? fieldLines(params) : prettyJson(params))),
        outcome.query ? queryView(outcome.query) : null,
        resultView(outcome),
      );
      container.append(article);
      reveal(article);
    },

    /** A note between turns (a new session, a replay starting). */
    note(text) {
      const element = h('p', { class: 'trace-note' }, text);
      container.append(element);
      reveal(element);
    },
  };
}
