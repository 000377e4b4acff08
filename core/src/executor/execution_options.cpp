// The settings of one execution that JS passes next to the request options:
// client row ids, limits, and how a need's exchange ended.
#include <array>

#include "../json/echo.h"
#include "../json/format.h"
#include "../json/json_fields.h"
#include "alfred/executor/executor.h"
#include "alfred/uuid/uuid.h"
#include "model_result.h"

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

namespace {

constexpr std::array<std::string_view, 7> kOptionKeys{"rowIds",   "limits",  "maxAffected", "maxAffectedBy",
                                                      "forModel", "context", "aggregates"};
constexpr std::array<std::string_view, 3> kModelKeys{"rows", "chars", "fence"};
constexpr std::array<std::string_view, 2> kModelCounts{"rows", "chars"};

constexpr std::array<std::string_view, 4> kLimitKeys{"maxParamsBytes", "maxStringBytes", "maxResponseBytes", "maxRows"};

// Reads the members `keys` of `given` (each optional) into `targets`: whole
// numbers ≥ 1. A wrong one is an error at `path_prefix` + its key, named
// `message_prefix` + its key in the message.
template <std::size_t N>
std::optional<error> read_counts(const detail::object_fields& given, const std::array<std::string_view, N>& keys,
                                 const std::array<std::size_t*, N>& targets, std::string_view path_prefix,
                                 std::string_view message_prefix) {
  for (std::size_t i = 0; i < N; ++i) {
    long long n = 0;
    const detail::field_state state = detail::read_whole_number(given[keys[i]], n);
    if (state == detail::field_state::absent) continue;
    if (state == detail::field_state::wrong_type || n < 1)
      return error{codes::invalid_option, textfmt::format("{}{}", path_prefix, keys[i]),
                   textfmt::format("{}{} must be a whole number ≥ 1", message_prefix, keys[i]), ""};
    *targets[i] = std::size_t(n);
  }
  return std::nullopt;
}

// `"rowIds": [uuid…]`, each canonical.
status read_row_ids(const std::optional<json_value>& given, std::vector<std::string>& out) {
  json_value ids;
  if (detail::read_list(given, ids) == detail::field_state::wrong_type)
    return error{codes::invalid_option, "rowIds", "rowIds must be an array of UUIDs", ""};
  std::optional<error> failure;
  ids.for_each_element([&](std::size_t i, json_value id) {
    if (failure) return;
    if (!id.is_string() || !is_uuid_syntax(id.str()))
      failure = error{codes::invalid_option, textfmt::format("rowIds[{}]", i), "rowIds must be an array of UUIDs", ""};
    else
      out.push_back(canonical_uuid(id.str()));
  });
  if (failure) return std::move(*failure);
  return ok_status();
}

// `"context": {name: value}`: the values the app sets for every call.
result<std::vector<fixed_value>> read_context(const std::optional<json_value>& context) {
  std::vector<fixed_value> out;
  if (!context || context->is_null()) return out;
  if (!context->is_object())
    return error{codes::invalid_option, "context",
                 "context must be an object of column or argument name → the value the app sets",
                 "e.g. { \"account_id\": \"<the active team's id>\" }"};
  std::optional<error> failure;
  context->for_each_member([&](std::string_view name, json_value value) {
    if (failure) return;
    if (!is_identifier(name) || value.is_object())
      failure =
          error{codes::invalid_option, "context." + detail::echoed(name),
                is_identifier(name) ? "a context value is text, a number, true/false, null or a list"
                                    : textfmt::format("'{}' is not a column or argument name", detail::echoed(name)),
                ""};
    else
      out.push_back({std::string(name), std::string(value.raw())});
  });
  if (failure) return std::move(*failure);
  return out;
}

// forModel: { rows, chars, fence }, the caps of the model's text and its fence.
std::optional<error> read_for_model(std::optional<json_value> model, execution_options& out) {
  if (!model || model->is_null()) return std::nullopt;
  if (!model->is_object())
    return error{codes::invalid_option, "forModel", "forModel must be { rows, chars, fence }", ""};
  const detail::object_fields caps(*model, kModelKeys);
  if (const auto& name = caps.unknown())
    return error{codes::invalid_option, "forModel." + detail::echoed(*name),
                 textfmt::format("unknown result limit '{}'", detail::echoed(*name)), detail::key_list(kModelKeys)};
  result_limits limits;
  if (auto wrong = read_counts(caps, kModelCounts, {&limits.rows, &limits.chars}, "forModel.", "forModel."))
    return wrong;
  out.for_model = limits;
  std::string_view fence;
  if (detail::read_text(caps["fence"], fence) == detail::field_state::wrong_type ||
      (!fence.empty() && !detail::is_fence_marker(fence)))
    return error{codes::invalid_option, "forModel.fence", "forModel.fence must be 6 to 64 letters and digits", ""};
  out.model_fence = std::string(fence);
  return std::nullopt;
}

// limits: the execution's bounds (execution_limits), each a whole number > 0.
std::optional<error> read_limits(std::optional<json_value> limits, execution_limits& l) {
  if (!limits || limits->is_null()) return std::nullopt;
  if (!limits->is_object()) return error{codes::invalid_option, "limits", "limits must be an object", ""};
  const detail::object_fields given(*limits, kLimitKeys);
  if (const auto& name = given.unknown())
    return error{codes::invalid_option, "limits." + detail::echoed(*name),
                 textfmt::format("unknown limit '{}'", detail::echoed(*name)), detail::key_list(kLimitKeys)};
  return read_counts(given, kLimitKeys, {&l.max_params_bytes, &l.max_string_bytes, &l.max_response_bytes, &l.max_rows},
                     "limits.", "");
}

}  // namespace

