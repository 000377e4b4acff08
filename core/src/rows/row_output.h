#pragma once
// The row translator's output (row_translation_stream.cpp): model-facing JSON
// written through a raw pointer into a string sized ahead.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "../json/json_scan.h"
#include "alfred/json/json.h"

namespace alfred::detail {

// The output text, written through a raw pointer into a string sized ahead:
// most writes are one byte or a short run, and std::string's bookkeeping per
// append cost more than the copying.
template <class Word>
inline void copy_word(char* to, const char* from) {
  Word word;
  std::memcpy(&word, from, sizeof word);
  std::memcpy(to, &word, sizeof word);
}

class output_text {
 public:
  output_text(std::string& text, std::size_t expected) : text_(text), used_(text.size()) {
    text_.resize(used_ + expected + 64);
    refresh();
  }
  /// Trims the string to what was written.
  void finish() { text_.resize(std::size_t(at_ - text_.data())); }

  /// Room for `n` more bytes.
  [[gnu::always_inline]] void reserve(std::size_t n) {
    if (std::size_t(limit_ - at_) < n) grow(n);
  }
  char* cursor() { return at_; }
  /// Bytes written so far (a place that stays valid when the string grows).
  std::size_t offset() const { return std::size_t(at_ - text_.data()); }
  /// The bytes written from `offset` on.
  std::string_view since(std::size_t offset) const {
    return {text_.data() + offset, std::size_t(at_ - text_.data()) - offset};
  }
  void advance_to(char* at) { at_ = at; }
  /// The bytes written between two offsets.
  std::string_view written(std::size_t from, std::size_t to) const {
    return std::string_view(text_.data() + from, to - from);
  }
  /// Takes out the bytes between two offsets, moving what follows them back.
  void erase(std::size_t from, std::size_t to) {
    std::memmove(text_.data() + from, text_.data() + to, offset() - to);
    at_ -= to - from;
  }

  [[gnu::always_inline]] void put(char c) {
    reserve(1);
    *at_++ = c;
  }
  // Keys, numbers and refs are short: two overlapping word copies instead
  // of a call to memcpy (a byte loop in WASM without bulk memory).
  void put(std::string_view text) {
    const std::size_t n = text.size();
    const char* from = text.data();
    reserve(n + 8);
    if (n >= 8 && n <= 16) {
      copy_word<std::uint64_t>(at_, from);
      copy_word<std::uint64_t>(at_ + n - 8, from + n - 8);
    } else if (n >= 4 && n < 8) {
      copy_word<std::uint32_t>(at_, from);
      copy_word<std::uint32_t>(at_ + n - 4, from + n - 4);
    } else if (n < 4) {
      for (std::size_t i = 0; i < n; ++i) at_[i] = from[i];
    } else {
      std::memcpy(at_, from, n);
    }
    at_ += n;
  }
  /// `"text"`, escaped as JSON.stringify would when it has to be.
  void put_quoted(std::string_view text) {
    if (end_of_plain_run(text.data(), 0, text.size()) != text.size()) return put(json_quote(text));
    reserve(text.size() + 2);
    *at_++ = '"';
    put(text);
    *at_++ = '"';
  }

 private:
  void grow(std::size_t n) {
    used_ = std::size_t(at_ - text_.data());
    text_.resize(std::max(text_.size() * 2, used_ + n + 64));
    refresh();
  }
  void refresh() {
    at_ = text_.data() + used_;
    limit_ = text_.data() + text_.size();
  }

  std::string& text_;
  std::size_t used_;
  char* at_ = nullptr;
  char* limit_ = nullptr;
};

}  // namespace alfred::detail
