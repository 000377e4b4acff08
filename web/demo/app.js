// The demo page: a person talks to the kitchen agent. The core (WASM), the
// Act loop and the executor run in this tab; PostgREST is called directly
// with the signed-in user's JWT. Three ways to drive it: a model, tool calls
// written by hand, or the replay of a recorded session.
import { createChatModel, createTurnState, loadCore, runTurnEvents } from '../src/index.browser.js';
import { h, prettyJson } from './dom.js';
import { MANUAL_EXAMPLES } from './manual-examples.js';
import { activeModelSettings, describeModel, storeModelSettings, storedModelSettings } from './model-settings.js';
import { createRecorder, readSession, replayModel } from './replay.js';
import { bindTabs } from './tabs.js';
import { createTrace } from './trace.js';

const $ = (id) => document.getElementById(id);

let config = null;
let core = null;
/** `{ user, act, state, recorder }`: one conversation; a new one starts refs from 1 again. */
let session = null;
let running = null; // the AbortController of the turn in progress
let busy = false;
let recorded = null; // the session offered for replay

const trace = createTrace($('trace'), { renderQuery: (query) => core.renderQuery(query) });

function setStatus(text, kind = 'info') {
  const status = $('status');
  status.textContent = text;
  status.dataset.kind = kind;
}

function setBusy(value) {
  busy = value;
  for (const id of ['user', 'new-session', 'manual-run', 'replay-run', 'replay-file']) $(id).disabled = value;
  $('stop').disabled = !(value && running);
  refreshChatControls();
  document.body.toggleAttribute('aria-busy', value);
}

function currentModelSettings() {
  return activeModelSettings(config.model, location.origin);
}

function refreshChatControls() {
  const settings = currentModelSettings();
  $('model-summary').textContent = describeModel(settings);
  $('send').disabled = busy || !settings;
  $('chat-hint').textContent = settings
    ? ''
    : 'No model configured: set one under “Model” above, or use Manual tool calls or Replay, which need none.';
  $('download').disabled = busy || !session?.recorder.turnCount;
}

function addMessage(role, text, { tag, kind } = {}) {
  const item = h(
    'li',
    { class: `message ${role}`, 'data-kind': kind ?? null },
    h('span', { class: 'who' }, role === 'user' ? 'You' : 'Agent', tag ? h('span', { class: 'tag' }, tag) : null),
    h('p', {}, text),
  );
  $('conversation').append(item);
  item.scrollIntoView({ block: 'nearest' });
}

function newSession(user, reason) {
  session?.act.registry.delete();
  const act = core.createAct({ url: config.supabase.url, apiKey: config.supabase.anonKey, accessToken: user.token, userId: user.id });
  session = { user, act, state: createTurnState(), recorder: createRecorder() };
  $('user').value = user.email;
  $('conversation').replaceChildren();
  trace.note(`${reason}: signed in as ${user.email}; refs start from 1.`);
  refreshChatControls();
}

const outcomeText = (result) => {
  if (result.reply) return result.reply;
  if (result.status === 'aborted') return 'Stopped.';
  if (result.error) return `The turn ended with an error (${result.error.code}): ${result.error.message}`;
  return `The turn ended: ${result.status}.`;
};

/** Runs one turn through the loop with `model`, showing its events; resolves to the TurnResult. */
async function runConversationTurn(userMessage, model, { tag } = {}) {
  running = new AbortController();
  setBusy(true);
  addMessage('user', userMessage, { tag });
  let result = null;
  try {
    const events = runTurnEvents({ core, act: session.act, model, turn: { userMessage }, state: session.state, signal: running.signal });
    for await (const event of events) {
      if (event.type === 'turn_started') trace.startTurn({ turn: event.turn, userMessage, tag });
      trace.onEvent(event);
      if (event.type === 'turn_done') result = event.result;
    }
  } catch (cause) {
    // runTurn reports model and database failures as results; this is anything else.
    result = { status: 'error', reply: null, state: null, error: { code: 'internal_error', message: String(cause?.message ?? cause) } };
  } finally {
    running = null;
    setBusy(false);
  }
  if (result.state) session.state = result.state;
  addMessage('assistant', outcomeText(result), { tag, kind: result.status });
  return result;
}

function bindChat() {
  $('chat-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const message = $('message').value.trim();
    const settings = currentModelSettings();
    if (!message || !settings || busy) return;
    $('message').value = '';
    const model = createChatModel({ ...settings, timeoutMs: 120_000 });
    await runConversationTurn(message, session.recorder.turnModel(model, message));
  });
  $('message').addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      $('chat-form').requestSubmit();
    }
  });
  $('stop').addEventListener('click', () => running?.abort(new DOMException('stopped by the user', 'AbortError')));
  $('download').addEventListener('click', () => {
    const text = prettyJson(session.recorder.session(session.user.email));
    const url = URL.createObjectURL(new Blob([`${text}\n`], { type: 'application/json' }));
    const link = h('a', { href: url, download: 'alfred-act-session.json' });
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  });
}

