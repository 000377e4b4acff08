// The prompt part of the WASM boundary: Act prompt assembly, query
// rendering, ActDecision parsing, the tool names and the step → tool rule, each delegating to
// the core's API layer (alfred/api/api.h). Its own EMSCRIPTEN_BINDINGS block.

#include <emscripten/bind.h>

#include <string>

#include "handles.h"

namespace alfred_wasm {
namespace {

// The prompt input is tens of kilobytes, and a model's reply or a query
// record is the caller's (it can be anything): they come through the byte
// transfer, and the results go back the same way.
void build_act_prompt_at(const domain_handle& dom, const registry_handle& registry, std::size_t length) {
  std::string& out = output_bytes();
  out.clear();
  alfred::api::build_act_prompt(out, dom.get(), registry.get(), input_view(length));
  publish_output();
}

void render_query_at(std::size_t length, const std::string& style) {
  output_bytes() = alfred::api::render_query(input_view(length), style);
  publish_output();
}

void parse_decision_at(std::size_t length, const std::string& step) {
  output_bytes() = alfred::api::parse_decision(input_view(length), step);
  publish_output();
}

std::string prompt_examples(const domain_handle& dom) { return alfred::api::prompt_examples(dom.get()); }

std::string act_decision_schema() { return std::string(alfred::api::act_decision_schema()); }

std::string core_rules() { return alfred::api::core_rules(); }

std::string schema_description(const domain_handle& dom) { return alfred::api::schema_description(dom.get()); }

}  // namespace
}  // namespace alfred_wasm

EMSCRIPTEN_BINDINGS(alfred_act_prompt) {
  using namespace emscripten;
  using namespace alfred_wasm;
  function("buildActPromptAt", &build_act_prompt_at);
  function("renderQueryAt", &render_query_at);
  function("parseDecisionAt", &parse_decision_at);
  function("actDecisionSchema", &act_decision_schema);
  function("promptExamples", &prompt_examples);
  function("coreRules", &core_rules);
  function("schemaDescription", &schema_description);
}
