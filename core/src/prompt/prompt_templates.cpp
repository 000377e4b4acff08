// The templates under prompts/: compiled into the native library (cmake
// defines ALFRED_EMBED_PROMPT_TEMPLATES), and handed to the WebAssembly
// module by the package before its first prompt (set_prompt_templates,
// from web/dist/prompt-templates.mjs, generated from the same files), so
// that the module a worker loads to serve calls does not carry them. The
// core needs no file system either way: workers and browsers have none.
#include <algorithm>
#include <utility>
#include <vector>

#include "alfred/json/json.h"
#include "alfred/prompt/prompt.h"
#include "alfred/tool_call/filter_ops.h"
#include "prompt_text.h"
#ifdef ALFRED_EMBED_PROMPT_TEMPLATES
#include "alfred_prompt_templates.h"
#endif

namespace alfred {
namespace {

// Where a template wants the operator table, alone on its line (act/crud).
constexpr std::string_view kFilterOpTable = "{{filter_op_table}}";

// The rows of the operator table: ops sharing an example slot share a line
// ("| `>` `>=` `<` `<=` | compare numbers and dates | {{op_compare}} |"); an op
// without a meaning of its own gets the slot alone, whose text is the whole
// line or nothing.
std::string filter_op_table() {
  std::string out;
  const auto rules = filter_op_rules();
  for (std::size_t i = 0; i < rules.size(); ++i) {
    const filter_op_rule& rule = rules[i];
    if (opens_prompt_line(i)) out.append(i ? "\n" : "").append(rule.meaning.empty() ? "" : "|");
    if (!rule.meaning.empty()) out.append(" `").append(rule.name).append("`");
    if (i + 1 < rules.size() && !opens_prompt_line(i + 1)) continue;  // the line goes on
    if (!rule.meaning.empty()) out.append(" | ").append(rule.meaning).append(" | ");
    out.append("{{").append(rule.example_slot).append("}}").append(rule.meaning.empty() ? "" : " |");
  }
  return out;
}

// The templates, in the order given, each with the operator table written in
// where it asks for it (act/crud; a test checks that it is the only one).
using template_list = std::vector<std::pair<std::string, std::string>>;

void add_template(template_list& list, std::string name, std::string text) {
  if (text.find(kFilterOpTable) != std::string::npos) detail::replace_all(text, kFilterOpTable, filter_op_table());
  list.emplace_back(std::move(name), std::move(text));
}

template_list& templates() {
  static template_list list = [] {
    template_list out;
#ifdef ALFRED_EMBED_PROMPT_TEMPLATES
    for (const auto& entry : kPromptTemplates)
      if (!entry.name.empty()) add_template(out, std::string(entry.name), std::string(entry.text));
#endif
    return out;
  }();
  return list;
}

}  // namespace

status set_prompt_templates(std::string_view templates_json) {
  auto doc = json_document::parse(templates_json);
  if (!doc || !doc->root().is_object())
    return error{codes::invalid_option, "templates", "the templates must be one JSON object of texts by name", ""};
  template_list list;
  bool texts = true;
  doc->root().for_each_member([&](std::string_view name, json_value text) {
    if (!text.is_string() || name.empty()) texts = false;
    if (texts) add_template(list, std::string(name), std::string(text.str()));
  });
  if (!texts) return error{codes::invalid_option, "templates", "each template is a name and its text", ""};
  templates() = std::move(list);
  return ok_status();
}

std::optional<std::string_view> embedded_template(std::string_view name) {
  for (const auto& [known, text] : templates())
    if (known == name) return std::string_view(text);
  return std::nullopt;
}

std::vector<std::string_view> embedded_template_names() {
  std::vector<std::string_view> names;
  for (const auto& entry : templates()) names.push_back(entry.first);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace alfred
