#pragma once
// What the binding files share: the embind handle classes of a domain and a
// registry, and the byte transfer through WASM memory. Every decision is the
// core's API layer (alfred/api/api.h); the handles only hold its state.

#include <cstdint>
#include <string>
#include <string_view>

#include "alfred/api/api.h"

namespace alfred_wasm {

using alfred::api::guarded_into;

// Byte transfer for the hot path: embind's std::string marshalling is a JS
// loop per character, while JS can fill WASM memory with
// TextEncoder.encodeInto and read it back with TextDecoder (native code).
// JS writes the input into `input_buffer`, calls a `*_at` function, then
// reads the output's address and length from `result_slot`.

/// The first `length` bytes JS wrote into the input buffer.
std::string_view input_view(std::size_t length);

// A loaded domain, or why it did not load.
class domain_handle {
 public:
  /// The domain configuration is the first `length` bytes of the input buffer.
  explicit domain_handle(std::size_t length) : load_error_(alfred::api::load_domain(domain_, input_view(length))) {}
  /// "" when the domain loaded, else `{"data":null,"error":{…}}`.
  std::string load_error() const { return load_error_; }
  const alfred::domain& get() const { return domain_; }

 private:
  alfred::domain domain_;
  std::string load_error_;
};

class registry_handle {
 public:
  /// The state is the first `length` bytes of the input buffer.
  std::string restore_at(std::size_t length) { return alfred::api::restore_registry(registry_, input_view(length)); }
  std::string to_json() const { return alfred::api::registry_state(registry_); }
  int turn() const { return registry_.turn(); }
  void set_turn(int n) { registry_.set_turn(n); }
  void end_turn() { registry_.end_turn(); }
  std::string register_generated(const domain_handle& dom, const std::string& table_name,
                                 const std::string& content_json) {
    return alfred::api::register_generated(dom.get(), registry_, table_name, content_json);
  }
  std::string promote(const domain_handle& dom, const std::string& gen_ref, const std::string& key,
                      const std::string& label) {
    return alfred::api::promote(dom.get(), registry_, gen_ref, key, label);
  }

  const alfred::ref_registry& get() const { return registry_; }
  alfred::ref_registry& get() { return registry_; }

 private:
  alfred::ref_registry registry_;
};

/// The output buffer: the calls that write into it keep its capacity
/// between calls; the others replace it with their result.
std::string& output_bytes();
/// Makes `output_bytes()` visible to JS through the result slot.
void publish_output();
/// Makes `text` visible to JS through the result slot, without copying it;
/// `text` must outlive JS reading it.
void publish(const std::string& text);
/// Publishes how a built request lies in the output text: the slot's words
/// 2 to 5 are the method's, the URL's and the body's lengths and whether
/// there is a body.
void publish_layout(const alfred::request_layout& layout);

// Request options made ready once for many requests (a session's
// credentials), or why they did not parse. The input buffer holds the
// options' JSON text.
class request_context_handle {
 public:
  explicit request_context_handle(std::size_t length)
      : load_error_(alfred::api::make_request_context(context_, input_view(length))) {}
  /// "" when the options parsed, else `{"data":null,"error":{…}}`.
  std::string load_error() const { return load_error_; }
  /// The headers every request of the context carries, as a JSON object.
  std::string headers() const { return alfred::api::context_headers(context_); }
  /// `{"data":null}`, or the error every request of the context would report.
  std::string send_error() const { return alfred::api::context_send_error(context_); }
  const alfred::request_context& get() const { return context_; }

 private:
  alfred::request_context context_;
  std::string load_error_;
};

}  // namespace alfred_wasm
