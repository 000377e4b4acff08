#pragma once
// The operator table of the Act prompt, written from the filter op rows
// (filter_ops.h) where a template holds `{{filter_op_table}}`.

#include <string>
#include <string_view>

namespace alfred::detail {

/// The placeholder a template puts where the operator table goes, alone on
/// its line.
inline constexpr std::string_view kFilterOpTable = "{{filter_op_table}}";

/// `text` with every `{{filter_op_table}}` replaced by the table's rows, one
/// line per example slot: "| `in` | one of a list | {{op_in}} |".
std::string with_filter_op_table(std::string_view text);

}  // namespace alfred::detail
