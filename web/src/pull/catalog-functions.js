// The functions of the exposed schema as the catalog describes them, for the
// domain pull (pull/functions.js decides which the model may call): kind,
// volatility, security definer, a pinned search_path, the effective EXECUTE
// privilege of `authenticated`, the comment, the extension that owns it, what
// it returns, each argument (name, mode, type, enum values, default), and
// whether the text of a SQL or PL/pgSQL body has a statement that changes
// data. One read-only query; the facts are plain JSON. PostgREST's
// description says none of this but the arguments (docs/own-schema.md).

const KINDS = { f: 'function', p: 'procedure', a: 'aggregate', w: 'window' };
const VOLATILITIES = { v: 'volatile', s: 'stable', i: 'immutable' };
// pg_type.typtype as a word: the pull maps base types, enums and domains (as
// their base type) only.
const TYPE_KINDS = { b: 'base', c: 'composite', d: 'domain', e: 'enum', p: 'pseudo', r: 'range', m: 'multirange' };
const MODES = { i: 'in', o: 'out', b: 'inout', v: 'variadic', t: 'table' };
// Modes that take a value from the call.
export const INPUT_MODES = new Set(['in', 'inout', 'variadic']);

// Volatile built-in functions (of pg_catalog, or extensions') that change
// no data: a body calling them is still a read.
const HARMLESS_VOLATILE = ['random', 'random_normal', 'gen_random_uuid', 'gen_random_bytes', 'uuid_generate_v1', 'uuid_generate_v1mc', 'uuid_generate_v4', 'clock_timestamp', 'timeofday'];

const FUNCTION_KINDS = new Set(Object.values(KINDS));
const VOLATILITY_NAMES = new Set(Object.values(VOLATILITIES));
const MODE_NAMES = new Set(Object.values(MODES));

/**
 * The query for the functions of `name` (a SQL text literal). A domain type
 * is described as its base type; an array by its element's enum values.
 * `executable` is null where there is no authenticated role.
 */
