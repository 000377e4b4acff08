// The fixed cost of one tool call: a one-row read through
// act.callToolText('db_read', '{"table":"notes","limit":1}') against a
// fetch that answers in process, minus what that fetch costs on its own
// (building the Response and reading its bytes, which any client pays). What
// is left is alfred-act's own work for a call: the arguments, the policy,
// the request built and sent, the response read within its limits and
// timeout, the row translated and the result text written. The part spent in
// WebAssembly is timed apart (the same execution driven directly), and so is
// the call with an access token as long as a Supabase session's (the bench's
// own is short, and every request carries the token).
// Interleaved rounds; medians. Target: ≤ 25 µs in Node.
// Run: node bench/fixed-cost.mjs. Environment: BENCH_ROUNDS (9), BENCH_JSON=1.
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
// The package as Node loads it (web/dist/node-index.js, the bundled build);
// the WebAssembly part is timed through the sources' internals, on the same .wasm.
import { loadCore } from 'alfred-act';
import { loadCore as loadSourceCore } from '../web/src/index.node.js';
import { internalsOf } from '../web/src/core/internals.js';

export const FIXED_COST_TARGET_US = 25;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const json = process.env.BENCH_JSON === '1';

// A table as Supabase Studio makes one for a to-do app.
const domain = {
  name: 'notes',
  tables: {
    notes: {
      ref: 'note',
      owner: 'user_id',
      label: ['title'],
      columns: {
        id: { type: 'uuid', writable: false, nullable: false },
        user_id: { type: 'uuid', writable: false, nullable: false },
        title: { type: 'text', required: true },
        body: { type: 'text' },
        done: { type: 'boolean' },
        created_at: { type: 'timestamp', writable: false, nullable: false },
      },
    },
  },
};
const userId = 'a08ff49b-6f77-4263-8716-c43069c43a8c';
const row = { id: 'b548ea75-c1c3-46d9-8a5f-0e0230f7af37', user_id: userId, title: 'Buy bread', body: 'and butter and eggs', done: false, created_at: '2026-11-28T10:00:00+00:00' };
const body = new TextEncoder().encode(JSON.stringify([row]));
const headers = { 'content-type': 'application/json; charset=utf-8', 'content-range': '0-0/*' };
const fetch = async () => new Response(body, { status: 200, headers });
const part = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
const accessToken = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ role: 'authenticated', sub: userId })}.c2lnbmF0dXJl`;

// A token as a Supabase session carries one (GoTrue's claims, a 43-character
// signature): every request sends it, so its length is part of a call's cost.
const sessionClaims = {
  aud: 'authenticated', exp: 1799999999, iat: 1764520000, iss: 'https://abcdefghijklmnopqrst.supabase.co/auth/v1', sub: userId,
  email: 'ada.lovelace@example.com', phone: '', app_metadata: { provider: 'email', providers: ['email'] },
  user_metadata: { email: 'ada.lovelace@example.com', email_verified: true, phone_verified: false, sub: userId },
  role: 'authenticated', aal: 'aal1', amr: [{ method: 'password', timestamp: 1764520000 }], session_id: '5d3e0a6b-2f4c-4b8e-9a1d-7c6e5f4a3b2c', is_anonymous: false,
};
const sessionToken = `${part({ alg: 'HS256', kid: 'abcd1234', typ: 'JWT' })}.${part(sessionClaims)}.${'s'.repeat(43)}`;

const core = await loadCore();
const act = core.createAct({ url: 'https://bench.supabase.co', apiKey: 'anon-key', domain, accessToken, fetch });
const sessionAct = core.createAct({ url: 'https://bench.supabase.co', apiKey: 'anon-key', domain, accessToken: sessionToken, fetch });
const args = '{"table":"notes","limit":1}';
const first = JSON.parse(await act.callToolText('db_read', args));
if (!first.ok || first.rows.length !== 1 || first.rows[0].title !== 'Buy bread') throw new Error(`the read failed: ${JSON.stringify(first)}`);

// The same execution driven directly: the WebAssembly part of a call.
const sourceCore = await loadSourceCore();
const plumbing = internalsOf(sourceCore);
const registry = sourceCore.createRegistry(undefined, { domain });
const context = plumbing.requestContext({ url: 'https://bench.supabase.co', apiKey: 'anon-key', accessToken, userId });
// The settings as the act sends them: its limits are the core's defaults, which it leaves out.
const settings = { maxAffected: act.policy.maxAffected, forModel: { ...act.resultLimits, fence: 'k7Qm2xPaZ3' } };
const response = { status: 200, contentRange: '0-0/*', contentType: 'application/json; charset=utf-8', body, failure: '' };
const inCore = () => {
  const execution = plumbing.startExecution('db_read', { table: 'notes', limit: 1 }, context, { registry, domain, settings });
  try {
    while (!execution.done()) execution.needs().forEach((_, index) => execution.respond(index, response));
    return execution.result();
  } finally {
    execution.delete();
  }
};

const sides = {
  call: () => act.callToolText('db_read', args),
  fetch: async () => (await fetch()).arrayBuffer(),
  core: async () => inCore(),
  session: () => sessionAct.callToolText('db_read', args),
};
const times = { call: [], fetch: [], core: [], session: [] };
const N = 2000;
for (let round = 0; round < ROUNDS + 1; round++) {
  for (const name of round % 2 ? Object.keys(sides) : Object.keys(sides).reverse()) {
    const started = performance.now();
    for (let i = 0; i < N; i++) await sides[name]();
    if (round > 0) times[name].push(((performance.now() - started) * 1000) / N);
  }
}
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
const fixed = times.call.map((t, i) => t - times.fetch[i]).sort((a, b) => a - b);
const result = {
  callUs: median(times.call),
  fetchUs: median(times.fetch),
  coreUs: median(times.core),
  fixedUs: [fixed[0], median(fixed), fixed[fixed.length - 1]],
  sessionFixedUs: median(times.session.map((t, i) => t - times.fetch[i])),
};
if (json) console.log(JSON.stringify(result));
else {
  console.log(`the fixed cost of a call: a one-row read against an in-process fetch, Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model.split(' ')[0] ?? 'cpu'}, load average ${loadavg()[0].toFixed(2)}`);
  console.log(`${ROUNDS} interleaved rounds of ${N} calls, medians\n`);
  console.log('step                                                            µs/call');
  console.log('--------------------------------------------------------------  -------');
  console.log(`act.callToolText('db_read', …), one row                         ${result.callUs.toFixed(1).padStart(7)}`);
  console.log(`  the fetch alone (new Response + arrayBuffer)                   ${result.fetchUs.toFixed(1).padStart(7)}`);
  console.log(`  alfred-act's own work (the call − the fetch; min med max)      ${result.fixedUs.map((x) => x.toFixed(1)).join(' ')}`);
  console.log(`  of which in WebAssembly (the execution driven directly)        ${result.coreUs.toFixed(1).padStart(7)}`);
  console.log(`  the same with a Supabase session's token (${sessionToken.length} characters)     ${result.sessionFixedUs.toFixed(1).padStart(7)}`);
  console.log(`\ntarget: alfred-act's own work ≤ ${FIXED_COST_TARGET_US} µs (${result.fixedUs[1] <= FIXED_COST_TARGET_US ? 'met' : 'not met'})`);
}
// bench/index.mjs sums the benches up from this line.
if (process.env.BENCH_SUMMARY === '1') console.log(`@summary ${JSON.stringify({ fixedCost: result })}`);
