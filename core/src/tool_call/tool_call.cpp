#include "alfred/tool_call.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdlib>

#include "../json/echo.h"
#include "../json/json_fields.h"
#include "param_path.h"
#include "tool_params.h"
#include "values.h"

namespace alfred {
namespace {

using detail::invalid_value;
using detail::param_path;
using detail::value_scope;

constexpr std::array<std::string_view, 4> kToolNames{"db_read", "db_create", "db_update", "db_delete"};

std::string lower_trimmed(std::string_view text) {
  auto begin = text.find_first_not_of(" \t");
  if (begin == std::string_view::npos) return {};
  auto end = text.find_last_not_of(" \t");
  std::string out(text.substr(begin, end - begin + 1));
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return out;
}

// How to exclude rows without an invented operator (models reach for
// `excludes` or `not_contains`, which do not exist), with refs of the table
// the call is about.
std::string exclusion_hint(const table& tbl) {
  return fmt::format(
      "To exclude rows: use not_in with the refs to drop, e.g. {{\"field\": \"id\", \"op\": \"not_in\", "
      "\"value\": [\"{0}_5\", \"{0}_6\"]}}; or in with the refs to keep; or not_ilike for a text "
      "pattern; or read everything and filter in an analyze step",
      tbl.ref_prefix);
}

bool looks_like_negation(std::string_view op) {
  const std::string text = lower_trimmed(op);
  return text.rfind("not", 0) == 0 || text.rfind("!", 0) == 0 || text.find("exclud") != std::string::npos ||
         text.find("without") != std::string::npos;
}

bool looks_like_rows(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && (text[first] == '{' || text[first] == '[');
}

std::string visible_columns(const domain& dom, const table& tbl) {
  std::vector<std::string_view> names;
  for (const auto& col : tbl.columns)
    if (col.name != dom.owner_column) names.push_back(col.name);
  return fmt::format("{}", fmt::join(names, ", "));
}

std::string allowed_keys(tool_kind kind) {
  switch (kind) {
    case tool_kind::read:
      return "table, filters, or_filters, columns, limit, offset, order_by, order_dir, count";
    case tool_kind::create:
      return "table, data";
    case tool_kind::update:
      return "table, filters, data";
    case tool_kind::remove:
      return "table, filters";
  }
  return {};
}

bool key_allowed(tool_kind kind, std::string_view key) {
  if (key == "table") return true;
  switch (kind) {
    case tool_kind::read:
      return key == "filters" || key == "or_filters" || key == "columns" || key == "limit" || key == "offset" ||
             key == "order_by" || key == "order_dir" || key == "count";
    case tool_kind::create:
      return key == "data";
    case tool_kind::update:
      return key == "filters" || key == "data";
    case tool_kind::remove:
      return key == "filters";
  }
  return false;
}

// The params' members, read in one pass; each is the last one given under
// its key, as json_value::find would return.
struct param_members {
  std::optional<json_value> table, filters, or_filters, columns, limit, offset, order_by, order_dir, count, data;

  std::optional<json_value>* slot(std::string_view key) {
    if (key == "table") return &table;
    if (key == "filters") return &filters;
    if (key == "or_filters") return &or_filters;
    if (key == "columns") return &columns;
    if (key == "limit") return &limit;
    if (key == "offset") return &offset;
    if (key == "order_by") return &order_by;
    if (key == "order_dir") return &order_dir;
    if (key == "count") return &count;
    if (key == "data") return &data;
    return nullptr;
  }
};

// A filter object's members.
constexpr std::array<std::string_view, 3> kFilterKeys{"field", "op", "value"};

class call_parser {
 public:
  call_parser(const domain& dom, const ref_registry& registry, tool_kind kind)
      : dom_(dom), registry_(registry), kind_(kind) {}

