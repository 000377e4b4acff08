// The executor's binding: an Execution handle per tool call. JS reads the
// needs of each round, performs them, and writes each response's body into
// the handle's own body buffer (moved into the core without a copy, and
// freed with the handle) before handing it back; results leave through the
// result slot like every other large text.

#include <emscripten/bind.h>

#include <cstdint>
#include <optional>
#include <string>

#include "handles.h"

namespace alfred_wasm {
namespace {

class execution_handle {
 public:
  // The input buffer holds `[tool, settings]`, a newline and the params.
  execution_handle(const domain_handle& dom, registry_handle& registry, const request_context_handle& context,
                   std::size_t length)
      : failure_(
            alfred::api::start_execution(execution_, dom.get(), registry.get(), context.get(), input_view(length))) {}

  bool done() const { return !execution_ || execution_->done(); }
  // (A failed constructor or response leaves no execution_ and failure_ set.)

  std::string needs() const { return execution_ ? alfred::api::execution_needs(*execution_) : "[]"; }

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
    std::string failure =
        alfred::api::respond(execution_, index, status, content_range, content_type, failure_name, std::move(body));
    if (!failure.empty()) failure_ = std::move(failure);
  }

  /// Publishes `{"data","error","query","count"}` (and, for the model, a
  /// newline and the tool result) through the result slot: the execution's
  /// own text (it can be megabytes), valid until the handle is deleted.
  void result_at() {
    if (failure_.empty() && execution_) return publish(alfred::api::execution_result(*execution_, model_result_));
    publish(failure_);
  }

 private:
  // Declared before failure_, which the constructor fills by starting it.
  std::optional<alfred::execution> execution_;
  std::string failure_;
  std::string body_;
  std::string model_result_;
};

std::string default_execution_limits() { return alfred::api::default_execution_limits(); }

}  // namespace
}  // namespace alfred_wasm

EMSCRIPTEN_BINDINGS(alfred_executor) {
  using namespace emscripten;
  using namespace alfred_wasm;
  class_<execution_handle>("Execution")
      .constructor<const domain_handle&, registry_handle&, const request_context_handle&, std::size_t>()
      .function("done", &execution_handle::done)
      .function("needs", &execution_handle::needs)
      .function("bodyBuffer", &execution_handle::body_buffer)
      .function("respondAt", &execution_handle::respond_at)
      .function("resultAt", &execution_handle::result_at);
  function("executionLimits", &default_execution_limits);
}
