#include "alfred/uuid/uuid_bits.h"

#include <cstring>

namespace alfred {
namespace {

// Two 64-bit lanes: 16 bytes of text per step where the target has 128-bit
// vectors (WebAssembly SIMD, SSE2), two words elsewhere. This runs for every
// UUID of every translated row, and a table lookup per hex digit showed in
// profiles.
using lanes = std::uint64_t __attribute__((vector_size(16)));

constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
constexpr std::uint64_t kHighs = 0x8080808080808080ULL;

std::uint64_t load64(const char* at) {
  std::uint64_t word;
  std::memcpy(&word, at, 8);
  return word;
}

std::uint64_t load32(const char* at) {
  std::uint32_t word;
  std::memcpy(&word, at, 4);
  return word;
}

// Eight ASCII hex digits per lane (the first in the lowest byte, as the
// targets are little-endian) as the 32-bit value they spell, byte-swapped:
// the first digit's nibble is the top of the lowest byte. `bad` gets a high
// bit for every byte that is not a hex digit.
lanes hex_values(lanes text, lanes& bad) {
  // Per byte below 0x80 (a byte above is bad, and the sums below cannot
  // carry into the next byte): x + 0x50 has its high bit from '0' up, x +
  // 0x46 from '9' + 1 up; the same with the letter case folded for a-f.
  const lanes folded = text | (kOnes * 0x20);
  const lanes digit = (text + kOnes * 0x50) & ~(text + kOnes * 0x46);
  const lanes letter = (folded + kOnes * 0x1F) & ~(folded + kOnes * 0x19);
  bad = (text | ~(digit | letter)) & kHighs;
  // A letter has bit 6 set: its low nibble plus 9 is its value.
  const lanes nibbles = (text & (kOnes * 0x0F)) + (((text >> 6) & kOnes) << 3) + ((text >> 6) & kOnes);
  // Pairs of nibbles into bytes, then the four bytes side by side.
  lanes packed = ((nibbles & 0x000F000F000F000FULL) << 4) | ((nibbles >> 8) & 0x000F000F000F000FULL);
  packed = (packed | (packed >> 8)) & 0x0000FFFF0000FFFFULL;
  return (packed | (packed >> 16)) & 0x00000000FFFFFFFFULL;
}

std::uint64_t joined(std::uint64_t first, std::uint64_t second) {
  return std::uint64_t(__builtin_bswap32(std::uint32_t(first))) << 32 | __builtin_bswap32(std::uint32_t(second));
}

// The eight lower-case hex digits of `value`, the most significant first.
void put_hex8(char* to, std::uint32_t value) {
  // One byte of `value` per 16-bit lane, the first at the bottom, then its
  // high nibble below its low one: a nibble per byte in text order.
  std::uint64_t spread = __builtin_bswap32(value);
  spread = (spread | (spread << 16)) & 0x0000FFFF0000FFFFULL;
  spread = (spread | (spread << 8)) & 0x00FF00FF00FF00FFULL;
  const std::uint64_t nibbles = ((spread >> 4) & 0x000F000F000F000FULL) | ((spread & 0x000F000F000F000FULL) << 8);
  // '0' + n, and 'a' - '0' - 10 more from 10 up (n + 6 reaches 16).
  const std::uint64_t letters = ((nibbles + kOnes * 0x06) >> 4) & kOnes;
  const std::uint64_t text = nibbles + kOnes * '0' + letters * ('a' - '0' - 10);
  std::memcpy(to, &text, 8);
}

}  // namespace

std::optional<uuid_bits> parse_uuid_bits(std::string_view text) {
  if (text.size() != 36) return std::nullopt;
  const char* s = text.data();
  if (s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-') return std::nullopt;
  // The 32 digits as four runs of eight: 0-7, 9-12 + 14-17, 19-22 + 24-27, 28-35.
  const lanes high_text = {load64(s), load32(s + 9) | load32(s + 14) << 32};
  const lanes low_text = {load32(s + 19) | load32(s + 24) << 32, load64(s + 28)};
  lanes high_bad, low_bad;
  const lanes high = hex_values(high_text, high_bad);
  const lanes low = hex_values(low_text, low_bad);
  const lanes bad = high_bad | low_bad;
  if ((bad[0] | bad[1]) != 0) return std::nullopt;
  return uuid_bits{joined(high[0], high[1]), joined(low[0], low[1])};
}

std::string uuid_text(uuid_bits bits) {
  // Written eight digits at a time over the dashes' places, which are put
  // back after: 0-7, 9-12 + 14-17, 19-22 + 24-27, 28-35.
  char text[40];
  char digits[8];
  put_hex8(text, std::uint32_t(bits.high >> 32));
  put_hex8(digits, std::uint32_t(bits.high));
  std::memcpy(text + 9, digits, 4);
  std::memcpy(text + 14, digits + 4, 4);
  put_hex8(digits, std::uint32_t(bits.low >> 32));
  std::memcpy(text + 19, digits, 4);
  std::memcpy(text + 24, digits + 4, 4);
  put_hex8(text + 28, std::uint32_t(bits.low));
  text[8] = text[13] = text[18] = text[23] = '-';
  return std::string(text, 36);
}

}  // namespace alfred
