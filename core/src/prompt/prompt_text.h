#pragma once
// Text helpers shared by the prompt renderers: bounded strings, how a JSON
// value reads in a prompt line, and the UUID scrub that guarantees no UUID
// reaches the model.

#include <cstddef>
#include <string>
#include <string_view>

#include "alfred/json/json.h"
#include "alfred/registry/registry.h"

namespace alfred::detail {

/// Appends `text`, cut after `max_chars` code points with "… [+N chars]".
void append_bounded(std::string& out, std::string_view text, std::size_t max_chars);

/// Number of code points in UTF-8 text.
std::size_t code_points(std::string_view text);

/// True when a string reads unambiguously without quotes inside a
/// `key: value | key: value` line or a `[a, b]` list.
bool reads_plain(std::string_view text);

/// True when `text` would end the line it is written on: a control
/// character (a line break, a tab) or U+0085, U+2028, U+2029.
bool breaks_line(std::string_view text);

/// Appends text from a row (a label, a list element) that must stay on its
/// line: bounded like `append_bounded`, and JSON-quoted when it
/// `breaks_line`, so a value can never start a line of its own and pass for
/// a heading or an instruction of the prompt.
void append_one_line(std::string& out, std::string_view text, std::size_t max_chars);

/// A scalar or array the way prompt lines show it: strings bare when
/// `reads_plain` (else JSON-quoted), lists as `[a, b]`, objects as compact
/// JSON. Strings are bounded by `max_chars`.
void append_display_value(std::string& out, json_value value, std::size_t max_chars);

/// Compact JSON text of a parsed value.
void append_compact_json(std::string& out, json_value value);

/// Replaces "{{name}}" in a template with `value`.
void replace_all(std::string& text, std::string_view from, std::string_view to);

}  // namespace alfred::detail
