// The executor's binding: an Execution handle per tool call. JS reads the
// needs of each round, performs them, and writes each response's body into
// the handle's own body buffer (moved into the core without a copy, and
// freed with the handle) before handing it back; results leave through the
// result slot like every other large text.

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
  void respond_at(std::size_t index, int status, std::string_view content_range, std::string_view content_type,
                  std::string_view failure_name) {
    std::string body = std::move(body_);
    body_ = std::string();
    std::string failure = alfred::api::respond(execution_, index, status, std::string(content_range),
                                               std::string(content_type), failure_name, std::move(body));
    if (!failure.empty()) failure_ = std::move(failure);
  }

  /// Publishes `{"data","error","query","count"}` (and, for the model, a
  /// newline and the tool result) through the result slot: the execution's
  /// own text (it can be megabytes), valid until the handle is deleted.
  /// `latin1`: JS reads a Latin-1 text faster (api::execution_result).
  void result_at(bool latin1) {
    if (failure_.empty() && execution_) {
      const std::string& text = alfred::api::execution_result(*execution_, model_result_, latin1);
      return publish(text, latin1);
    }
    publish(failure_);
  }

 private:
  // Declared before failure_, which the constructor fills by starting it.
  std::optional<alfred::execution> execution_;
  std::string failure_;
  std::string body_;
  std::string model_result_;
};

}  // namespace
}  // namespace alfred_wasm

using namespace alfred_wasm;

// The input buffer holds `[tool, settings]`, a newline and the params.
ALFRED_EXPORT std::uintptr_t alfred_execution_new(std::uintptr_t dom, std::uintptr_t registry, std::uintptr_t context,
                                                  std::size_t length) {
  return reinterpret_cast<std::uintptr_t>(new execution_handle(at<domain_handle>(dom), at<registry_handle>(registry),
                                                               at<request_context_handle>(context), length));
}

ALFRED_EXPORT void alfred_execution_delete(std::uintptr_t execution) { delete &at<execution_handle>(execution); }

ALFRED_EXPORT int alfred_execution_done(std::uintptr_t execution) {
  return at<execution_handle>(execution).done() ? 1 : 0;
}

// The needs of this round, as a JSON array.
ALFRED_EXPORT void alfred_execution_needs(std::uintptr_t execution) {
  publish_text(at<execution_handle>(execution).needs());
}

ALFRED_EXPORT std::uintptr_t alfred_execution_body_buffer(std::uintptr_t execution, std::size_t length) {
  return at<execution_handle>(execution).body_buffer(length);
}

// Arguments: the Content-Range, the Content-Type, the transport failure's name.
ALFRED_EXPORT void alfred_execution_respond(std::uintptr_t execution, std::size_t index, int status,
                                            std::size_t range_length, std::size_t type_length,
                                            std::size_t failure_length) {
  arguments args;
  const auto range = args.next(range_length);
  const auto type = args.next(type_length);
  const auto failure = args.next(failure_length);
  at<execution_handle>(execution).respond_at(index, status, range, type, failure);
}

// `latin1`: 1 when JS reads Latin-1 faster than UTF-8 (the slot's word 6
// then says which the output is).
ALFRED_EXPORT void alfred_execution_result(std::uintptr_t execution, int latin1) {
  at<execution_handle>(execution).result_at(latin1 != 0);
}

// The default limits of one execution, as a JSON object.
ALFRED_EXPORT void alfred_execution_limits() { publish_text(alfred::api::default_execution_limits()); }
