// Compile-time checks of a domain's generated types: tests/types/kitchen-domain.d.ts
// is what `alfred-act domain pull --types` writes for the kitchen (a test holds
// it equal to the generator's output). With them, a table, column, value or
// function the domain does not have is a compile error; `@ts-expect-error`
// lines prove each is rejected.
import { createAct, kitchen, loadCore, type Act, type TableRow, type ToolParams } from 'alfred-act';
import type { LoopAct } from 'alfred-act/loop';
import type { Domain } from './kitchen-domain.js';

const act = createAct<Domain>({ url: 'http://127.0.0.1:54321', domain: kitchen });
const core = await loadCore<Domain>({ domain: kitchen });
const direct: Act<Domain> = core.createAct({ url: 'http://127.0.0.1:54321' });

// What the domain has compiles: columns, refs, enum values, embeds, batches, aggregates.
await act.execute('db_read', {
  table: 'recipes',
  filters: [
    { field: 'cuisine', op: 'ilike', value: '%thai%' },
    { field: 'difficulty', op: 'in', value: ['easy', 'medium'] },
    { field: 'parent_recipe_id', op: '=', value: 'recipe_3' },
    { field: 'prep_time_minutes', op: '<=', value: 30 },
    { field: 'flavor_tags', op: 'contains', value: ['spicy'] },
    { field: 'source_url', op: 'is_null' },
    { field: 'description', op: 'is_null', value: false },
    { field: 'difficulty', op: 'ilike', value: 'e%' },
    { field: '_semantic', op: 'similar', value: 'a light dinner' },
  ],
  or_filters: [{ field: 'servings', op: 'gte', value: 4 }],
  columns: ['name', 'cuisine', 'recipe_ingredients(name, quantity)'],
  order_by: 'prep_time_minutes',
  order_dir: 'asc',
  limit: 10,
});
await act.execute('db_read', { table: 'ingredients', columns: '*' });
await direct.execute('db_create', {
  table: 'recipe_ingredients',
  data: [
    { recipe_id: 'recipe_1', name: 'basil', quantity: 2, unit: 'leaves' },
    { recipe_id: 'gen_recipe_1', ingredient_id: 'ing_4', name: 'rice' },
  ],
});
await act.execute('db_create', { table: 'recipes', data: { id: 'gen_recipe_2', name: 'Pad kra pao', instructions: ['stir-fry'] } });
await act.execute('db_update', { table: 'inventory', filters: [{ field: 'id', op: '=', value: 'inv_2' }], data: { quantity: 3, location: null } });
await act.execute('db_delete', { table: 'meal_plans', filters: [{ field: 'date', op: '<', value: '2026-01-01' }] });
await act.execute('db_aggregate', {
  table: 'inventory',
  group_by: ['location'],
  metrics: [{ fn: 'count' }, { fn: 'sum', field: 'quantity' }],
  having: [{ metric: 1, op: '>', value: 2 }],
  order_by: { metric: 1, dir: 'desc' },
  limit: 5,
});
const typedCore = core.buildRequest('db_read', { table: 'tasks', filters: [{ field: 'completed', op: '=', value: false }] }, { restUrl: 'http://127.0.0.1:3000' });
const row: TableRow<Domain, 'recipes'> = { ...({} as Domain['tables']['recipes']['Row']) };
const name: string = row.name;
const id: `recipe_${number}` | `gen_recipe_${number}` = row.id;
// A typed act is an act: the loop, the adapters and untyped params types take it.
const loopAct: LoopAct = direct;
const untyped: Act = direct;
const params: ToolParams<Domain>['db_read'] = { table: 'shopping_list', filters: [{ field: 'is_purchased', op: '=', value: false }] };
// A null test takes a boolean; a pattern is text, on any column.
await act.execute('db_read', {
  table: 'recipes',
  // @ts-expect-error a null test's value is a boolean
  filters: [{ field: 'source_url', op: 'is_null', value: 'yes' }],
});
await act.execute('db_read', {
  table: 'recipes',
  // @ts-expect-error a pattern is text
  filters: [{ field: 'servings', op: 'like', value: 4 }],
});
// Tool names from a model stay strings at run time: the core checks them.
await act.callTool('db_reed', { table: 'recipez' });
void [typedCore, name, id, loopAct, untyped, params];

