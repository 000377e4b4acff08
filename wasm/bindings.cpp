// The core's first export file: the domain, registry and request-context
// handles, the byte transfer, and request building. Everything here moves
// bytes to and from the core's API layer (alfred/api/api.h), which makes
// every decision.

#include <algorithm>
#include <cstdint>
#include <string>

#include "handles.h"

namespace alfred_wasm {
namespace {
std::string& input_bytes() {
  static std::string bytes;
  return bytes;
}

std::string& argument_bytes() {
  static std::string bytes;
  return bytes;
}

// The output's address and length, then a built request's layout, then
// whether the output is Latin-1 (1) rather than UTF-8 (0).
std::uint32_t* result_slot_words() {
  static std::uint32_t slot[7];
  return slot;
}

void release_if_large(std::string& bytes) {
  if (bytes.capacity() > kKeepBytes) std::string().swap(bytes);
}

std::uintptr_t grown(std::string& bytes, std::size_t size) {
  if (bytes.size() < size) bytes.resize(size);
  return reinterpret_cast<std::uintptr_t>(bytes.data());
}

}  // namespace

std::string& output_bytes() {
  static std::string bytes;
  return bytes;
}

void publish(const std::string& text, bool latin1) {
  result_slot_words()[0] = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(text.data()));
  result_slot_words()[1] = static_cast<std::uint32_t>(text.size());
  result_slot_words()[6] = latin1 ? 1 : 0;
}

void publish_output() { publish(output_bytes()); }

void publish_text(std::string text) {
  output_bytes() = std::move(text);
  publish_output();
}

void publish_layout(const alfred::request_layout& layout) {
  std::uint32_t* words = result_slot_words();
  words[2] = static_cast<std::uint32_t>(layout.method_length);
  words[3] = static_cast<std::uint32_t>(layout.url_length);
  words[4] = static_cast<std::uint32_t>(layout.body_length);
  words[5] = layout.has_body ? 1 : 0;
}

std::string_view input_view(std::size_t length) {
  return std::string_view(input_bytes().data(), std::min(length, input_bytes().size()));
}

arguments::arguments() : rest_(argument_bytes()) {}

arguments::~arguments() { release_if_large(argument_bytes()); }

std::string_view arguments::next(std::size_t length) {
  const std::string_view text = rest_.substr(0, length);
  rest_.remove_prefix(text.size());
  return text;
}

}  // namespace alfred_wasm

using namespace alfred_wasm;

// Room for `size` bytes of input; the buffer moves only when it grows.
ALFRED_EXPORT std::uintptr_t alfred_input_buffer(std::size_t size) { return grown(input_bytes(), size); }

// Room for `size` bytes of a call's short texts.
ALFRED_EXPORT std::uintptr_t alfred_argument_buffer(std::size_t size) { return grown(argument_bytes(), size); }

ALFRED_EXPORT std::uintptr_t alfred_result_slot() { return reinterpret_cast<std::uintptr_t>(result_slot_words()); }

// kKeepBytes, for JS: the one definition of the size above which a buffer is
// given back after the call that used it.
ALFRED_EXPORT std::size_t alfred_keep_bytes() { return kKeepBytes; }

// The buffers keep their capacity between calls (most calls are small and
// alike); after a large one JS calls this, so one huge input does not pin
// its memory for the life of the instance. The memory goes back to the
// allocator, which reuses it.
ALFRED_EXPORT void alfred_trim_buffers() {
  release_if_large(input_bytes());
  release_if_large(output_bytes());
}

// The output buffer alone, after JS read a large output (web/src/core/abi.js):
// the input buffer's address is kept by JS between calls.
ALFRED_EXPORT void alfred_trim_output() { release_if_large(output_bytes()); }

// A domain from the first `length` bytes of the input buffer; its load
// error ("" when it loaded) is published.
ALFRED_EXPORT std::uintptr_t alfred_domain_new(std::size_t length) {
  return reinterpret_cast<std::uintptr_t>(new domain_handle(length));
}

