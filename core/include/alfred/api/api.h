#pragma once
/// The core as text: every call the JavaScript package makes, with JSON text
/// in and `{"data": …, "error": null}` or `{"data": null, "error": {code,
/// path, message, hint}}` text out. The WebAssembly bindings (`wasm/`) only
/// move bytes and delegate here; every decision a call makes (how its
/// arguments are read, which error a bad one gets, how an allocation failure
/// is reported) is made in this layer, so native tests cover it too.
///
///     alfred::domain dom;
///     if (auto failure = alfred::api::load_domain(dom, config_json); !failure.empty()) return failure;
///     alfred::ref_registry reg;
///     alfred::request_context ctx;
///     if (auto failure = alfred::api::make_request_context(ctx, options_json); !failure.empty()) return failure;
///     std::string out;
///     alfred::request_layout layout;
///     alfred::api::build_request(out, layout, dom, reg, ctx, R"(["db_read",{"table":"inventory"}])");
///
/// The caller owns every domain, registry, context and execution these calls
/// take, and each call borrows them only while it runs, except
/// `start_execution`: its execution borrows the domain and the registry
/// until it is destroyed. A loaded domain is only read and may serve every
/// session; a registry is not thread-safe: one per session, used by one call
/// at a time.

#include <cstddef>
#include <exception>
#include <new>
#include <optional>
#include <string>
#include <string_view>

#include "alfred/domain/domain.h"
#include "alfred/executor/executor.h"
#include "alfred/json/error.h"
#include "alfred/postgrest/request.h"
#include "alfred/registry/registry.h"

