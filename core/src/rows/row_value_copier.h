#pragma once
// The JSON layer of the streaming row translator (row_translation_stream.cpp):
// a value read from the lexer and copied compactly to the output text, or
// only checked.
//
// Included by that file alone. The unnamed namespace keeps these types and
// functions its own, so that the compiler inlines them as it did when they
// were written there: this is the hot path of every read.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "../json/json_lexer.h"
#include "../json/json_scan.h"
#include "../uuid/uuid_search.h"
#include "alfred/json/json.h"
#include "row_output.h"

namespace alfred::detail {
namespace {

constexpr int kMaxRowStreamDepth = 64;  // as json_document::parse

// Reads JSON values from `lex_`, writing them to `out_` or only checking
// them; the first problem is kept by the lexer and every step after it
// returns false.
class json_value_copier {
 protected:
  json_value_copier(std::string& out, std::string_view text) : out_(out, text.size()), lex_(text) {}

  [[gnu::always_inline]] void emit(std::string_view text) { out_.put(text); }
  [[gnu::always_inline]] void emit(char c) { out_.put(c); }

  bool fail(const char* what) { return lex_.fail(what); }

  [[gnu::always_inline]] void skip_space() { lex_.skip_space(); }
  [[gnu::always_inline]] bool at(char c) const { return lex_.at(c); }

  // At an opening quote: checks the literal and moves past it.
  bool scan_string(string_span& s) { return lex_.string(s); }

  // The decoded content: the text itself, or `storage` when it had escapes.
  [[gnu::always_inline]] static std::string_view content(string_span s, std::string& storage) {
    if (!s.escaped) return s.raw();
    storage.clear();
    decode_string(s, storage);
    return storage;
  }

  void emit_string(string_span s) {
    const std::size_t from = out_.offset();
    if (!s.escaped) {
      emit(std::string_view(s.begin - 1, std::size_t(s.end - s.begin) + 2));
    } else {
      scratch_.clear();
      decode_string(s, scratch_);
      emit(json_quote(scratch_));
    }
    note_uuid_text(from);
  }

  /// `"text"` (a ref, a label), escaped as JSON.stringify would.
  void emit_quoted(std::string_view text) {
    const std::size_t from = out_.offset();
    out_.put_quoted(text);
    note_uuid_text(from);
  }

  // After writing a string (or a span of JSON) from `from` on: whether a
  // UUID is in it, as the scrub (registry/uuid_scrub.cpp) would find in the
  // output. A UUID cannot span two tokens (the quotes, commas and colons
  // between them are not hex), and a number has at most two dashes, so
  // strings are the only place one can be.
  void note_uuid_text(std::size_t from) {
    if (quotes_uuid_) return;
    const std::string_view written = out_.since(from);
    if (written.size() >= 36 && find_uuid(written.data(), written.size(), 0) != written.size()) quotes_uuid_ = true;
  }

  // At an opening quote: copies a string without escapes (the usual case) in
  // the same pass that finds its end, eight bytes at a time; anything else
  // goes through scan_string and is written escaped as JSON.stringify does.
  //
  // The same pass notes the words that hold a dash: only a string with one
  // is searched for a UUID (note_uuid_text) after it is written.
  bool copy_string() {
    const char* end = lex_.end();
    out_.reserve(std::size_t(end - lex_.cursor()) + 8);
    char* to = out_.cursor();
    const char* from = lex_.cursor() + 1;
    const std::size_t start = out_.offset();
    std::uint64_t dashes = 0;
    *to++ = '"';
    while (end - from >= 8) {
      std::uint64_t word;
      std::memcpy(&word, from, 8);
      std::memcpy(to, &word, 8);
      dashes |= equal_bytes(word, '-');
      if (const std::uint64_t special = special_bytes(word)) {
        const int plain = __builtin_ctzll(special) >> 3;
        from += plain;
        to += plain;
        break;
      }
      from += 8;
      to += 8;
    }
    while (from < end && !is_special(*from)) {
      dashes |= *from == '-';
      *to++ = *from++;
    }
    if (from < end && *from == '"') {
      *to++ = '"';
      out_.advance_to(to);
      lex_.move_to(from + 1);
      if (dashes) note_uuid_text(start);
      return true;
    }
    string_span span;
    if (!scan_string(span)) return false;
    emit_string(span);
    return true;
  }

  bool literal(std::string_view word) { return lex_.literal(word); }
  bool number() { return lex_.number(); }

  // A member's value copied as it is (`write`) or only checked. An array
  // or object that is compact JSON without escapes (a text[] column, json
  // PostgreSQL wrote) is checked by `compact_end` and copied as one span,
  // as `value` would have written it token by token; any other is left to
  // `value`, from its start.
  bool whole_value(int depth, bool write) {
    if (at('[') || at('{')) {
      const char* start = lex_.cursor();
      if (const char* end = compact_end(start, depth)) {
        lex_.move_to(end);
        if (write) {
          const std::size_t from = out_.offset();
          emit(std::string_view(start, std::size_t(end - start)));
          note_uuid_text(from);
        }
        return true;
      }
    }
    return value(depth, write);
  }

