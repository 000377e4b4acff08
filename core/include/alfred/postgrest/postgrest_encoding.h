#pragma once
/// The two layers of PostgREST's URL grammar (docs/postgrest-wire.md#two-encoding-layers):
/// first the PostgREST grammar on the decoded text (quoting inside `in.(…)`,
/// `or=(…)` and array literals), then percent-encoding of the finished key
/// and value. Percent-encoding never protects grammar characters.
///
///     quote_list_value("a,b") == R"("a,b")"                     // a bare comma would end the element
///     percent_encode(quote_list_value("a,b")) == "%22a%2Cb%22"  // what the URL carries
///     percent_encode("crème brûlée") == "cr%C3%A8me%20br%C3%BBl%C3%A9e"
///
/// Pure functions: every result is a new string the caller owns (or text
/// appended to the caller's `out`); nothing is kept between calls.

#include <string>
#include <string_view>
#include <vector>

#include "alfred/tool_call/tool_call.h"

namespace alfred {

/// Percent-encodes every byte outside `A-Z a-z 0-9 - . _ ~` (RFC 3986
/// unreserved), so `+`, `;`, `&`, `#`, `%` and non-ASCII are always safe.
std::string percent_encode(std::string_view text);
/// The same, appended to `out`.
void append_percent_encoded(std::string& out, std::string_view text);

/// An element of an `in.(…)` list or a value inside `or=(…)`: bare when that
/// is unambiguous, else `"…"` with `\` and `"` escaped.
std::string quote_list_value(std::string_view text);
/// The same, appended to `out`.
void append_list_value(std::string& out, std::string_view text);

/// A PostgreSQL array literal `{a,"b c"}` for cs/cd/ov on array columns;
/// elements are quoted whenever the array grammar would misread them.
std::string array_literal(const std::vector<scalar>& elements);

}  // namespace alfred
