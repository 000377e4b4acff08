// The groups of a `db_aggregate`: computed from rows when the server does
// not aggregate, read from its answer when it does, then kept by `having`,
// ordered and cut (aggregate_groups.h). Numbers are added and compared as
// decimals (json/decimal.h): a total over the rows is exact.
#include "aggregate_groups.h"

#include <algorithm>
#include <map>
#include <set>

#include "../json/decimal.h"
#include "../json/stable_order.h"

namespace alfred::detail {
namespace {

constexpr int kAveragePlaces = 6;

std::string member_text(json_value row, std::string_view name) {
  auto value = row.find(name);
  return value ? std::string(value->raw()) : std::string("null");
}

// Running state of one metric over one group's rows.
struct metric_state {
  long long count = 0;
  decimal::number sum;
  std::optional<json_value> best;  // min or max so far
  std::set<std::string> distinct;
};

// Whether `a` sorts before `b` as metric values: numbers as decimals, the
// rest (dates, timestamps, text) as text; nulls last. A text column's digits
// are text ('10' before '9'), as the database sorts them.
int compare_values(std::string_view a, std::string_view b, bool numeric = true) {
  const bool a_null = a == "null", b_null = b == "null";
  if (a_null || b_null) return a_null == b_null ? 0 : a_null ? 1 : -1;
  if (numeric) {
    auto x = decimal::parse(a), y = decimal::parse(b);
    if (x && y) return decimal::compare(*x, *y);
  }
  const int c = a.compare(b);
  return c < 0 ? -1 : c > 0 ? 1 : 0;
}

bool numeric_column(const column* col) {
  return col && (col->type == column_type::integer || col->type == column_type::numeric);
}

// `in_order`: the rows come sorted by this metric's column in the
// database's collation, so the first value is the least and the last the
// greatest, whatever byte order says.
void observe(const metric& m, metric_state& state, json_value row, bool in_order) {
  if (!m.col) {
    ++state.count;
    return;
  }
  auto value = row.find(m.col->name);
  if (!value || value->is_null()) return;
  ++state.count;
  switch (m.fn) {
    case metric_fn::count:
      return;
    case metric_fn::count_distinct:
      state.distinct.insert(std::string(value->raw()));
      return;
    case metric_fn::sum:
    case metric_fn::avg:
      if (auto n = decimal::parse(value->raw())) state.sum = decimal::add(state.sum, *n);
      return;
    case metric_fn::min:
    case metric_fn::max: {
      if (!state.best || (in_order && m.fn == metric_fn::max)) {
        state.best = *value;
        return;
      }
      if (in_order) return;
      const int c = compare_values(value->raw(), state.best->raw(), numeric_column(m.col));
      if ((m.fn == metric_fn::min && c < 0) || (m.fn == metric_fn::max && c > 0)) state.best = *value;
      return;
    }
  }
}

std::string value_of(const metric& m, const metric_state& state) {
  switch (m.fn) {
    case metric_fn::count:
      return std::to_string(state.count);
    case metric_fn::count_distinct:
      return std::to_string(state.distinct.size());
    case metric_fn::sum:
      return state.count == 0 ? std::string("null") : decimal::text(state.sum);
    case metric_fn::avg:
      return average_text(decimal::text(state.sum), state.count);
    case metric_fn::min:
    case metric_fn::max:
      return state.best ? std::string(state.best->raw()) : std::string("null");
  }
  return "null";
}

bool holds(const having_clause& clause, std::string_view value) {
  auto x = decimal::parse(value);
  auto y = decimal::parse(clause.value);
  if (!x || !y) return false;  // null, or not a number: no comparison holds
  const int c = decimal::compare(*x, *y);
  if (clause.op == "=") return c == 0;
  if (clause.op == "!=") return c != 0;
  if (clause.op == ">") return c > 0;
  if (clause.op == ">=") return c >= 0;
  if (clause.op == "<") return c < 0;
  return c <= 0;
}

}  // namespace

std::string group_key(const std::vector<std::string>& keys) {
  std::string out;
  for (const auto& key : keys) {
    if (!out.empty()) out += '\x1f';
    out += key;
  }
  return out;
}

std::string average_text(std::string_view sum, long long count) {
  auto total = decimal::parse(sum);
  if (!total || count <= 0) return "null";
  return decimal::text(decimal::divide(*total, static_cast<unsigned long long>(count), kAveragePlaces));
}

aggregate_groups groups_from_rows(const aggregate_spec& spec, json_value rows, const column* ordered_by) {
  std::map<std::string, std::pair<std::vector<std::string>, std::vector<metric_state>>> by_key;
  rows.for_each_element([&](std::size_t, json_value row) {
    if (!row.is_object()) return;
    std::vector<std::string> keys;
    for (const column* col : spec.group_by) keys.push_back(member_text(row, col->name));
    auto& [group_keys, states] = by_key[group_key(keys)];
    if (states.empty()) {
      group_keys = std::move(keys);
      states.resize(spec.metrics.size());
    }
    for (std::size_t m = 0; m < spec.metrics.size(); ++m)
      observe(spec.metrics[m], states[m], row, ordered_by && spec.metrics[m].col == ordered_by);
  });
  aggregate_groups out;
  // No group_by: one group of every row, even of none (a count of 0).
  if (spec.group_by.empty() && by_key.empty()) by_key[""].second.resize(spec.metrics.size());
  for (auto& [key, entry] : by_key) {
    aggregate_group group{std::move(entry.first), {}};
    for (std::size_t m = 0; m < spec.metrics.size(); ++m)
      group.values.push_back(value_of(spec.metrics[m], entry.second[m]));
    out.groups.push_back(std::move(group));
  }
  return out;
}

aggregate_groups groups_from_server(const aggregate_spec& spec, json_value rows,
                                    const std::vector<std::string>& aliases) {
  aggregate_groups out;
  rows.for_each_element([&](std::size_t, json_value row) {
    if (!row.is_object()) return;
    aggregate_group group;
    for (const column* col : spec.group_by) group.keys.push_back(member_text(row, col->name));
    for (std::size_t m = 0; m < spec.metrics.size(); ++m) {
      if (aliases[m].empty()) {
        group.values.emplace_back("null");
        continue;
      }
      std::string value = member_text(row, aliases[m]);
      // The server's average has the database's scale: the same rounding as
      // an average computed here, so both ways give the same answer.
      if (spec.metrics[m].fn == metric_fn::avg)
        if (auto n = decimal::parse(value)) value = decimal::text(decimal::round(*n, kAveragePlaces));
      group.values.push_back(std::move(value));
    }
    out.groups.push_back(std::move(group));
  });
  return out;
}

void finish_groups(const aggregate_spec& spec, aggregate_groups& result) {
  auto& groups = result.groups;
  groups.erase(std::remove_if(groups.begin(), groups.end(),
                              [&](const aggregate_group& group) {
                                return std::any_of(spec.having.begin(), spec.having.end(), [&](const having_clause& h) {
                                  return !holds(h, group.values[h.metric]);
                                });
                              }),
               groups.end());
  struct context {
    const aggregate_spec* spec;
    const std::vector<aggregate_group>* groups;
  } const ordering{&spec, &groups};
  const auto order = stable_order(
      groups.size(),
      [](const void* c, std::size_t i, std::size_t j) {
        const auto& [spec, groups] = *static_cast<const context*>(c);
        const aggregate_group& a = (*groups)[i];
        const aggregate_group& b = (*groups)[j];
        if (spec->order_metric) {
          const std::string_view x = a.values[*spec->order_metric], y = b.values[*spec->order_metric];
          if ((x == "null") != (y == "null")) return y == "null";  // groups without a value last, either way
          const int cmp = compare_values(x, y);
          if (cmp != 0) return spec->descending ? cmp > 0 : cmp < 0;
        }
        for (std::size_t k = 0; k < a.keys.size(); ++k)
          if (const int cmp = compare_values(a.keys[k], b.keys[k]); cmp != 0) return cmp < 0;
        return false;
      },
      &ordering);
  apply_order(groups, order);
  result.total = groups.size();
  if (spec.limit && groups.size() > std::size_t(*spec.limit)) groups.resize(std::size_t(*spec.limit));
}

}  // namespace alfred::detail
