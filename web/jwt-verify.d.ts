// Types for web/src/jwt-verify.js: verifying a Supabase access token with WebCrypto.

declare global {
  interface AbortSignal {}
}

/** The part of `fetch` the verifier uses to read a JWK set; the global fetch of every runtime fits. */
export type JwksFetch = (
  url: string,
  init: { headers: Record<string, string>; signal: AbortSignal },
) => Promise<{ ok: boolean; status: number; text(): Promise<string> }>;

/** A JSON Web Key as a JWK set publishes it (only the fields the verifier reads are named). */
export interface Jwk {
  kty: string;
  kid?: string;
  alg?: string;
  use?: string;
  key_ops?: string[];
  crv?: string;
  x?: string;
  y?: string;
  n?: string;
  e?: string;
  [field: string]: unknown;
}

export interface TokenVerifierOptions {
  /** The project's HS256 JWT secret (its UTF-8 bytes are the key). */
  jwtSecret?: string;
  /** Where the ES256/RS256 public keys are, e.g. `<SUPABASE_URL>/auth/v1/.well-known/jwks.json`. */
  jwksUrl?: string;
  /** A JWK set given inline instead of `jwksUrl`. */
  jwks?: { keys: Jwk[] };
  /** The `aud` a token must carry; default `'authenticated'`; `null` skips the check. */
  audience?: string | string[] | null;
  /** The exact `iss` a token must carry, when set. */
  issuer?: string;
  /** Accepted `role` claims; default `['authenticated']`. `service_role` is always refused. */
  roles?: string[];
  /** Leeway for `exp` and `nbf`; default 30. */
  clockSkewSeconds?: number;
  /** How long a fetched JWK set is used; default 600. */
  jwksCacheSeconds?: number;
  /** The least time between two JWK set fetches; default 30. */
  jwksRefetchSeconds?: number;
  fetch?: JwksFetch;
  /** The clock, in milliseconds. */
  now?: () => number;
}

export type TokenErrorCode =
  | 'missing_token'
  | 'malformed_token'
  | 'algorithm_not_allowed'
  | 'unknown_key'
  | 'invalid_signature'
  | 'token_expired'
  | 'token_not_yet_valid'
  | 'invalid_audience'
  | 'invalid_issuer'
  | 'invalid_claims'
  | 'service_key_refused'
  | 'not_a_user_token'
  | 'missing_subject'
  | 'jwks_unavailable';

/** Each code with its HTTP status (401, or 503 for `jwks_unavailable`). */
export declare const TOKEN_ERROR_STATUS: Readonly<Record<TokenErrorCode, 401 | 503>>;

export interface TokenError {
  status: 401 | 503;
  code: TokenErrorCode;
  message: string;
  hint?: string;
}

export interface VerifiedToken {
  /** The `sub` claim: the user's id. */
  userId: string;
  role: string;
  claims: { [claim: string]: unknown };
  alg: 'HS256' | 'ES256' | 'RS256';
  kid: string | null;
}

export type VerifyResult = { data: VerifiedToken; error: null } | { data: null; error: TokenError };

export interface TokenVerifier {
  /** Never throws. */
  verify(token: string): Promise<VerifyResult>;
}

/**
 * A verifier for one project's access tokens; the JWK set is cached inside it.
 * Throws a TypeError for unusable options.
 *
 * @example
 * const verifier = createTokenVerifier({ jwtSecret, jwksUrl: `${url}/auth/v1/.well-known/jwks.json` })
 * const { data, error } = await verifier.verify(accessToken)
 */
export declare function createTokenVerifier(options: TokenVerifierOptions): TokenVerifier;

/**
 * verify with a verifier kept per options object (pass the same object to share its key cache).
 *
 * @example
 * const { data, error } = await verifyAccessToken(token, { jwtSecret })
 */
export declare function verifyAccessToken(token: string, options: TokenVerifierOptions): Promise<VerifyResult>;