  result<tool_call> parse(json_value params_object) {
    if (!params_object.is_object())
      return error{codes::invalid_params, "",
                   fmt::format("params must be an object, got {}", params_object.kind_name()),
                   fmt::format("{} takes: {}", tool_name(kind_), allowed_keys(kind_))};
    param_members params;
    std::optional<error> failure;
    params_object.for_each_member([&](std::string_view key, json_value value) {
      if (failure || detail::is_absent_param(value)) return;
      if (!key_allowed(kind_, key))
        failure = error{codes::unknown_param, detail::echoed(key),
                        fmt::format("{} does not take '{}'", tool_name(kind_), detail::echoed(key)),
                        fmt::format("allowed: {}", allowed_keys(kind_))};
      else
        *params.slot(key) = value;
    });
    if (failure) return std::move(*failure);
    // Strict mode gives rows as JSON text; any other string stays a string
    // (and is refused below as not a row).
    if (params.data && params.data->is_string() && looks_like_rows(params.data->str())) {
      auto rows = detail::parse_data_text(params.data->str(), "data");
      if (!rows) return rows.take_error();
      data_doc_ = std::move(*rows);
      params.data = data_doc_->root();
    }
    auto tbl = parse_table(params);
    if (!tbl) return tbl.take_error();
    call_.kind = kind_;
    call_.tbl = *tbl;

    status ok = ok_status();
    if (kind_ != tool_kind::create) ok = parse_filters(params.filters, "filters", call_.filters);
    if (ok) {
      switch (kind_) {
        case tool_kind::read:
          ok = parse_read_options(params);
          break;
        case tool_kind::create:
          ok = parse_create_data(params);
          break;
        case tool_kind::update:
          ok = parse_update_data(params);
          if (ok) ok = require_narrowing_filter();
          break;
        case tool_kind::remove:
          ok = require_narrowing_filter();
          break;
      }
    }
    if (!ok) return ok.take_error();
    return std::move(call_);
  }

 private:
  value_scope scope() const { return {dom_, registry_, *call_.tbl}; }

  result<const table*> parse_table(const param_members& params) {
    const auto& value = params.table;
    if (!value || value->is_null())
      return error{codes::missing_param, "table", "table is required", fmt::format("one of: {}", dom_.table_list())};
    if (!value->is_string())
      return error{codes::invalid_param, "table", fmt::format("table must be a string, got {}", value->kind_name()),
                   fmt::format("one of: {}", dom_.table_list())};
    const table* tbl = dom_.find_table(value->str());
    if (!tbl)
      return error{codes::unknown_table, "table",
                   fmt::format("'{}' is not a table of the {} domain", detail::echoed(value->str()), dom_.name),
                   fmt::format("one of: {}", dom_.table_list())};
    if (kind_ != tool_kind::read && !tbl->writable)
      return error{codes::read_only_table, "table",
                   fmt::format("{} is a read-only catalog; {} is not allowed on it", tbl->name, tool_name(kind_)),
                   "read it with db_read and link its rows by ref"};
    return tbl;
  }

  // A column the model may filter, select or order by.
  result<const column*> visible_column(std::string_view name, const param_path& path, const table& tbl) {
    if (name == dom_.owner_column && tbl.user_owned)
      return error{codes::system_column, path.str(),
                   fmt::format("{} is applied automatically; it cannot be used", detail::echoed(name)),
                   "rows are always limited to the signed-in user"};
    if (is_postgrest_reserved(name))
      return error{codes::reserved_column, path.str(),
                   fmt::format("'{}' is a PostgREST keyword, not a column of {}", detail::echoed(name), tbl.name),
                   name == "or" || name == "and"
                       ? std::string("to OR conditions, put them in or_filters")
                       : fmt::format("columns of {}: {}", tbl.name, visible_columns(dom_, tbl))};
    const column* col = tbl.find_column(name);
    if (!col || is_hidden(tbl, name))
      return error{codes::unknown_column, path.str(),
                   fmt::format("{} has no column '{}'", tbl.name, detail::echoed(name)),
                   fmt::format("columns of {}: {}", tbl.name, visible_columns(dom_, tbl))};
    return col;
  }

  status parse_filters(const std::optional<json_value>& list, const char* key, std::vector<filter>& out) {
    if (!list || list->is_null()) return ok_status();
    if (!list->is_array())
      return error{codes::invalid_param, key,
                   fmt::format("{} must be an array of filter objects, got {}", key, list->kind_name()),
                   "[{\"field\": \"cuisine\", \"op\": \"=\", \"value\": \"indian\"}]"};
    const bool in_or = std::string_view(key) == "or_filters";
    std::optional<error> failure;
    const param_path list_path(key);
    list->for_each_element([&](std::size_t i, json_value clause) {
      if (failure) return;
      auto parsed = parse_filter(clause, list_path.element(i), in_or);
      if (!parsed)
        failure = parsed.take_error();
      else
        out.push_back(std::move(*parsed));
    });
    if (failure) return std::move(*failure);
    return ok_status();
  }

