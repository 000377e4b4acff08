// UUIDs as 128 bits (core/src/uuid/uuid_bits.cpp): the word-wise parse and
// text checked against a digit-by-digit reference, byte by byte.

#include "alfred/uuid/uuid_bits.h"

#include <string>

#include "../support.h"

namespace alfred::test {
namespace {

// The reference: one digit at a time, as the parse was written before it
// read eight at once.
std::optional<uuid_bits> reference_bits(std::string_view text) {
  if (text.size() != 36) return std::nullopt;
  uuid_bits bits;
  int digits = 0;
  for (std::size_t i = 0; i < 36; ++i) {
    const char c = text[i];
    if (i == 8 || i == 13 || i == 18 || i == 23) {
      if (c != '-') return std::nullopt;
      continue;
    }
    int value = -1;
    if (c >= '0' && c <= '9') value = c - '0';
    if (c >= 'a' && c <= 'f') value = c - 'a' + 10;
    if (c >= 'A' && c <= 'F') value = c - 'A' + 10;
    if (value < 0) return std::nullopt;
    std::uint64_t& half = digits < 16 ? bits.high : bits.low;
    half = (half << 4) | std::uint64_t(value);
    ++digits;
  }
  return bits;
}

}  // namespace

TEST_CASE("parse_uuid_bits reads the digits as their value, either case") {
  const auto bits = parse_uuid_bits("C69607BB-5d2e-4B8A-9f3c-1E2D3C4B5A61");
  REQUIRE(bits);
  CHECK(bits->high == 0xC69607BB5D2E4B8AULL);
  CHECK(bits->low == 0x9F3C1E2D3C4B5A61ULL);
  CHECK(uuid_text(*bits) == "c69607bb-5d2e-4b8a-9f3c-1e2d3c4b5a61");
  CHECK(uuid_text({}) == "00000000-0000-0000-0000-000000000000");
  CHECK(uuid_text({~0ULL, ~0ULL}) == "ffffffff-ffff-ffff-ffff-ffffffffffff");
}

TEST_CASE("parse_uuid_bits agrees with the digit-by-digit reference for every byte at every place") {
  const std::string base = "0123abcd-ef45-6789-ABCD-EF0123456789";
  REQUIRE(parse_uuid_bits(base) == reference_bits(base));
  for (std::size_t at = 0; at < base.size(); ++at) {
    for (int byte = 0; byte < 256; ++byte) {
      std::string text = base;
      text[at] = char(byte);
      const auto ours = parse_uuid_bits(text);
      const auto theirs = reference_bits(text);
      CAPTURE(at);
      CAPTURE(byte);
      REQUIRE(ours.has_value() == theirs.has_value());
      if (ours) {
        CHECK(*ours == *theirs);
        // The text round-trips to the lower-case spelling.
        std::string lower = text;
        for (char& c : lower)
          if (c >= 'A' && c <= 'F') c = char(c - 'A' + 'a');
        CHECK(uuid_text(*ours) == lower);
      }
    }
  }
}

TEST_CASE("parse_uuid_bits: a byte above 0x7F next to a digit does not carry into it") {
  // 0xB0 + 0x50 carries out of its byte: the word-wise test must still
  // refuse the byte itself and judge its neighbours alone.
  std::string text = "c69607bb-5d2e-4b8a-9f3c-1e2d3c4b5a61";
  for (std::size_t at : {0, 7, 9, 17, 24, 35}) {
    for (int byte : {0x80, 0xB0, 0xC9, 0xE6, 0xFF}) {
      std::string broken = text;
      broken[at] = char(byte);
      CAPTURE(at);
      CHECK_FALSE(parse_uuid_bits(broken));
    }
  }
  CHECK_FALSE(parse_uuid_bits(text.substr(0, 35)));
  CHECK_FALSE(parse_uuid_bits(text + "0"));
}

}  // namespace alfred::test
