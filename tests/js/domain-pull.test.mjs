// A domain from PostgREST's OpenAPI description (web/src/domain-pull.js): the
// derivation rules on small hand-made descriptions shaped like PostgREST 12's,
// then the real kitchen stack, whose pulled domain plus
// domains/kitchen/overrides.json must be domains/kitchen/domain.json in
// everything the core reads. The CRM end to end is in crm.test.mjs.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { deriveDomain, formatDomain, refPrefixes } from '../../web/src/domain-pull.js';
import { domainFromOpenApi, loadCore, pullDomain } from '../../web/src/index.node.js';
import { ROOT } from './support/paths.mjs';
import { sharedStack } from './support/stack.mjs';

const core = await loadCore();

// Column descriptions as PostgREST 12 writes them.
const PK = { default: 'gen_random_uuid()', description: 'Note:\nThis is a Primary Key.<pk/>', format: 'uuid', type: 'string' };
const OWNER = { default: 'auth.uid()', format: 'uuid', type: 'string' };
const fk = (table, column = 'id') => ({
  description: `Note:\nThis is a Foreign Key to \`${table}.${column}\`.<fk table='${table}' column='${column}'/>`,
  format: 'uuid',
  type: 'string',
});
const TEXT = { format: 'text', type: 'string' };
const CREATED = { default: 'now()', format: 'timestamp with time zone', type: 'string' };
const definition = (properties, required = []) => ({ required, properties, type: 'object' });
const spec = (definitions) => ({ swagger: '2.0', info: { title: 'standard public schema', version: '12.0.2' }, paths: {}, definitions });

// A two-table schema most tests start from.
const NOTES = {
  projects: definition({ id: PK, owner_id: OWNER, name: TEXT, created_at: CREATED }, ['id', 'owner_id', 'name', 'created_at']),
  notes: definition(
    { id: PK, owner_id: OWNER, project_id: fk('projects'), body: TEXT, pinned: { default: false, format: 'boolean', type: 'boolean' } },
    ['id', 'owner_id', 'project_id', 'body', 'pinned'],
  ),
};

test('column formats map to the domain types; unsupported types are hidden with a note saying why', () => {
  const columns = {
    id: PK,
    owner_id: OWNER,
    title: TEXT,
    code: { format: 'character varying', type: 'string' },
    short: { format: 'character varying(12)', type: 'string' },
    n: { format: 'integer', type: 'integer' },
    small: { format: 'smallint', type: 'integer' },
    big: { format: 'bigint', type: 'integer' },
    price: { format: 'numeric', type: 'number' },
    ratio: { format: 'double precision', type: 'number' },
    done: { format: 'boolean', type: 'boolean' },
    due: { format: 'date', type: 'string' },
    at: { format: 'timestamp with time zone', type: 'string' },
    local_at: { format: 'timestamp without time zone', type: 'string' },
    tags: { format: 'text[]', items: { type: 'string' }, type: 'array' },
    doc: { format: 'jsonb' },
    raw: { format: 'json' },
    kind: { enum: ['a', 'b'], format: 'public.kind', type: 'string' },
    kinds: { format: 'public.kind[]', items: { type: 'string' }, type: 'array' },
    moods: { format: 'public.mood[]', items: { type: 'string' }, type: 'array' },
    embedding: { format: 'extensions.vector(1536)', type: 'string' },
    span: { format: 'interval', type: 'string' },
    counts: { format: 'integer[]', items: { type: 'integer' }, type: 'array' },
  };
  const { data, error, notes } = deriveDomain(spec({ things: definition(columns, ['id', 'owner_id']) }));
  assert.equal(error, null);
  const types = Object.fromEntries(Object.entries(data.tables.things.columns).map(([name, c]) => [name, c.values ? [c.type, c.values] : c.type]));
  assert.deepEqual(types, {
    id: 'uuid',
    owner_id: 'uuid',
    title: 'text',
    code: 'text',
    short: 'text',
    n: 'integer',
    small: 'integer',
    big: 'integer',
    price: 'numeric',
    ratio: 'numeric',
    done: 'boolean',
    due: 'date',
    at: 'timestamp',
    local_at: 'timestamp',
    tags: 'text[]',
    doc: 'jsonb',
    raw: 'jsonb',
    kind: ['text', ['a', 'b']],
    // PostgREST lists an enum's values only on scalar columns; an array of the same type borrows them.
    kinds: ['text[]', ['a', 'b']],
    moods: 'text[]',
  });
  assert.deepEqual(data.tables.things.hidden, ['embedding', 'span', 'counts']);
  assert.deepEqual(notes, [
    { path: 'tables.things.columns.embedding', message: "hidden: type 'extensions.vector(1536)' is not one the model can read or write (an embedding)" },
    { path: 'tables.things.columns.span', message: "hidden: type 'interval' is not one the model can read or write" },
    { path: 'tables.things.columns.counts', message: "hidden: type 'integer[]' is not one the model can read or write" },
    {
      path: 'tables.things.columns.moods',
      message: `'public.mood[]' is an array of a user-defined type whose values PostgREST does not list; add "values" in the overrides if it is an enum`,
    },
  ]);
  assert.equal(core.validateDomain(data).error, null);
});

