#include "decimal.h"

#include <algorithm>

namespace alfred::decimal {
namespace {

void trim(number& value) {
  const auto first = value.digits.find_first_not_of('0');
  value.digits = first == std::string::npos ? "0" : value.digits.substr(first);
  // Trailing zeros after the point carry nothing.
  while (value.scale > 0 && value.digits.size() > 1 && value.digits.back() == '0') {
    value.digits.pop_back();
    --value.scale;
  }
  if (value.digits == "0") {
    value.negative = false;
    value.scale = 0;
  }
}

// `digits` written at a larger scale (zeros appended).
std::string scaled(const number& value, int to_scale) {
  return value.digits + std::string(std::size_t(to_scale - value.scale), '0');
}

// Magnitudes as digit strings of equal scale (leading zeros ignored).
int compare_digits(std::string_view a, std::string_view b) {
  a.remove_prefix(std::min(a.find_first_not_of('0'), a.size()));
  b.remove_prefix(std::min(b.find_first_not_of('0'), b.size()));
  if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
  const int c = a.compare(b);
  return c < 0 ? -1 : c > 0 ? 1 : 0;
}

std::string add_digits(const std::string& a, const std::string& b) {
  std::string out;
  int carry = 0;
  for (std::size_t i = 0; i < std::max(a.size(), b.size()) || carry; ++i) {
    const int x = i < a.size() ? a[a.size() - 1 - i] - '0' : 0;
    const int y = i < b.size() ? b[b.size() - 1 - i] - '0' : 0;
    const int sum = x + y + carry;
    out.push_back(char('0' + sum % 10));
    carry = sum / 10;
  }
  std::reverse(out.begin(), out.end());
  return out;
}

// a - b for a >= b.
std::string subtract_digits(const std::string& a, const std::string& b) {
  std::string out;
  int borrow = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    int x = a[a.size() - 1 - i] - '0' - borrow;
    const int y = i < b.size() ? b[b.size() - 1 - i] - '0' : 0;
    borrow = x < y ? 1 : 0;
    out.push_back(char('0' + x + borrow * 10 - y));
  }
  std::reverse(out.begin(), out.end());
  return out;
}

}  // namespace

std::optional<number> parse(std::string_view text) {
  number out;
  std::size_t at = 0;
  if (at < text.size() && text[at] == '-') {
    out.negative = true;
    ++at;
  }
  std::string digits;
  int scale = 0;
  bool point = false;
  bool any = false;
  for (; at < text.size(); ++at) {
    const char c = text[at];
    if (c >= '0' && c <= '9') {
      digits.push_back(c);
      any = true;
      if (point) ++scale;
    } else if (c == '.' && !point) {
      point = true;
    } else {
      break;
    }
  }
  if (!any) return std::nullopt;
  if (at < text.size()) {
    if (text[at] != 'e' && text[at] != 'E') return std::nullopt;
    ++at;
    bool negative_exponent = false;
    if (at < text.size() && (text[at] == '+' || text[at] == '-')) negative_exponent = text[at++] == '-';
    int exponent = 0;
    bool exponent_digits = false;
    for (; at < text.size() && text[at] >= '0' && text[at] <= '9'; ++at) {
      exponent = exponent * 10 + (text[at] - '0');
      exponent_digits = true;
      if (exponent > 400) return std::nullopt;
    }
    if (!exponent_digits || at != text.size()) return std::nullopt;
    scale += negative_exponent ? exponent : -exponent;
  }
  if (scale < 0) {
    digits.append(std::size_t(-scale), '0');
    scale = 0;
  }
  out.digits = std::move(digits);
  out.scale = scale;
  trim(out);
  return out;
}

std::string text(const number& value) {
  std::string out = value.negative ? "-" : "";
  if (value.scale == 0) return out + value.digits;
  std::string digits = value.digits;
  if (digits.size() <= std::size_t(value.scale)) digits.insert(0, std::size_t(value.scale) + 1 - digits.size(), '0');
  out.append(digits, 0, digits.size() - std::size_t(value.scale));
  out += '.';
  out.append(digits, digits.size() - std::size_t(value.scale), std::string::npos);
  return out;
}

number add(const number& a, const number& b) {
  const int scale = std::max(a.scale, b.scale);
  const std::string x = scaled(a, scale);
  const std::string y = scaled(b, scale);
  number out;
  out.scale = scale;
  if (a.negative == b.negative) {
    out.negative = a.negative;
    out.digits = add_digits(x, y);
  } else if (compare_digits(x, y) >= 0) {
    out.negative = a.negative;
    out.digits = subtract_digits(x, y);
  } else {
    out.negative = b.negative;
    out.digits = subtract_digits(y, x);
  }
  trim(out);
  return out;
}

int compare(const number& a, const number& b) {
  if (a.negative != b.negative) return a.negative ? -1 : 1;
  const int scale = std::max(a.scale, b.scale);
  const int magnitude = compare_digits(scaled(a, scale), scaled(b, scale));
  return a.negative ? -magnitude : magnitude;
}

number divide(const number& value, unsigned long long divisor, int places) {
  if (divisor == 0) return {};
  // Long division of digits × 10^(places + 1), then rounding the last digit.
  const std::string dividend = value.digits + std::string(std::size_t(places + 1), '0');
  std::string quotient;
  unsigned long long remainder = 0;
  // The remainder stays below the divisor, a count of rows: times ten it fits.
  for (char c : dividend) {
    const unsigned long long current = remainder * 10 + unsigned(c - '0');
    quotient.push_back(char('0' + int(current / divisor)));
    remainder = current % divisor;
  }
  number out;
  out.negative = value.negative;
  out.digits = quotient;
  out.scale = value.scale + places + 1;
  trim(out);
  return round(out, places);
}

number round(const number& value, int places) {
  if (value.scale <= places) return value;
  const std::size_t drop = std::size_t(value.scale - places);
  std::string digits = value.digits;
  if (digits.size() <= drop) digits.insert(0, drop + 1 - digits.size(), '0');
  const bool up = digits[digits.size() - drop] >= '5';
  digits.resize(digits.size() - drop);
  number out;
  out.negative = value.negative;
  out.digits = up ? add_digits(digits, "1") : digits;
  out.scale = places;
  trim(out);
  return out;
}

}  // namespace alfred::decimal
