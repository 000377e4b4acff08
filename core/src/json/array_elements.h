#pragma once
// The top-level elements of a JSON array, found without parsing: strings are
// skipped a vector (or a word) at a time, nesting is counted. The executor
// counts the rows of a response with it before anything is parsed
// (array_length; an unranked read's rows are counted as they are translated),
// and the model's result picks the rows it shows by it; both
// run over megabytes at times, so the walk is one pass over the bytes with
// no allocation. It checks nothing else: the text is parsed or translated
// by something that does.

#include <cstddef>
#include <optional>
#include <string_view>

#include "json_scan.h"

namespace alfred::detail {

/// The elements of the JSON array `text` (after any leading whitespace),
/// one at a time. Borrows `text`, which must outlive it.
///
///     array_elements rows(R"([{"id":1},{"id":2}])");
///     while (auto row = rows.next()) … *row is {"id":1}, then {"id":2} …
class array_elements {
 public:
  explicit array_elements(std::string_view text) : data_(text.data()), size_(text.size()) {
    std::size_t at = 0;
    while (at < size_ && is_space(data_[at])) ++at;
    if (at < size_ && data_[at] == '[') {
      at_ = first_ = at + 1;
      state_ = walk::open;
    }
  }

  /// Whether the text is an array (its first byte past whitespace is '[').
  bool is_array() const { return state_ != walk::not_array; }
  /// Whether the walk reached the array's closing bracket: `next()` gave
  /// nothing because the elements ended, not because the text did.
  bool closed() const { return state_ == walk::closed; }

  /// The next element's text as written (with any whitespace around it), or
  /// nothing: after the last one, when the text is cut off (inside a string,
  /// or before the closing bracket), or when it is not an array.
  std::optional<std::string_view> next() {
    if (state_ != walk::open) return std::nullopt;
    const char* data = data_;
    const std::size_t size = size_;
    const std::size_t start = at_;
    long depth = 0;     // brackets open inside the element
    bool blank = true;  // nothing but whitespace since the element began
    for (std::size_t at = start; at < size; ++at) {
      const char c = data[at];
      if (c == '"') {
        // An escape takes the byte after its backslash along.
        for (++at;;) {
          at = end_of_plain_run(data, at, size);
          if (at >= size) return cut_off();
          if (data[at] == '"') break;
          at += data[at] == '\\' ? 2 : 1;
        }
        blank = false;
      } else if (c == '[' || c == '{') {
        blank = false;
        ++depth;
      } else if (c == ']' || c == '}') {
        if (depth-- > 0) continue;
        // The array's own closing bracket; "[ ]" has no element.
        state_ = walk::closed;
        if (blank && start == first_) return std::nullopt;
        return std::string_view(data + start, at - start);
      } else if (c == ',' && depth == 0) {
        at_ = at + 1;
        return std::string_view(data + start, at - start);
      } else if (blank && !is_space(c)) {
        blank = false;
      }
    }
    return cut_off();
  }

 private:
  enum class walk { not_array, open, closed, cut_off };

  static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

  std::nullopt_t cut_off() {
    state_ = walk::cut_off;
    return std::nullopt;
  }

  const char* data_;
  std::size_t size_;
  std::size_t at_ = 0;
  std::size_t first_ = 0;  // just past the opening bracket
  walk state_ = walk::not_array;
};

/// The number of elements of the JSON array `text`, counting at most
/// `stop_after + 1` (enough to tell that a limit is passed); nothing when the
/// text is not an array, or is cut off before that many.
///
///     array_length("[1,[2,3],\"4,5\"]", 100)   // 3
///     array_length("[1,2,3,4]", 1)             // 2: over 1
inline std::optional<std::size_t> array_length(std::string_view text, std::size_t stop_after) {
  array_elements elements(text);
  std::size_t count = 0;
  while (elements.next())
    if (++count > stop_after) return count;
  if (!elements.closed()) return std::nullopt;
  return count;
}

}  // namespace alfred::detail
