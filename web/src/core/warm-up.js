// The first use of a freshly compiled module is its slowest: the engine
// compiles each WebAssembly function the first time it is called (V8 does it
// lazily, on the calling thread), and the package's JavaScript likewise, so
// an app's first createAct and first tool call paid about 15 ms for compiling
// what they reach. Once per compiled module, when the runtime is next idle
// after loadCore resolved (while an agent waits for its model's first
// answer), the core runs a few calls of its own on a small domain through the
// paths most calls take: an act's read with filters whose rows come with
// their foreign keys' labels, written for the model, then a create and an
// update, all answered by a fetch of its own. No request leaves, nothing
// reaches the host's tracer or an audit hook, and its registry is deleted
// (its request context and compiled domain go with the garbage). It skips
// itself when the app has started a call of its own by then (that call
// compiles what it reaches, and a warm-up would only compete with it).
// `loadCore({ warmUp: false })` turns it off; the Cloudflare Workers entry
// never schedules it (docs/architecture.md, "The first call").
import { internalsOf } from './internals.js';

// The compiled modules a warm-up was scheduled for (compiled code is shared
// by every instance of a module).
const warmed = new WeakSet();

const USER = '0a0b0c0d-0000-4000-8000-000000000001';
const PARENT = '0a0b0c0d-0000-4000-8000-000000000002';
// Never sent: the request context reads its claims ({ role: 'authenticated',
// sub: USER }), nobody checks its signature.
const TOKEN =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJyb2xlIjoiYXV0aGVudGljYXRlZCIsInN1YiI6IjBhMGIwYzBkLTAwMDAtNDAwMC04MDAwLTAwMDAwMDAwMDAwMSJ9.d2FybS11cA';

// Made per warm-up, so that its compiled form goes when the warm-up is done.
const warmUpDomain = () => ({
  name: 'alfred_act_warm_up',
  tables: {
    projects: {
      ref: 'project',
      label: ['name'],
      columns: { id: { type: 'uuid', writable: false, nullable: false }, name: { type: 'text', required: true } },
    },
    notes: {
      ref: 'note',
      owner: 'user_id',
      label: ['title'],
      columns: {
        id: { type: 'uuid', writable: false, nullable: false },
        user_id: { type: 'uuid', writable: false, nullable: false },
        title: { type: 'text', required: true },
        done: { type: 'boolean' },
        size: { type: 'integer' },
        due: { type: 'date' },
        project_id: { type: 'uuid', references: 'projects' },
        created_at: { type: 'timestamp', writable: false, nullable: false },
      },
    },
  },
});

// The row the warm-up's fetch holds (it adds the project's label, as the read asks for it).
const ROW = { id: '0a0b0c0d-0000-4000-8000-000000000003', user_id: USER, title: 'Buy bread', done: false, size: 2, due: '2026-12-01', project_id: PARENT, created_at: '2026-11-28T10:00:00+00:00' };
const READ = { table: 'notes', filters: [{ field: 'done', op: '=', value: false }, { field: 'title', op: 'ilike', value: '%bread%' }], order_by: 'due', limit: 20 };

// A tracer whose spans record nothing (OpenTelemetry's own no-op
// semantics), given where the host set a default one, which the warm-up's
// act would otherwise use.
const NOT_RECORDING = { isRecording: () => false, end() {} };
const QUIET_TRACER = { startSpan: () => NOT_RECORDING };

// Calls `run` when the runtime is idle: requestIdleCallback where there is
// one (browsers), else a timer that keeps no process up.
function whenIdle(run) {
  if (typeof globalThis.requestIdleCallback === 'function') return void globalThis.requestIdleCallback(run, { timeout: 2000 });
  const timer = setTimeout(run, 0);
  if (typeof timer?.unref === 'function') timer.unref();
  else if (typeof globalThis.Deno?.unrefTimer === 'function') globalThis.Deno.unrefTimer(timer);
}

/**
 * Schedules `warmUp(core)` for when the runtime is idle, unless the core was
 * loaded with `warmUp: false` or a core of the same compiled module was
 * warmed up already. `internalsOf(core).warmUp` tells how it went.
 */
export function warmUpWhenIdle(core) {
  const plumbing = internalsOf(core);
  const status = plumbing.warmUp;
  if (!status.wanted || !status.module || warmed.has(status.module) || globalThis.navigator?.userAgent === 'Cloudflare-Workers') return;
  warmed.add(status.module);
  const started = plumbing.executionsStarted;
  status.done = new Promise((resolve) => {
    const finish = (state) => resolve((status.state = state));
    const run = () => {
      if (plumbing.executionsStarted !== started) return finish('skipped');
      status.state = 'running';
      warmUp(core).then(
        () => finish('done'),
        () => finish('failed'),
      );
    };
    try {
      whenIdle(run);
      status.state = 'scheduled';
    } catch {
      // A runtime that refuses timers here: the calls that come compile what they reach.
      finish('none');
    }
  });
}

/** Runs the warm-up calls on `core` now (see above); rejects with what they throw. */
export async function warmUp(core) {
  const domain = warmUpDomain();
  const fetch = async (url, init = {}) => {
    const method = init.method ?? 'GET';
    let body = [ROW];
    if (method === 'POST') body = [JSON.parse(init.body)].flat().map((row) => ({ ...ROW, ...row }));
    if (method === 'PATCH') body = body.map((row) => ({ ...row, ...JSON.parse(init.body) }));
    const text = JSON.stringify(body.map((row) => ({ ...row, _label_project_id: { name: 'Home' } })));
    return new Response(text, { status: method === 'POST' ? 201 : 200, headers: { 'content-type': 'application/json; charset=utf-8', 'content-range': `0-${body.length - 1}/*` } });
  };
  const quiet = internalsOf(core).defaultTracer ? { tracer: QUIET_TRACER } : {};
  const act = core.createAct({ url: 'https://warm-up.invalid', apiKey: 'warm-up', accessToken: TOKEN, userId: USER, domain, fetch, ...quiet });
  try {
    const read = await act.callToolText('db_read', JSON.stringify(READ));
    if (!read.includes('"ok":true')) throw new Error(`the warm-up's read failed: ${read}`);
    const created = await act.execute('db_create', { table: 'notes', data: [{ title: 'Butter', project_id: 'project_1', due: '2026-12-02' }] });
    if (created.error) throw new Error(`the warm-up's create failed: ${created.error.message}`);
    const updated = await act.execute('db_update', { table: 'notes', filters: [{ field: 'id', op: '=', value: 'note_1' }], data: { done: true, size: 3 } });
    if (updated.error) throw new Error(`the warm-up's update failed: ${updated.error.message}`);
  } finally {
    act.registry.delete();
  }
}
