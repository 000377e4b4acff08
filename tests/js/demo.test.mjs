// The browser demo (web/demo/) in headless Chromium against real servers:
// the local stack (PGlite + PostgREST), the scripted OpenAI-compatible model
// and scripts/serve-demo.mjs. The page loads without console errors, manual
// mode runs a read whose rows show refs and no UUID, a scripted conversation
// runs through the demo server's model proxy and through a model URL typed
// into the page, the recorded session replays, and a screenshot is taken.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { chromium } from 'playwright-core';
import { startStack } from '../../db/local-stack.mjs';
import { startDemoServer } from '../../scripts/serve-demo.mjs';
import { stepComplete, toolCall, where } from './support/decisions.mjs';
import { pageDriver } from './support/page-driver.mjs';
import { ROOT, SCRATCH } from './support/paths.mjs';
import { startScriptedModel } from './support/scripted-model.mjs';
import { rest } from './support/stack.mjs';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const WAIT = { timeout: 20_000 };
// Every test is bounded; the stack's cold start is most of the before hook.
const BOUNDED = { timeout: 60_000 };
const SERVER_KEY = 'sk-demo-server-key';
const BROWSER_KEY = 'sk-typed-into-the-page';
// docs/demo.png is rewritten only on request: its rows carry today's dates.
const SCREENSHOT = process.env.UPDATE_DEMO_SCREENSHOT || !existsSync(join(ROOT, 'docs/demo.png')) ? join(ROOT, 'docs/demo.png') : join(SCRATCH, 'demo.png');

const plan = (type, description) => ({ steps: [{ description, type }] });
const FRIDGE_READ = { table: 'inventory', filters: [where('location', '=', 'fridge')], columns: ['name', 'quantity', 'unit', 'expiry_date'], order_by: 'expiry_date', order_dir: 'asc' };
const SCRIPT = [
  // Turn 1, through the demo server's /llm/v1 proxy.
  plan('read', 'Read the inventory items in the fridge, soonest expiry first'),
  toolCall('db_read', FRIDGE_READ),
  stepComplete('Read the 12 fridge items ordered by expiry date.', null, 'fridge items are inv_1 … inv_12'),
  'The greek yogurt is past its date; use the spinach and the chicken thigh first.',
  // Turn 2, with the model URL typed into the page; a wrong value type first.
  plan('write', 'Add 2 cans of coconut milk to the shopping list'),
  toolCall('db_create', { table: 'shopping_list', data: { name: 'coconut milk', quantity: 'two', unit: 'can' } }),
  toolCall('db_create', { table: 'shopping_list', data: { name: 'coconut milk', quantity: 2, unit: 'can' } }),
  stepComplete('Added 2 cans of coconut milk to the shopping list.'),
  'Two cans of coconut milk are on your shopping list.',
];

let stack;
let ada;
let model;
let front;
let demo;
let browser;

