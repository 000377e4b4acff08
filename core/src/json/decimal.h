#pragma once
// Exact decimal arithmetic on JSON numbers as text, for the totals the core
// computes itself (docs/aggregates.md): a sum of `numeric` values is exact
// whatever their count and scale, an average is rounded to a fixed number of
// places, and nothing goes through a binary float (the core formats none).
//
//     auto a = decimal::parse("12.50");
//     auto total = decimal::add(*a, *decimal::parse("0.25"));  // 12.75
//     decimal::text(decimal::divide(total, 3, 6));                // "4.25"
//
// Values are owned; nothing is borrowed.

#include <optional>
#include <string>
#include <string_view>

namespace alfred::decimal {

/// A decimal: `(-1)^negative × digits × 10^-scale`, `digits` without leading
/// zeros ("0" for zero, which is never negative).
struct number {
  bool negative = false;
  std::string digits = "0";
  int scale = 0;
};

/// A JSON number's text (`12`, `-3.5`, `1e3`, `2.5E-2`), or nothing for
/// anything else or an exponent past ±400.
std::optional<number> parse(std::string_view json_number);

/// As JSON number text, without trailing zeros after the point (`4.25`, `12`).
std::string text(const number& value);

number add(const number& a, const number& b);

/// -1, 0 or 1 as `a` is less than, equal to or greater than `b`.
int compare(const number& a, const number& b);

/// `value / divisor` rounded half away from zero to `places` decimals.
number divide(const number& value, unsigned long long divisor, int places);

/// `value` rounded half away from zero to at most `places` decimals.
number round(const number& value, int places);

}  // namespace alfred::decimal
