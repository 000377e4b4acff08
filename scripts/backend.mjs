// Which database the CLI and the main command talk to: a Supabase project or
// PostgREST from the environment, else a fresh embedded local stack.
import { loadPack, readPackDomain } from '../db/packs.mjs';
import { startStack } from '../db/stack.mjs';

/**
 * `{ url, apiKey, accessToken, userId, domain, local, stop() }`; `url` is the
 * Supabase URL (PostgREST under /rest/v1). From SUPABASE_URL,
 * SUPABASE_ANON_KEY, ALFRED_ACCESS_TOKEN and ALFRED_USER_ID when SUPABASE_URL
 * is set (`domain` undefined: the caller's); otherwise a seeded local stack of
 * the domain pack `schema` signed in as its first user, with the pack's domain.
 */
export async function openBackend(env = process.env, { user = 0, schema = 'kitchen' } = {}) {
  if (env.SUPABASE_URL) {
    for (const name of ['SUPABASE_ANON_KEY', 'ALFRED_ACCESS_TOKEN', 'ALFRED_USER_ID']) {
      if (!env[name]) throw new Error(`${name} is required with SUPABASE_URL (the user's JWT and id, never a service key)`);
    }
    return {
      url: env.SUPABASE_URL,
      apiKey: env.SUPABASE_ANON_KEY,
      accessToken: env.ALFRED_ACCESS_TOKEN,
      userId: env.ALFRED_USER_ID,
      local: null,
      stop: async () => {},
    };
  }
  const pack = await loadPack(schema);
  const domain = readPackDomain(pack.name);
  const stack = await startStack({ schema });
  const signedIn = stack.users[user];
  return { url: stack.supabaseUrl, apiKey: stack.anonKey, accessToken: signedIn.token, userId: signedIn.id, domain, local: stack, stop: () => stack.stop() };
}
