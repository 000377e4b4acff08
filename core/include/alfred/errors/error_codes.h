#pragma once
/// The error-code catalog: every `code` an alfred-act error can carry, one
/// line each, whoever emits it (the core, the database mapping, the package,
/// the model client, the edge worker, the MCP server). The core emits codes
/// only through the constants below (`codes::invalid_param`): `error_code`
/// cannot be made from text, so a code missing here does not compile. The
/// package's `errorCodes`, the TypeScript `ErrorCode` union and
/// docs/error-codes.md are generated from these lines
/// (scripts/generate-error-codes.mjs); a test checks that the package, the
/// worker and the MCP server emit no code missing here.
///
///   return error{codes::unknown_column, "filters[0].field", "inventory has no column 'colour'", hint};
///   if (err.code == codes::invalid_json) …
///
/// The catalog is constant data: an `error_code` is a view of its name in
/// static storage, valid for the whole program, and is copied freely.

#include <string_view>

// One line per code: X(code, origin, "what it means"). Origins: core (the
// call or an option was refused before any request), executor (the call ran
// and something other than the database failed), database (PostgREST or
// PostgreSQL refused it), package (the JavaScript package), model (the LLM or
// embedding endpoint), worker (the edge worker's HTTP API), mcp (the MCP
// server). Keep each group sorted by code.
// clang-format off
#define ALFRED_ERROR_CODES(X) \
  X(action_not_allowed, core, "the decision's action is not one the step type allows") \
  X(already_saved, core, "a gen_ ref was already saved; update the row it was saved as") \
  X(approval_required, core, "the write needs the host's approval; nothing was sent (error.preview says what it would change)") \
  X(deleted_ref, core, "the ref names a row deleted earlier in the session") \
  X(generated_filter, core, "a read of unsaved generated artifacts filtered on something other than id") \
  X(invalid_content, core, "a generated artifact's content is not a JSON object") \
  X(invalid_data, core, "the rows to write are not an object, a list of objects or JSON text of them") \
  X(invalid_decision, core, "the model's decision does not have the ActDecision shape") \
  X(invalid_decision_json, core, "the model's decision is not JSON") \
  X(invalid_domain, core, "a domain configuration is refused; the path names the part") \
  X(invalid_filter, core, "a filter is not {field, op, value} with a value its op takes") \
  X(invalid_json, core, "text that must be JSON is not") \
  X(invalid_option, core, "an option is missing, mistyped or unknown") \
  X(invalid_param, core, "a tool-call parameter has the wrong type or value") \
  X(invalid_params, core, "the tool-call parameters are not a JSON object") \
  X(invalid_prompt_input, core, "the input to a prompt builder has the wrong shape") \
  X(invalid_state, core, "a registry state to restore is not one toJSON() wrote") \
  X(invalid_uuid, core, "a value in a UUID column is not a UUID") \
  X(invalid_value, core, "a value does not fit its column's type or allowed values") \
  X(invented_uuid, core, "the model wrote a UUID no ref stands for; it must use refs") \
  X(missing_argument, core, "a db_call leaves out an argument the function requires") \
  X(missing_column, core, "a create leaves out a required column") \
  X(missing_filter, core, "an update or delete has no filter that selects rows") \
  X(missing_param, core, "a required tool-call parameter is absent") \
  X(missing_user_id, core, "a write to a user-owned table without the signed-in user's id") \
  X(mixed_refs, core, "one read mixes unsaved gen_ refs and database rows") \
  X(not_a_ref, core, "a ref column was given a label (a name) instead of a ref") \
  X(not_signed_in, core, "a user-owned table was called without a signed-in user's token") \
  X(nul_byte, core, "a text value holds a NUL byte, which PostgreSQL refuses") \
  X(pending_ref, core, "a gen_ ref that has not been saved was used where a row is needed") \
  X(preview_changed, core, "an approved write would now change rows its preview did not show; nothing was sent") \
  X(raw_id, core, "the model wrote a row's key (a UUID, a number) where a ref belongs; refs only") \
  X(read_only, core, "a create, update or delete on an act made with readOnly: true; nothing was sent") \
  X(read_only_column, core, "a write sets a column the domain marks read-only") \
  X(read_only_table, core, "a write the domain does not let the table take (read-only, or not in its writable list)") \
  X(ref_type_mismatch, core, "a ref of one table was used where another table's ref belongs") \
  X(registry_full, core, "a table's ref numbers are used up for this session") \
  X(requires_executor, core, "the call (a semantic search) needs createAct().execute, not a plain request") \
  X(reserved_column, core, "a column name is a PostgREST keyword (select, order, or, and, …)") \
  X(service_key_refused, core, "a service-role key was given where a user's token belongs") \
  X(state_of_another_user, core, "the refs were made for another signed-in user, whose rows their labels show") \
  X(system_column, core, "the call names the owner column, which is applied automatically") \
  X(unknown_argument, core, "the function takes no such argument") \
  X(unknown_column, core, "the table has no such column") \
  X(unknown_operator, core, "a filter's op is not one the tools know") \
  X(unknown_param, core, "the tool takes no such parameter") \
  X(unknown_ref, core, "the ref was never shown in this session") \
  X(unknown_relation, core, "an embed names a relation the table does not have") \
  X(unknown_table, core, "the domain has no such table") \
  X(unknown_template, core, "a prompt template name the core does not have") \
  X(unknown_tool, core, "the tool is not one of db_read, db_create, db_update, db_delete, db_call, db_aggregate") \
  X(unsupported_filter, core, "the filter kind is not available on this table (semantic search)") \
  X(unsupported_state_version, core, "a registry state from a newer version of the package") \
  X(url_too_long, core, "the request URL would exceed the limit; narrow the filters") \
  X(write_only_table, core, "a read, aggregate, update or delete of a table users may only add rows to (\"readable\": false)") \
  X(aggregate_too_large, executor, "a total the server does not compute would need more rows than are read to compute it; nothing was summed") \
  X(embedding_failed, executor, "the embedder failed or returned something other than numbers") \
  X(invalid_response, executor, "the database answered something the executor cannot use") \
  X(network_error, executor, "the request was not sent or no answer came; nothing was written") \
  X(params_too_large, executor, "the params are over the size limit") \
  X(response_too_large, executor, "the answer is over the byte or row limit; nothing was copied") \
  X(save_in_progress, executor, "another call is saving the same gen_ artifact") \
  X(timeout, executor, "no answer in time (or the database cancelled a slow query)") \
  X(too_many_rows, executor, "an update or delete would change more rows than maxAffected allows; nothing was changed") \
  X(value_too_large, executor, "a string value is over the size limit") \
  X(write_outcome_unknown, executor, "a write was sent but its answer was lost; read before retrying") \
  X(ambiguous_function, database, "the database has several functions of that name that fit the arguments (PGRST203)") \
  X(bad_request, database, "PostgREST refused the request (400) for a reason without its own code") \
  X(check_violation, database, "a value is outside what a CHECK constraint allows") \
  X(conflict, database, "the write conflicts with existing rows (409)") \
  X(duplicate, database, "a row with this unique value already exists") \
  X(foreign_key_violation, database, "a referenced row is missing, or other rows still reference this one") \
  X(function_error, database, "the function refused the call with an error of its own (RAISE EXCEPTION), or failed inside the database (an operator or function it uses does not take its values)") \
  X(invalid_body, database, "PostgREST could not read the request body") \
  X(invalid_query, database, "PostgREST could not parse the query string") \
  X(missing_required, database, "a NOT NULL column got no value") \
  X(not_found, database, "no such row or route (404, or PostgREST's single-row refusal)") \
  X(permission_denied, database, "row level security or a grant refused it (403, 42501)") \
  X(rate_limited, database, "too many requests (429); retry after the time given") \
  X(read_only_transaction, database, "a function called as a read tried to change data, which the database refused") \
  X(rule_violation, database, "a rule of the database (a trigger, a function a policy calls) refused the call with an error of its own (RAISE EXCEPTION)") \
  X(server_error, database, "the database or a gateway failed (5xx)") \
  X(unauthorized, database, "the token is expired or invalid (401)") \
  X(unavailable, database, "the database is busy or starting (503)") \
  X(unknown_function, database, "the domain or the database has no such function") \
  X(aborted, package, "the caller's AbortSignal ended the call") \
  X(backend_unavailable, package, "the CLI's local stack did not start") \
  X(core_unavailable, package, "the WebAssembly core did not load") \
  X(executor_error, package, "the loop's execute function threw instead of resolving") \
  X(input_too_large, package, "text handed to the core is over its size limit") \
  X(internal_error, package, "the core failed unexpectedly; nothing further was sent") \
  X(invalid_artifacts, package, "a generate step's artifacts are not usable") \
  X(invalid_openapi, package, "domain pull: the database's OpenAPI description is not usable") \
  X(invalid_overrides, package, "domain pull: the overrides file is refused") \
  X(invalid_plan, package, "the model's plan is not usable") \
  X(not_ready, package, "the core is not loaded yet; await act.ready") \
  X(out_of_memory, package, "the WebAssembly memory ran out during the call") \
  X(owner_column_not_found, package, "domain pull: no table has the owner column given (--owner-column)") \
  X(repeated_call, package, "the same tool call already ran in this step") \
  X(session_error, package, "supabase-js could not give the session (getSession failed)") \
  X(tool_not_allowed, package, "the tool is not allowed in this kind of step") \
  X(unknown_action, package, "the decision's action is not one the loop knows") \
  X(wasm_fetch_failed, package, "the .wasm file could not be fetched") \
  X(bad_response, model, "the model or embedding endpoint answered something unusable") \
  X(http_error, model, "the model, embedding or OpenAPI endpoint answered an HTTP error") \
  X(model_error, model, "the model call failed for a reason without its own code") \
  X(algorithm_not_allowed, worker, "the token's algorithm is none, unknown or not the key's (algorithm confusion)") \
  X(auth_not_configured, worker, "neither a JWT secret nor a JWKS is configured; the worker refuses to run unverified") \
  X(body_too_large, worker, "the request body is over the size limit") \
  X(daily_model_calls_exhausted, worker, "the user's model calls for today are used up") \
  X(daily_tokens_exhausted, worker, "the user's model tokens for today are used up") \
  X(invalid_audience, worker, "the token's aud is not the one configured") \
  X(invalid_claims, worker, "the token's claims are not usable (exp, nbf, role or sub missing or mistyped)") \
  X(invalid_issuer, worker, "the token's iss is not the one configured") \
  X(invalid_signature, worker, "the token's signature does not verify") \
  X(jwks_unavailable, worker, "the project's JWK set could not be fetched") \
  X(malformed_token, worker, "the bearer token is not a JWT") \
  X(method_not_allowed, worker, "the route does not take this HTTP method") \
  X(missing_subject, worker, "the token has no sub (user id)") \
  X(missing_token, worker, "no bearer token") \
  X(model_not_configured, worker, "/act/turn without a model endpoint configured") \
  X(not_a_user_token, worker, "the token is not a signed-in user's (anon or service role)") \
  X(origin_not_allowed, worker, "the request's Origin is not allowed") \
  X(token_expired, worker, "the token's exp has passed") \
  X(token_not_yet_valid, worker, "the token's nbf is in the future") \
  X(too_many_concurrent_requests, worker, "the user has too many /act/execute or /mcp requests running") \
  X(too_many_concurrent_turns, worker, "the user has too many turns running") \
  X(too_many_requests, worker, "the user sent too many /act/execute or /mcp requests this minute") \
  X(too_many_turns, worker, "the user started too many turns this minute") \
  X(turn_model_calls_exceeded, worker, "the turn used up its model calls") \
  X(turn_state_too_large, worker, "the turn state sent back is over its size or message limit") \
  X(turn_tokens_exceeded, worker, "the turn used up its model tokens") \
  X(unknown_key, worker, "the token's kid is not in the JWK set") \
  X(unsupported_media_type, worker, "the body is not application/json") \
  X(worker_misconfigured, worker, "the worker's environment variables are refused") \
  X(approval_declined, mcp, "the user declined (or dismissed) the confirmation of a write; nothing was sent") \
  X(header_mismatch, mcp, "an MCP request header (MCP-Protocol-Version, Mcp-Method, Mcp-Name) is missing or differs from the body") \
  X(invalid_request, mcp, "not a JSON-RPC 2.0 request, notification or response") \
  X(invalid_request_state, mcp, "an MCP requestState does not verify (forged, another user's or another call's)") \
  X(message_too_large, mcp, "an MCP message is over the size the server reads") \
  X(method_not_found, mcp, "the MCP method is not one the server has") \
  X(missing_request_meta, mcp, "a 2026-07-28 MCP request lacks its protocol version or client capabilities in _meta") \
  X(missing_session_id, mcp, "the request has no Mcp-Session-Id") \
  X(not_acceptable, mcp, "the Accept header allows neither JSON nor an event stream") \
  X(refs_expired, mcp, "a ref from an earlier call is no longer known: the refs kept between calls expired") \
  X(session_not_found, mcp, "the MCP session is unknown or expired") \
  X(session_store_failed, mcp, "the MCP session store failed") \
  X(token_unavailable, mcp, "the access token could not be read") \
  X(unknown_resource, mcp, "the MCP resource URI is unknown") \
  X(unsupported_protocol_version, mcp, "the MCP protocol version is not supported") \
  X(user_changed, mcp, "the access token is now another user's than the session's")
