// domains/crm/domain.json against an expectation derived here from the CRM's
// SQL (domains/crm/migrations/002_crm.sql) by the rules docs/own-schema.md
// states, not by the pull: columns, types, enum values, keys, the owner,
// required/nullable/read-only, references, relations and hidden columns come
// from a small reading of the CREATE statements; the naming choices (ref
// prefixes, labels, loose matching) are written out by hand with the rule that
// gives each. crm.test.mjs checks that `alfred-act domain pull` against the
// CRM stack writes exactly the committed file, so the pull is held to this
// expectation too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './support/paths.mjs';

const SQL = readFileSync(join(ROOT, 'domains/crm/migrations/002_crm.sql'), 'utf8').replace(/--.*$/gm, '');
const COMMITTED = JSON.parse(readFileSync(join(ROOT, 'domains/crm/domain.json'), 'utf8'));

// ---- reading the CREATE statements ----------------------------------------

const enums = Object.fromEntries(
  [...SQL.matchAll(/create type public\.(\w+) as enum \(([^)]*)\)/g)].map(([, name, list]) => [name, [...list.matchAll(/'([^']*)'/g)].map((value) => value[1])]),
);

// Splits at commas outside parentheses.
function topLevel(text) {
  const parts = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')') depth--;
    else if (text[i] === ',' && depth === 0) {
      parts.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(text.slice(start).trim());
  return parts.filter(Boolean);
}

function readColumn(definition) {
  const [, name, rest] = /^(\w+)\s+(.*)$/s.exec(definition);
  const type = /^((?:public\.|extensions\.)?\w+(?:\s+\w+)?(?:\([^)]*\))?(?:\[\])?)/.exec(rest.replace(/\s+(not null|default|references|primary key|check|generated).*$/s, ''))[1].trim();
  return {
    name,
    type,
    notNull: /\bnot null\b/.test(rest) || /\bprimary key\b/.test(rest),
    primaryKey: /\bprimary key\b/.test(rest),
    identity: /\bgenerated always as identity\b/.test(rest),
    default: /\bdefault\s+(.+?)(?:\s+(?:not null|references|check|primary key)\b|$)/s.exec(rest)?.[1].trim() ?? null,
    references: /\breferences\s+(?:public\.)?([\w.]+)\s*\(/.exec(rest)?.[1] ?? null,
  };
}

const tables = Object.fromEntries(
  [...SQL.matchAll(/create table public\.(\w+) \(([\s\S]*?)\n\);/g)].map(([, name, body]) => [name, topLevel(body).map(readColumn)]),
);

const view = /create view public\.(\w+)[^\n]* as\s+select ([\s\S]*?)\s+from public\.(\w+)/.exec(SQL);

// ---- the rules of docs/own-schema.md ---------------------------------------

const NAME_LIKE = ['name', 'title', 'label', 'display_name', 'full_name', 'subject', 'summary', 'username', 'handle', 'slug'];

// "types": the domain's type and, for enums, their values; null for a type the model cannot use (hidden).
function domainType(sqlType) {
  const array = sqlType.endsWith('[]');
  const base = sqlType.replace(/\[\]$/, '').replace(/^public\./, '');
  if (enums[base]) return { type: array ? 'text[]' : 'text', values: enums[base] };
  if (/^extensions\.vector/.test(base)) return null;
  const scalar = { uuid: 'uuid', text: 'text', integer: 'integer', smallint: 'integer', bigint: 'integer', boolean: 'boolean', date: 'date', timestamptz: 'timestamp', jsonb: 'jsonb', tsvector: 'tsvector' }[base.replace(/\(.*$/, '')] ?? (base.startsWith('numeric') ? 'numeric' : undefined);
  assert.ok(scalar, `a rule for the SQL type ${sqlType}`);
  return { type: array ? `${scalar}[]` : scalar };
}

function deriveTable(name, columns, naming) {
  const owner = columns.find((column) => column.type === 'uuid' && column.default === 'auth.uid()')?.name;
  const key = columns.find((column) => column.primaryKey);
  const table = { ref: naming.ref, ...(owner ? { owner } : {}), label: naming.label, ...(naming.labelFormat ? { label_format: naming.labelFormat } : {}) };
  const hidden = [];
  const out = {};
  for (const column of columns) {
    const mapped = domainType(column.type);
    if (!mapped) {
      hidden.push(column.name);
      continue;
    }
    const spec = { type: mapped.type };
    const assigned = column === key && (column.identity || column.default !== null || column.type === 'uuid');
    const isArrayOrJson = mapped.type.endsWith('[]') || mapped.type === 'jsonb';
    const required = column.notNull && column.default === null && !isArrayOrJson && !assigned && column.name !== owner;
    const readOnly = assigned || column.name === owner || (['created_at', 'updated_at', 'inserted_at', 'modified_at'].includes(column.name) && column.default !== null);
    if (readOnly) spec.writable = false;
    if (required) spec.required = true;
    else if (column.notNull) spec.nullable = false;
    if (column.references && column.references !== 'auth.users' && tables[column.references]) spec.references = column.references;
    if (mapped.values) spec.values = mapped.values;
    out[column.name] = spec;
  }
  if (hidden.length) table.hidden = hidden;
  // "relations": a child's required reference, its only one to this parent.
  const children = Object.entries(tables).filter(([, childColumns]) => {
    const links = childColumns.filter((column) => column.references === name);
    return links.length === 1 && links[0].notNull;
  });
  if (children.length) table.relations = Object.fromEntries(children.map(([child]) => [child, child]));
  const label = naming.label[0];
  if (NAME_LIKE.includes(label) && !out[label].values) table.middleware = { fuzzy: [label] };
  table.columns = out;
  return table;
}

// The naming choices, by the rules of "Names, labels, matching".
const NAMING = {
  // a_b: the first word's first syllable; label: `summary`, a name-like column.
  activity_log: { ref: 'act', label: ['summary'] },
  // singular of a name of at most 7 letters; first_name + last_name.
  contacts: { ref: 'contact', label: ['first_name'], labelFormat: '{first_name} {last_name}' },
  deals: { ref: 'deal', label: ['title'] },
  // more than 7 letters: the first syllable.
  organizations: { ref: 'org', label: ['name'] },
  tasks: { ref: 'task', label: ['title'] },
  // a_b: the first word.
  open_deals: { ref: 'open', label: ['title'] },
};

function deriveDomain() {
  const domain = { name: 'crm', tables: {} };
  for (const [name, columns] of Object.entries(tables)) domain.tables[name] = deriveTable(name, columns, NAMING[name]);
  // The view: no key PostgREST infers and no owner, read-only; its columns
  // typed as the base table's, with no requiredness; references as the base
  // table's foreign keys, the view's id and owner_id named by the overrides.
  const [, viewName, selectList, base] = view;
  const baseTable = domain.tables[base];
  const columns = {};
  for (const column of topLevel(selectList)) {
    const { type, values, references } = baseTable.columns[column];
    columns[column] = { type, ...(references ? { references } : {}), ...(values ? { values } : {}) };
  }
  columns.id.references = base;
  columns.owner_id.references = 'auth.users';
  domain.tables[viewName] = { ref: NAMING[viewName].ref, key: [], writable: false, label: NAMING[viewName].label, middleware: { fuzzy: NAMING[viewName].label }, columns };
  domain.tables = Object.fromEntries(Object.entries(domain.tables).sort(([a], [b]) => a.localeCompare(b)));
  return domain;
}

test('the SQL reading finds what the migration declares', () => {
  assert.deepEqual(Object.keys(tables), ['organizations', 'contacts', 'deals', 'tasks', 'activity_log']);
  assert.deepEqual(Object.keys(enums), ['deal_stage', 'task_status', 'contact_channel']);
  assert.deepEqual(tables.deals.find((column) => column.name === 'organization_id'), {
    name: 'organization_id', type: 'uuid', notNull: true, primaryKey: false, identity: false, default: null, references: 'organizations',
  });
  assert.deepEqual(tables.activity_log[0], { name: 'id', type: 'bigint', notNull: true, primaryKey: true, identity: true, default: null, references: null });
  assert.equal(view[1], 'open_deals');
});

test('domains/crm/domain.json is what the rules give for the CRM migration', () => {
  const derived = deriveDomain();
  assert.deepEqual(COMMITTED, derived);
  // Tables sorted by name, columns in the order the SQL declares them.
  assert.deepEqual(Object.keys(COMMITTED.tables), Object.keys(derived.tables));
  for (const [name, table] of Object.entries(derived.tables)) assert.deepEqual(Object.keys(COMMITTED.tables[name].columns), Object.keys(table.columns), name);
});