  result<filter> parse_filter(json_value clause, const param_path& path, bool in_or) {
    // Only error paths use it; a literal costs nothing on the success path.
    constexpr const char* example = "{\"field\": \"name\", \"op\": \"ilike\", \"value\": \"%chicken%\"}";
    if (!clause.is_object())
      return error{codes::invalid_filter, path.str(),
                   fmt::format("a filter must be an object, got {}", clause.kind_name()), example};
    const detail::object_fields members(clause, kFilterKeys);
    if (const auto& key = members.unknown())
      return error{codes::invalid_filter, path.member(*key).str(),
                   fmt::format("a filter has only field, op and value; got '{}'", detail::echoed(*key)), example};
    const auto field = members["field"];
    if (!field || !field->is_string())
      return error{codes::invalid_filter, path.member("field").str(), "field is required and must be a column name",
                   example};
    const auto op_value = members["op"];
    if (!op_value || !op_value->is_string())
      return error{codes::invalid_filter, path.member("op").str(), "op is required",
                   fmt::format("one of: {}", filter_op_list())};

    filter f;
    f.field = field->str();
    auto op = parse_filter_op(op_value->str());
    if (!op) {
      std::string hint = fmt::format("supported ops: {}", filter_op_list());
      if (looks_like_negation(op_value->str())) hint.append(". ").append(exclusion_hint(*call_.tbl));
      return error{codes::unknown_operator, path.member("op").str(),
                   fmt::format("'{}' is not a supported operator", detail::echoed(op_value->str())), hint};
    }
    f.op = *op;
    const auto value = members["value"];

    const filter_op_rule& rule = filter_op_rule_of(f.op);
    if (f.field == kSemanticField || rule.shape == value_shape::search_text) {
      auto ok = parse_semantic(f, value, path, in_or);
      if (!ok) return ok.take_error();
      f.field = kSemanticField;  // not a view into the params, which may not outlive the call
      return f;
    }

    auto col = visible_column(f.field, path.member("field"), *call_.tbl);
    if (!col) return col.take_error();
    f.col = *col;
    f.field = f.col->name;  // the domain's copy: the params text may not outlive the call
    auto ok = check_filter_value(f, value, path.member("value"));
    if (!ok) return ok.take_error();
    return f;
  }

  status parse_semantic(filter& f, std::optional<json_value> value, const param_path& path, bool in_or) {
    if (f.field != kSemanticField)
      return error{codes::invalid_filter, path.member("op").str(),
                   fmt::format("similar is semantic search; its field is '{}', not '{}'", kSemanticField,
                               detail::echoed(f.field)),
                   fmt::format("{{\"field\": \"{}\", \"op\": \"similar\", \"value\": \"light summer dinner\"}}",
                               kSemanticField)};
    if (filter_op_rule_of(f.op).shape != value_shape::search_text)
      return error{codes::invalid_filter, path.member("op").str(),
                   fmt::format("{} only works with op similar", kSemanticField), ""};
    if (in_or || kind_ != tool_kind::read)
      return error{codes::invalid_filter, path.str(), "semantic search is only available in db_read filters", ""};
    if (!value || !value->is_string() || lower_trimmed(value->str()).empty())
      return invalid_value(path.member("value").str(), "similar needs a non-empty search text");
    if (detail::contains_nul(value->str())) return detail::nul_error(path.member("value").str());
    if (!call_.semantic_query.empty())
      return error{codes::invalid_filter, path.str(), "only one semantic search per read", ""};
    call_.semantic_query = std::string(value->str());
    f.values.push_back({scalar::kind::text, call_.semantic_query});
    return ok_status();
  }

