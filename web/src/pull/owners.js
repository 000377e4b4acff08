// Who owns a table's rows and whether the model may write it, decided per
// table from the facts (description.js, catalog.js). The order of the
// evidence, strongest first, is in docs/own-schema.md.
import { policyUserColumns } from './catalog.js';
import { defaultsToUserId } from './description.js';

const isPlainObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Column names that conventionally hold the id of the user a row belongs to. */
export const OWNER_NAMES = ['user_id', 'owner_id', 'created_by', 'author_id', 'profile_id', 'creator_id'];
const WRITE_COMMANDS = new Set(['ALL', 'INSERT', 'UPDATE', 'DELETE']);

const list = (names) => names.join(', ');
// A policy the requests of `role` are held to: one for it, for public, or for no role named.
const appliesTo = (role) => (policy) => policy.roles.length === 0 || policy.roles.some((name) => name === role || name === 'public');
// A policy a signed-in user's requests are held to.
export const appliesToUsers = appliesTo('authenticated');
/** The check a policy holds a new row to: its WITH CHECK, or an ALL policy's USING; null for none. */
export const createCheck = (policy) => policy.check ?? (policy.command === 'ALL' ? policy.using : null);
// A policy condition only a signed-in user passes, as pg_policies writes it:
// `(auth.role() = 'authenticated'::text)` (Supabase's older templates, its
// slack clone), `(auth.uid() IS NOT NULL)`, either in a sub-select, and
// nothing ORed with it.
const SIGNED_IN_CONDITION = /auth\.role\(\)(?: AS role\))?\s*=\s*'authenticated'|auth\.uid\(\)(?: AS uid\))?\s+IS NOT NULL/i;
const onlySignedIn = (expression) => typeof expression === 'string' && SIGNED_IN_CONDITION.test(expression) && !/\bOR\b/i.test(expression);
// Whether a policy has the expression `command` is held to: PostgreSQL
// passes no row through one without it (Quivr's `for all to public` with
// neither USING nor WITH CHECK lets nothing through). Facts that give
// neither member do not say, and count as having one.
const holdsExpression = (policy, command) =>
  (!('using' in policy) && !('check' in policy)) || (command === 'INSERT' ? createCheck(policy) : policy.using) != null;
// Whether row-level security lets `role` read rows: off, or a permissive
// SELECT or ALL policy for it with a USING (for anon, one not only for
// signed-in users).
const rlsLetsRead = (facts, role) =>
  !facts.rls ||
  facts.policies.some((p) => p.permissive && (p.command === 'SELECT' || p.command === 'ALL') && appliesTo(role)(p) && holdsExpression(p, 'SELECT') && !(role === 'anon' && onlySignedIn(p.using)));

// The uuid columns of `table` the policies compare with auth.uid(): those of
// the policies a create must pass (INSERT, ALL) when they name any, else of
// all of them. `others` are compared columns of another type.
function policyCandidates(table) {
  const policies = (table.catalog?.policies ?? []).filter(appliesToUsers);
  const byName = new Map(table.columns.map((column) => [column.name, column]));
  const compared = (expressions) => {
    const names = new Set(expressions.flatMap((expression) => policyUserColumns(expression, table.name)).filter((name) => byName.has(name)));
    return [...names];
  };
  const creates = policies.filter((p) => p.command === 'INSERT' || p.command === 'ALL');
  const creating = compared(creates.map(createCheck));
  const names = creating.length > 0 ? creating : compared(policies.flatMap((p) => [p.using, p.check]));
  const uuid = names.filter((name) => byName.get(name).type === 'uuid');
  const others = names.filter((name) => byName.get(name).type !== 'uuid');
  // Compared only where rows are read (SELECT), while policies a create must
  // pass exist and compare none: a user adds rows for others (shares a
  // document with them). A column an UPDATE or DELETE policy compares stays
  // the owner (Studio's "insert for authenticated users" beside "update own").
  const changing = compared(policies.filter((p) => p.command === 'UPDATE' || p.command === 'DELETE').flatMap((p) => [p.using, p.check]));
  if (creating.length === 0 && creates.length > 0 && changing.length === 0) return { uuid: [], others: [], readsOnly: uuid };
  return { uuid, others, readsOnly: [] };
}

const ambiguous = (candidates, evidence) => ({ owner: null, candidates, evidence });

