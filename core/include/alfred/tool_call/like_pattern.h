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
/// The patterns the middleware builds for a name also ignore accents
/// (`accent_folding`, for `ilike` only): every Latin letter, typed with or
/// without an accent, becomes a bracket expression of an `imatch` regular
/// expression that holds the letter in both cases and its accented forms
/// (`creme` → `^[cCÇçĆ-čḈḉ][rR…]…$`).
///
/// Pure functions: each result owns its text except `pattern_operand::op`,
/// which views a string literal and is valid for the whole program.

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

/// How a pattern the middleware builds for a name treats accents.
enum class accent_folding : unsigned char {
  /// As typed: `like`/`ilike` semantics only.
  none,
  /// A letter matches itself and its accented forms, both cases
  /// (`[eEÈ-Ëè-ë…]`, up to ~60 characters): rows shown to the model.
  exact,
  /// A letter matches itself or any accented Latin letter (`[eÀ-ỹ]`, 10
  /// bytes): a lookup whose rows the core compares again with `fold_latin`,
  /// or a name too long for `exact`.
  loose,
};

/// The wire form of `pattern` for `like` (`case_insensitive` false) or
/// `ilike`. A trailing lone `\` is taken as a literal backslash (validation
/// refuses it before this runs). `accents` applies to `ilike` only.
pattern_operand encode_like_pattern(std::string_view pattern, bool case_insensitive,
                                    accent_folding accents = accent_folding::none);

/// How many bytes of regular expression the middleware spends on one name
/// read ignoring accents, and on one name of a catalog lookup; and how many
/// bytes of names and patterns one lookup request carries (a batch with more
/// is looked up in several). Gateways in front of PostgREST commonly refuse
/// request lines over 8 KB, and a byte of these expressions takes up to
/// three in the URL.
inline constexpr std::size_t kAccentFoldBudget = 1200;
inline constexpr std::size_t kLookupFoldBudget = 1000;
inline constexpr std::size_t kLookupRequestBytes = 1600;

/// `wanted`, or the next looser folding (exact → loose → none) whose
/// regular expression for `pattern` (an `ilike` pattern) fits in `budget`
/// bytes.
accent_folding folding_within(std::string_view pattern, accent_folding wanted, std::size_t budget);

/// A name as the core compares names: trimmed of blanks, its ASCII letters
/// in lower case and every accented Latin letter replaced by its base letter
/// (" Crème Brûlée\n" → "creme brulee"); every other byte unchanged.
std::string fold_latin(std::string_view text);

/// `text` as a pattern that matches only itself: `\`, `%`, `_` and `*`
/// escaped.
std::string like_literal(std::string_view text);

}  // namespace alfred
