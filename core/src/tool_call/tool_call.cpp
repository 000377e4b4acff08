#include "alfred/tool_call/tool_call.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdlib>

#include "../json/echo.h"
#include "../json/format.h"
#include "alfred/uuid/uuid.h"
#include "call_stage.h"
#include "function_reader.h"
#include "param_path.h"
#include "tool_params.h"
#include "values.h"

namespace alfred {
namespace {

using detail::looks_like_rows;
using detail::lower_trimmed;
using detail::param_path;
using detail::param_use;
using detail::tool_param;

constexpr std::array<std::string_view, 6> kToolNames{"db_read",   "db_create", "db_update",
                                                     "db_delete", "db_call",   "db_aggregate"};
constexpr std::array<std::string_view, 6> kMetricNames{"count", "count_distinct", "sum", "avg", "min", "max"};

// The params' members, read in one pass; each is the last one given under
// its key, as json_value::find would return.
struct param_members {
  std::array<std::optional<json_value>, detail::kToolParamCount> values;

  std::optional<json_value>& operator[](tool_param param) { return values[static_cast<std::size_t>(param)]; }
  const std::optional<json_value>& operator[](tool_param param) const {
    return values[static_cast<std::size_t>(param)];
  }
};

// A filter object's members.
constexpr std::array<std::string_view, 3> kFilterKeys{"field", "op", "value"};

// Reads the params and the table, hands the call to the stages
// (call_stage.h), and checks what only the whole call can tell: a read's
// options, an update's or delete's narrowing filter.
class call_parser : detail::call_stage {
 public:
  call_parser(const domain& dom, const ref_registry& registry, tool_kind kind, std::string_view current_user,
              std::span<const fixed_value> fixed)
      : call_stage(dom, registry, kind, call_), fixed_(fixed) {
    call_.current_user = std::string(current_user);
  }

  result<tool_call> parse(json_value params_object) {
    if (!params_object.is_object())
      return error{codes::invalid_params, "",
                   textfmt::format("params must be an object, got {}", params_object.kind_name()),
                   textfmt::format("{} takes: {}", tool_name(kind_), detail::tool_param_list(kind_))};
    param_members params;
    if (auto unknown = collect_params(params_object, params)) return std::move(*unknown);
    call_.kind = kind_;
    if (kind_ == tool_kind::call) return parse_call(params);
    // Strict mode gives rows as JSON text; any other string stays a string
    // (and is refused below as not a row).
    if (params[tool_param::data] && params[tool_param::data]->is_string() &&
        looks_like_rows(params[tool_param::data]->str())) {
      auto rows = detail::parse_data_text(params[tool_param::data]->str(), "data");
      if (!rows) return rows.take_error();
      data_doc_ = std::move(*rows);
      params[tool_param::data] = data_doc_->root();
    }
    auto tbl = parse_table(params);
    if (!tbl) return tbl.take_error();
    call_.kind = kind_;
    call_.tbl = *tbl;

    status ok = ok_status();
    if (kind_ != tool_kind::create)
      ok = detail::filter_reader(dom_, registry_, kind_, call_)
               .read(params[tool_param::filters], "filters", call_.filters);
    if (ok) {
      switch (kind_) {
        case tool_kind::read:
          ok = parse_read_options(params);
          break;
        case tool_kind::create:
          ok = detail::row_reader(dom_, registry_, kind_, call_, fixed_).read_create(params[tool_param::data]);
          break;
        case tool_kind::update:
          ok = detail::row_reader(dom_, registry_, kind_, call_, fixed_).read_update(params[tool_param::data]);
          if (ok) ok = require_narrowing_filter();
          break;
        case tool_kind::remove:
          ok = require_narrowing_filter();
          break;
        case tool_kind::call:
          break;  // read above
        case tool_kind::aggregate:
          ok = parse_aggregate_options(params);
          break;
      }
    }
    if (!ok) return ok.take_error();
    return std::move(call_);
  }

 private:
  // The params by name, given ones only; a param this tool does not take is
  // unknown_param.
  std::optional<error> collect_params(json_value params_object, param_members& params) const {
    std::optional<error> failure;
    params_object.for_each_member([&](std::string_view key, json_value value) {
      if (failure || detail::is_absent_param(value)) return;
      const detail::tool_param_row* row = detail::find_tool_param(key);
      if (!row || row->use_by(kind_) == param_use::none)
        failure = error{codes::unknown_param, detail::echoed(key),
                        textfmt::format("{} does not take '{}'", tool_name(kind_), detail::echoed(key)),
                        textfmt::format("allowed: {}", detail::tool_param_list(kind_))};
      else
        params[row->param] = value;
    });
    return failure;
  }