ALFRED_EXPORT void alfred_domain_load_error(std::uintptr_t dom) { publish(at<domain_handle>(dom).load_error()); }

ALFRED_EXPORT void alfred_domain_delete(std::uintptr_t dom) { delete &at<domain_handle>(dom); }

ALFRED_EXPORT std::uintptr_t alfred_registry_new() { return reinterpret_cast<std::uintptr_t>(new registry_handle()); }

ALFRED_EXPORT void alfred_registry_delete(std::uintptr_t registry) { delete &at<registry_handle>(registry); }

// The state is the first `length` bytes of the input buffer.
ALFRED_EXPORT void alfred_registry_restore(std::uintptr_t registry, std::size_t length) {
  publish_text(alfred::api::restore_registry(at<registry_handle>(registry).get(), input_view(length)));
}

ALFRED_EXPORT void alfred_registry_state(std::uintptr_t registry) {
  publish_text(alfred::api::registry_state(at<registry_handle>(registry).get()));
}

ALFRED_EXPORT int alfred_registry_turn(std::uintptr_t registry) { return at<registry_handle>(registry).get().turn(); }

ALFRED_EXPORT void alfred_registry_set_turn(std::uintptr_t registry, int turn) {
  at<registry_handle>(registry).get().set_turn(turn);
}

ALFRED_EXPORT void alfred_registry_end_turn(std::uintptr_t registry) { at<registry_handle>(registry).get().end_turn(); }

// Arguments: the table name, the content's JSON.
ALFRED_EXPORT void alfred_registry_register_generated(std::uintptr_t registry, std::uintptr_t dom,
                                                      std::size_t table_length, std::size_t content_length) {
  arguments args;
  const auto table = args.next(table_length);
  const auto content = args.next(content_length);
  publish_text(alfred::api::register_generated(at<domain_handle>(dom).get(), at<registry_handle>(registry).get(), table,
                                               content));
}

// Arguments: the generated ref, the saved row's key, its label.
ALFRED_EXPORT void alfred_registry_promote(std::uintptr_t registry, std::uintptr_t dom, std::size_t ref_length,
                                           std::size_t key_length, std::size_t label_length) {
  arguments args;
  const auto ref = args.next(ref_length);
  const auto key = args.next(key_length);
  const auto label = args.next(label_length);
  publish_text(
      alfred::api::promote(at<domain_handle>(dom).get(), at<registry_handle>(registry).get(), ref, key, label));
}

// Request options from the first `length` bytes of the input buffer.
ALFRED_EXPORT std::uintptr_t alfred_request_context_new(std::size_t length) {
  return reinterpret_cast<std::uintptr_t>(new request_context_handle(length));
}

ALFRED_EXPORT void alfred_request_context_delete(std::uintptr_t context) {
  delete &at<request_context_handle>(context);
}

ALFRED_EXPORT void alfred_request_context_load_error(std::uintptr_t context) {
  publish(at<request_context_handle>(context).load_error());
}

// The headers every request of the context carries, as a JSON object.
ALFRED_EXPORT void alfred_request_context_headers(std::uintptr_t context) {
  publish_text(alfred::api::context_headers(at<request_context_handle>(context).get()));
}

// `{"data":null}`, or the error every request of the context would report.
ALFRED_EXPORT void alfred_request_context_send_error(std::uintptr_t context) {
  publish_text(alfred::api::context_send_error(at<request_context_handle>(context).get()));
}

// The input buffer holds `[tool, params]`. 1 with the request as the output
// text (laid out as the slot says), 0 with the error result there.
ALFRED_EXPORT int alfred_build_request(std::uintptr_t dom, std::uintptr_t registry, std::uintptr_t context,
                                       std::size_t length) {
  std::string& out = output_bytes();
  out.clear();
  alfred::request_layout layout;
  const bool ok =
      alfred::api::build_request(out, layout, at<domain_handle>(dom).get(), at<registry_handle>(registry).get(),
                                 at<request_context_handle>(context).get(), input_view(length));
  publish_output();
  publish_layout(layout);
  return ok ? 1 : 0;
}
