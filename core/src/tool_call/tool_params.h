#pragma once
// The one place where params written under a strict schema become the params
// a tool takes. OpenAI strict structured outputs make the model write every
// property (null for the ones it means to leave out) and give free-form rows
// as JSON text; both the tool-call parser and the ActDecision parser read
// params through these rules, so a strict-mode call and a plain one validate
// the same way.

#include <string>
#include <string_view>

#include "alfred/error.h"
#include "alfred/json.h"
#include "alfred/tool_call.h"

namespace alfred::detail {

/// True when a params member stands for "not given": null, under any key (a
/// strict schema makes the model write every property).
bool is_absent_param(json_value value);

/// `data` given as JSON text (strict mode): the parsed rows, which must be an
/// object or an array. `path` is where `data` sits ("data", "params.data");
/// a text that does not parse, or parses to a scalar, is an `invalid_data`
/// error there.
result<json_document> parse_data_text(std::string_view text, const std::string& path);

}  // namespace alfred::detail
