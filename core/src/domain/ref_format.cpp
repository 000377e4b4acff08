#include "alfred/domain/ref_format.h"

#include <charconv>

#include "alfred/domain/domain.h"

namespace alfred {

namespace {

// "gen_": what a generated ref starts with.
constexpr std::string_view kGeneratedMarker = "gen_";
static_assert(kGeneratedMarker.substr(0, kGeneratedRefPrefix.size()) == kGeneratedRefPrefix);

}  // namespace

std::string ref_text(std::string_view prefix, long number, bool generated) {
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, number).ptr;
  std::string ref;
  ref.reserve((generated ? kGeneratedMarker.size() : 0) + prefix.size() + 1 + std::size_t(end - digits));
  if (generated) ref += kGeneratedMarker;
  ref += prefix;
  ref += '_';
  ref.append(digits, end);
  return ref;
}

std::string generated_ref_prefix(std::string_view prefix) {
  std::string out(kGeneratedMarker);
  out += prefix;
  return out;
}

std::string ref_pattern(std::string_view prefix) {
  std::string out(prefix);
  out += "_N";
  return out;
}

bool is_ref_prefix(std::string_view prefix) {
  return is_identifier(prefix) && prefix != kGeneratedRefPrefix && prefix.rfind(kGeneratedMarker, 0) != 0 &&
         prefix.back() != '_' && prefix != kCurrentUserRef;
}

std::optional<ref_name> parse_ref_name(std::string_view text) {
  const auto last = text.rfind('_');
  if (last == std::string_view::npos || last == 0 || last + 1 >= text.size()) return std::nullopt;
  const auto digits = text.substr(last + 1);
  if (digits.size() > 9 || digits[0] == '0') return std::nullopt;
  long number = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    number = number * 10 + (c - '0');
  }
  ref_name name;
  name.number = number;
  auto prefix = text.substr(0, last);
  if (prefix.rfind(kGeneratedMarker, 0) == 0) {
    name.generated = true;
    prefix.remove_prefix(kGeneratedMarker.size());
  }
  if (prefix.empty()) return std::nullopt;
  for (char c : prefix)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return std::nullopt;
  name.prefix = std::string(prefix);
  return name;
}

}  // namespace alfred
