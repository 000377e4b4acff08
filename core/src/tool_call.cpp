#include "alfred/tool_call.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>

#include "values.h"

namespace alfred {
namespace {

using detail::invalid_value;
using detail::value_scope;

struct op_spelling {
  std::string_view text;
  filter_op op;
};

// Canonical names first; the rest are spellings models commonly use.
constexpr std::array<op_spelling, 30> kOps{{
    {"=", filter_op::eq},
    {"!=", filter_op::neq},
    {">", filter_op::gt},
    {">=", filter_op::gte},
    {"<", filter_op::lt},
    {"<=", filter_op::lte},
    {"in", filter_op::in},
    {"not_in", filter_op::not_in},
    {"like", filter_op::like},
    {"ilike", filter_op::ilike},
    {"not_like", filter_op::not_like},
    {"not_ilike", filter_op::not_ilike},
    {"is_null", filter_op::is_null},
    {"is_not_null", filter_op::is_not_null},
    {"contains", filter_op::contains},
    {"contained_by", filter_op::contained_by},
    {"overlaps", filter_op::overlaps},
    {"similar", filter_op::similar},
    {"==", filter_op::eq},
    {"eq", filter_op::eq},
    {"neq", filter_op::neq},
    {"<>", filter_op::neq},
    {"gt", filter_op::gt},
    {"gte", filter_op::gte},
    {"lt", filter_op::lt},
    {"lte", filter_op::lte},
    {"nin", filter_op::not_in},
    {"not in", filter_op::not_in},
    {"not like", filter_op::not_like},
    {"not ilike", filter_op::not_ilike},
}};
constexpr std::size_t kCanonicalOps = 18;

constexpr std::array<std::string_view, 4> kToolNames{"db_read", "db_create", "db_update",
                                                     "db_delete"};

std::string lower_trimmed(std::string_view text) {
  auto begin = text.find_first_not_of(" \t");
  if (begin == std::string_view::npos) return {};
  auto end = text.find_last_not_of(" \t");
  std::string out(text.substr(begin, end - begin + 1));
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  return out;
}

std::optional<filter_op> parse_op(std::string_view text) {
  const std::string wanted = lower_trimmed(text);
  for (const auto& spelling : kOps)
    if (spelling.text == wanted) return spelling.op;
  return std::nullopt;
}

bool looks_like_negation(std::string_view op) {
  const std::string text = lower_trimmed(op);
  return text.rfind("not", 0) == 0 || text.rfind("!", 0) == 0 || text.find("exclud") != std::string::npos ||
         text.find("without") != std::string::npos;
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
    case tool_kind::create: return "table, data";
    case tool_kind::update: return "table, filters, data";
    case tool_kind::remove: return "table, filters";
  }
  return {};
}

bool key_allowed(tool_kind kind, std::string_view key) {
  const std::string keys = allowed_keys(kind);
  std::size_t start = 0;
  while (start < keys.size()) {
    std::size_t end = keys.find(", ", start);
    if (end == std::string::npos) end = keys.size();
    if (std::string_view(keys).substr(start, end - start) == key) return true;
    start = end + 2;
  }
  return false;
}

class call_parser {
 public:
  call_parser(const domain& dom, const ref_registry& registry, tool_kind kind)
      : dom_(dom), registry_(registry), kind_(kind) {}

  result<tool_call> parse(const json& params) {
    if (!params.is_object())
      return error{"invalid_params", "", fmt::format("params must be an object, got {}", json_kind(params)),
                   fmt::format("{} takes: {}", tool_name(kind_), allowed_keys(kind_))};
    for (const auto& [key, value] : params.items()) {
      if (!key_allowed(kind_, key))
        return error{"unknown_param", key,
                     fmt::format("{} does not take '{}'", tool_name(kind_), key),
                     fmt::format("allowed: {}", allowed_keys(kind_))};
    }
    auto tbl = parse_table(params);
    if (!tbl) return tbl.take_error();
    call_.kind = kind_;
    call_.tbl = *tbl;

    if (kind_ != tool_kind::create) {
      auto ok = parse_filters(params, "filters", call_.filters);
      if (!ok) return ok.take_error();
    }
    switch (kind_) {
      case tool_kind::read: {
        auto ok = parse_read_options(params);
        if (!ok) return ok.take_error();
        break;
      }
      case tool_kind::create: {
        auto ok = parse_create_data(params);
        if (!ok) return ok.take_error();
        break;
      }
      case tool_kind::update: {
        auto ok = parse_update_data(params);
        if (!ok) return ok.take_error();
        ok = require_narrowing_filter();
        if (!ok) return ok.take_error();
        break;
      }
      case tool_kind::remove: {
        auto ok = require_narrowing_filter();
        if (!ok) return ok.take_error();
        break;
      }
    }
    return std::move(call_);
  }