function bindModelSettings() {
  const form = $('model-form');
  const fill = () => {
    const settings = currentModelSettings() ?? { baseUrl: '', apiKey: '', model: '', responseFormat: 'json_schema' };
    form.elements.baseUrl.value = settings.baseUrl;
    form.elements.apiKey.value = settings.apiKey;
    form.elements.model.value = settings.model;
    form.elements.responseFormat.value = settings.responseFormat;
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const field = (name) => form.elements[name].value.trim();
    const saved = storeModelSettings({ baseUrl: field('baseUrl'), apiKey: field('apiKey'), model: field('model'), responseFormat: field('responseFormat') });
    if (!saved) setStatus('This browser does not allow localStorage here; the model cannot be saved.', 'error');
    refreshChatControls();
    $('model-settings').open = false;
    $('message').focus();
  });
  // Forgetting the browser's settings falls back to the server's model, if any.
  const forget = () => {
    storeModelSettings(null);
    fill();
    refreshChatControls();
  };
  $('model-forget').addEventListener('click', forget);
  $('model-server').hidden = !config.model;
  $('model-server').addEventListener('click', forget);
  fill();
  // Without any model, open the settings so the first thing seen is how to add one.
  if (!storedModelSettings() && !config.model) $('model-settings').open = true;
}

function bindManual() {
  const example = $('manual-example');
  example.append(...MANUAL_EXAMPLES.map((item, index) => h('option', { value: index }, item.label)));
  const showExample = () => {
    const { tool, params } = MANUAL_EXAMPLES[Number(example.value)];
    $('manual-tool').value = tool;
    $('manual-params').value = prettyJson(params);
  };
  example.addEventListener('change', showExample);
  showExample();

  const problem = (text) => {
    $('manual-error').hidden = !text;
    $('manual-error').textContent = text ?? '';
    $('manual-params').toggleAttribute('aria-invalid', Boolean(text));
  };
  $('manual-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    if (busy) return;
    let params;
    try {
      params = JSON.parse($('manual-params').value);
    } catch (error) {
      return problem(`Params are not JSON: ${error.message}`);
    }
    problem(null);
    const tool = $('manual-tool').value;
    setBusy(true);
    try {
      trace.manualCall(tool, params, await session.act.execute(tool, params));
    } finally {
      setBusy(false);
    }
  });
}

function showRecorded(value, source) {
  const { data, error } = readSession(value);
  if (error) {
    $('replay-source').textContent = `${source}: ${error.message}`;
    return;
  }
  recorded = data;
  $('replay-source').textContent = `${source} · recorded with: ${data.recordedWith || 'unknown'} · user ${data.user ?? 'any'}`;
  $('replay-turns').replaceChildren(...data.turns.map((turn) => h('li', {}, `“${turn.userMessage}”`)));
  $('replay-run').textContent = `Replay ${data.turns.length} turn${data.turns.length === 1 ? '' : 's'}`;
  $('replay-run').disabled = busy;
}

async function replayRecorded() {
  if (!recorded || busy) return;
  const user = config.users.find((candidate) => candidate.email === recorded.user) ?? session.user;
  newSession(user, 'Replay of a recorded session (model answers from the file, queries live)');
  for (const turn of recorded.turns) {
    const result = await runConversationTurn(turn.userMessage, replayModel(turn), { tag: 'replay' });
    if (result.status === 'error' || result.status === 'aborted') break;
  }
}

function bindReplay() {
  $('replay-run').addEventListener('click', replayRecorded);
  $('replay-file').addEventListener('change', async () => {
    const [file] = $('replay-file').files;
    if (!file) return;
    try {
      showRecorded(JSON.parse(await file.text()), file.name);
    } catch (error) {
      $('replay-source').textContent = `${file.name}: not JSON (${error.message})`;
    }
  });
}

function bindSession() {
  $('user').append(...config.users.map((user) => h('option', { value: user.email }, user.email)));
  $('user').addEventListener('change', () => newSession(config.users.find((user) => user.email === $('user').value), 'New session'));
  $('new-session').addEventListener('click', () => newSession(session.user, 'New session'));
}

async function start() {
  bindTabs(document.querySelector('[role="tablist"]'));
  const started = performance.now();
  const response = await fetch('/config.json');
  if (!response.ok) throw new Error(`/config.json answered HTTP ${response.status}`);
  config = await response.json();
  core = await loadCore();
  bindSession();
  bindModelSettings();
  bindChat();
  bindManual();
  bindReplay();
  newSession(config.users[0], 'Session started');
  setBusy(false);
  setStatus(`Ready: core loaded in ${Math.round(performance.now() - started)} ms · Supabase at ${config.supabase.url}`);

  const sessionFile = await fetch('session.json');
  if (sessionFile.ok) showRecorded(await sessionFile.json(), 'web/demo/session.json');
  document.body.dataset.ready = 'true';
}

start().catch((error) => {
  setStatus(`The demo could not start: ${error.message}`, 'error');
  document.body.dataset.ready = 'failed';
});