  status check_filter_value(filter& f, std::optional<json_value> value, const param_path& path) {
    const value_scope sc = scope();
    const column& col = *f.col;
    const bool has_value = value.has_value();
    const char* got = has_value ? value->kind_name() : "nothing";
    const filter_op_rule& rule = filter_op_rule_of(f.op);
    switch (rule.shape) {
      case value_shape::none:
        if (!has_value || value->is_null()) return ok_status();
        if (!value->is_bool())
          return invalid_value(path.str(),
                               fmt::format("{} takes no value (or true/false), got {}", filter_op_name(f.op), got),
                               "omit value");
        // {"op": "is_null", "value": false} means "is not null".
        if (!value->as_bool()) f.op = rule.opposite;
        return ok_status();
      case value_shape::scalar_or_null: {
        if (!has_value)
          return invalid_value(path.str(), "value is required", "to test for a missing value use op is_null");
        if (value->is_null()) {
          f.values.push_back({});
          return ok_status();
        }
        auto item = detail::check_filter_scalar(sc, col, *value, path);
        if (!item) return item.take_error();
        f.values.push_back(std::move(*item));
        return ok_status();
      }
      case value_shape::ordered_scalar: {
        if (!has_value || value->is_null())
          return invalid_value(path.str(), fmt::format("{} needs a value", filter_op_name(f.op)));
        if (col.type == column_type::uuid || col.type == column_type::boolean)
          return invalid_value(path.str(), fmt::format("{} cannot be compared with {}", col.name, filter_op_name(f.op)),
                               "use = or in");
        auto item = detail::check_filter_scalar(sc, col, *value, path);
        if (!item) return item.take_error();
        f.values.push_back(std::move(*item));
        return ok_status();
      }
      case value_shape::list: {
        if (!has_value || !value->is_array())
          return invalid_value(path.str(), fmt::format("{} needs a list of values, got {}", filter_op_name(f.op), got),
                               has_value && value->is_primitive() ? fmt::format("write \"value\": [{}]", value->raw())
                                                                  : std::string("write \"value\": [\"a\", \"b\"]"));
        std::optional<error> failure;
        value->for_each_element([&](std::size_t i, json_value element) {
          if (failure) return;
          if (element.is_null()) {
            f.values.push_back({});
            return;
          }
          auto item = detail::check_filter_scalar(sc, col, element, path.element(i));
          if (!item) {
            failure = item.take_error();
            return;
          }
          // Duplicates change nothing but the URL's length.
          for (const auto& seen : f.values)
            if (seen.type == item->type && seen.text == item->text) return;
          f.values.push_back(std::move(*item));
        });
        if (failure) return std::move(*failure);
        return ok_status();
      }
      case value_shape::pattern:
        if (col.type != column_type::text)
          return invalid_value(
              path.str(),
              fmt::format("{} is {}; pattern matching works on text columns", col.name, column_type_name(col.type)),
              rule.negation != op_negation::none ? exclusion_hint(*call_.tbl)
                                                 : std::string("use =, in or a comparison"));
        if (!has_value || !value->is_string())
          return invalid_value(
              path.str(), fmt::format("{} needs a text pattern such as \"%word%\", got {}", filter_op_name(f.op), got));
        if (detail::contains_nul(value->str())) return detail::nul_error(path.str());
        if (ends_with_lone_escape(value->str()))
          return invalid_value(path.str(), "the pattern ends with a single \\, which would escape nothing",
                               "write \\\\ for a literal backslash");
        f.values.push_back({scalar::kind::text, std::string(value->str())});
        return ok_status();
      case value_shape::elements_or_object:
      case value_shape::elements:
        return check_containment(f, value, path);
      case value_shape::search_text:
        break;
    }
    return invalid_value(path.str(), "unsupported operator");
  }

  // PostgreSQL refuses such a LIKE pattern only once it scans that far (22025),
  // so whether the request fails would depend on the rows.
  static bool ends_with_lone_escape(std::string_view pattern) {
    const auto last = pattern.find_last_not_of('\\');
    const std::size_t backslashes = pattern.size() - (last == std::string_view::npos ? 0 : last + 1);
    return backslashes % 2 == 1;
  }

  status check_containment(filter& f, std::optional<json_value> value, const param_path& path) {
    const column& col = *f.col;
    if (col.type == column_type::jsonb) {
      if (filter_op_rule_of(f.op).shape != value_shape::elements_or_object || !value || value->is_primitive())
        return invalid_value(
            path.str(), fmt::format("{} on {} needs a JSON object", filter_op_name(f.op), col.name),
            "{\"field\": \"" + col.name + "\", \"op\": \"contains\", \"value\": {\"key\": \"value\"}}");
      json_writer w(f.json_operand);
      w.value(*value);
      if (detail::contains_nul(f.json_operand) || f.json_operand.find("\\u0000") != std::string::npos)
        return detail::nul_error(path.str());
      return ok_status();
    }
    if (col.type != column_type::text_array && col.type != column_type::uuid_array)
      return invalid_value(
          path.str(),
          fmt::format("{} works on array and JSON columns; {} is {}", filter_op_name(f.op), col.name,
                      column_type_name(col.type)),
          "for text use ilike, e.g. {\"field\": \"" + col.name + "\", \"op\": \"ilike\", \"value\": \"%word%\"}");
    if (!value || value->is_null() || value->is_object())
      return invalid_value(path.str(), fmt::format("{} needs a list of values", filter_op_name(f.op)),
                           "write \"value\": [\"weeknight\"]");
    auto items = detail::check_array_elements(scope(), col, *value, path);
    if (!items) return items.take_error();
    f.values = std::move(*items);
    return ok_status();
  }

