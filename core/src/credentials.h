#pragma once
// Checks on the keys and tokens a request would carry. A user's request must
// never carry a key that bypasses row-level security.

#include <string>
#include <string_view>

#include "alfred/error.h"

namespace alfred::detail {

/// The `role` claim of a JWT's payload, or "" when the text is not a JWT
/// (signature is not checked; only the server can do that).
std::string jwt_role(std::string_view token);

/// Refuses service/secret keys and header-unsafe characters. `field` names
/// the option in errors (`apiKey`, `accessToken`).
status check_credential(std::string_view value, std::string_view field);

/// Whether Supabase expects this key as a Bearer token too: legacy anon keys
/// are JWTs; new `sb_publishable_…` keys "must never be sent as a Bearer token".
bool is_bearer_key(std::string_view api_key);

}  // namespace alfred::detail
