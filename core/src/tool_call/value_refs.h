#pragma once
// What values.cpp takes from value_refs.cpp besides resolve_row_ref
// (declared in values.h): the key `me` stands for.

#include <string>
#include <string_view>

#include "alfred/json/error.h"
#include "param_path.h"
#include "values.h"

namespace alfred::detail {

/// The signed-in user's id, canonical, for `me` written in `field`; an
/// error (not_signed_in) when nobody is signed in.
result<std::string> current_user_key(const value_scope& scope, const param_path& path, std::string_view field);

}  // namespace alfred::detail