  status parse_read_options(const param_members& params) {
    auto ok = parse_filters(params.or_filters, "or_filters", call_.or_filters);
    if (!ok) return ok;
    ok = parse_columns(params.columns);
    if (!ok) return ok;
    auto limit = parse_count_param(params.limit, "limit", 1, dom_.max_rows);
    if (!limit) return limit.take_error();
    call_.limit = *limit;
    auto offset = parse_count_param(params.offset, "offset", 0, 100000000);
    if (!offset) return offset.take_error();
    call_.offset = *offset;

    if (const auto& order_by = params.order_by; order_by && !order_by->is_null()) {
      if (!order_by->is_string()) return error{codes::invalid_param, "order_by", "order_by must be a column name", ""};
      auto col = visible_column(order_by->str(), "order_by", *call_.tbl);
      if (!col) return col.take_error();
      call_.order_by = (*col)->name;
      if (const auto& dir = params.order_dir; dir && !dir->is_null()) {
        const std::string text = dir->is_string() ? lower_trimmed(dir->str()) : "";
        if (text != "asc" && text != "desc")
          return error{codes::invalid_param, "order_dir", "order_dir must be \"asc\" or \"desc\"", ""};
        call_.descending = text == "desc";
      }
    }
    if (const auto& count = params.count; count && !count->is_null()) {
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
        std::all_of(value->str().begin(), value->str().end(), [](char c) { return c >= '0' && c <= '9'; }))
      n = std::stoll(std::string(value->str()));
    if (!n)
      return error{codes::invalid_param, key, fmt::format("{} must be a whole number, got {}", key, value->kind_name()),
                   ""};
    if (*n < min || *n > max)
      return error{codes::invalid_param, key, fmt::format("{} must be between {} and {}, got {}", key, min, max, *n),
                   std::string_view(key) == "limit"
                       ? fmt::format("the server returns at most {} rows per read; page with offset", max)
                       : std::string()};
    return std::optional<long>(long(*n));
  }

  status parse_columns(const std::optional<json_value>& value) {
    if (!value || value->is_null()) return ok_status();
    std::vector<std::string> items;
    if (value->is_string()) {
      auto parts = split_select(value->str());
      if (!parts) return parts.take_error();
      items = std::move(*parts);
    } else if (value->is_array()) {
      std::optional<error> failure;
      value->for_each_element([&](std::size_t i, json_value item) {
        if (!item.is_string() && !failure)
          failure = error{codes::invalid_param, fmt::format("columns[{}]", i), "columns must be strings", ""};
        items.emplace_back(item.str());
      });
      if (failure) return std::move(*failure);
    } else {
      return error{codes::invalid_param, "columns", "columns must be an array of column names",
                   "[\"name\", \"cuisine\"]"};
    }
    const param_path columns_path("columns");
    for (std::size_t i = 0; i < items.size(); ++i) {
      auto item = parse_select_item(items[i], columns_path.element(i));
      if (!item) return item.take_error();
      if (!item->empty() && std::find(call_.columns.begin(), call_.columns.end(), *item) == call_.columns.end())
        call_.columns.push_back(std::move(*item));
    }
    return ok_status();
  }

  // `["name", "relation(name)"]` for this call's table: what columns may look like.
  std::string columns_example() const {
    const table& tbl = *call_.tbl;
    auto first_visible = [&](const table& of) -> std::string {
      if (!of.label_columns.empty()) return of.label_columns.front();
      for (const auto& col : of.columns)
        if (col.name != "id" && col.name != dom_.owner_column && !is_hidden(of, col.name)) return col.name;
      return "id";
    };
    if (tbl.relations.empty()) return fmt::format("[\"{}\"]", first_visible(tbl));
    const table* target = dom_.find_table(tbl.relations.front().table);
    return fmt::format("[\"{}\", \"{}({})\"]", first_visible(tbl), tbl.relations.front().name,
                       target ? first_visible(*target) : std::string("id"));
  }

