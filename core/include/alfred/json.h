#pragma once
/// The JSON type used throughout the core. `ordered_json` keeps object keys in
/// insertion order, so request bodies and `columns=` lists come out in the
/// order the model wrote them (as `JSON.stringify` and postgrest-js do).

#include <nlohmann/json.hpp>

namespace alfred {
using json = nlohmann::ordered_json;

/// Serializes like `JSON.stringify` (compact, UTF-8 kept as is). Invalid
/// UTF-8 is replaced with U+FFFD rather than aborting.
inline std::string to_json_text(const json& value) {
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

/// The JSON type name of a value, for error messages ("got a string").
const char* json_kind(const json& value);
}  // namespace alfred