test('required = NOT NULL without a default; id, the owner column and database timestamps are read-only', () => {
  const columns = {
    id: PK,
    owner_id: OWNER,
    name: TEXT,
    nickname: TEXT,
    status: { default: 'open', format: 'text', type: 'string' },
    // PostgREST leaves out '{}' defaults of arrays and jsonb: NOT NULL alone does not make them required.
    tags: { format: 'text[]', items: { type: 'string' }, type: 'array' },
    settings: { format: 'jsonb' },
    happened_at: { default: 'now()', format: 'timestamp with time zone', type: 'string' },
    created_at: CREATED,
    updated_at: CREATED,
  };
  const { data } = deriveDomain(spec({ people: definition(columns, ['id', 'owner_id', 'name', 'status', 'tags', 'settings', 'happened_at', 'created_at', 'updated_at']) }));
  assert.deepEqual(data.tables.people.columns, {
    id: { type: 'uuid', writable: false, nullable: false },
    owner_id: { type: 'uuid', writable: false, nullable: false },
    name: { type: 'text', required: true },
    nickname: { type: 'text' },
    status: { type: 'text', nullable: false },
    tags: { type: 'text[]', nullable: false },
    settings: { type: 'jsonb', nullable: false },
    happened_at: { type: 'timestamp', nullable: false },
    created_at: { type: 'timestamp', writable: false, nullable: false },
    updated_at: { type: 'timestamp', writable: false, nullable: false },
  });
});

test('the owner column: the one uuid column defaulting to auth.uid(), else the one NOT NULL uuid column without a foreign key (with a note), or the option; tables without it are read-only catalogs', () => {
  const withCatalog = { ...NOTES, colors: definition({ id: PK, name: TEXT }, ['id', 'name']) };
  const { data } = deriveDomain(spec(withCatalog));
  assert.equal(data.owner_column, 'owner_id');
  assert.deepEqual(
    Object.fromEntries(Object.entries(data.tables).map(([name, t]) => [name, [t.user_owned, t.writable]])),
    { colors: [false, false], notes: [true, true], projects: [true, true] },
  );
  // The option wins, also over the overrides' owner_column.
  const noDefault = spec({ items: definition({ id: PK, user_ref: { format: 'uuid', type: 'string' }, name: TEXT }, ['id', 'user_ref', 'name']) });
  assert.equal(deriveDomain(noDefault, {}, { ownerColumn: 'user_ref' }).data.owner_column, 'user_ref');
  assert.equal(deriveDomain(noDefault, { owner_column: 'user_ref' }).data.owner_column, 'user_ref');
  assert.deepEqual(deriveDomain(noDefault, {}, { ownerColumn: 'user_ref' }).data.tables.items.columns.user_ref, { type: 'uuid', writable: false, nullable: false });
  assert.deepEqual(deriveDomain(noDefault, {}, { ownerColumn: 'user_ref' }).notes, []);

  // No default: a reference to auth.users is a NOT NULL uuid column whose
  // foreign key PostgREST does not describe. The one such name is taken, and said so.
  const userRef = { format: 'uuid', type: 'string' };
  const linked = spec({
    lists: definition({ id: PK, user_ref: userRef, name: TEXT }, ['id', 'user_ref', 'name']),
    items: definition({ id: PK, user_ref: userRef, list_id: fk('lists'), name: TEXT }, ['id', 'user_ref', 'list_id', 'name']),
  });
  const inferred = deriveDomain(linked);
  assert.equal(inferred.error, null);
  assert.equal(inferred.data.owner_column, 'user_ref');
  assert.deepEqual([inferred.data.tables.items.user_owned, inferred.data.tables.lists.user_owned], [true, true]);
  assert.deepEqual(inferred.notes, [
    {
      path: 'owner_column',
      message:
        'user_ref: the only NOT NULL uuid column without a described foreign key (items, lists), taken for a reference to auth.users; pass --owner-column (or { ownerColumn }) if it is not the column row level security compares with auth.uid()',
    },
  ]);
});