result<execution_options> parse_execution_options(json_value options) {
  execution_options out;
  if (options.is_null()) return out;
  if (!options.is_object()) return error{codes::invalid_option, "", "execution options must be an object", ""};
  const detail::object_fields fields(options, kOptionKeys);
  if (const auto& key = fields.unknown())
    return error{codes::invalid_option, detail::echoed(*key),
                 textfmt::format("unknown execution option '{}'", detail::echoed(*key)), detail::key_list(kOptionKeys)};

  if (auto ok = read_row_ids(fields["rowIds"], out.row_ids); !ok) return ok.take_error();

  long long max_affected = 0;
  const detail::field_state affected = detail::read_whole_number(fields["maxAffected"], max_affected);
  if (affected == detail::field_state::wrong_type || max_affected < 0)
    return error{codes::invalid_option, "maxAffected", "maxAffected must be a whole number ≥ 0 (0: no limit)", ""};
  out.max_affected = std::size_t(max_affected);
  std::string_view by;
  if (detail::read_text(fields["maxAffectedBy"], by) == detail::field_state::wrong_type ||
      (!by.empty() && by != "header" && by != "count"))
    return error{codes::invalid_option, "maxAffectedBy", "maxAffectedBy must be \"header\" or \"count\"", ""};
  if (by == "count") out.max_affected_by = max_affected_check::count;

  if (auto wrong = read_for_model(fields["forModel"], out)) return std::move(*wrong);

  std::string_view aggregates;
  if (detail::read_text(fields["aggregates"], aggregates) == detail::field_state::wrong_type ||
      (!aggregates.empty() && aggregates != "on" && aggregates != "off" && aggregates != "unknown"))
    return error{codes::invalid_option, "aggregates", "aggregates must be \"on\", \"off\" or \"unknown\"", ""};
  out.aggregates = aggregates == "on"    ? aggregates_support::on
                   : aggregates == "off" ? aggregates_support::off
                                         : aggregates_support::unknown;

  if (auto fixed = read_context(fields["context"])) {
    out.fixed = std::move(*fixed);
  } else {
    return fixed.take_error();
  }

  if (auto wrong = read_limits(fields["limits"], out.limits)) return std::move(*wrong);
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
