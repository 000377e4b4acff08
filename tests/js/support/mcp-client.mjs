// The MCP SDK's Client as the tests make it: the tools carry an
// outputSchema, which the Client validates every structuredContent against.
// Its default validator (Ajv) compiles schemas with `new Function`, which
// the tests forbid (--disallow-code-generation-from-strings, as the package
// must run without it); the SDK's own interpreting validator
// (@cfworker/json-schema, as shipped by the SDK v2 client package) validates
// the same schemas without generating code.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/client/validators/cf-worker';

/**
 * `new Client(info, options)` with a validator that generates no code.
 *
 * @example
 * const client = mcpClient({ name: 'test', version: '1.0.0' }, { capabilities: { elicitation: {} } })
 */
export function mcpClient(info = { name: 'alfred-act-test', version: '1.0.0' }, options = {}) {
  return new Client(info, { jsonSchemaValidator: new CfWorkerJsonSchemaValidator(), ...options });
}