/**
 * The owner evidence of one table that needs no other table: the policies,
 * a uuid column defaulting to auth.uid(), a uuid key referencing auth.users.
 * `{ owner, evidence }`, `{ owner: null, candidates, evidence }` when
 * several columns fit, or null when nothing says.
 */
export function ownerFromTable(table, key) {
  const { uuid, others, readsOnly } = policyCandidates(table);
  if (uuid.length === 1) return { owner: uuid[0], evidence: 'policy' };
  if (uuid.length > 1) return ambiguous(uuid, 'are compared with auth.uid() in its row-level security policies');
  const defaults = table.columns.filter((c) => c.type === 'uuid' && defaultsToUserId(c)).map((c) => c.name);
  if (defaults.length === 1) return { owner: defaults[0], evidence: 'default' };
  if (defaults.length > 1) return ambiguous(defaults, 'default to auth.uid()');
  const keyColumn = key.length === 1 ? table.columns.find((c) => c.name === key[0]) : null;
  if (keyColumn?.type === 'uuid' && keyColumn.usersReference) return { owner: keyColumn.name, evidence: 'key' };
  if (readsOnly.length > 0) return { owner: null, candidates: [], evidence: 'reads-only', named: readsOnly };
  if (others.length > 0) return { owner: null, candidates: [], evidence: 'other-type', others };
  return null;
}

/**
 * The conventional-name evidence (`user_id`, `owner_id`, `created_by`, …),
 * which needs to know the tables keyed by user ids: a uuid column of such a
 * name that references auth.users or one of `usersTables`, or, without the
 * catalog, a NOT NULL one with no described foreign key (which is how a
 * reference to auth.users looks to PostgREST).
 */
export function ownerFromName(table, usersTables) {
  const named = table.columns.filter(
    (c) =>
      OWNER_NAMES.includes(c.name) &&
      c.type === 'uuid' &&
      (c.usersReference || usersTables.has(c.references?.table) || (!table.catalog && c.notNull && !c.references)),
  );
  // Policies that decide whose each row is without naming the column (the
  // user a document is shared with, beside the document's owner) say it is not the owner.
  const policies = table.catalog?.rls ? table.catalog.policies.filter(appliesToUsers) : [];
  const fits = policies.length === 0 ? named : named.filter((c) => policies.some((p) => namesColumn(p.using, table.name, c.name) || namesColumn(p.check, table.name, c.name)));
  if (fits.length === 0 && named.length > 0) return { owner: null, candidates: [], evidence: 'name-unpoliced', named: named.map((c) => c.name) };
  if (fits.length === 1) return { owner: fits[0].name, evidence: table.catalog || fits[0].usersReference || fits[0].references ? 'name' : 'name-guess' };
  if (fits.length > 1) return ambiguous(fits.map((c) => c.name), 'are named like an owner column and hold user ids');
  return null;
}

// Whether a policy expression (as pg_policies shows it) names `column` of
// `table`: bare, or qualified by the table's name; another table's column of
// that name (`documents.user_id` in a sub-query) is not it.
function namesColumn(expression, table, column) {
  if (typeof expression !== 'string') return false;
  // A string literal ('user_id' in auth.jwt() ->> 'user_id') names no column.
  const text = expression.replace(/'(?:[^']|'')*'/g, "''").replace(/"([a-z_][a-z0-9_$]*)"/g, '$1');
  return new RegExp(`(?<![\\w$.])(?:${table}\\.)?${column}(?![\\w$])`).test(text);
}