  // Splits "a, b, rel(c, d)" at top-level commas.
  result<std::vector<std::string>> split_select(std::string_view text) const {
    std::vector<std::string> out;
    int depth = 0;
    std::string current;
    for (char c : text) {
      if (c == '(') ++depth;
      if (c == ')') --depth;
      if (depth < 0) break;
      if (c == ',' && depth == 0) {
        out.push_back(current);
        current.clear();
      } else {
        current += c;
      }
    }
    if (depth != 0)
      return error{codes::invalid_param, "columns", "unbalanced parentheses in columns", columns_example()};
    out.push_back(current);
    return out;
  }

  static std::string trim(std::string_view text) {
    auto begin = text.find_first_not_of(" \t\n");
    if (begin == std::string_view::npos) return {};
    auto end = text.find_last_not_of(" \t\n");
    return std::string(text.substr(begin, end - begin + 1));
  }

  // "name", "*", or "relation(col, col)" → validated select text ("" to skip).
  result<std::string> parse_select_item(const std::string& raw, const param_path& path) {
    const std::string item = trim(raw);
    if (item.empty()) return std::string();
    if (item == "*") return item;
    const auto open = item.find('(');
    if (open == std::string::npos) {
      auto col = visible_column(item, path, *call_.tbl);
      if (!col) return col.take_error();
      return item;
    }
    if (item.back() != ')')
      return error{codes::invalid_param, path.str(),
                   fmt::format("'{}' is not a column or relation(columns)", detail::echoed(item)), ""};
    const std::string rel_name = trim(item.substr(0, open));
    const table* target = embedded_table(rel_name);
    if (!target)
      return error{codes::unknown_relation, path.str(),
                   fmt::format("{} cannot embed '{}'", call_.tbl->name, detail::echoed(rel_name)), embeddable_hint()};
    auto inner = split_select(std::string_view(item).substr(open + 1, item.size() - open - 2));
    if (!inner) return error{codes::invalid_param, path.str(), inner.err().message, inner.err().hint};
    std::vector<std::string> cols;
    bool star = false;
    for (const auto& raw_inner : *inner) {
      const std::string name = trim(raw_inner);
      if (name.empty()) continue;
      if (name == "*") {
        star = true;
        continue;
      }
      auto col = visible_column(name, path, *target);
      if (!col) return col.take_error();
      if (std::find(cols.begin(), cols.end(), name) == cols.end()) cols.push_back(name);
    }
    // Nested rows need their id to get refs.
    if (!star && std::find(cols.begin(), cols.end(), "id") == cols.end()) cols.insert(cols.begin(), "id");
    if (star) cols.insert(cols.begin(), "*");
    return fmt::format("{}({})", rel_name, fmt::join(cols, ","));
  }

  static bool is_hidden(const table& tbl, std::string_view name) {
    return std::find(tbl.hidden_columns.begin(), tbl.hidden_columns.end(), name) != tbl.hidden_columns.end();
  }

  // A declared one-to-many relation, or the target table of a foreign key.
  const table* embedded_table(std::string_view name) const {
    if (const relation* rel = call_.tbl->find_relation(name)) return dom_.find_table(rel->table);
    for (const auto& col : call_.tbl->columns)
      if (is_embeddable_fk(col) && col.references == name) return dom_.find_table(col.references);
    return nullptr;
  }

  // A self reference (recipes.parent_recipe_id) is not embeddable by table
  // name: PostgREST cannot tell which direction is meant (PGRST201).
  bool is_embeddable_fk(const column& col) const {
    return col.type == column_type::uuid && !col.references.empty() && col.references != call_.tbl->name;
  }

  std::string embeddable_hint() const {
    std::vector<std::string> names;
    for (const auto& rel : call_.tbl->relations) names.push_back(rel.name);
    for (const auto& col : call_.tbl->columns)
      if (is_embeddable_fk(col) && std::find(names.begin(), names.end(), col.references) == names.end())
        names.push_back(col.references);
    if (names.empty()) return fmt::format("{} has no related tables to embed", call_.tbl->name);
    return fmt::format("embeddable: {}", fmt::join(names, ", "));
  }

