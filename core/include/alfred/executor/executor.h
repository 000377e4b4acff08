#pragma once
/// The executor: one tool call from the model's params to the rows the model
/// sees, without doing any I/O itself (sans-I/O). It plans the HTTP calls
/// (catalog lookups, the semantic-search RPC, the main request, label
/// lookups) and the embeddings it needs; the caller performs them and hands
/// the responses back, until the execution is done.
///
///   execution ex(dom, registry, "db_read", params_json, options);
///   while (!ex.done()) {
///     for (const need& n : ex.needs()) … perform it …
///     ex.respond(i, response) for each need i
///   }
///   ex.result_json()   // {"data", "error", "query", "count"}
///
/// Every need of one round is independent of the others, so the caller may
/// perform them concurrently.
///
/// A write is reported as having had no effect only when it was refused (a
/// 4xx, or the database's own error) or never sent; an answer lost, cut off,
/// unusable or from a proxy is `write_outcome_unknown` with the status that
/// arrived. A create whose rows carry caller-drawn ids (`execution_options`)
/// settles such an answer, and a duplicate key on a retry, by reading its rows
/// back by id (docs/limits-and-faults.md).
///
/// An execution borrows the domain and the registry, which must outlive it,
/// and copies its params and request context. What it hands out lives in the
/// execution: `result_json()` and the views and pointers of `model()` are
/// valid while the execution is, `needs()` until the round's last response.
/// Executions of one session may share its registry, one call at a time;
/// the registry is not thread-safe.

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "alfred/domain/domain.h"
#include "alfred/postgrest/request.h"
#include "alfred/registry/registry.h"
#include "alfred/tool_call/tool_call.h"

