// A domain from PostgREST's OpenAPI description (web/src/pull/index.js): the
// derivation rules on small hand-made descriptions shaped like PostgREST 12's,
// then the real kitchen stack, whose pulled domain plus
// domains/kitchen/overrides.json must be exactly domains/kitchen/domain.json,
// with the catalog and without. The shapes of Supabase apps (bigint keys,
// profiles, join tables, policies) are in domain-pull-shapes.test.mjs; the
// CRM end to end is in crm.test.mjs.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { runDomainCommand } from '../../cli/domain.mjs';
import { before, test } from 'node:test';
import { deriveDomain, formatDomain, refPrefixes } from '../../web/src/pull/index.js';
import { domainFromOpenApi, loadCore, pullDomain } from '../../web/src/index.node.js';
import { loadPack } from '../../db/packs.mjs';
import { openDatabase } from '../../db/pglite.mjs';
import { catalogFacts } from '../../web/src/pull/catalog.js';
import { ROOT, SCRATCH } from './support/paths.mjs';
import { sharedStack } from './support/stack.mjs';

const core = await loadCore();

// Column descriptions as PostgREST 12 writes them.
const PK = { default: 'gen_random_uuid()', description: 'Note:\nThis is a Primary Key.<pk/>', format: 'uuid', type: 'string' };
const OWNER = { default: 'auth.uid()', format: 'uuid', type: 'string' };
const fk = (table, column = 'id', format = 'uuid') => ({
  description: `Note:\nThis is a Foreign Key to \`${table}.${column}\`.<fk table='${table}' column='${column}'/>`,
  format,
  type: format === 'bigint' ? 'integer' : 'string',
});
const TEXT = { format: 'text', type: 'string' };
const UUID = { format: 'uuid', type: 'string' };
const BIGKEY = { description: 'Note:\nThis is a Primary Key.<pk/>', format: 'bigint', type: 'integer' };
const CREATED = { default: 'now()', format: 'timestamp with time zone', type: 'string' };
const definition = (properties, required = []) => ({ required, properties, type: 'object' });
// Each table's owner (null for none) and whether the model may write it.
const ownersOf = (domain) => Object.fromEntries(Object.entries(domain.tables).map(([name, t]) => [name, [t.owner ?? null, t.writable ?? true]]));
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

test('owners per table, any name: an auth.uid() default, else a conventional name (NOT NULL, no described foreign key, with a note); tables without one are read-only', () => {
  const definitions = {
    projects: definition({ id: PK, owner_id: OWNER, name: TEXT }, ['id', 'owner_id', 'name']),
    notes: definition({ id: PK, author_id: UUID, project_id: fk('projects'), body: TEXT }, ['id', 'author_id', 'project_id', 'body']),
    colors: definition({ id: PK, name: TEXT }, ['id', 'name']),
  };
  const { data, error, notes } = deriveDomain(spec(definitions));
  assert.equal(error, null);
  assert.deepEqual(ownersOf(data), { colors: [null, false], notes: ['author_id', true], projects: ['owner_id', true] });
  assert.deepEqual(data.tables.notes.columns.author_id, { type: 'uuid', writable: false, nullable: false });
  assert.equal('owner_column' in data, false);
  assert.deepEqual(notes, [
    {
      path: 'tables.colors.writable',
      message: 'read-only: no owner column found, so its rows are taken for data every user shares; name the owner in the overrides ("owner": "<column>") if they belong to users, or say "writable": true',
    },
    {
      path: 'tables.notes.owner',
      message:
        'author_id: taken for the owner column, a NOT NULL uuid column with no described foreign key (PostgREST does not describe references to auth.users); pull with the catalog (--db-url, or the catalog option of pullDomain) to be sure, or say "owner": null in the overrides if it is not',
    },
  ]);
  assert.equal(core.validateDomain(data).error, null);

  // The option names the owner of every table with that uuid column; the
  // overrides decide per table (a column, or null for none), and the legacy
  // "user_owned" still reads.
  const items = spec({
    lists: definition({ id: PK, user_ref: UUID, name: TEXT }, ['id', 'user_ref', 'name']),
    items: definition({ id: PK, user_ref: UUID, keeper: UUID, list_id: fk('lists'), name: TEXT }, ['id', 'user_ref', 'keeper', 'list_id', 'name']),
  });
  assert.deepEqual(ownersOf(deriveDomain(items, {}, { ownerColumn: 'user_ref' }).data), { items: ['user_ref', true], lists: ['user_ref', true] });
  assert.deepEqual(ownersOf(deriveDomain(items, { owner_column: 'user_ref' }).data), { items: ['user_ref', true], lists: ['user_ref', true] });
  const perTable = deriveDomain(items, { tables: { items: { owner: 'keeper' }, lists: { owner: null, writable: true } } }, { ownerColumn: 'user_ref' });
  assert.deepEqual(ownersOf(perTable.data), { items: ['keeper', true], lists: [null, true] });
  assert.deepEqual(perTable.data.tables.items.columns.keeper, { type: 'uuid', writable: false, nullable: false });
  assert.deepEqual(perTable.data.tables.items.hidden, ['user_ref']);
  assert.deepEqual(ownersOf(deriveDomain(items, { tables: { items: { user_owned: true }, lists: { user_owned: false } } }, { ownerColumn: 'user_ref' }).data), {
    items: ['user_ref', true],
    lists: [null, false],
  });
  assert.equal('user_owned' in deriveDomain(items, { tables: { items: { user_owned: true } } }, { ownerColumn: 'user_ref' }).data.tables.items, false);

  // An owner column that references a table's uuid key makes that table one
  // keyed by user ids (a profiles table): owned through its key, and other
  // references to it are refs of users.
  const social = spec({
    profiles: definition({ id: { ...PK, default: undefined }, username: TEXT }, ['id']),
    posts: definition({ id: PK, author_id: { ...OWNER, description: fk('profiles').description }, reviewer_id: fk('profiles'), title: TEXT }, ['id', 'author_id', 'title']),
  });
  const pulled = deriveDomain(social);
  assert.deepEqual(ownersOf(pulled.data), { posts: ['author_id', true], profiles: ['id', true] });
  assert.deepEqual(pulled.data.tables.posts.columns.author_id, { type: 'uuid', writable: false, nullable: false, references: 'profiles' });
  assert.deepEqual(pulled.data.tables.posts.columns.reviewer_id, { type: 'uuid', references: 'profiles' });
  assert.deepEqual(pulled.notes, []);
  assert.equal(core.validateDomain(pulled.data).error, null);
});

