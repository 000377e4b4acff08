#include "alfred/uuid/uuid_bits.h"

#include <array>

namespace alfred {
namespace {

// Hex digit values; 0xFF for every other byte, so one lookup both checks and
// converts (this runs for every UUID of every translated row).
constexpr std::array<std::uint8_t, 256> kHexValue = [] {
  std::array<std::uint8_t, 256> table{};
  for (auto& value : table) value = 0xFF;
  for (int c = '0'; c <= '9'; ++c) table[c] = std::uint8_t(c - '0');
  for (int c = 'a'; c <= 'f'; ++c) table[c] = std::uint8_t(c - 'a' + 10);
  for (int c = 'A'; c <= 'F'; ++c) table[c] = std::uint8_t(c - 'A' + 10);
  return table;
}();

// Reads `count` hex digits at `text` into `into`; false on a non-hex byte.
bool read_hex(const char* text, int count, std::uint64_t& into) {
  std::uint8_t seen = 0;
  for (int i = 0; i < count; ++i) {
    const std::uint8_t digit = kHexValue[static_cast<unsigned char>(text[i])];
    seen |= digit;
    into = (into << 4) | (digit & 0x0F);
  }
  return (seen & 0xF0) == 0;
}

}  // namespace

std::optional<uuid_bits> parse_uuid_bits(std::string_view text) {
  if (text.size() != 36 || text[8] != '-' || text[13] != '-' || text[18] != '-' || text[23] != '-') return std::nullopt;
  const char* s = text.data();
  uuid_bits bits;
  if (!read_hex(s, 8, bits.high) || !read_hex(s + 9, 4, bits.high) || !read_hex(s + 14, 4, bits.high) ||
      !read_hex(s + 19, 4, bits.low) || !read_hex(s + 24, 12, bits.low))
    return std::nullopt;
  return bits;
}

std::string uuid_text(uuid_bits bits) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out(36, '-');
  auto put = [&](std::uint64_t value, int digits, std::size_t at) {
    for (int i = digits - 1; i >= 0; --i, value >>= 4) out[at + std::size_t(i)] = kDigits[value & 0x0F];
  };
  put(bits.high >> 32, 8, 0);
  put(bits.high >> 16, 4, 9);
  put(bits.high, 4, 14);
  put(bits.low >> 48, 4, 19);
  put(bits.low, 12, 24);
  return out;
}

}  // namespace alfred