  // db_call: the function and its arguments (function_reader.cpp), and a
  // page of the set it returns.
  result<tool_call> parse_call(const param_members& params) {
    auto ok = detail::function_reader(dom_, registry_, call_, fixed_)
                  .read(params[tool_param::function], params[tool_param::args]);
    if (ok) ok = parse_paging(params);
    if (!ok) return ok.take_error();
    // A page is of a set a function reads: another page of a function that
    // changes data would call it, and change data, again.
    const db_function& fn = *call_.fn;
    if (call_.offset == 0) call_.offset.reset();
    if ((call_.limit || call_.offset) && !(fn.read && fn.returns.set))
      return error{codes::invalid_param, call_.limit ? "limit" : "offset",
                   fn.read ? textfmt::format("{} returns no set of rows to page through", fn.name)
                           : textfmt::format("{} changes data: a page of its rows would call it again", fn.name),
                   "leave limit and offset out of this call"};
    return std::move(call_);
  }

  // limit and offset: a page of a read's rows, or of a function's set.
  status parse_paging(const param_members& params) {
    auto limit = parse_count_param(params[tool_param::limit], "limit", 1, dom_.max_rows);
    if (!limit) return limit.take_error();
    call_.limit = *limit;
    auto offset = parse_count_param(params[tool_param::offset], "offset", 0, 100000000);
    if (!offset) return offset.take_error();
    call_.offset = *offset;
    return ok_status();
  }

  // The tables the model may name; a domain of functions alone has none.
  std::string tables_hint() const {
    const std::string tables = dom_.table_list();
    return tables.empty()
               ? textfmt::format("no table is served here: call a function with db_call ({})", dom_.function_list())
               : textfmt::format("one of: {}", tables);
  }

  // How the model reaches rows of a table the API does not serve.
  std::string unserved_hint(const table& tbl) const {
    std::string hint = dom_.ref_source_hint(tbl);
    return hint.empty() ? tables_hint() : hint;
  }

  result<const table*> parse_table(const param_members& params) {
    const auto& value = params[tool_param::table];
    if (!value || value->is_null()) return error{codes::missing_param, "table", "table is required", tables_hint()};
    if (!value->is_string())
      return error{codes::invalid_param, "table", textfmt::format("table must be a string, got {}", value->kind_name()),
                   tables_hint()};
    const table* tbl = dom_.find_table(value->str());
    if (!tbl)
      return error{codes::unknown_table, "table",
                   textfmt::format("'{}' is not a table of the {} domain", detail::echoed(value->str()), dom_.name),
                   tables_hint()};
    if (!tbl->exposed)
      return error{codes::unknown_table, "table",
                   textfmt::format("{} is not a table the database serves: its rows are refs ({}) that function "
                                   "results and the rows referencing them give",
                                   tbl->name, ref_pattern(tbl->ref_prefix)),
                   unserved_hint(*tbl)};
    // A write-only table (`"readable": false`) takes creates alone.
    if (!takes(*tbl, kind_))
      return error{tbl->readable ? codes::read_only_table : codes::write_only_table, "table",
                   textfmt::format("{} {}{} here; {} is not allowed on it", tbl->name,
                                   tbl->writable && tbl->readable ? "takes " : "is ", tbl->write_note().substr(2),
                                   tool_name(kind_)),
                   textfmt::format("{}tell the user it cannot be done here{}",
                                   tbl->writable ? "" : "read it with db_read and link its rows by ref, or ",
                                   dom_.functions.empty() ? "" : ", unless a db_call function does it")};
    return tbl;
  }

  // db_aggregate: its own filters' OR list, the groups and metrics, the
  // count mode and the limit on groups.
  status parse_aggregate_options(const param_members& params) {
    auto ok = detail::filter_reader(dom_, registry_, kind_, call_)
                  .read(params[tool_param::or_filters], "or_filters", call_.or_filters);
    if (!ok) return ok;
    auto limit = parse_count_param(params[tool_param::limit], "limit", 1, dom_.max_rows);
    if (!limit) return limit.take_error();
    call_.aggregate.limit = *limit;
    if (const auto& count = params[tool_param::count]; count && !count->is_null()) {
      if (!count->is_string() || (count->str() != "exact" && count->str() != "planned" && count->str() != "estimated"))
        return error{codes::invalid_param, "count", "count must be \"exact\", \"planned\" or \"estimated\"",
                     "estimated or planned counts a large table faster, from the planner's statistics"};
      call_.count = std::string(count->str());
    }
    return detail::aggregate_reader(dom_, registry_, call_)
        .read({params[tool_param::group_by], params[tool_param::metrics], params[tool_param::order_by],
               params[tool_param::order_dir], params[tool_param::having]});
  }

