#pragma once
/// Output translation: rows returned by PostgREST become rows the model may
/// see. Every UUID the domain declares (ids, foreign keys, uuid[] columns,
/// embedded rows) becomes a ref, the owner column and hidden columns are
/// dropped, and every row is registered with its label and last action.

#include <string>

#include "alfred/domain.h"
#include "alfred/error.h"
#include "alfred/json.h"
#include "alfred/registry.h"

namespace alfred {

/// The display label of a row: `label_format` when all of its columns have
/// values, else the first non-empty `label_columns` value, else "".
std::string row_label(const table& tbl, json_value row);

/// Translates an array of rows (or one row object) of `tbl`, registering ids
/// with `action` and foreign keys as `linked`. Values that are not UUIDs
/// where UUIDs are declared are dropped rather than shown. Columns the domain
/// does not declare are dropped, so an undeclared UUID can never leak.
result<std::string> translate_rows(const domain& dom, ref_registry& registry, const table& tbl,
                                   std::string_view rows_json, ref_action action);

}  // namespace alfred
