#pragma once
// Checks on the keys and tokens a request would carry. A user's request must
// never carry a key that bypasses row-level security.

#include <string>
#include <string_view>

#include "alfred/json/error.h"

namespace alfred::detail {

/// The claims of a JWT's payload this side needs. Decoded without checking
/// the signature (only the server can do that): good for telling the user
/// id and refusing obvious mistakes, never for trusting the token.
struct jwt_claims {
  /// Whether the text is a JWT with a JSON object payload.
  bool is_jwt = false;
  /// The `role` claim, or "".
  std::string role;
  /// The `sub` claim (the user id), or "" when absent or not a string.
  std::string sub;
};

/// The claims of `token`; `is_jwt` is false when the text is not a JWT.
jwt_claims decode_jwt_claims(std::string_view token);

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
