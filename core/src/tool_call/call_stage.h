#pragma once
// What the stages of reading one tool call share (tool_call.cpp reads the
// params and the table, then hands the call to the stage readers): the
// domain, the registry, the tool, and the call as far as it is read. Each
// stage is its own class over this base: filters (filter_reader.cpp),
// columns and embeds (select_reader.cpp), rows to write (row_reader.cpp).

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "../json/json_fields.h"
#include "alfred/domain/domain.h"
#include "alfred/json/error.h"
#include "alfred/json/json.h"
#include "alfred/registry/registry.h"
#include "alfred/tool_call/tool_call.h"
#include "param_path.h"
#include "values.h"

namespace alfred::detail {

/// `text` without surrounding blanks, in lower case.
std::string lower_trimmed(std::string_view text);
/// How to exclude rows without an invented operator, with refs of `tbl`.
std::string exclusion_hint(const table& tbl);
/// Whether an unknown op reads like a negation (`excludes`, `not_contains`).
bool looks_like_negation(std::string_view op);
/// Whether a string looks like rows given as JSON text (strict mode).
bool looks_like_rows(std::string_view text);
/// "e.g. \"filters\": [{\"field\": \"id\", \"op\": \"in\", …}]" with the key (or the
/// first key column's refs) of `tbl`: how to choose rows to change.
std::string narrowing_example(const table& tbl);
/// The columns of `tbl` the model sees, comma-separated.
std::string visible_columns(const domain& dom, const table& tbl);

/// The state one stage reads and writes. Borrows everything; lives for one
/// parse_tool_call. `call.tbl` is set before any stage runs.
class call_stage {
 protected:
  call_stage(const domain& dom, const ref_registry& registry, tool_kind kind, tool_call& call)
      : dom_(dom), registry_(registry), kind_(kind), call_(call) {}

  value_scope scope() const { return {dom_, registry_, *call_.tbl, call_.current_user}; }
  /// A column the model may filter, select or order by.
  result<const column*> visible_column(std::string_view name, const param_path& path, const table& tbl) const;

  const domain& dom_;
  const ref_registry& registry_;
  tool_kind kind_;
  tool_call& call_;
};

/// The filters stage: `filters` and `or_filters` of any tool.
class filter_reader : call_stage {
 public:
  filter_reader(const domain& dom, const ref_registry& registry, tool_kind kind, tool_call& call)
      : call_stage(dom, registry, kind, call) {}
  /// Reads the filter list under `key` into `out`.
  status read(const std::optional<json_value>& list, const char* key, std::vector<filter>& out);

 private:
  result<filter> parse_filter(json_value clause, const param_path& path, bool in_or);
  status parse_semantic(filter& f, std::optional<json_value> value, const param_path& path, bool in_or);
  status check_filter_value(filter& f, std::optional<json_value> value, const param_path& path);
  status check_list(filter& f, std::optional<json_value> value, const param_path& path);
  status check_pattern(filter& f, std::optional<json_value> value, const param_path& path);
  status check_containment(filter& f, std::optional<json_value> value, const param_path& path);
  status parse_search(filter& f, const detail::object_fields& members, const param_path& path);
};

/// The columns stage of a read: `columns`, with embedded relations.
class select_reader : call_stage {
 public:
  select_reader(const domain& dom, const ref_registry& registry, tool_kind kind, tool_call& call)
      : call_stage(dom, registry, kind, call) {}
  /// Reads `columns` into the call's select list.
  status read(const std::optional<json_value>& value);

 private:
  std::string columns_example() const;
  result<std::vector<std::string>> split_select(std::string_view text) const;
  result<std::string> parse_select_item(const std::string& raw, const param_path& path);
  const table* embedded_table(std::string_view name) const;
  bool is_embeddable_fk(const column& col) const;
  std::string embeddable_hint() const;
};

/// The params of a `db_aggregate` its stage reads.
struct aggregate_params {
  std::optional<json_value> group_by;
  std::optional<json_value> metrics;
  std::optional<json_value> order_by;
  std::optional<json_value> order_dir;
  std::optional<json_value> having;
};

/// `[{"fn": "count"}, {"fn": "sum", "field": "<a number column>"}]` for `tbl`.
std::string metrics_example(const table& tbl);

/// The aggregate stage of a `db_aggregate` (aggregate_reader.cpp): group_by,
/// metrics, the order by a metric and `having`, into `call.aggregate`.
class aggregate_reader : call_stage {
 public:
  aggregate_reader(const domain& dom, const ref_registry& registry, tool_call& call)
      : call_stage(dom, registry, tool_kind::aggregate, call) {}
  status read(const aggregate_params& given);

 private:
  status read_group_by(const std::optional<json_value>& value);
  status read_metrics(const std::optional<json_value>& value);
  result<metric> read_metric(json_value item, const param_path& at) const;
  status read_order(const std::optional<json_value>& order, const std::optional<json_value>& dir);
  status read_having(const std::optional<json_value>& value);
  std::string metric_keys_hint() const;
};

/// The rows stage of a create or an update: `data`.
class row_reader : call_stage {
 public:
  /// `fixed`: the values the app sets for every call (a create of a table
  /// with a column of that name gets it; the model may not write it).
  row_reader(const domain& dom, const ref_registry& registry, tool_kind kind, tool_call& call,
             std::span<const fixed_value> fixed = {})
      : call_stage(dom, registry, kind, call), fixed_(fixed) {}
  /// A create's `data`: one row or a batch, each with the gen_ ref it saves.
  status read_create(const std::optional<json_value>& data);
  /// An update's `data`: the one change every matching row gets.
  status read_update(const std::optional<json_value>& data);

 private:
  result<row> parse_row(json_value data, const param_path& path, std::string* saves);
  result<const column*> writable_column(std::string_view key, const param_path& key_path);
  result<std::string> parse_save_marker(json_value value, const param_path& path);
  const fixed_value* fixed_for(std::string_view column) const;
  std::string settable_hint() const;
  status add_fixed_values(row& out, const param_path& path) const;

  std::span<const fixed_value> fixed_;
};

}  // namespace alfred::detail
