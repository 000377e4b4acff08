#include "content_range.h"

#include "../json/format.h"

namespace alfred::detail {
namespace {

error bad_range(std::string_view header) {
  constexpr std::size_t kShown = 40;
  return {codes::invalid_response, "",
          textfmt::format("the database sent an unusable Content-Range total: \"{}{}\"", header.substr(0, kShown),
                          header.size() > kShown ? "…" : ""),
          textfmt::format("a total is a whole number up to {}; this is a server problem, not a tool-call problem",
                          kMaxCountTotal)};
}

}  // namespace

result<std::optional<long long>> content_range_total(std::string_view header) {
  while (!header.empty() && (header.back() == ' ' || header.back() == '\t')) header.remove_suffix(1);
  if (header.empty()) return std::optional<long long>();
  const auto slash = header.rfind('/');
  if (slash == std::string_view::npos) return bad_range(header);
  const std::string_view total = header.substr(slash + 1);
  if (total == "*") return std::optional<long long>();
  if (total.empty()) return bad_range(header);
  long long value = 0;
  for (char c : total) {
    if (c < '0' || c > '9') return bad_range(header);
    const int digit = c - '0';
    if (value > (kMaxCountTotal - digit) / 10) return bad_range(header);
    value = value * 10 + digit;
  }
  return std::optional<long long>(value);
}

}  // namespace alfred::detail
