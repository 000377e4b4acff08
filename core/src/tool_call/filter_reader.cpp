// The filters stage of reading a tool call (call_stage.h): each clause's
// field, op and value checked against the table and the op table
// (filter_ops.h), refs resolved, semantic search recognised.
#include <algorithm>

#include "../json/echo.h"
#include "../json/format.h"
#include "../json/json_fields.h"
#include "alfred/tool_call/filter_ops.h"
#include "alfred/tool_call/like_pattern.h"
#include "call_stage.h"

namespace alfred::detail {
namespace {

// A filter object's members (mode and language: a text search's).
constexpr std::array<std::string_view, 5> kFilterKeys{"field", "op", "value", "mode", "language"};

// A text search configuration's name as PostgREST takes it in `wfts(name)`:
// an identifier, optionally schema-qualified (pg_catalog.english).
bool is_search_language(std::string_view name) {
  if (name.empty() || name.size() > 127) return false;
  bool start = true;
  for (char c : name) {
    const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    if (c == '.' && !start) {
      start = true;
      continue;
    }
    if (!letter && (start || c < '0' || c > '9')) return false;
    start = false;
  }
  return !start;
}

// PostgreSQL refuses such a LIKE pattern only once it scans that far (22025),
// so whether the request fails would depend on the rows.
bool ends_with_lone_escape(std::string_view pattern) {
  const auto last = pattern.find_last_not_of('\\');
  const std::size_t backslashes = pattern.size() - (last == std::string_view::npos ? 0 : last + 1);
  return backslashes % 2 == 1;
}

}  // namespace

status filter_reader::read(const std::optional<json_value>& list, const char* key, std::vector<filter>& out) {
  if (!list || list->is_null()) return ok_status();
  if (!list->is_array())
    return error{codes::invalid_param, key,
                 textfmt::format("{} must be an array of filter objects, got {}", key, list->kind_name()),
                 "[{\"field\": \"<column>\", \"op\": \"=\", \"value\": \"<value>\"}]"};
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

result<filter> filter_reader::parse_filter(json_value clause, const param_path& path, bool in_or) {
  // Only error paths use it; a literal costs nothing on the success path.
  constexpr const char* example = "{\"field\": \"<column>\", \"op\": \"=\", \"value\": \"<value>\"}";
  if (!clause.is_object())
    return error{codes::invalid_filter, path.str(),
                 textfmt::format("a filter must be an object, got {}", clause.kind_name()), example};
  const detail::object_fields members(clause, kFilterKeys);
  if (const auto& key = members.unknown())
    return error{codes::invalid_filter, path.member(*key).str(),
                 textfmt::format("a filter has only field, op and value (and mode and language for search); got '{}'",
                                 detail::echoed(*key)),
                 example};
  const auto field = members["field"];
  if (!field || !field->is_string())
    return error{codes::invalid_filter, path.member("field").str(), "field is required and must be a column name",
                 example};
  const auto op_value = members["op"];
  if (!op_value || !op_value->is_string())
    return error{codes::invalid_filter, path.member("op").str(), "op is required",
                 textfmt::format("one of: {}", filter_op_list())};

  filter f;
  f.field = field->str();
  auto op = parse_filter_op(op_value->str());
  if (!op) {
    std::string hint = textfmt::format("supported ops: {}", filter_op_list());
    if (looks_like_negation(op_value->str())) hint.append(". ").append(exclusion_hint(*call_.tbl));
    return error{codes::unknown_operator, path.member("op").str(),
                 textfmt::format("'{}' is not a supported operator", detail::echoed(op_value->str())), hint};
  }
  f.op = *op;
  const auto value = members["value"];

  const filter_op_rule& rule = filter_op_rule_of(f.op);
  if (rule.shape == value_shape::text_search) {
    if (auto ok = parse_search(f, members, path); !ok) return ok.take_error();
    return f;
  }
  for (const char* option : {"mode", "language"})
    if (const auto given = members[option]; given && !given->is_null())
      return error{codes::invalid_filter, path.member(option).str(),
                   textfmt::format("{} belongs to a text search (op search or not_search), not to {}", option,
                                   filter_op_name(f.op)),
                   "leave it out"};
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

status filter_reader::parse_semantic(filter& f, std::optional<json_value> value, const param_path& path, bool in_or) {
  if (in_or || kind_ != tool_kind::read)
    return error{codes::invalid_filter, path.str(), "semantic search is only available in db_read filters", ""};
  // Before the field: a table without it would refuse the corrected filter again.
  if (!call_.tbl->middleware.semantic)
    return error{codes::unsupported_filter, path.str(), textfmt::format("{} has no semantic search", call_.tbl->name),
                 "filter with ilike on a text column instead"};
  if (f.field != kSemanticField)
    return error{
        codes::invalid_filter, path.member("op").str(),
        textfmt::format("similar is semantic search; its field is '{}', not '{}'", kSemanticField,
                        detail::echoed(f.field)),
        textfmt::format("{{\"field\": \"{}\", \"op\": \"similar\", \"value\": \"<what to find>\"}}", kSemanticField)};
  if (filter_op_rule_of(f.op).shape != value_shape::search_text)
    return error{codes::invalid_filter, path.member("op").str(),
                 textfmt::format("{} only works with op similar", kSemanticField), ""};
  if (!value || !value->is_string() || lower_trimmed(value->str()).empty())
    return invalid_value(path.member("value").str(), "similar needs a non-empty search text");
  if (detail::contains_nul(value->str())) return detail::nul_error(path.member("value").str());
  if (!call_.semantic_query.empty())
    return error{codes::invalid_filter, path.str(), "only one semantic search per read", ""};
  call_.semantic_query = std::string(value->str());
  f.values.push_back({scalar::kind::text, call_.semantic_query});
  return ok_status();
}

// search / not_search: words in a tsvector column (hidden from reads) or a
// text column, with the mode's operator and an optional configuration.
status filter_reader::parse_search(filter& f, const detail::object_fields& members, const param_path& path) {
  const table& tbl = *call_.tbl;
  const column* col = tbl.find_column(f.field);
  if (!col || tbl.hides_owner(f.field) || (tbl.hides_column(f.field) && col->type != column_type::tsvector)) {
    auto visible = visible_column(f.field, path.member("field"), tbl);
    if (!visible) return visible.take_error();
    col = *visible;
  }
  f.col = col;
  f.field = col->name;
  if (col->type != column_type::text && col->type != column_type::tsvector)
    return invalid_value(path.member("field").str(),
                         textfmt::format("{} is {}; text search works on text and tsvector columns", col->name,
                                         column_type_name(col->type)),
                         "use =, in or a comparison");
  const auto value = members["value"];
  if (!value || !value->is_string() || lower_trimmed(value->str()).empty())
    return invalid_value(path.member("value").str(),
                         textfmt::format("{} needs the words to find, e.g. \"lisbon contract\"", filter_op_name(f.op)));
  if (auto ok = detail::check_sent_text(value->str(), path.member("value")); !ok) return ok;
  f.values.push_back({scalar::kind::text, std::string(value->str())});
  f.search_operator = search_modes().front().postgrest;
  if (const auto mode = members["mode"]; mode && !mode->is_null()) {
    const search_mode* found = mode->is_string() ? find_search_mode(mode->str()) : nullptr;
    if (!found)
      return error{codes::invalid_filter, path.member("mode").str(),
                   textfmt::format("mode must be one of {}", search_mode_list()),
                   "websearch (the default) takes any text: words, \"a phrase\", or, -word"};
    f.search_operator = found->postgrest;
  }
  if (const auto language = members["language"]; language && !language->is_null()) {
    if (!language->is_string() || !is_search_language(language->str()))
      return error{codes::invalid_filter, path.member("language").str(),
                   "language must name a text search configuration, such as english or simple", ""};
    f.language = std::string(language->str());
  }
  return ok_status();
}

status filter_reader::check_filter_value(filter& f, std::optional<json_value> value, const param_path& path) {
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
                             textfmt::format("{} takes no value (or true/false), got {}", filter_op_name(f.op), got),
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
        return invalid_value(path.str(), textfmt::format("{} needs a value", filter_op_name(f.op)));
      if (col.type == column_type::uuid || col.type == column_type::boolean)
        return invalid_value(path.str(),
                             textfmt::format("{} cannot be compared with {}", col.name, filter_op_name(f.op)),
                             "use = or in");
      auto item = detail::check_filter_scalar(sc, col, *value, path);
      if (!item) return item.take_error();
      f.values.push_back(std::move(*item));
      return ok_status();
    }
    case value_shape::list:
      return check_list(f, value, path);
    case value_shape::pattern:
      return check_pattern(f, value, path);
    case value_shape::elements_or_object:
    case value_shape::elements:
      return check_containment(f, value, path);
    case value_shape::search_text:
    case value_shape::text_search:
      break;
  }
  return invalid_value(path.str(), "unsupported operator");
}

// `in`/`not_in`: a list of scalars, null allowed, duplicates dropped.
status filter_reader::check_list(filter& f, std::optional<json_value> value, const param_path& path) {
  const value_scope sc = scope();
  const column& col = *f.col;
  const bool has_value = value.has_value();
  const char* got = has_value ? value->kind_name() : "nothing";
  if (!has_value || !value->is_array())
    return invalid_value(path.str(), textfmt::format("{} needs a list of values, got {}", filter_op_name(f.op), got),
                         has_value && value->is_primitive() ? textfmt::format("write \"value\": [{}]", value->raw())
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

// like/ilike and their negations: a text pattern on a text column.
status filter_reader::check_pattern(filter& f, std::optional<json_value> value, const param_path& path) {
  const column& col = *f.col;
  const bool has_value = value.has_value();
  const char* got = has_value ? value->kind_name() : "nothing";
  const filter_op_rule& rule = filter_op_rule_of(f.op);
  if (col.type != column_type::text)
    return invalid_value(
        path.str(),
        textfmt::format("{} is {}; pattern matching works on text columns", col.name, column_type_name(col.type)),
        rule.negation != op_negation::none ? exclusion_hint(*call_.tbl) : std::string("use =, in or a comparison"));
  if (!has_value || !value->is_string())
    return invalid_value(
        path.str(), textfmt::format("{} needs a text pattern such as \"%word%\", got {}", filter_op_name(f.op), got));
  if (auto ok = detail::check_sent_text(value->str(), path); !ok) return ok;
  if (ends_with_lone_escape(value->str()))
    return invalid_value(path.str(), "the pattern ends with a single \\, which would escape nothing",
                         "write \\\\ for a literal backslash");
  f.values.push_back({scalar::kind::text, std::string(value->str())});
  return ok_status();
}

status filter_reader::check_containment(filter& f, std::optional<json_value> value, const param_path& path) {
  const column& col = *f.col;
  if (col.type == column_type::jsonb) {
    if (filter_op_rule_of(f.op).shape != value_shape::elements_or_object || !value || value->is_primitive())
      return invalid_value(path.str(), textfmt::format("{} on {} needs a JSON object", filter_op_name(f.op), col.name),
                           "{\"field\": \"" + col.name + "\", \"op\": \"contains\", \"value\": {\"key\": \"value\"}}");
    json_writer w(f.json_operand);
    return write_json_with_keys(w, scope(), *value, path, false);
  }
  if (col.type != column_type::text_array && col.type != column_type::uuid_array)
    return invalid_value(
        path.str(),
        textfmt::format("{} works on array and JSON columns; {} is {}", filter_op_name(f.op), col.name,
                        column_type_name(col.type)),
        "for text use ilike, e.g. {\"field\": \"" + col.name + "\", \"op\": \"ilike\", \"value\": \"%word%\"}");
  if (!value || value->is_null() || value->is_object())
    return invalid_value(path.str(), textfmt::format("{} needs a list of values", filter_op_name(f.op)),
                         "write the values as a list, e.g. \"value\": [\"first\", \"second\"]");
  auto items = detail::check_array_elements(scope(), col, *value, path);
  if (!items) return items.take_error();
  f.values = std::move(*items);
  return ok_status();
}

}  // namespace alfred::detail
