// The WebAssembly boundary's own rules (web/src/core/abi.js over the plain
// exports of wasm/): a call's several short texts arrive each whole, in
// order, whatever their characters; a deleted handle is refused rather than
// read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadCore, kitchen } from '../../web/src/index.node.js';
import { instantiateModule } from '../../web/src/core/boundary.js';
import { codes } from '../../web/dist/error-codes.mjs';

const core = await loadCore();
const RECIPE = '0b6a4c1e-8f2d-4e7a-b3c5-9d1e2f3a4b5c';
// A signed-in user's token for acts whose fetch answers in process (nothing checks its signature).
const tokenPart = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
const USER_TOKEN = `${tokenPart({ alg: 'HS256', typ: 'JWT' })}.${tokenPart({ role: 'authenticated', sub: RECIPE })}.c2lnbmF0dXJl`;

test('the texts of one call arrive each whole and in order, multi-byte characters included', () => {
  const registry = core.createRegistry();
  const content = { name: 'Crème brûlée 🍮 für 4 — «classique»', instructions: ['Œufs', '砂糖'] };
  const { data: ref, error } = registry.registerGenerated('recipes', content);
  assert.equal(error, null);
  assert.equal(ref, 'gen_recipe_1');
  // table, ref, key and label are four texts of two calls: a wrong offset or
  // length would cut or shift them.
  const label = 'Tarte Tatin ☕ (ÉTÉ) 🍎🍎';
  assert.deepEqual(registry.promote(ref, RECIPE, label), { data: 'recipe_1', error: null });
  const state = registry.toJSON();
  const entry = state.refs.find((item) => item.ref === 'recipe_1');
  assert.equal(entry.label, label);
  assert.equal(entry.table, 'recipes');
  assert.equal(registry.tableOf('recipe_1'), 'recipes');
  assert.equal(registry.tableOf('recipe_9'), null);
  assert.deepEqual(core.parseRef('gen_recipe_12'), { generated: true, prefix: 'recipe', number: 12 });
  assert.equal(core.parseRef('Rezept 🍮 1'), null);
  registry.delete();
});

test('a deleted handle is refused, not read', async () => {
  const module = await instantiateModule(await WebAssembly.compile(readFileSync(new URL('../../web/dist/alfred_core.wasm', import.meta.url))));
  const bytes = new TextEncoder().encode(JSON.stringify(kitchen));
  const at = module.inputBuffer(bytes.length);
  module.HEAPU8.set(bytes, at);
  const domain = new module.Domain(bytes.length);
  assert.equal(domain.loadError(), '');
  const registry = new module.Registry();
  assert.match(registry.toJSON(), /"refs":\[\]/);
  registry.delete();
  for (const use of [() => registry.toJSON(), () => registry.delete(), () => module.schemaDescription(domain) && module.withoutUuids(registry, 'x')]) {
    assert.throws(use, (error) => error.code === codes.internal_error && /deleted handle/.test(error.message));
  }
  domain.delete();
  assert.throws(() => module.schemaDescription(domain), (error) => error.code === codes.internal_error);
});

test('a large argument crosses whole', () => {
  const registry = core.createRegistry();
  const long = 'é'.repeat(600_000); // 1.2 MB of UTF-8, over the 1 MB the argument buffer keeps between calls
  for (let i = 0; i < 3; i++) {
    const { data: ref, error } = registry.registerGenerated('recipes', { name: `Long ${i}`, instructions: [long] });
    assert.equal(error, null);
    const entry = registry.toJSON().refs.find((item) => item.ref === ref);
    assert.equal(entry.content.instructions[0], long);
    assert.equal(entry.label, `Long ${i}`);
  }
  registry.delete();
});

