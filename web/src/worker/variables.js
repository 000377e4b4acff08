// The environment variables the worker reads (config.js, modelConfigFromEnv),
// for the runtimes that pass a process environment on (worker/deno.js, scripts/serve-worker.mjs).
// What each one means: worker/README.md and docs/worker-auth.md.
import { policyVariables } from '../policy/options.js';

export const WORKER_VARIABLES = Object.freeze([
  'SUPABASE_URL',
  'SUPABASE_REST_URL',
  'SUPABASE_ANON_KEY',
  // Who is calling: every bearer token is verified before any work.
  'SUPABASE_JWT_SECRET',
  'SUPABASE_JWKS_URL',
  'SUPABASE_JWT_AUDIENCE',
  'SUPABASE_JWT_ISSUER',
  'ALFRED_JWT_CLOCK_SKEW_SECONDS',
  'ALFRED_JWKS_CACHE_SECONDS',
  'ALFRED_JWKS_REFETCH_SECONDS',
  // Per-user limits on /act/turn.
  'ALFRED_TURNS_PER_MINUTE',
  'ALFRED_CONCURRENT_TURNS',
  'ALFRED_MODEL_CALLS_PER_TURN',
  'ALFRED_TOKENS_PER_TURN',
  'ALFRED_MODEL_CALLS_PER_DAY',
  'ALFRED_TOKENS_PER_DAY',
  // Per-user limits on /act/execute and /mcp.
  'ALFRED_REQUESTS_PER_MINUTE',
  'ALFRED_CONCURRENT_REQUESTS',
  // The policy on writes (every route's act; /mcp confirms through the
  // client): ALFRED_READ_ONLY, ALFRED_TABLES, ALFRED_APPROVE,
  // ALFRED_MAX_AFFECTED, ALFRED_CONFIRM, from the policy table.
  ...policyVariables('worker'),
  // Signs the state /mcp hands a client between requests (a confirmation).
  'ALFRED_STATE_SECRET',
  // The authorization server /.well-known/oauth-protected-resource names.
  'ALFRED_AUTHORIZATION_SERVER',
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'ALFRED_LLM_MODEL',
  'ALFRED_LLM_RESPONSE_FORMAT',
  'ALLOWED_ORIGINS',
  'MAX_BODY_BYTES',
  // Where /mcp keeps its sessions: memory (default) or supabase.
  'ALFRED_MCP_STORE',
]);
