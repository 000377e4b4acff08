// Whose refs other users' ids are, decided as the core decides it
// (docs/keys-and-owners.md, Other users): the one table of the domain keyed
// by user ids (a profile), else a table of the core's own, `auth.users`,
// whose refs are `user_…` (`userx_…` beside a table whose refs are `user_…`).
import { NAME_RULES } from '../../dist/core-rules.mjs';

const USERS = NAME_RULES.usersReference;
// As parse_domain reads them: `key` null is none, `user_owned` counts only as true, an empty `owner_column` is the default.
const keyOf = (table) => (table.key === undefined ? ['id'] : table.key === null ? [] : Array.isArray(table.key) ? table.key : [table.key]);
const domainOwner = (domain) => (typeof domain.owner_column === 'string' && domain.owner_column !== '' ? domain.owner_column : 'user_id');
const ownerOf = (domain, table) => table.owner ?? (table.user_owned === true ? domainOwner(domain) : null);

/** Whether `table`'s rows are keyed by user ids: a one-column uuid key that references auth.users or is the table's owner. */
export function keyedByUsers(domain, table) {
  const key = keyOf(table);
  const column = key.length === 1 ? table.columns?.[key[0]] : undefined;
  return column?.type === 'uuid' && (column.references === USERS || ownerOf(domain, table) === key[0]);
}

/**
 * `{ table, prefix }`: the table other users' refs belong to and their prefix.
 *
 * @example
 * usersRefs({ tables: { notes: { ref: 'note', … } } }) // { table: 'auth.users', prefix: 'user' }
 */
export function usersRefs(domain) {
  const tables = Object.entries(domain?.tables ?? {}).filter(([, table]) => table && typeof table === 'object');
  const keyed = tables.filter(([, table]) => keyedByUsers(domain, table));
  if (keyed.length === 1) return { table: keyed[0][0], prefix: keyed[0][1].ref };
  const taken = new Set(tables.map(([, table]) => table.ref));
  let prefix = 'user';
  while (taken.has(prefix)) prefix += 'x';
  return { table: USERS, prefix };
}

/**
 * Whether a saved ref entry of other users' (`auth.users`) names them as
 * `users` (usersRefs) does: one saved where users were named another way (an
 * act restricted with `tables`, a domain with a profile table) is left out of
 * a restored state, as a restricted act leaves out refs of tables it lacks.
 */
export function namesUsersAs(entry, users) {
  return users.table === USERS && typeof entry.ref === 'string' && entry.ref.startsWith(`${users.prefix}_`) && /^\d+$/.test(entry.ref.slice(users.prefix.length + 1));
}

/**
 * A registry state (an object or its JSON text) with only the ref entries
 * `keep` takes (entries that are not objects with a table name stay, for
 * the core to judge); `state` itself when every entry stays or it is no such
 * state. The one filter of restored states: here, and an act restricted with
 * `tables` (policy/tables.js).
 */
export function stateKeeping(state, keep) {
  let value = state;
  if (typeof state === 'string') {
    try {
      value = JSON.parse(state);
    } catch {
      return state;
    }
  }
  if (!value || typeof value !== 'object' || !Array.isArray(value.refs)) return state;
  const refs = value.refs.filter((entry) => !entry || typeof entry !== 'object' || typeof entry.table !== 'string' || keep(entry));
  return refs.length === value.refs.length ? state : { ...value, refs };
}

/**
 * `state` (an object or its JSON text) without the other users' refs that
 * `domain` names another way; `state` itself when there are none.
 */
export function withUsableUserRefs(state, domain) {
  if (typeof state === 'string' && !state.includes(`"${USERS}"`)) return state;
  const users = usersRefs(domain);
  return stateKeeping(state, (entry) => entry.table !== USERS || namesUsersAs(entry, users));
}