 private:
  value_scope scope() const { return {dom_, registry_, *call_.tbl}; }

  result<const table*> parse_table(const json& params) {
    auto it = params.find("table");
    if (it == params.end() || it->is_null())
      return error{"missing_param", "table", "table is required",
                   fmt::format("one of: {}", dom_.table_list())};
    if (!it->is_string())
      return error{"invalid_param", "table", fmt::format("table must be a string, got {}", json_kind(*it)),
                   fmt::format("one of: {}", dom_.table_list())};
    const table* tbl = dom_.find_table(it->get<std::string>());
    if (!tbl)
      return error{"unknown_table", "table",
                   fmt::format("'{}' is not a table of the {} domain", it->get<std::string>(), dom_.name),
                   fmt::format("one of: {}", dom_.table_list())};
    if (kind_ != tool_kind::read && !tbl->writable)
      return error{"read_only_table", "table",
                   fmt::format("{} is a read-only catalog; {} is not allowed on it", tbl->name,
                               tool_name(kind_)),
                   "read it with db_read and link its rows by ref"};
    return tbl;
  }

  // A column the model may filter, select or order by.
  result<const column*> visible_column(std::string_view name, const std::string& path,
                                       const table& tbl) {
    if (name == dom_.owner_column && tbl.user_owned)
      return error{"system_column", path,
                   fmt::format("{} is applied automatically; it cannot be used", name),
                   "rows are always limited to the signed-in user"};
    if (is_postgrest_reserved(name))
      return error{"reserved_column", path,
                   fmt::format("'{}' is a PostgREST keyword, not a column of {}", name, tbl.name),
                   name == "or" || name == "and"
                       ? std::string("to OR conditions, put them in or_filters")
                       : fmt::format("columns of {}: {}", tbl.name, visible_columns(dom_, tbl))};
    const column* col = tbl.find_column(name);
    if (!col)
      return error{"unknown_column", path,
                   fmt::format("{} has no column '{}'", tbl.name, name),
                   fmt::format("columns of {}: {}", tbl.name, visible_columns(dom_, tbl))};
    return col;
  }

  status parse_filters(const json& params, const char* key, std::vector<filter>& out) {
    auto it = params.find(key);
    if (it == params.end() || it->is_null()) return ok_status();
    if (!it->is_array())
      return error{"invalid_param", key,
                   fmt::format("{} must be an array of filter objects, got {}", key, json_kind(*it)),
                   "[{\"field\": \"cuisine\", \"op\": \"=\", \"value\": \"indian\"}]"};
    for (std::size_t i = 0; i < it->size(); ++i) {
      auto parsed = parse_filter((*it)[i], fmt::format("{}[{}]", key, i), std::string_view(key) == "or_filters");
      if (!parsed) return parsed.take_error();
      out.push_back(std::move(*parsed));
    }
    return ok_status();
  }

