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

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "alfred/domain.h"
#include "alfred/registry.h"
#include "alfred/request.h"

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
};

class execution {
 public:
  /// Starts executing `tool` with `params_json` for the user in `options`.
  /// Validation errors and reads answered from generated artifacts finish
  /// here, with no needs.
  execution(const domain& dom, ref_registry& registry, std::string_view tool, std::string_view params_json,
            request_options options);
  ~execution();
  execution(execution&&) noexcept;
  execution& operator=(execution&&) noexcept;

  bool done() const;
  /// The needs of the current round (empty when done).
  const std::vector<need>& needs() const;
  /// Gives the response to need `index` of the current round. When every
  /// need of the round has its response, the next round is planned (or the
  /// execution finishes).
  void respond(std::size_t index, need_response response);

  /// `{"data": …, "error": …|null, "query": {…}, "count": n|null}`, once done.
  std::string result_json() const;

 private:
  struct state;
  std::unique_ptr<state> state_;
};

}  // namespace alfred
