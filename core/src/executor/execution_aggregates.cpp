// A `db_aggregate` (docs/aggregates.md): counts, totals and groups without
// reading rows where the server allows it. A count of rows is one request
// with `Prefer: count=…` and `limit=0`; other metrics are one PostgREST
// aggregate request (`select=status,m0:amount.sum()`) when the server
// computes aggregates; where it does not, counts by an enum are one counted
// request per value, and anything else is computed from the rows when they
// fit the bound (an error saying how to enable aggregates when they do not).
// Groups are then kept by `having`, ordered by a metric and cut to `limit`
// here, over the whole set of groups (PostgREST can do neither), and group
// columns that hold keys come back as refs with labels.
#include <algorithm>

#include "../json/format.h"
#include "../postgrest/content_range.h"
#include "../tool_call/param_path.h"
#include "alfred/json/json.h"
#include "alfred/rows/row_translation.h"
#include "alfred/tool_call/tool_call.h"
#include "db_error.h"
#include "execution_state.h"

namespace alfred {
namespace {

// The most groups one counted request each may answer (an enum's values
// times another's), and the most rows metrics are computed from here.
constexpr std::size_t kMaxCountedGroups = 50;

// What a server aggregate's select says for a metric: `m0:count()`,
// `m1:amount.sum()`; a distinct count is its own request.
std::string aggregate_item(const metric& m, std::size_t index) {
  if (!m.col) return textfmt::format("m{}:count()", index);
  const std::string_view fn = m.fn == metric_fn::count ? "count" : metric_fn_name(m.fn);
  return textfmt::format("m{}:{}.{}()", index, m.col->name, fn);
}

// The one column a read that counts its rows selects: the key's first.
const std::string& counted_column(const table& tbl) {
  return tbl.key.empty() ? tbl.columns.front().name : tbl.key.front();
}

bool only_row_counts(const aggregate_spec& spec) {
  return std::all_of(spec.metrics.begin(), spec.metrics.end(), [](const metric& m) { return !m.col; });
}

// The values a group column can take, when they are few and known (an
// enum's, a boolean's), null included where the column allows it.
std::optional<std::vector<std::string>> known_values(const column& col) {
  std::vector<std::string> out;
  if (col.type == column_type::boolean) {
    out = {"true", "false"};
  } else if (!col.allowed_values.empty() && col.type == column_type::text) {
    for (const auto& value : col.allowed_values) out.push_back(json_quote(value));
  } else {
    return std::nullopt;
  }
  if (col.nullable) out.emplace_back("null");
  return out;
}

}  // namespace

void execution::state::start_aggregate(tool_call call) {
  requested.emplace(call);
  effective.emplace(std::move(call));
  const table& tbl = *effective->tbl;
  record.table = tbl.name;
  record.raw_params.reset();
  if (auto signed_in = require_signed_in(tbl, options); !signed_in) return fail(signed_in.err());
  aggregated.emplace();
  const aggregate_spec& spec = effective->aggregate;
  if (spec.group_by.empty() && only_row_counts(spec)) return void(plan_row_count());
  if (settings.aggregates != aggregates_support::off) return void(plan_server_aggregate());
  // Known before this call: the record still says how it was answered.
  aggregates_learned = "off";
  plan_aggregate_fallback();
}

tool_call execution::state::filtered_read() const {
  // Built in place: the lists are copied, never assigned (a copy assignment
  // of each would be code of its own in the module).
  return {.kind = tool_kind::read,
          .tbl = effective->tbl,
          .filters = effective->filters,
          .or_filters = effective->or_filters,
          .or_groups = effective->or_groups,
          .current_user = effective->current_user};
}

std::string execution::state::count_mode() const { return effective->count.empty() ? "exact" : effective->count; }

tool_call execution::state::counting_read() const {
  tool_call count = filtered_read();
  count.columns = {counted_column(*count.tbl)};
  count.limit = 0;
  count.count = count_mode();
  return count;
}

std::optional<long long> execution::state::counted_total_of(const need_response& answer) {
  record.source = detail::query_source::database;
  if (!succeeded(answer)) {
    fail(detail::database_error(answer, "counting the rows of " + effective->tbl->name));
    return std::nullopt;
  }
  auto total = detail::content_range_total(answer.content_range);
  if (!total || !*total) {
    fail({codes::invalid_response, "", "the database did not say how many rows match (Content-Range)", ""});
    return std::nullopt;
  }
  return **total;
}

bool execution::state::plan_row_count() { return add_read_need(counting_read(), &state::consume_row_count); }

bool execution::state::consume_row_count(pending_need& counted) {
  need_response& answer = *counted.answer;
  apply_limits(answer);
  const auto total = counted_total_of(answer);
  if (!total) return false;
  const std::string mode = count_mode();
  aggregated->exact = mode == "exact";
  if (!aggregated->exact)
    record.notes.push_back(textfmt::format("{} {} count (the planner's statistics), not an exact one",
                                           mode == "estimated" ? "an" : "a", mode));
  detail::aggregate_group group;
  for (std::size_t m = 0; m < effective->aggregate.metrics.size(); ++m) group.values.push_back(std::to_string(*total));
  aggregated->groups.push_back(std::move(group));
  complete_groups();
  return false;
}

bool execution::state::plan_server_aggregate() {
  const aggregate_spec& spec = effective->aggregate;
  std::string group_items;
  for (const column* col : spec.group_by) group_items.append(group_items.empty() ? "" : ",").append(col->name);
  std::string select = group_items;
  aggregate_aliases.assign(spec.metrics.size(), std::string());
  for (std::size_t m = 0; m < spec.metrics.size(); ++m) {
    if (spec.metrics[m].fn == metric_fn::count_distinct) continue;
    select.append(select.empty() ? "" : ",").append(aggregate_item(spec.metrics[m], m));
    aggregate_aliases[m] = textfmt::format("m{}", m);
  }
  // One more group than the bound says whether the set was cut.
  const long bound = long(dom.max_rows);
  bool planned = false;
  if (std::any_of(aggregate_aliases.begin(), aggregate_aliases.end(), [](const auto& a) { return !a.empty(); })) {
    tool_call main = filtered_read();
    main.select_text = std::move(select);
    main.limit = bound + 1;
    if (!add_read_need(main, &state::consume_server_aggregate, &state::merge_server_aggregate)) return false;
    round.back().item = spec.metrics.size();
    planned = true;
  }
  // A distinct count: the (group, value) pairs, counted per group here.
  for (std::size_t m = 0; m < spec.metrics.size(); ++m) {
    if (spec.metrics[m].fn != metric_fn::count_distinct) continue;
    tool_call pairs = filtered_read();
    pairs.select_text = group_items + (group_items.empty() ? "" : ",") + spec.metrics[m].col->name + ",n:count()";
    pairs.limit = bound + 1;
    if (!add_read_need(pairs, &state::consume_server_aggregate, &state::merge_server_aggregate)) return false;
    round.back().item = m;
    planned = true;
  }
  return planned;
}

bool execution::state::consume_server_aggregate(pending_need& need) {
  need_response& answer = *need.answer;
  apply_limits(answer);
  record.source = detail::query_source::database;
  if (!succeeded(answer)) {
    error err = detail::database_error(answer, "aggregating the rows of " + effective->tbl->name);
    // PGRST123: the server does not compute aggregates. Learned once, and
    // the call answered another way.
    if (err.db_code == "PGRST123") {
      aggregates_learned = "off";
      return true;
    }
    fail(err);
    return false;
  }
  aggregates_learned = "on";
  auto doc = json_document::parse(answer.body);
  if (!doc || !doc->root().is_array()) {
    fail({codes::invalid_response, "", "the database's aggregate is not a list of groups", ""});
    return false;
  }
  const aggregate_spec& spec = effective->aggregate;
  const bool over = doc->root().size() > std::size_t(dom.max_rows);
  if (need.item == spec.metrics.size()) {
    if (over) aggregated->cut = true;
    detail::aggregate_groups read = detail::groups_from_server(spec, doc->root(), aggregate_aliases);
    if (read.groups.size() > std::size_t(dom.max_rows)) read.groups.resize(std::size_t(dom.max_rows));
    server_groups = std::move(read.groups);
    return true;
  }
  // (group…, value, n) rows: each is one distinct non-null value of a group.
  // More of them than the bound: a count of the first ones would be wrong.
  const std::string& field = spec.metrics[need.item].col->name;
  if (over) {
    fail({codes::aggregate_too_large, "filters",
          textfmt::format("more than {} distinct values of {}{} match, over the {} a distinct count is made from "
                          "here; nothing was counted",
                          dom.max_rows, field, spec.group_by.empty() ? "" : " (over all groups)", dom.max_rows),
          textfmt::format("narrow the filters (or group by fewer columns) so that at most {} distinct values of {} "
                          "match, or count the rows instead (fn count)",
                          dom.max_rows, field)});
    return false;
  }
  doc->root().for_each_element([&](std::size_t i, json_value row) {
    if (i >= std::size_t(dom.max_rows) || !row.is_object()) return;
    auto value = row.find(field);
    std::vector<std::string> keys;
    for (const column* col : spec.group_by) {
      auto key = row.find(col->name);
      keys.push_back(key ? std::string(key->raw()) : std::string("null"));
    }
    long long& count = distinct_counts[need.item][detail::group_key(keys)];
    if (value && !value->is_null()) ++count;
    distinct_keys.emplace(detail::group_key(keys), std::move(keys));
  });
  return true;
}

void execution::state::merge_server_aggregate() {
  if (aggregates_learned == "off") {
    record.notes.push_back(
        "the server does not compute aggregates (db-aggregates-enabled is off): answered another way");
    aggregated.emplace();
    server_groups.clear();
    distinct_counts.clear();
    distinct_keys.clear();
    return void(plan_aggregate_fallback());
  }
  const aggregate_spec& spec = effective->aggregate;
  // Groups only a distinct count saw (every other metric of theirs is null).
  for (const auto& [seen_key, keys] : distinct_keys) {
    const std::string& key = seen_key;  // a lambda may not capture a structured binding (C++17)
    const bool known = std::any_of(server_groups.begin(), server_groups.end(),
                                   [&](const detail::aggregate_group& g) { return detail::group_key(g.keys) == key; });
    if (!known &&
        std::all_of(aggregate_aliases.begin(), aggregate_aliases.end(), [](const auto& a) { return a.empty(); }))
      server_groups.push_back({keys, std::vector<std::string>(spec.metrics.size(), "0")});
  }
  for (auto& group : server_groups)
    for (const auto& [m, counts] : distinct_counts) {
      const auto found = counts.find(detail::group_key(group.keys));
      group.values[m] = std::to_string(found == counts.end() ? 0 : found->second);
    }
  if (spec.group_by.empty() && server_groups.empty())
    server_groups.push_back({{}, std::vector<std::string>(spec.metrics.size(), "0")});
  aggregated->groups = std::move(server_groups);
  if (aggregated->cut) {
    aggregated->exact = false;
    record.notes.push_back(textfmt::format(
        "more than {} groups: the first {} the server gave are ordered and counted here, so the result is not exact",
        dom.max_rows, dom.max_rows));
  }
  complete_groups();
}

bool execution::state::plan_aggregate_fallback() {
  const aggregate_spec& spec = effective->aggregate;
  // Counts by columns of known values: one counted request per combination.
  std::vector<std::vector<std::string>> combinations{{}};
  bool countable = only_row_counts(spec) && !spec.group_by.empty();
  for (const column* col : spec.group_by) {
    auto values = countable ? known_values(*col) : std::nullopt;
    if (!values) {
      countable = false;
      break;
    }
    std::vector<std::vector<std::string>> next;
    for (const auto& partial : combinations)
      for (const auto& value : *values) {
        auto grown = partial;
        grown.push_back(value);
        next.push_back(std::move(grown));
      }
    combinations = std::move(next);
    if (combinations.size() > kMaxCountedGroups) countable = false;
  }
  if (countable) return plan_counted_groups(std::move(combinations));
  return plan_aggregate_rows();
}

// The rows, when they fit the bound: the group columns and the metrics'
// columns only, and how many there are.
bool execution::state::plan_aggregate_rows() {
  const aggregate_spec& spec = effective->aggregate;
  tool_call rows = filtered_read();
  for (const column* col : spec.group_by) rows.columns.push_back(col->name);
  for (const metric& m : spec.metrics)
    if (m.col && std::find(rows.columns.begin(), rows.columns.end(), m.col->name) == rows.columns.end())
      rows.columns.push_back(m.col->name);
  if (rows.columns.empty()) rows.columns.push_back(counted_column(*rows.tbl));
  rows.limit = long(dom.max_rows);
  rows.count = "exact";
  // Text sorts by the database's collation, not by bytes: the rows come
  // sorted by the first text column a min or max is asked of, so its least
  // and greatest are the database's own.
  aggregate_ordered_by = nullptr;
  for (const metric& m : spec.metrics)
    if ((m.fn == metric_fn::min || m.fn == metric_fn::max) && m.col && m.col->type == column_type::text) {
      aggregate_ordered_by = m.col;
      rows.order_by = m.col->name;
      break;
    }
  return add_read_need(rows, &state::consume_aggregate_rows);
}

bool execution::state::plan_counted_groups(std::vector<std::vector<std::string>> combinations) {
  const aggregate_spec& spec = effective->aggregate;
  counted_groups = std::move(combinations);
  for (std::size_t i = 0; i < counted_groups.size(); ++i) {
    tool_call count = counting_read();
    for (std::size_t k = 0; k < spec.group_by.size(); ++k) {
      const column& col = *spec.group_by[k];
      filter f;
      f.field = col.name;
      f.col = &col;
      auto value = json_document::parse(counted_groups[i][k]);
      if (!value || value->root().is_null()) {
        f.op = filter_op::is_null;
      } else {
        f.op = filter_op::eq;
        f.values.push_back(value->root().is_string() ? scalar{scalar::kind::text, std::string(value->root().str())}
                                                     : scalar{scalar::kind::boolean, std::string(value->root().raw())});
      }
      count.filters.push_back(std::move(f));
    }
    if (!add_read_need(count, &state::consume_counted_group, &state::finish_counted_groups)) return false;
    round.back().item = i;
  }
  // And every row under the filters: the rows may hold values the domain
  // does not list (a text column's check constraint added later, or none),
  // which no group above counts.
  if (!add_read_need(counting_read(), &state::consume_counted_group, &state::finish_counted_groups)) return false;
  round.back().item = counted_groups.size();
  counted_total.reset();
  return true;
}

bool execution::state::consume_counted_group(pending_need& counted) {
  const auto total = counted_total_of(*counted.answer);
  if (!total) return false;
  if (counted.item == counted_groups.size()) {
    counted_total = *total;
    return true;
  }
  if (*total == 0) return true;  // a group with no rows is no group
  aggregated->groups.push_back({counted_groups[counted.item],
                                std::vector<std::string>(effective->aggregate.metrics.size(), std::to_string(*total))});
  return true;
}

void execution::state::finish_counted_groups() {
  aggregated->exact = count_mode() == "exact";
  long long counted = 0;
  for (const auto& group : aggregated->groups) {
    long long n = 0;
    for (char c : group.values.front()) n = n * 10 + (c - '0');  // std::to_string of a total: digits only
    counted += n;
  }
  // Rows no group holds: the values are not all known, so the rows decide.
  if (aggregated->exact && counted_total && counted != *counted_total) {
    std::string columns;
    for (const column* col : effective->aggregate.group_by)
      columns.append(columns.empty() ? "" : ", ").append(col->name);
    record.notes.push_back(
        textfmt::format("{} of the {} rows hold values outside the ones the domain lists for {}: counted from the rows",
                        *counted_total - counted, *counted_total, columns));
    aggregated.emplace();
    return void(plan_aggregate_rows());
  }
  record.notes.push_back(textfmt::format("counted with {} requests, one per group (the server does not aggregate)",
                                         counted_groups.size() + 1));
  complete_groups();
}

bool execution::state::consume_aggregate_rows(pending_need& read) {
  need_response& answer = *read.answer;
  apply_limits(answer);
  record.source = detail::query_source::database;
  if (!succeeded(answer)) {
    fail(detail::database_error(answer, "reading the rows of " + effective->tbl->name));
    return false;
  }
  auto total = detail::content_range_total(answer.content_range);
  if (total && *total && **total > dom.max_rows) {
    fail({codes::aggregate_too_large, "filters",
          textfmt::format("{} rows of {} match, over the {} a total is computed from here (the server does not "
                          "compute aggregates); nothing was summed",
                          **total, effective->tbl->name, dom.max_rows),
          textfmt::format("narrow the filters to at most {} rows, or ask the app's owner to enable aggregates: "
                          "alter role authenticator set pgrst.db_aggregates_enabled = 'true'; notify pgrst, 'reload "
                          "config';",
                          dom.max_rows)});
    return false;
  }
  auto doc = json_document::parse(answer.body);
  if (!doc || !doc->root().is_array()) {
    fail({codes::invalid_response, "", "the database did not answer with rows", ""});
    return false;
  }
  *aggregated = detail::groups_from_rows(effective->aggregate, doc->root(), aggregate_ordered_by);
  record.notes.push_back(
      textfmt::format("computed from the {} matching rows (the server does not aggregate)", doc->root().size()));
  complete_groups();
  return false;
}

void execution::state::complete_groups() {
  detail::finish_groups(effective->aggregate, *aggregated);
  record.exact = aggregated->exact;
  // The group columns' values as rows of the table, so that keys become
  // refs with labels as a read's do.
  std::string rows;
  json_writer w(rows);
  w.begin_array();
  for (const auto& group : aggregated->groups) {
    w.begin_object();
    for (std::size_t k = 0; k < group.keys.size(); ++k) {
      w.key(effective->aggregate.group_by[k]->name);
      w.raw_value(group.keys[k]);
    }
    w.end_object();
  }
  w.end_array();
  group_rows = std::move(rows);
  auto translated = translate_rows_if_labeled(dom, registry, *effective->tbl, group_rows, ref_action::read, me());
  if (translated && !translated->missing.empty()) {
    for (const auto& lookup : translated->missing) plan_label_lookup(lookup, &state::write_aggregate);
    if (!round.empty()) return;
  }
  write_aggregate();
}

void execution::state::write_aggregate() {
  auto translated = translate_rows(dom, registry, *effective->tbl, group_rows, ref_action::read, me());
  if (!translated) return fail(translated.err());
  auto doc = json_document::parse(*translated);
  if (!doc) return fail({codes::internal_error, "", "the groups' rows could not be read again", ""});
  const aggregate_spec& spec = effective->aggregate;
  std::string out;
  json_writer w(out);
  w.begin_array();
  doc->root().for_each_element([&](std::size_t i, json_value row) {
    w.begin_object();
    row.for_each_member([&](std::string_view key, json_value value) {
      w.key(key);
      w.raw_value(value.raw());
    });
    for (std::size_t m = 0; m < spec.metrics.size(); ++m) {
      w.key(spec.metrics[m].key);
      w.raw_value(aggregated->groups[i].values[m]);
    }
    w.end_object();
  });
  w.end_array();
  const std::size_t shown = aggregated->groups.size();
  if (aggregated->total > shown)
    record.notes.push_back(
        textfmt::format("{} groups matched; the first {} are shown (limit)", aggregated->total, shown));
  finish_rows(std::move(out), shown, static_cast<long long>(aggregated->total));
}

}  // namespace alfred
