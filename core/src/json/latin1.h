#pragma once
// UTF-8 text rewritten as Latin-1 (ISO-8859-1), where every character fits:
// one byte per character, which a reader with a fast Latin-1 decoder (Node's
// Buffer) reads many times faster than UTF-8 with accents in it
// (docs/benchmarks.md, "A call's settings, and results in Latin-1").

#include <cstring>
#include <string>

#include "json_scan.h"

namespace alfred::detail {

/// Index of the first byte at or after `at` past ASCII (0x80 and up), or `size`.
inline std::size_t next_non_ascii(const char* data, std::size_t at, std::size_t size) {
#if defined(__wasm_simd128__) || defined(__SSE2__)
  // Text past ASCII is rare in most text: 64 bytes a step while none is.
  using bytes16 = unsigned char __attribute__((vector_size(16)));
  for (; at + 64 <= size; at += 64) {
    bytes16 block[4];
    std::memcpy(block, data + at, 64);
    const bytes16 any = block[0] | block[1] | block[2] | block[3];
#if defined(__wasm_simd128__)
    if (wasm_i8x16_bitmask(reinterpret_cast<v128_t>(any)) != 0) break;
#else
    if (_mm_movemask_epi8(reinterpret_cast<__m128i>(any)) != 0) break;
#endif
  }
#endif
  return first_byte_where(
      data, at, size, [](auto v) { return v >= 0x80; }, [](std::uint64_t word) { return word & kByteHighs; },
      [](char c) { return static_cast<unsigned char>(c) >= 0x80; });
}

/// Rewrites `text` (UTF-8) in Latin-1 when every character of it is U+0000
/// to U+00FF, and says whether it is Latin-1 now (ASCII text is as it was).
/// Text with any other character, or with bytes that are not UTF-8, is left
/// as it is: only C2 or C3 followed by a continuation byte is rewritten.
inline bool utf8_to_latin1(std::string& text) {
  const char* data = text.data();
  const std::size_t size = text.size();
  const std::size_t first = next_non_ascii(data, 0, size);
  for (std::size_t at = first; at < size; at = next_non_ascii(data, at + 2, size)) {
    const auto lead = static_cast<unsigned char>(data[at]);
    if ((lead != 0xC2 && lead != 0xC3) || at + 1 == size || (static_cast<unsigned char>(data[at + 1]) & 0xC0) != 0x80)
      return false;
  }
  char* out = text.data();
  std::size_t written = first;
  for (std::size_t at = first; at < size;) {
    out[written++] = static_cast<char>(((out[at] & 0x03) << 6) | (out[at + 1] & 0x3F));
    const std::size_t run = at + 2;
    at = next_non_ascii(out, run, size);
    std::memmove(out + written, out + run, at - run);
    written += at - run;
  }
  text.resize(written);
  return true;
}

}  // namespace alfred::detail