namespace alfred::api {

/// `{"data": <data_json>, "error": null}` or `{"data": null, "error": {…}}`
/// (`write_error`'s object), the shape every call of this layer returns.
///
///     data_result("[1,2]");  // {"data":[1,2],"error":null}
std::string data_result(std::string_view data_json);
std::string error_result(const error& err);

/// `{"data":null,"error":{"code":"out_of_memory",…}}`.
std::string out_of_memory_result();
/// `{"data":null,"error":{"code":"internal_error",…}}` for an exception the
/// core did not expect (`what` is its message).
std::string internal_error_result(const char* what);

/// Runs `body`, which writes its result into `out`, turning an escaped C++
/// exception (an allocation failure) into an error result, so the caller's
/// state stays usable. Builds without exceptions abort instead (the
/// package then reports the instance as broken).
template <class F>
void guarded_into(std::string& out, F&& body) {
#if defined(__cpp_exceptions)
  try {
    body();
  } catch (const std::bad_alloc&) {
    out = out_of_memory_result();
  } catch (const std::exception& e) {
    out = internal_error_result(e.what());
  } catch (...) {
    out = internal_error_result("unknown exception");
  }
#else
  body();
#endif
}

/// `guarded_into` for a `body` that returns its result.
template <class F>
std::string guarded(F&& body) {
  std::string out;
  guarded_into(out, [&]() { out = body(); });
  return out;
}

/// Loads a domain's JSON configuration into `into`: "" when it loaded, else
/// the error result (and `into` is left as it was).
std::string load_domain(domain& into, std::string_view config_json);

/// `{"data":[…]}`: the tools' JSON Schemas for `dom` (tool_schema.h:
/// `strict`, and `inline_schema` for the whole schema in the tools).
/// `reads_only`: the tools a read-only act offers (db_read, and db_call of
/// the functions that only read); `fixed`: the comma-separated names the app
/// sets for every call, offered to the model nowhere.
std::string tool_definitions(const domain& dom, bool strict, bool inline_schema = false, bool reads_only = false,
                             std::string_view fixed = {});
/// `{"data":{"<slot>":"<text>",…}}`: the prompt example texts for `dom`.
std::string prompt_examples(const domain& dom);

/// Replaces `reg` with a state `to_json` wrote: `{"data":true}` or the error
/// (and `reg` is left as it was).
std::string restore_registry(ref_registry& reg, std::string_view state_json);
/// `{"data":<state>}`.
std::string registry_state(const ref_registry& reg);
/// Keeps generated content of `table` under a new `gen_` ref: `{"data":"gen_…"}`.
std::string register_generated(const domain& dom, ref_registry& reg, std::string_view table_name,
                               std::string_view content_json);
/// Replaces the content of the pending `gen_` ref: `{"data":"<gen_ref>"}`,
/// or `unknown_ref` (with the saved row's ref in the hint when it was saved).
std::string update_generated(const domain& dom, ref_registry& reg, std::string_view gen_ref,
                             std::string_view content_json);
/// Binds a pending `gen_` ref to the row that saved it (its key, of the type
/// of its table's key in `dom`): `{"data":"<ref>"}`.
std::string promote(const domain& dom, ref_registry& reg, std::string_view gen_ref, std::string_view key,
                    std::string_view label);
/// The ids a create of unknown outcome was sent with (ref_registry::
/// uncertain_ids): `{"data":[uuid…]}` or `{"data":null}`.
std::string uncertain_ids(const ref_registry& reg, std::string_view key);
/// Keeps (`ids_json` an array of UUIDs) or forgets (`ids_json` "null") the
/// ids of a create of unknown outcome: `{"data":true}`, or the error.
std::string set_uncertain(ref_registry& reg, std::string_view key, std::string_view ids_json);
/// `{"data":"<table>"}` for a ref the registry holds (a promoted `gen_` ref
/// names the saved row's table), `{"data":null}` otherwise.
std::string ref_table(const ref_registry& reg, std::string_view ref);
/// `{"data":{"generated":bool,"prefix":"…","number":n}}` when `text` has
/// the shape of a ref (`recipe_3`, `gen_recipe_1`), `{"data":null}` otherwise.
/// No registry lookup: it answers what the ref grammar says.
std::string parse_ref(std::string_view text);

/// Translates a response body's rows for the model (`action`: read,
/// created, updated, deleted; `current_user`: the signed-in user's id, shown
/// as `me`, or ""). True with the model-facing rows JSON in `out`; false with
/// the error result there (the registry as it was).
bool translate_rows(std::string& out, const domain& dom, ref_registry& reg, std::string_view table_name,
                    std::string_view action, std::string_view rows_json, std::string_view current_user = {});

/// `{"data":"<text>"}` with every UUID in `text` shown as its ref, or `<id>`.
std::string without_uuids(const ref_registry& reg, std::string_view text);

/// Parses request options (`{"url" | "restUrl" | "baseUrl", "apiKey",
/// "accessToken", "userId", "maxUrlLength"}`) into `into`, made ready for
/// many requests: "" when they parse, else the error result (`into` is left
/// as it was). Options no request can be sent with (a service key, a URL that
/// is not http(s)) still make a context: each request reports that after
/// validating its call, as it always has; `context_send_error` reports it
/// at once.
std::string make_request_context(request_context& into, std::string_view options_json);
/// `{"apikey":…,"Authorization":…,"Accept":…}`: the headers every request of
/// `context` carries, in the order they are sent.
std::string context_headers(const request_context& context);

/// `call_json` is `[tool, params]`. Writes the request into `out` as
/// `layout` says (method, URL, body, then the per-request headers as a JSON
/// object; `context_headers` are the others) and returns true; or writes the
/// error result and returns false.
bool build_request(std::string& out, request_layout& layout, const domain& dom, const ref_registry& reg,
                   const request_context& context, std::string_view call_json);

/// `{"data":null}`, or the error every request of `context` would report
/// (a URL that is not http(s), a service key): lets a caller refuse such
/// options before the first call.
std::string context_send_error(const request_context& context);

/// `call_text` is `[tool, settings]`, a newline, then the params as JSON
/// text, which the execution parses (once): starts the execution in `into`
/// and returns "", or returns the error result (`into` empty). The execution
/// borrows `dom` and `reg`, which must outlive it, and copies `context`.
std::string start_execution(std::optional<execution>& into, const domain& dom, ref_registry& reg,
                            const request_context& context, std::string_view call_text);
/// The needs of the current round:
/// `[{"kind":"http","method","url","headers","body"} | {"kind":"embed","text"}]`.
/// An http need's `headers` are the request's own (`Content-Type`,
/// `Prefer`): the context's (`context_headers`, the same for every request
/// of the execution) are sent before them, and are left to the caller.
std::string execution_needs(const execution& ex);
/// Gives need `index` of the running execution `ex` its response;
/// `failure_name` is a transport failure (`no_response`, `body_lost`, …) or
/// "" for a whole response. Returns "", or the error result of a failure to
/// take it (out of memory), after which `ex` is empty: the execution ends
/// with that error instead of waiting for a response it could not take.
std::string respond(std::optional<execution>& ex, std::size_t index, int status, std::string content_range,
                    std::string content_type, std::string_view failure_name, std::string body);
/// The finished execution's result as JS reads it: `result_json()`, or for
/// the model (`forModel`) that text without data, a newline, and the tool
/// result for the model (`{"ok":true,…,"rows":[…]}` cut to the caps, UUIDs
/// in values scrubbed, the query rendered), written into `scratch`.
const std::string& execution_result(const execution& ex, std::string& scratch);
/// The same, where the reader decodes Latin-1 (ISO-8859-1) faster than
/// UTF-8 (Node's Buffer): with `latin1` true, a large result for the model
/// whose every character is U+0000 to U+00FF is written one byte per
/// character, and `latin1` says on return whether it was.
const std::string& execution_result(const execution& ex, std::string& scratch, bool& latin1);
/// The tool result for the model of an outcome JS holds (`act.execute`'s,
/// or one a policy made): `input` is `{"tool","limits":{rows,chars},
/// "limited","offset","error","query","count"}`, a newline, and the rows
/// as JSON text. Writes the result's JSON text (what `execution_result`
/// appends for the model) into `out`, or the error result.
void model_tool_result(std::string& out, const ref_registry& reg, std::string_view input);
/// `{"maxParamsBytes":…,…}`: the default execution limits.
std::string default_execution_limits();

/// `{"data":null}` once the core's prompt templates are `templates_json`
/// (texts by name), or the error result.
std::string set_prompt_templates(std::string_view templates_json);
/// Writes `{"data":{"system","user"}}` for the prompt input, or the error
/// result, into `out`.
void build_act_prompt(std::string& out, const domain& dom, const ref_registry& reg, std::string_view input_json);
/// `{"data":"<text>"}`: a query record rendered (`style`: "line", else block).
std::string render_query(std::string_view record_json, std::string_view style);
/// `{"data":<decision>}`: a model's ActDecision text parsed for a step
/// (`step`: read, write, analyze, generate, or "" for any).
std::string parse_decision(std::string_view text, std::string_view step);
/// The core's rules that the JavaScript side generates its constants and
/// types from instead of keeping copies: `{"data":{"toolNames":[…],
/// "stepTools":{"read":["db_read"],…}, "filterOps":{"names":[…],
/// "aliases":[…]}, "outcomeUnknownHint":"…", "names":{"identifier":{"first",
/// "rest","maxLength"}, "reservedColumns":[…], "generatedRefPrefix":"gen"}}}`.
std::string core_rules();
/// `{"data":"<markdown>"}`: the domain's schema as the model reads it (the
/// body of the Act prompt's Schema section), functions included; `fixed`:
/// the comma-separated names the app sets, left out of the functions'
/// arguments.
std::string schema_description(const domain& dom, std::string_view fixed = {});

}  // namespace alfred::api