test('several candidates in one table: that table has no owner and a note names them and the override; the rest of the pull goes on', () => {
  const definitions = {
    projects: definition({ id: PK, owner_id: OWNER, name: TEXT }, ['id', 'owner_id', 'name']),
    // Two columns default to auth.uid().
    reviews: definition({ id: PK, user_id: OWNER, created_by: OWNER, body: TEXT }, ['id', 'user_id', 'created_by']),
    // Two conventional names, NOT NULL, no described foreign key.
    handoffs: definition({ id: PK, user_id: UUID, creator_id: UUID, body: TEXT }, ['id', 'user_id', 'creator_id']),
  };
  const { data, error, notes } = deriveDomain(spec(definitions));
  assert.equal(error, null);
  assert.deepEqual(ownersOf(data), { handoffs: [null, false], projects: ['owner_id', true], reviews: [null, false] });
  assert.deepEqual(notes.filter((note) => note.path.endsWith('.owner')), [
    {
      path: 'tables.handoffs.owner',
      message: 'no owner: user_id, creator_id are named like an owner column and hold user ids; say which in the overrides ("owner": "user_id", or "owner": null)',
    },
    { path: 'tables.reviews.owner', message: 'no owner: user_id, created_by default to auth.uid(); say which in the overrides ("owner": "user_id", or "owner": null)' },
  ]);
  assert.deepEqual(ownersOf(deriveDomain(spec(definitions), { tables: { reviews: { owner: 'created_by' } } }).data).reviews, ['created_by', true]);

  assert.deepEqual(deriveDomain(spec(NOTES), {}, { ownerColumn: 'author_id' }).error, {
    code: 'owner_column_not_found',
    path: 'owner_column',
    message: "no table has a uuid column 'author_id'",
    hint: 'the column that row level security compares with auth.uid(); uuid columns: owner_id, project_id',
  });
  assert.equal(deriveDomain(spec(NOTES), {}, { ownerColumn: 'Owner' }).error.code, 'invalid_option');
  assert.deepEqual(deriveDomain(spec(NOTES), { tables: { notes: { owner: 'body' } } }).error, {
    code: 'invalid_overrides',
    path: 'tables.notes.owner',
    message: 'notes has no uuid column "body"',
    hint: "the owner is the uuid column holding the owning user's id: id, owner_id, project_id; or \"owner\": null",
  });
});

