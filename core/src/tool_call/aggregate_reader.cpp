// The aggregate stage of reading a `db_aggregate` (call_stage.h): the
// columns to group by, the metrics, the order by a metric, `having` and the
// limit on groups (docs/aggregates.md). Filters are read as a read's are.
#include <algorithm>

#include "../json/echo.h"
#include "../json/format.h"
#include "call_stage.h"

namespace alfred::detail {
namespace {

constexpr std::string_view kFunctionNames[] = {"count", "count_distinct", "sum", "avg", "min", "max"};
constexpr std::string_view kHavingOps[] = {"=", "!=", ">", ">=", "<", "<="};
constexpr std::size_t kMaxGroupColumns = 3;
constexpr std::size_t kMaxMetrics = 8;

std::optional<metric_fn> parse_metric_fn(std::string_view name) {
  const std::string lowered = lower_trimmed(name);
  for (std::size_t i = 0; i < std::size(kFunctionNames); ++i)
    if (kFunctionNames[i] == lowered) return static_cast<metric_fn>(i);
  return std::nullopt;
}

bool is_number_type(column_type type) { return type == column_type::integer || type == column_type::numeric; }

// Whether `fn` applies to a column of `type`.
bool takes(metric_fn fn, column_type type) {
  switch (fn) {
    case metric_fn::count:
    case metric_fn::count_distinct:
      return type != column_type::jsonb;
    case metric_fn::sum:
    case metric_fn::avg:
      return is_number_type(type);
    case metric_fn::min:
    case metric_fn::max:
      return is_number_type(type) || type == column_type::date || type == column_type::timestamp ||
             type == column_type::text;
  }
  return false;
}

std::string_view what_it_takes(metric_fn fn) {
  switch (fn) {
    case metric_fn::sum:
    case metric_fn::avg:
      return "a number column (integer or numeric)";
    case metric_fn::min:
    case metric_fn::max:
      return "a number, date, timestamp or text column";
    default:
      return "a column that is not JSON";
  }
}

}  // namespace

std::string metrics_example(const table& tbl) {
  for (const auto& col : tbl.columns)
    if (is_number_type(col.type) && !tbl.is_key(col.name))
      return textfmt::format("e.g. [{{\"fn\": \"count\"}}, {{\"fn\": \"sum\", \"field\": \"{}\"}}]", col.name);
  return "e.g. [{\"fn\": \"count\"}]";
}

status aggregate_reader::read(const aggregate_params& given) {
  if (auto ok = read_group_by(given.group_by); !ok) return ok;
  if (auto ok = read_metrics(given.metrics); !ok) return ok;
  if (auto ok = read_order(given.order_by, given.order_dir); !ok) return ok;
  return read_having(given.having);
}

status aggregate_reader::read_group_by(const std::optional<json_value>& value) {
  aggregate_spec& spec = call_.aggregate;
  if (!value || value->is_null()) return ok_status();
  const table& tbl = *call_.tbl;
  if (value->is_string()) {  // one column given as a string
    auto col = visible_column(value->str(), "group_by", tbl);
    if (!col) return col.take_error();
    spec.group_by.push_back(*col);
    return ok_status();
  }
  if (!value->is_array())
    return error{codes::invalid_param, "group_by",
                 textfmt::format("group_by must be a list of column names, got {}", value->kind_name()),
                 "e.g. [\"status\"]"};
  if (value->size() > kMaxGroupColumns)
    return error{codes::invalid_param, "group_by",
                 textfmt::format("group_by takes at most {} columns", kMaxGroupColumns), ""};
  std::optional<error> failure;
  const param_path root("group_by");
  value->for_each_element([&](std::size_t i, json_value item) {
    if (failure) return;
    const param_path at = root.element(i);
    if (!item.is_string()) {
      failure = error{codes::invalid_param, at.str(), "a group_by column must be a column name", "e.g. \"status\""};
      return;
    }
    auto col = visible_column(item.str(), at, tbl);
    if (!col) {
      failure = col.take_error();
    } else if ((*col)->type == column_type::jsonb) {
      failure = error{codes::invalid_param, at.str(),
                      textfmt::format("{} is JSON: rows cannot be grouped by it", (*col)->name), ""};
    } else if (std::find(spec.group_by.begin(), spec.group_by.end(), *col) == spec.group_by.end()) {
      spec.group_by.push_back(*col);
    }
  });
  if (failure) return std::move(*failure);
  return ok_status();
}

status aggregate_reader::read_metrics(const std::optional<json_value>& value) {
  aggregate_spec& spec = call_.aggregate;
  const table& tbl = *call_.tbl;
  if (!value || value->is_null())
    return error{codes::missing_param, "metrics", "metrics is required: what to compute over the rows",
                 metrics_example(tbl)};
  if (!value->is_array() || value->empty())
    return error{codes::invalid_param, "metrics", "metrics must be a non-empty list of {fn, field}",
                 metrics_example(tbl)};
  if (value->size() > kMaxMetrics)
    return error{codes::invalid_param, "metrics", textfmt::format("at most {} metrics per call", kMaxMetrics), ""};
  std::optional<error> failure;
  const param_path root("metrics");
  value->for_each_element([&](std::size_t i, json_value item) {
    if (failure) return;
    auto read = read_metric(item, root.element(i));
    if (!read) {
      failure = read.take_error();
      return;
    }
    const bool repeated =
        std::any_of(spec.metrics.begin(), spec.metrics.end(), [&](const metric& m) { return m.key == read->key; });
    if (repeated) {
      failure = error{codes::invalid_param, root.element(i).str(), textfmt::format("{} is asked for twice", read->key),
                      "ask for each metric once"};
      return;
    }
    spec.metrics.push_back(std::move(*read));
  });
  if (failure) return std::move(*failure);
  return ok_status();
}

result<metric> aggregate_reader::read_metric(json_value item, const param_path& at) const {
  const table& tbl = *call_.tbl;
  if (!item.is_object())
    return error{codes::invalid_param, at.str(), "a metric must be an object {fn, field}", metrics_example(tbl)};
  std::optional<error> failure;
  item.for_each_member([&](std::string_view key, json_value) {
    if (!failure && key != "fn" && key != "field")
      failure = error{codes::invalid_param, at.member(key).str(),
                      textfmt::format("a metric takes fn and field, not '{}'", echoed(key)), ""};
  });
  if (failure) return std::move(*failure);
  const auto fn_value = item.find("fn");
  auto fn = fn_value && fn_value->is_string() ? parse_metric_fn(fn_value->str()) : std::nullopt;
  if (!fn)
    return error{codes::invalid_param, at.member("fn").str(),
                 fn_value && fn_value->is_string() ? textfmt::format("'{}' is not a metric", echoed(fn_value->str()))
                                                   : std::string("fn is required"),
                 "one of: count, count_distinct, sum, avg, min, max"};
  metric out;
  out.fn = *fn;
  const auto field = item.find("field");
  if (!field || field->is_null()) {
    if (*fn != metric_fn::count)
      return error{codes::invalid_param, at.member("field").str(),
                   textfmt::format("{} needs a field: {}", metric_fn_name(*fn), what_it_takes(*fn)),
                   metrics_example(tbl)};
    out.key = "count";
    return out;
  }
  if (!field->is_string())
    return error{codes::invalid_param, at.member("field").str(), "field must be a column name", ""};
  auto col = visible_column(field->str(), at.member("field"), tbl);
  if (!col) return col.take_error();
  if (!takes(*fn, (*col)->type))
    return error{codes::invalid_param, at.member("field").str(),
                 textfmt::format("{} of {} cannot be computed: {} is {}", metric_fn_name(*fn), (*col)->name,
                                 (*col)->name, column_type_name((*col)->type)),
                 textfmt::format("{} takes {}", metric_fn_name(*fn), what_it_takes(*fn))};
  out.col = *col;
  out.key = textfmt::format("{}_{}", metric_fn_name(*fn), (*col)->name);
  return out;
}

// `order_by`: `{"metric": i, "dir": "desc"}`, or a metric's key
// (`"sum_amount"`, largest first).
status aggregate_reader::read_order(const std::optional<json_value>& order, const std::optional<json_value>& dir) {
  aggregate_spec& spec = call_.aggregate;
  if (!order || order->is_null()) return ok_status();
  const std::string keys_hint = metric_keys_hint();
  std::optional<json_value> dir_value = dir;
  if (order->is_object()) {
    const auto index = order->find("metric");
    const auto n = index ? index->as_integer() : std::nullopt;
    if (!n || *n < 0 || std::size_t(*n) >= spec.metrics.size())
      return error{codes::invalid_param, "order_by.metric", "order_by.metric must be the index of a metric", keys_hint};
    spec.order_metric = std::size_t(*n);
    if (auto d = order->find("dir"); d && !d->is_null()) dir_value = d;
  } else if (order->is_string()) {
    const auto found = std::find_if(spec.metrics.begin(), spec.metrics.end(),
                                    [&](const metric& m) { return m.key == lower_trimmed(order->str()); });
    if (found == spec.metrics.end())
      return error{codes::invalid_param, "order_by",
                   textfmt::format("'{}' is not one of the metrics asked for", echoed(order->str())), keys_hint};
    spec.order_metric = std::size_t(found - spec.metrics.begin());
  } else {
    return error{codes::invalid_param, "order_by", "order_by must be {\"metric\": index, \"dir\": \"desc\"}",
                 keys_hint};
  }
  if (dir_value && !dir_value->is_null()) {
    const std::string text = dir_value->is_string() ? lower_trimmed(dir_value->str()) : "";
    if (text != "asc" && text != "desc")
      return error{codes::invalid_param, order->is_object() ? "order_by.dir" : "order_dir",
                   "the direction must be \"asc\" or \"desc\"", ""};
    spec.descending = text == "desc";
  }
  return ok_status();
}

status aggregate_reader::read_having(const std::optional<json_value>& value) {
  aggregate_spec& spec = call_.aggregate;
  if (!value || value->is_null()) return ok_status();
  if (!value->is_array())
    return error{codes::invalid_param, "having", "having must be a list of {metric, op, value}",
                 "e.g. [{\"metric\": 0, \"op\": \">\", \"value\": 5}]"};
  std::optional<error> failure;
  const param_path root("having");
  value->for_each_element([&](std::size_t i, json_value item) {
    if (failure) return;
    const param_path at = root.element(i);
    const auto index = item.is_object() ? item.find("metric") : std::nullopt;
    const auto op = item.is_object() ? item.find("op") : std::nullopt;
    const auto number = item.is_object() ? item.find("value") : std::nullopt;
    const auto n = index ? index->as_integer() : std::nullopt;
    if (!n || *n < 0 || std::size_t(*n) >= spec.metrics.size()) {
      failure = error{codes::invalid_param, at.member("metric").str(), "metric must be the index of a metric",
                      metric_keys_hint()};
      return;
    }
    const std::string op_text = op && op->is_string() ? lower_trimmed(op->str()) : "";
    if (std::find(std::begin(kHavingOps), std::end(kHavingOps), op_text) == std::end(kHavingOps)) {
      failure =
          error{codes::invalid_param, at.member("op").str(), "op must compare numbers", "one of: =, !=, >, >=, <, <="};
      return;
    }
    if (!number || !number->is_number()) {
      failure = error{codes::invalid_param, at.member("value").str(), "value must be a number", ""};
      return;
    }
    spec.having.push_back({std::size_t(*n), op_text, std::string(number->raw())});
  });
  if (failure) return std::move(*failure);
  return ok_status();
}

std::string aggregate_reader::metric_keys_hint() const {
  std::string out = "metrics: ";
  for (std::size_t i = 0; i < call_.aggregate.metrics.size(); ++i)
    out.append(i ? ", " : "").append(textfmt::format("{} = {}", i, call_.aggregate.metrics[i].key));
  return out;
}

}  // namespace alfred::detail
