// alfred-act/worker: the edge worker's handler for Cloudflare Workers, Deno
// and any runtime with fetch's Request and Response, serving the domain it is
// given (worker/README.md is the template that uses it).
import type { DomainConfig, Embedder, LoadOptions } from './index.js';
import type { McpWritePolicy, SessionStore } from './mcp.js';

// These merge with the full declarations when the project's lib (dom,
// @cloudflare/workers-types, Deno's) has them, and let this file compile
// when it does not.
declare global {
  interface Request {}
  interface Response {}
}

/** The worker's configuration as read from its environment (worker/README.md). */
export interface WorkerConfig {
  supabaseUrl: string | null;
  restUrl: string | null;
  anonKey: string;
  allowedOrigins: string[];
  maxBodyBytes: number;
  model: unknown;
  auth: unknown;
  limits: Record<string, number>;
  mcpStore: 'memory' | 'supabase';
  /** The write policy from ALFRED_READ_ONLY, ALFRED_TABLES, ALFRED_APPROVE, ALFRED_MAX_AFFECTED, ALFRED_CONFIRM. */
  policy: McpWritePolicy;
  /** What signs /mcp's confirmation state: ALFRED_STATE_SECRET, one derived from the JWT secret, or null (a key of the isolate). */
  stateSecret: string | { derivedFrom: string } | null;
  /** The authorization server /.well-known/oauth-protected-resource names. */
  authorizationServer: string | null;
}

/** One answer of a limit store's `take`. */
export interface LimitTake {
  allowed: boolean;
  used: number;
  retryAfterMs: number;
}

/** One answer of a limit store's `acquire`. */
export interface LimitAcquire {
  allowed: boolean;
  lease: string | null;
  retryAfterMs: number;
}

/**
 * Where the per-user limits count (docs/worker-auth.md): each method atomic
 * per key, returning a value or a promise.
 */
export interface LimitStore {
  take(key: string, request: { amount: number; limit: number; windowMs: number; now: number; force?: boolean }): LimitTake | Promise<LimitTake>;
  acquire(key: string, request: { limit: number; leaseMs: number; now: number }): LimitAcquire | Promise<LimitAcquire>;
  release(key: string, lease: string): void | Promise<void>;
}

/** The runtime's ExecutionContext, where it has one (Workers); optional elsewhere. */
export interface WorkerContext {
  waitUntil(promise: Promise<unknown>): void;
}

/**
 * createHandler's options. The write policy (`readOnly`, `tables`, `approve`,
 * `maxAffected`, `confirm`) wins over its variable; `approve` applies to
 * /act/* as given and to /mcp as `'changes'` (updates and deletes) unless given (confirmed through
 * the client; `confirm: false` runs writes unasked).
 */
export interface CreateHandlerOptions extends Pick<LoadOptions, 'wasm' | 'wasmModule'>, McpWritePolicy {
  /** The domain served: the JSON `alfred-act domain pull` writes. Required. */
  domain: DomainConfig;
  /** The per-user limits' store for `env` (default: one MemoryLimitStore per isolate). */
  limitStore?: (env: Record<string, unknown>) => LimitStore;
  /** Where /mcp keeps sessions (default: ALFRED_MCP_STORE picks memory or the act_sessions table). */
  sessionStore?: (env: Record<string, unknown>, config: WorkerConfig) => SessionStore;
  /**
   * Turns the text of db_call's `vector` arguments (and semantic search) into
   * vectors, of the size the database's functions take: an embedder, or one
   * made from each request's `env` (a binding). Default: the lexical embedder for the kitchen
   * demo's domain (its rows were embedded with it); for any other domain,
   * none: a search by meaning is `embedding_failed`, saying what to pass.
   */
  embedder?: Embedder | ((env: Record<string, unknown>) => Embedder);
}

/** A module worker: `export default` it. */
export interface WorkerHandler {
  fetch(request: Request, env: Record<string, unknown>, ctx?: WorkerContext): Promise<Response>;
}

/**
 * The edge worker serving `domain`: `/act/execute`, `/act/turn`, `/mcp` and
 * `/health`, every request's Supabase JWT verified before anything is spent.
 * Throws an AlfredError (`invalid_option`) when `domain` is not an object; a
 * domain the core refuses is a 500 `core_unavailable` with the path into it.
 *
 * @example
 * import { createHandler } from 'alfred-act/worker'
 * import domain from '../domain.json' with { type: 'json' }
 *
 * export default createHandler({ domain })
 */
export declare function createHandler(options: CreateHandlerOptions): WorkerHandler;

/** The environment variables the worker reads, for runtimes that pass a process environment on (Deno, Node). */
export declare const WORKER_VARIABLES: readonly string[];

/**
 * The per-isolate limit store (the default).
 *
 * @example
 * export default createHandler({ domain, limitStore: () => store }) // const store = new MemoryLimitStore()
 */
export declare class MemoryLimitStore implements LimitStore {
  take(key: string, request: { amount: number; limit: number; windowMs: number; now: number; force?: boolean }): LimitTake;
  acquire(key: string, request: { limit: number; leaseMs: number; now: number }): LimitAcquire;
  release(key: string, lease: string): void;
}

/** The take rule on one key's window, for stores of your own: the answer and the window to keep. */
export declare function takeFromWindow(
  window: { used: number; endsAt: number } | null,
  request: { amount: number; limit: number; windowMs: number; now: number; force?: boolean },
): { answer: LimitTake; window: { used: number; endsAt: number } | null };

/** The acquire rule on one key's leases, for stores of your own: the answer and the leases to keep. */
export declare function acquireLease(
  leases: Record<string, number> | null | undefined,
  request: { limit: number; leaseMs: number; now: number; lease: string },
): { answer: LimitAcquire; leases: Record<string, number> };
