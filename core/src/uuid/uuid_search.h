#pragma once
// Where text holds a UUID: the one rule behind the scrub (every UUID a model
// might read becomes a ref or `<id>`, registry/uuid_scrub.cpp) and the row
// translator's note of whether its output needs that scrub at all
// (rows/row_value_copier.h).

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "alfred/uuid/uuid_bits.h"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace alfred::detail {

/// Index of the first '-' at or after `at` and before `size`, or `size`:
/// sixteen bytes per step where the target has 128-bit vectors (as
/// end_of_plain_run in json/json_scan.h), eight elsewhere.
inline std::size_t next_dash(const char* data, std::size_t at, std::size_t size) {
#if defined(__wasm_simd128__) || defined(__SSE2__)
  using bytes16 = unsigned char __attribute__((vector_size(16)));
  for (; at + 16 <= size; at += 16) {
    bytes16 v;
    std::memcpy(&v, data + at, 16);
    const bytes16 dash = v == '-';
#if defined(__wasm_simd128__)
    const unsigned mask = wasm_i8x16_bitmask(reinterpret_cast<v128_t>(dash));
#else
    const unsigned mask = unsigned(_mm_movemask_epi8(reinterpret_cast<__m128i>(dash)));
#endif
    if (mask != 0) return at + std::size_t(__builtin_ctz(mask));
  }
#endif
  constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
  for (; at + 8 <= size; at += 8) {
    std::uint64_t word;
    std::memcpy(&word, data + at, 8);
    const std::uint64_t dash = word ^ (kOnes * '-');
    const std::uint64_t found = (dash - kOnes) & ~dash & (kOnes * 0x80);
    if (found != 0) return at + std::size_t(__builtin_ctzll(found) >> 3);
  }
  while (at < size && data[at] != '-') ++at;
  return at;
}

/// Where the first UUID (8-4-4-4-12 hex digits, either case, as
/// is_uuid_syntax says) starts at or after `from` in `size` bytes of text,
/// or `size`. Hex around it does not matter: a UUID inside a longer run of
/// hex is still one. Only dashes are looked at, each as a UUID's first.
inline std::size_t find_uuid(const char* data, std::size_t size, std::size_t from) {
  constexpr std::size_t kLength = 36;
  if (size < kLength || from > size - kLength) return size;
  // A first dash at `dash` is a UUID's when it is 8 bytes in and 28 from
  // its end; the other three dashes are tested before the digits.
  const std::size_t last = size - kLength + 8;
  for (std::size_t dash = next_dash(data, from + 8, last + 1); dash <= last;
       dash = next_dash(data, dash + 1, last + 1)) {
    if (data[dash + 5] == '-' && data[dash + 10] == '-' && data[dash + 15] == '-' &&
        parse_uuid_bits(std::string_view(data + dash - 8, kLength)))
      return dash - 8;
  }
  return size;
}

}  // namespace alfred::detail