export function functionsQuery(name) {
  // The volatile functions (of any schema) a volatile SQL or PL/pgSQL body
  // names as `name(`, those that change nothing aside: what a body that has
  // no write of its own may still reach. Another schema's are qualified.
  // (A quoted name, "logEvent"(…), too; strpos first: the regex per pair is slow.)
  const volatileCalls = `case when p.provolatile = 'v' and l.lanname in ('sql', 'plpgsql') and p.prosrc <> '' then
      coalesce((select array_agg(distinct case when vn.nspname = ${name} then v.proname::text else vn.nspname || '.' || v.proname end)
        from pg_catalog.pg_proc v join pg_catalog.pg_namespace vn on vn.oid = v.pronamespace
        where v.provolatile = 'v' and v.prokind = 'f' and v.oid <> p.oid
          and not (v.proname = any (array[${HARMLESS_VOLATILE.map((fn) => `'${fn}'`).join(', ')}]) and vn.nspname in ('pg_catalog', 'extensions'))
          and strpos(lower(p.prosrc), lower(v.proname)) > 0
          and p.prosrc ~* ('\\m' || regexp_replace(v.proname, '\\W', '\\\\\\&', 'g') || '"?\\s*\\(')), '{}') end`;
  // One type described: its format, kind, and enum values (of the element for an array).
  const described = (oid) => `(select json_build_object(
        'type', format_type(bt.oid, null),
        'kind', bt.typtype::text,
        'values', (select json_agg(en.enumlabel order by en.enumsortorder) from pg_catalog.pg_enum en
          where en.enumtypid = case when bt.typcategory = 'A' then bt.typelem else bt.oid end))
      from pg_catalog.pg_type t join pg_catalog.pg_type bt on bt.oid = coalesce(nullif(t.typbasetype, 0), t.oid)
      where t.oid = ${oid})`;
  return `select p.proname as function_name, p.prokind::text as kind, p.provolatile::text as volatility,
      p.prosecdef as security_definer, p.proretset as returns_set, p.pronargdefaults as defaults,
      exists (select from unnest(coalesce(p.proconfig, '{}'::text[])) setting where setting like 'search_path=%') as search_path_pinned,
      case when exists (select from pg_catalog.pg_roles where rolname = 'authenticated')
        then has_function_privilege('authenticated', p.oid, 'EXECUTE') end as executable,
      exists (select from aclexplode(p.proacl) acl join pg_catalog.pg_roles r on r.oid = acl.grantee
        where r.rolname = 'supabase_auth_admin' and acl.privilege_type = 'EXECUTE') as auth_hook,
      obj_description(p.oid, 'pg_proc') as description,
      case when l.lanname in ('sql', 'plpgsql') and p.prosrc <> '' then p.prosrc end as body, l.lanname::text as language,
      ${volatileCalls} as volatile_calls,
      (select e.extname from pg_catalog.pg_depend d join pg_catalog.pg_extension e on e.oid = d.refobjid
        where d.classid = 'pg_catalog.pg_proc'::regclass and d.objid = p.oid
          and d.refclassid = 'pg_catalog.pg_extension'::regclass and d.deptype = 'e' limit 1) as extension,
      ${described('p.prorettype')} as returns,
      case when rc.relkind in ('r', 'p', 'v', 'm', 'f') then rn.nspname end as returns_schema,
      case when rc.relkind in ('r', 'p', 'v', 'm', 'f') then rc.relname end as returns_table,
      coalesce((select json_agg(json_build_object('name', coalesce(a.name, ''), 'mode', coalesce(a.mode, 'i'), 'type', ${described('a.type_oid')})
          order by a.position)
        from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[]), p.proargmodes::text[], p.proargnames)
          with ordinality as a(type_oid, mode, name, position)), '[]'::json) as args
    from pg_catalog.pg_proc p
    join pg_catalog.pg_namespace n on n.oid = p.pronamespace
    join pg_catalog.pg_language l on l.oid = p.prolang
    join pg_catalog.pg_type rt on rt.oid = p.prorettype
    left join pg_catalog.pg_class rc on rc.oid = rt.typrelid
    left join pg_catalog.pg_namespace rn on rn.oid = rc.relnamespace
    where n.nspname = ${name}
    order by p.proname, p.oid`;
}

/** Whether `list` is a list of names (strings), as the facts' name lists are. */
export const isNameList = (list) => Array.isArray(list) && list.every((name) => typeof name === 'string');

/** A text[] as node-postgres and PGlite give it (an array); '{a,b}' text is read too. */
export function textArray(value) {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value === 'string' && /^\{.*\}$/s.test(value)) return value.slice(1, -1).split(',').filter(Boolean).map((item) => item.replace(/^"(.*)"$/, '$1'));
  return [];
}

// A json column comes back parsed from node-postgres and PGlite; text is read too.
const parsedJson = (value) => (typeof value === 'string' ? JSON.parse(value) : value);

function typeFacts(described) {
  const type = parsedJson(described) ?? {};
  const out = { type: String(type.type ?? 'unknown'), kind: TYPE_KINDS[type.kind] ?? 'base' };
  if (Array.isArray(type.values)) out.values = type.values.map(String);
  return out;
}

// Words of a statement (or a PL/pgSQL command) that changes data, or may:
// a write, DDL, a lock, a sequence, dynamic SQL (EXECUTE), a called
// procedure, PERFORM (run for its effects), a DO block.
const CHANGING_WORDS = /\b(?:insert|update|delete|merge|truncate|copy|create|drop|alter|grant|revoke|comment|lock|nextval|setval|execute|call|perform|notify|refresh|vacuum|analyze|reindex|cluster|import|do)\b/i;

// A body's text without its comments, string literals (quoted and
// dollar-quoted) and quoted identifiers, whose words say nothing about what
// it does.
function codeOf(body) {
  return body.replace(/--[^\n]*|\/\*[\s\S]*?\*\/|\b[eE]'(?:[^'\\]|\\.|'')*'|'(?:[^']|'')*'|"(?:[^"]|"")*"|(\$[A-Za-z_]*\$)[\s\S]*?\1/g, ' ');
}

