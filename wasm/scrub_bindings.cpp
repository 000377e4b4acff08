// What JS sends to the model from the core: texts without UUIDs (correction
// feedback, plan and reply prompts; the same code that scrubs the Act prompt
// and the executor's errors, alfred/registry/uuid_scrub.h) and the tool result for
// the model of an outcome, through the core's API layer.

#include <emscripten/bind.h>

#include <string>

#include "handles.h"

namespace alfred_wasm {
namespace {

// `{"data":"<text with refs or <id> for UUIDs>"}`.
std::string without_uuids(const registry_handle& registry, const std::string& text) {
  return alfred::api::without_uuids(registry.get(), text);
}

// The tool result for the model of an outcome JS holds: the input buffer
// holds its fields, a newline and its rows; the text leaves through the
// result slot.
void model_tool_result_at(const registry_handle& registry, std::size_t length) {
  alfred::api::model_tool_result(output_bytes(), registry.get(), input_view(length));
  publish_output();
}

}  // namespace
}  // namespace alfred_wasm

EMSCRIPTEN_BINDINGS(alfred_act_scrub) {
  using namespace emscripten;
  using namespace alfred_wasm;
  function("withoutUuids", &without_uuids);
  function("modelToolResultAt", &model_tool_result_at);
}
