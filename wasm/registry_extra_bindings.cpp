// The registry's free functions: revising a pending generated artifact, the
// table a ref names, and the ref grammar. Each delegates to the core's API
// layer (alfred/api.h).

#include <emscripten/bind.h>

#include <string>

#include "handles.h"

namespace alfred_wasm {
namespace {

std::string update_generated(registry_handle& registry, const domain_handle& dom, const std::string& gen_ref,
                             const std::string& content_json) {
  return alfred::api::update_generated(dom.get(), registry.get(), gen_ref, content_json);
}

std::string ref_table(const registry_handle& registry, const std::string& ref) {
  return alfred::api::ref_table(registry.get(), ref);
}

std::string parse_ref(const std::string& text) { return alfred::api::parse_ref(text); }

}  // namespace
}  // namespace alfred_wasm

EMSCRIPTEN_BINDINGS(alfred_act_registry_extra) {
  using namespace emscripten;
  using namespace alfred_wasm;
  function("registryUpdateGenerated", &update_generated);
  function("registryRefTable", &ref_table);
  function("parseRef", &parse_ref);
}
