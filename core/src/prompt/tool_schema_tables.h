#pragma once
// Which tables a tool acts on and which columns the model sees, for the
// tools' JSON Schemas (tool_schema.cpp) and their descriptions
// (tool_descriptions.cpp).

#include <algorithm>
#include <string_view>
#include <vector>

#include "alfred/domain/domain.h"
#include "alfred/tool_call/tool_call.h"

namespace alfred::detail {

/// The first table whose rows have refs and that takes one of `writes`
/// (write_op bits; 0 for any table), for examples made from the domain in
/// use (never one domain's words in shared text).
inline const table* ref_table(const domain& dom, unsigned char writes) {
  for (const auto& tbl : dom.tables)
    if (tbl.exposed && tbl.readable && tbl.key_column() && (!writes || tbl.allows(write_op(writes)))) return &tbl;
  return nullptr;
}

/// A column the model may filter, select or order by.
inline bool is_visible(const domain&, const table& tbl, const column& col) { return tbl.shows_column(col.name); }

/// The tables `kind` acts on: every table the API serves for db_read and
/// db_aggregate, those that take the write for a write, none for db_call.
inline std::vector<const table*> tables_for(const domain& dom, tool_kind kind) {
  std::vector<const table*> out;
  if (kind == tool_kind::call) return out;
  for (const auto& tbl : dom.tables)
    if (tbl.exposed && takes(tbl, kind)) out.push_back(&tbl);
  return out;
}

}  // namespace alfred::detail
