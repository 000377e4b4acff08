#include "alfred/uuid/uuid.h"

#include <algorithm>
#include <array>

#include "alfred/uuid/uuid_bits.h"

namespace alfred {
namespace {

bool is_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

}  // namespace

// The same check as parsing the bits, which tests eight digits at a time.
bool is_uuid_syntax(std::string_view text) { return parse_uuid_bits(text).has_value(); }

std::string canonical_uuid(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](char c) { return (c >= 'A' && c <= 'F') ? char(c - 'A' + 'a') : c; });
  return out;
}

bool looks_like_broken_uuid(std::string_view text) {
  if (text.size() < 8 || text.size() > 40 || is_uuid_syntax(text)) return false;
  // It starts like a UUID (8 hex digits, then a dash or more hex) and has
  // nothing but hex and dashes: a date such as 2026-02-01 does not qualify.
  const bool starts_like_uuid =
      std::all_of(text.begin(), text.begin() + 8, is_hex) && (text.size() == 8 || text[8] == '-' || is_hex(text[8]));
  return starts_like_uuid && std::all_of(text.begin(), text.end(), [](char c) { return is_hex(c) || c == '-'; });
}

std::string_view implausible_uuid_reason(std::string_view canonical) {
  // Example UUIDs from RFC 4122/9562, Wikipedia and common docs that models
  // reproduce when they make an id up.
  static constexpr std::array<std::string_view, 4> kExamples{
      "123e4567-e89b-12d3-a456-426614174000", "123e4567-e89b-12d3-a456-426655440000",
      "550e8400-e29b-41d4-a716-446655440000", "f81d4fae-7dec-11d0-a765-00a0c91e6bf6"};
  if (canonical == "00000000-0000-0000-0000-000000000000") return "it is the nil UUID";
  if (canonical == "ffffffff-ffff-ffff-ffff-ffffffffffff") return "it is the max UUID";
  if (std::find(kExamples.begin(), kExamples.end(), canonical) != kExamples.end())
    return "it is a well-known example UUID from documentation";
  const char version = canonical[14];
  if (version < '1' || version > '8') return "its version digit is not 1-8, which no UUID generator produces";
  const char variant = canonical[19];
  if (variant != '8' && variant != '9' && variant != 'a' && variant != 'b')
    return "its variant digit is not 8, 9, a or b, which no UUID generator produces";
  return {};
}

}  // namespace alfred