test('no owner column found, two candidates, or an unknown one: an error that says what to pass', () => {
  const nullable = spec({ items: definition({ id: PK, user_ref: { format: 'uuid', type: 'string' }, name: TEXT }, ['id', 'name']) });
  assert.deepEqual(deriveDomain(nullable).error, {
    code: 'owner_column_not_found',
    path: 'owner_column',
    message: 'no uuid column defaults to auth.uid() or looks like a reference to auth.users (NOT NULL, no described foreign key)',
    hint: 'name the column that row level security compares with auth.uid(): --owner-column <name>, or { ownerColumn } / "owner_column" in the overrides (uuid columns: user_ref)',
  });
  const unlinked = spec({
    items: definition({ id: PK, user_ref: { format: 'uuid', type: 'string' }, external_id: { format: 'uuid', type: 'string' }, name: TEXT }, ['id', 'user_ref', 'external_id', 'name']),
  });
  assert.deepEqual(deriveDomain(unlinked).error, {
    code: 'ambiguous_owner_column',
    path: 'owner_column',
    message:
      'no uuid column defaults to auth.uid(), and more than one NOT NULL uuid column has no described foreign key (a reference to auth.users is not described): user_ref (items) and external_id (items)',
    hint: 'name the owner column: --owner-column <name>, or { ownerColumn } / "owner_column" in the overrides',
  });
  assert.equal(deriveDomain(unlinked, {}, { ownerColumn: 'user_ref' }).data.owner_column, 'user_ref');
  const two = spec({ ...NOTES, other: definition({ id: PK, user_id: OWNER }, ['id', 'user_id']) });
  assert.deepEqual(deriveDomain(two).error, {
    code: 'ambiguous_owner_column',
    path: 'owner_column',
    message: 'more than one column defaults to auth.uid(): owner_id (notes, projects) and user_id (other)',
    hint: 'name the owner column: --owner-column <name>, or { ownerColumn } / "owner_column" in the overrides',
  });
  assert.equal(deriveDomain(two, {}, { ownerColumn: 'user_id' }).data.owner_column, 'user_id');
  assert.deepEqual(deriveDomain(spec(NOTES), {}, { ownerColumn: 'author_id' }).error, {
    code: 'owner_column_not_found',
    path: 'owner_column',
    message: "no table has a uuid column 'author_id'",
    hint: 'the column that row level security compares with auth.uid(); uuid columns: owner_id, project_id',
  });
  assert.equal(deriveDomain(spec(NOTES), {}, { ownerColumn: 'Owner' }).error.code, 'invalid_option');
});

test('foreign keys become references; a required one is also a relation of the parent; uuid columns pointing nowhere known are hidden', () => {
  const definitions = {
    ...NOTES,
    links: definition(
      { id: PK, owner_id: OWNER, from_note: fk('notes'), to_note: fk('notes'), project_id: fk('projects'), external_id: { format: 'uuid', type: 'string' }, log_id: fk('logs') },
      ['id', 'owner_id', 'from_note', 'to_note'],
    ),
    logs: definition({ id: { ...PK, format: 'bigint', type: 'integer' }, owner_id: OWNER }, ['id', 'owner_id']),
  };
  const { data, notes } = deriveDomain(spec(definitions));
  assert.deepEqual(data.tables.notes.columns.project_id, { type: 'uuid', required: true, references: 'projects' });
  // notes → projects is required: projects(notes(…)) embeds. Two keys from links to notes are ambiguous: no relation.
  assert.deepEqual(data.tables.projects.relations, { notes: 'notes' });
  assert.equal(data.tables.notes.relations, undefined);
  assert.deepEqual(data.tables.links.columns.from_note, { type: 'uuid', required: true, references: 'notes' });
  assert.deepEqual(data.tables.links.hidden, ['external_id', 'log_id']);
  assert.deepEqual(notes.filter((n) => n.path.startsWith('tables.links')), [
    { path: 'tables.links.columns.external_id', message: 'hidden: a uuid column without a foreign key: add "references": "<table>" in the overrides to use it' },
    { path: 'tables.links.columns.log_id', message: 'hidden: references logs, which is not a table of this domain' },
  ]);
  // With the reference given, the column is visible and checked by the core.
  const fixed = deriveDomain(spec(definitions), { tables: { links: { columns: { external_id: { references: 'projects' } } } } });
  assert.deepEqual(fixed.data.tables.links.columns.external_id, { type: 'uuid', references: 'projects' });
  assert.deepEqual(fixed.data.tables.links.hidden, ['log_id']);
  assert.equal(core.validateDomain(fixed.data).error, null);
});

