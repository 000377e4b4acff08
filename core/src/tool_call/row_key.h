#pragma once
// A row's key as the registry holds it, read from a parsed row: the
// executor's created-row and label lookups and the semantic search read keys
// this way; the streaming translator reads them from the bytes itself.

#include <optional>
#include <string>
#include <vector>

#include "alfred/domain/domain.h"
#include "alfred/json/json.h"
#include "alfred/tool_call/tool_call.h"

namespace alfred::detail {

/// `value` as a key of a `type` column: a canonical lower-case UUID, an
/// integer's digits (a JSON number or a string of digits), or non-empty text;
/// nothing for a value of another shape.
std::optional<std::string> key_text(column_type type, json_value value);

/// The key of `row` (an object) for `tbl`'s one-column key; nothing when the
/// table has no such key or the row lacks it.
std::optional<std::string> row_key_text(const table& tbl, json_value row);

/// A key as a filter value of its column: a number for integer keys, text
/// otherwise.
scalar key_scalar(const column& key_col, std::string key);

/// `col in (keys…)`, the filter of every lookup by key.
filter key_in_filter(const column& col, std::vector<std::string> keys);

}  // namespace alfred::detail
