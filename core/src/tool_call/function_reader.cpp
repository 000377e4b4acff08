// A `db_call`'s params: `{"function": "<name>", "args": {…}}` read against
// the domain's functions (docs/functions.md). Each argument is checked as a
// column of the function's argument table, so refs, `me`, types and allowed
// values read as they do in a create's data.
#include "function_reader.h"

#include <algorithm>

#include "../json/echo.h"
#include "../json/format.h"
#include "param_path.h"
#include "tool_params.h"
#include "values.h"

namespace alfred::detail {
namespace {

std::string function_hint(const domain& dom) {
  if (dom.functions.empty()) return "this database offers no functions to call; use db_read and the write tools";
  return textfmt::format("one of: {}", dom.function_list());
}

}  // namespace

std::string function_signature(const domain& dom, const db_function& fn, std::span<const std::string> fixed) {
  std::string out = fn.name;
  out += '(';
  bool first = true;
  for (const auto& arg : fn.args.columns) {
    if (std::find(fixed.begin(), fixed.end(), arg.name) != fixed.end()) continue;
    if (!first) out += ", ";
    first = false;
    out += arg.name;
    if (!arg.required) out += '?';
    out += ": ";
    if (fn.embeds(arg.name))
      out += "text to search by meaning";
    else if (!arg.references.empty())
      out += "ref of " + arg.references;
    else if (const table* users = arg.user_id ? dom.users_table() : nullptr)
      textfmt::format_to(out, "me or a {} ref", users->ref_prefix);
    else if (arg.user_id)
      out += "me";
    else
      out += column_type_name(arg.type);
    if (!arg.allowed_values.empty() && arg.allowed_values.size() <= 8) {
      out += " (";
      for (std::size_t i = 0; i < arg.allowed_values.size(); ++i)
        out.append(i ? "|" : "").append(arg.allowed_values[i]);
      out += ')';
    }
  }
  out += ')';
  return out;
}

function_reader::function_reader(const domain& dom, const ref_registry& registry, tool_call& call,
                                 std::span<const alfred::fixed_value> fixed)
    : dom_(dom), registry_(registry), call_(call), fixed_(fixed) {}

status function_reader::read(const std::optional<json_value>& function, const std::optional<json_value>& args) {
  auto fn = read_function(function);
  if (!fn) return fn.take_error();
  call_.fn = *fn;
  if ((*fn)->returns.type == function_returns::kind::rows) call_.tbl = dom_.find_table((*fn)->returns.table);
  std::optional<json_document> text_doc;
  std::vector<std::pair<std::string_view, json_value>> values;
  if (auto ok = given_args(args, text_doc, values); !ok) return ok;
  return read_args(values);
}

result<const db_function*> function_reader::read_function(const std::optional<json_value>& function) const {
  if (!function || function->is_null())
    return error{codes::missing_param, "function", "function is required", function_hint(dom_)};
  if (!function->is_string())
    return error{codes::invalid_param, "function",
                 textfmt::format("function must be a function's name, got {}", function->kind_name()),
                 function_hint(dom_)};
  const db_function* fn = dom_.find_function(function->str());
  if (!fn)
    return error{codes::unknown_function, "function",
                 textfmt::format("'{}' is not a function of the {}", echoed(function->str()),
                                 dom_.name == "database" || dom_.name == "domain" ? std::string("database")
                                                                                  : dom_.name + " database"),
                 function_hint(dom_)};
  return fn;
}

status function_reader::given_args(const std::optional<json_value>& args, std::optional<json_document>& text_doc,
                                   std::vector<std::pair<std::string_view, json_value>>& values) const {
  const db_function& fn = *call_.fn;
  json_value given = args ? *args : json_value();
  // Strict mode writes `args` as JSON text, as it writes `data`.
  if (args && args->is_string()) {
    auto doc = json_document::parse(args->str());
    if (!doc || !doc->root().is_object())
      return error{codes::invalid_param, "args", "args is text that is not a JSON object of the function's arguments",
                   textfmt::format("e.g. {}", function_signature(dom_, fn))};
    text_doc = std::move(*doc);
    given = text_doc->root();
  }
  if (args && !given.is_null() && !given.is_object())
    return error{codes::invalid_param, "args",
                 textfmt::format("args must be an object of the function's arguments, got {}", given.kind_name()),
                 textfmt::format("{} takes {}", fn.name, function_signature(dom_, fn))};
  std::optional<error> failure;
  const param_path root("args");
  if (given.is_object())
    given.for_each_member([&](std::string_view key, json_value value) {
      if (failure) return;
      const column* arg = fn.args.find_column(key);
      if (!arg) {
        failure =
            error{codes::unknown_argument, root.member(key).str(),
                  textfmt::format("{} takes no argument '{}'", fn.name, echoed(key)),
                  fn.args.columns.empty() ? std::string("it takes no arguments: give \"args\": {}")
                                          : textfmt::format("{} takes {}", fn.name, function_signature(dom_, fn))};
      } else if (is_fixed(arg->name)) {
        failure = error{codes::system_column, root.member(key).str(),
                        textfmt::format("{} is set by the app for every call; leave it out", arg->name),
                        textfmt::format("call {} without {}", fn.name, arg->name)};
      } else if (!value.is_null()) {  // null: not given (strict mode writes null for what it leaves out)
        const auto known = std::find_if(values.begin(), values.end(), [&](const auto& v) { return v.first == key; });
        if (known != values.end())
          known->second = value;
        else
          values.emplace_back(arg->name, value);
      }
    });
  if (failure) return std::move(*failure);
  return ok_status();
}

status function_reader::read_args(const std::vector<std::pair<std::string_view, json_value>>& values) {
  const db_function& fn = *call_.fn;
  const param_path root("args");
  const value_scope scope{dom_, registry_, fn.args, call_.current_user};
  // In the order the function declares its arguments.
  for (const column& arg : fn.args.columns) {
    const param_path at = root.member(arg.name);
    if (const alfred::fixed_value* fixed = fixed_value(arg.name)) {
      auto checked = check_fixed_value(arg, fixed->json, at);
      if (!checked) return checked.take_error();
      call_.args.push_back({arg.name, std::move(*checked)});
      continue;
    }
    const auto given = std::find_if(values.begin(), values.end(), [&](const auto& v) { return v.first == arg.name; });
    if (given == values.end()) {
      if (arg.required)
        return error{codes::missing_argument, at.str(), textfmt::format("{} needs {}", fn.name, arg.name),
                     textfmt::format("{} takes {}", fn.name, function_signature(dom_, fn))};
      continue;
    }
    if (fn.embeds(arg.name)) {
      if (auto ok = read_embedded(arg, given->second, at); !ok) return ok;
      continue;
    }
    auto sanitized = check_payload_value(scope, arg, given->second, at);
    if (!sanitized) return sanitized.take_error();
    call_.args.push_back({arg.name, std::move(*sanitized)});
  }
  return ok_status();
}

status function_reader::read_embedded(const column& arg, json_value value, const param_path& at) {
  if (!value.is_string() || value.str().find_first_not_of(" \t\r\n") == std::string_view::npos)
    return error{codes::invalid_value, at.str(),
                 textfmt::format("{} is searched by meaning: give the text to search for, got {}", arg.name,
                                 value.is_string() ? "empty text" : value.kind_name()),
                 textfmt::format("e.g. \"{}\": \"what the user asked about\"", arg.name)};
  if (contains_nul(value.str())) return nul_error(at.str());
  call_.embeds.emplace_back(arg.name, std::string(value.str()));
  return ok_status();
}

bool function_reader::is_fixed(std::string_view arg) const { return fixed_value(arg) != nullptr; }

const alfred::fixed_value* function_reader::fixed_value(std::string_view arg) const {
  for (const auto& fixed : fixed_)
    if (fixed.name == arg) return &fixed;
  return nullptr;
}

}  // namespace alfred::detail