test('tables without a single uuid id key and views are left out with a note; a view named in the overrides is included read-only', () => {
  const definitions = {
    ...NOTES,
    events: definition({ id: { ...PK, format: 'bigint', type: 'integer' }, owner_id: OWNER }, ['id', 'owner_id']),
    pairs: definition({ a: { ...PK, format: 'uuid' }, b: { ...PK, format: 'uuid' } }, ['a', 'b']),
    // Views: PostgREST infers the key but describes every column as nullable (no `required`).
    pinned_notes: { properties: { id: { description: 'Note:\nThis is a Primary Key.<pk/>', format: 'uuid', type: 'string' }, owner_id: { format: 'uuid', type: 'string' }, body: TEXT, project_id: fk('projects') }, type: 'object' },
  };
  const { data, notes } = deriveDomain(spec(definitions));
  assert.deepEqual(Object.keys(data.tables), ['notes', 'projects']);
  assert.deepEqual(notes, [
    { path: 'tables.events', message: 'skipped: its primary key (id bigint) is not a single uuid column named id, which refs need' },
    { path: 'tables.pairs', message: 'skipped: its primary key (a uuid, b uuid) is not a single uuid column named id, which refs need' },
    {
      path: 'tables.pinned_notes',
      message: 'skipped: a view: name it in the overrides ("tables": { "pinned_notes": {} }) to include it, read-only unless "writable" says otherwise',
    },
  ]);
  const withView = deriveDomain(spec(definitions), { tables: { pinned_notes: {} } });
  assert.deepEqual(withView.data.tables.pinned_notes, {
    ref: 'pinned',
    user_owned: true,
    writable: false,
    columns: {
      id: { type: 'uuid', writable: false },
      owner_id: { type: 'uuid', writable: false },
      body: { type: 'text' },
      project_id: { type: 'uuid', references: 'projects' },
    },
  });
  assert.equal(core.validateDomain(withView.data).error, null);
  assert.deepEqual(deriveDomain(spec(definitions), { tables: { events: { ref: 'event' } } }).error, {
    code: 'invalid_overrides',
    path: 'tables.events',
    message: 'events cannot be part of a domain: its primary key (id bigint) is not a single uuid column named id, which refs need',
    hint: 'leave it out of the overrides; the model reaches it through a view with a uuid id, or not at all',
  });
});

test('ref prefixes: short, readable, unique, valid per the ref grammar', () => {
  assert.deepEqual(
    refPrefixes(['recipes', 'recipe_ingredients', 'ingredients', 'inventory', 'shopping_list', 'meal_plans', 'tasks', 'preferences', 'cooking_log']),
    { recipes: 'recipe', ingredients: 'ing', inventory: 'inv', tasks: 'task', preferences: 'pref', recipe_ingredients: 'ri', shopping_list: 'shop', meal_plans: 'meal', cooking_log: 'cooking' },
  );
  assert.deepEqual(refPrefixes(['organizations', 'contacts', 'deals', 'deal_notes', 'categories', 'addresses', 'status']), {
    organizations: 'org',
    contacts: 'contact',
    deals: 'deal',
    categories: 'cat',
    addresses: 'address',
    status: 'status',
    deal_notes: 'dn',
  });
  // 'gen' is the generated-ref marker: never a prefix; 'genre' is fine. Collisions get a number.
  assert.deepEqual(refPrefixes(['gen', 'genres', 'generations']), { gen: 't2', genres: 'genre', generations: 'generation' });
  assert.deepEqual(refPrefixes(['orders', 'order_items', 'order_invoices']), { orders: 'order', order_items: 'oi', order_invoices: 'order2' });
});

