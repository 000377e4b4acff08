#pragma once
// Byte-level helpers shared by the JSON reader (json.cpp) and the streaming
// row translator (row_translation_stream.cpp): both scan JSON strings and
// decode their escapes.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace alfred::detail {

constexpr std::uint64_t kByteOnes = 0x0101010101010101ULL;
constexpr std::uint64_t kByteHighs = 0x8080808080808080ULL;

/// The bytes of an 8-byte word equal to `byte`, as the high bit of each (the
/// classic SWAR test). A borrow can mark bytes after a marked one, never
/// before it, so the lowest mark is the first such byte exactly (the targets
/// are little-endian).
[[gnu::always_inline]] inline std::uint64_t equal_bytes(std::uint64_t word, unsigned char byte) {
  const std::uint64_t x = word ^ (kByteOnes * byte);
  return (x - kByteOnes) & ~x & kByteHighs;
}

/// The bytes of an 8-byte word a JSON string cannot hold verbatim ('"',
/// '\\' or below 0x20), marked as equal_bytes marks them.
[[gnu::always_inline]] inline std::uint64_t special_bytes(std::uint64_t word) {
  return ((word - kByteOnes * 0x20) & ~word & kByteHighs) | equal_bytes(word, '"') | equal_bytes(word, '\\');
}

/// Whether a JSON string cannot hold `c` verbatim.
inline bool is_special(char c) { return static_cast<unsigned char>(c) < 0x20 || c == '"' || c == '\\'; }

/// Index of the first byte at or after `at` for which `is_one` holds, or
/// `size`: sixteen bytes per step where the target has 128-bit vectors
/// (WebAssembly SIMD, SSE2), else eight. The same test three ways: `lanes`
/// on 16 bytes (GCC/Clang vector extensions: all ones in each lane that
/// holds, whose high bits as a mask give the first at once), `marks` on an
/// 8-byte word (as equal_bytes marks), `is_one` on a byte.
template <class Lanes, class Marks, class IsOne>
[[gnu::always_inline]] inline std::size_t first_byte_where(const char* data, std::size_t at, std::size_t size,
                                                           Lanes lanes, Marks marks, IsOne is_one) {
#if defined(__wasm_simd128__) || defined(__SSE2__)
  using bytes16 = unsigned char __attribute__((vector_size(16)));
  for (; at + 16 <= size; at += 16) {
    bytes16 v;
    std::memcpy(&v, data + at, 16);
    const auto hits = lanes(v);
#if defined(__wasm_simd128__)
    const unsigned mask = wasm_i8x16_bitmask(reinterpret_cast<v128_t>(hits));
#else
    const unsigned mask = unsigned(_mm_movemask_epi8(reinterpret_cast<__m128i>(hits)));
#endif
    if (mask != 0) return at + std::size_t(__builtin_ctz(mask));
  }
#else
  (void)lanes;
#endif
  for (; at + 8 <= size; at += 8) {
    std::uint64_t word;
    std::memcpy(&word, data + at, 8);
    if (const std::uint64_t found = marks(word)) return at + std::size_t(__builtin_ctzll(found) >> 3);
  }
  while (at < size && !is_one(data[at])) ++at;
  return at;
}

/// Index of the first byte at or after `at` that a JSON string cannot hold
/// verbatim ('"', '\\' or a control character), or `size`. Strings are long
/// runs of plain text, and this loop is the hot part of parsing, writing and
/// translating.
inline std::size_t end_of_plain_run(const char* data, std::size_t at, std::size_t size) {
  return first_byte_where(
      data, at, size, [](auto v) { return (v < 0x20) | (v == '"') | (v == '\\'); },
      [](std::uint64_t word) { return special_bytes(word); }, [](char c) { return is_special(c); });
}

/// The length of the line break JSON lets a string hold raw that starts at
/// `at`: U+0085 (C2 85) and U+2028, U+2029 (E2 80 A8, E2 80 A9) are 2 and
/// 3; 0 for anything else. A reader that splits lines on them (a prompt, a
/// log, a tokenizer) would see a value start a line of its own, so text a
/// model reads writes them as `\u` escapes.
inline std::size_t line_break_at(const char* data, std::size_t at, std::size_t size) {
  const unsigned char c = static_cast<unsigned char>(data[at]);
  if (c == 0xC2) return at + 1 < size && static_cast<unsigned char>(data[at + 1]) == 0x85 ? 2 : 0;
  if (c != 0xE2 || at + 2 >= size || static_cast<unsigned char>(data[at + 1]) != 0x80) return 0;
  const unsigned char last = static_cast<unsigned char>(data[at + 2]);
  return last == 0xA8 || last == 0xA9 ? 3 : 0;
}

/// Index of the first byte at or after `at` that may lead such a line
/// break (0xC2 or 0xE2), or `size`: most text has none, so text is searched
/// for them sixteen (or eight) bytes at a time.
inline std::size_t next_line_break_lead(const char* data, std::size_t at, std::size_t size) {
  return first_byte_where(
      data, at, size, [](auto v) { return (v == 0xC2) | (v == 0xE2); },
      [](std::uint64_t word) { return equal_bytes(word, 0xC2) | equal_bytes(word, 0xE2); },
      [](char c) { return static_cast<unsigned char>(c) == 0xC2 || static_cast<unsigned char>(c) == 0xE2; });
}

/// Index of the first line break (line_break_at) at or after `at`, or `size`.
inline std::size_t next_line_break(const char* data, std::size_t at, std::size_t size) {
  for (; (at = next_line_break_lead(data, at, size)) < size; ++at)
    if (line_break_at(data, at, size) != 0) return at;
  return size;
}

/// The `\u` escape of the line break of length `length` at `data`.
inline const char* line_break_escape(const char* data, std::size_t length) {
  if (length == 2) return "\\u0085";
  return static_cast<unsigned char>(data[2]) == 0xA8 ? "\\u2028" : "\\u2029";
}

/// Appends the JSON text of `size` bytes at `data` with every raw U+0085,
/// U+2028 and U+2029 (they can only stand inside its strings) written as a
/// `\u` escape: the same JSON, one line however it is read. Copies the text
/// as it is when it has none, the usual case.
inline void append_without_line_breaks(std::string& out, const char* data, std::size_t size) {
  std::size_t run = 0;
  for (std::size_t at = next_line_break(data, 0, size); at < size; at = next_line_break(data, at, size)) {
    const std::size_t length = line_break_at(data, at, size);
    out.append(data + run, at - run);
    out.append(line_break_escape(data + at, length), 6);
    at += length;
    run = at;
  }
  out.append(data + run, size - run);
}

/// The value of a hex digit, or -1.
inline int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/// The value of the four hex digits at `at` (a `\u` escape), or 0x110000
/// (beyond Unicode) when one of them is not a hex digit.
inline unsigned hex4(const char* at) {
  unsigned value = 0;
  for (int i = 0; i < 4; ++i) {
    const int digit = hex_digit(at[i]);
    if (digit < 0) return 0x110000;
    value = value * 16 + unsigned(digit);
  }
  return value;
}

/// Appends code point `cp` (at most 0x10FFFF, not a surrogate) as UTF-8.
inline void append_utf8(std::string& out, unsigned cp) {
  if (cp < 0x80) {
    out += char(cp);
  } else if (cp < 0x800) {
    out += char(0xC0 | (cp >> 6));
    out += char(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += char(0xE0 | (cp >> 12));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  } else {
    out += char(0xF0 | (cp >> 18));
    out += char(0x80 | ((cp >> 12) & 0x3F));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  }
}

}  // namespace alfred::detail
