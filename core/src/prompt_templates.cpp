// The templates under prompts/, compiled in (cmake/embed_text.cmake) so the
// core needs no file system: workers and browsers have none.
#include <algorithm>

#include "alfred/prompt.h"
#include "alfred_prompt_templates.h"

namespace alfred {

std::optional<std::string_view> embedded_template(std::string_view name) {
  for (const auto& entry : kPromptTemplates)
    if (entry.name == name) return entry.text;
  return std::nullopt;
}

std::vector<std::string_view> embedded_template_names() {
  std::vector<std::string_view> names;
  for (const auto& entry : kPromptTemplates) names.push_back(entry.name);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace alfred