// clang-format on

namespace alfred {

/// A code from the catalog. Made only by `codes::…` (or empty), compared with
/// text or another code, read as text with `name()`.
class error_code {
 public:
  constexpr error_code() = default;
  constexpr std::string_view name() const { return name_; }
  constexpr operator std::string_view() const { return name_; }
  constexpr bool empty() const { return name_.empty(); }
  friend constexpr bool operator==(error_code a, error_code b) { return a.name_ == b.name_; }
  friend constexpr bool operator==(error_code a, std::string_view b) { return a.name_ == b; }
  friend constexpr bool operator==(error_code a, const char* b) { return a.name_ == std::string_view(b); }

 private:
  friend struct error_code_maker;
  constexpr explicit error_code(std::string_view name) : name_(name) {}
  std::string_view name_;
};

/// How the catalog lines become constants; not for other code.
struct error_code_maker {
  static constexpr error_code make(std::string_view name) { return error_code(name); }
};

namespace codes {
#define ALFRED_ERROR_CODE_CONSTANT(code, origin, meaning) \
  inline constexpr error_code code = error_code_maker::make(#code);
ALFRED_ERROR_CODES(ALFRED_ERROR_CODE_CONSTANT)
#undef ALFRED_ERROR_CODE_CONSTANT
}  // namespace codes

/// One catalog line, for tests and the generated lists.
struct error_code_entry {
  error_code code;
  std::string_view origin;
  std::string_view meaning;
};

inline constexpr error_code_entry error_catalog[] = {
#define ALFRED_ERROR_CODE_ENTRY(code, origin, meaning) {codes::code, #origin, meaning},
    ALFRED_ERROR_CODES(ALFRED_ERROR_CODE_ENTRY)
#undef ALFRED_ERROR_CODE_ENTRY
};

}  // namespace alfred
