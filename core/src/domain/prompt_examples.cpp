// The example slots' texts substituted into template text. The slots and
// their derived examples are prompt_examples_derived.cpp's.
#include "alfred/domain/prompt_examples.h"

#include <algorithm>

namespace alfred {

bool is_prompt_example_slot(std::string_view name) {
  const auto& slots = prompt_example_slots();
  return std::any_of(slots.begin(), slots.end(), [&](const prompt_example_slot& slot) { return slot.name == name; });
}

namespace {

const std::string* text_of(const example_texts& examples, std::string_view name) {
  for (const auto& [slot, text] : examples)
    if (slot == name) return &text;
  return nullptr;
}

}  // namespace

std::string fill_examples(std::string_view text, const example_texts& examples) {
  std::string out;
  out.reserve(text.size() + text.size() / 2);
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t open = text.find("{{", at);
    if (open == std::string_view::npos) break;
    const std::size_t close = text.find("}}", open + 2);
    if (close == std::string_view::npos) break;
    const std::string* value = text_of(examples, text.substr(open + 2, close - open - 2));
    if (!value) {
      out.append(text.substr(at, close + 2 - at));
      at = close + 2;
      continue;
    }
    // A placeholder alone on its line with nothing to say takes the line with it.
    const bool line_start = open == 0 || text[open - 1] == '\n';
    const bool line_end = close + 2 == text.size() || text[close + 2] == '\n';
    out.append(text.substr(at, open - at));
    if (value->empty() && line_start && line_end) {
      at = close + 2 < text.size() ? close + 3 : close + 2;
      continue;
    }
    out.append(*value);
    at = close + 2;
  }
  out.append(text.substr(at));
  return out;
}

}  // namespace alfred
