#pragma once
// Row labels ("Butter Chicken", "Feb 01 [dinner]") computed from a row's
// values, one definition for the DOM-based `row_label` and the streaming
// translator: a table's label is compiled once (the translator keeps it in
// the table's plan) and rendered from the values of the columns it reads.

#include <string>
#include <string_view>
#include <vector>

#include "alfred/domain/domain.h"

namespace alfred::detail {

/// A piece of a compiled `label_format`: literal text, or the label value in
/// `slot` (written as "Feb 01" when `month_day`).
struct label_piece {
  std::string text;
  int slot = -1;
  bool month_day = false;
};

/// A table's label made ready to render: the columns it reads
/// (`label_format` placeholders, then `label_columns`, without repeats), the
/// format as pieces over their slots (empty when the table has none, or one
/// that never completes: unclosed, or a placeholder without a name), and the
/// slots of `label_columns`.
struct compiled_label {
  std::vector<std::string> names;
  std::vector<label_piece> format;
  std::vector<int> column_slots;
};

compiled_label compile_label(const table& tbl);

/// The row's label from its label values (indexed as `label.names`; strings
/// decoded, numbers and booleans as written, "" for anything else): the
/// format when all of its values are there, else the first non-empty label
/// column, else "". Points into `values` or into `scratch`.
std::string_view render_label(const compiled_label& label, const std::vector<std::string_view>& values,
                              std::string& scratch);

}  // namespace alfred::detail
