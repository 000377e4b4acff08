#pragma once
// The executed query kept with every tool result: the call as the
// model wrote it and as it actually ran after middleware, with refs where the
// request had UUIDs, so it can be shown to the model and to people.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "alfred/json/json.h"
#include "alfred/registry/registry.h"
#include "alfred/tool_call/tool_call.h"

namespace alfred::detail {

/// The model's own `text` as the record echoes it to the model: "(uuid)"
/// when it shows a UUID (whole, broken, inside other text, or made up by
/// its escapes), else cut to a few dozen characters.
std::string echoed_text(std::string_view text);

/// Where the result came from: the database, pending generated artifacts, or
/// nowhere (the call was refused before any request).
enum class query_source { database, generated, none };

struct query_record {
  std::string_view tool;
  /// The table called; for `db_call`, the table whose rows the function
  /// returns ("" for none).
  std::string table;
  /// `db_call`: the function called ("" for the table tools).
  std::string function;
  /// The validated call before middleware; null when validation failed.
  const tool_call* requested = nullptr;
  /// The call as sent; null when middleware changed nothing.
  const tool_call* effective = nullptr;
  /// When validation failed: the params as the model wrote them.
  std::optional<json_value> raw_params;
  std::vector<std::string> notes;
  query_source source = query_source::none;
  std::optional<long long> count;
  /// db_aggregate: whether the groups are exact (not when a count was
  /// estimated or the groups were cut at the server's bound).
  std::optional<bool> exact;
  /// What the execution learned of the server's aggregates: "on", "off" or "".
  std::string aggregates;
  /// The domain the calls are of (keys of any type then show as refs);
  /// null shows UUIDs as refs only.
  const domain* dom = nullptr;
};

/// Writes `{"tool", "table", "function"?, "requested", "effective", "notes", "source", "count"}`
/// (`function` for `db_call` only; its `requested` is `{"function", "args"}`).
void write_query_record(json_writer& w, const ref_registry& registry, const query_record& record);

/// The params part of a record for `call`, as JSON text; two calls that
/// render the same were the same query.
std::string call_params_json(const ref_registry& registry, const tool_call& call, const domain* dom = nullptr);

}  // namespace alfred::detail
