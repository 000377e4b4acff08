#pragma once
/// UUID checks for values the model writes where a row id is expected. The
/// model never sees UUIDs, so one in its output was pasted by the user,
/// copied from a place it should not have seen, or invented. Syntax and the
/// RFC 9562 version/variant bits are checkable; existence is not (that needs
/// the database).
///
///     is_uuid_syntax("C69607BB-5D2E-4B8A-9F3C-1E2D3C4B5A61");        // true
///     canonical_uuid("C69607BB-5D2E-4B8A-9F3C-1E2D3C4B5A61");        // "c69607bb-5d2e-4b8a-9f3c-1e2d3c4b5a61"
///     implausible_uuid_reason("00000000-0000-0000-0000-000000000000");  // "it is the nil UUID"
///
/// Pure functions: `canonical_uuid` returns a new string, and the reasons
/// are static text.

#include <string>
#include <string_view>

namespace alfred {

/// 8-4-4-4-12 hex digits, either case.
bool is_uuid_syntax(std::string_view text);

/// Lower-cases a syntactically valid UUID (PostgreSQL prints lower case).
std::string canonical_uuid(std::string_view text);

/// Starts with 8 hex digits and holds only hex digits and dashes, but is not a
/// complete UUID: a truncated or mangled copy (a date is not one).
bool looks_like_broken_uuid(std::string_view text);

/// Why a syntactically valid UUID cannot come from a database, or "" when it
/// could. Generators (gen_random_uuid, uuidv7, …) always set a version nibble
/// 1–8 and the RFC variant bits, so the nil UUID, `…-0000-0000-…` padding and
/// well-known documentation examples are caught here.
std::string_view implausible_uuid_reason(std::string_view canonical);

}  // namespace alfred
