// Exact decimal arithmetic on JSON numbers as text: what totals and averages
// computed by the core (db_aggregate without the server's aggregates) rest on.
#include "../../../core/src/json/decimal.h"

#include <doctest/doctest.h>

#include <string>

namespace alfred::test {
namespace {

std::string sum(std::string_view a, std::string_view b) {
  return decimal::text(decimal::add(*decimal::parse(a), *decimal::parse(b)));
}

}  // namespace

TEST_CASE("decimal: JSON numbers read and written back without trailing zeros") {
  CHECK(decimal::text(*decimal::parse("12")) == "12");
  CHECK(decimal::text(*decimal::parse("12.50")) == "12.5");
  CHECK(decimal::text(*decimal::parse("-0.0")) == "0");
  CHECK(decimal::text(*decimal::parse("1e3")) == "1000");
  CHECK(decimal::text(*decimal::parse("2.5E-2")) == "0.025");
  CHECK(decimal::text(*decimal::parse("-7.125e+1")) == "-71.25");
  CHECK_FALSE(decimal::parse("abc"));
  CHECK_FALSE(decimal::parse("1e"));
  CHECK_FALSE(decimal::parse("1e999"));
  CHECK_FALSE(decimal::parse("\"5\""));
}

TEST_CASE("decimal: sums are exact, signs and scales mixed") {
  CHECK(sum("0.1", "0.2") == "0.3");
  CHECK(sum("12.75", "-0.25") == "12.5");
  CHECK(sum("-3", "1.5") == "-1.5");
  CHECK(sum("-3", "3") == "0");
  CHECK(sum("99999999999999999999", "1") == "100000000000000000000");
  CHECK(sum("9007199254740993", "0") == "9007199254740993");  // past 2^53: every digit kept
}

TEST_CASE("decimal: comparison, division and rounding half away from zero") {
  CHECK(decimal::compare(*decimal::parse("2.50"), *decimal::parse("2.5")) == 0);
  CHECK(decimal::compare(*decimal::parse("-2"), *decimal::parse("1")) == -1);
  CHECK(decimal::compare(*decimal::parse("-2"), *decimal::parse("-10")) == 1);
  CHECK(decimal::compare(*decimal::parse("10"), *decimal::parse("9.99")) == 1);
  CHECK(decimal::text(decimal::divide(*decimal::parse("10"), 3, 6)) == "3.333333");
  CHECK(decimal::text(decimal::divide(*decimal::parse("20"), 3, 6)) == "6.666667");
  CHECK(decimal::text(decimal::divide(*decimal::parse("-1"), 8, 2)) == "-0.13");
  CHECK(decimal::text(decimal::divide(*decimal::parse("12.5"), 5, 6)) == "2.5");
  CHECK(decimal::text(decimal::round(*decimal::parse("20.0000000000000000"), 6)) == "20");
  CHECK(decimal::text(decimal::round(*decimal::parse("0.9999996"), 6)) == "1");
}

}  // namespace alfred::test