test('foreign keys of any key type become references; a required one is also a relation of the parent; uuid columns pointing nowhere known are hidden', () => {
  const definitions = {
    ...NOTES,
    links: definition(
      { id: PK, owner_id: OWNER, from_note: fk('notes'), to_note: fk('notes'), project_id: fk('projects'), external_id: UUID, log_id: fk('logs'), event_id: fk('events', 'id', 'bigint'), handle: fk('members', 'handle', 'text') },
      ['id', 'owner_id', 'from_note', 'to_note', 'event_id'],
    ),
    logs: definition({ id: PK, owner_id: OWNER }, ['id', 'owner_id']),
    events: definition({ id: BIGKEY, owner_id: OWNER, title: TEXT }, ['id', 'owner_id']),
    members: definition({ id: PK, owner_id: OWNER, handle: TEXT }, ['id', 'owner_id', 'handle']),
  };
  const { data, notes } = deriveDomain(spec(definitions), { tables: { logs: null } });
  assert.deepEqual(data.tables.notes.columns.project_id, { type: 'uuid', required: true, references: 'projects' });
  // notes → projects and links → events are required: parent(child(…)) embeds. Two keys from links to notes are ambiguous: no relation.
  assert.deepEqual(data.tables.projects.relations, { notes: 'notes' });
  assert.deepEqual(data.tables.events.relations, { links: 'links' });
  assert.equal(data.tables.notes.relations, undefined);
  assert.deepEqual(data.tables.links.columns.from_note, { type: 'uuid', required: true, references: 'notes' });
  assert.deepEqual(data.tables.links.columns.event_id, { type: 'integer', required: true, references: 'events' });
  // A foreign key to a unique column that is not the key holds no ref: a plain text column.
  assert.deepEqual(data.tables.links.columns.handle, { type: 'text' });
  assert.deepEqual(data.tables.links.hidden, ['external_id', 'log_id']);
  assert.deepEqual(notes.filter((n) => n.path.startsWith('tables.links')), [
    {
      path: 'tables.links.columns.external_id',
      message:
        'hidden: a uuid column without a described foreign key (PostgREST does not describe references to auth.users): add "references": "<table>", or "auth.users" for a user id, in the overrides, or pull with the catalog (--db-url, or the catalog option of pullDomain)',
    },
    { path: 'tables.links.columns.log_id', message: 'hidden: references logs, which is not a table of this domain' },
    { path: 'tables.links.columns.handle', message: 'a plain text: it references members.handle, which is not the one-column key of members' },
  ]);
  assert.equal(core.validateDomain(data).error, null);
  // With the reference given, the column is visible and checked by the core; a user id is "auth.users".
  const fixed = deriveDomain(spec(definitions), { tables: { logs: null, links: { columns: { external_id: { references: 'auth.users' } } } } });
  assert.deepEqual(fixed.data.tables.links.columns.external_id, { type: 'uuid', references: 'auth.users' });
  assert.deepEqual(fixed.data.tables.links.hidden, ['log_id']);
  assert.equal(core.validateDomain(fixed.data).error, null);
});

