// The executor's binding: an Execution handle per tool call. JS reads the
// needs of each round, performs them, and writes each response's body into
// the handle's own body buffer (moved into the core without a copy, and
// freed with the handle) before handing it back; results leave through the
// result slot like every other large text.

#include <emscripten/bind.h>

#include <cstdint>
#include <optional>
#include <string>

#include "alfred/executor.h"
#include "handles.h"

namespace alfred_wasm {
namespace {

class execution_handle {
 public:
  // `call_json` is `[tool, params, options, settings]` (settings optional:
  // row ids and limits); the params stay JSON text so the executor reads
  // them once.
  execution_handle(const domain_handle& dom, registry_handle& registry, std::size_t length) {
    std::string failure;
    guarded_into(failure, [&]() {
      auto doc = json_document::parse(input_view(length));
      if (!doc) {
        failure = error_result({codes::invalid_json, "params", doc.err().message, ""});
        return;
      }
      const json_value call = doc->root();
      if (!call.is_array() || call.size() < 3 || call.size() > 4 || !call.at(0).is_string()) {
        failure = error_result({codes::invalid_params, "", "expected [tool, params, options, settings]", ""});
        return;
      }
      auto options = alfred::parse_request_options(call.at(2));
      if (!options) {
        failure = error_result(options.err());
        return;
      }
      auto settings = alfred::parse_execution_options(call.size() == 4 ? call.at(3) : json_value());
      if (!settings) {
        failure = error_result(settings.err());
        return;
      }
      execution_.emplace(dom.get(), registry.get(), call.at(0).str(), call.at(1).raw(), std::move(*options),
                         std::move(*settings));
    });
    failure_ = std::move(failure);
  }

  bool done() const { return !execution_ || execution_->done(); }
  // (A failed constructor or response leaves no execution_ and failure_ set.)

  /// `[{"kind":"http","method","url","headers","body"} | {"kind":"embed","text"}]`
  std::string needs() const {
    std::string out;
    guarded_into(out, [&]() {
      alfred::json_writer w(out);
      w.begin_array();
      if (execution_)
        for (const auto& need : execution_->needs()) {
          if (need.type == alfred::need::kind::embed) {
            w.begin_object();
            w.key("kind");
            w.string("embed");
            w.key("text");
            w.string(need.text);
            w.end_object();
          } else {
            out += out.back() == '[' ? "" : ",";
            std::string request;
            alfred::json_writer rw(request);
            alfred::write_request(rw, need.request);
            out += "{\"kind\":\"http\",";
            out.append(request, 1);
          }
        }
      w.end_array();
    });
    return out;
  }

  /// Room for the next response body; JS writes `length` bytes there.
  /// 0 when the room cannot be had (JS then reports the body as too large).
  std::uintptr_t body_buffer(std::size_t length) {
    body_ = std::string();
    bool ok = false;
    std::string ignored;
    guarded_into(ignored, [&]() {
      body_.resize(length);
      ok = true;
    });
    return ok ? reinterpret_cast<std::uintptr_t>(body_.data()) : 0;
  }

  /// The body is what JS wrote into the body buffer; `failure_name` is a
  /// transport_failure name ("" for a whole response).
  void respond_at(std::size_t index, int status, const std::string& content_range, const std::string& content_type,
                  const std::string& failure_name) {
    std::string body = std::move(body_);
    body_ = std::string();
    if (!execution_) return;
    // A failure here (memory) leaves the execution unusable: it ends with
    // the error instead of waiting for a response it could not take.
    std::string failure;
    guarded_into(failure, [&]() {
      auto kind = alfred::parse_transport_failure(failure_name);
      execution_->respond(index, {status, content_range, content_type, std::move(body),
                                  kind.value_or(alfred::transport_failure::no_response)});
    });
    if (!failure.empty()) {
      failure_ = std::move(failure);
      execution_.reset();
    }
  }

  /// Publishes `{"data","error","query","count"}` through the result slot:
  /// the execution's own text (it can be megabytes), valid until the handle
  /// is deleted.
  void result_at() {
    if (failure_.empty() && execution_) return publish(execution_->result_json());
    publish(failure_);
  }

 private:
  std::optional<alfred::execution> execution_;
  std::string failure_;
  std::string body_;
};

std::string default_execution_limits() { return alfred::execution_limits_json(); }

}  // namespace
}  // namespace alfred_wasm

EMSCRIPTEN_BINDINGS(alfred_executor) {
  using namespace emscripten;
  using namespace alfred_wasm;
  class_<execution_handle>("Execution")
      .constructor<const domain_handle&, registry_handle&, std::size_t>()
      .function("done", &execution_handle::done)
      .function("needs", &execution_handle::needs)
      .function("bodyBuffer", &execution_handle::body_buffer)
      .function("respondAt", &execution_handle::respond_at)
      .function("resultAt", &execution_handle::result_at);
  function("executionLimits", &default_execution_limits);
}
