// The core's first binding file: the domain and registry classes, the byte
// transfer, and request building. Everything here moves bytes to and from
// the core's API layer (alfred/api/api.h), which makes every decision.

#include <emscripten/bind.h>

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

// The output's address and length, then a built request's layout.
std::uint32_t* result_slot_words() {
  static std::uint32_t slot[6];
  return slot;
}

std::uintptr_t input_buffer(std::size_t size) {
  if (input_bytes().size() < size) input_bytes().resize(size);
  return reinterpret_cast<std::uintptr_t>(input_bytes().data());
}

std::uintptr_t result_slot() { return reinterpret_cast<std::uintptr_t>(result_slot_words()); }

// The input and output buffers keep their capacity between calls (most
// calls are small and alike); after a large one JS calls this, so one huge
// input does not pin its memory for the life of the instance. The memory
// goes back to the allocator, which reuses it.
void trim_buffers() {
  constexpr std::size_t kKeep = std::size_t(1) << 20;
  if (input_bytes().capacity() > kKeep) std::string().swap(input_bytes());
  if (output_bytes().capacity() > kKeep) std::string().swap(output_bytes());
}

}  // namespace

std::string& output_bytes() {
  static std::string bytes;
  return bytes;
}

void publish(const std::string& text) {
  result_slot_words()[0] = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(text.data()));
  result_slot_words()[1] = static_cast<std::uint32_t>(text.size());
}

void publish_output() { publish(output_bytes()); }

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

namespace {

// The input buffer holds `[tool, params]`. True with the request as the
// output text (laid out as the slot says), false with the error result there.
bool build_request_at(const domain_handle& dom, const registry_handle& registry, const request_context_handle& context,
                      std::size_t length) {
  std::string& out = output_bytes();
  out.clear();
  alfred::request_layout layout;
  const bool ok = alfred::api::build_request(out, layout, dom.get(), registry.get(), context.get(), input_view(length));
  publish_output();
  publish_layout(layout);
  return ok;
}

}  // namespace
}  // namespace alfred_wasm

EMSCRIPTEN_BINDINGS(alfred_act) {
  using namespace emscripten;
  using namespace alfred_wasm;
  class_<domain_handle>("Domain").constructor<std::size_t>().function("loadError", &domain_handle::load_error);
  class_<registry_handle>("Registry")
      .constructor<>()
      .function("restoreAt", &registry_handle::restore_at)
      .function("toJSON", &registry_handle::to_json)
      .function("turn", &registry_handle::turn)
      .function("setTurn", &registry_handle::set_turn)
      .function("endTurn", &registry_handle::end_turn)
      .function("registerGenerated", &registry_handle::register_generated)
      .function("promote", &registry_handle::promote);
  class_<request_context_handle>("RequestContext")
      .constructor<std::size_t>()
      .function("loadError", &request_context_handle::load_error)
      .function("headers", &request_context_handle::headers)
      .function("sendError", &request_context_handle::send_error);
  function("inputBuffer", &input_buffer);
  function("trimBuffers", &trim_buffers);
  function("resultSlot", &result_slot);
  function("buildRequestAt", &build_request_at);
}
