// Whose refs other users' ids are, decided as the core decides it
// (docs/keys-and-owners.md, Other users): the one table of the domain keyed
// by user ids (a profile), else a table of the core's own, `auth.users`,
// whose refs are `user_…` (`userx_…` beside a table whose refs are `user_…`).
import { NAME_RULES } from '../../dist/core-rules.mjs';

const keyOf = (table) => (table.key === undefined ? ['id'] : Array.isArray(table.key) ? table.key : [table.key]);
const ownerOf = (domain, table) => table.owner ?? (table.user_owned ? (domain.owner_column ?? 'user_id') : null);

// A one-column uuid key that references auth.users or is the table's owner.
function keyedByUsers(domain, table) {
  const key = keyOf(table);
  const column = key.length === 1 ? table.columns?.[key[0]] : undefined;
  return column?.type === 'uuid' && (column.references === NAME_RULES.usersReference || ownerOf(domain, table) === key[0]);
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
  return { table: NAME_RULES.usersReference, prefix };
}
