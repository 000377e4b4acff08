// web/index.d.ts as a TypeScript user sees it: tests/types/usage.ts imports
// 'alfred-act' through the package's exports and must compile under --strict.
// Each check asserts which files tsc read, so a tsc that never ran, crashed or
// checked something else cannot pass.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import { ROOT, SCRATCH } from './support/paths.mjs';
import { tscProject, typecheck } from './support/typecheck.mjs';
import { loadCore } from '../../web/src/index.node.js';
import { domainTypes, visibleColumns } from '../../web/src/domain-types.js';

/** tsc over `project` is clean and read `files` (repository paths), among them the package's declarations. */
async function compiles(project, files, options) {
  const { errors, listed } = await tscProject(project, options);
  assert.equal(errors, '', `tsc rejected ${project}:\n${errors}`);
  for (const file of files) assert.ok(listed.includes(join(ROOT, file)), `tsc did not read ${file}`);
}

test('tests/types/usage.ts compiles with tsc --noEmit --strict', { timeout: 60_000 }, async () => {
  await compiles('tests/types', ['tests/types/usage.ts', 'web/index.d.ts']);
});

test('tests/types/adapters.ts (alfred-act/ai, alfred-act/openai, tool calling) compiles with tsc --noEmit --strict', { timeout: 60_000 }, async () => {
  await compiles('tests/types/tsconfig.adapters.json', ['tests/types/adapters.ts', 'web/index.d.ts', 'web/ai.d.ts', 'web/openai.d.ts']);
});

test('tests/types/surfaces.ts (alfred-act/mcp, alfred-act/loop, alfred-act/worker, alfred-act/worker/durable, no DOM lib) compiles with tsc --noEmit --strict', { timeout: 60_000 }, async () => {
  await compiles('tests/types/tsconfig.surfaces.json', ['tests/types/surfaces.ts', 'web/mcp.d.ts', 'web/loop.d.ts', 'web/worker.d.ts', 'web/worker-durable.d.ts']);
});

test('tests/types/domain.ts (a domain\'s generated types: wrong tables, columns, values and refs rejected) compiles with tsc --noEmit --strict', { timeout: 60_000 }, async () => {
  await compiles('tests/types/tsconfig.domain.json', ['tests/types/domain.ts', 'tests/types/kitchen-domain.d.ts', 'web/index.d.ts']);
});

test('tests/types/kitchen-domain.d.ts is what the generator writes for the kitchen today', async () => {
  const core = await loadCore();
  const committed = await readFile(join(ROOT, 'tests/types/kitchen-domain.d.ts'), 'utf8');
  assert.equal(domainTypes(core, core.kitchen), committed, 'regenerate it: node -e "…domainTypes(core, core.kitchen)" > tests/types/kitchen-domain.d.ts');
});

test('domainTypes is the package\'s own export, as docs/types.md tells a user with a domain kept by hand to import it', async () => {
  const pkg = await import('alfred-act');
  assert.equal(typeof pkg.domainTypes, 'function');
  const core = await pkg.loadCore();
  assert.equal(pkg.domainTypes(core, pkg.kitchen), domainTypes(core, core.kitchen));
});

test('listed values holding quotes are written as literals TypeScript reads as the same strings', async () => {
  const core = await loadCore();
  const domain = structuredClone(core.kitchen);
  domain.tables.recipes.columns.difficulty.values = ['easy', "don't", 'say "hi"', 'a\\b'];
  const line = domainTypes(core, domain).split('\n').find((text) => text.includes('difficulty:') && text.includes('easy'));
  assert.match(line, /'easy' \| "don't" \| "say \\"hi\\"" \| "a\\\\b"/);
});

