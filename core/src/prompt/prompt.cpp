#include "alfred/prompt/prompt.h"

#include "../json/format.h"
#include "alfred/domain/prompt_examples.h"
#include "alfred/registry/uuid_scrub.h"
#include "prompt_input.h"
#include "prompt_sections.h"
#include "prompt_text.h"

namespace alfred {
namespace {

using detail::prompt_input;

constexpr section_presence A = section_presence::always;
constexpr section_presence G = section_presence::when_given;
constexpr section_presence N = section_presence::never;

std::string_view step_label(step_type type) {
  switch (type) {
    case step_type::read:
      return "a read step";
    case step_type::write:
      return "a write step";
    case step_type::analyze:
      return "an analyze step";
    case step_type::generate:
      return "a generate step";
  }
  return "this step";
}

std::string_view trimmed_end(std::string_view text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.remove_suffix(1);
  return text;
}

std::string_view template_text(const prompt_input& in, std::string_view name) {
  if (auto custom = in.template_override(name)) return *custom;
  return embedded_template(name).value_or(std::string_view());
}

// The templates with the domain's examples in their {{slots}}.
std::string system_prompt(const domain& dom, const prompt_input& in) {
  std::string out(trimmed_end(template_text(in, "act/base")));
  if (step_calls_tools(in.type)) out.append("\n\n---\n\n").append(trimmed_end(template_text(in, "act/crud")));
  const std::string step_name = "act/" + std::string(step_type_name(in.type));
  out.append("\n\n---\n\n").append(trimmed_end(template_text(in, step_name))).append("\n");
  if (dom.resolved_prompt_examples.size() == prompt_example_slots().size())
    return fill_examples(out, dom.resolved_prompt_examples);
  return fill_examples(out, prompt_examples(dom));
}

void append_status(std::string& out, const prompt_input& in) {
  const std::string_view today = in.today.empty() ? std::string_view("not given") : in.today;
  std::string type(step_type_name(in.type));
  if (!step_calls_tools(in.type)) type += " (no database calls)";
  if (step_calls_tools(in.type)) {
    out += "| Step | Type | Tool calls so far | Today |\n|---|---|---|---|\n";
    textfmt::format_to(out, "| {} of {} | {} | {} | {} |\n", in.index + 1, in.total, type,
                       in.current_step_results.size(), today);
  } else {
    out += "| Step | Type | Today |\n|---|---|---|\n";
    textfmt::format_to(out, "| {} of {} | {} | {} |\n", in.index + 1, in.total, type, today);
  }
}

void append_previous_note(std::string& out, const prompt_input& in) {
  if (in.previous_steps.empty() || in.previous_steps.back().note.empty()) return;
  const auto& last = in.previous_steps.back();
  textfmt::format_to(out, "From step {}: ", last.index + 1);
  detail::append_bounded(out, last.note, in.limits.chars_per_message);
  out += '\n';
}

void append_profile(std::string& out, const prompt_input& in) {
  if (!in.user_profile) return;
  const json_value profile = *in.user_profile;
  if (profile.is_string()) {
    if (!trimmed_end(profile.str()).empty()) out.append(trimmed_end(profile.str())).append("\n");
    return;
  }
  profile.for_each_member([&](std::string_view key, json_value value) {
    if (value.is_null() || (value.is_array() && value.empty()) || (value.is_string() && value.str().empty())) return;
    out.append("- ").append(key).append(": ");
    detail::append_display_value(out, value, in.limits.chars_per_value);
    out += '\n';
  });
}

void append_preferences(std::string& out, const prompt_input& in) {
  if (!trimmed_end(in.user_preferences).empty()) out.append(trimmed_end(in.user_preferences)).append("\n");
}

void append_task(std::string& out, const prompt_input& in) {
  out.append("**Your job this step:** ").append(in.description).append("\n");
  if (!in.user_message.empty()) {
    out += "\n**The user's full request:** \"";
    detail::append_bounded(out, in.user_message, in.limits.chars_per_message);
    out += "\" (parts other steps handle are not yours)\n";
  }
  if (in.plan.empty()) return;
  out += "\n**Plan:**\n";
  for (std::size_t i = 0; i < in.plan.size(); ++i) {
    const long index = static_cast<long>(i);
    const std::string_view state = index < in.index ? "done" : index == in.index ? "this step" : "later";
    textfmt::format_to(out, "{}. {} — {}\n", i + 1, in.plan[i], state);
  }
}

void append_conversation(std::string& out, const prompt_input& in) {
  const auto& messages = in.conversation;
  if (messages.empty()) {
    out += "*No earlier conversation.*\n";
    return;
  }
  const std::size_t shown = std::min(messages.size(), in.limits.conversation_messages);
  if (shown < messages.size()) textfmt::format_to(out, "({} earlier messages not shown)\n", messages.size() - shown);
  for (std::size_t i = messages.size() - shown; i < messages.size(); ++i) {
    const auto& msg = messages[i];
    const std::string_view role = msg.role == "user"        ? std::string_view("User")
                                  : msg.role == "assistant" ? std::string_view("Assistant")
                                                            : msg.role;
    out.append("- **").append(role).append(":** ");
    std::string text;
    detail::append_bounded(text, msg.text, in.limits.chars_per_message);
    detail::replace_all(text, "\n", "\n  ");
    out.append(text).append("\n");
  }
}

// The functions a step may call (a read step: those that read), by name.
std::string callable_functions(const domain& dom, step_type type) {
  std::string out;
  for (const auto& fn : dom.functions) {
    if (type == step_type::read && !fn.read) continue;
    out.append(out.empty() ? "`" : ", `").append(fn.name).append("`");
  }
  return out;
}

void append_decision(std::string& out, const domain& dom, const prompt_input& in) {
  out +=
      "Reply with one ActDecision JSON object: every field present, `null` for the fields your action does not "
      "use.\n";
  const std::string functions = step_calls_tools(in.type) ? callable_functions(dom, in.type) : std::string();
  if (in.type == step_type::read) {
    textfmt::format_to(out,
                       "Allowed in {}: `tool_call` (`db_read`{}), `step_complete`, `ask_user`, `blocked`, `fail`.\n"
                       "- Need rows → `tool_call` with `tool: \"db_read\"` and `params`.\n",
                       step_label(in.type), functions.empty() ? " only" : ", or `db_call` of a function that reads");
  } else if (in.type == step_type::write) {
    textfmt::format_to(
        out,
        "Allowed in {}: `tool_call` (`db_create`, `db_update`, `db_delete`, `db_read`{}), `step_complete`, "
        "`ask_user`, `blocked`, `fail`.\n"
        "- A change to make → `tool_call` with `tool` and `params` (`params.data` is JSON text).\n",
        step_label(in.type), functions.empty() ? "" : ", `db_call`");
  } else {
    textfmt::format_to(out, "Allowed in {}: `step_complete`, `ask_user`, `blocked`, `fail`. No tool calls.\n",
                       step_label(in.type));
  }
  if (!functions.empty())
    textfmt::format_to(out,
                       "- The app's own function does it ({}; their arguments are in the Schema's Functions) → "
                       "`tool_call` with `tool: \"db_call\"`, `params.function` and `params.args` (JSON text of the "
                       "arguments, refs for rows). Prefer a function to the generic tools when one fits the request.\n",
                       functions);
  if (step_calls_tools(in.type))
    out +=
        "- Step done → `step_complete` with `summary` and `note_for_next_step` naming the refs the next step needs.\n";
  else
    out += "- Step done → `step_complete` with `summary`, `data` (the result as JSON text) and `note_for_next_step`.\n";
  out +=
      "- Only the user can answer → `ask_user` with `question`.\n"
      "- Cannot be done as planned → `blocked` with `reason_code` (INSUFFICIENT_INFO, PLAN_INVALID, TOOL_FAILURE), "
      "`details` and `suggested_next` (ask_user, replan, fail).\n";
}

// What a section's body is written from.
struct section_context {
  const domain& dom;
  const ref_registry& registry;
  const prompt_input& in;
  detail::shown_refs& shown;
};

struct matrix_row {
  prompt_section section;
  std::string_view title;
  section_presence read, write, analyze, generate;
  // Writes the body; an empty body leaves the section out.
  void (*body)(std::string& out, section_context& c);
};

// The section matrix, in prompt order: each section's heading, when it is
// there for each step type, and what writes its body. docs/prompt-anatomy.md
// explains each choice; adding a section is a row here (and its value of
// prompt_section).
constexpr matrix_row kMatrix[] = {
    {prompt_section::status, "Status", A, A, A, A,
     [](std::string& out, section_context& c) { append_status(out, c.in); }},
    {prompt_section::previous_step_note, "Previous Step Note", G, G, G, G,
     [](std::string& out, section_context& c) { append_previous_note(out, c.in); }},
    {prompt_section::user_profile, "User Profile", N, N, G, G,
     [](std::string& out, section_context& c) { append_profile(out, c.in); }},
    {prompt_section::user_preferences, "User Preferences", N, G, G, G,
     [](std::string& out, section_context& c) { append_preferences(out, c.in); }},
    {prompt_section::task, "Task", A, A, A, A, [](std::string& out, section_context& c) { append_task(out, c.in); }},
    {prompt_section::data, "Step History", A, A, A, A,
     [](std::string& out, section_context& c) { detail::append_data_body(out, c.in, c.shown); }},
    {prompt_section::schema, "Schema", A, A, N, A,
     [](std::string& out, section_context& c) { detail::append_schema_body(out, c.dom); }},
    {prompt_section::entities, "Entities in Context", A, A, A, A,
     [](std::string& out, section_context& c) {
       detail::append_entities_body(
           out, c.registry, c.in, c.shown,
           section_presence_for(prompt_section::artifacts, c.in.type) != section_presence::never);
     }},
    {prompt_section::artifacts, "Generated Artifacts", N, A, A, A,
     [](std::string& out, section_context& c) { detail::append_artifacts_body(out, c.registry); }},
    {prompt_section::conversation, "Conversation", A, A, A, A,
     [](std::string& out, section_context& c) { append_conversation(out, c.in); }},
    {prompt_section::decision, "Decision", A, A, A, A,
     [](std::string& out, section_context& c) { append_decision(out, c.dom, c.in); }},
};

constexpr bool matrix_in_prompt_order() {
  if (std::size(kMatrix) != std::size(kPromptSections)) return false;
  for (std::size_t i = 0; i < std::size(kMatrix); ++i)
    if (kMatrix[i].section != kPromptSections[i] || static_cast<std::size_t>(kMatrix[i].section) != i) return false;
  return true;
}
static_assert(matrix_in_prompt_order(), "kMatrix lists every prompt_section once, in enum and kPromptSections order");

const matrix_row& row_of(prompt_section section) { return kMatrix[static_cast<std::size_t>(section)]; }

std::string user_prompt(const domain& dom, const ref_registry& registry, const prompt_input& in) {
  std::string out = textfmt::format("# Act: step {} of {} ({})", in.index + 1, in.total, step_type_name(in.type));
  if (!in.subdomain.empty()) out.append(", subdomain ").append(in.subdomain);
  out += '\n';
  detail::shown_refs shown;
  section_context context{dom, registry, in, shown};
  int number = 0;
  std::string body;
  for (const matrix_row& row : kMatrix) {
    if (section_presence_for(row.section, in.type) == section_presence::never) continue;
    body.clear();
    row.body(body, context);
    if (body.empty()) continue;
    textfmt::format_to(out, "\n## {}. {}\n", ++number, prompt_section_title(row.section, in.type));
    out += body;
  }
  return out;
}

}  // namespace

section_presence section_presence_for(prompt_section section, step_type type) {
  const matrix_row& row = row_of(section);
  switch (type) {
    case step_type::read:
      return row.read;
    case step_type::write:
      return row.write;
    case step_type::analyze:
      return row.analyze;
    case step_type::generate:
      return row.generate;
  }
  return section_presence::never;
}

std::string_view prompt_section_title(prompt_section section, step_type type) {
  if (section == prompt_section::data && !step_calls_tools(type)) return "Data Available";
  return row_of(section).title;
}

std::string_view step_type_name(step_type type) {
  switch (type) {
    case step_type::read:
      return "read";
    case step_type::write:
      return "write";
    case step_type::analyze:
      return "analyze";
    case step_type::generate:
      return "generate";
  }
  return "read";
}

std::optional<step_type> parse_step_type(std::string_view name) {
  for (step_type type : {step_type::read, step_type::write, step_type::analyze, step_type::generate})
    if (step_type_name(type) == name) return type;
  return std::nullopt;
}

result<act_prompt> build_act_prompt(const domain& dom, const ref_registry& registry, std::string_view input_json) {
  auto doc = json_document::parse(input_json);
  if (!doc) return error{codes::invalid_json, "", doc.err().message, "the prompt input must be one JSON object"};
  auto in = detail::read_prompt_input(doc->root());
  if (!in) return in.take_error();
  if (embedded_template_names().empty())
    return error{codes::unknown_template, "templates", "the core has no prompt templates",
                 "set them before the first prompt (set_prompt_templates; the package does)"};
  for (const auto& [name, text] : in->templates)
    if (!embedded_template(name)) {
      std::string names;
      for (auto known : embedded_template_names()) names.append(names.empty() ? "" : ", ").append(known);
      return error{codes::unknown_template, "templates." + std::string(name),
                   textfmt::format("'{}' is not a template name", name), "templates: " + names};
    }
  act_prompt prompt{system_prompt(dom, *in), user_prompt(dom, registry, *in)};
  scrub_uuids(prompt.system, registry);
  scrub_uuids(prompt.user, registry);
  return prompt;
}

std::optional<std::string> domain_template(const domain& dom, std::string_view name) {
  auto text = embedded_template(name);
  if (!text) return std::nullopt;
  return fill_examples(*text, prompt_examples(dom));
}

}  // namespace alfred