// A model endpoint that allows cross-origin calls, as api.openai.com does:
// answers the preflight and forwards to the scripted model.
async function startCorsFront(baseUrl) {
  const target = new URL(baseUrl).origin;
  const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'authorization, content-type', 'access-control-allow-methods': 'POST, OPTIONS' };
  const server = createServer(async (request, response) => {
    if (request.method === 'OPTIONS') return response.writeHead(204, cors).end();
    const chunks = [];
    for await (const chunk of request) chunks.push(chunk);
    const upstream = await fetch(`${target}${request.url}`, {
      method: request.method,
      headers: { 'content-type': request.headers['content-type'] ?? 'application/json', authorization: request.headers.authorization ?? '' },
      body: Buffer.concat(chunks),
    });
    response.writeHead(upstream.status, { ...cors, 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
    response.end(Buffer.from(await upstream.arrayBuffer()));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { baseUrl: `http://127.0.0.1:${server.address().port}/v1`, close: () => new Promise((resolve) => server.close(resolve)) };
}

before(async () => {
  stack = await startStack();
  [ada] = stack.users;
  model = await startScriptedModel(SCRIPT);
  front = await startCorsFront(model.baseUrl);
  demo = await startDemoServer({
    supabase: { url: stack.supabaseUrl, anonKey: stack.anonKey },
    users: stack.users,
    model: { baseUrl: model.baseUrl, apiKey: SERVER_KEY, model: 'scripted' },
  });
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    timeout: 20_000,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}, { timeout: 90_000 });

after(async () => {
  await browser?.close();
  await demo?.close();
  await front?.close();
  await model?.stop();
  await stack?.stop();
});

/** A fresh tab on the demo, with every console error, page error and failed request kept. */
async function openDemo() {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const problems = [];
  page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('requestfailed', (request) => problems.push(`${request.url()} failed: ${request.failure()?.errorText}`));
  await page.goto(demo.url, WAIT);
  const ui = pageDriver(page);
  await ui.waitFor("document.body.dataset.ready === 'true'", 'the page to be ready');
  return { page, ui, problems };
}

test('serve-demo: the page, its modules and the wasm; /config.json without the model key; nothing outside web/', BOUNDED, async () => {
  const page = await fetch(demo.url);
  assert.equal(page.status, 200);
  assert.match(page.headers.get('content-type'), /^text\/html/);
  assert.equal((await fetch(new URL('/web/dist/alfred_core.wasm', demo.origin))).headers.get('content-type'), 'application/wasm');
  const config = await (await fetch(new URL('/config.json', demo.origin))).json();
  assert.deepEqual(config.supabase, { url: stack.supabaseUrl, anonKey: stack.anonKey });
  assert.deepEqual(config.users.map((user) => user.email), ['ada@example.com', 'ben@example.com']);
  assert.deepEqual(config.model, { baseUrl: '/llm/v1', model: 'scripted', responseFormat: 'json_schema' });
  assert.doesNotMatch(JSON.stringify(config), new RegExp(SERVER_KEY));
  for (const path of ['/package.json', '/web/../package.json', '/web/%2e%2e/package.json', '/db/stack.mjs']) {
    const response = await fetch(new URL(path, demo.origin));
    assert.notEqual(response.status, 200, path);
  }
  assert.equal((await fetch(new URL('/llm/v1/chat/completions', demo.origin))).status, 405);
});

test('the page loads with no console errors, core ready, every field labelled', BOUNDED, async () => {
  const { page, ui, problems } = await openDemo();
  try {
    assert.match(await ui.text('#status'), /^Ready: core loaded/);
    assert.equal(await ui.value('#user'), 'ada@example.com');
    assert.match(await ui.text('#model-summary'), /^scripted at http:\/\/127\.0\.0\.1:\d+\/llm\/v1 \(the demo server's/);
    const unlabelled = await ui.evaluate(
      "JSON.stringify([...document.querySelectorAll('input, select, textarea')].filter((field) => field.labels.length === 0 && !field.getAttribute('aria-label')).map((field) => field.id || field.name))",
    );
    assert.deepEqual(JSON.parse(unlabelled), []);
    assert.deepEqual(problems, []);
  } finally {
    await page.close();
  }
});

test('without any model the page says so, keeps Send off and opens the model settings', BOUNDED, async () => {
  const bare = await startDemoServer({ supabase: { url: stack.supabaseUrl, anonKey: stack.anonKey }, users: stack.users });
  const page = await browser.newPage();
  const problems = [];
  page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
  try {
    await page.goto(bare.url, WAIT);
    const ui = pageDriver(page);
    await ui.waitFor("document.body.dataset.ready === 'true'", 'the page to be ready');
    assert.equal(await ui.text('#model-summary'), 'none configured');
    assert.equal(await ui.evaluate("document.querySelector('#send').disabled"), true);
    assert.equal(await ui.evaluate("document.querySelector('#model-settings').open"), true);
    assert.match(await ui.text('#chat-hint'), /^No model configured: .*Manual tool calls or Replay/);
    assert.equal((await fetch(new URL('/llm/v1/chat/completions', bare.origin), { method: 'POST', body: '{}' })).status, 404);
    assert.deepEqual(problems, []);
  } finally {
    await page.close();
    await bare.close();
  }
});

test('manual mode: a read runs through act.execute and shows refs, the executed query, and no UUID', BOUNDED, async () => {
  const { page, ui, problems } = await openDemo();
  try {
    await ui.click('#tab-manual');
    await ui.select('#manual-example', 'Fridge, soonest expiry first');
    await ui.click('#manual-run');
    await ui.waitFor("document.querySelector('[data-manual=\"1\"] table.rows')", 'the rows of the read');

    const truth = (await rest(stack, ada.token, 'GET', '/inventory?select=name&location=eq.fridge&order=expiry_date.asc')).body;
    assert.ok(truth.length > 5);
    assert.deepEqual(await ui.texts('[data-manual="1"] tbody td:nth-child(2)'), truth.map((row) => row.name));
    assert.deepEqual(await ui.texts('[data-manual="1"] tbody td:first-child code.ref'), truth.map((_, index) => `inv_${index + 1}`));
    assert.match(
      await ui.text('[data-manual="1"] .query-text'),
      new RegExp(`Filters: location = fridge[^\\n]*Order: expiry_date asc\\nOutcome: ${truth.length} records found`),
    );

    // A refused call shows the error the model would get, and runs nothing.
    await ui.select('#manual-example', 'Refused: delete without a filter');
    await ui.click('#manual-run');
    await ui.waitFor("document.querySelector('[data-manual=\"2\"] .entry.error')", 'the refusal');
    assert.match(await ui.text('[data-manual="2"] .entry.error'), /Refused: missing_filter/i);
    assert.equal((await rest(stack, ada.token, 'GET', '/inventory?select=id&location=eq.fridge')).body.length, truth.length);

    // Params that are not JSON are reported next to the field.
    await ui.fill('#manual-params', '{ "table": ');
    await ui.click('#manual-run');
    await ui.waitFor("!document.querySelector('#manual-error').hidden", 'the params error');
    assert.match(await ui.text('#manual-error'), /^Params are not JSON/);

    assert.doesNotMatch(await ui.text('body'), UUID);
    assert.deepEqual(problems, []);
  } finally {
    await page.close();
  }
});

test('a scripted conversation: the demo server model, then a model URL typed into the page; steps, queries and rows shown', BOUNDED, async () => {
  const { page, ui, problems } = await openDemo();
  try {
    // Turn 1: the demo server's model (its key stays on the server).
    await ui.fill('#message', "What's in my fridge?");
    await ui.click('#send');
    await ui.waitFor("document.querySelectorAll('.message.assistant').length === 1", 'the first reply');
    assert.equal(await ui.text('.message.assistant p'), SCRIPT[3]);
    assert.match(await ui.text('[data-turn="1"] .step h4'), /^Step 1 · read — Read the inventory items in the fridge[^\n]*complete$/);
    assert.match(await ui.text('[data-turn="1"] .entry.decision'), /db_read\s+table: "inventory"\nfilters: \[.*"fridge".*\]\ncolumns: .*\norder_by: "expiry_date"/);
    assert.match(await ui.text('[data-turn="1"] .query-text'), /^Query: Table: inventory \| Filters: location = fridge/);
    assert.equal(await ui.count('[data-turn="1"] tbody tr'), 12);
    assert.equal(await ui.text('[data-turn="1"] tbody tr code.ref'), 'inv_1');

    // The assembled prompt is there on request.
    assert.equal(await ui.evaluate("document.querySelector('[data-turn=\"1\"] details.prompt').open"), false);
    await ui.click('[data-turn="1"] details.prompt summary');
    await ui.waitFor("document.querySelector('[data-turn=\"1\"] details.prompt').open", 'the prompt to open');
    assert.match(await ui.text('[data-turn="1"] details.prompt pre:last-of-type'), /fridge/);

    // Turn 2: a model URL and key typed into the page, kept in localStorage.
    await ui.click('#model-settings summary');
    await ui.fill('#model-form [name="baseUrl"]', front.baseUrl);
    await ui.fill('#model-form [name="apiKey"]', BROWSER_KEY);
    await ui.fill('#model-form [name="model"]', 'scripted');
    await ui.click('#model-form button[type="submit"]');
    assert.match(await ui.text('#model-summary'), /saved in this browser/);
    assert.equal(await ui.evaluate("JSON.parse(localStorage.getItem('alfred-act-demo.model')).baseUrl"), front.baseUrl);

    await ui.fill('#message', 'Put two cans of coconut milk on my shopping list.');
    await ui.click('#send');
    await ui.waitFor("document.querySelectorAll('.message.assistant').length === 2", 'the second reply');
    assert.deepEqual((await ui.texts('.message.assistant p'))[1], SCRIPT[8]);
    assert.match(await ui.text('[data-turn="2"] .entry.error'), /Refused: invalid_value[\s\S]*quantity expects a number/i);
    assert.match(await ui.text('[data-turn="2"] .entry.retry'), /Sent back to the model to correct \(tool_error/);
    assert.match((await ui.texts('[data-turn="2"] .query-text')).at(-1), /Outcome: 1 record created/);
    assert.equal(await ui.text('[data-turn="2"] tbody tr code.ref'), 'shop_1');

    // What the database holds, and which key each model call carried.
    const saved = (await rest(stack, ada.token, 'GET', '/shopping_list?select=name,quantity,unit&name=eq.coconut%20milk')).body;
    assert.deepEqual(saved, [{ name: 'coconut milk', quantity: 2, unit: 'can' }]);
    assert.equal(model.used, SCRIPT.length);
    const keys = model.requests.map((request) => request.headers.authorization);
    assert.deepEqual(keys, [...Array(4).fill(`Bearer ${SERVER_KEY}`), ...Array(5).fill(`Bearer ${BROWSER_KEY}`)]);
    for (const { body } of model.requests) {
      for (const { content } of body.messages.slice(0, 2)) assert.doesNotMatch(content, UUID);
    }

    // The screenshot shows the first turn: decision, query, rows.
    await ui.evaluate("document.querySelector('[data-turn=\"1\"] details.prompt').open = false");
    await ui.evaluate("document.querySelector('.trace-panel').scrollTop = 0");
    await mkdir(dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT });

    assert.doesNotMatch(await ui.text('body'), UUID);
    assert.deepEqual(problems, []);
  } finally {
    await page.evaluate('localStorage.clear()');
    await page.close();
  }
});

test('replay: the recorded session runs through the real loop and executor, clearly labelled', BOUNDED, async () => {
  const { page, ui, problems } = await openDemo();
  try {
    await ui.click('#tab-replay');
    assert.match(await ui.text('.replay-label'), /^Replay of a recorded session\. The model's answers come from a file/);
    assert.equal(await ui.text('#replay-run'), 'Replay 3 turns');
    await ui.click('#replay-run');
    await ui.waitFor("document.querySelectorAll('.message.assistant').length === 3", 'three replayed replies');
    assert.equal(await ui.count('.message.assistant[data-kind="done"]'), 3);
    assert.deepEqual(await ui.texts('.message .tag'), Array(6).fill('REPLAY'));
    assert.match(await ui.text('[data-turn="1"] .entry.error'), /unknown_column/i);
    assert.deepEqual(await ui.texts('[data-turn="2"] tbody td:last-child'), ['Butter Chicken', 'Thai Red Chicken Curry']);
    assert.doesNotMatch(await ui.text('body'), UUID);
    assert.deepEqual(problems, []);
  } finally {
    await page.close();
  }
});