// Translating rows trims only the output buffer: the input buffer's address
// is cached by the Core, and freeing it behind the cache made the next call
// write into freed memory (a large parseDecision, then a large translation).
test('a large translation between large calls leaves the next call whole', async () => {
  const fresh = await loadCore();
  const reply = '{"action":"step_complete","summary":"done"}';
  const expected = fresh.parseDecision(reply);
  assert.equal(expected.error, null);
  fresh.parseDecision('y'.repeat(300_000));
  fresh.parseDecision('y'.repeat(340_000));
  const rows = Array.from({ length: 4000 }, (_, i) => ({ id: `0b6a4c1e-8f2d-4e7a-b3c5-${String(i).padStart(12, '0')}`, name: 'n'.repeat(300) }));
  const translated = fresh.createRegistry().translateRowsText('recipes', JSON.stringify(rows));
  assert.equal(translated.error, null);
  assert.ok(translated.data.length > 1 << 20);
  assert.deepEqual(fresh.parseDecision(reply), expected);
  assert.equal(fresh.renderQuery({ table: 'recipes' }).error, null);
});

// A generated artifact's content may be up to maxInputBytes (8 MiB): its
// text is encoded at its exact size, not reserved at three bytes per
// character (24 MB, past what one call may use).
test('a generated artifact near the input limit is registered and updated', async () => {
  const fresh = await loadCore();
  const registry = fresh.createRegistry();
  const n = Math.floor(7.9 * 1024 * 1024);
  const { data: ref, error } = registry.registerGenerated('recipes', { name: 'big', instructions: ['a'.repeat(n)] });
  assert.equal(error, null);
  assert.deepEqual(registry.updateGenerated(ref, { name: 'big 2', instructions: ['b'.repeat(n)] }), { data: ref, error: null });
  registry.delete();
});

test('a large output reads the same whether it is ASCII or not, and ASCII takes the fast path in Node', async () => {
  const { execFileSync } = await import('node:child_process');
  // A child process whose buffer module counts isAscii, so that the test
  // sees which path each output took.
  const script = `
    const real = process.getBuiltinModule('buffer');
    let checks = 0;
    const counted = { ...real, isAscii: (bytes) => (checks++, real.isAscii(bytes)) };
    const getBuiltinModule = process.getBuiltinModule.bind(process);
    process.getBuiltinModule = (name) => (name === 'buffer' || name === 'node:buffer' ? counted : getBuiltinModule(name));
    const { decodeOutput } = await import(${JSON.stringify(new URL('../../web/src/core/abi.js', import.meta.url).href)});
    const encoder = new TextEncoder();
    const reference = new TextDecoder();
    const cases = {
      small: encoder.encode('{"name":"bread"}'),
      ascii: encoder.encode('{"name":"bread","qty":2},'.repeat(2000)),
      accents: encoder.encode('{"name":"Crème brûlée","qty":2},'.repeat(2000)),
      astral: encoder.encode('{"name":"🍮 砂糖","qty":2},'.repeat(2000)),
      invalid: new Uint8Array([...encoder.encode('{"name":"'.repeat(3000)), 0xc3, 0x28, 0xff, 0xe2, 0x82]),
      // Decoded in pieces: characters of 2, 3 and 4 bytes across every split.
      pieces: encoder.encode('x' + '🍮 砂糖é'.repeat(40000)),
      // A split inside a run of stray continuation bytes, and one inside a 4-byte character.
      straySplit: Object.assign(new Uint8Array(140000).fill(0x61), { 65530: 0xf0, 65531: 0x90, 65532: 0x80, 65533: 0x80, 65534: 0x80, 65535: 0x80, 65536: 0x80, 65537: 0x80, 131070: 0xf0, 131071: 0x9f, 131072: 0x8d, 131073: 0xae }),
      // U+FEFF is a character inside a text, wherever a piece starts: at a split, and across one.
      bomAtSplit: encoder.encode('é' + 'a'.repeat(65534) + '\uFEFF' + 'b'.repeat(70000)),
      bomAcrossSplit: encoder.encode('é' + 'a'.repeat(65533) + '\uFEFF' + 'b'.repeat(70000)),
    };
    const out = {};
    for (const [name, bytes] of Object.entries(cases)) {
      const before = checks;
      // A view into a larger buffer, as WASM memory gives.
      const memory = new Uint8Array(bytes.length + 16);
      memory.set(bytes, 8);
      const view = memory.subarray(8, 8 + bytes.length);
      out[name] = { same: decodeOutput(view) === reference.decode(bytes), checked: checks > before };
    }
    // Bytes that continue a text (after its first line) keep a U+FEFF they start with, large or small.
    const keeping = new TextDecoder('utf-8', { ignoreBOM: true });
    for (const [name, bytes] of [['continuedSmall', encoder.encode('\uFEFF{"a":1}')], ['continuedLarge', encoder.encode('\uFEFFé' + 'c'.repeat(90000))]]) {
      out[name] = { same: decodeOutput(bytes, true) === keeping.decode(bytes) && decodeOutput(bytes, true).startsWith('\uFEFF'), checked: true };
    }
    console.log(JSON.stringify(out));
  `;
  const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));
  for (const [name, { same }] of Object.entries(out)) assert.ok(same, `${name}: decodeOutput differs from TextDecoder`);
  assert.equal(out.small.checked, false, 'a small output goes straight to TextDecoder');
  if (typeof process.getBuiltinModule === 'function') {
    for (const name of ['ascii', 'accents', 'astral', 'invalid', 'pieces', 'straySplit']) assert.equal(out[name].checked, true, `${name}: a large output is checked for ASCII`);
  }
});