  result<filter> parse_filter(const json& clause, const std::string& path, bool in_or) {
    const std::string example = "{\"field\": \"name\", \"op\": \"ilike\", \"value\": \"%chicken%\"}";
    if (!clause.is_object())
      return error{"invalid_filter", path, fmt::format("a filter must be an object, got {}", json_kind(clause)),
                   example};
    for (const auto& [key, value] : clause.items())
      if (key != "field" && key != "op" && key != "value")
        return error{"invalid_filter", path + "." + key,
                     fmt::format("a filter has only field, op and value; got '{}'", key), example};
    auto field_it = clause.find("field");
    if (field_it == clause.end() || !field_it->is_string())
      return error{"invalid_filter", path + ".field", "field is required and must be a column name", example};
    auto op_it = clause.find("op");
    if (op_it == clause.end() || !op_it->is_string())
      return error{"invalid_filter", path + ".op", "op is required",
                   fmt::format("one of: {}", filter_op_list())};

    filter f;
    f.path = path;
    f.field = field_it->get<std::string>();
    auto op = parse_op(op_it->get<std::string>());
    if (!op) {
      std::string hint = fmt::format("supported ops: {}", filter_op_list());
      if (looks_like_negation(op_it->get<std::string>()))
        hint += ". To exclude rows: use not_in with the refs to drop, e.g. {\"field\": \"id\", "
                "\"op\": \"not_in\", \"value\": [\"recipe_5\", \"recipe_6\"]}; or in with the "
                "refs to keep; or not_ilike for a text pattern; or read everything and filter "
                "in an analyze step";
      return error{"unknown_operator", path + ".op",
                   fmt::format("'{}' is not a supported operator", op_it->get<std::string>()), hint};
    }
    f.op = *op;
    auto value_it = clause.find("value");
    const bool has_value = value_it != clause.end();
    f.requested = has_value ? *value_it : json();

    if (f.field == kSemanticField || f.op == filter_op::similar) {
      if (f.field != kSemanticField)
        return error{"invalid_filter", path + ".op",
                     fmt::format("similar is semantic search; its field is '{}', not '{}'", kSemanticField, f.field),
                     fmt::format("{{\"field\": \"{}\", \"op\": \"similar\", \"value\": \"light summer dinner\"}}",
                                 kSemanticField)};
      if (f.op != filter_op::similar)
        return error{"invalid_filter", path + ".op", fmt::format("{} only works with op similar", kSemanticField), ""};
      if (in_or || kind_ != tool_kind::read)
        return error{"invalid_filter", path, "semantic search is only available in db_read filters", ""};
      if (!has_value || !value_it->is_string() || lower_trimmed(value_it->get<std::string>()).empty())
        return invalid_value(path + ".value", "similar needs a non-empty search text");
      if (!call_.semantic_query.empty())
        return error{"invalid_filter", path, "only one semantic search per read", ""};
      call_.semantic_query = value_it->get<std::string>();
      f.value = *value_it;
      return f;
    }

    auto col = visible_column(f.field, path + ".field", *call_.tbl);
    if (!col) return col.take_error();
    f.col = *col;
    const std::string value_path = path + ".value";
    auto value = check_filter_value(*f.col, f.op, has_value ? *value_it : json(), has_value, value_path);
    if (!value) return value.take_error();
    f.value = std::move(*value);
    if (f.op == filter_op::is_null && f.value.is_boolean()) {
      // {"op": "is_null", "value": false} means "is not null".
      if (!f.value.get<bool>()) f.op = filter_op::is_not_null;
      f.value = nullptr;
    } else if (f.op == filter_op::is_not_null && f.value.is_boolean()) {
      if (!f.value.get<bool>()) f.op = filter_op::is_null;
      f.value = nullptr;
    }
    return f;
  }

