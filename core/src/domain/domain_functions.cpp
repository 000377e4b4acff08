// The functions of a domain read from its JSON (docs/functions.md): each
// function's arguments as the columns of a table named after it, so that
// refs, `me`, types and allowed values are checked as they are for columns;
// what it returns; whether it is a read. Read once the tables are checked,
// since arguments and results name tables.
#include <algorithm>
#include <optional>

#include "../json/format.h"
#include "domain_config.h"

namespace alfred::detail {
namespace {

constexpr std::string_view kVectorType = "vector";

// `"<arg>": {"type": "vector", "dimensions"?, "required"?, "description"?}`:
// text the executor embeds (an embedding of `dimensions` numbers). The model
// writes it as text.
result<column> parse_vector_argument(const std::string& name, json_value spec, const std::string& path) {
  if (auto ok = known_keys(spec, {"type", "required", "description", "dimensions"}, path); !ok) return ok.take_error();
  column col;
  col.name = name;
  col.type = column_type::text;
  col.required = flag(spec, "required", false);
  col.nullable = !col.required;
  return col;
}

status parse_argument(db_function& fn, std::string_view arg_name, json_value spec, const std::string& path) {
  const std::string name(arg_name);
  if (fn.args.find_column(name)) return config_error(path, "argument appears twice");
  if (!spec.is_object()) return config_error(path, "must be an object");
  for (std::string_view key : {"writable", "nullable"})
    if (spec.find(key))
      return error{codes::invalid_domain, textfmt::format("{}.{}", path, key),
                   textfmt::format("'{}' is a column setting, not an argument's", key),
                   "allowed here: type, required, references, values, description"};
  const bool vector = text_field(spec, "type") == kVectorType;
  auto col = vector ? parse_vector_argument(name, spec, path) : parse_column(name, spec, path, {"description"});
  if (!col) return col.take_error();
  if (auto description = spec.find("description"); description && !description->is_string())
    return config_error(path + ".description", "must be text");
  if (const std::string text = text_field(spec, "description"); !text.empty())
    fn.arg_descriptions.emplace_back(name, text);
  if (vector) {
    int size = 0;
    if (auto dimensions = spec.find("dimensions")) {
      auto n = dimensions->as_integer();
      if (!n || *n < 1 || *n > 65535)
        return config_error(path + ".dimensions", "must be the vector's size, a whole number from 1 to 65535");
      size = int(*n);
    }
    fn.embedded_args.push_back(name);
    fn.embedding_sizes.push_back(size);
  }
  fn.args.columns.push_back(std::move(*col));
  return ok_status();
}

// A value type a result may have: a column type, or one of the result-only
// kinds (`json`, `void`).
status parse_returns(db_function& fn, json_value spec, const std::string& path) {
  if (!spec.is_object()) return config_error(path, "must be an object: {\"table\": …} or {\"type\": …}");
  if (auto ok = known_keys(spec, {"table", "type", "set", "references", "columns"}, path); !ok) return ok.take_error();
  function_returns& out = fn.returns;
  out.set = flag(spec, "set", false);
  if (auto set = spec.find("set"); set && !set->is_bool()) return config_error(path + ".set", "must be true or false");
  const std::string table_name = text_field(spec, "table");
  const std::string type = text_field(spec, "type");
  if (!table_name.empty() && !type.empty())
    return config_error(path, "gives both \"table\" and \"type\": a function returns rows of a table or values");
  auto columns = string_list(spec.find("columns"), path + ".columns");
  if (!columns) return columns.take_error();
  for (const auto& name : *columns) {
    if (type != "json" || !is_identifier(name)) return config_error(path + ".columns", "lists a JSON result's columns");
    out.columns += (out.columns.empty() ? "" : ",") + name;
  }
  if (!table_name.empty()) {
    out.type = function_returns::kind::rows;
    out.table = table_name;
    if (spec.find("references"))
      return config_error(path + ".references", "only a returned value can reference a table");
    return ok_status();
  }
  if (type == "json") {
    out.type = function_returns::kind::json;
  } else if (type == "void") {
    out.type = function_returns::kind::none;
    if (out.set) return config_error(path + ".set", "a function that returns nothing returns no set");
  } else {
    auto found = std::find_if(kColumnTypes.begin(), kColumnTypes.end(),
                              [&](const column_type_entry& t) { return t.name == type; });
    if (found == kColumnTypes.end())
      return config_error(path + ".type",
                          type.empty() ? std::string("is required (or \"table\")")
                                       : textfmt::format("unknown type '{}': a column type, json or void", type));
    out.type = function_returns::kind::value;
    out.value_type = found->type;
    out.references = text_field(spec, "references");
  }
  if (spec.find("references") && out.type != function_returns::kind::value)
    return config_error(path + ".references", "only a returned value can reference a table");
  return ok_status();
}

result<db_function> parse_function(const std::string& name, json_value spec) {
  const std::string path = "functions." + name;
  if (!is_identifier(name))
    return config_error(path, textfmt::format("function name '{}' is not a lower-case identifier", name));
  if (!spec.is_object()) return config_error(path, "must be an object");
  if (auto ok = known_keys(spec, {"description", "read", "args", "returns"}, path); !ok) return ok.take_error();
  db_function fn;
  fn.name = name;
  fn.args.name = name;
  fn.args.writable = false;
  if (auto description = spec.find("description"); description && !description->is_string())
    return config_error(path + ".description", "must be text");
  fn.description = text_field(spec, "description");
  if (auto read = spec.find("read"); read && !read->is_bool())
    return config_error(path + ".read", "must be true or false");
  fn.read = flag(spec, "read", false);
  if (auto args = spec.find("args"); args && !args->is_null()) {
    if (!args->is_object()) return config_error(path + ".args", "must be an object of argument name → settings");
    std::optional<error> failure;
    args->for_each_member([&](std::string_view arg, json_value arg_spec) {
      if (!failure)
        if (auto ok = parse_argument(fn, arg, arg_spec, textfmt::format("{}.args.{}", path, arg)); !ok)
          failure = ok.take_error();
    });
    if (failure) return std::move(*failure);
  }
  auto returns = spec.find("returns");
  if (!returns) return config_error(path + ".returns", "is required: {\"table\": …}, {\"type\": …}");
  if (auto ok = parse_returns(fn, *returns, path + ".returns"); !ok) return ok.take_error();
  return fn;
}

// What a function names must exist: the tables its arguments reference, the
// table it returns rows of, the table a returned value is a key of.
status check_function(const domain& dom, const db_function& fn) {
  const std::string path = "functions." + fn.name;
  if (auto ok = check_references(dom, fn.args, path + ".args", true); !ok) return ok;
  const function_returns& out = fn.returns;
  if (out.type == function_returns::kind::rows && !dom.find_table(out.table))
    return config_error(path + ".returns.table", textfmt::format("unknown table '{}'", out.table));
  if (out.type == function_returns::kind::value && !out.references.empty()) {
    const table* target = dom.find_table(out.references);
    if (!target)
      return config_error(path + ".returns.references", textfmt::format("unknown table '{}'", out.references));
    const column* key = target->key_column();
    if (!key || key->type != out.value_type)
      return config_error(
          path + ".returns.references",
          textfmt::format("{} values are not keys of {}", column_type_name(out.value_type), target->name));
  } else if (out.type == function_returns::kind::value && out.value_type == column_type::uuid_array) {
    return config_error(path + ".returns.type", "a uuid[] result must say which table's keys it holds");
  }
  return ok_status();
}

}  // namespace

status parse_functions(domain& dom, json_value config) {
  auto functions = config.find("functions");
  if (!functions || functions->is_null()) return ok_status();
  if (!functions->is_object()) return config_error("functions", "must be an object of function name → settings");
  std::optional<error> failure;
  functions->for_each_member([&](std::string_view name_view, json_value spec) {
    if (failure) return;
    const std::string name(name_view);
    if (dom.find_function(name)) {
      failure = config_error("functions." + name, "function appears twice");
      return;
    }
    auto fn = parse_function(name, spec);
    if (!fn) {
      failure = fn.take_error();
      return;
    }
    if (auto ok = check_function(dom, *fn); !ok) {
      failure = ok.take_error();
      return;
    }
    dom.functions.push_back(std::move(*fn));
  });
  if (failure) return std::move(*failure);
  return ok_status();
}

void index_field_references(domain& dom) {
  std::vector<std::string> ambiguous;
  auto add = [&](const std::string& field, const std::string& target) {
    if (std::find(ambiguous.begin(), ambiguous.end(), field) != ambiguous.end()) return;
    auto known = std::find_if(dom.field_references.begin(), dom.field_references.end(),
                              [&](const auto& entry) { return entry.first == field; });
    if (known == dom.field_references.end()) {
      dom.field_references.emplace_back(field, target);
    } else if (known->second != target) {
      dom.field_references.erase(known);
      ambiguous.push_back(field);
    }
  };
  auto index = [&](const table& tbl) {
    for (const auto& col : tbl.columns) {
      // A table's own `id` names its rows, not a field's: `id` is every row's (a profile's
      // `id` references auth.users, and an answer's `id` is not a user).
      if (col.type == column_type::uuid_array || (&col == tbl.key_column() && col.name == "id")) continue;
      if (!col.references.empty())
        add(col.name, col.references);
      else if (col.user_id)
        add(col.name, std::string(kUsersReference));
    }
  };
  for (const auto& tbl : dom.tables) index(tbl);
  // A function's argument names what it takes as a column does
  // (`remove_account_member(user_id)`: a user id).
  for (const auto& fn : dom.functions) index(fn.args);
  // A member list's `user_id` holds user ids where no column or argument of the domain says what it holds.
  const auto named = [&](const auto& entry) { return entry.first == "user_id"; };
  if (std::none_of(dom.field_references.begin(), dom.field_references.end(), named) &&
      std::find(ambiguous.begin(), ambiguous.end(), "user_id") == ambiguous.end())
    dom.field_references.emplace_back("user_id", kUsersReference);
}

}  // namespace alfred::detail