test('keys: one column of uuid, integer or text, or several; none, or another type, is read-only with a note that says why; views are read-only', async () => {
  const definitions = {
    ...NOTES,
    events: definition({ id: BIGKEY, owner_id: OWNER, title: TEXT }, ['id', 'owner_id', 'title']),
    countries: definition({ code: { ...TEXT, description: 'Note:\nThis is a Primary Key.<pk/>' }, name: TEXT }, ['code', 'name']),
    invites: definition({ token: { ...TEXT, default: 'extensions.gen_random_uuid()::text', description: 'Note:\nThis is a Primary Key.<pk/>' }, owner_id: OWNER }, ['token', 'owner_id']),
    pairs: definition({ a: { ...fk('notes'), description: `Note:\nThis is a Primary Key.<pk/>\n${fk('notes').description}` }, b: { ...fk('projects'), description: `Note:\nThis is a Primary Key.<pk/>\n${fk('projects').description}` }, owner_id: OWNER }, ['a', 'b', 'owner_id']),
    days: definition({ day: { format: 'date', type: 'string', description: 'Note:\nThis is a Primary Key.<pk/>' }, total: { format: 'integer', type: 'integer' } }, ['day', 'total']),
    totals: definition({ project_id: fk('projects'), n: { format: 'bigint', type: 'integer' } }),
    // Views: PostgREST infers the key but describes every column as nullable (no `required`).
    pinned_notes: { properties: { id: { description: 'Note:\nThis is a Primary Key.<pk/>', format: 'uuid', type: 'string' }, body: TEXT, project_id: fk('projects') }, type: 'object' },
  };
  const { data, notes } = deriveDomain(spec(definitions));
  const shape = (name) => {
    const { ref: _ref, label: _label, middleware: _middleware, relations: _relations, ...rest } = data.tables[name];
    return rest;
  };
  assert.deepEqual(shape('events'), {
    owner: 'owner_id',
    columns: { id: { type: 'integer', writable: false, nullable: false }, owner_id: { type: 'uuid', writable: false, nullable: false }, title: { type: 'text', required: true } },
  });
  // A text key without a default is the model's to write (a slug); with one, the database's.
  assert.deepEqual(shape('countries'), { key: 'code', writable: false, columns: { code: { type: 'text', required: true }, name: { type: 'text', required: true } } });
  assert.deepEqual(shape('invites').columns.token, { type: 'text', writable: false, nullable: false });
  assert.deepEqual(shape('pairs'), {
    key: ['a', 'b'],
    owner: 'owner_id',
    columns: {
      a: { type: 'uuid', required: true, references: 'notes' },
      b: { type: 'uuid', required: true, references: 'projects' },
      owner_id: { type: 'uuid', writable: false, nullable: false },
    },
  });
  assert.deepEqual(shape('days'), { key: [], writable: false, columns: { day: { type: 'date', required: true }, total: { type: 'integer', required: true } } });
  assert.deepEqual(shape('totals'), { key: [], writable: false, columns: { project_id: { type: 'uuid', references: 'projects' }, n: { type: 'integer' } } });
  assert.deepEqual(shape('pinned_notes'), { writable: false, columns: { id: { type: 'uuid', writable: false }, body: { type: 'text' }, project_id: { type: 'uuid', references: 'projects' } } });
  assert.deepEqual(
    notes.filter((note) => /^tables\.(days|totals|pinned_notes|pairs)\b/.test(note.path)),
    [
      { path: 'tables.days.key', message: 'read-only: its primary key (day date) is of type date; a key is uuid, integer or text' },
      { path: 'tables.pinned_notes.writable', message: 'read-only: a view; say "writable": true in the overrides if it is updatable' },
      { path: 'tables.totals.key', message: 'read-only: no primary key, so no row can be named for an update or delete; give "key" in the overrides if a column is unique' },
    ],
  );
  assert.equal(core.validateDomain(data).error, null);
  // The overrides make a view writable, or give a keyless table its key; a keyless table written is the core's error.
  const given = deriveDomain(spec(definitions), { tables: { pinned_notes: { writable: true }, totals: { key: 'project_id' } } });
  assert.deepEqual([given.data.tables.pinned_notes.writable, given.data.tables.totals.key], [true, 'project_id']);
  const keyless = await domainFromOpenApi(spec(definitions), { tables: { days: { writable: true } } }, { core });
  assert.deepEqual([keyless.error.code, keyless.error.path], ['invalid_domain', 'tables.days.writable']);
  // A name the domain cannot hold is left out with a note, and refused in the overrides.
  const odd = spec({ ...NOTES, 'Odd Table': definition({ id: PK, owner_id: OWNER }, ['id', 'owner_id']) });
  assert.deepEqual(deriveDomain(odd).notes, [{ path: 'tables.Odd Table', message: "left out: 'Odd Table' is not a lower-case identifier, which refs and the domain need" }]);
  assert.equal(deriveDomain(odd, { tables: { 'Odd Table': {} } }).error.code, 'invalid_overrides');
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
  // An abbreviation nobody should read in every ref (Chatbot UI's assistants were ass_1): the whole word instead.
  assert.deepEqual(refPrefixes(['assistants', 'assistant_files', 'assistant_tools']), { assistants: 'assistant', assistant_files: 'af', assistant_tools: 'at' });
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
    message: "'note' is not a table or view in the database description, nor one its foreign keys reach",
    hint: 'tables: notes, projects (a table of a schema the API does not serve is declared whole, with "exposed": false)',
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
    message: 'expected PostgREST\'s Swagger 2.0 description (swagger: "2.0" with definitions or paths)',
    hint,
  });
  const unreachable = await pullDomain({ url: 'http://127.0.0.1:9/', core, fetch: () => Promise.reject(new TypeError('fetch failed')) });
  assert.deepEqual(unreachable.error, { code: 'network_error', path: 'url', message: 'GET http://127.0.0.1:9/rest/v1/ failed: fetch failed', hint: 'is the URL right and the server up?' });
  // A key pasted with a line break inside: the caller's mistake, said before anything is sent (fetch would call it a network error).
  let fetched = false;
  const broken = await pullDomain({ url: 'http://127.0.0.1:9/', apiKey: 'sb_secret_abc\ndef', core, fetch: async () => ((fetched = true), new Response('{}')) });
  assert.deepEqual([broken.error.code, broken.error.path, broken.error.hint, fetched], ['invalid_option', 'apiKey', 'pass the key or token exactly as issued', false]);
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
      '  "owner": "owner_id",',
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
      key: t.key === undefined ? (t.columns.id ? ['id'] : []) : [t.key].flat(),
      owner: t.owner ?? '',
      scope: t.scope ?? 'rls',
      writable: t.writable ?? true,
      label: t.label ?? [],
      label_format: t.label_format ?? '',
      hidden: [...(t.hidden ?? [])].sort(),
      relations: t.relations ?? {},
      middleware: t.middleware ?? {},
      columns,
    };
  }
  return { name: domain.name ?? 'domain', max_rows: domain.max_rows ?? 1000, tables, functions: domain.functions ?? {} };
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