  result<json> check_filter_value(const column& col, filter_op op, const json& value, bool has_value,
                                  const std::string& path) {
    const value_scope sc = scope();
    switch (op) {
      case filter_op::is_null:
      case filter_op::is_not_null:
        if (!has_value || value.is_null()) return json(true);
        if (value.is_boolean()) return value;
        return invalid_value(path, fmt::format("{} takes no value (or true/false), got {}",
                                               filter_op_name(op), json_kind(value)),
                             "omit value");
      case filter_op::eq:
      case filter_op::neq:
        if (!has_value)
          return invalid_value(path, "value is required",
                               "to test for a missing value use op is_null");
        if (value.is_null()) return value;  // becomes is.null / not.is.null
        return detail::check_filter_scalar(sc, col, value, path);
      case filter_op::gt:
      case filter_op::gte:
      case filter_op::lt:
      case filter_op::lte:
        if (!has_value || value.is_null())
          return invalid_value(path, fmt::format("{} needs a value", filter_op_name(op)));
        if (col.type == column_type::uuid || col.type == column_type::boolean)
          return invalid_value(path, fmt::format("{} cannot be compared with {}", col.name, filter_op_name(op)),
                               "use = or in");
        return detail::check_filter_scalar(sc, col, value, path);
      case filter_op::in:
      case filter_op::not_in: {
        if (!value.is_array())
          return invalid_value(path,
                               fmt::format("{} needs a list of values, got {}", filter_op_name(op),
                                           has_value ? json_kind(value) : "nothing"),
                               has_value && value.is_primitive()
                                   ? fmt::format("write \"value\": [{}]", value.dump())
                                   : std::string("write \"value\": [\"a\", \"b\"]"));
        json out = json::array();
        for (std::size_t i = 0; i < value.size(); ++i) {
          if (value[i].is_null()) {
            out.push_back(nullptr);
            continue;
          }
          auto item = detail::check_filter_scalar(sc, col, value[i], fmt::format("{}[{}]", path, i));
          if (!item) return item.take_error();
          if (std::find(out.begin(), out.end(), *item) == out.end()) out.push_back(std::move(*item));
        }
        return out;
      }
      case filter_op::like:
      case filter_op::ilike:
      case filter_op::not_like:
      case filter_op::not_ilike:
        if (col.type != column_type::text)
          return invalid_value(path,
                               fmt::format("{} is {}; pattern matching works on text columns", col.name,
                                           column_type_name(col.type)),
                               "use =, in or a comparison");
        if (!value.is_string())
          return invalid_value(path, fmt::format("{} needs a text pattern such as \"%chicken%\", got {}",
                                                 filter_op_name(op), has_value ? json_kind(value) : "nothing"));
        if (detail::contains_nul(value.get<std::string>()))
          return error{"nul_byte", path, "the value contains a NUL byte (U+0000)",
                       "PostgREST truncates filter values at NUL; remove it"};
        return value;
      case filter_op::contains:
      case filter_op::contained_by:
      case filter_op::overlaps:
        if (col.type == column_type::jsonb) {
          if (op == filter_op::overlaps || !(value.is_object() || value.is_array()))
            return invalid_value(path, fmt::format("{} on {} needs a JSON object", filter_op_name(op), col.name),
                                 "{\"field\": \"" + col.name + "\", \"op\": \"contains\", \"value\": {\"key\": \"value\"}}");
          json copy = value;
          std::string text = copy.dump();
          if (detail::contains_nul(text) || text.find("\\u0000") != std::string::npos)
            return error{"nul_byte", path, "the value contains a NUL byte (U+0000)", "remove it"};
          return copy;
        }
        if (col.type != column_type::text_array && col.type != column_type::uuid_array)
          return invalid_value(path,
                               fmt::format("{} works on array and JSON columns; {} is {}", filter_op_name(op),
                                           col.name, column_type_name(col.type)),
                               "for text use ilike, e.g. {\"field\": \"" + col.name +
                                   "\", \"op\": \"ilike\", \"value\": \"%word%\"}");
        if (!has_value || value.is_null() || value.is_object())
          return invalid_value(path, fmt::format("{} needs a list of values", filter_op_name(op)),
                               "write \"value\": [\"weeknight\"]");
        return detail::check_array_elements(sc, col, value, path);
      case filter_op::similar:
        break;
    }
    return invalid_value(path, "unsupported operator");
  }

  status parse_read_options(const json& params) {
    auto ok = parse_filters(params, "or_filters", call_.or_filters);
    if (!ok) return ok;
    ok = parse_columns(params);
    if (!ok) return ok;
    auto limit = parse_count_param(params, "limit", 1, dom_.max_rows);
    if (!limit) return limit.take_error();
    call_.limit = *limit;
    auto offset = parse_count_param(params, "offset", 0, 100000000);
    if (!offset) return offset.take_error();
    call_.offset = *offset;

    if (auto it = params.find("order_by"); it != params.end() && !it->is_null()) {
      if (!it->is_string())
        return error{"invalid_param", "order_by", "order_by must be a column name", ""};
      auto col = visible_column(it->get<std::string>(), "order_by", *call_.tbl);
      if (!col) return col.take_error();
      call_.order_by = (*col)->name;
      if (auto dir = params.find("order_dir"); dir != params.end() && !dir->is_null()) {
        const std::string text = dir->is_string() ? lower_trimmed(dir->get<std::string>()) : "";
        if (text != "asc" && text != "desc")
          return error{"invalid_param", "order_dir", "order_dir must be \"asc\" or \"desc\"", ""};
        call_.descending = text == "desc";
      }
    }
    if (auto it = params.find("count"); it != params.end() && !it->is_null()) {
      if (it->is_boolean()) {
        call_.count = it->get<bool>() ? "exact" : "";
      } else if (it->is_string() && (*it == "exact" || *it == "planned" || *it == "estimated")) {
        call_.count = it->get<std::string>();
      } else {
        return error{"invalid_param", "count", "count must be true, \"exact\", \"planned\" or \"estimated\"", ""};
      }
    }
    return ok_status();
  }