  // Past the end of the array or object at `p` when it is valid JSON that
  // `value` would copy byte for byte: no whitespace between tokens, no
  // escape or control character in a string, nested less deeply than
  // kMaxRowStreamDepth allows from `depth`. Null for anything else, valid
  // or not: `value` then reads it again and finds any problem itself.
  const char* compact_end(const char* p, int depth) const {
    const char* const begin = lex_.begin();
    const char* const end = lex_.end();
    char closers[kMaxRowStreamDepth];
    int open = 0;
    bool want_key = false;
    while (true) {
      // A value (or, in an object, a key and its colon first).
      if (p >= end) return nullptr;
      if (want_key) {
        if (*p != '"' || !(p = plain_string_end(begin, p, end)) || p >= end || *p != ':') return nullptr;
        ++p;
        if (p >= end) return nullptr;
      }
      switch (*p) {
        case '[':
        case '{':
          if (depth + open >= kMaxRowStreamDepth) return nullptr;
          closers[open++] = *p == '[' ? ']' : '}';
          want_key = *p == '{';
          ++p;
          if (p < end && *p == closers[open - 1]) {
            ++p;
            --open;
            break;
          }
          continue;
        default:
          if (!(p = scalar_end(begin, p, end))) return nullptr;
      }
      // After a value: a comma, or the ends of the containers it closes.
      while (true) {
        if (open == 0) return p;
        if (p >= end) return nullptr;
        if (*p == closers[open - 1]) {
          ++p;
          --open;
          continue;
        }
        if (*p != ',') return nullptr;
        ++p;
        want_key = closers[open - 1] == '}';
        break;
      }
    }
  }

  // Past the string, literal or number at `p` as compact_end takes it; else null.
  static const char* scalar_end(const char* begin, const char* p, const char* end) {
    switch (*p) {
      case '"':
        return plain_string_end(begin, p, end);
      case 't':
        return end - p >= 4 && std::memcmp(p, "true", 4) == 0 ? p + 4 : nullptr;
      case 'f':
        return end - p >= 5 && std::memcmp(p, "false", 5) == 0 ? p + 5 : nullptr;
      case 'n':
        return end - p >= 4 && std::memcmp(p, "null", 4) == 0 ? p + 4 : nullptr;
      default:
        return number_end(p, end);
    }
  }

  // Past the closing quote of the string at `p` when it has no escape or
  // control character; else null.
  static const char* plain_string_end(const char* begin, const char* p, const char* end) {
    const std::size_t size = std::size_t(end - begin);
    const std::size_t close = end_of_plain_run(begin, std::size_t(p + 1 - begin), size);
    return close < size && begin[close] == '"' ? begin + close + 1 : nullptr;
  }

  // Past a number at `p` by JSON's grammar (json_lexer::number); else null.
  static const char* number_end(const char* p, const char* end) {
    auto digits = [&] {
      const char* from = p;
      while (p < end && *p >= '0' && *p <= '9') ++p;
      return p != from;
    };
    if (p < end && *p == '-') ++p;
    if (p < end && *p == '0') {
      ++p;
    } else if (!digits()) {
      return nullptr;
    }
    if (p < end && *p == '.') {
      ++p;
      if (!digits()) return nullptr;
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
      ++p;
      if (p < end && (*p == '+' || *p == '-')) ++p;
      if (!digits()) return nullptr;
    }
    return p;
  }

  // Any value, copied compactly (`write`) or only checked.
  bool value(int depth, bool write) {
    if (lex_.at_end()) return fail("unexpected end of input");
    const char* start = lex_.cursor();
    switch (lex_.peek()) {
      case '{':
        return container(depth, write, '{', '}', "expected , or }", [&] {
          if (!at('"')) return fail("expected a key");
          if (!string_value(write)) return false;
          skip_space();
          if (!at(':')) return fail("expected :");
          lex_.advance();
          if (write) emit(':');
          skip_space();
          return value(depth + 1, write);
        });
      case '[':
        return container(depth, write, '[', ']', "expected , or ]", [&] { return value(depth + 1, write); });
      case '"':
        return write ? copy_string() : string_value(false);
      case 't':
        if (!literal("true")) return false;
        break;
      case 'f':
        if (!literal("false")) return false;
        break;
      case 'n':
        if (!literal("null")) return false;
        break;
      default:
        if (!number()) return false;
    }
    if (write) emit(std::string_view(start, std::size_t(lex_.cursor() - start)));
    return true;
  }

  bool string_value(bool write) {
    string_span s;
    if (!scan_string(s)) return false;
    if (write) emit_string(s);
    return true;
  }

  template <class F>
  bool container(int depth, bool write, char open, char close, const char* expected, F&& element) {
    if (depth >= kMaxRowStreamDepth) return fail("nested too deeply");
    lex_.advance();
    if (write) emit(open);
    skip_space();
    if (at(close)) {
      lex_.advance();
    } else {
      while (true) {
        if (!element()) return false;
        skip_space();
        if (at(',')) {
          lex_.advance();
          if (write) emit(',');
          skip_space();
          continue;
        }
        if (at(close)) {
          lex_.advance();
          break;
        }
        return fail(expected);
      }
    }
    if (write) emit(close);
    return true;
  }

  // Checks a value and returns its label text (render_label: strings decoded,
  // numbers and booleans as written, "" for anything else).
  bool label_value(int depth, bool write, std::string_view& text, std::string& storage) {
    text = {};
    if (at('"')) {
      string_span s;
      if (!scan_string(s)) return false;
      text = content(s, storage);
      if (write) emit_string(s);
      return true;
    }
    const char* start = lex_.cursor();
    if (!value(depth, write)) return false;
    if (*start == 't' || *start == 'f' || *start == '-' || (*start >= '0' && *start <= '9'))
      text = std::string_view(start, std::size_t(lex_.cursor() - start));
    return true;
  }

  output_text out_;
  json_lexer lex_;
  std::string scratch_;
  // Whether a string written so far holds a UUID (note_uuid_text).
  bool quotes_uuid_ = false;
};

}  // namespace
}  // namespace alfred::detail
