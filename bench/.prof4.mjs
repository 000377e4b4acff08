const { loadCore } = await import('/work/main/web/src/index.node.js');
const { createClient } = await import('/work/main/node_modules/@supabase/supabase-js/dist/index.mjs');
const jwt = (sub) => { const part = (v) => Buffer.from(JSON.stringify(v)).toString('base64url'); return `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ role: 'authenticated', sub })}.c2lnbmF0dXJl`; };
const body = new TextEncoder().encode('[]');
const fetchBytes = async () => new Response(body, { status: 200, headers: { 'content-type': 'application/json; charset=utf-8', 'content-range': '*/0' } });
const core = await loadCore();
const act = core.createAct({ url: 'https://bench.supabase.co', apiKey: 'anon-key', accessToken: jwt('11111111-1111-4111-8111-111111111111'), fetch: fetchBytes });
class NoSocket {}
const supabase = createClient('https://bench.supabase.co', 'anon-key', { global: { fetch: fetchBytes }, auth: { persistSession: false, autoRefreshToken: false }, realtime: { transport: NoSocket } });
const reps = 3000;
for (let round = 0; round < 3; round++) {
  let t0 = performance.now();
  for (let i = 0; i < reps; i++) await act.callToolText('db_read', { table: 'meal_plans', limit: 100 });
  const a = (performance.now() - t0) / reps;
  t0 = performance.now();
  for (let i = 0; i < reps; i++) { const { data } = await supabase.from('meal_plans').select('*').limit(100); JSON.stringify(data); }
  const b = (performance.now() - t0) / reps;
  t0 = performance.now();
  for (let i = 0; i < reps; i++) { const r = await fetchBytes(); await r.arrayBuffer(); }
  const c = (performance.now() - t0) / reps;
  console.log('empty result: alfred', (a*1000).toFixed(0), 'µs; supabase-js', (b*1000).toFixed(0), 'µs; bare fetch+arrayBuffer', (c*1000).toFixed(0), 'µs');
}