  result<std::optional<long>> parse_count_param(const json& params, const char* key, long min, long max) {
    auto it = params.find(key);
    if (it == params.end() || it->is_null()) return std::optional<long>();
    long n = 0;
    if (it->is_number_integer()) {
      n = it->get<long>();
    } else if (it->is_number_float() && it->get<double>() == static_cast<double>(static_cast<long>(it->get<double>()))) {
      n = static_cast<long>(it->get<double>());
    } else if (it->is_string() && !it->get<std::string>().empty() && it->get<std::string>().size() < 10 &&
               std::all_of(it->get<std::string>().begin(), it->get<std::string>().end(),
                           [](char c) { return c >= '0' && c <= '9'; })) {
      n = std::stol(it->get<std::string>());
    } else {
      return error{"invalid_param", key, fmt::format("{} must be a whole number, got {}", key, json_kind(*it)), ""};
    }
    if (n < min || n > max)
      return error{"invalid_param", key, fmt::format("{} must be between {} and {}, got {}", key, min, max, n),
                   std::string_view(key) == "limit"
                       ? fmt::format("the server returns at most {} rows per read; page with offset", max)
                       : std::string()};
    return std::optional<long>(n);
  }

  status parse_columns(const json& params) {
    auto it = params.find("columns");
    if (it == params.end() || it->is_null()) return ok_status();
    std::vector<std::string> items;
    if (it->is_string()) {
      auto parts = split_select(it->get<std::string>());
      if (!parts) return parts.take_error();
      items = std::move(*parts);
    } else if (it->is_array()) {
      for (std::size_t i = 0; i < it->size(); ++i) {
        if (!(*it)[i].is_string())
          return error{"invalid_param", fmt::format("columns[{}]", i), "columns must be strings", ""};
        items.push_back((*it)[i].get<std::string>());
      }
    } else {
      return error{"invalid_param", "columns", "columns must be an array of column names",
                   "[\"name\", \"cuisine\"]"};
    }
    for (std::size_t i = 0; i < items.size(); ++i) {
      auto item = parse_select_item(items[i], fmt::format("columns[{}]", i));
      if (!item) return item.take_error();
      if (!item->empty() &&
          std::find(call_.columns.begin(), call_.columns.end(), *item) == call_.columns.end())
        call_.columns.push_back(std::move(*item));
    }
    return ok_status();
  }

