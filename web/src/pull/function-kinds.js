// Kinds of the schema's own functions that the pull reads from their bodies
// across the schema (fixpoints over calls): volatile functions that only
// read, and helpers that touch no table (docs/functions.md, "Which functions
// the pull offers").

// The volatile functions (the default when a function says nothing) that
// change no data as far as the catalog shows: a body with no statement that
// changes data, naming no volatile function but these (basejump's
// get_accounts(), a search in PL/pgSQL). A fixpoint over the schema's
// functions; a name one of whose overloads may write is not one, nor a
// function whose calls were not read (facts of an older pull).
export function volatileReads(functions) {
  const volatile = functions.filter((fn) => fn.volatility === 'volatile');
  const readsOnly = (fn) => fn.writes === false && Array.isArray(fn.volatileCalls);
  const reads = new Set(volatile.filter(readsOnly).map((fn) => fn.name));
  for (const fn of volatile) if (!readsOnly(fn)) reads.delete(fn.name);
  for (let changed = true; changed; ) {
    changed = false;
    for (const fn of volatile) {
      if (reads.has(fn.name) && fn.volatileCalls.some((called) => !reads.has(called))) changed = reads.delete(fn.name);
    }
  }
  return reads;
}

// The helpers among `functions`: bodies that read and write no table, use
// no operator(…), call no function of another schema than PostgreSQL's or
// the extensions' and none of this one but other helpers (slugify(), nanoid(),
// a score of two values). The model computes such things itself, or has no
// use for them; each would cost the tool list a description.
export function helpersOf(functions, schema) {
  const names = new Set(functions.map((fn) => fn.name));
  // A call into another schema than this one, PostgreSQL's or the
  // extensions' (a team list kept in a private schema) may read tables.
  const outside = (fn) => fn.tableless.some((name) => name.includes('.') && !['pg_catalog', 'extensions', schema].includes(name.split('.')[0]));
  // A name is a helper when each of its overloads is.
  const helpers = new Set([...names].filter((name) => functions.every((fn) => fn.name !== name || (Array.isArray(fn.tableless) && !outside(fn)))));
  for (let changed = true; changed; ) {
    changed = false;
    for (const fn of functions) {
      const calls = helpers.has(fn.name) ? fn.tableless.map((name) => name.split('.').pop()) : [];
      if (calls.some((name) => name !== fn.name && names.has(name) && !helpers.has(name))) changed = helpers.delete(fn.name);
    }
  }
  return helpers;
}

// Versions of one function kept side by side (get_burn_rate, get_burn_rate_v2,
// get_burn_rate_v3; the bare name is the first): each older one of `names`
// → the latest. Names of one version (foo and foo_v1) supersede neither.
export function supersededBy(names) {
  const versionOf = (name) => {
    const match = /^(.+)_v(\d+)$/.exec(name);
    return match ? [match[1], Number(match[2])] : [name, 1];
  };
  const latest = new Map();
  for (const name of names) {
    const [base, version] = versionOf(name);
    if (!latest.has(base) || version > latest.get(base).version) latest.set(base, { version, name });
  }
  const older = new Map();
  for (const name of names) {
    const [base, version] = versionOf(name);
    if (version < latest.get(base).version) older.set(name, latest.get(base).name);
  }
  return older;
}
