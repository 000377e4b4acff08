// The first use of a freshly compiled module is its slowest: the engine
// compiles each WebAssembly function the first time it is called (V8 does it
// lazily, on the calling thread), so an app's first createAct and first tool
// call paid about 15 ms for compiling what they reach. Once per compiled
// module, when the runtime is next idle after loadCore (while an agent waits
// for its model's first answer, or for its first request's response), the
// core runs one call on a small domain of its own through the paths most
// calls take: an act's read with filters whose rows come with their foreign
// keys' labels, answered in process and written for the model, and a create
// and an update built. No request leaves, nothing reaches a tracer or an
// audit hook, and its registry is freed. `loadCore({ warmUp: false })` turns
// it off; it is left out in Cloudflare Workers, where an isolate's first
// request is already waiting (docs/architecture.md, "The first call").

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

// The read's one row, with its project's label as the read asks for it.
const rows = () =>
  new TextEncoder().encode(
    JSON.stringify([
      { id: '0a0b0c0d-0000-4000-8000-000000000003', user_id: USER, title: 'Buy bread', done: false, size: 2, due: '2026-12-01', project_id: PARENT, created_at: '2026-11-28T10:00:00+00:00', _label_project_id: { id: PARENT, name: 'Home' } },
    ]),
  );
const READ = { table: 'notes', filters: [{ field: 'done', op: '=', value: false }, { field: 'title', op: 'ilike', value: '%bread%' }], order_by: 'due', limit: 20 };

// A tracer whose spans record nothing (OpenTelemetry's own no-op
// semantics): the warm-up's call reaches no tracer, not even the default one.
const NOT_RECORDING = { isRecording: () => false, end() {} };
const QUIET_TRACER = { startSpan: () => NOT_RECORDING };

/**
 * Schedules `warmUp(core)` for when the runtime is idle, once per compiled
 * `wasmModule`: a promise of whether it ran through, or null when none was
 * scheduled.
 */
export function scheduleWarmUp(core, wasmModule) {
  if (warmed.has(wasmModule)) return null;
  warmed.add(wasmModule);
  if (typeof setTimeout !== 'function' || globalThis.navigator?.userAgent === 'Cloudflare-Workers') return null;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      // Only speed is at stake: if it fails, the calls that come compile what they reach.
      warmUp(core).then(
        () => resolve(true),
        () => resolve(false),
      );
    }, 0);
    // Not a reason for a process to stay up.
    if (typeof timer?.unref === 'function') timer.unref();
    else if (typeof globalThis.Deno?.unrefTimer === 'function') globalThis.Deno.unrefTimer(timer);
  });
}

/** Runs the warm-up calls on `core` now (see above); rejects with what they throw. */
export async function warmUp(core) {
  const domain = warmUpDomain();
  const body = rows();
  const fetch = async () => new Response(body, { status: 200, headers: { 'content-type': 'application/json; charset=utf-8', 'content-range': '0-0/*' } });
  const options = { url: 'https://warm-up.invalid', apiKey: 'warm-up', accessToken: TOKEN, userId: USER };
  const act = core.createAct({ ...options, domain, fetch, tracer: QUIET_TRACER });
  const registry = act.registry;
  try {
    const text = await act.callToolText('db_read', JSON.stringify(READ));
    if (!text.includes('"ok":true')) throw new Error(`the warm-up read failed: ${text}`);
    const requestOptions = { ...options, registry, domain };
    core.buildRequest('db_create', { table: 'notes', data: [{ title: 'Butter', project_id: 'project_1', due: '2026-12-02' }] }, requestOptions);
    core.buildRequest('db_update', { table: 'notes', filters: [{ field: 'id', op: '=', value: 'note_1' }], data: { done: true, size: 3 } }, requestOptions);
  } finally {
    registry.delete();
  }
}
