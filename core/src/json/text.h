#pragma once
// Small text helpers the readers above share.

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>
#include <vector>

namespace alfred::detail {

/// `text` without leading and trailing `blanks`, in ASCII lower case
/// ("  Butter Chicken\n" → "butter chicken").
inline std::string trimmed_lower(std::string_view text, std::string_view blanks = " \t\r\n") {
  const auto begin = text.find_first_not_of(blanks);
  if (begin == std::string_view::npos) return {};
  const auto end = text.find_last_not_of(blanks);
  std::string out(text.substr(begin, end - begin + 1));
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return out;
}

/// The items of a list separated by `separator`, as written ("a,b" → a, b;
/// "" → one empty item).
inline std::vector<std::string> split_list(std::string_view text, char separator = ',') {
  std::vector<std::string> out;
  for (std::size_t from = 0; from <= text.size();) {
    const auto at = std::min(text.find(separator, from), text.size());
    out.emplace_back(text.substr(from, at - from));
    from = at + 1;
  }
  return out;
}

}  // namespace alfred::detail
