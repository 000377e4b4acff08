#include "prompt_text.h"

#include "../json/format.h"

namespace alfred::detail {
namespace {

bool is_continuation(unsigned char c) { return (c & 0xC0) == 0x80; }

}  // namespace

std::size_t code_points(std::string_view text) {
  std::size_t n = 0;
  for (unsigned char c : text) n += !is_continuation(c);
  return n;
}

void append_bounded(std::string& out, std::string_view text, std::size_t max_chars) {
  std::size_t seen = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (is_continuation(static_cast<unsigned char>(text[i]))) continue;
    if (seen == max_chars) {
      out.append(text.substr(0, i));
      textfmt::format_to(out, "… [+{} chars]", code_points(text.substr(i)));
      return;
    }
    ++seen;
  }
  out.append(text);
}

bool reads_plain(std::string_view text) {
  if (text.empty() || text.front() == ' ' || text.back() == ' ') return false;
  if (text == "null" || text == "true" || text == "false") return false;
  for (unsigned char c : text)
    if (c < 0x20 || c == '|' || c == ',' || c == '[' || c == ']' || c == '"' || c == '`' || c == '\\') return false;
  return !breaks_line(text);
}

bool breaks_line(std::string_view text) {
  for (unsigned char c : text)
    if (c < 0x20 || c == 0x7f) return true;
  return text.find("\xC2\x85") != std::string_view::npos || text.find("\xE2\x80\xA8") != std::string_view::npos ||
         text.find("\xE2\x80\xA9") != std::string_view::npos;
}

void append_one_line(std::string& out, std::string_view text, std::size_t max_chars) {
  if (!breaks_line(text)) return append_bounded(out, text, max_chars);
  std::string bounded;
  append_bounded(bounded, text, max_chars);
  out += json_quote(bounded);
}

void append_compact_json(std::string& out, json_value value) {
  json_writer writer(out);
  writer.value(value);
}

void append_display_value(std::string& out, json_value value, std::size_t max_chars) {
  switch (value.kind()) {
    case json_kind::string: {
      const std::string_view text = value.str();
      if (reads_plain(text)) {
        append_bounded(out, text, max_chars);
      } else {
        std::string bounded;
        append_bounded(bounded, text, max_chars);
        out += json_quote(bounded);
      }
      return;
    }
    case json_kind::array:
      out += '[';
      value.for_each_element([&](std::size_t i, json_value element) {
        if (i) out += ", ";
        append_display_value(out, element, max_chars);
      });
      out += ']';
      return;
    case json_kind::object: {
      std::string json;
      append_compact_json(json, value);
      append_bounded(out, json, max_chars);
      return;
    }
    default:
      out += value.raw();
      return;
  }
}

void replace_all(std::string& text, std::string_view from, std::string_view to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
}

}  // namespace alfred::detail
