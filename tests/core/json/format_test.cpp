// The core's text formatting: placeholders in order and by position, braces,
// numbers of every integer type at their extremes, and zero-padded hex.

#include "../../../core/src/json/format.h"

#include <doctest/doctest.h>

#include <climits>
#include <cstdint>
#include <string>
#include <vector>

namespace alfred::test {

TEST_CASE("textfmt: texts, numbers at their extremes, positions, braces and hex") {
  const std::string owned = "recipes";
  CHECK(textfmt::format("{} has no column '{}'", owned, std::string_view("colour")) ==
        "recipes has no column 'colour'");
  CHECK(textfmt::format("{} and {}", "a", true) == "a and true");
  CHECK(textfmt::format("{}|{}|{}", 0, -1, 42u) == "0|-1|42");
  CHECK(textfmt::format("{}", LLONG_MIN) == "-9223372036854775808");
  CHECK(textfmt::format("{}", LLONG_MAX) == "9223372036854775807");
  CHECK(textfmt::format("{}", ULLONG_MAX) == "18446744073709551615");
  CHECK(textfmt::format("{}", std::int8_t(-128)) == "-128");
  CHECK(textfmt::format("{}", std::uint16_t(65535)) == "65535");
  CHECK(textfmt::format("{}", std::size_t(7)) == "7");
  CHECK(textfmt::format("{1} before {0}", "b", "a") == "a before b");
  CHECK(textfmt::format("{{}} {} }}", 1) == "{} 1 }");
  CHECK(textfmt::format("#{:016x}", 0xabcULL) == "#0000000000000abc");
  CHECK(textfmt::format("{:x}", -1) == "ffffffffffffffff");
  CHECK(textfmt::format("{:016x}", std::int32_t(-1)) == "ffffffffffffffff");
  CHECK(textfmt::format("{:08x}", std::uint32_t(0xbeef)) == "0000beef");
  CHECK(textfmt::format("{} {}", long(-42), static_cast<unsigned long>(42)) == "-42 42");
  CHECK(textfmt::format("{} {}", 1) == "1 {}");
  std::string out = "rows:";
  textfmt::format_to(out, " {} of {}", 3, 10);
  CHECK(out == "rows: 3 of 10");
  CHECK(textfmt::format("one of: {}", textfmt::join(std::vector<std::string>{"a", "b"}, ", ")) == "one of: a, b");
}

}  // namespace alfred::test