// What the domain does not have is rejected.
// @ts-expect-error no table recipez
await act.execute('db_read', { table: 'recipez' });
// @ts-expect-error no column cusine in recipes
await act.execute('db_read', { table: 'recipes', filters: [{ field: 'cusine', op: '=', value: 'thai' }] });
// @ts-expect-error no column nme in recipes
await act.execute('db_read', { table: 'recipes', columns: ['nme'] });
// @ts-expect-error order_by names a column
await act.execute('db_read', { table: 'recipes', order_by: 'rating' });
// @ts-expect-error the owner column is never the model's (recipes are scoped to their owner)
await act.execute('db_read', { table: 'recipes', filters: [{ field: 'user_id', op: '=', value: 'me' }] });
// @ts-expect-error difficulty is easy, medium or hard
await act.execute('db_read', { table: 'recipes', filters: [{ field: 'difficulty', op: '=', value: 'trivial' }] });
// @ts-expect-error a reference holds a ref of its table (recipe_N), not of another
await act.execute('db_read', { table: 'recipe_ingredients', filters: [{ field: 'recipe_id', op: '=', value: 'inv_1' }] });
// @ts-expect-error servings is a number
await act.execute('db_update', { table: 'recipes', filters: [{ field: 'id', op: '=', value: 'recipe_1' }], data: { servings: 'four' } });
// @ts-expect-error no column colour in inventory
await act.execute('db_update', { table: 'inventory', filters: [{ field: 'id', op: '=', value: 'inv_1' }], data: { colour: 'red' } });
// @ts-expect-error a create of recipes needs name and instructions
await act.execute('db_create', { table: 'recipes', data: { name: 'Soup' } });
// @ts-expect-error created_at is the database's
await act.execute('db_create', { table: 'tasks', data: { title: 'Shop', created_at: '2026-01-01' } });
// @ts-expect-error a create sets a key only as a gen_ ref
await act.execute('db_create', { table: 'tasks', data: { id: 'task_1', title: 'Shop' } });
// @ts-expect-error ingredients is read-only
await act.execute('db_delete', { table: 'ingredients', filters: [{ field: 'id', op: '=', value: 'ing_1' }] });
// @ts-expect-error group_by names columns of the table
await act.execute('db_aggregate', { table: 'inventory', group_by: ['aisle'], metrics: [{ fn: 'count' }] });
// @ts-expect-error the kitchen has no functions
await act.execute('db_call', { function: 'archive_recipe' });
// @ts-expect-error buildRequest checks the core's domain type too
core.buildRequest('db_read', { table: 'recipez' }, { restUrl: 'http://127.0.0.1:3000' });

// A table that takes some writes and not others (`"writable": ["update"]`, as `domain pull` writes it for a
// team's accounts its policies let members rename, not create or delete): db_update names it, the others do not.
// Types written before `Delete` existed keep their meaning (a table with an Insert takes deletes).
interface Teams {
  tables: {
    accounts: {
      Row: { id: `account_${number}`; name: string };
      Filters: { id: `account_${number}`; name: string };
      Insert: never;
      Update: { name?: string };
      Delete: never;
      Relations: never;
    };
    invites: {
      Row: { id: `invite_${number}`; email: string };
      Filters: { id: `invite_${number}`; email: string };
      Insert: { email: string };
      Update: never;
      Relations: never;
    };
    // Write-only ("readable": false): creates alone.
    feedback: {
      Row: never;
      Filters: never;
      Insert: { body: string };
      Update: never;
      Delete: never;
      Relations: never;
    };
  };
  functions: {};
}
const teams = createAct<Teams>({ url: 'http://127.0.0.1:54321', domain: kitchen });
await teams.execute('db_update', { table: 'accounts', filters: [{ field: 'id', op: '=', value: 'account_1' }], data: { name: 'Acme Inc' } });
await teams.execute('db_create', { table: 'invites', data: { email: 'ada@example.com' } });
await teams.execute('db_delete', { table: 'invites', filters: [{ field: 'email', op: '=', value: 'ada@example.com' }] });
// @ts-expect-error accounts takes no create
await teams.execute('db_create', { table: 'accounts', data: { name: 'Globex' } });
// @ts-expect-error accounts takes no delete
await teams.execute('db_delete', { table: 'accounts', filters: [{ field: 'id', op: '=', value: 'account_1' }] });
await teams.execute('db_create', { table: 'feedback', data: [{ body: 'Love it' }] });
// @ts-expect-error feedback is write-only: no reads
await teams.execute('db_read', { table: 'feedback' });
// @ts-expect-error feedback is write-only: no aggregates
await teams.execute('db_aggregate', { table: 'feedback', metrics: [{ fn: 'count' }] });
// @ts-expect-error invites takes no update
await teams.execute('db_update', { table: 'invites', filters: [{ field: 'id', op: '=', value: 'invite_1' }], data: { email: 'b@example.com' } });
