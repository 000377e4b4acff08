// The templates under prompts/, compiled in (cmake/embed_text.cmake) so the
// core needs no file system: workers and browsers have none.
#include <algorithm>
#include <vector>

#include "alfred/prompt/prompt.h"
#include "alfred/tool_call/filter_ops.h"
#include "alfred_prompt_templates.h"
#include "prompt_text.h"

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

// `text` with the operator table written in.
std::string with_filter_op_table(std::string_view text) {
  std::string out(text);
  detail::replace_all(out, kFilterOpTable, filter_op_table());
  return out;
}

}  // namespace

std::optional<std::string_view> embedded_template(std::string_view name) {
  for (const auto& entry : kPromptTemplates) {
    if (entry.name != name) continue;
    if (entry.text.find(kFilterOpTable) == std::string_view::npos) return entry.text;
    // act/crud, the one template with the operator table (a test checks
    // that), written in once.
    static const std::string with_table = with_filter_op_table(entry.text);
    return std::string_view(with_table);
  }
  return std::nullopt;
}

std::vector<std::string_view> embedded_template_names() {
  std::vector<std::string_view> names;
  for (const auto& entry : kPromptTemplates) names.push_back(entry.name);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace alfred
