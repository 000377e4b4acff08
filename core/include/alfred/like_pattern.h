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
///
/// The fuzzy name match also ignores accents: with `accent_insensitive` (for
/// `ilike` only), every Latin letter of the pattern, typed with or without an
/// accent, stands for that letter in either case with any accent, as a
/// bracket expression of an `imatch` regular expression
/// (`creme` → `^[cCÇçĆ-čḈḉ][rR…]…$`).

#include <cstddef>
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
pattern_operand encode_like_pattern(std::string_view pattern, bool case_insensitive, bool accent_insensitive = false);

/// The longest text (in bytes) the middleware matches ignoring accents: each
/// letter becomes a bracket expression of up to 60 characters, and the
/// request line has to stay a few kilobytes. Longer text is matched ignoring
/// case only.
inline constexpr std::size_t kAccentFoldMaxBytes = 120;

/// `text` with its ASCII letters in lower case and every accented Latin
/// letter replaced by its base letter ("Crème Brûlée" → "creme brulee");
/// every other byte unchanged.
std::string fold_latin(std::string_view text);

/// `text` as a pattern that matches only itself: `\`, `%`, `_` and `*`
/// escaped.
std::string like_literal(std::string_view text);

}  // namespace alfred
