#pragma once
// The core's text formatting: `{}` placeholders filled in order, `{0}` by
// position, `{{` and `}}` for braces, and `{:016x}` for a zero-padded hex
// number — the one subset of fmt's syntax the core writes its messages with.
// One out-of-line function does the work for every call site; a call packs
// its arguments into an array of small views, so a message costs a few bytes
// where it is written (docs/benchmarks.md, "Where the WebAssembly bytes
// are": fmt's general machinery was about 20 KB of the module's code).
//
//     std::string message = textfmt::format("{} has no column '{}'", tbl.name, name);
//     textfmt::format_to(out, " ({} rows)", count);
//     textfmt::format("one of: {}", textfmt::join(names, ", "));
//
// Arguments are borrowed while the call runs; the result is the caller's.

#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>

namespace alfred::textfmt {

/// One argument of a format call: a view of text, or a number. Three
/// fields (a text's size or a number's bits share `bits`): every call site
/// fills one per argument, so its size is the size of each call.
struct arg {
  enum class kind : unsigned char { text, signed_number, unsigned_number };
  kind type = kind::text;
  const char* data = nullptr;
  unsigned long long bits = 0;

  arg(std::string_view value) : data(value.data()), bits(value.size()) {}
  arg(const std::string& value) : data(value.data()), bits(value.size()) {}
  arg(const char* value) : arg(std::string_view(value)) {}
  arg(char value) = delete;  // ambiguous between a character and a number: pass std::string_view(&c, 1)
  arg(bool value) : arg(std::string_view(value ? "true" : "false")) {}
  template <class T,
            std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool> && !std::is_same_v<T, char>, int> = 0>
  arg(T value)
      : type(std::is_signed_v<T> ? kind::signed_number : kind::unsigned_number),
        bits(static_cast<unsigned long long>(value)) {}

  std::string_view text() const { return {data, std::size_t(bits)}; }
};

/// Appends `pattern` with its placeholders filled from `args` to `out`. A
/// placeholder without an argument is written as it is.
void vformat_to(std::string& out, std::string_view pattern, const arg* args, std::size_t count);

/// The text of `pattern` with its placeholders filled from `args`.
std::string vformat(std::string_view pattern, const arg* args, std::size_t count);

/// The formatted text.
template <class... Args>
std::string format(std::string_view pattern, const Args&... values) {
  if constexpr (sizeof...(Args) == 0) {
    return vformat(pattern, nullptr, 0);
  } else {
    const arg args[] = {arg(values)...};
    return vformat(pattern, args, sizeof...(Args));
  }
}

/// Appends the formatted text to `out`.
template <class... Args>
void format_to(std::string& out, std::string_view pattern, const Args&... values) {
  if constexpr (sizeof...(Args) == 0) {
    vformat_to(out, pattern, nullptr, 0);
  } else {
    const arg args[] = {arg(values)...};
    vformat_to(out, pattern, args, sizeof...(Args));
  }
}

/// The items of `items` (texts) with `separator` between them.
template <class Items>
std::string join(const Items& items, std::string_view separator) {
  std::string out;
  bool first = true;
  for (const auto& item : items) {
    if (!first) out += separator;
    first = false;
    out += std::string_view(item);
  }
  return out;
}

}  // namespace alfred::textfmt
