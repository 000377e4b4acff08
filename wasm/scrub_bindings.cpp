// The UUID scrubber for texts the JS loop sends to the model (correction
// feedback, plan and reply prompts): the same code that scrubs the Act
// prompt and the executor's errors (alfred/uuid_scrub.h), through the core's
// API layer.

#include <emscripten/bind.h>

#include <string>

#include "handles.h"

namespace alfred_wasm {
namespace {

// `{"data":"<text with refs or <id> for UUIDs>"}`.
std::string without_uuids(const registry_handle& registry, const std::string& text) {
  return alfred::api::without_uuids(registry.get(), text);
}

}  // namespace
}  // namespace alfred_wasm

EMSCRIPTEN_BINDINGS(alfred_act_scrub) {
  using namespace emscripten;
  using namespace alfred_wasm;
  function("withoutUuids", &without_uuids);
}
