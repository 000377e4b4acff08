#pragma once
// The groups of a `db_aggregate` as the executor holds them between its
// requests and its result (execution_aggregates.cpp): each group's values of
// the group_by columns and of the metrics, as JSON text, whichever way they
// were computed (by the server, by counted requests, or from the rows).

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "alfred/json/json.h"
#include "alfred/tool_call/tool_call.h"

namespace alfred::detail {

struct aggregate_group {
  /// Each group_by column's value as JSON text (`"fruit"`, `3`, `null`).
  std::vector<std::string> keys;
  /// Each metric's value as JSON text (`null` for a sum of no values).
  std::vector<std::string> values;
};

/// The groups of one call, and how far they can be trusted.
struct aggregate_groups {
  std::vector<aggregate_group> groups;
  /// False when a count was planned or estimated, or the set of groups was
  /// cut at the server's bound.
  bool exact = true;
  /// The server returned as many groups as the bound allows: there may be more.
  bool cut = false;
  /// How many groups matched (after `having`), before `limit`.
  std::size_t total = 0;
};

/// The value of `spec.metrics[m]` over `rows` (objects of a read), for each
/// group of the group_by columns: the groups of the rows, exact. When the
/// rows come sorted by `ordered_by` (ascending, in the database's
/// collation), its minimum and maximum are the first and last values seen.
aggregate_groups groups_from_rows(const aggregate_spec& spec, json_value rows, const column* ordered_by = nullptr);

/// The groups of a server aggregate's answer (`select=col,m0:x.sum(),…`):
/// `aliases[i]` is the member holding metric i ("" for a metric another
/// request answers, filled with null).
aggregate_groups groups_from_server(const aggregate_spec& spec, json_value rows,
                                    const std::vector<std::string>& aliases);

/// Applies `having`, orders by the metric asked (else by the group values)
/// and cuts to `limit`; `total` becomes the groups that matched.
void finish_groups(const aggregate_spec& spec, aggregate_groups& result);

/// `key` joined for maps: the group values' JSON texts, separated by U+001F.
std::string group_key(const std::vector<std::string>& keys);

/// An average's text from a sum and a count, rounded to 6 places (`null`
/// for no values).
std::string average_text(std::string_view sum, long long count);

}  // namespace alfred::detail