test('labels: name, title, … in that order; first and last name as a format; else the first required text column', () => {
  const table = (properties, required) => deriveDomain(spec({ t: definition({ id: PK, owner_id: OWNER, ...properties }, ['id', 'owner_id', ...required]) })).data.tables.t;
  assert.deepEqual(table({ email: TEXT, title: TEXT, name: TEXT }, []).label, ['name']);
  assert.deepEqual(table({ email: TEXT, title: TEXT }, []).label, ['title']);
  const person = table({ first_name: TEXT, last_name: TEXT, email: TEXT }, ['first_name']);
  assert.deepEqual([person.label_format, person.label], ['{first_name} {last_name}', ['first_name']]);
  assert.deepEqual(table({ email: TEXT }, []).label, ['email']);
  assert.deepEqual(table({ sku: TEXT, note: TEXT }, ['sku']).label, ['sku']);
  assert.equal(table({ note: TEXT, n: { format: 'integer', type: 'integer' } }, []).label, undefined);
});

test('overrides merge per table and column; null removes a table or a column; a chosen ref prefix wins', () => {
  const { data, error } = deriveDomain(spec(NOTES), {
    name: 'notebook',
    max_rows: 500,
    tables: {
      notes: { ref: 'project', label: ['body'], middleware: { fuzzy: ['body'] }, columns: { body: { values: ['x', 'y'] }, pinned: null } },
    },
  });
  assert.equal(error, null);
  assert.equal(data.name, 'notebook');
  assert.equal(data.max_rows, 500);
  assert.deepEqual(data.tables.notes.columns.body, { type: 'text', required: true, values: ['x', 'y'] });
  assert.equal('pinned' in data.tables.notes.columns, false);
  assert.deepEqual(data.tables.notes.middleware, { fuzzy: ['body'] });
  // projects would have been 'project': it yields to the prefix the overrides chose.
  assert.deepEqual([data.tables.notes.ref, data.tables.projects.ref], ['project', 'project2']);
  assert.equal(core.validateDomain(data).error, null);
  const { data: without } = deriveDomain(spec(NOTES), { tables: { notes: null } });
  assert.deepEqual(Object.keys(without.tables), ['projects']);
  assert.equal(without.tables.projects.relations, undefined, 'a relation to a removed table goes too');
});

test('override mistakes: unknown tables and columns are refused by name, misspelt settings by the core with the path to fix', async () => {
  assert.deepEqual(deriveDomain(spec(NOTES), { tables: { note: {} } }).error, {
    code: 'invalid_overrides',
    path: 'tables.note',
    message: "'note' is not a table or view in the database description",
    hint: 'tables: notes, projects',
  });
  assert.deepEqual(deriveDomain(spec(NOTES), { tables: { notes: { columns: { text: { values: [] } } } } }).error, {
    code: 'invalid_overrides',
    path: 'tables.notes.columns.text',
    message: "notes has no column 'text' in the database",
    hint: 'columns: id, owner_id, project_id, body, pinned',
  });
  assert.equal(deriveDomain(spec(NOTES), '{"tables": ').error.code, 'invalid_overrides');
  assert.equal(deriveDomain(spec(NOTES), []).error.code, 'invalid_overrides');
  const { data, error } = await domainFromOpenApi(spec(NOTES), { tables: { notes: { columns: { body: { requried: true } } } } }, { core });
  assert.equal(data, null);
  assert.deepEqual(error, {
    code: 'invalid_domain',
    path: 'tables.notes.columns.body.requried',
    message: "'requried' is not a domain setting",
    hint: 'allowed here: type, required, writable, nullable, references, values; fix it in the overrides at "tables.notes.columns.body.requried"',
  });
  const badPrefix = await domainFromOpenApi(spec(NOTES), { tables: { notes: { ref: 'gen_note' } } }, { core });
  assert.deepEqual([badPrefix.error.code, badPrefix.error.path], ['invalid_domain', 'tables.notes.ref']);
  const badFuzzy = await domainFromOpenApi(spec(NOTES), { tables: { notes: { middleware: { fuzzy: ['pinned'] } } } }, { core });
  assert.deepEqual([badFuzzy.error.path, badFuzzy.error.message], ['tables.notes.middleware.fuzzy', "'pinned' is not a text column"]);
});

