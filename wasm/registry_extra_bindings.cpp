// Revision of a pending generated artifact: the Act loop's generate step may
// answer with new content for a gen_ ref it made earlier ("make it
// spicier"). Its own EMSCRIPTEN_BINDINGS block, as a free function taking
// the registry handle, so the Registry class binding stays untouched.

#include <emscripten/bind.h>

#include <string>

#include "handles.h"

namespace alfred_wasm {
namespace {

// Replaces the content (and label) of the pending artifact `gen_ref`.
// Returns `{"data":"<gen_ref>"}`, or an error when the ref is not a pending
// artifact (unknown, or already saved) or the content is not a JSON object.
std::string update_generated(registry_handle& registry, const domain_handle& dom, const std::string& gen_ref,
                             const std::string& content_json) {
  return guarded([&]() -> std::string {
    const alfred::ref_entry* entry = registry.get().find(gen_ref);
    if (!entry || !entry->pending()) {
      const std::string hint = entry && entry->generated
                                   ? "it was saved as " + entry->saved_as + "; change the saved row with db_update"
                                   : "revise a gen_ ref listed as pending";
      return error_result({codes::unknown_ref, "", gen_ref + " is not a pending generated artifact", hint});
    }
    const alfred::table* tbl = dom.table(entry->table);
    if (!tbl) return error_result(unknown_table(entry->table));
    auto content = json_document::parse(content_json);
    if (!content) return error_result({codes::invalid_json, "content", content.err().message, ""});
    if (!content->root().is_object())
      return error_result({codes::invalid_content, "content", "the content of an artifact must be an object", ""});
    const std::string label = alfred::row_label(*tbl, content->root());
    auto updated = registry.get().update_generated(gen_ref, content_json, label);
    if (!updated) return error_result(updated.err());
    return quoted_data(gen_ref);
  });
}

}  // namespace
}  // namespace alfred_wasm

EMSCRIPTEN_BINDINGS(alfred_act_registry_extra) {
  using namespace emscripten;
  using namespace alfred_wasm;
  function("registryUpdateGenerated", &update_generated);
}
