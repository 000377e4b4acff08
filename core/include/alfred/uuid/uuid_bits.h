#pragma once
/// UUIDs as 128 bits: the registry's lookup key. Parsing checks the
/// 8-4-4-4-12 shape and ignores letter case, so `C696…` and `c696…` are the
/// same key without a lower-cased copy.
///
///     std::optional<uuid_bits> bits = parse_uuid_bits("C69607BB-5D2E-4B8A-9F3C-1E2D3C4B5A61");
///     uuid_text(*bits);  // "c69607bb-5d2e-4b8a-9f3c-1e2d3c4b5a61"
///
/// `uuid_bits` is a plain 16-byte value: it holds no text and borrows
/// nothing.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace alfred {

struct uuid_bits {
  std::uint64_t high = 0;
  std::uint64_t low = 0;
  friend bool operator==(const uuid_bits&, const uuid_bits&) = default;
};

/// The bits of an 8-4-4-4-12 hex UUID (either case); nothing for other text.
std::optional<uuid_bits> parse_uuid_bits(std::string_view text);

/// The canonical lower-case text (36 characters).
std::string uuid_text(uuid_bits bits);

/// A well-mixed 32-bit hash (UUIDs written by hand or by tests are not random).
inline std::uint32_t uuid_hash(uuid_bits bits) {
  const std::uint64_t mixed = (bits.high ^ (bits.low * 0x9E3779B97F4A7C15ULL)) * 0xC2B2AE3D27D4EB4FULL;
  return static_cast<std::uint32_t>(mixed >> 32);
}

}  // namespace alfred
