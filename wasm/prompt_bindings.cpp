// The prompt part of the WASM boundary: Act prompt assembly, query
// rendering and ActDecision parsing, each taking and returning JSON text
// (`{"data": …, "error": …}`). Its own EMSCRIPTEN_BINDINGS block; no
// decisions are made here.

#include <emscripten/bind.h>

#include <exception>
#include <string>

#include "alfred/decision.h"
#include "alfred/domain.h"
#include "alfred/json.h"
#include "alfred/prompt.h"
#include "alfred/prompt_query.h"
#include "alfred/registry.h"
#include "alfred/request.h"

namespace {

alfred::error internal_error(const char* what) {
  return {"internal_error", "", std::string("alfred-act core failed: ") + what,
          "please report this with the input that caused it"};
}

// Turns an escaped C++ exception (allocation failure) into an error result.
template <class F>
std::string guarded(F&& body) {
#if defined(__cpp_exceptions)
  try {
    return body();
  } catch (const std::exception& e) {
    return alfred::error_result(internal_error(e.what()));
  } catch (...) {
    return alfred::error_result(internal_error("unknown exception"));
  }
#else
  return body();
#endif
}

/// A compiled domain for prompt assembly. The registry arrives as its
/// `toJSON()` state, so this file needs nothing from the request bindings.
class act_prompts {
 public:
  explicit act_prompts(const std::string& domain_json) {
    load_error_ = guarded([&]() -> std::string {
      auto parsed = alfred::parse_domain(domain_json);
      if (!parsed) return alfred::error_result(parsed.err());
      domain_ = std::move(*parsed);
      return {};
    });
  }
  std::string load_error() const { return load_error_; }

  std::string build(const std::string& registry_state, const std::string& input_json) const {
    return guarded([&]() -> std::string {
      alfred::ref_registry registry;
      if (!registry_state.empty()) {
        auto restored = alfred::ref_registry::from_json(registry_state);
        if (!restored) return alfred::error_result(restored.err());
        registry = std::move(*restored);
      }
      auto prompt = alfred::build_act_prompt(domain_, registry, input_json);
      if (!prompt) return alfred::error_result(prompt.err());
      std::string data;
      alfred::json_writer w(data);
      w.begin_object();
      w.key("system");
      w.string(prompt->system);
      w.key("user");
      w.string(prompt->user);
      w.end_object();
      return alfred::data_result(data);
    });
  }

 private:
  alfred::domain domain_;
  std::string load_error_;
};

std::string render_query(const std::string& record_json, const std::string& style) {
  return guarded([&]() -> std::string {
    auto text = alfred::render_query(record_json, style == "line" ? alfred::query_style::line
                                                                  : alfred::query_style::block);
    if (!text) return alfred::error_result(text.err());
    return alfred::data_result(alfred::json_quote(*text));
  });
}

std::string parse_decision(const std::string& text, const std::string& step) {
  return guarded([&]() -> std::string {
    std::optional<alfred::step_type> type;
    if (!step.empty()) {
      type = alfred::parse_step_type(step);
      if (!type)
        return alfred::error_result({"invalid_option", "stepType", "'" + step + "' is not a step type",
                                     "one of: read, write, analyze, generate"});
    }
    auto decision = alfred::parse_decision(text, type);
    if (!decision) return alfred::error_result(decision.err());
    return alfred::data_result(alfred::decision_to_json(*decision));
  });
}

std::string act_decision_schema() { return std::string(alfred::act_decision_schema()); }

}  // namespace

EMSCRIPTEN_BINDINGS(alfred_act_prompt) {
  using namespace emscripten;
  class_<act_prompts>("ActPrompts")
      .constructor<const std::string&>()
      .function("loadError", &act_prompts::load_error)
      .function("build", &act_prompts::build);
  function("renderQuery", &render_query);
  function("parseDecision", &parse_decision);
  function("actDecisionSchema", &act_decision_schema);
}