namespace alfred {

/// Something the executor needs from the outside world.
struct need {
  enum class kind { http, embed };
  kind type = kind::http;
  /// kind::http: the request to send.
  http_request request;
  /// kind::embed: the text to embed.
  std::string text;
};

/// How the exchange for a need ended, as the caller saw it. Everything but
/// `none` and `not_sent` may have reached the server: a write answered that
/// way has an unknown outcome.
enum class transport_failure {
  /// A response with its whole body.
  none,
  /// The request never left (connection refused, no such host): no effect.
  not_sent,
  /// No response: the connection broke, or fetch failed without saying why.
  no_response,
  /// No whole response within the time limit.
  timeout,
  /// The status and headers arrived, the body was cut off.
  body_incomplete,
  /// The body was over the response limit and was not read (`body` is empty).
  too_large,
  /// fetch resolved to something that is not an HTTP response.
  not_a_response,
};

/// `"" | "not_sent" | "no_response" | "timeout" | "body_incomplete" |
/// "too_large" | "not_a_response"` (the names the JS executor reports).
std::optional<transport_failure> parse_transport_failure(std::string_view name);

/// What the caller got back for a need.
struct need_response {
  /// The HTTP status; 0 when the request never got a response (network
  /// failure, timeout) or the embedder failed.
  int status = 0;
  /// The `Content-Range` header, for counts ("" when absent).
  std::string content_range;
  /// The `Content-Type` header ("" when absent).
  std::string content_type;
  /// The response body: JSON for PostgREST and for embeddings (an array of
  /// numbers); for status 0, the failure's message.
  std::string body;
  /// How the exchange ended; with a failure, `status` is what had arrived
  /// (0 for nothing) and `body` what had been read, or the failure's message.
  transport_failure failure = transport_failure::none;
};

/// What one execution may take. A Cloudflare Worker has 128 MB for
/// everything; the defaults keep one call well inside that
/// (docs/limits-and-faults.md).
struct execution_limits {
  /// The tool call's params as JSON text.
  std::size_t max_params_bytes = std::size_t(1) << 20;
  /// Any one string (value or key) in the params.
  std::size_t max_string_bytes = std::size_t(256) << 10;
  /// One response body.
  std::size_t max_response_bytes = std::size_t(8) << 20;
  /// Rows in one response.
  std::size_t max_rows = 10000;
};

/// The caps on one tool result for the model (docs/results-for-models.md).
struct result_limits {
  std::size_t rows = 50;
  std::size_t chars = 16000;
};

/// Per-call settings of an execution that are not request options.
/// How `max_affected` is enforced: by the database (`Prefer: handling=strict,
/// max-affected=N`, PostgREST 13 and later, which rolls back a write over
/// it), or by counting the rows the filters select first (older servers;
/// another writer may change the count between the two requests).
enum class max_affected_check { header, count };

/// Whether the server computes aggregates (PostgREST's
/// `db-aggregates-enabled`): not known yet, on, or off. The caller keeps
/// what an execution learned (the result's `query.aggregates`) per server.
enum class aggregates_support { unknown, on, off };

struct execution_options {
  /// Ids (UUIDs) for the rows a `db_create` inserts, one per element of
  /// `data` in its order (a single object takes the first). The database
  /// then refuses a repeated insert as a duplicate key instead of inserting
  /// a second row, so a create whose answer was lost can be retried with the
  /// same ids. Empty: the database assigns ids. The executor does no I/O and
  /// draws no randomness: the caller generates them.
  std::vector<std::string> row_ids;
  execution_limits limits;
  /// The most rows an update or delete may change (0: no limit); more is
  /// `too_many_rows`, with nothing changed.
  std::size_t max_affected = 0;
  max_affected_check max_affected_by = max_affected_check::header;
  /// db_aggregate: whether the server computes aggregates, as the caller
  /// learned it; unknown asks it (and falls back when it refuses).
  aggregates_support aggregates = aggregates_support::unknown;
  /// Values the app sets for every call (`createAct({ context })`): a
  /// create's column or a function's argument of that name gets it, and the
  /// model may not give it.
  std::vector<fixed_value> fixed;
  /// The call is the model's: a read without a limit (or over the cap) is
  /// sent with the cap and an exact count, and the result is written for the
  /// model (api::execution_result) rather than for the developer.
  std::optional<result_limits> for_model;
  /// The marker that fences the row text of the model's result (the notice
  /// names it, `"end"` repeats it after the rows): drawn by the caller for
  /// this call, so no row can write the end before its time. Empty: the
  /// notice alone.
  std::string model_fence;
};

/// Parses `{"rowIds": [uuid…], "limits": {"maxParamsBytes", "maxStringBytes",
/// "maxResponseBytes", "maxRows"}, "maxAffected": n, "maxAffectedBy":
/// "header" | "count", "forModel": {rows, chars, fence}, "context": {name: value},
/// "aggregates": "on" | "off" | "unknown"}`
/// (every member optional; null is `{}`).
result<execution_options> parse_execution_options(json_value options);

/// The default limits as `{"maxParamsBytes":…,…}`, so the JS side reads them
/// from here instead of keeping a copy.
std::string execution_limits_json(const execution_limits& limits = {});

class execution {
 public:
  /// Starts executing `tool` with `params_json` (parsed once, here) for the
  /// user of `context`.
  /// Validation errors and reads answered from generated artifacts finish
  /// here, with no needs. Borrows `dom` and `registry`, which must outlive
  /// the execution. While it runs, the `gen_` artifacts it saves are claimed
  /// in the registry: a second execution saving one of them fails with
  /// `save_in_progress` until this one is done or destroyed.
  execution(const domain& dom, ref_registry& registry, std::string_view tool, std::string params_json,
            request_context context, execution_options settings = {});
  /// The same, with request options that are made ready for this execution.
  execution(const domain& dom, ref_registry& registry, std::string_view tool, std::string_view params_json,
            request_options options, execution_options settings = {});
  ~execution();
  execution(execution&&) noexcept;
  execution& operator=(execution&&) noexcept;

  bool done() const;
  /// The needs of the current round (empty when done).
  const std::vector<need>& needs() const;
  /// The request context every request of the execution is built with.
  const request_context& context() const;
  /// Gives the response to need `index` of the current round. When every
  /// need of the round has its response, the next round is planned (or the
  /// execution finishes).
  void respond(std::size_t index, need_response response);

  /// `{"data": …, "error": …|null, "query": {…}, "count": n|null}`, once done.
  /// For the model (`for_model`), `data` is null: the rows are `model()`'s.
  const std::string& result_json() const;

  /// What a result for the model is made of, once done (`for_model` only).
  struct model_parts {
    /// The translated rows (JSON text; "" for an error or no rows), their
    /// UUIDs scrubbed.
    std::string_view rows;
    /// How many rows `rows` holds, when known.
    std::optional<std::size_t> row_count;
    /// The error, scrubbed, or null.
    const error* err = nullptr;
    std::optional<long long> count;
    long long offset = 0;
    /// The read was sent with the cap as its limit.
    bool limited = false;
    result_limits limits;
    /// The registry the execution used (refs for UUIDs the rows quote).
    const ref_registry* registry = nullptr;
    /// `execution_options::model_fence`.
    std::string_view fence;
  };
  std::optional<model_parts> model() const;

 private:
  struct state;
  std::unique_ptr<state> state_;
};

}  // namespace alfred
