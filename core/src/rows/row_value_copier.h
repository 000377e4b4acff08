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

  void emit(std::string_view text) { out_.put(text); }
  void emit(char c) { out_.put(c); }

  bool fail(const char* what) { return lex_.fail(what); }

  void skip_space() { lex_.skip_space(); }
  bool at(char c) const { return lex_.at(c); }

  // At an opening quote: checks the literal and moves past it.
  bool scan_string(string_span& s) { return lex_.string(s); }

  // The decoded content: the text itself, or `storage` when it had escapes.
  static std::string_view content(string_span s, std::string& storage) {
    if (!s.escaped) return s.raw();
    storage.clear();
    decode_string(s, storage);
    return storage;
  }

  void emit_string(string_span s) {
    if (!s.escaped) return emit(std::string_view(s.begin - 1, std::size_t(s.end - s.begin) + 2));
    scratch_.clear();
    decode_string(s, scratch_);
    emit(json_quote(scratch_));
  }

  // At an opening quote: copies a string without escapes (the usual case) in
  // the same pass that finds its end, eight bytes at a time; anything else
  // goes through scan_string and is written escaped as JSON.stringify does.
  bool copy_string() {
    const char* end = lex_.end();
    out_.reserve(std::size_t(end - lex_.cursor()) + 8);
    char* to = out_.cursor();
    const char* from = lex_.cursor() + 1;
    *to++ = '"';
    while (end - from >= 8) {
      std::uint64_t word;
      std::memcpy(&word, from, 8);
      std::memcpy(to, &word, 8);
      if (const std::uint64_t special = special_bytes(word)) {
        const int plain = __builtin_ctzll(special) >> 3;
        from += plain;
        to += plain;
        break;
      }
      from += 8;
      to += 8;
    }
    while (from < end && !is_special(*from)) *to++ = *from++;
    if (from < end && *from == '"') {
      *to++ = '"';
      out_.advance_to(to);
      lex_.move_to(from + 1);
      return true;
    }
    string_span span;
    if (!scan_string(span)) return false;
    emit_string(span);
    return true;
  }

  bool literal(std::string_view word) { return lex_.literal(word); }
  bool number() { return lex_.number(); }

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

  // Checks a value and returns its label text (see label_values).
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
};

}  // namespace
}  // namespace alfred::detail
