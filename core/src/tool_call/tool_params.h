#pragma once
// The params each tool takes, and the one place where params written under a
// strict schema become the params a tool takes.
//
// tool_param_rows() says which keys db_read, db_create, db_update and db_delete
// take and which they require; the tool-call parser (allowed keys and their
// hint), the ActDecision parser (which placeholders a strict model wrote for
// another tool) and the tool schemas (properties and `required`) all read it.
//
// OpenAI strict structured outputs make the model write every property (null
// for the ones it means to leave out) and give free-form rows as JSON text;
// both the tool-call parser and the ActDecision parser read params through
// these rules, so a strict-mode call and a plain one validate the same way.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "alfred/json/error.h"
#include "alfred/json/json.h"
#include "alfred/tool_call/tool_call.h"

namespace alfred::detail {

/// The keys of the tools' params, in the order the schemas and the hints
/// list them (the order of tool_param_rows()).
enum class tool_param : std::uint8_t {
  table,
  function,
  args,
  filters,
  or_filters,
  columns,
  limit,
  offset,
  order_by,
  order_dir,
  count,
  data,
  group_by,
  metrics,
  having
};

/// How many keys tool_param has.
inline constexpr std::size_t kToolParamCount = static_cast<std::size_t>(tool_param::having) + 1;

/// Whether a tool takes a params key, and whether its schema requires it.
enum class param_use : std::uint8_t { none, optional, required };

/// One params key and how each tool takes it.
struct tool_param_row {
  tool_param param;
  std::string_view key;
  /// By tool_kind: db_read, db_create, db_update, db_delete, db_call,
  /// db_aggregate.
  std::array<param_use, 6> by_tool;

  param_use use_by(tool_kind tool) const { return by_tool[static_cast<std::size_t>(tool)]; }
};

/// Every params key, one row each, in tool_param order.
std::span<const tool_param_row> tool_param_rows();

/// The row of `key`, or null for a key no tool takes.
const tool_param_row* find_tool_param(std::string_view key);

/// The row of `param`.
const tool_param_row& tool_param_of(tool_param param);

/// The keys `tool` takes, as hints list them: `table, filters, data`.
std::string tool_param_list(tool_kind tool);

/// True when a params member stands for "not given": null, under any key (a
/// strict schema makes the model write every property).
bool is_absent_param(json_value value);

/// `data` given as JSON text (strict mode): the parsed rows, which must be an
/// object or an array. `path` is where `data` sits ("data", "params.data");
/// a text that does not parse, or parses to a scalar, is an `invalid_data`
/// error there.
result<json_document> parse_data_text(std::string_view text, const std::string& path);

}  // namespace alfred::detail
