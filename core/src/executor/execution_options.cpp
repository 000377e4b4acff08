// The settings of one execution that JS passes next to the request options:
// client row ids, limits, and how a need's exchange ended.
#include <fmt/format.h>

#include "../json/echo.h"
#include "alfred/executor.h"
#include "alfred/uuid.h"

namespace alfred {

std::optional<transport_failure> parse_transport_failure(std::string_view name) {
  if (name.empty()) return transport_failure::none;
  if (name == "not_sent") return transport_failure::not_sent;
  if (name == "no_response") return transport_failure::no_response;
  if (name == "timeout") return transport_failure::timeout;
  if (name == "body_incomplete") return transport_failure::body_incomplete;
  if (name == "too_large") return transport_failure::too_large;
  if (name == "not_a_response") return transport_failure::not_a_response;
  return std::nullopt;
}

result<execution_options> parse_execution_options(json_value options) {
  execution_options out;
  if (options.is_null()) return out;
  if (!options.is_object()) return error{codes::invalid_option, "", "execution options must be an object", ""};
  std::optional<error> failure;
  auto size_limit = [&](json_value value, std::string_view key, std::size_t& target) {
    auto n = value.as_integer();
    if (!n || *n < 1)
      failure = error{codes::invalid_option, "limits." + std::string(key),
                      fmt::format("{} must be a whole number ≥ 1", key), ""};
    else
      target = std::size_t(*n);
  };
  options.for_each_member([&](std::string_view key, json_value value) {
    if (failure) return;
    if (key == "rowIds") {
      if (!value.is_array()) {
        failure = error{codes::invalid_option, "rowIds", "rowIds must be an array of UUIDs", ""};
        return;
      }
      value.for_each_element([&](std::size_t i, json_value id) {
        if (failure) return;
        if (!id.is_string() || !is_uuid_syntax(id.str()))
          failure = error{codes::invalid_option, fmt::format("rowIds[{}]", i), "rowIds must be an array of UUIDs", ""};
        else
          out.row_ids.push_back(canonical_uuid(id.str()));
      });
    } else if (key == "limits") {
      if (!value.is_object()) {
        failure = error{codes::invalid_option, "limits", "limits must be an object", ""};
        return;
      }
      value.for_each_member([&](std::string_view name, json_value n) {
        if (failure) return;
        execution_limits& l = out.limits;
        if (name == "maxParamsBytes")
          size_limit(n, name, l.max_params_bytes);
        else if (name == "maxStringBytes")
          size_limit(n, name, l.max_string_bytes);
        else if (name == "maxResponseBytes")
          size_limit(n, name, l.max_response_bytes);
        else if (name == "maxRows")
          size_limit(n, name, l.max_rows);
        else
          failure = error{codes::invalid_option, "limits." + detail::echoed(name),
                          fmt::format("unknown limit '{}'", detail::echoed(name)),
                          "maxParamsBytes, maxStringBytes, maxResponseBytes, maxRows"};
      });
    } else {
      failure = error{codes::invalid_option, detail::echoed(key),
                      fmt::format("unknown execution option '{}'", detail::echoed(key)), "rowIds, limits"};
    }
  });
  if (failure) return std::move(*failure);
  return out;
}

std::string execution_limits_json(const execution_limits& limits) {
  std::string out;
  json_writer w(out);
  w.begin_object();
  w.key("maxParamsBytes");
  w.integer((long long)limits.max_params_bytes);
  w.key("maxStringBytes");
  w.integer((long long)limits.max_string_bytes);
  w.key("maxResponseBytes");
  w.integer((long long)limits.max_response_bytes);
  w.key("maxRows");
  w.integer((long long)limits.max_rows);
  w.end_object();
  return out;
}

}  // namespace alfred