/** The note on a table whose owner the pull could not decide, or took on weak evidence. */
export function ownerNote(table, decision, hasCatalog) {
  const path = `tables.${table.name}.owner`;
  if (decision?.evidence === 'reads-only') {
    return {
      path,
      message: `no owner: ${list(decision.named)} ${decision.named.length === 1 ? 'is' : 'are'} compared with auth.uid() in the policies that read rows but not in those a create must pass, so users add rows for others (share with them); say "owner": "${decision.named[0]}" in the overrides if each row is the user's who made it`,
    };
  }
  if (decision?.evidence === 'name-unpoliced') {
    const names = list(decision.named);
    return {
      path,
      message: `no owner: ${names} ${decision.named.length === 1 ? 'holds user ids and is named like an owner column, but no row-level security policy of the table names it' : 'hold user ids and are named like owner columns, but no row-level security policy of the table names them'}, so the policies decide whose each row is some other way (a user a row is shared with is no owner); say "owner": "${decision.named[0]}" in the overrides if it is`,
    };
  }
  if (decision?.evidence === 'name-guess') {
    return {
      path,
      message: `${decision.owner}: taken for the owner column, a NOT NULL uuid column with no described foreign key (PostgREST does not describe references to auth.users); pull with the catalog (--db-url, or the catalog option of pullDomain) to be sure, or say "owner": null in the overrides if it is not`,
    };
  }
  if (decision?.evidence === 'other-type') {
    return { path, message: `no owner: ${list(decision.others)} ${decision.others.length === 1 ? 'is' : 'are'} compared with auth.uid() but not uuid; an owner column is uuid` };
  }
  if (decision?.candidates?.length > 0) {
    return {
      path,
      message: `no owner: ${list(decision.candidates)} ${decision.evidence}; say which in the overrides ("owner": "${decision.candidates[0]}", or "owner": null)`,
    };
  }
  if (!decision && !table.isView) {
    const keyColumn = table.keys.length === 1 ? table.keys[0] : null;
    if (!hasCatalog && keyColumn?.type === 'uuid' && !keyColumn.hasDefault) {
      return {
        path,
        message: `no owner found; its uuid key ${keyColumn.name} has no default: if it references auth.users (a profiles table), say "owner": "${keyColumn.name}" in the overrides, or pull with the catalog (--db-url, or the catalog option of pullDomain)`,
      };
    }
  }
  return null;
}

// The writes of a domain table (its "writable" list), with the privilege
// and the policy command that allow each.
const WRITES = [
  { write: 'create', privilege: 'insert', command: 'INSERT' },
  { write: 'update', privilege: 'update', command: 'UPDATE' },
  { write: 'delete', privilege: 'delete', command: 'DELETE' },
];

const verbs = (writes) => writes.map(({ privilege }) => privilege).join(writes.length === 3 ? ', ' : ' or ').replace(/, (?=[^,]*$)/, ' or ');

/**
 * Which writes the model may make on the table, with the note that says
 * why not: `{ writable, readable, note }`, where `writable` is true, false,
 * or the list of the writes it takes (`["update"]`; a table without a key has
 * its note from keyOf), and `readable` is false for a write-only table.
 * Without the catalog: every write on a table with an owner. With it: each
 * write the `authenticated` role is granted, under a row-level security
 * policy for that command (or ALL) that applies to signed-in users (with
 * row-level security off, all granted ones on a table with an owner); on a
 * table they may not read, creates alone (write-only) where they may insert.
 */
export function writableOf(table, key, owner, people = []) {
  const derived = derivedWrites(table, key, owner);
  const open = derived.writable !== false && derived.readable !== false ? openCreates(table, owner, people) : null;
  if (!open) return derived;
  const writes = (derived.writable === true ? WRITES.map(({ write }) => write) : derived.writable).filter((write) => write !== 'create');
  return { writable: writes.length > 0 ? writes : false, note: { path: `tables.${table.name}.writable`, message: open } };
}

// Why creates are left out of a table whose rows name users, though its
// policies let them in: a permissive create policy whose check names no
// column of the row (WITH CHECK (true), auth.uid() IS NOT NULL), and no owner
// column the act sets. A model could then add any user, the signed-in one
// too, to a team or a row of others (a membership table such as Midday's
// users_on_team). Null otherwise.
function openCreates(table, owner, people) {
  if (owner || people.length === 0 || !table.catalog?.rls) return null;
  const creates = table.catalog.policies.filter((p) => (p.command === 'INSERT' || p.command === 'ALL') && appliesToUsers(p));
  const check = (p) => createCheck(p) ?? '';
  // A check that names no column of the row (true, auth.uid() IS NOT NULL,
  // an MFA level) lets any row in; a restrictive one that names one may not.
  const namesRow = (p) => table.columns.some((c) => namesColumn(check(p), table.name, c.name));
  if (creates.some((p) => !p.permissive && namesRow(p)) || !creates.some((p) => p.permissive && !namesRow(p))) return null;
  return `no creates: a row-level security policy lets any signed-in user add any row (its check names no column of the row), and its rows name users (${list(people)}), so a create could add anyone, the user too, to rows of others; a function of the app may make its rows ("writable" in the overrides wins)`;
}

