#pragma once
/// PostgREST request building: a validated tool call becomes the exact HTTP
/// request (method, URL, headers, JSON body) that JavaScript's fetch sends.
/// Follows docs/postgrest-wire.md; its "Where postgrest-js differs" section
/// lists where it departs from @supabase/postgrest-js on purpose.
///
///     request_context ctx(*parse_request_options(options_doc.root()));  // once per user session
///     auto call = parse_tool_call(dom, reg, "db_read", params_json, ctx.options().user_id);
///     auto request = build_request(dom, *call, ctx);  // result<http_request>: method, url, headers, body
///
/// An `http_request` and a `request_context` own their text (the context
/// borrows nothing, so it may be copied into an execution); building reads
/// the domain, the call and the context only while it runs.

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "alfred/domain/domain.h"
#include "alfred/json/error.h"
#include "alfred/json/json.h"
#include "alfred/registry/registry.h"
#include "alfred/tool_call/tool_call.h"

namespace alfred {

struct request_options {
  /// The PostgREST root: `http://127.0.0.1:3000` or `https://<ref>.supabase.co/rest/v1`.
  std::string base_url;
  /// The option the root came from (`url`, `restUrl` or `baseUrl`), for errors;
  /// `url` when none was given, the one a newcomer is told to pass.
  std::string base_url_field = "url";
  /// The project's anon/publishable key, sent as `apikey`.
  std::string api_key;
  /// The signed-in user's JWT, sent as `Authorization: Bearer …`.
  std::string access_token;
  /// The signed-in user's id; required for user-owned tables.
  std::string user_id;
  /// Longest URL sent; longer requests fail with `url_too_long` (Node's fetch
  /// rejects responses echoing URLs above ~16 KB, and PostgREST refuses ~50 KB;
  /// docs/postgrest-wire.md#url-size).
  std::size_t max_url_length = 8000;
};

/// Parses `{"url" | "restUrl" | "baseUrl", "apiKey", "accessToken", "userId",
/// "maxUrlLength"}`. `url` is a Supabase URL and gets `/rest/v1` (as
/// supabase-js's `createClient` does); `restUrl` and `baseUrl` are the
/// PostgREST root itself; giving more than one is `invalid_option`. `userId`
/// defaults to the access token's `sub` and must match it when both are
/// given. Any other key, and any value of the wrong type, is `invalid_option`.
///
/// @example parse_request_options(doc.root()) // {"url":"http://127.0.0.1:54321"} → base_url
/// http://127.0.0.1:54321/rest/v1
result<request_options> parse_request_options(json_value options);

/// The checks every request makes on the options alone: an http(s) root
/// without query, fragment or spaces, and keys and tokens safe to send (never
/// a service key). Lets a caller refuse bad options before the first call.
///
/// @example check_request_options(*parse_request_options(doc.root())) // ok, or invalid_option / service_key_refused
status check_request_options(const request_options& options);

/// Request options made ready once for many requests (one user's session):
/// the base URL and the credentials are checked and the access token's
/// claims read here, not at every request. Holds its own copies (it borrows
/// nothing), so it is safe to copy into an execution.
///
///     request_context ctx(*parse_request_options(doc.root()));
///     auto request = build_request(dom, call, ctx);  // as often as needed
class request_context {
 public:
  /// A context of empty options (no base URL: every build reports that).
  request_context() : request_context(request_options{}) {}
  explicit request_context(request_options options);

  const request_options& options() const { return options_; }
  /// Why no request can be sent with these options (a URL that is not
  /// http(s), a service key, a header-unsafe token), or nothing. Building
  /// reports it after the call validated, as `check_request_options` would.
  const std::optional<error>& send_error() const { return send_error_; }
  /// The PostgREST root without trailing slashes (when `send_error` is empty).
  std::string_view base() const { return base_; }
  /// The access token's claims, decoded without checking the signature
  /// (only the server can): whether it is a JWT, its `role` and `sub`.
  bool token_is_jwt() const { return token_is_jwt_; }
  const std::string& token_role() const { return token_role_; }
  const std::string& token_sub() const { return token_sub_; }

 private:
  request_options options_;
  std::optional<error> send_error_;
  std::string base_;
  bool token_is_jwt_ = false;
  std::string token_role_;
  std::string token_sub_;
};

/// `not_signed_in` unless `options` carries a signed-in user's access token
/// for a user-owned `tbl` or one marked `signed_in`: a token that is
/// present, and, when it is a JWT, has a `sub` and is not the `anon` role.
/// Other tables need no session.
status require_signed_in(const table& tbl, const request_context& context);
status require_signed_in(const table& tbl, const request_options& options);
/// The same for a function the model calls: every function runs as the
/// signed-in user (`auth.uid()` in its body and in the policies it reads).
status require_signed_in(const db_function& fn, const request_context& context);

struct http_request {
  std::string method;
  std::string url;
  /// In the order they are sent; names as in the PostgREST docs.
  std::vector<std::pair<std::string, std::string>> headers;
  /// The JSON text of the body, or nothing (GET, DELETE).
  std::optional<std::string> body;
};

/// Builds the request for a validated call. Fails only on options (missing
/// user id, service key, bad base URL), semantic search (which needs the
/// executor's embedding step) and the URL length limit.
result<http_request> build_request(const domain& dom, const tool_call& call, const request_context& context);
result<http_request> build_request(const domain& dom, const tool_call& call, const request_options& options);

/// `POST {base}/rpc/{function}` with `body_json` as the arguments, and the
/// same credentials and checks as every other request.
result<http_request> build_rpc_request(std::string_view function, std::string body_json,
                                       const request_context& context);

/// Validation, ref translation and building in one step; `params_json` is
/// the tool call's params as JSON text.
result<http_request> build_request(const domain& dom, const ref_registry& registry, std::string_view tool,
                                   std::string_view params_json, const request_options& options);

/// Writes `{"method", "url", "headers": {…}, "body": "…"|null}`, the
/// headers from the `first_header`th on (context_header_count: the
/// request's own).
void write_request(json_writer& w, const http_request& request, std::size_t first_header = 0);

/// Builds the request for a validated call and appends its JSON result,
/// `{"data": {"method", …}, "error": null}`, to `out`: the text
/// `api::data_result` of `write_request` gives, without an http_request in
/// between (the WASM binding's hot path). On failure appends nothing and
/// returns the error `build_request` would.
status append_request_result(std::string& out, const domain& dom, const tool_call& call,
                             const request_options& options);

/// How `append_request_parts` laid the request out in its text: the method,
/// the URL, the body (when there is one), then the headers that vary by
/// request as a JSON object (`{"Content-Type":…,"Prefer":…}`). The headers
/// every request of a context carries are `write_context_headers`'.
struct request_layout {
  std::size_t method_length = 0;
  std::size_t url_length = 0;
  bool has_body = false;
  std::size_t body_length = 0;
};

/// Builds the request for a validated call and appends its method, URL,
/// body and per-request headers to `out` as `layout` says: the hot path of the
/// package's `buildRequest`, which keeps the context's headers itself. On
/// failure appends nothing and returns the error `build_request` would.
status append_request_parts(std::string& out, request_layout& layout, const domain& dom, const tool_call& call,
                            const request_context& context);

/// Writes the headers every request of `context` carries (`apikey`,
/// `Authorization`, `Accept`) as the members of a JSON object.
void write_context_headers(json_writer& w, const request_context& context);

/// How many of an http_request's headers, built with `options`, are the
/// context's (`write_context_headers`'): they come first, before the
/// request's own.
std::size_t context_header_count(const request_options& options);

}  // namespace alfred