// The kitchen's catalog facts, read from a database migrated as its stack's
// is (the stack's own PGlite has PostgREST as its only client).
let kitchenCatalog;
before(async () => {
  const { db } = await openDatabase({ migrations: (await loadPack('kitchen')).migrations(), snapshotName: 'kitchen' });
  try {
    kitchenCatalog = await catalogFacts((sql) => db.query(sql));
  } finally {
    await db.close();
  }
});

test('the kitchen pulled from its stack plus domains/kitchen/overrides.json is exactly domains/kitchen/domain.json, with the catalog or without', async () => {
  const { supabaseUrl: url, anonKey, users } = kitchenStack();
  const { data, error, notes } = await pullDomain({ url, apiKey: anonKey, accessToken: users[0].token, overrides: KITCHEN_OVERRIDES, core });
  assert.equal(error, null);
  assert.deepEqual(data, KITCHEN);
  assert.deepEqual(notes, [
    { path: 'tables.act_sessions', message: "left out: alfred-act's own MCP session store (docs/mcp.md), not data for the model" },
    {
      path: 'tables.ingredients.writable',
      message: 'read-only: no owner column found, so its rows are taken for data every user shares; name the owner in the overrides ("owner": "<column>") if they belong to users, or say "writable": true',
    },
    { path: 'tables.ingredients.columns.embedding', message: "hidden: type 'extensions.vector(1536)' is not one the model can read or write (an embedding)" },
    { path: 'tables.recipes.columns.embedding', message: "hidden: type 'extensions.vector(1536)' is not one the model can read or write (an embedding)" },
  ]);
  // The catalog says the same through the policies (user_id = auth.uid()) and
  // the privileges (ingredients: writes revoked, which its note now says).
  const withCatalog = await pullDomain({ url, apiKey: anonKey, accessToken: users[0].token, overrides: KITCHEN_OVERRIDES, core, catalog: kitchenCatalog });
  assert.equal(withCatalog.error, null);
  assert.deepEqual(withCatalog.data, KITCHEN);
  assert.deepEqual(withCatalog.notes, [
    { path: 'tables.act_sessions', message: "left out: alfred-act's own MCP session store (docs/mcp.md), not data for the model" },
    { path: 'tables.ingredients.writable', message: 'read-only: the authenticated role may not insert, update or delete it' },
    { path: 'tables.ingredients.columns.embedding', message: "hidden: type 'extensions.vector(1536)' is not one the model can read or write (an embedding)" },
    { path: 'tables.recipes.columns.embedding', message: "hidden: type 'extensions.vector(1536)' is not one the model can read or write (an embedding)" },
  ]);
});