  status parse_read_options(const param_members& params) {
    auto ok = detail::filter_reader(dom_, registry_, kind_, call_)
                  .read(params[tool_param::or_filters], "or_filters", call_.or_filters);
    if (!ok) return ok;
    ok = detail::select_reader(dom_, registry_, kind_, call_).read(params[tool_param::columns]);
    if (ok) ok = parse_paging(params);
    if (!ok) return ok;

    if (const auto& order_by = params[tool_param::order_by]; order_by && !order_by->is_null()) {
      if (!order_by->is_string()) {
        const table& tbl = *call_.tbl;
        std::string_view example = "<column>";
        for (const auto& col : tbl.columns)
          if (tbl.shows_column(col.name)) {
            example = col.name;
            break;
          }
        if (!tbl.label_columns.empty()) example = tbl.label_columns.front();
        return error{
            codes::invalid_param, "order_by", "order_by must be a column name",
            textfmt::format("give the direction apart: \"order_by\": \"{}\", \"order_dir\": \"desc\"", example)};
      }
      auto col = visible_column(order_by->str(), "order_by", *call_.tbl);
      if (!col) return col.take_error();
      call_.order_by = (*col)->name;
      if (const auto& dir = params[tool_param::order_dir]; dir && !dir->is_null()) {
        const std::string text = dir->is_string() ? lower_trimmed(dir->str()) : "";
        if (text != "asc" && text != "desc")
          return error{codes::invalid_param, "order_dir", "order_dir must be \"asc\" or \"desc\"", ""};
        call_.descending = text == "desc";
      }
    }
    if (const auto& count = params[tool_param::count]; count && !count->is_null()) {
      if (count->is_bool()) {
        call_.count = count->as_bool() ? "exact" : "";
      } else if (count->is_string() &&
                 (count->str() == "exact" || count->str() == "planned" || count->str() == "estimated")) {
        call_.count = std::string(count->str());
      } else {
        return error{codes::invalid_param, "count", "count must be true, \"exact\", \"planned\" or \"estimated\"", ""};
      }
    }
    return ok_status();
  }

