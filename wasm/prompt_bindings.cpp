// The prompt part of the WASM boundary: Act prompt assembly, query
// rendering, ActDecision parsing, the core rules and a
// domain's schema description, each delegating to the core's API layer
// (alfred/api/api.h).

#include <cstdint>
#include <string>

#include "handles.h"

using namespace alfred_wasm;

// The prompt input is tens of kilobytes, and a model's reply or a query
// record is the caller's (it can be anything): they come through the byte
// transfer, and the results go back the same way.
ALFRED_EXPORT void alfred_build_act_prompt(std::uintptr_t dom, std::uintptr_t registry, std::size_t length) {
  std::string& out = output_bytes();
  out.clear();
  alfred::api::build_act_prompt(out, at<domain_handle>(dom).get(), at<registry_handle>(registry).get(),
                                input_view(length));
  publish_output();
}

// The prompt templates (web/dist/prompt-templates.mjs), once per instance
// before its first prompt: the module does not carry them.
ALFRED_EXPORT void alfred_set_prompt_templates(std::size_t length) {
  publish_text(alfred::api::set_prompt_templates(input_view(length)));
}

// Argument: the style.
ALFRED_EXPORT void alfred_render_query(std::size_t length, std::size_t style_length) {
  arguments args;
  const auto style = args.next(style_length);
  publish_text(alfred::api::render_query(input_view(length), style));
}

// Argument: the step.
ALFRED_EXPORT void alfred_parse_decision(std::size_t length, std::size_t step_length) {
  arguments args;
  const auto step = args.next(step_length);
  publish_text(alfred::api::parse_decision(input_view(length), step));
}

ALFRED_EXPORT void alfred_prompt_examples(std::uintptr_t dom) {
  publish_text(alfred::api::prompt_examples(at<domain_handle>(dom).get()));
}

ALFRED_EXPORT void alfred_core_rules() { publish_text(alfred::api::core_rules()); }

// Argument: the names the app fixes, comma-separated.
ALFRED_EXPORT void alfred_schema_description(std::uintptr_t dom, std::size_t fixed_length) {
  arguments args;
  publish_text(alfred::api::schema_description(at<domain_handle>(dom).get(), args.next(fixed_length)));
}