test('not a PostgREST description: invalid_openapi with how to get one', async () => {
  const hint = 'GET the PostgREST root with the header Accept: application/openapi+json (a Supabase project: https://<ref>.supabase.co/rest/v1/)';
  assert.deepEqual(deriveDomain('<html>').error, { code: 'invalid_openapi', path: '', message: 'the description is not JSON: ' + errorOf(() => JSON.parse('<html>')), hint });
  assert.deepEqual(deriveDomain({ openapi: '3.0.0', components: {} }).error, {
    code: 'invalid_openapi',
    path: '',
    message: 'expected PostgREST\'s Swagger 2.0 description (swagger: "2.0" with definitions)',
    hint,
  });
  const unreachable = await pullDomain({ url: 'http://127.0.0.1:9/', core, fetch: () => Promise.reject(new TypeError('fetch failed')) });
  assert.deepEqual(unreachable.error, { code: 'network_error', path: 'url', message: 'GET http://127.0.0.1:9/rest/v1/ failed: fetch failed', hint: 'is the URL right and the server up?' });
  // Hosted Supabase: the key goes as apikey only (secret keys are not JWTs), and a refusal says which key works.
  const sent = [];
  const forbidden = '{"message":"Access to schema is forbidden","hint":"Accessing the schema via the Data API is only allowed using a secret API key."}';
  const refused = await pullDomain({
    url: 'https://x.supabase.co',
    apiKey: 'sb_publishable_x',
    core,
    fetch: async (url, init) => (sent.push([url, init.headers]), new Response(forbidden, { status: 401 })),
  });
  assert.deepEqual(sent, [['https://x.supabase.co/rest/v1/', { accept: 'application/openapi+json', apikey: 'sb_publishable_x' }]]);
  assert.deepEqual(refused.error, {
    code: 'http_error',
    path: 'url',
    message: `GET https://x.supabase.co/rest/v1/ answered HTTP 401: ${forbidden.slice(0, 200)}`,
    hint: 'hosted Supabase serves the schema description only for a secret (service-role) key: pass it as the key for this one request (it is not stored, and the Act never uses it)',
  });
});

const errorOf = (fn) => {
  try {
    fn();
  } catch (error) {
    return error.message;
  }
  return '';
};

test('formatDomain writes one line per column, like a hand-written domain file', () => {
  const { data } = deriveDomain(spec(NOTES));
  assert.equal(
    formatDomain(data.tables.notes),
    [
      '{',
      '  "ref": "note",',
      '  "user_owned": true,',
      '  "writable": true,',
      '  "label": ["body"],',
      '  "columns": {',
      '    "id": { "type": "uuid", "writable": false, "nullable": false },',
      '    "owner_id": { "type": "uuid", "writable": false, "nullable": false },',
      '    "project_id": { "type": "uuid", "required": true, "references": "projects" },',
      '    "body": { "type": "text", "required": true },',
      '    "pinned": { "type": "boolean", "nullable": false }',
      '  }',
      '}',
    ].join('\n'),
  );
  assert.deepEqual(JSON.parse(formatDomain(data)), data);
});

// What the core reads of a domain, defaults filled in, column order aside.
function normalized(domain) {
  const tables = {};
  for (const [name, t] of Object.entries(domain.tables).sort(([a], [b]) => (a < b ? -1 : 1))) {
    const columns = {};
    for (const [column, c] of Object.entries(t.columns).sort(([a], [b]) => (a < b ? -1 : 1))) {
      const required = c.required ?? false;
      columns[column] = { type: c.type, required, writable: c.writable ?? true, nullable: c.nullable ?? !required, references: c.references ?? '', values: c.values ?? [] };
    }
    tables[name] = {
      ref: t.ref,
      user_owned: t.user_owned ?? false,
      writable: t.writable ?? true,
      label: t.label ?? [],
      label_format: t.label_format ?? '',
      hidden: [...(t.hidden ?? [])].sort(),
      relations: t.relations ?? {},
      middleware: t.middleware ?? {},
      columns,
    };
  }
  return { name: domain.name ?? 'domain', owner_column: domain.owner_column ?? 'user_id', max_rows: domain.max_rows ?? 1000, tables };
}

