#include "alfred/like_pattern.h"

#include <vector>

namespace alfred {
namespace {

struct token {
  enum class kind : unsigned char { literal, any, one, star };
  kind type;
  char c = 0;
};

std::vector<token> tokens_of(std::string_view pattern) {
  std::vector<token> out;
  out.reserve(pattern.size());
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if (c == '\\') {
      // A trailing lone `\` stays a literal backslash.
      out.push_back({token::kind::literal, i + 1 < pattern.size() ? pattern[++i] : '\\'});
    } else if (c == '%') {
      out.push_back({token::kind::any});
    } else if (c == '_') {
      out.push_back({token::kind::one});
    } else if (c == '*') {
      out.push_back({token::kind::star});
    } else {
      out.push_back({token::kind::literal, c});
    }
  }
  // Leading and trailing runs of `*` are wildcards; the rest are literal.
  std::size_t first = 0;
  while (first < out.size() && out[first].type == token::kind::star) out[first++].type = token::kind::any;
  std::size_t last = out.size();
  while (last > first && out[last - 1].type == token::kind::star) out[--last].type = token::kind::any;
  for (std::size_t i = first; i < last; ++i)
    if (out[i].type == token::kind::star) out[i] = {token::kind::literal, '*'};
  return out;
}

bool is_regex_special(char c) {
  switch (c) {
    case '\\':
    case '^':
    case '$':
    case '.':
    case '|':
    case '?':
    case '*':
    case '+':
    case '(':
    case ')':
    case '[':
    case ']':
    case '{':
    case '}':
      return true;
    default:
      return false;
  }
}

// The anchored ARE that matches what the tokens match. A leading or trailing
// "any" drops the anchor instead of writing `.*`; a `\` before a
// non-alphanumeric character makes it literal in an ARE.
std::string regex_of(const std::vector<token>& tokens) {
  std::size_t begin = 0;
  std::size_t end = tokens.size();
  const bool open_start = begin < end && tokens[begin].type == token::kind::any;
  while (begin < end && tokens[begin].type == token::kind::any) ++begin;
  const bool open_end = end > begin && tokens[end - 1].type == token::kind::any;
  while (end > begin && tokens[end - 1].type == token::kind::any) --end;
  std::string out;
  out.reserve(2 * (end - begin) + 2);
  if (!open_start) out += '^';
  for (std::size_t i = begin; i < end; ++i) {
    switch (tokens[i].type) {
      case token::kind::any:
        out += ".*";
        break;
      case token::kind::one:
        out += '.';
        break;
      default:
        if (is_regex_special(tokens[i].c)) out += '\\';
        out += tokens[i].c;
    }
  }
  if (!open_end) out += '$';
  return out;
}

}  // namespace

pattern_operand encode_like_pattern(std::string_view pattern, bool case_insensitive) {
  const std::vector<token> tokens = tokens_of(pattern);
  bool literal_star = false;
  for (const token& t : tokens) literal_star = literal_star || (t.type == token::kind::literal && t.c == '*');
  if (!literal_star) return {case_insensitive ? "ilike" : "like", std::string(pattern)};
  return {case_insensitive ? "imatch" : "match", regex_of(tokens)};
}

std::string like_literal(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 4);
  for (char c : text) {
    if (c == '\\' || c == '%' || c == '_' || c == '*') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace alfred
