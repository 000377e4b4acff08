// The local stack's users on an app whose sign-up trigger reads the user's
// metadata (database.dev's handle): a user created without it stops the start
// with an error naming the user and the metadata it got; with it, the
// trigger's row is there (docs/local-stack.md, Users).
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { startStack } from '../../db/local-stack.mjs';
import { SCRATCH } from './support/paths.mjs';

const MIGRATION = `
create table public.handles (user_id uuid primary key references auth.users (id), handle text not null);
create function public.handle_new_user() returns trigger language plpgsql security definer set search_path = '' as $$
begin
  insert into public.handles (user_id, handle) values (new.id, new.raw_user_meta_data ->> 'handle');
  return new;
end $$;
create trigger on_auth_user_created after insert on auth.users for each row execute function public.handle_new_user();
`;

test('a user the sign-up trigger refuses stops the start, named with its metadata; with the metadata it is created', { timeout: 120_000 }, async (t) => {
  const migrations = join(SCRATCH, `signup-metadata-${process.pid}`);
  mkdirSync(migrations, { recursive: true });
  t.after(() => rmSync(migrations, { recursive: true, force: true }));
  writeFileSync(join(migrations, '20250101000000_handles.sql'), MIGRATION);
  await assert.rejects(startStack({ migrations, users: [{ email: 'ada@example.com', password: 'pw-ada-1' }] }), {
    message: /^creating the user ada@example\.com failed with no user_metadata: null value in column "handle" .*; a trigger of the app on auth\.users may need metadata/,
  });
  const stack = await startStack({ migrations, users: [{ email: 'ada@example.com', password: 'pw-ada-1', user_metadata: { handle: 'ada' } }] });
  t.after(() => stack.stop());
  const response = await fetch(`${stack.supabaseUrl}/rest/v1/handles?select=handle`, { headers: { apikey: stack.serviceKey, authorization: `Bearer ${stack.serviceKey}` } });
  assert.deepEqual(await response.json(), [{ handle: 'ada' }]);
});
