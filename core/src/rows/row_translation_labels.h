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

struct table_plan;

/// Compiles the label of `plan.tbl` against `plan.label_names` (made by
/// label_column_names): `plan.label_format` and `plan.label_column_slots`.
void compile_label(table_plan& plan);

/// The row's label from its label values (indexed as `plan.label_names`),
/// as render_row_label makes it from the same values; points into `values`
/// or into `scratch`.
std::string_view plan_label(const table_plan& plan, const std::vector<std::string_view>& values, std::string& scratch);

/// The columns a label reads: `label_format` placeholders, then
/// `label_columns`, without repeats.
std::vector<std::string> label_column_names(const table& tbl);

}  // namespace alfred::detail
