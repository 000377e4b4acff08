#include "row_translation_labels.h"

#include <algorithm>
#include <array>

namespace alfred::detail {
namespace {

// "2026-02-01" → "Feb 01"; anything else unchanged.
void append_month_day(std::string& out, std::string_view date) {
  static constexpr std::array<const char*, 12> kMonths{"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                       "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  const int month = date.size() >= 10 && date[4] == '-' && date[7] == '-' ? (date[5] - '0') * 10 + (date[6] - '0') : 0;
  if (month < 1 || month > 12) {
    out += date;
    return;
  }
  out += kMonths[std::size_t(month - 1)];
  out += ' ';
  out += date.substr(8, 2);
}

// Calls `f(text)` for each literal piece and `f(name, filter)` for each
// "{name|filter}" placeholder of `format`; false when a brace is unclosed.
template <class Literal, class Placeholder>
bool walk_format(std::string_view format, Literal&& literal, Placeholder&& placeholder) {
  std::size_t at = 0;
  while (at < format.size()) {
    const auto open = format.find('{', at);
    if (open == std::string_view::npos) {
      literal(format.substr(at));
      return true;
    }
    const auto close = format.find('}', open);
    if (close == std::string_view::npos) return false;
    literal(format.substr(at, open - at));
    std::string_view name = format.substr(open + 1, close - open - 1);
    std::string_view filter;
    if (auto bar = name.find('|'); bar != std::string_view::npos) {
      filter = name.substr(bar + 1);
      name = name.substr(0, bar);
    }
    if (!placeholder(name, filter)) return false;
    at = close + 1;
  }
  return true;
}

}  // namespace

compiled_label compile_label(const table& tbl) {
  compiled_label label;
  auto slot_of = [&](std::string_view name) {
    const auto it = std::find(label.names.begin(), label.names.end(), name);
    if (it != label.names.end()) return int(it - label.names.begin());
    if (name.empty()) return -1;
    label.names.emplace_back(name);
    return int(label.names.size() - 1);
  };
  // A format that cannot parse, or with a placeholder that names no value
  // (`{}`), never completes: every row falls back to the label columns.
  bool names_all = true;
  const bool parsed = walk_format(
      tbl.label_format,
      [&](std::string_view text) {
        if (!text.empty()) label.format.push_back({std::string(text)});
      },
      [&](std::string_view name, std::string_view filter) {
        const int slot = slot_of(name);
        names_all = names_all && slot >= 0;
        label.format.push_back({std::string(), slot, filter == "mon_day"});
        return true;
      });
  if (!parsed || !names_all) label.format.clear();
  for (const auto& name : tbl.label_columns) label.column_slots.push_back(slot_of(name));
  return label;
}

std::string_view render_label(const compiled_label& label, const std::vector<std::string_view>& values,
                              std::string& scratch) {
  if (!label.format.empty()) {
    scratch.clear();
    bool complete = true;
    for (const label_piece& piece : label.format) {
      if (piece.slot < 0) {
        scratch += piece.text;
        continue;
      }
      const std::string_view text = values[std::size_t(piece.slot)];
      if (text.empty()) {
        complete = false;
        break;
      }
      if (piece.month_day)
        append_month_day(scratch, text);
      else
        scratch += text;
    }
    if (complete && !scratch.empty()) return scratch;
  }
  for (const int slot : label.column_slots)
    if (const std::string_view text = values[std::size_t(slot)]; !text.empty()) return text;
  return {};
}

}  // namespace alfred::detail
