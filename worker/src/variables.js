// The environment variables the worker reads (config.js, modelConfigFromEnv),
// for the runtimes that pass a process environment on (deno.js, local.mjs).
export const WORKER_VARIABLES = Object.freeze([
  'SUPABASE_URL',
  'SUPABASE_ANON_KEY',
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'ALFRED_LLM_MODEL',
  'ALFRED_LLM_RESPONSE_FORMAT',
  'ALLOWED_ORIGINS',
  'MAX_BODY_BYTES',
]);
