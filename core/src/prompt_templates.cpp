// The templates under prompts/, compiled in (cmake/embed_text.cmake) so the
// core needs no file system: workers and browsers have none.
#include "prompt_templates.h"

#include <algorithm>
#include <vector>

#include "alfred/filter_ops.h"
#include "alfred/prompt.h"
#include "alfred_prompt_templates.h"
#include "prompt_text.h"

namespace alfred {
namespace detail {
namespace {

// The rows of the operator table: ops sharing an example slot share a line
// ("| `>` `>=` `<` `<=` | compare numbers and dates | {{op_compare}} |"); an op
// without a meaning of its own gets the slot alone, whose text is the whole
// line or nothing.
std::string filter_op_table() {
  std::string out;
  const auto rules = filter_op_rules();
  for (std::size_t i = 0; i < rules.size(); ++i) {
    const filter_op_rule& rule = rules[i];
    if (i && rules[i - 1].example_slot == rule.example_slot) continue;
    if (!out.empty()) out += '\n';
    const std::string slot = "{{" + std::string(rule.example_slot) + "}}";
    if (rule.meaning.empty()) {
      out += slot;
      continue;
    }
    out += '|';
    for (std::size_t j = i; j < rules.size() && rules[j].example_slot == rule.example_slot; ++j)
      out.append(" `").append(rules[j].name).append("`");
    out.append(" | ").append(rule.meaning).append(" | ").append(slot).append(" |");
  }
  return out;
}

}  // namespace

std::string with_filter_op_table(std::string_view text) {
  std::string out(text);
  if (out.find(kFilterOpTable) != std::string::npos) replace_all(out, kFilterOpTable, filter_op_table());
  return out;
}

}  // namespace detail

std::optional<std::string_view> embedded_template(std::string_view name) {
  // Built once: the templates that hold the operator table, with it written in.
  static const std::vector<std::string> expanded = [] {
    std::vector<std::string> out;
    for (const auto& entry : kPromptTemplates)
      out.push_back(entry.text.find(detail::kFilterOpTable) == std::string_view::npos
                        ? std::string()
                        : detail::with_filter_op_table(entry.text));
    return out;
  }();
  for (std::size_t i = 0; i < std::size(kPromptTemplates); ++i)
    if (kPromptTemplates[i].name == name)
      return expanded[i].empty() ? kPromptTemplates[i].text : std::string_view(expanded[i]);
  return std::nullopt;
}

std::vector<std::string_view> embedded_template_names() {
  std::vector<std::string_view> names;
  for (const auto& entry : kPromptTemplates) names.push_back(entry.name);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace alfred