test('the columns the types offer per table are the columns the core\'s tool schemas offer (the owner of an owner-scoped table and hidden ones left out; text search columns only as filters)', async () => {
  const core = await loadCore();
  const crm = JSON.parse(await readFile(join(ROOT, 'domains/crm/domain.json'), 'utf8'));
  for (const domain of [core.kitchen, crm]) {
    const read = core.toolDefinitions({ domain, schema: 'inline' }).find((tool) => tool.name === 'db_read').parameters;
    const fields = new Set(read.$defs.filter.properties.field.enum.filter((field) => field !== '_semantic'));
    // A text search column (tsvector) is no field of the schemas, but the core takes it with op search: the types offer it.
    const searchable = (table) => (column) => domain.tables[table].columns[column].type !== 'tsvector';
    const offered = new Set(read.properties.table.enum.flatMap((table) => visibleColumns(domain, domain.tables[table]).filter(searchable(table))));
    assert.deepEqual([...offered].sort(), [...fields].sort(), domain.name);
  }
  assert.ok(!visibleColumns(core.kitchen, core.kitchen.tables.recipes).includes('user_id'));
  assert.ok(!visibleColumns(core.kitchen, core.kitchen.tables.recipes).includes('embedding'));
});

test('a domain with functions: db_call takes its function names and each one\'s arguments (refs of the referenced table, listed values); unexposed tables are refs only', { timeout: 60_000 }, async () => {
  const core = await loadCore();
  const domain = {
    name: 'teams',
    tables: {
      accounts: { ref: 'account', exposed: false, label: ['name'], columns: { id: { type: 'uuid' }, name: { type: 'text' } } },
      projects: {
        ref: 'project',
        label: ['name'],
        columns: {
          id: { type: 'uuid', writable: false, nullable: false },
          account_id: { type: 'uuid', required: true, references: 'accounts' },
          name: { type: 'text', required: true },
          status: { type: 'text', nullable: false, values: ['active', 'archived'] },
        },
      },
    },
    functions: {
      archive_project: { read: false, args: { project_id: { type: 'uuid', required: true, references: 'projects' } }, returns: { table: 'projects' } },
      count_projects: { read: true, args: { status: { type: 'text', required: true, values: ['active', 'archived'] } }, returns: { type: 'integer' } },
      match_projects: { read: true, args: { query: { type: 'vector', required: true }, match_count: { type: 'integer' } }, returns: { table: 'projects', set: true } },
    },
  };
  assert.equal(core.validateDomain(domain).error, null);
  const text = domainTypes(core, domain);
  assert.match(text, /account_id: `account_\$\{number\}` \| `gen_account_\$\{number\}`;/);
  assert.doesNotMatch(text, /^    accounts: \{/m, 'a table the API does not serve is no table of the types');
  await mkdir(SCRATCH, { recursive: true });
  const dir = await mkdtemp(join(SCRATCH, 'domain-types-'));
  try {
    await writeFile(join(dir, 'teams.d.ts'), text);
    await writeFile(
      join(dir, 'use.mts'),
      [
        "import { createAct } from 'alfred-act';",
        "import type { Domain } from './teams.js';",
        "const act = createAct<Domain>({ url: 'http://127.0.0.1:54321' });",
        "await act.execute('db_call', { function: 'archive_project', args: { project_id: 'project_2' } });",
        "await act.execute('db_call', { function: 'count_projects', args: { status: 'active' } });",
        "await act.execute('db_call', { function: 'match_projects', args: { query: 'launch plans', match_count: null } });",
        "await act.execute('db_create', { table: 'projects', data: { account_id: 'account_1', name: 'Apollo' } });",
        '// @ts-expect-error no such function',
        "await act.execute('db_call', { function: 'archive_projects', args: {} });",
        '// @ts-expect-error project_id takes a project ref',
        "await act.execute('db_call', { function: 'archive_project', args: { project_id: 'account_1' } });",
        '// @ts-expect-error status is active or archived',
        "await act.execute('db_call', { function: 'count_projects', args: { status: 'paused' } });",
        '// @ts-expect-error the accounts are not served: no reads of them',
        "await act.execute('db_read', { table: 'accounts' });",
        '',
      ].join('\n'),
    );
    const { errors, listed } = await typecheck(dir, { strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2022', 'esnext.disposable'], types: [] }, ['use.mts']);
    assert.equal(errors, '');
    assert.ok(listed.includes(join(dir, 'teams.d.ts')) && listed.includes(join(ROOT, 'web/index.d.ts')));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('the check fails when tsc is missing, crashes, times out, or reports an error', { timeout: 60_000 }, async () => {
  await mkdir(SCRATCH, { recursive: true });
  const dir = await mkdtemp(join(SCRATCH, 'tsc-probe-'));
  try {
    const fake = async (name, script) => {
      const path = join(dir, name);
      await writeFile(path, `#!/bin/sh\n${script}\n`);
      await chmod(path, 0o755);
      return path;
    };
    await assert.rejects(tscProject('tests/types', { tsc: join(dir, 'no-such-tsc') }), /tsc did not run/);
    // An uncaught exception in node exits 1 with the stack on stderr only.
    await assert.rejects(tscProject('tests/types', { tsc: await fake('crash', 'echo "TypeError: boom" >&2; exit 1') }), /tsc failed in tests\/types without a diagnostic/);
    await assert.rejects(tscProject('tests/types', { tsc: await fake('killed', 'kill -9 $$') }), /tsc did not run/);
    await assert.rejects(tscProject('tests/types', { tsc: await fake('slow', 'sleep 30'), timeout: 500 }), /tsc did not run/);
    // A tsc that "passes" without reading anything is caught by the files it listed.
    const silent = await fake('silent', 'exit 0');
    assert.deepEqual(await tscProject('tests/types', { tsc: silent }), { errors: '', listed: [] });
    await assert.rejects(compiles('tests/types', ['tests/types/usage.ts'], { tsc: silent }), /tsc did not read tests\/types\/usage\.ts/);
    await writeFile(join(dir, 'wrong.mts'), 'export const n: number = "text";\n');
    await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, types: [] }, files: ['wrong.mts'] }));
    const { errors, listed } = await tscProject(dir);
    assert.match(errors, /wrong\.mts\(1,14\): error TS2322: Type 'string' is not assignable to type 'number'\./);
    assert.ok(listed.includes(join(dir, 'wrong.mts')));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('domainTypes: a user id is me or another user\'s ref, a profile\'s ref may be me; a table\'s writes are its Insert, Update and Delete', async () => {
  const core = await loadCore();
  const teams = {
    name: 'teams',
    tables: {
      accounts: { ref: 'account', writable: ['update'], label: ['name'], columns: { id: { type: 'uuid', writable: false }, name: { type: 'text', required: true } } },
      tasks: {
        ref: 'task',
        owner: 'created_by',
        columns: {
          id: { type: 'uuid', writable: false },
          account_id: { type: 'uuid', required: true, references: 'accounts' },
          created_by: { type: 'uuid', writable: false },
          assignee_id: { type: 'uuid', references: 'auth.users' },
        },
      },
    },
  };
  const types = domainTypes(core, teams);
  assert.match(types, /assignee_id\?: 'me' \| `user_\$\{number\}` \| null;/);
  assert.match(types, /created_by: 'me' \| `user_\$\{number\}`;/);
  assert.match(types, /accounts: \{[\s\S]*?Insert: never;\n\s*Update: \{\n\s*name\?: string;\n\s*\};\n\s*Delete: never;/);
  assert.match(types, /tasks: \{[\s\S]*?Delete: true;/);

  const withProfiles = structuredClone(teams);
  withProfiles.tables.profiles = { ref: 'profile', owner: 'id', label: ['username'], columns: { id: { type: 'uuid', writable: false }, username: { type: 'text' } } };
  const profiled = domainTypes(core, withProfiles);
  assert.match(profiled, /assignee_id\?: 'me' \| `profile_\$\{number\}` \| null;/);
  assert.match(profiled, /profiles: \{\n\s*Row: \{\n\s*id: `profile_\$\{number\}` \| `gen_profile_\$\{number\}` \| 'me';/);

  // A write-only table is typed for creates alone.
  const withFeedback = structuredClone(teams);
  withFeedback.tables.feedback = { ref: 'feedback', readable: false, columns: { id: { type: 'uuid', writable: false }, body: { type: 'text', required: true } } };
  const written = domainTypes(core, withFeedback);
  assert.match(written, /feedback: \{\n\s*Row: never;\n\s*Filters: never;\n\s*Insert: \{\n\s*body: string;\n\s*\};\n\s*Update: never;\n\s*Delete: never;/);
});