function derivedWrites(table, key, owner) {
  const path = `tables.${table.name}`;
  const readOnly = (message) => ({ writable: false, note: { path: `${path}.writable`, message: `read-only: ${message}` } });
  const { granted, allowed } = allowedWrites(table);
  // An update or a delete reads the rows its filters select, and every
  // write but a create sent without reading its rows back (return=minimal)
  // reads them back: PostgreSQL holds both to the SELECT grant and policies.
  // Such a create needs no key either.
  const unreadable = unreadableBecause(table);
  if (unreadable && allowsCreates(allowed)) {
    const message = `write-only: ${unreadable}, so users may only add rows to it, which are not read back (no refs); "readable" and "writable" in the overrides win`;
    return { writable: ['create'], readable: false, note: { path: `${path}.readable`, message } };
  }
  if (key.length === 0) return { writable: false, note: null };
  if (table.isView) return readOnly('a view; say "writable": true in the overrides if it is updatable');
  const facts = table.catalog;
  if (!facts) {
    if (owner) return { writable: true, note: null };
    return readOnly('no owner column found, so its rows are taken for data every user shares; name the owner in the overrides ("owner": "<column>") if they belong to users, or say "writable": true');
  }
  if (granted.length === 0) return readOnly('the authenticated role may not insert, update or delete it');
  if (unreadable) return readOnly(`${unreadable}, and every write reads back the rows it changed`);
  if (!facts.rls && !owner) {
    return readOnly('row-level security is off and no owner column says whose each row is, so nothing would keep a write to the rows of the user who made it; enable row-level security with policies, or name the owner in the overrides ("owner": "<column>")');
  }
  if (allowed.length === 0) return readOnly('no row-level security policy lets a signed-in user insert, update or delete its rows');
  if (allowed.length === WRITES.length) return { writable: true, note: null };
  const reasons = [];
  const ungranted = WRITES.filter((w) => !granted.includes(w));
  const unpolicied = granted.filter((w) => !allowed.includes(w));
  if (ungranted.length) reasons.push(`the authenticated role may not ${verbs(ungranted)} it`);
  if (unpolicied.length) reasons.push(`no row-level security policy lets a signed-in user ${verbs(unpolicied)} its rows`);
  const writes = allowed.map(({ write }) => write);
  return {
    writable: writes,
    note: { path: `${path}.writable`, message: `${writes.join(' and ')} only: ${reasons.join(', and ')} (a function of the app may; "writable" in the overrides wins)` },
  };
}

/**
 * The writes the catalog grants the `authenticated` role on the table
 * (`granted`), and those of them a permissive row-level security policy for
 * that command (or ALL) lets signed-in users make (`allowed`; every granted
 * one with row-level security off). Both every write without the catalog.
 */
export function allowedWrites(table) {
  const facts = table.catalog;
  const granted = facts?.privileges ? WRITES.filter(({ privilege }) => facts.privileges[privilege]) : WRITES;
  if (!facts?.rls) return { granted, allowed: granted };
  const policies = facts.policies.filter((p) => p.permissive && WRITE_COMMANDS.has(p.command) && appliesToUsers(p));
  return { granted, allowed: granted.filter(({ command }) => policies.some((p) => (p.command === command || p.command === 'ALL') && holdsExpression(p, command))) };
}

/** Whether a list of allowedWrites names creates. */
export const allowsCreates = (writes) => writes.some(({ write }) => write === 'create');

/**
 * Why signed-in users may read no row of the table, as the catalog says, or
 * null when they may (always without it, and for a view: its tables'
 * policies decide): no SELECT grant, or row-level security on with no
 * permissive SELECT or ALL policy that applies to them.
 */
export function unreadableBecause(table) {
  const facts = table.catalog;
  if (!facts || table.isView) return null;
  if (facts.privileges && !facts.privileges.select) return 'the authenticated role may not select from it';
  return rlsLetsRead(facts, 'authenticated') ? null : 'no row-level security policy lets a signed-in user read its rows';
}

/**
 * Whether only signed-in users may read the table, as the catalog says: the
 * anon role may not select from it, or row-level security is on and no
 * permissive SELECT or ALL policy applies to anon. False without the
 * catalog, without an anon role, and for a view (its tables decide).
 *
 * @example
 * signedInOnly({ catalog: { rls: true, privileges: { select: true, anonSelect: true }, policies: [{ command: 'SELECT', roles: ['authenticated'], permissive: true }] } }) // true
 */
export function signedInOnly(table) {
  const facts = table.catalog;
  if (!facts?.privileges || typeof facts.privileges.anonSelect !== 'boolean' || table.isView) return false;
  if (!facts.privileges.anonSelect) return true;
  return !rlsLetsRead(facts, 'anon');
}