// Paths where two normalized domains differ (a table's middleware as a whole).
function differences(a, b, path = '') {
  if (JSON.stringify(a) === JSON.stringify(b)) return [];
  if (path.endsWith('.middleware')) return [path];
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    return [...new Set([...Object.keys(a), ...Object.keys(b)])].flatMap((key) => differences(a[key], b[key], path ? `${path}.${key}` : key));
  }
  return [path];
}

const KITCHEN = JSON.parse(readFileSync(join(ROOT, 'domains/kitchen/domain.json'), 'utf8'));
const KITCHEN_OVERRIDES = JSON.parse(readFileSync(join(ROOT, 'domains/kitchen/overrides.json'), 'utf8'));

const kitchenStack = sharedStack();

test('the real PostgREST 12 serves Swagger 2.0 at its root for Accept: application/openapi+json', async () => {
  const { url, anonKey, users } = kitchenStack();
  const response = await fetch(`${url}/`, { headers: { apikey: anonKey, authorization: `Bearer ${users[0].token}`, accept: 'application/openapi+json' } });
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type'), /^application\/openapi\+json/);
  const description = await response.json();
  assert.equal(description.swagger, '2.0');
  assert.deepEqual(description.definitions.recipe_ingredients.properties.recipe_id, {
    description: "Note:\nThis is a Foreign Key to `recipes.id`.<fk table='recipes' column='id'/>",
    format: 'uuid',
    type: 'string',
  });
  assert.deepEqual(description.definitions.recipes.properties.user_id, { default: 'auth.uid()', format: 'uuid', type: 'string' });
  // The '{}' default of recipes.tags is not described (see the required rule).
  assert.deepEqual(description.definitions.recipes.properties.tags, { format: 'text[]', items: { type: 'string' }, type: 'array' });
});

test('the kitchen pulled from its stack plus domains/kitchen/overrides.json is kitchen.json in everything the core reads', async () => {
  const { supabaseUrl: url, anonKey, users } = kitchenStack();
  const { data, error, notes } = await pullDomain({ url, apiKey: anonKey, accessToken: users[0].token, overrides: KITCHEN_OVERRIDES, core });
  assert.equal(error, null);
  assert.deepEqual(normalized(data), normalized(KITCHEN));
  // act_sessions is the MCP server's session table (db/migrations), keyed by (user_id, id): no refs, so skipped.
  assert.deepEqual(notes.map((note) => note.path), ['tables.act_sessions', 'tables.ingredients.columns.embedding', 'tables.recipes.columns.embedding']);
});

test('without overrides the pulled kitchen differs only where the database cannot say', async () => {
  const { supabaseUrl: url, anonKey, users } = kitchenStack();
  const { data, error } = await pullDomain({ url, apiKey: anonKey, accessToken: users[0].token, core });
  assert.equal(error, null);
  assert.deepEqual(differences(normalized(data), normalized(KITCHEN)), [
    // The domain's name (the database does not have one).
    'name',
    // Check constraints (`check (difficulty in (…))`) are not in the description; enum types would be.
    'tables.cooking_log.ref', // 'cooking' derived; the kitchen says 'log'
    'tables.cooking_log.label_format',
    'tables.ingredients.columns.parent_category.values',
    'tables.inventory.middleware',
    'tables.meal_plans.label', // derived: the first required text column, meal_type; the kitchen labels by date
    'tables.meal_plans.label_format',
    'tables.meal_plans.columns.meal_type.values',
    'tables.preferences.label_format',
    'tables.preferences.hidden', // assumed_staples: uuid[] has no foreign key in Postgres …
    'tables.preferences.columns.cooking_skill_level.values',
    'tables.preferences.columns.assumed_staples', // … so the kitchen names its target
    'tables.recipe_ingredients.middleware',
    'tables.recipes.middleware',
    'tables.recipes.columns.difficulty.values',
    'tables.recipes.columns.flavor_tags.values',
    'tables.recipes.columns.instructions.required', // text[] NOT NULL: its default may be hidden, so not required
    'tables.recipes.columns.is_system.writable', // a boolean with a default, set by the system
    'tables.shopping_list.middleware',
    'tables.tasks.columns.category.values',
  ]);
});