/**
 * Whether the text of a SQL or PL/pgSQL body has a statement that changes
 * data (insert, update, delete, DDL, dynamic SQL, …): true or false, null
 * for another language (no text to read). A body that has none may still
 * call a function that writes; the pull only says so in a note.
 *
 * @example
 * bodyWrites("select json_agg(a) from basejump.accounts a") // false
 */
export function bodyWrites(body, language = 'plpgsql') {
  if (typeof body !== 'string') return null;
  const code = codeOf(body);
  // In SQL, SELECT … INTO creates a table (in PL/pgSQL it sets a variable).
  const creates = language === 'sql' && /\binto\b/i.test(code.replace(/\b(?:insert|merge)\s+into\b/gi, ' '));
  return creates || CHANGING_WORDS.test(code);
}

// Words of a body that reads or writes a table: FROM and JOIN (a FROM in
// trim(), extract() or substring() counts too: the safe side), a table or
// SELECT INTO, and every changing word.
const TABLE_WORDS = /\b(?:from|join|into|table)\b/i;

/**
 * For a SQL or PL/pgSQL body that reads and writes no table (a helper:
 * slugify(), nanoid()), the names of the functions it calls, lower-case as
 * written (`extensions.gen_random_bytes`); null for any other body.
 *
 * @example
 * tablelessCalls("select lower(regexp_replace(value, '[^a-z]+', '-', 'g'))") // ['lower', 'regexp_replace']
 */
