#pragma once
// Values from the model or the network that an error message repeats are
// cut to a few dozen characters: a 50 MB table name must not come back as a
// 50 MB message, and a cut must never split a UTF-8 sequence.

#include <cstddef>
#include <string>
#include <string_view>

namespace alfred::detail {

/// What `echoed` keeps of a value, in bytes.
inline constexpr std::size_t kEchoBytes = 80;

/// The longest prefix of `text` of at most `max_bytes` bytes that ends on a
/// UTF-8 boundary; "…" is appended when anything was cut.
std::string clip_utf8(std::string_view text, std::size_t max_bytes);

/// A value as an error message repeats it: `clip_utf8(text, kEchoBytes)`.
inline std::string echoed(std::string_view text) { return clip_utf8(text, kEchoBytes); }

}  // namespace alfred::detail
