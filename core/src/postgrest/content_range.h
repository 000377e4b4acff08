#pragma once
// The total of a PostgREST `Content-Range` header (`0-24/3573`, `*/0`),
// asked for with `Prefer: count=…`.

#include <optional>
#include <string_view>

#include "alfred/json/error.h"

namespace alfred::detail {

/// The largest total reported as a count: 2^53 - 1, the largest integer a
/// JSON reader in JavaScript keeps exact.
inline constexpr long long kMaxCountTotal = 9007199254740991LL;

/// The total after the `/`: nothing for an absent header or an unknown total
/// (`0-9/*`); an `invalid_response` error for anything else that is not a
/// whole number up to `kMaxCountTotal` (a server that claims more rows than
/// that is broken, and a clamped number would be a wrong count).
result<std::optional<long long>> content_range_total(std::string_view header);

}  // namespace alfred::detail
