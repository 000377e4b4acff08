// The registry's free functions: revising a pending generated artifact, the
// table a ref names, the ref grammar, and the ids of creates of unknown
// outcome. Each delegates to the core's API
// layer (alfred/api/api.h).

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

std::string uncertain_ids(const registry_handle& registry, const std::string& key) {
  return alfred::api::uncertain_ids(registry.get(), key);
}

std::string set_uncertain(registry_handle& registry, const std::string& key, const std::string& ids_json) {
  return alfred::api::set_uncertain(registry.get(), key, ids_json);
}

}  // namespace
}  // namespace alfred_wasm

EMSCRIPTEN_BINDINGS(alfred_act_registry_extra) {
  using namespace emscripten;
  using namespace alfred_wasm;
  function("registryUpdateGenerated", &update_generated);
  function("registryRefTable", &ref_table);
  function("parseRef", &parse_ref);
  function("registryUncertainIds", &uncertain_ids);
  function("registrySetUncertain", &set_uncertain);
}
