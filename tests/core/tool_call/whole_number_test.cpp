// whole_number reads JSON number text exactly; the strtod reading it replaced
// is the reference wherever a double holds the number exactly.

#include <cmath>
#include <cstdlib>
#include <optional>
#include <random>
#include <string>

#include "../../../core/src/tool_call/values.h"
#include "../support.h"

namespace alfred::test {
namespace {

std::optional<long long> whole(const std::string& text, long long bound) {
  auto doc = json_document::parse(text);
  REQUIRE(doc.ok());
  return detail::whole_number(doc->root(), bound);
}

std::optional<long long> through_strtod(const std::string& text, double bound) {
  const double d = std::strtod(text.c_str(), nullptr);
  if (!std::isfinite(d) || std::floor(d) != d || std::fabs(d) >= bound) return std::nullopt;
  return static_cast<long long>(d);
}

}  // namespace

TEST_CASE("whole_number takes integral numbers in any JSON spelling") {
  const long long bound = 1'000'000'000'000'000;
  CHECK(whole("6", bound) == 6);
  CHECK(whole("-6", bound) == -6);
  CHECK(whole("6.0", bound) == 6);
  CHECK(whole("6e0", bound) == 6);
  CHECK(whole("60e-1", bound) == 6);
  CHECK(whole("0.6E1", bound) == 6);
  CHECK(whole("600E-2", bound) == 6);
  CHECK(whole("1.5e+1", bound) == 15);
  CHECK(whole("-0.0", bound) == 0);
  CHECK(whole("0e-99999999", bound) == 0);
  CHECK(whole("999999999999999", bound) == 999'999'999'999'999);
  CHECK_FALSE(whole("1e15", bound));
  CHECK_FALSE(whole("1e99999999999", bound));
  CHECK_FALSE(whole("6.5", bound));
  CHECK_FALSE(whole("65e-1", bound));
  CHECK_FALSE(whole("0.05", bound));
  CHECK_FALSE(whole("\"6\"", bound));
  CHECK_FALSE(whole("1.00000000000000000000000000000000000000000001", bound));
}

TEST_CASE("whole_number agrees with strtod on numbers a double holds exactly") {
  std::mt19937 rng(7);
  for (int i = 0; i < 20000; ++i) {
    // Up to 15 significant digits, a point anywhere, an exponent or not.
    std::string digits = std::to_string(rng() % 1000) + std::to_string(rng() % 1000000);
    digits.resize(1 + rng() % digits.size());
    digits[0] = char('1' + rng() % 9);  // JSON has no leading zeros
    std::string text = rng() % 2 ? "-" : "";
    const std::size_t point = rng() % (digits.size() + 1);
    text += point == 0 ? "0" : digits.substr(0, point);
    if (point < digits.size()) text += "." + digits.substr(point);
    if (rng() % 2) text += "e" + std::to_string(int(rng() % 30) - 15);
    if (text.find('.') != std::string::npos && text.back() == '.') text += "0";
    INFO(text);
    CHECK(whole(text, 9'000'000'000'000'000) == through_strtod(text, 9.0e15));
  }
}

}  // namespace alfred::test