  // Splits "a, b, rel(c, d)" at top-level commas.
  static result<std::vector<std::string>> split_select(const std::string& text) {
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
      return error{"invalid_param", "columns", "unbalanced parentheses in columns", "[\"name\", \"recipe_ingredients(name, quantity)\"]"};
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
  result<std::string> parse_select_item(const std::string& raw, const std::string& path) {
    const std::string item = trim(raw);
    if (item.empty()) return std::string();
    if (item == "*") return item;
    const auto open = item.find('(');
    if (open == std::string::npos) {
      auto col = visible_column(item, path, *call_.tbl);
      if (!col) return col.take_error();
      if (is_hidden(*call_.tbl, item))
        return error{"unknown_column", path, fmt::format("{} is not available to read", item), ""};
      return item;
    }
    if (item.back() != ')')
      return error{"invalid_param", path, fmt::format("'{}' is not a column or relation(columns)", item), ""};
    const std::string rel_name = trim(item.substr(0, open));
    const table* target = embedded_table(rel_name);
    if (!target)
      return error{"unknown_relation", path,
                   fmt::format("{} cannot embed '{}'", call_.tbl->name, rel_name),
                   embeddable_hint()};
    auto inner = split_select(item.substr(open + 1, item.size() - open - 2));
    if (!inner) return error{"invalid_param", path, inner.err().message, inner.err().hint};
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
      if (is_hidden(*target, name))
        return error{"unknown_column", path, fmt::format("{} is not available to read", name), ""};
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
      if (col.type == column_type::uuid && col.references == name && col.name != "id")
        return dom_.find_table(col.references);
    return nullptr;
  }

  std::string embeddable_hint() const {
    std::vector<std::string> names;
    for (const auto& rel : call_.tbl->relations) names.push_back(rel.name);
    for (const auto& col : call_.tbl->columns)
      if (col.type == column_type::uuid && !col.references.empty() &&
          std::find(names.begin(), names.end(), col.references) == names.end())
        names.push_back(col.references);
    if (names.empty()) return fmt::format("{} has no related tables to embed", call_.tbl->name);
    return fmt::format("embeddable: {}", fmt::join(names, ", "));
  }

  // One create/update object: checks keys and values, returns the sanitized
  // row and (for creates) the pending gen_ ref it saves.
  result<json> parse_row(const json& row, const std::string& path, std::string* saves) {
    if (!row.is_object())
      return error{"invalid_data", path, fmt::format("a row must be an object, got {}", json_kind(row)),
                   "{\"name\": \"milk\", \"quantity\": 1, \"unit\": \"l\"}"};
    const table& tbl = *call_.tbl;
    json out = json::object();
    for (const auto& [key, value] : row.items()) {
      const std::string key_path = path + "." + key;
      if (key == "id" && kind_ == tool_kind::create && saves) {
        auto saved = parse_save_marker(value, key_path);
        if (!saved) return saved.take_error();
        *saves = std::move(*saved);
        continue;
      }
      if (key == dom_.owner_column && tbl.user_owned)
        return error{"system_column", key_path,
                     fmt::format("{} is set from the signed-in user; leave it out", key), ""};
      if (key == "id")
        return error{"system_column", key_path,
                     kind_ == tool_kind::update ? "id cannot be changed; choose the rows with filters"
                                                : "id is assigned by the database; leave it out",
                     ""};
      const column* col = tbl.find_column(key);
      if (!col || is_hidden(tbl, key)) {
        if (is_postgrest_reserved(key))
          return error{"reserved_column", key_path, fmt::format("'{}' is a PostgREST keyword, not a column", key),
                       fmt::format("columns of {}: {}", tbl.name, visible_columns(dom_, tbl))};
        return error{"unknown_column", key_path, fmt::format("{} has no column '{}'", tbl.name, key),
                     fmt::format("columns of {}: {}", tbl.name, visible_columns(dom_, tbl))};
      }
      if (!col->writable)
        return error{"read_only_column", key_path, fmt::format("{} is maintained by the database", key), ""};
      auto checked = detail::check_payload_value(scope(), *col, value, key_path);
      if (!checked) return checked.take_error();
      out[key] = std::move(*checked);
    }
    if (kind_ == tool_kind::create) {
      for (const auto& col : tbl.columns)
        if (col.required && col.writable && !out.contains(col.name))
          return error{"missing_column", path,
                       fmt::format("{} is required to create a row in {}", col.name, tbl.name), ""};
    }
    return out;
  }

  // `id: "gen_recipe_1"` in a create row says which generated artifact it saves.
  result<std::string> parse_save_marker(const json& value, const std::string& path) {
    const std::string explain = "id is assigned by the database; only a gen_ ref may be given, to save that artifact";
    if (!value.is_string()) return error{"system_column", path, explain, ""};
    auto name = parse_ref_name(value.get<std::string>());
    const ref_entry* entry = registry_.find(value.get<std::string>());
    if (!name || !name->generated || !entry) return error{"system_column", path, explain, ""};
    if (entry->type != call_.tbl->ref_prefix)
      return error{"ref_type_mismatch", path,
                   fmt::format("{} is generated {} content, not a row for {}", entry->ref, entry->table, call_.tbl->name),
                   fmt::format("save it with db_create on {}", entry->table)};
    if (!entry->pending())
      return error{"already_saved", path, fmt::format("{} was already saved as {}", entry->ref, entry->saved_as),
                   fmt::format("to change it, db_update {} with id = {}", call_.tbl->name, entry->saved_as)};
    return entry->ref;
  }

  status parse_create_data(const json& params) {
    auto it = params.find("data");
    if (it == params.end() || it->is_null())
      return error{"missing_param", "data", "data is required", "an object, or an array of objects for a batch"};
    call_.batch = it->is_array();
    if (call_.batch && it->empty())
      return error{"invalid_data", "data", "data is an empty array; nothing to create", ""};
    if (call_.batch && it->size() > static_cast<std::size_t>(dom_.max_rows))
      return error{"invalid_data", "data", fmt::format("at most {} rows per create", dom_.max_rows), "split the batch"};
    const json rows = call_.batch ? *it : json::array({*it});
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const std::string path = call_.batch ? fmt::format("data[{}]", i) : "data";
      std::string saves;
      auto row = parse_row(rows[i], path, &saves);
      if (!row) return row.take_error();
      if (!saves.empty() && std::find(call_.saves.begin(), call_.saves.end(), saves) != call_.saves.end())
        return error{"already_saved", path + ".id", fmt::format("{} is saved twice in this batch", saves), ""};
      call_.rows.push_back(std::move(*row));
      call_.saves.push_back(std::move(saves));
    }
    return ok_status();
  }

