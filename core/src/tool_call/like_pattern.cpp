#include "alfred/tool_call/like_pattern.h"

#include <algorithm>
#include <iterator>
#include <vector>

#include "../json/json_scan.h"
#include "../json/text.h"

namespace alfred {
namespace {

struct latin_range {
  char32_t first;
  char32_t last;
  char letter;
};

constexpr latin_range kLatinLetters[] = {
#include "latin_letters.inc"
};

// The code point of the 2- or 3-byte UTF-8 sequence at `at` and its length,
// or length 0 (every accented letter of the table is 2 or 3 bytes long).
std::size_t utf8_at(std::string_view text, std::size_t at, char32_t& cp) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const auto continuation = [&](std::size_t i) { return i < text.size() && (byte(i) & 0xC0) == 0x80; };
  if ((byte(at) & 0xE0) == 0xC0 && continuation(at + 1)) {
    cp = char32_t(byte(at) & 0x1F) << 6 | char32_t(byte(at + 1) & 0x3F);
    return 2;
  }
  if ((byte(at) & 0xF0) == 0xE0 && continuation(at + 1) && continuation(at + 2)) {
    cp = char32_t(byte(at) & 0x0F) << 12 | char32_t(byte(at + 1) & 0x3F) << 6 | char32_t(byte(at + 2) & 0x3F);
    return 3;
  }
  return 0;
}

// The base letter of an accented Latin letter, or 0.
char accented_base(char32_t cp) {
  const auto* end = std::end(kLatinLetters);
  const auto* after = std::upper_bound(std::begin(kLatinLetters), end, cp,
                                       [](char32_t c, const latin_range& r) { return c < r.first; });
  if (after == std::begin(kLatinLetters)) return 0;
  const latin_range& range = *(after - 1);
  return cp <= range.last ? range.letter : 0;
}

char ascii_letter(char c) {
  const char lower = char(c | 0x20);
  return lower >= 'a' && lower <= 'z' ? lower : 0;
}

// `[eEÈ-Ëè-ë…]`: the letter in both cases and every accented form of it;
// loose, `[eÀ-ỹ]`: the letter or any accented Latin letter.
void append_letter_class(std::string& out, char letter, accent_folding accents) {
  out += '[';
  out += letter;
  if (accents == accent_folding::loose) {  // imatch folds the case of ASCII letters in every locale
    detail::append_utf8(out, std::begin(kLatinLetters)->first);
    out += '-';
    detail::append_utf8(out, (std::end(kLatinLetters) - 1)->last);
    out += ']';
    return;
  }
  out += char(letter - 'a' + 'A');  // and of the others in some
  for (const latin_range& r : kLatinLetters) {
    if (r.letter != letter) continue;
    detail::append_utf8(out, r.first);
    if (r.last > r.first + 1) out += '-';
    if (r.last > r.first) detail::append_utf8(out, r.last);
  }
  out += ']';
}

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

// The code point the literal tokens at `at` spell in UTF-8 and how many
// tokens it takes, or 0 tokens.
std::size_t literal_code_point(const std::vector<token>& tokens, std::size_t at, std::size_t end, char32_t& cp) {
  char bytes[3];
  std::size_t n = 0;
  for (; n < 3 && at + n < end && tokens[at + n].type == token::kind::literal; ++n) bytes[n] = tokens[at + n].c;
  return n == 0 ? 0 : utf8_at(std::string_view(bytes, n), 0, cp);
}

// The anchored ARE that matches what the tokens match. A leading or trailing
// "any" drops the anchor instead of writing `.*`; a `\` before a
// non-alphanumeric character makes it literal in an ARE. With accents
// folded, a letter (accented or not) is the bracket expression of its forms.
std::string regex_of(const std::vector<token>& tokens, accent_folding accents) {
  const bool fold = accents != accent_folding::none;
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
      default: {
        char32_t cp = 0;
        const std::size_t length = fold ? literal_code_point(tokens, i, end, cp) : 0;
        const char letter = !fold ? 0 : length ? accented_base(cp) : ascii_letter(tokens[i].c);
        if (letter) {
          append_letter_class(out, letter, accents);
          if (length) i += length - 1;
          break;
        }
        if (is_regex_special(tokens[i].c)) out += '\\';
        out += tokens[i].c;
      }
    }
  }
  if (!open_end) out += '$';
  return out;
}

}  // namespace

pattern_operand encode_like_pattern(std::string_view pattern, bool case_insensitive, accent_folding accents) {
  const std::vector<token> tokens = tokens_of(pattern);
  bool literal_star = false;
  bool letter = false;
  for (const token& t : tokens) {
    literal_star = literal_star || (t.type == token::kind::literal && t.c == '*');
    letter = letter || (t.type == token::kind::literal && (ascii_letter(t.c) || (t.c & 0x80)));
  }
  if (!case_insensitive || !letter) accents = accent_folding::none;
  if (!literal_star && accents == accent_folding::none)
    return {case_insensitive ? "ilike" : "like", std::string(pattern)};
  return {case_insensitive ? "imatch" : "match", regex_of(tokens, accents)};
}

accent_folding folding_within(std::string_view pattern, accent_folding wanted, std::size_t budget) {
  for (accent_folding accents = wanted; accents != accent_folding::none;
       accents = accents == accent_folding::exact ? accent_folding::loose : accent_folding::none)
    if (encode_like_pattern(pattern, true, accents).value.size() <= budget) return accents;
  return accent_folding::none;
}

std::string fold_latin(std::string_view text) {
  const std::string lower = detail::trimmed_lower(text);
  std::string out;
  out.reserve(lower.size());
  for (std::size_t i = 0; i < lower.size(); ++i) {
    char32_t cp = 0;
    const std::size_t length = (lower[i] & 0x80) ? utf8_at(lower, i, cp) : 0;
    const char base = length ? accented_base(cp) : 0;
    out += base ? base : lower[i];
    if (base) i += length - 1;
  }
  return out;
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
