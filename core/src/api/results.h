#pragma once
// Helpers shared by the files of the core's text API (alfred/api/api.h).

#include <string>
#include <string_view>

#include "alfred/json/error.h"

namespace alfred::api {

/// `unknown_table` for a table name the domain does not have.
error unknown_table(std::string_view name);
/// `{"data":"<text>"}`.
std::string quoted_data(std::string_view text);

}  // namespace alfred::api