test('a large all-ASCII result of a call arrives whole', () => {
  const registry = core.createRegistry();
  const rows = Array.from({ length: 600 }, (_, i) => ({
    id: `0b6a4c1e-8f2d-4e7a-b3c5-${String(i).padStart(12, '0')}`,
    name: `Recipe number ${i} with a plain ASCII name`,
    cuisine: 'italian',
  }));
  const { data, error } = registry.translateRows('recipes', rows);
  assert.equal(error, null);
  assert.equal(data.length, 600);
  assert.equal(data[599].name, 'Recipe number 599 with a plain ASCII name');
  assert.equal(data[599].id, 'recipe_600');
});

test('a large result for the model arrives whole, its characters intact across the pieces it is read in', async () => {
  // About 250 KB of text for the model: read in pieces of 64 KB, each split
  // where a character starts; the line before it (the result's fields) apart.
  const names = ['Crème brûlée 🍮', '砂糖 und Öl', 'plain toast', 'Œufs « brouillés »'];
  const rows = Array.from({ length: 1000 }, (_, i) => ({
    id: `0b6a4c1e-8f2d-4e7a-b3c5-${String(i).padStart(12, '0')}`,
    name: `${names[i % names.length]} ${'é'.repeat(i % 5)}${i}`,
    cuisine: 'française',
    instructions: [`Fouettez ${i} œufs — puis « mélangez » 🍳 à feu doux, ${'ü'.repeat(i % 7)} 砂糖 au goût.`.repeat(2)],
  }));
  const body = JSON.stringify(rows);
  const fetch = async () => new Response(body, { status: 200, headers: { 'content-type': 'application/json', 'content-range': `0-${rows.length - 1}/*` } });
  const act = core.createAct({ url: 'https://example.supabase.co', apiKey: 'anon', accessToken: USER_TOKEN, fetch, resultLimits: { rows: 5000, chars: 1 << 22 } });
  const text = await act.callToolText('db_read', JSON.stringify({ table: 'recipes', limit: 1000 }));
  assert.ok(text.length > 200_000, `${text.length} characters`);
  const result = JSON.parse(text);
  assert.equal(result.ok, true);
  assert.equal(result.rows.length, 1000);
  result.rows.forEach((row, i) => assert.deepEqual([row.name, row.instructions], [rows[i].name, rows[i].instructions]));
  assert.equal(result.rows[999].id, 'recipe_1000');
});

