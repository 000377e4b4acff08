#pragma once
// Row labels ("Butter Chicken", "Feb 01 [dinner]") computed from a row's
// values by column name, so that the DOM-based `row_label` and the streaming
// translator share one definition.

#include <string>
#include <string_view>
#include <vector>

#include "alfred/domain/domain.h"

namespace alfred::detail {

/// A row's values as label text: strings decoded, numbers and booleans as
/// written, "" for null, arrays, objects and absent columns.
class label_values {
 public:
  virtual std::string_view text_of(std::string_view column) const = 0;

 protected:
  ~label_values() = default;
};

/// The row's label: `label_format` when all of its columns have values, else
/// the first non-empty `label_columns` value, else "". The result points into
/// `values` or into `scratch`.
std::string_view render_row_label(const table& tbl, const label_values& values, std::string& scratch);

/// The columns a label reads: `label_format` placeholders, then
/// `label_columns`, without repeats.
std::vector<std::string> label_column_names(const table& tbl);

}  // namespace alfred::detail