export function tablelessCalls(body) {
  // A call by a quoted name ("logSearch"(…)) is not seen in the code: not a helper.
  if (typeof body !== 'string' || /"(?:[^"]|"")*"\s*\(/.test(body)) return null;
  const code = codeOf(body);
  // An operator's function may read or write: not a helper either.
  if (TABLE_WORDS.test(code) || CHANGING_WORDS.test(code) || /\boperator\s*\(/i.test(code)) return null;
  return [...new Set([...code.matchAll(/([A-Za-z_][\w$]*(?:\.[A-Za-z_][\w$]*)?)\s*\(/g)].map((match) => match[1].toLowerCase()))];
}

// pgvector's distance operators, bare or as operator(extensions.<=>), between
// two names (a column, an argument).
const DISTANCE = /([A-Za-z_][\w.]*)\s*(?:<=>|<->|<#>|<\+>|operator\s*\(\s*(?:\w+\.)?(?:<=>|<->|<#>|<\+>)\s*\))\s*([A-Za-z_][\w.]*)/gi;

/**
 * The names a body compares each of `vectorArgs` with by a distance
 * operator (`file_items.local_embedding <=> query_embedding`): `{ [arg]:
 * [name, …] }`, the names as written; null for no body or none compared.
 *
 * @example
 * comparedNames('order by file_items.local_embedding <=> query_embedding', ['query_embedding']) // { query_embedding: ['file_items.local_embedding'] }
 */
export function comparedNames(body, vectorArgs) {
  if (typeof body !== 'string' || vectorArgs.length === 0) return null;
  const out = {};
  const last = (name) => name.split('.').at(-1);
  for (const [, left, right] of codeOf(body).matchAll(DISTANCE)) {
    for (const [arg, other] of [[last(right), left], [last(left), right]]) {
      if (vectorArgs.includes(arg) && last(other) !== arg) out[arg] = [...new Set([...(out[arg] ?? []), other])];
    }
  }
  return Object.keys(out).length > 0 ? out : null;
}

/**
 * One function of the catalog's rows as facts: `{ name, kind, volatility,
 * securityDefiner, searchPathPinned, executable, authHook, description, extension,
 * writes, returns: { type, kind, values?, set, relation: { schema, table } | null },
 * args: [{ name, mode, type, kind, values?, hasDefault }] }`. The last
 * `pronargdefaults` inputs have defaults. `authHook`: EXECUTE is granted to
 * `supabase_auth_admin` by name, as Supabase's auth hooks are. `writes`:
 * bodyWrites of a SQL or PL/pgSQL body, null for another language.
 * `volatileCalls`: for a volatile SQL or PL/pgSQL function, the volatile
 * functions its body names (random() and the like aside), else null.
 * `compared`: comparedNames of its vector arguments. `tableless`:
 * tablelessCalls of its body.
 */
export function functionFacts(row) {
  const args = (parsedJson(row.args) ?? []).map((arg) => ({ name: String(arg.name ?? ''), mode: MODES[arg.mode] ?? 'in', ...typeFacts(arg.type), hasDefault: false }));
  const inputs = args.filter((arg) => INPUT_MODES.has(arg.mode));
  for (const arg of inputs.slice(inputs.length - Number(row.defaults ?? 0))) arg.hasDefault = true;
  return {
    name: row.function_name,
    kind: KINDS[row.kind] ?? 'function',
    volatility: VOLATILITIES[row.volatility] ?? 'volatile',
    securityDefiner: row.security_definer === true,
    searchPathPinned: row.search_path_pinned === true,
    executable: typeof row.executable === 'boolean' ? row.executable : null,
    authHook: row.auth_hook === true,
    description: row.description ?? null,
    extension: row.extension ?? null,
    writes: bodyWrites(row.body, row.language),
    volatileCalls: row.volatile_calls === null || row.volatile_calls === undefined ? null : textArray(row.volatile_calls),
    compared: comparedNames(row.body, inputs.filter((arg) => arg.type === 'vector' || arg.type.endsWith('.vector')).map((arg) => arg.name)),
    tableless: tablelessCalls(row.body),
    returns: { ...typeFacts(row.returns), set: row.returns_set === true, relation: row.returns_table ? { schema: row.returns_schema, table: row.returns_table } : null },
    args,
  };
}

const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);
const isType = (value) => isObject(value) && typeof value.type === 'string' && typeof value.kind === 'string' && (value.values === undefined || Array.isArray(value.values));

/** Why `functions` is not the functions part of catalog facts (a message), or null. */
export function functionFactsProblem(functions) {
  if (!Array.isArray(functions)) return 'functions must be a list';
  const shape = 'each is { name, kind, volatility, securityDefiner, searchPathPinned, executable, description, extension, returns, args } as catalogFacts(query) makes it';
  for (const [index, fn] of functions.entries()) {
    const at = `functions[${index}]`;
    if (!isObject(fn) || typeof fn.name !== 'string' || !FUNCTION_KINDS.has(fn.kind) || !VOLATILITY_NAMES.has(fn.volatility)) return `${at}: ${shape}`;
    if (typeof fn.securityDefiner !== 'boolean' || typeof fn.searchPathPinned !== 'boolean') return `${at}.securityDefiner and .searchPathPinned must be true or false`;
    if (fn.executable !== null && typeof fn.executable !== 'boolean') return `${at}.executable must be true, false or null`;
    if (fn.authHook !== undefined && typeof fn.authHook !== 'boolean') return `${at}.authHook must be true or false`;
    if (fn.writes !== undefined && fn.writes !== null && typeof fn.writes !== 'boolean') return `${at}.writes must be true, false or null`;
    if (fn.compared !== undefined && fn.compared !== null && !(isObject(fn.compared) && Object.values(fn.compared).every(isNameList))) return `${at}.compared must be an object of argument → names, or null`;
    if (fn.tableless !== undefined && fn.tableless !== null && !isNameList(fn.tableless)) return `${at}.tableless must be a list of names, or null`;
    if (fn.volatileCalls !== undefined && fn.volatileCalls !== null && !isNameList(fn.volatileCalls)) return `${at}.volatileCalls must be a list of function names or null`;
    if (!isType(fn.returns) || typeof fn.returns.set !== 'boolean') return `${at}.returns must be { type, kind, set, relation }`;
    if (!Array.isArray(fn.args)) return `${at}.args must be a list`;
    for (const arg of fn.args) {
      if (!isType(arg) || typeof arg.name !== 'string' || !MODE_NAMES.has(arg.mode) || typeof arg.hasDefault !== 'boolean') {
        return `${at}.args: each is { name, mode, type, kind, values?, hasDefault }`;
      }
    }
  }
  return null;
}
