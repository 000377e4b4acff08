#pragma once
// What the export files share: the handle classes of a domain, a registry
// and a request context, the byte transfer through WASM memory, and the
// export macro. Every decision is the core's API layer (alfred/api/api.h);
// the handles only hold its state.
//
// The boundary is plain C functions over numbers (docs/architecture.md,
// "The boundary"): a handle is its address, texts go in through the input
// and argument buffers and come out through the result slot.
// web/src/core/abi.js gives JS the same calls as handle objects.

#include <emscripten/emscripten.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "alfred/api/api.h"

// A function JS calls: C linkage, kept by the linker, exported as `_<name>`.
#define ALFRED_EXPORT extern "C" EMSCRIPTEN_KEEPALIVE

namespace alfred_wasm {

using alfred::api::guarded_into;

// Byte transfer: JS fills WASM memory with TextEncoder.encodeInto and reads
// it back with TextDecoder (native code), writing the input into
// `input_buffer`, calling an export, then reading the output's address and
// length from `result_slot`.

/// Buffers above this go back to the allocator after the call that used them
/// (JS reads it with alfred_keep_bytes); below it they are kept for reuse.
constexpr std::size_t kKeepBytes = std::size_t(1) << 20;

/// The first `length` bytes JS wrote into the input buffer.
std::string_view input_view(std::size_t length);

/// The short texts of a call (a table name, a ref, a style), which JS writes
/// one after another into the argument buffer; each export reads them in
/// order with the lengths it was given.
class arguments {
 public:
  arguments();
  /// Gives a large argument buffer back to the allocator (the views are gone by then).
  ~arguments();
  arguments(const arguments&) = delete;
  arguments& operator=(const arguments&) = delete;
  /// The next `length` bytes.
  std::string_view next(std::size_t length);

 private:
  std::string_view rest_;
};

/// The output buffer: the calls that write into it keep its capacity
/// between calls; the others replace it with their result.
std::string& output_bytes();
/// Makes `output_bytes()` visible to JS through the result slot.
void publish_output();
/// Makes `text` visible to JS through the result slot, without copying it;
/// `text` must outlive JS reading it. `latin1`: the text is Latin-1, not UTF-8.
void publish(const std::string& text, bool latin1 = false);
/// Makes `text` the output and publishes it.
void publish_text(std::string text);
/// Publishes how a built request lies in the output text: the slot's words
/// 2 to 5 are the method's, the URL's and the body's lengths and whether
/// there is a body.
void publish_layout(const alfred::request_layout& layout);

// A loaded domain, or why it did not load.
class domain_handle {
 public:
  /// The domain configuration is the first `length` bytes of the input buffer.
  explicit domain_handle(std::size_t length) : load_error_(alfred::api::load_domain(domain_, input_view(length))) {}
  /// "" when the domain loaded, else `{"data":null,"error":{…}}`.
  const std::string& load_error() const { return load_error_; }
  const alfred::domain& get() const { return domain_; }

 private:
  alfred::domain domain_;
  std::string load_error_;
};

class registry_handle {
 public:
  const alfred::ref_registry& get() const { return registry_; }
  alfred::ref_registry& get() { return registry_; }

 private:
  alfred::ref_registry registry_;
};

// Request options made ready once for many requests (a session's
// credentials), or why they did not parse. The input buffer holds the
// options' JSON text.
class request_context_handle {
 public:
  explicit request_context_handle(std::size_t length)
      : load_error_(alfred::api::make_request_context(context_, input_view(length))) {}
  /// "" when the options parsed, else `{"data":null,"error":{…}}`.
  const std::string& load_error() const { return load_error_; }
  const alfred::request_context& get() const { return context_; }

 private:
  alfred::request_context context_;
  std::string load_error_;
};

/// The handle at `address` (an address JS got from its constructor export).
/// A C++ exception leaving an export (an allocation that failed at the
/// boundary; the API layer catches everything else) reaches JS as a
/// WebAssembly.Exception, which JS reports as out_of_memory.
template <typename Handle>
Handle& at(std::uintptr_t address) {
  return *reinterpret_cast<Handle*>(address);
}

}  // namespace alfred_wasm
