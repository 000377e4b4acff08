#include "alfred/postgrest_encoding.h"

#include <algorithm>
#include <cctype>

namespace alfred {
namespace {

bool is_unreserved(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
         c == '_' || c == '~';
}

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
    if (is_unreserved(c)) {
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
  // Inside lists and logic trees, `,` and `)` end a bare value, `(` opens a
  // group, a leading `"` or `{` starts a quoted value or an array, a leading
  // space is dropped, and an empty element means "no element" (in.("") is
  // the empty list). `:` is quoted too, as postgrest-py does.
  const bool needs_quotes =
      text.empty() || has_edge_space(text) || text.find_first_of(",()\"\\{}:") != std::string_view::npos;
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
