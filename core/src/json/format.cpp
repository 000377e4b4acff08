#include "format.h"

namespace alfred::textfmt {
namespace {

void append_unsigned(std::string& out, unsigned long long value, unsigned base, std::size_t width) {
  char digits[24];
  std::size_t n = 0;
  do {
    const unsigned digit = unsigned(value % base);
    digits[n++] = char(digit < 10 ? '0' + digit : 'a' + digit - 10);
    value /= base;
  } while (value != 0);
  for (std::size_t pad = n; pad < width; ++pad) out += '0';
  while (n > 0) out += digits[--n];
}

void append_arg(std::string& out, const arg& value, std::string_view spec) {
  // `{:016x}`: zero-padded hexadecimal of the given width.
  if (!spec.empty() && spec.back() == 'x') {
    std::size_t width = 0;
    for (char c : spec.substr(0, spec.size() - 1))
      if (c >= '0' && c <= '9') width = width * 10 + std::size_t(c - '0');
    return append_unsigned(out, value.bits, 16, width);
  }
  switch (value.type) {
    case arg::kind::text:
      out += value.text();
      return;
    case arg::kind::signed_number:
      // A signed number's bits are its two's complement.
      if (static_cast<long long>(value.bits) < 0) {
        out += '-';
        return append_unsigned(out, 0ULL - value.bits, 10, 0);
      }
      return append_unsigned(out, value.bits, 10, 0);
    case arg::kind::unsigned_number:
      return append_unsigned(out, value.bits, 10, 0);
  }
}

}  // namespace

void vformat_to(std::string& out, std::string_view pattern, const arg* args, std::size_t count) {
  out.reserve(out.size() + pattern.size() + 16 * count);
  std::size_t next = 0;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if (c == '}' && i + 1 < pattern.size() && pattern[i + 1] == '}') {
      out += '}';
      ++i;
      continue;
    }
    if (c != '{') {
      out += c;
      continue;
    }
    if (i + 1 < pattern.size() && pattern[i + 1] == '{') {
      out += '{';
      ++i;
      continue;
    }
    const std::size_t close = pattern.find('}', i);
    if (close == std::string_view::npos) {
      out.append(pattern.substr(i));
      return;
    }
    std::string_view field = pattern.substr(i + 1, close - i - 1);
    std::string_view spec;
    if (const auto colon = field.find(':'); colon != std::string_view::npos) {
      spec = field.substr(colon + 1);
      field = field.substr(0, colon);
    }
    std::size_t index = next;
    if (!field.empty()) {
      index = 0;
      for (char d : field) index = index * 10 + std::size_t(d - '0');
    } else {
      ++next;
    }
    if (index < count)
      append_arg(out, args[index], spec);
    else
      out.append(pattern.substr(i, close - i + 1));
    i = close;
  }
}

std::string vformat(std::string_view pattern, const arg* args, std::size_t count) {
  std::string out;
  vformat_to(out, pattern, args, count);
  return out;
}

}  // namespace alfred::textfmt
