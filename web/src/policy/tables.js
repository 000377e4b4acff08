// `createAct({ tables })`: the act sees only the tables allowed. Rather
// than checking names at every call, the act gets a restricted domain: the
// same configuration without the other tables and without anything that
// points at them (foreign-key columns, relations, embeds, catalog links,
// prompt examples). The core validates it like any domain, and every schema,
// tool description and prompt built from it names only what is left; a call
// to another table is the core's `unknown_table`, and a function that takes
// or returns rows of another table is not offered.
import { AlfredError } from '../errors.js';
import { codes } from '../../dist/error-codes.mjs';
import { namesUsersAs, stateKeeping, usersRefs } from '../core/users.js';

const USERS = 'auth.users';

// One restricted domain per base domain and allow-list, so that the core's
// compiled handle (cached per domain object) is made once, not per act.
const restricted = new WeakMap();
const MAX_PER_DOMAIN = 32;

const invalidTables = (message, hint = '') => new AlfredError({ code: codes.invalid_option, path: 'tables', message, hint });

const keyOf = (table) => (table.key === undefined ? ['id'] : Array.isArray(table.key) ? table.key : [table.key]);
const ownerOf = (domain, table) => table.owner ?? (table.user_owned ? (domain.owner_column ?? 'user_id') : null);

// Whether rows of `table` are keyed by user ids (a `profiles` table): a
// column pointing at it holds a user id, which stays one without it.
function keyedByUsers(domain, table) {
  const key = keyOf(table);
  if (key.length !== 1) return false;
  const column = table.columns?.[key[0]];
  return column?.references === USERS || (ownerOf(domain, table) === key[0] && !column?.references);
}

// An embed (`ingredients(id,name)`, `alias:table!hint(...)`) names this relation or table.
function embedName(item) {
  const head = String(item).split('(')[0];
  const name = head.includes(':') ? head.slice(head.indexOf(':') + 1) : head;
  return name.split('!')[0].trim();
}

function mentions(text, removed) {
  return removed.some(({ name, ref }) => new RegExp(`\\b${name}\\b`).test(text) || (ref && new RegExp(`\\b${ref}_(\\d|N)`).test(text)));
}

// The table as the act sees it: columns pointing at a table left out are
// gone (hidden, so that a read without columns does not select them), or,
// when they hold a user id by way of a table keyed by users, user ids.
function restrictTable(domain, name, table, kept, removedNames) {
  const out = structuredClone(table);
  const dropped = [];
  const key = keyOf(table);
  const owner = ownerOf(domain, table);
  for (const [column, config] of Object.entries(out.columns ?? {})) {
    const target = config.references;
    if (!target || target === USERS || kept.has(target)) continue;
    if (column === owner || keyedByUsers(domain, domain.tables[target] ?? {})) {
      // An owner column, or a user id by way of a profiles table: a user id.
      if (column === owner) delete config.references;
      else config.references = USERS;
      continue;
    }
    if (key.includes(column)) {
      throw invalidTables(`${name}'s key column ${column} points at ${target}, which tables leaves out`, `allow ${target} too, or leave ${name} out`);
    }
    delete out.columns[column];
    dropped.push(column);
  }
  if (dropped.length) out.hidden = [...new Set([...(out.hidden ?? []), ...dropped])];
  const gone = (column) => dropped.includes(column);
  if (Array.isArray(out.label)) out.label = out.label.filter((column) => !gone(column));
  if (typeof out.label_format === 'string' && dropped.some((column) => out.label_format.includes(`{${column}`))) delete out.label_format;
  if (out.relations) {
    for (const [relation, target] of Object.entries(out.relations)) if (!kept.has(target)) delete out.relations[relation];
  }
  const middleware = out.middleware;
  if (middleware) {
    if (Array.isArray(middleware.include)) {
      middleware.include = middleware.include.filter((item) => {
        const embedded = embedName(item);
        return !removedNames.has(embedded) && (out.relations?.[embedded] !== undefined || !table.relations?.[embedded]) && !gone(embedded);
      });
    }
    if (middleware.catalog && (!kept.has(middleware.catalog.table) || gone(middleware.catalog.link))) delete middleware.catalog;
    if (Array.isArray(middleware.fuzzy)) middleware.fuzzy = middleware.fuzzy.filter((column) => !gone(column));
    for (const [part, value] of Object.entries(middleware)) if (Array.isArray(value) && value.length === 0) delete middleware[part];
    if (Object.keys(middleware).length === 0) delete out.middleware;
  }
  if (out.relations && Object.keys(out.relations).length === 0) delete out.relations;
  return out;
}

