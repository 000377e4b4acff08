#pragma once
/// Assembly of the Act prompt: a system prompt from the core's templates
/// (`prompts/act/*.md`) and a user prompt of numbered sections, chosen per
/// step type. The input is JSON (so JavaScript and the worker pass it
/// through unchanged; its shape is documented in docs/prompt-anatomy.md);
/// refs, labels and generated content come from the registry, the schema
/// section from the domain. Pure: no I/O, and the output never contains a
/// UUID (any that slipped into the input is replaced by its ref, or by
/// `<id>` when the registry does not know it).
///
///     auto prompt = build_act_prompt(dom, registry, input_json);  // result<act_prompt>
///     if (!prompt) return prompt.err();  // invalid_json, invalid_prompt_input, unknown_template
///     send(prompt->system, prompt->user);
///
/// The builders read the domain and the registry only while they run (they
/// change neither) and return text the caller owns; `embedded_template`'s
/// views point into the core's templates (see there).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "alfred/domain/domain.h"
#include "alfred/json/error.h"
#include "alfred/prompt/prompt_step.h"
#include "alfred/registry/registry.h"

namespace alfred {

/// The user prompt's sections, in the order they appear.
enum class prompt_section {
  status,
  previous_step_note,
  user_profile,
  user_preferences,
  task,
  data,
  schema,
  entities,
  artifacts,
  conversation,
  decision,
};

/// Every section, in prompt order.
inline constexpr prompt_section kPromptSections[] = {
    prompt_section::status,       prompt_section::previous_step_note,
    prompt_section::user_profile, prompt_section::user_preferences,
    prompt_section::task,         prompt_section::data,
    prompt_section::schema,       prompt_section::entities,
    prompt_section::artifacts,    prompt_section::conversation,
    prompt_section::decision,
};

enum class section_presence {
  always,      ///< present for this step type, with a one-line placeholder when empty
  when_given,  ///< present for this step type only when its input is non-empty
  never,
};

/// The section matrix (docs/prompt-anatomy.md).
section_presence section_presence_for(prompt_section section, step_type type);

/// The heading text ("Step History" for read/write, "Data Available" for
/// analyze/generate).
std::string_view prompt_section_title(prompt_section section, step_type type);

struct act_prompt {
  std::string system;
  std::string user;
};

/// Builds both prompts for one Act call. `input_json` is the prompt input
/// (step, user_message, conversation, plan, previous_steps,
/// current_step_results, previous_turns, today, user_profile,
/// subdomain_guidance, templates, limits). Errors: `invalid_json`,
/// `invalid_prompt_input` (path into the input), `unknown_template`.
result<act_prompt> build_act_prompt(const domain& dom, const ref_registry& registry, std::string_view input_json);

/// The core's template `name` ("act/base", "act/crud", "act/read",
/// "reply/executed-queries"): prompts/*.md, compiled into the native library
/// and given to the WebAssembly module by the package (set_prompt_templates).
/// act/crud has its operator table written in from the filter op rows
/// (filter_ops.h) where prompts/act/crud.md says `{{filter_op_table}}`. The
/// view is valid until the templates are set again.
std::optional<std::string_view> embedded_template(std::string_view name);

/// Names of all the core's templates, sorted.
std::vector<std::string_view> embedded_template_names();

/// Sets the core's templates: `templates_json` is one JSON object of texts
/// by name (`{"act/base": "# Act: …", …}`), as web/dist/prompt-templates.mjs
/// holds them. They replace the ones before; `invalid_option` for anything
/// but texts by name, and the templates stay as they were. Not synchronized:
/// set them before prompts are built on other threads.
status set_prompt_templates(std::string_view templates_json);

/// The embedded template `name` with `dom`'s examples in its `{{slots}}`
/// (prompt_examples.h), as the prompts use it; nullopt for an unknown name.
///
///     domain_template(crm, "reply/executed-queries")  // examples on deals, not inventory
std::optional<std::string> domain_template(const domain& dom, std::string_view name);

}  // namespace alfred