test('domain pull --types writes the domain\'s TypeScript types beside it: for the kitchen, exactly tests/types/kitchen-domain.d.ts (which tests/types/domain.ts compiles against)', async () => {
  const { supabaseUrl: url, anonKey, users } = kitchenStack();
  mkdirSync(SCRATCH, { recursive: true });
  const dir = mkdtempSync(join(SCRATCH, 'pull-types-'));
  try {
    let stderr = '';
    const out = join(dir, 'domain.json');
    const types = join(dir, 'domain.d.ts');
    const code = await runDomainCommand(
      ['pull', '--url', url, '--key', anonKey, '--token', users[0].token, '--overrides', join(ROOT, 'domains/kitchen/overrides.json'), '--out', out, '--types', types],
      { env: {}, stdout: { write: () => {} }, stderr: { write: (text) => (stderr += text) }, cwd: ROOT },
    );
    assert.equal(code, 0, stderr);
    assert.deepEqual(JSON.parse(readFileSync(out, 'utf8')), KITCHEN);
    assert.equal(readFileSync(types, 'utf8'), readFileSync(join(ROOT, 'tests/types/kitchen-domain.d.ts'), 'utf8'));
    assert.match(stderr, new RegExp(`wrote ${types.replaceAll('.', '\\.')}: import type \\{ Domain \\} from it and pass it to createAct<Domain>\\(\\)`));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('without overrides the pulled kitchen differs only where the database cannot say', async () => {
  const { supabaseUrl: url, anonKey, users } = kitchenStack();
  const { data, error } = await pullDomain({ url, apiKey: anonKey, accessToken: users[0].token, core, catalog: kitchenCatalog });
  assert.equal(error, null);
  // The URL is an address: the name falls back to "database".
  assert.equal(data.name, 'database');
  assert.deepEqual(differences(normalized(data), normalized(KITCHEN)), [
    // The domain's name (the database does not have one).
    'name',
    'tables.cooking_log.ref', // 'cooking' derived; the kitchen says 'log'
    'tables.cooking_log.scope', // defence in depth: the kitchen also filters to the owner's rows
    'tables.cooking_log.label_format',
    'tables.inventory.scope',
    'tables.inventory.middleware',
    'tables.meal_plans.scope',
    'tables.meal_plans.label', // derived: the first required text column, meal_type; the kitchen labels by date
    'tables.meal_plans.label_format',
    'tables.preferences.scope',
    'tables.preferences.label_format',
    'tables.preferences.hidden', // assumed_staples: uuid[] has no foreign key in Postgres …
    'tables.preferences.columns.cooking_skill_level.values', // no check in the database: the kitchen's overrides list them
    'tables.preferences.columns.assumed_staples', // … so the kitchen names its target
    'tables.recipe_ingredients.scope',
    'tables.recipe_ingredients.middleware',
    'tables.recipes.scope',
    'tables.recipes.middleware', // fuzzy name derived; include and semantic search are the kitchen's
    'tables.recipes.columns.difficulty.values', // as cooking_skill_level's
    'tables.recipes.columns.is_system.writable', // a boolean with a default, set by the system
    'tables.shopping_list.scope',
    'tables.shopping_list.middleware',
    'tables.tasks.scope',
    'tables.tasks.middleware', // title matched loosely by default; the kitchen matches task titles exactly
    // match_recipes, offered as a function; the kitchen's semantic search calls it (middleware.semantic) and its overrides leave it out.
    'functions.match_recipes',
  ]);
  // STABLE and a security invoker with a pinned search_path: offered, a read; its table(…) result is JSON.
  assert.deepEqual(data.functions, {
    match_recipes: {
      read: true,
      // The size of recipes.embedding, the schema's one vector column.
      args: { query_embedding: { type: 'vector', dimensions: 1536, required: true }, match_count: { type: 'integer' }, max_distance: { type: 'numeric' } },
      returns: { type: 'json', set: true },
    },
  });
});

test('writableOf: each write as its grant and a policy for its command (or ALL) allow it, on a table signed-in users may read; rlsNote names changes only where a write changes rows', async () => {
  const { writableOf, rlsNote } = await import('../../web/src/pull/owners.js');
  // As pg_policies gives them: an INSERT policy has a WITH CHECK and no USING.
  const policy = (command, extra = {}) => ({ name: command.toLowerCase(), command, roles: ['authenticated'], permissive: true, using: command === 'INSERT' ? null : 'true', check: command === 'INSERT' ? 'true' : null, ...extra });
  const all = { select: true, insert: true, update: true, delete: true };
  const table = (catalog) => ({ name: 't', isView: false, columns: [], catalog: { rls: true, privileges: all, references: {}, ...catalog } });
  const writes = (catalog, owner = null) => writableOf(table(catalog), ['id'], owner);

  assert.deepEqual(writes({ policies: [policy('ALL')] }), { writable: true, note: null });
  assert.deepEqual(writes({ policies: [policy('SELECT'), policy('UPDATE')] }), {
    writable: ['update'],
    note: { path: 'tables.t.writable', message: 'update only: no row-level security policy lets a signed-in user insert or delete its rows (a function of the app may; "writable" in the overrides wins)' },
  });
  assert.deepEqual(writes({ policies: [policy('SELECT'), policy('INSERT'), policy('UPDATE'), policy('DELETE')], privileges: { ...all, delete: false } }).writable, ['create', 'update']);
  assert.equal(
    writes({ policies: [policy('SELECT'), policy('INSERT')], privileges: { ...all, update: false } }).note.message,
    'create only: the authenticated role may not update it, and no row-level security policy lets a signed-in user delete its rows (a function of the app may; "writable" in the overrides wins)',
  );
  // A policy with neither USING nor WITH CHECK lets nothing through (PostgreSQL skips it): Quivr's `for all to public`.
  assert.deepEqual(writes({ policies: [policy('SELECT'), policy('ALL', { using: null, check: null })] }).writable, false);
  assert.deepEqual(writes({ policies: [policy('SELECT'), policy('INSERT', { check: null })] }).writable, false);
  assert.equal(writes({ policies: [policy('SELECT', { using: null }), policy('ALL', { using: null, check: null })] }).note.message, 'read-only: no row-level security policy lets a signed-in user read its rows, and every write reads back the rows it changed');
  // A restrictive policy, or one for another role, lets nobody write.
  assert.deepEqual(writes({ policies: [policy('SELECT'), policy('DELETE', { permissive: false }), policy('INSERT', { roles: ['service_role'] }), policy('UPDATE')] }).writable, ['update']);
  // A table users may insert into and not read is write-only: its creates are not read back.
  assert.deepEqual(writes({ policies: [policy('INSERT')] }), {
    writable: ['create'],
    readable: false,
    note: {
      path: 'tables.t.readable',
      message: 'write-only: no row-level security policy lets a signed-in user read its rows, so users may only add rows to it, which are not read back (no refs); "readable" and "writable" in the overrides win',
    },
  });
  assert.equal(writes({ policies: [policy('ALL')], privileges: { ...all, select: false } }).note.message, 'write-only: the authenticated role may not select from it, so users may only add rows to it, which are not read back (no refs); "readable" and "writable" in the overrides win');
  // Every other write reads the rows it changes: PostgreSQL holds that to the SELECT grant and policies.
  assert.deepEqual(writes({ policies: [policy('UPDATE')] }), {
    writable: false,
    note: { path: 'tables.t.writable', message: 'read-only: no row-level security policy lets a signed-in user read its rows, and every write reads back the rows it changed' },
  });
  // Row-level security off and no SELECT grant: write-only, owner or not; no note that every user reads every row.
  const insertOnly = { rls: false, policies: [], privileges: { select: false, insert: true, update: false, delete: false } };
  assert.deepEqual(writes(insertOnly).writable, ['create']);
  assert.equal(rlsNote(table(insertOnly), ['create']), null);
  // Row-level security off: the grants decide, on a table with an owner.
  assert.deepEqual(writes({ rls: false, policies: [], privileges: { ...all, update: false, delete: false } }, 'user_id').writable, ['create']);

  const open = table({ rls: false, policies: [] });
  assert.match(rlsNote(open, true).message, /reads every row and may change any;/);
  assert.match(rlsNote(open, ['create', 'update']).message, /and may change any;/);
  assert.doesNotMatch(rlsNote(open, ['create']).message, /may change/);
  assert.doesNotMatch(rlsNote(open, []).message, /may change/);
  assert.doesNotMatch(rlsNote(open, false).message, /may change/);
});

test('with the catalog, a table signed-in users may neither read nor add to is left out, unless another table references it or the overrides name it; one they may add to is write-only', () => {
  const definitions = {
    ...NOTES,
    feedback: definition({ id: PK, owner_id: OWNER, body: TEXT }, ['id', 'owner_id', 'body']),
  };
  const all = { select: true, insert: true, update: true, delete: true };
  const policy = (command) => ({ name: command, command, roles: ['authenticated'], permissive: true, ...(command === 'INSERT' ? { using: null, check: 'owner_id = auth.uid()' } : { using: 'owner_id = auth.uid()', check: null }) });
  const facts = (policies) => ({ kind: 'table', rls: true, privileges: all, policies, references: {} });
  const catalog = {
    schema: 'public',
    tables: { projects: facts([]), notes: facts([policy('ALL')]), feedback: facts([policy('DELETE')]) },
  };
  const { data, error, notes } = deriveDomain(spec(definitions), {}, { catalog });
  assert.equal(error, null);
  // projects: no policy at all, but notes.project_id references it: kept, read-only, its refs what notes hold.
  assert.deepEqual(Object.keys(data.tables).sort(), ['notes', 'projects']);
  assert.equal(data.tables.projects.writable, false);
  assert.equal(data.tables.notes.columns.project_id.references, 'projects');
  assert.deepEqual(notes.find((note) => note.path === 'tables.feedback'), {
    path: 'tables.feedback',
    message:
      'left out: no row-level security policy lets a signed-in user read its rows, and none may add rows to it, so every read would be empty and every write refused; add a SELECT policy, or name the table in the overrides to keep it',
  });
  const kept = deriveDomain(spec(definitions), { tables: { feedback: {} } }, { catalog });
  assert.equal(kept.data.tables.feedback.writable, false);

  // An INSERT policy alone: kept, write-only, and the core takes it.
  const sent = deriveDomain(spec(definitions), {}, { catalog: { ...catalog, tables: { ...catalog.tables, feedback: facts([policy('INSERT')]) } } });
  assert.equal(sent.error, null);
  assert.equal(sent.data.tables.feedback.readable, false);
  assert.deepEqual(sent.data.tables.feedback.writable, ['create']);
  assert.equal(sent.data.tables.feedback.owner, 'owner_id');
  assert.match(sent.notes.find((note) => note.path === 'tables.feedback.readable').message, /^write-only: /);

  // Creates that are never read back need no key: a table without a primary key is write-only too, with no key note.
  const keyless = { ...definitions, feedback: definition({ owner_id: OWNER, body: TEXT }, ['owner_id', 'body']) };
  const waitlist = deriveDomain(spec(keyless), {}, { catalog: { ...catalog, tables: { ...catalog.tables, feedback: facts([policy('INSERT')]) } } });
  assert.equal(waitlist.error, null);
  assert.deepEqual([waitlist.data.tables.feedback.key, waitlist.data.tables.feedback.readable, waitlist.data.tables.feedback.writable], [[], false, ['create']]);
  assert.deepEqual(waitlist.notes.filter((note) => note.path.startsWith('tables.feedback')).map((note) => note.path), ['tables.feedback.readable']);
});

test('overrides on a write-only table: "readable" wins and silences the note, "writable" of creates alone keeps it write-only, other writes keep it readable with a note', () => {
  const definitions = { ...NOTES, feedback: definition({ id: PK, owner_id: OWNER, body: TEXT }, ['id', 'owner_id', 'body']) };
  const all = { select: true, insert: true, update: true, delete: true };
  const policy = (command) => ({ name: command, command, roles: ['authenticated'], permissive: true, ...(command === 'INSERT' ? { using: null, check: 'owner_id = auth.uid()' } : { using: 'owner_id = auth.uid()', check: null }) });
  const facts = (policies) => ({ kind: 'table', rls: true, privileges: all, policies, references: {} });
  const catalog = { schema: 'public', tables: { projects: facts([policy('ALL')]), notes: facts([policy('ALL')]), feedback: facts([policy('INSERT')]) } };
  const pull = (feedback) => deriveDomain(spec(definitions), { tables: { feedback } }, { catalog });
  const noteOf = (pulled) => pulled.notes.find((note) => note.path.startsWith('tables.feedback'))?.message ?? null;

  const creates = pull({ writable: ['create'] });
  assert.deepEqual([creates.data.tables.feedback.readable, creates.data.tables.feedback.writable], [false, ['create']]);
  assert.match(noteOf(creates), /^write-only: /);

  const readable = pull({ readable: true });
  assert.equal(readable.data.tables.feedback.readable, true);
  assert.equal(noteOf(readable), null);

  const more = pull({ writable: ['create', 'update'] });
  assert.deepEqual([more.data.tables.feedback.readable, more.data.tables.feedback.writable], [undefined, ['create', 'update']]);
  assert.equal(
    noteOf(more),
    'kept readable, as "writable" in the overrides takes writes that read rows, though no row-level security policy lets a signed-in user read its rows; say "readable": false and "writable": ["create"] if users only add rows to it',
  );
  const none = pull({ writable: [] });
  assert.deepEqual([none.data.tables.feedback.readable, none.data.tables.feedback.writable], [undefined, []]);
  assert.equal(noteOf(none), 'read-only, as the overrides say, though no row-level security policy lets a signed-in user read its rows: every read is empty');

  // "readable": false alone takes creates alone, on a table the pull found readable and writable.
  const given = deriveDomain(spec(definitions), { tables: { notes: { readable: false } } }, { catalog });
  assert.deepEqual([given.data.tables.notes.readable, given.data.tables.notes.writable], [false, ['create']]);
});