test('a large result for the model in Latin-1 characters is read as Latin-1 in Node, whole, and any other stays UTF-8', async () => {
  const { execFileSync } = await import('node:child_process');
  // A child process that counts Buffer's Latin-1 reads, so that the test
  // sees which path each result took.
  const script = `
    let reads = 0;
    const toString = Buffer.prototype.toString;
    Buffer.prototype.toString = function (encoding, ...rest) {
      if (encoding === 'latin1') reads++;
      return toString.call(this, encoding, ...rest);
    };
    const { loadCore } = await import(${JSON.stringify(new URL('../../web/src/index.node.js', import.meta.url).href)});
    const core = await loadCore();
    // About 170 KB for the model: read in pieces. C1 controls, a no-break space, ÿ: the ends of Latin-1.
    const names = ['Crème brûlée', 'Smørrebrød «maison»', 'À la carte ±½ ÿ', 'nbsp\u00a0here \u0081\u009f', 'plain toast'];
    const rowsOf = (extra) => Array.from({ length: 1000 }, (_, i) => ({
      id: \`0b6a4c1e-8f2d-4e7a-b3c5-\${String(i).padStart(12, '0')}\`,
      name: \`\${names[i % names.length]} \${i}\${i === 999 ? extra : ''}\`,
      instructions: ['Fouettez les oeufs, ' + 'à feu doux, ü '.repeat(4 + (i % 4))],
    }));
    const read = async (rows) => {
      const body = JSON.stringify(rows);
      const fetch = async () => new Response(body, { status: 200, headers: { 'content-type': 'application/json', 'content-range': '0-999/*' } });
      const act = core.createAct({ url: 'https://example.supabase.co', apiKey: 'anon', accessToken: ${JSON.stringify(USER_TOKEN)}, fetch, resultLimits: { rows: 5000, chars: 1 << 22 } });
      const before = reads;
      const text = await act.callToolText('db_read', JSON.stringify({ table: 'recipes', limit: 1000 }));
      const result = JSON.parse(text);
      const same = result.ok && result.rows.length === rows.length && result.rows.every((row, i) => row.name === rows[i].name && row.instructions[0] === rows[i].instructions[0]);
      return { same, length: text.length, latin1: reads > before };
    };
    console.log(JSON.stringify({ fits: await read(rowsOf('')), euro: await read(rowsOf(' 5 €')), emoji: await read(rowsOf(' 🍮')) }));
  `;
  const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));
  for (const [name, { same, length }] of Object.entries(out)) {
    assert.ok(same, `${name}: the rows arrive as sent`);
    assert.ok(length > 131072, `${name}: ${length} characters, read in pieces`);
  }
  if (typeof process.getBuiltinModule === 'function') assert.equal(out.fits.latin1, true, 'every character fits: read as Latin-1');
  assert.equal(out.euro.latin1, false, 'a character past Latin-1 (€, the last row): read as UTF-8');
  assert.equal(out.emoji.latin1, false);
});

test('a response body in many chunks reaches the core as the same bytes as in one', async () => {
  const rows = Array.from({ length: 300 }, (_, i) => ({
    id: `0b6a4c1e-8f2d-4e7a-b3c5-${String(i).padStart(12, '0')}`,
    name: `Crème brûlée 🍮 砂糖 ${i}`,
    cuisine: 'française',
  }));
  const bytes = new TextEncoder().encode(JSON.stringify(rows));
  const headers = { 'content-type': 'application/json', 'content-range': `0-${rows.length - 1}/*` };
  // Chunks of 997 bytes: most splits fall inside a character or a UUID.
  const chunked = () =>
    new ReadableStream({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 997) controller.enqueue(bytes.slice(at, at + 997));
        controller.close();
      },
    });
  const read = async (body) => {
    const act = core.createAct({ url: 'https://example.supabase.co', apiKey: 'anon', accessToken: USER_TOKEN, fetch: async () => new Response(body(), { status: 200, headers }) });
    try {
      return await act.execute('db_read', { table: 'recipes', limit: 300 });
    } finally {
      act.registry.delete();
    }
  };
  const whole = await read(() => bytes);
  const inChunks = await read(chunked);
  assert.equal(whole.error, null);
  assert.equal(inChunks.error, null);
  assert.equal(inChunks.data.length, 300);
  assert.deepEqual(inChunks.data, whole.data);
  assert.equal(inChunks.data[299].name, rows[299].name);
});
