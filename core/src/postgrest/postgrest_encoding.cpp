#include "alfred/postgrest/postgrest_encoding.h"

#include <algorithm>
#include <cctype>

namespace alfred {
namespace {

// A set of bytes as a 256-entry table. Every URL byte and list value goes
// through these tests; find_first_of calls memchr on the set for each byte.
class byte_set {
 public:
  constexpr explicit byte_set(std::string_view members) {
    for (char c : members) contains_[static_cast<unsigned char>(c)] = true;
  }
  constexpr bool contains(unsigned char c) const { return contains_[c]; }
  bool any_of(std::string_view text) const {
    for (unsigned char c : text)
      if (contains_[c]) return true;
    return false;
  }

 private:
  bool contains_[256] = {};
};

constexpr byte_set kUnreserved("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~");
// Inside lists and logic trees, `,` and `)` end a bare value, `(` opens a
// group, a leading `"` or `{` starts a quoted value or an array. `:` is
// quoted too, as postgrest-py does.
constexpr byte_set kListSpecial(",()\"\\{}:");

bool has_edge_space(std::string_view text) {
  return !text.empty() && (std::isspace(static_cast<unsigned char>(text.front())) ||
                           std::isspace(static_cast<unsigned char>(text.back())));
}

void append_double_quoted(std::string& out, std::string_view text) {
  out += '"';
  for (char c : text) {
    if (c == '\\' || c == '"') out += '\\';
    out += c;
  }
  out += '"';
}

}  // namespace

std::string percent_encode(std::string_view text) {
  std::string out;
  append_percent_encoded(out, text);
  return out;
}

void append_percent_encoded(std::string& out, std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  const std::size_t start = out.size();
  out.resize(start + text.size() * 3);
  char* at = out.data() + start;
  for (unsigned char c : text) {
    if (kUnreserved.contains(c)) {
      *at++ = static_cast<char>(c);
    } else {
      *at++ = '%';
      *at++ = kHex[c >> 4];
      *at++ = kHex[c & 15];
    }
  }
  out.resize(static_cast<std::size_t>(at - out.data()));
}

std::string quote_list_value(std::string_view text) {
  std::string out;
  append_list_value(out, text);
  return out;
}

void append_list_value(std::string& out, std::string_view text) {
  // Besides kListSpecial: a leading space is dropped, and an empty element
  // means "no element" (in.("") is the empty list).
  const bool needs_quotes = text.empty() || has_edge_space(text) || kListSpecial.any_of(text);
  if (needs_quotes)
    append_double_quoted(out, text);
  else
    out += text;
}

std::string array_literal(const std::vector<scalar>& elements) {
  std::string out = "{";
  bool first = true;
  for (const auto& element : elements) {
    if (!first) out += ',';
    first = false;
    const std::string& text = element.text;
    std::string lowered = text;
    std::transform(lowered.begin(), lowered.end(), lowered.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    const bool needs_quotes =
        text.empty() || lowered == "null" || text.find_first_of("{},\"\\ \t\r\n\v\f") != std::string::npos;
    if (needs_quotes)
      append_double_quoted(out, text);
    else
      out += text;
  }
  out += '}';
  return out;
}

}  // namespace alfred