/** The note on a table whose row-level security is off (the catalog says), given its writes. */
export function rlsNote(table, writable) {
  if (!table.catalog || table.catalog.rls || table.isView || unreadableBecause(table)) return null;
  const changes = writable === true || (Array.isArray(writable) && writable.some((write) => write !== 'create'));
  return {
    path: `tables.${table.name}`,
    message: `row-level security is off: every signed-in user reads every row${changes ? ' and may change any' : ''}; enable it and add policies`,
  };
}

// Each table's owner: the overrides' "owner" (or legacy "user_owned"), the
// option naming one column for every table that has it, then what the table
// itself says (policies, auth.uid() defaults, a key referencing auth.users),
// then tables that owner columns reference (keyed by user ids), then the
// conventional names. `decision` is null when nothing says.
export function decideOwners(plans, { globalOwner }) {
  for (const plan of plans.values()) {
    const { table, given } = plan;
    const uuidColumn = (name) => table.columns.some((c) => c.name === name && c.type === 'uuid');
    if (isPlainObject(given) && given.owner !== undefined) plan.decision = { owner: given.owner, evidence: 'override' };
    else if (isPlainObject(given) && typeof given.user_owned === 'boolean') plan.decision = { owner: given.user_owned ? (globalOwner ?? 'user_id') : null, evidence: 'override' };
    else if (globalOwner && uuidColumn(globalOwner)) plan.decision = { owner: globalOwner, evidence: 'option' };
    else plan.decision = ownerFromTable(table, plan.key);
  }
  const usersTables = new Set();
  const keyedByUsers = (plan) => plan.key.length === 1 && plan.decision?.owner === plan.key[0];
  for (const [name, plan] of plans) if (keyedByUsers(plan)) usersTables.add(name);
  // An owner column holds auth.uid(); a foreign key from it into a table's
  // uuid key makes that key a user id too (profiles.id).
  for (const plan of [...plans.values()]) {
    const owner = plan.decision?.owner;
    const reference = owner ? plan.table.columns.find((c) => c.name === owner)?.references : null;
    const target = reference ? plans.get(reference.table) : undefined;
    const targetKey = target?.key.length === 1 ? target.table.columns.find((c) => c.name === target.key[0]) : null;
    if (target && target !== plan && target.decision === null && targetKey?.type === 'uuid' && targetKey.name === reference.column) {
      target.decision = { owner: targetKey.name, evidence: 'referenced' };
      usersTables.add(target.table.name);
    }
  }
  for (const plan of plans.values()) if (plan.decision === null) plan.decision = ownerFromName(plan.table, usersTables);
  return usersTables;
}

// The table user ids (references to auth.users) point at: one keyed by user
// ids, preferably with a label (profiles), `profiles` or `users` by name.
export function usersTableOf(usersTables, plans) {
  const ranked = [...usersTables].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : 1));
  function rank(name) {
    const labelled = plans.get(name).table.columns.some((c) => c.type === 'text' && ['username', 'name', 'full_name', 'display_name', 'email', 'handle'].includes(c.name));
    // A table before a view of it (a view may show some users only).
    return (labelled ? 0 : 2) + (name === 'profiles' || name === 'users' ? 0 : 1) + (plans.get(name).table.isView ? 4 : 0);
  }
  return ranked[0] ?? null;
}

// The tables signed-in users may neither read nor add rows to (the catalog
// says; one the overrides name stays), each with why, but for those a table
// that stays references, directly or through others that stay (read-only:
// their refs are what the referencing rows hold). A table left out keeps
// none: Quivr's service-only brains_users does not keep brains.
export function closedTables(tables, named) {
  const closed = new Map();
  for (const table of tables) {
    const unreadable = named[table.name] === undefined ? unreadableBecause(table) : null;
    // One users may insert into stays, write-only (a feedback form's).
    if (unreadable && !allowsCreates(allowedWrites(table).allowed)) closed.set(table.name, unreadable);
  }
  const byName = new Map(tables.map((table) => [table.name, table]));
  const reached = tables.filter((table) => !closed.has(table.name));
  for (let at = 0; at < reached.length; at++) {
    for (const column of reached[at].columns) {
      const target = column.references?.table;
      if (target && closed.delete(target)) reached.push(byName.get(target));
    }
  }
  return closed;
}
