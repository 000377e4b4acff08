#pragma once
/// LIKE patterns on the wire (docs/pattern-encoding.md). The pattern language
/// the model writes, and the middleware builds, is PostgreSQL's LIKE with
/// one addition:
///
/// - `%` any text, `_` one character, `\` makes the next character literal;
/// - `*` at the start or the end of the pattern (a leading or trailing run)
///   is a wildcard like `%` (PostgREST's spelling, `*chicken*`); any other
///   `*`, and `\*` anywhere, is a literal `*`.
///
/// PostgREST turns every `*` of a like/ilike value into `%` and has no escape
/// for it, so a pattern with a literal `*` cannot be sent as like/ilike: it
/// goes as the POSIX regular expression that matches the same strings
/// (`match`/`imatch`, PostgreSQL's `~`/`~*`). Every other pattern is sent
/// unchanged.
///
///   encode_like_pattern("%chicken%", true)   → {"ilike", "%chicken%"}
///   encode_like_pattern("*star\\*item*", true) → {"imatch", "star\\*item"}
///   encode_like_pattern("star*item", false)  → {"match", "^star\\*item$"}

#include <string>
#include <string_view>

namespace alfred {

/// The PostgREST operator (without `not.`) and value for a LIKE pattern.
struct pattern_operand {
  /// `like`, `ilike`, `match` or `imatch`.
  std::string_view op;
  std::string value;
};

/// The wire form of `pattern` for `like` (`case_insensitive` false) or
/// `ilike`. A trailing lone `\` is taken as a literal backslash (validation
/// refuses it before this runs).
pattern_operand encode_like_pattern(std::string_view pattern, bool case_insensitive);

/// `text` as a pattern that matches only itself: `\`, `%`, `_` and `*`
/// escaped.
std::string like_literal(std::string_view text);

}  // namespace alfred
