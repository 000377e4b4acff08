#pragma once
// Refs: the names the model uses for rows (`recipe_3`) and for generated
// artifacts not saved yet (`gen_recipe_1`), and `me` for the signed-in user.
// Their text is written and read here and nowhere else: the registry makes
// refs with ref_text, hints and tool descriptions show ref_text(prefix, 1)
// and ref_pattern(prefix), domains check prefixes with is_ref_prefix, and
// parse_ref_name (core.parseRef in JS) reads them back. A change of the
// format is a change of this file (docs/architecture.md, "A change to the
// ref format").
//
//     ref_text("recipe", 3)          // "recipe_3"
//     ref_text("recipe", 1, true)    // "gen_recipe_1"
//     ref_pattern("recipe")          // "recipe_N"
//     parse_ref_name("gen_recipe_1") // {generated: true, prefix: "recipe", number: 1}
//
// Pure functions: each returns a new string, or a ref_name that owns its
// prefix; nothing borrows the text it reads.

#include <optional>
#include <string>
#include <string_view>

namespace alfred {

/// The ref prefix no table may take: it and `<it>_…` name generated content.
inline constexpr std::string_view kGeneratedRefPrefix = "gen";
/// The ref of the signed-in user (a user-id column's value, the key of the
/// user's own row in a table keyed by user ids); never a table's prefix.
inline constexpr std::string_view kCurrentUserRef = "me";

/// The largest ref number (`recipe_999999999`, nine digits). Allocation and
/// restore share it: a counter never passes it, so every state `to_json`
/// writes can be restored. A prefix whose counter reached it gets no new ref
/// (`registry_full`).
inline constexpr long kMaxRefNumber = 999999999;

/// Parsed form of a ref string.
struct ref_name {
  bool generated = false;
  std::string prefix;
  long number = 0;
};

/// `<prefix>_<number>`, or `gen_<prefix>_<number>` for generated content.
std::string ref_text(std::string_view prefix, long number, bool generated = false);

/// What the refs of a table's generated content start with: `gen_<prefix>`.
std::string generated_ref_prefix(std::string_view prefix);

/// How the refs of a table are named in descriptions and hints: `<prefix>_N`.
std::string ref_pattern(std::string_view prefix);

/// Whether a table may take `prefix` for its refs: a lower-case identifier
/// (`is_identifier`) that does not end in `_`, is not `gen` or `gen_…`
/// (generated content) and is not `me` (the signed-in user).
bool is_ref_prefix(std::string_view prefix);

/// Splits `recipe_12` / `gen_meal_3` into prefix and number (1 to
/// `kMaxRefNumber`). No registry or domain lookup: it only says whether the
/// text has the shape of a ref.
std::optional<ref_name> parse_ref_name(std::string_view text);

}  // namespace alfred
