#include "tool_params.h"

#include <fmt/format.h>

namespace alfred::detail {

bool is_absent_param(json_value value) { return value.is_null(); }

result<json_document> parse_data_text(std::string_view text, const std::string& path) {
  constexpr const char* hint =
      "data is JSON text of the row(s): \"{\\\"name\\\": \\\"eggs\\\", \\\"quantity\\\": 12}\"";
  auto doc = json_document::parse(text);
  if (!doc) return error{codes::invalid_data, path, path + " is text that is not JSON: " + doc.err().message, hint};
  if (!doc->root().is_object() && !doc->root().is_array())
    return error{codes::invalid_data, path,
                 fmt::format("{} must hold a JSON object or list, got {}", path, doc->root().kind_name()), hint};
  return std::move(*doc);
}

}  // namespace alfred::detail