  // One create/update object: checks keys and values, returns the sanitized
  // row and (for creates) the pending gen_ ref it saves.
  result<row> parse_row(json_value data, const param_path& path, std::string* saves) {
    if (!data.is_object())
      return error{codes::invalid_data, path.str(), fmt::format("a row must be an object, got {}", data.kind_name()),
                   "{\"name\": \"milk\", \"quantity\": 1, \"unit\": \"l\"}"};
    const table& tbl = *call_.tbl;
    row out;
    std::optional<error> failure;
    data.for_each_member([&](std::string_view key, json_value value) {
      if (failure) return;
      const param_path key_path = path.member(key);
      for (const auto& field : out)
        if (field.column == key) {
          failure =
              error{codes::invalid_data, key_path.str(), fmt::format("{} is given twice", detail::echoed(key)), ""};
          return;
        }
      if (key == "id" && kind_ == tool_kind::create && saves) {
        auto saved = parse_save_marker(value, key_path);
        if (!saved)
          failure = saved.take_error();
        else
          *saves = std::move(*saved);
        return;
      }
      auto col = writable_column(key, key_path);
      if (!col) {
        failure = col.take_error();
        return;
      }
      auto checked = detail::check_payload_value(scope(), **col, value, key_path);
      if (!checked)
        failure = checked.take_error();
      else
        out.push_back({(*col)->name, std::move(*checked)});
    });
    if (failure) return std::move(*failure);
    if (kind_ == tool_kind::create) {
      for (const auto& col : tbl.columns) {
        if (!col.required || !col.writable) continue;
        const bool given =
            std::any_of(out.begin(), out.end(), [&](const row_field& f) { return f.column == col.name; });
        if (!given)
          return error{codes::missing_column, path.str(),
                       fmt::format("{} is required to create a row in {}", col.name, tbl.name),
                       fmt::format("add \"{}\" to the row", col.name)};
      }
    }
    return out;
  }

  result<const column*> writable_column(std::string_view key, const param_path& key_path) {
    const table& tbl = *call_.tbl;
    if (key == dom_.owner_column && tbl.user_owned)
      return error{codes::system_column, key_path.str(),
                   fmt::format("{} is set from the signed-in user; leave it out", key), ""};
    if (key == "id")
      return error{codes::system_column, key_path.str(),
                   kind_ == tool_kind::update ? "id cannot be changed; choose the rows with filters"
                                              : "id is assigned by the database; leave it out",
                   ""};
    const column* col = tbl.find_column(key);
    if (!col || is_hidden(tbl, key)) {
      if (is_postgrest_reserved(key))
        return error{codes::reserved_column, key_path.str(),
                     fmt::format("'{}' is a PostgREST keyword, not a column", detail::echoed(key)),
                     fmt::format("columns of {}: {}", tbl.name, visible_columns(dom_, tbl))};
      return error{codes::unknown_column, key_path.str(),
                   fmt::format("{} has no column '{}'", tbl.name, detail::echoed(key)),
                   fmt::format("columns of {}: {}", tbl.name, visible_columns(dom_, tbl))};
    }
    if (!col->writable)
      return error{codes::read_only_column, key_path.str(), fmt::format("{} is maintained by the database", key), ""};
    return col;
  }

  // `id: "gen_recipe_1"` in a create row says which generated artifact it saves.
  result<std::string> parse_save_marker(json_value value, const param_path& path) {
    const std::string explain = "id is assigned by the database; only a gen_ ref may be given, to save that artifact";
    if (!value.is_string()) return error{codes::system_column, path.str(), explain, ""};
    const std::string text(value.str());
    auto name = parse_ref_name(text);
    const ref_entry* entry = registry_.find(text);
    if (!name || !name->generated) return error{codes::system_column, path.str(), explain, ""};
    if (!entry) {
      std::string pending;
      for (const ref_entry* candidate : registry_.refs_of_type(call_.tbl->ref_prefix))
        if (candidate->pending()) pending += (pending.empty() ? "" : ", ") + candidate->ref;
      return error{
          codes::unknown_ref, path.str(), fmt::format("{} is not a pending generated artifact", detail::echoed(text)),
          pending.empty()
              ? fmt::format("no generated {} is waiting to be saved; leave id out to create a new row", call_.tbl->name)
              : fmt::format("pending: {}", pending)};
    }
    if (entry->type != call_.tbl->ref_prefix)
      return error{
          codes::ref_type_mismatch, path.str(),
          fmt::format("{} is generated {} content, not a row for {}", entry->ref, entry->table, call_.tbl->name),
          fmt::format("save it with db_create on {}", entry->table)};
    if (!entry->pending())
      return error{codes::already_saved, path.str(),
                   fmt::format("{} was already saved as {}", entry->ref, entry->saved_as),
                   fmt::format("to change it, db_update {} with id = {}", call_.tbl->name, entry->saved_as)};
    return entry->ref;
  }

