import { readFileSync } from 'node:fs';
const a = readFileSync('/work/main/web/dist/alfred_core.wasm');
const b = readFileSync('/tmp/sym/alfred_core.wasm');
const uniq = (bytes, n) => { const name = Buffer.from(`b-${n}-${Math.random()}`); const payload = Buffer.concat([Buffer.from([name.length]), name]); return Buffer.concat([bytes, Buffer.from([0, payload.length]), payload]); };
const order = process.argv[2] === 'b' ? [['b', b], ['a', a]] : [['a', a], ['b', b]];
const t = { a: [], b: [] };
for (let i = 0; i < 7; i++) for (const [k, bytes] of order) { const u = uniq(bytes, i); const s = performance.now(); await WebAssembly.compile(u); t[k].push(performance.now() - s); await new Promise((r) => setTimeout(r, 50)); }
const med = (v) => v.sort((x, y) => x - y)[v.length >> 1];
console.log('simd+bulk', med(t.a).toFixed(1), 'ms; without', med(t.b).toFixed(1), 'ms', JSON.stringify(t));
