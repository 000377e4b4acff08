// The columns a new row cannot leave empty because the row-level security
// policies a create must pass need them: a team app's `team_id IN (select
// my_teams())` on a column the table declares nullable. A NULL there never
// passes, so a create without it is refused as another user's row would be;
// the pull makes such a column required (docs/own-schema.md, "Columns",
// required by the policies).
import { plainPolicy } from './catalog.js';
import { appliesToUsers, createCheck } from './owners.js';

const IDENT = '[A-Za-z_][A-Za-z0-9_$]*';
const escaped = (name) => name.replace(/\$/g, '\\$');

// Whether `text` is one parenthesized group from its first character to its last.
function wrapped(text) {
  if (!text.startsWith('(') || !text.endsWith(')')) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0 && i < text.length - 1) return false;
  }
  return true;
}

const unwrap = (text) => {
  let inner = text.trim();
  while (wrapped(inner)) inner = inner.slice(1, -1).trim();
  return inner;
};

/**
 * The parts of a policy expression joined by AND at its top level (string
 * literals emptied, casts and outer parentheses dropped), or null when
 * something is ORed there: then no part alone must hold.
 *
 * @example
 * conjunctsOf('((team_id IN ( SELECT my_teams() AS my_teams)) AND (name <> \'\'::text))') // ['team_id IN ( SELECT my_teams() AS my_teams)', "name <> ''"]
 */
export function conjunctsOf(expression) {
  const text = unwrap(plainPolicy(expression.replace(/'(?:[^']|'')*'/g, "''")));
  const parts = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')') depth--;
    else if (depth === 0 && /\s/.test(text[i])) {
      const word = /^(AND|OR)\s/i.exec(text.slice(i + 1, i + 5));
      if (word?.[1].toUpperCase() === 'OR') return null;
      if (word) {
        parts.push(text.slice(start, i));
        start = i + 4;
      }
    }
  }
  parts.push(text.slice(start));
  return parts.map(unwrap);
}

// Whether one part of a policy's AND is false or unknown when `column` of
// `table` is NULL: the column compared by `=` or `IN (…)` with something
// other than the user's id (that is the owner column, the act's to set), the
// column said to be NOT NULL, or an EXISTS whose sub-query's WHERE compares
// the column by `=` (and nothing in it lets a NULL through).
function rejectsNull(part, table, column) {
  const name = `(?:${escaped(table)}\\.)?${escaped(column)}`;
  const left = new RegExp(`^${name}\\s*(?:=|IN\\s*\\()(?!\\s*auth\\.uid\\(\\))|^${name}\\s+IS\\s+NOT\\s+NULL$`, 'i');
  const right = new RegExp(`(?<!auth\\.uid\\(\\)\\s*)=\\s*${name}$`, 'i');
  if (left.test(part) || right.test(part)) return true;
  // An EXISTS counts only where nothing in it lets a NULL through: no OR,
  // NOT, CASE, COALESCE, IS TRUE/FALSE/NULL or outer join, and the
  // comparison in its WHERE.
  if (!/^EXISTS\s*\(/i.test(part) || /\b(?:OR|NOT|CASE|COALESCE|IS|LEFT|RIGHT|FULL)\b/i.test(part)) return false;
  const where = /\bWHERE\b([\s\S]*)$/i.exec(part)?.[1] ?? '';
  const qualified = `${escaped(table)}\\.${escaped(column)}`;
  return new RegExp(`(?<![\\w$.])${qualified}\\s*=|=\\s*${qualified}(?![\\w$.(])`, 'i').test(where);
}

/**
 * The policy a new row's `column` must not be NULL for, as pg_policies shows
 * its check, or null: every permissive INSERT or ALL policy a signed-in
 * user's create is held to (there is one at least) needs it in a part of its
 * AND, or a restrictive one does.
 *
 * @example
 * policyNeeds({ name: 'projects', catalog: { rls: true, policies: [{ command: 'ALL', permissive: true, roles: ['authenticated'],
 *   using: '(team_id IN ( SELECT my_teams() AS my_teams))', check: null }] } }, 'team_id') // '(team_id IN ( SELECT my_teams() AS my_teams))'
 */
export function policyNeeds(table, column) {
  const facts = table.catalog;
  if (!facts?.rls || table.isView || !new RegExp(`^${IDENT}$`).test(column)) return null;
  const creates = facts.policies.filter((p) => (p.command === 'INSERT' || p.command === 'ALL') && appliesToUsers(p));
  const needs = (policy) => {
    const check = createCheck(policy);
    const parts = typeof check === 'string' ? conjunctsOf(check) : null;
    return parts !== null && parts.some((part) => rejectsNull(part, table.name, column));
  };
  const restrictive = creates.find((p) => !p.permissive && needs(p));
  if (restrictive) return createCheck(restrictive);
  const permissive = creates.filter((p) => p.permissive);
  return permissive.length > 0 && permissive.every(needs) ? createCheck(permissive[0]) : null;
}