  result<std::optional<long>> parse_count_param(const std::optional<json_value>& value, const char* key, long min,
                                                long max) {
    if (!value || value->is_null()) return std::optional<long>();
    std::optional<long long> n = value->as_integer();
    if (!n) n = detail::whole_number(*value, 1'000'000'000'000'000);
    if (!n && value->is_string() && !value->str().empty() && value->str().size() < 10 &&
        std::all_of(value->str().begin(), value->str().end(), [](char c) { return c >= '0' && c <= '9'; })) {
      n = 0;
      for (char c : value->str()) *n = *n * 10 + (c - '0');
    }
    if (!n)
      return error{codes::invalid_param, key,
                   textfmt::format("{} must be a whole number, got {}", key, value->kind_name()), ""};
    if (*n < min || *n > max)
      return error{codes::invalid_param, key,
                   textfmt::format("{} must be between {} and {}, got {}", key, min, max, *n),
                   std::string_view(key) == "limit"
                       ? textfmt::format("the server returns at most {} rows per read; page with offset", max)
                       : std::string()};
    return std::optional<long>(long(*n));
  }

  // Updates and deletes must select rows; the owner scope alone selects all
  // of the user's rows, and so do filters that cannot exclude anything.
  status require_narrowing_filter() const {
    // `!= null`, `not_in [null]` and `is_not_null` all mean IS NOT NULL,
    // which excludes nothing on a NOT NULL column.
    auto narrows = [](const filter& f) {
      switch (filter_op_rule_of(f.op).narrowing) {
        case write_narrowing::always:
          return true;
        case write_narrowing::if_nullable:
          return f.col->nullable;
        case write_narrowing::if_excludes_value:
          return std::any_of(f.values.begin(), f.values.end(), [](const scalar& v) { return !v.is_null(); }) ||
                 (!f.values.empty() && f.col->nullable);
        case write_narrowing::if_pattern_selective:
          return f.value().text.find_first_not_of("%*") != std::string::npos;
      }
      return true;
    };
    // The owner column naming only the signed-in user (`user_id = me`) is
    // the user scope itself: every row of theirs. Not so where the owner is
    // the whole key (`profiles.id = me` is the user's one row); where it is
    // one column of two (`bookmarks(user_id, post_id)`) it is every row.
    const table& tbl = *call_.tbl;
    const column* key = tbl.key_column();
    const std::string me = tbl.owner.empty() || (key && key->name == tbl.owner) || !is_uuid_syntax(call_.current_user)
                               ? std::string()
                               : canonical_uuid(call_.current_user);
    auto only_me = [&](const filter& f) {
      return !me.empty() && f.col && f.col->name == tbl.owner && (f.op == filter_op::eq || f.op == filter_op::in) &&
             !f.values.empty() && std::all_of(f.values.begin(), f.values.end(), [&](const scalar& v) {
               return v.is_null() || (v.type == scalar::kind::text && v.text == me);
             });
    };
    if (std::any_of(call_.filters.begin(), call_.filters.end(),
                    [&](const filter& f) { return narrows(f) && !only_me(f); }))
      return ok_status();
    const bool scoped = std::any_of(call_.filters.begin(), call_.filters.end(), only_me);
    return error{codes::missing_filter, "filters",
                 scoped ? textfmt::format("{} needs a filter that selects rows; {} = me is every row of the user's, "
                                          "and changing every row of {} is refused",
                                          tool_name(kind_), tbl.owner, tbl.name)
                        : textfmt::format("{} needs a filter that selects rows; changing every row of {} is refused",
                                          tool_name(kind_), tbl.name),
                 detail::narrowing_example(tbl)};
  }

  tool_call call_;
  std::span<const fixed_value> fixed_;
  // `data` given as JSON text (strict mode), parsed; the rows are copied out
  // as JSON text, so it only lives as long as the parse.
  std::optional<json_document> data_doc_;
};

}  // namespace

std::optional<tool_kind> parse_tool_name(std::string_view name) {
  for (std::size_t i = 0; i < kToolNames.size(); ++i)
    if (kToolNames[i] == name) return static_cast<tool_kind>(i);
  return std::nullopt;
}

std::string_view tool_name(tool_kind kind) { return kToolNames[static_cast<std::size_t>(kind)]; }

tool_effect effect_of(tool_kind kind) {
  switch (kind) {
    case tool_kind::create:
      return {.creates_rows = true};
    case tool_kind::update:
      return {.changes_rows = true};
    case tool_kind::remove:
      return {.changes_rows = true, .deletes_rows = true};
    case tool_kind::call:
      return {.calls_function = true};
    case tool_kind::read:
    case tool_kind::aggregate:
      break;
  }
  return {};
}

std::string_view metric_fn_name(metric_fn fn) { return kMetricNames[static_cast<std::size_t>(fn)]; }

bool writes(const tool_call& call) {
  const tool_effect effect = effect_of(call.kind);
  if (effect.calls_function) return !call.fn || !call.fn->read;
  return effect.creates_rows || effect.changes_rows;
}

result<tool_call> parse_tool_call(const domain& dom, const ref_registry& registry, std::string_view tool,
                                  json_value params, std::string_view current_user,
                                  std::span<const fixed_value> fixed) {
  auto kind = parse_tool_name(tool);
  if (!kind)
    // The tools this domain offers: the table tools where it serves a table, db_call where it has functions.
    return error{codes::unknown_tool, "tool", textfmt::format("'{}' is not a tool", detail::echoed(tool)),
                 dom.table_list().empty() ? "one of: db_call"
                 : dom.functions.empty()  ? "one of: db_read, db_create, db_update, db_delete, db_aggregate"
                                          : "one of: db_read, db_create, db_update, db_delete, db_call, db_aggregate"};
  return call_parser(dom, registry, *kind, current_user, fixed).parse(params);
}

result<tool_call> parse_tool_call(const domain& dom, const ref_registry& registry, std::string_view tool,
                                  json_value params, std::string_view current_user) {
  return parse_tool_call(dom, registry, tool, params, current_user, {});
}

result<tool_call> parse_tool_call(const domain& dom, const ref_registry& registry, std::string_view tool,
                                  std::string_view params_json, std::string_view current_user) {
  auto doc = json_document::parse(params_json);
  if (!doc) return error{codes::invalid_json, "params", doc.err().message, "params must be a JSON object"};
  return parse_tool_call(dom, registry, tool, doc->root(), current_user);
}

}  // namespace alfred
