#pragma once
// The stage of a `db_call`: the function named and its arguments
// (function_reader.cpp). Borrows the domain, the registry and the fixed
// values for one parse_tool_call.

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "alfred/domain/domain.h"
#include "alfred/json/error.h"
#include "alfred/json/json.h"
#include "alfred/registry/registry.h"
#include "alfred/tool_call/tool_call.h"
#include "param_path.h"

namespace alfred::detail {

/// `name(arg: type, other?: ref of projects)`: how hints show a function's
/// arguments (`?` for an optional one).
/// Arguments named in `fixed` (set by the app) are left out.
std::string function_signature(const domain& dom, const db_function& fn, std::span<const std::string> fixed = {});

class function_reader {
 public:
  /// `fixed`: the values the app sets for every call; an argument of that
  /// name gets it and the model may not give it.
  function_reader(const domain& dom, const ref_registry& registry, tool_call& call,
                  std::span<const alfred::fixed_value> fixed);
  /// Reads `function` and `args` into the call: `fn`, `args`, `embeds`, and
  /// `tbl` when the function returns rows of a table.
  status read(const std::optional<json_value>& function, const std::optional<json_value>& args);

 private:
  result<const db_function*> read_function(const std::optional<json_value>& function) const;
  // The arguments the model gave (strict mode's JSON text parsed into
  // `text_doc`), by name: unknown and app-fixed ones refused.
  status given_args(const std::optional<json_value>& args, std::optional<json_document>& text_doc,
                    std::vector<std::pair<std::string_view, json_value>>& values) const;
  // Each argument checked, in the function's order, into the call.
  status read_args(const std::vector<std::pair<std::string_view, json_value>>& values);
  status read_embedded(const column& arg, json_value value, const detail::param_path& at);
  bool is_fixed(std::string_view arg) const;
  const alfred::fixed_value* fixed_value(std::string_view arg) const;

  const domain& dom_;
  const ref_registry& registry_;
  tool_call& call_;
  std::span<const alfred::fixed_value> fixed_;
};

}  // namespace alfred::detail