/**
 * `domain` with only `tables` (and nothing that points at the others). The
 * result is cached per domain object and allow-list, so the core compiles it
 * once. Throws `AlfredError` (`invalid_option`, path `tables`) for a name
 * the domain does not have, or a kept table whose key points at one left out.
 * The core still validates the result (`internalsOf(core).domainHandle`, core/internals.js).
 *
 * @example
 * restrictDomain(crm, ['deals', 'organizations']).tables // { deals, organizations }: contacts and tasks are gone, deals.primary_contact_id too
 */
export function restrictDomain(domain, tables) {
  const known = Object.keys(domain?.tables ?? {});
  for (const name of tables) {
    if (!known.includes(name)) {
      throw invalidTables(`tables names ${JSON.stringify(name.slice(0, 80))}, which is not a table of the ${domain?.name ?? 'unnamed'} domain`, `its tables are ${known.join(', ')}`);
    }
  }
  const cacheKey = [...tables].sort().join(',');
  let cache = restricted.get(domain);
  if (!cache) restricted.set(domain, (cache = new Map()));
  const hit = cache.get(cacheKey);
  if (hit) return hit;

  const kept = new Set(tables);
  const removed = known.filter((name) => !kept.has(name)).map((name) => ({ name, ref: domain.tables[name].ref ?? null }));
  const removedNames = new Set(removed.map((table) => table.name));
  const out = { ...structuredClone({ ...domain, tables: undefined, prompt_examples: undefined }), tables: {} };
  delete out.prompt_examples;
  for (const name of known) {
    if (kept.has(name)) out.tables[name] = restrictTable(domain, name, domain.tables[name], kept, removedNames);
  }
  // A function that takes or returns rows of a table left out is left out
  // too: its description and arguments would name that table, and the model
  // could not give refs of its rows anyway.
  if (domain.functions && typeof domain.functions === 'object') {
    const leftOut = (table) => typeof table === 'string' && table !== USERS && !kept.has(table);
    const reaches = (fn) =>
      leftOut(fn?.returns?.table) || leftOut(fn?.returns?.references) || Object.values(fn?.args ?? {}).some((arg) => leftOut(arg?.references));
    out.functions = Object.fromEntries(Object.entries(domain.functions).filter(([, fn]) => !reaches(fn)).map(([name, fn]) => [name, structuredClone(fn)]));
    if (Object.keys(out.functions).length === 0) delete out.functions;
  }
  // The domain's own example texts that name a table left out give way to
  // examples derived from the tables kept.
  if (domain.prompt_examples && typeof domain.prompt_examples === 'object') {
    const examples = Object.fromEntries(Object.entries(domain.prompt_examples).filter(([, text]) => !mentions(String(text), removed)));
    if (Object.keys(examples).length) out.prompt_examples = examples;
  }
  if (cache.size >= MAX_PER_DOMAIN) cache.delete(cache.keys().next().value);
  cache.set(cacheKey, out);
  return out;
}

/**
 * A registry state (`registry.toJSON()` or its JSON text) with the refs of
 * tables `domain` does not have left out: an act restricted with `tables`
 * can restore the state of an act that saw more, without its refs of the
 * other tables (which it could not use). Anything that is not such a state
 * is returned as it is, for the core to judge.
 *
 * @example
 * stateForDomain(savedState, restrictDomain(kitchen, ['inventory'])).refs // only inv_ refs
 */
export function stateForDomain(state, domain) {
  // Other users' refs stay when this domain names users the same way (docs/keys-and-owners.md, Other users).
  const users = usersRefs(domain);
  return stateKeeping(state, (entry) => Object.hasOwn(domain.tables, entry.table) || (entry.table === USERS && namesUsersAs(entry, users)));
}
