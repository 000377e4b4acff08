#include "prompt_rows.h"

#include "../json/format.h"
#include "prompt_text.h"

namespace alfred::detail {
namespace {

// A list of strings is shown inline up to this length per element; longer
// elements (instructions) get a numbered line each.
constexpr std::size_t kInlineElementChars = 60;

bool is_empty_value(json_value value) {
  return value.is_null() || (value.is_string() && value.str().empty()) || (value.is_array() && value.empty());
}

bool is_row_list(json_value value) {
  if (!value.is_array() || value.empty()) return false;
  bool rows = true;
  value.for_each_element([&](std::size_t, json_value element) { rows = rows && element.is_object(); });
  return rows;
}

bool has_long_element(json_value list) {
  bool long_one = false;
  list.for_each_element([&](std::size_t, json_value element) {
    long_one = long_one || (element.is_string() && code_points(element.str()) > kInlineElementChars);
  });
  return long_one;
}

}  // namespace

std::string_view row_ref(json_value row) {
  if (!row.is_object()) return {};
  auto id = row.find("id");
  return id && id->is_string() ? id->str() : std::string_view();
}

namespace {

// A row's scalar members as `key: value` pairs on its line (`first`: no ref
// before them).
void append_inline_members(std::string& out, json_value row, const prompt_limits& limits, bool first,
                           std::string_view parent_ref) {
  // Row translation writes a foreign key's label right after it as
  // `_<column>_label`; it is shown next to the ref: `recipe_id: recipe_3 (Butter Chicken)`.
  std::string_view previous_key;
  bool previous_dropped = false;
  row.for_each_member([&](std::string_view key, json_value value) {
    const bool label_of_previous = key.size() == previous_key.size() + 7 && key.front() == '_' &&
                                   key.substr(1, previous_key.size()) == previous_key &&
                                   key.substr(key.size() - 6) == "_label";
    if (label_of_previous && !previous_dropped && value.is_string()) {
      out += " (";
      append_one_line(out, value.str(), limits.chars_per_value);
      out += ')';
    }
    previous_key = key;
    previous_dropped = true;
    if (label_of_previous || key == "id" || is_empty_value(value) || is_row_list(value) ||
        (value.is_array() && has_long_element(value)))
      return;
    // An embedded row's foreign key to the row it is shown under says nothing new.
    if (!parent_ref.empty() && value.is_string() && value.str() == parent_ref) return;
    previous_dropped = false;
    out.append(first ? " " : " | ").append(key).append(": ");
    first = false;
    append_display_value(out, value, limits.chars_per_value);
  });
}

// A row's long lists (numbered lines) and embedded rows, indented below it.
void append_block_members(std::string& out, json_value row, const prompt_limits& limits, std::string_view indent,
                          shown_refs* shown, std::string_view ref) {
  const std::string nested_indent = std::string(indent) + "  ";
  row.for_each_member([&](std::string_view key, json_value value) {
    if (key == "id" || is_empty_value(value)) return;
    if (is_row_list(value)) {
      textfmt::format_to(out, "{}{} ({}):\n", nested_indent, key, value.size());
      render_rows(out, value, limits, nested_indent, shown, ref.empty() ? std::string_view("-") : ref);
    } else if (value.is_array() && has_long_element(value)) {
      out.append(nested_indent).append(key).append(":\n");
      value.for_each_element([&](std::size_t i, json_value element) {
        textfmt::format_to(out, "{}  {}. ", nested_indent, i + 1);
        if (element.is_string())
          append_one_line(out, element.str(), limits.chars_per_value);
        else
          append_display_value(out, element, limits.chars_per_value);
        out += '\n';
      });
    }
  });
}

}  // namespace

void render_row(std::string& out, json_value row, const prompt_limits& limits, std::string_view indent,
                shown_refs* shown, std::string_view parent_ref) {
  const bool embedded = !parent_ref.empty();
  out.append(indent).append("-");
  if (!row.is_object()) {
    out += ' ';
    append_display_value(out, row, limits.chars_per_value);
    out += '\n';
    return;
  }
  const std::string_view ref = row_ref(row);
  if (!ref.empty()) {
    out.append(" `").append(ref).append("`");
    if (shown) (embedded ? shown->embedded : shown->rows).insert(ref);
  }
  // Inline pairs first, then the block members (long lists, embedded rows)
  // below them, so each row starts with one scannable line.
  append_inline_members(out, row, limits, ref.empty(), parent_ref);
  out += '\n';
  append_block_members(out, row, limits, indent, shown, ref);
}

void render_rows(std::string& out, json_value data, const prompt_limits& limits, std::string_view indent,
                 shown_refs* shown, std::string_view parent_ref) {
  if (!data.is_array()) {
    render_row(out, data, limits, indent, shown, parent_ref);
    return;
  }
  const std::size_t total = data.size();
  std::string overflow;
  std::size_t listed = 0;
  data.for_each_element([&](std::size_t i, json_value row) {
    if (i < limits.rows_per_result) {
      render_row(out, row, limits, indent, shown, parent_ref);
      return;
    }
    const std::string_view ref = row_ref(row);
    if (ref.empty() || listed == limits.refs_per_overflow) return;
    overflow.append(listed++ ? ", " : "").append(ref);
  });
  if (total <= limits.rows_per_result) return;
  const std::size_t hidden = total - limits.rows_per_result;
  textfmt::format_to(out, "{}- … {} more row{} not shown", indent, hidden, hidden == 1 ? "" : "s");
  if (!overflow.empty()) {
    out.append(" (refs: ").append(overflow);
    if (listed < hidden) out += ", …";
    out += ')';
  }
  out += '\n';
}

}  // namespace alfred::detail
