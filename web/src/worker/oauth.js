// OAuth 2.0 Protected Resource Metadata (RFC 9728) for /mcp: which
// authorization server issues the tokens /mcp takes (the project's Supabase
// Auth, `<SUPABASE_URL>/auth/v1`), so an MCP client that gets a 401 can find
// where to sign the user in. The 401 names the document in its
// `WWW-Authenticate: Bearer resource_metadata="…"` (RFC 9728 section 5.1).
// How tokens are audience-checked: docs/worker-auth.md.
import { domainName } from '../mcp/tools.js';
import { codes } from '../../dist/error-codes.mjs';

/**
 * The metadata paths: the root form and the form for the /mcp resource
 * (`/.well-known/oauth-protected-resource` + the resource's path).
 */
export const PROTECTED_RESOURCE_PATHS = Object.freeze(['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']);

/**
 * The metadata document for this worker's /mcp: `resource` (the /mcp URL,
 * from the request's origin), `authorization_servers` (config.authorizationServer),
 * `bearer_methods_supported: ['header']`, a `resource_name` naming the domain.
 *
 * @example
 * protectedResourceMetadata(request, config, domain)
 * // { resource: 'https://worker.example/mcp', authorization_servers: ['https://abcd.supabase.co/auth/v1'], bearer_methods_supported: ['header'], resource_name: 'alfred-act: crm domain' }
 */
export function protectedResourceMetadata(request, config, domain) {
  const { origin } = new URL(request.url);
  return {
    resource: `${origin}/mcp`,
    ...(config.authorizationServer ? { authorization_servers: [config.authorizationServer] } : {}),
    bearer_methods_supported: ['header'],
    resource_name: `alfred-act: ${domainName(domain)} domain`,
  };
}

/**
 * The `WWW-Authenticate` value of a 401 from /mcp: `Bearer
 * resource_metadata="<origin>/.well-known/oauth-protected-resource/mcp"`,
 * with `error="invalid_token"` and the refusal's code when a token was sent
 * (RFC 6750: no error when none was).
 *
 * @example
 * bearerChallenge(request, { code: 'token_expired' })
 * // 'Bearer resource_metadata="https://worker.example/.well-known/oauth-protected-resource/mcp", error="invalid_token", error_description="token_expired"'
 */
export function bearerChallenge(request, error) {
  const { origin } = new URL(request.url);
  const metadata = `resource_metadata="${origin}${PROTECTED_RESOURCE_PATHS[1]}"`;
  return error.code === codes.missing_token ? `Bearer ${metadata}` : `Bearer ${metadata}, error="invalid_token", error_description="${error.code}"`;
}