  status parse_create_data(const param_members& params) {
    const auto& data = params.data;
    if (!data || data->is_null())
      return error{codes::missing_param, "data", "data is required", "an object, or an array of objects for a batch"};
    call_.batch = data->is_array();
    if (call_.batch && data->empty())
      return error{codes::invalid_data, "data", "data is an empty array; nothing to create", ""};
    if (call_.batch && data->size() > static_cast<std::size_t>(dom_.max_rows))
      return error{codes::invalid_data, "data", fmt::format("at most {} rows per create", dom_.max_rows),
                   "split the batch"};
    std::optional<error> failure;
    auto add_row = [&](json_value item, const param_path& path) {
      if (failure) return;
      std::string saves;
      auto parsed = parse_row(item, path, &saves);
      if (!parsed) {
        failure = parsed.take_error();
        return;
      }
      if (!saves.empty() && std::find(call_.saves.begin(), call_.saves.end(), saves) != call_.saves.end()) {
        failure = error{codes::already_saved, path.member("id").str(),
                        fmt::format("{} is saved twice in this batch", saves), ""};
        return;
      }
      call_.rows.push_back(std::move(*parsed));
      call_.saves.push_back(std::move(saves));
    };
    if (call_.batch)
      data->for_each_element([&](std::size_t i, json_value item) { add_row(item, param_path("data").element(i)); });
    else
      add_row(*data, "data");
    if (failure) return std::move(*failure);
    return ok_status();
  }

  status parse_update_data(const param_members& params) {
    const auto& data = params.data;
    if (!data || data->is_null()) return error{codes::missing_param, "data", "data is required", "{\"quantity\": 2}"};
    if (!data->is_object())
      return error{codes::invalid_data, "data",
                   fmt::format("db_update data must be one object, got {}", data->kind_name()),
                   "the same change applies to every matching row"};
    auto parsed = parse_row(*data, "data", nullptr);
    if (!parsed) return parsed.take_error();
    if (parsed->empty())
      return error{codes::invalid_data, "data", "data has no columns to change", "{\"quantity\": 2}"};
    call_.rows.push_back(std::move(*parsed));
    return ok_status();
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
    if (std::any_of(call_.filters.begin(), call_.filters.end(), narrows)) return ok_status();
    return error{
        codes::missing_filter, "filters",
        fmt::format("{} needs a filter that selects rows; changing every row of {} is refused", tool_name(kind_),
                    call_.tbl->name),
        fmt::format("e.g. \"filters\": [{{\"field\": \"id\", \"op\": \"in\", \"value\": [\"{}_1\", \"{}_2\"]}}]",
                    call_.tbl->ref_prefix, call_.tbl->ref_prefix)};
  }

  const domain& dom_;
  const ref_registry& registry_;
  tool_kind kind_;
  tool_call call_;
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

result<tool_call> parse_tool_call(const domain& dom, const ref_registry& registry, std::string_view tool,
                                  json_value params) {
  auto kind = parse_tool_name(tool);
  if (!kind)
    return error{codes::unknown_tool, "tool", fmt::format("'{}' is not a tool", detail::echoed(tool)),
                 "one of: db_read, db_create, db_update, db_delete"};
  return call_parser(dom, registry, *kind).parse(params);
}

result<tool_call> parse_tool_call(const domain& dom, const ref_registry& registry, std::string_view tool,
                                  std::string_view params_json) {
  auto doc = json_document::parse(params_json);
  if (!doc) return error{codes::invalid_json, "params", doc.err().message, "params must be a JSON object"};
  return parse_tool_call(dom, registry, tool, doc->root());
}

}  // namespace alfred
