#pragma once
// Where text holds a UUID: the one rule behind the scrub (every UUID a model
// might read becomes a ref or `<id>`, registry/uuid_scrub.cpp) and the row
// translator's note of whether its output needs that scrub at all
// (rows/row_value_copier.h).

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "../json/json_scan.h"
#include "alfred/uuid/uuid_bits.h"

namespace alfred::detail {

/// Index of the first '-' at or after `at` and before `size`, or `size`
/// (first_byte_where: sixteen bytes per step where the target has vectors).
inline std::size_t next_dash(const char* data, std::size_t at, std::size_t size) {
  return first_byte_where(
      data, at, size, [](auto v) { return v == '-'; }, [](std::uint64_t word) { return equal_bytes(word, '-'); },
      [](char c) { return c == '-'; });
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
