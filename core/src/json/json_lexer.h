#pragma once
// The core's one JSON tokenizer. The document parser (json.cpp) and the
// streaming row translator (rows/row_translation_stream.cpp) both read their
// text through it: whitespace, string literals (escapes, surrogate pairs and
// control characters checked as JSON.parse checks them), numbers by JSON's
// grammar, and the three literals. It moves a cursor over text it does not
// own and records the first problem it meets; what to build from the tokens
// is the reader's business.

#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>

#include "json_scan.h"

namespace alfred::detail {

/// A string literal whose escapes were checked: its content between the
/// quotes, and whether it has any escape (then `decode_string` gives the text).
struct string_span {
  const char* begin = nullptr;
  const char* end = nullptr;
  bool escaped = false;
  std::string_view raw() const { return {begin, std::size_t(end - begin)}; }
};

/// Appends the decoded content of a checked span to `out`.
void decode_string(string_span s, std::string& out);

/// A cursor over JSON text. Borrows the text, which must outlive it.
///
///     json_lexer lex(text);
///     lex.skip_space();
///     string_span s;
///     if (lex.at('"') && !lex.string(s)) return lex.problem();
class json_lexer {
 public:
  explicit json_lexer(std::string_view text) : begin_(text.data()), p_(text.data()), end_(text.data() + text.size()) {}

  /// Bytes from the start of the text to the cursor.
  std::size_t offset() const { return std::size_t(p_ - begin_); }
  std::size_t size() const { return std::size_t(end_ - begin_); }
  bool at_end() const { return p_ >= end_; }
  /// Whether the byte at the cursor is `c`.
  bool at(char c) const { return p_ < end_ && *p_ == c; }
  /// The byte at the cursor; only when not at_end().
  char peek() const { return *p_; }
  const char* cursor() const { return p_; }
  /// The start of the text.
  const char* begin() const { return begin_; }
  const char* end() const { return end_; }
  void advance(std::size_t n = 1) { p_ += n; }
  /// Moves the cursor to `to`, a place inside the text.
  void move_to(const char* to) { p_ = to; }

  /// Inlined everywhere, even at -Oz: it runs between any two tokens, and
  /// in compact JSON (most of a PostgREST body) it is one test that fails.
  [[gnu::always_inline]] void skip_space() {
    while (p_ < end_ && static_cast<unsigned char>(*p_) <= ' ' &&
           (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t'))
      ++p_;
  }

  /// Records `what` as the problem unless one was recorded already; false.
  bool fail(const char* what) {
    if (!problem_) problem_ = what;
    return false;
  }
  /// The first problem met, or null.
  const char* problem() const { return problem_; }

  /// At an opening quote: checks the literal and moves past its closing
  /// quote. On a problem the cursor is where it was found.
  bool string(string_span& s) {
    const std::size_t size = this->size();
    std::size_t i = offset() + 1;
    s.begin = begin_ + i;
    s.escaped = false;
    while (true) {
      i = end_of_plain_run(begin_, i, size);
      if (i >= size) return fail_at(size, "unterminated string");
      const char c = begin_[i];
      if (c == '"') break;
      if (c != '\\') return fail_at(i, "control character in string");
      s.escaped = true;
      if (++i >= size) return fail_at(size, "unterminated string");
      const char escape = begin_[i++];
      if (escape == 'u') {
        const unsigned cp = i + 4 <= size ? hex4(begin_ + i) : 0x110000;
        if (cp > 0xFFFF) return fail_at(i, "bad \\u escape");
        i += 4;
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          const unsigned low =
              i + 6 <= size && begin_[i] == '\\' && begin_[i + 1] == 'u' ? hex4(begin_ + i + 2) : 0x110000;
          if (low < 0xDC00 || low > 0xDFFF) return fail_at(i, "lone UTF-16 surrogate");
          i += 6;
        } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
          return fail_at(i, "lone UTF-16 surrogate");
        }
      } else if (escape == 0 || !std::strchr("\"\\/bfnrt", escape)) {
        return fail_at(i, "bad escape");
      }
    }
    s.end = begin_ + i;
    p_ = s.end + 1;
    return true;
  }

  /// A number at the cursor, by JSON's grammar (`-`, no leading zeros, a
  /// fraction and an exponent that have digits); moves past it.
  bool number() {
    if (at('-')) ++p_;
    if (at('0')) {
      ++p_;
    } else if (digits() == 0) {
      return fail("unexpected character");
    }
    if (at('.')) {
      ++p_;
      if (digits() == 0) return fail("a fraction needs digits");
    }
    if (at('e') || at('E')) {
      ++p_;
      if (at('+') || at('-')) ++p_;
      if (digits() == 0) return fail("an exponent needs digits");
    }
    return true;
  }

  /// `word` (`true`, `false`, `null`) at the cursor; moves past it.
  bool literal(std::string_view word) {
    if (std::size_t(end_ - p_) < word.size() || std::memcmp(p_, word.data(), word.size()) != 0)
      return fail("unexpected character");
    p_ += word.size();
    return true;
  }

 private:
  bool fail_at(std::size_t at, const char* what) {
    p_ = begin_ + at;
    return fail(what);
  }

  std::size_t digits() {
    const char* from = p_;
    while (p_ < end_ && *p_ >= '0' && *p_ <= '9') ++p_;
    return std::size_t(p_ - from);
  }

  const char* begin_;
  const char* p_;
  const char* end_;
  const char* problem_ = nullptr;
};

}  // namespace alfred::detail