  status parse_update_data(const json& params) {
    auto it = params.find("data");
    if (it == params.end() || it->is_null())
      return error{"missing_param", "data", "data is required", "{\"quantity\": 2}"};
    if (!it->is_object())
      return error{"invalid_data", "data", fmt::format("db_update data must be one object, got {}", json_kind(*it)),
                   "the same change applies to every matching row"};
    auto row = parse_row(*it, "data", nullptr);
    if (!row) return row.take_error();
    if (row->empty())
      return error{"invalid_data", "data", "data has no columns to change", "{\"quantity\": 2}"};
    call_.rows.push_back(std::move(*row));
    return ok_status();
  }

  // Updates and deletes must select rows; the owner scope alone selects all
  // of the user's rows, and so do filters that cannot exclude anything.
  status require_narrowing_filter() const {
    auto narrows = [](const filter& f) {
      switch (f.op) {
        case filter_op::is_not_null: return f.col->nullable;
        case filter_op::not_in: return !f.value.empty();
        case filter_op::like:
        case filter_op::ilike: {
          const auto& text = f.value.get_ref<const std::string&>();
          return text.find_first_not_of("%*") != std::string::npos;
        }
        default: return true;
      }
    };
    if (std::any_of(call_.filters.begin(), call_.filters.end(), narrows)) return ok_status();
    return error{"missing_filter", "filters",
                 fmt::format("{} needs a filter that selects rows; changing every row of {} is refused",
                             tool_name(kind_), call_.tbl->name),
                 fmt::format("e.g. \"filters\": [{{\"field\": \"id\", \"op\": \"in\", \"value\": [\"{}_1\", \"{}_2\"]}}]",
                             call_.tbl->ref_prefix, call_.tbl->ref_prefix)};
  }

  const domain& dom_;
  const ref_registry& registry_;
  tool_kind kind_;
  tool_call call_;
};

}  // namespace

std::optional<tool_kind> parse_tool_name(std::string_view name) {
  for (std::size_t i = 0; i < kToolNames.size(); ++i)
    if (kToolNames[i] == name) return static_cast<tool_kind>(i);
  return std::nullopt;
}

std::string_view tool_name(tool_kind kind) { return kToolNames[static_cast<std::size_t>(kind)]; }

std::string_view filter_op_name(filter_op op) {
  for (std::size_t i = 0; i < kCanonicalOps; ++i)
    if (kOps[i].op == op) return kOps[i].text;
  return "?";
}

std::string filter_op_list() {
  std::vector<std::string_view> names;
  for (std::size_t i = 0; i < kCanonicalOps; ++i) names.push_back(kOps[i].text);
  return fmt::format("{}", fmt::join(names, ", "));
}

result<tool_call> parse_tool_call(const domain& dom, const ref_registry& registry, std::string_view tool,
                                  const json& params) {
  auto kind = parse_tool_name(tool);
  if (!kind)
    return error{"unknown_tool", "tool", fmt::format("'{}' is not a tool", tool),
                 "one of: db_read, db_create, db_update, db_delete"};
  return call_parser(dom, registry, *kind).parse(params);
}

}  // namespace alfred
