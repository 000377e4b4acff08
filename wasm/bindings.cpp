// The core's first binding file: the domain and registry classes, the byte
// transfer, and request building. Everything here is translation between the
// JS shapes and the core's types; no decisions are made in the bindings.

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

std::uint32_t* result_slot_words() {
  static std::uint32_t slot[2];
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

std::string out_of_memory_result() {
  return error_result(
      {codes::out_of_memory, "", "alfred-act core failed: the input needs more memory than the core may use",
       "use smaller inputs (the limits in docs/limits-and-faults.md keep one call well inside the memory "
       "cap)"});
}

std::string& output_bytes() {
  static std::string bytes;
  return bytes;
}

void publish(const std::string& text) {
  result_slot_words()[0] = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(text.data()));
  result_slot_words()[1] = static_cast<std::uint32_t>(text.size());
}

void publish_output() { publish(output_bytes()); }

std::string_view input_view(std::size_t length) {
  return std::string_view(input_bytes().data(), std::min(length, input_bytes().size()));
}

namespace {

using alfred::error_result;
using alfred::json_document;
using alfred::json_value;

// `call_json` is `[tool, params, options]`, so one string crosses the boundary.
// Appends the result to the empty `out`.
void build_request(std::string& out, const domain_handle& dom, const registry_handle& registry,
                   std::string_view call_json) {
  auto fail = [&](const alfred::error& err) { out = error_result(err); };
  auto doc = json_document::parse(call_json);
  if (!doc) return fail({codes::invalid_json, "params", doc.err().message, ""});
  const json_value call = doc->root();
  if (!call.is_array() || call.size() != 3 || !call.at(0).is_string())
    return fail({codes::invalid_params, "", "expected [tool, params, options]", ""});
  auto options = alfred::parse_request_options(call.at(2));
  if (!options) return fail(options.err());
  auto parsed = alfred::parse_tool_call(dom.get(), registry.get(), call.at(0).str(), call.at(1));
  if (!parsed) return fail(parsed.err());
  auto written = alfred::append_request_result(out, dom.get(), *parsed, *options);
  if (!written) return fail(written.err());
}

void build_request_at(const domain_handle& dom, const registry_handle& registry, std::size_t length) {
  std::string& out = output_bytes();
  out.clear();
  guarded_into(out, [&]() { build_request(out, dom, registry, input_view(length)); });
  publish_output();
}

// `{"data":null}`, or the error of request options (JSON text) that no
// request could be built with.
std::string check_request_options(const std::string& options_json) {
  return guarded([&]() {
    auto doc = json_document::parse(options_json);
    if (!doc) return error_result({codes::invalid_option, "", doc.err().message, ""});
    auto options = alfred::parse_request_options(doc->root());
    if (!options) return error_result(options.err());
    auto checked = alfred::check_request_options(*options);
    if (!checked) return error_result(checked.err());
    return alfred::data_result("null");
  });
}

}  // namespace
}  // namespace alfred_wasm

EMSCRIPTEN_BINDINGS(alfred_act) {
  using namespace emscripten;
  using namespace alfred_wasm;
  class_<domain_handle>("Domain").constructor<const std::string&>().function("loadError", &domain_handle::load_error);
  class_<registry_handle>("Registry")
      .constructor<>()
      .function("restore", &registry_handle::restore)
      .function("toJSON", &registry_handle::to_json)
      .function("turn", &registry_handle::turn)
      .function("setTurn", &registry_handle::set_turn)
      .function("endTurn", &registry_handle::end_turn)
      .function("translateRows", &registry_handle::translate_rows)
      .function("registerGenerated", &registry_handle::register_generated)
      .function("promote", &registry_handle::promote);
  function("inputBuffer", &input_buffer);
  function("trimBuffers", &trim_buffers);
  function("resultSlot", &result_slot);
  function("buildRequestAt", &build_request_at);
  function("checkRequestOptions", &check_request_options);
}
