// The prompt part of the WASM boundary: Act prompt assembly, query
// rendering and ActDecision parsing, each taking and returning JSON text
// (`{"data": …, "error": …}`). Its own EMSCRIPTEN_BINDINGS block; no
// decisions are made here.

#include <emscripten/bind.h>

#include <string>

#include "alfred/decision.h"
#include "alfred/prompt.h"
#include "alfred/prompt_examples.h"
#include "alfred/prompt_query.h"
#include "handles.h"

namespace {

// The prompt input is tens of kilobytes: it comes through the byte transfer
// (handles.h), and the prompts go back the same way.
void build_act_prompt_at(const alfred_wasm::domain_handle& dom, const alfred_wasm::registry_handle& registry,
                         std::size_t length) {
  std::string& out = alfred_wasm::output_bytes();
  out.clear();
  alfred_wasm::guarded_into(out, [&]() {
    auto prompt = alfred::build_act_prompt(dom.get(), registry.get(), alfred_wasm::input_view(length));
    if (!prompt) {
      out = alfred::error_result(prompt.err());
      return;
    }
    std::string data;
    alfred::json_writer w(data);
    w.begin_object();
    w.key("system");
    w.string(prompt->system);
    w.key("user");
    w.string(prompt->user);
    w.end_object();
    out = alfred::data_result(data);
  });
  alfred_wasm::publish_output();
}

// The record and the reply come through the byte transfer too: they are
// the caller's (a model's reply can be anything), and embind's string
// marshalling does not survive an allocation failure.
void render_query_at(std::size_t length, const std::string& style) {
  std::string& out = alfred_wasm::output_bytes();
  out.clear();
  alfred_wasm::guarded_into(out, [&]() {
    auto text = alfred::render_query(alfred_wasm::input_view(length),
                                     style == "line" ? alfred::query_style::line : alfred::query_style::block);
    out = text ? alfred::data_result(alfred::json_quote(*text)) : alfred::error_result(text.err());
  });
  alfred_wasm::publish_output();
}

void parse_decision_at(std::size_t length, const std::string& step) {
  std::string& out = alfred_wasm::output_bytes();
  out.clear();
  alfred_wasm::guarded_into(out, [&]() {
    std::optional<alfred::step_type> type;
    if (!step.empty()) {
      type = alfred::parse_step_type(step);
      if (!type) {
        out = alfred::error_result({alfred::codes::invalid_option, "stepType", "'" + step + "' is not a step type",
                                    "one of: read, write, analyze, generate"});
        return;
      }
    }
    auto decision = alfred::parse_decision(alfred_wasm::input_view(length), type);
    out = decision ? alfred::data_result(alfred::decision_to_json(*decision)) : alfred::error_result(decision.err());
  });
  alfred_wasm::publish_output();
}

std::string prompt_examples(const alfred_wasm::domain_handle& dom) {
  return alfred_wasm::guarded([&]() -> std::string {
    std::string data;
    alfred::json_writer w(data);
    w.begin_object();
    for (const auto& [slot, text] : alfred::prompt_examples(dom.get())) {
      w.key(slot);
      w.string(text);
    }
    w.end_object();
    return alfred::data_result(data);
  });
}

std::string act_decision_schema() { return std::string(alfred::act_decision_schema()); }

}  // namespace

EMSCRIPTEN_BINDINGS(alfred_act_prompt) {
  using namespace emscripten;
  function("buildActPromptAt", &build_act_prompt_at);
  function("renderQueryAt", &render_query_at);
  function("parseDecisionAt", &parse_decision_at);
  function("actDecisionSchema", &act_decision_schema);
  function("promptExamples", &prompt_examples);
}
