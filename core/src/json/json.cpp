#include "alfred/json/json.h"

#include <algorithm>
#include <cstring>

#include "format.h"
#include "json_lexer.h"
#include "json_scan.h"

namespace alfred {

using detail::append_utf8;
using detail::end_of_plain_run;
using detail::hex4;
using detail::line_break_at;
using detail::line_break_escape;
using detail::next_line_break;

void detail::decode_string(detail::string_span s, std::string& out) {
  for (const char* p = s.begin; p < s.end;) {
    if (*p != '\\') {
      const char* run = p;
      while (p < s.end && *p != '\\') ++p;
      out.append(run, std::size_t(p - run));
      continue;
    }
    const char escape = p[1];
    p += 2;
    switch (escape) {
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        unsigned cp = hex4(p);
        p += 4;
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          cp = 0x10000 + ((cp - 0xD800) << 10) + (hex4(p + 2) - 0xDC00);
          p += 6;
        }
        append_utf8(out, cp);
        break;
      }
      default:  // '"', '\\', '/'
        out += escape;
    }
  }
}

// Builds a json_document's nodes from the lexer's tokens.
class json_parser {
 public:
  json_parser(json_document& doc, std::string_view text, std::size_t max_depth)
      : doc_(doc), lex_(text), max_depth_(max_depth) {}

  status run() {
    doc_.nodes_.reserve(lex_.size() / 6 + 4);
    lex_.skip_space();
    const bool ok = lex_.size() < 0xFFFFFFF0u ? value(0) : lex_.fail("the JSON text is too large");
    lex_.skip_space();
    if (ok && !lex_.at_end()) lex_.fail("unexpected text after the JSON value");
    if (lex_.problem())
      return error{codes::invalid_json, "",
                   textfmt::format("invalid JSON at byte {}: {}", lex_.offset(), lex_.problem()), ""};
    return ok_status();
  }

 private:
  using node = json_document::node;

  std::uint32_t push(json_kind kind) {
    doc_.nodes_.push_back(node{kind, false, 0, 0, 0, 0, std::uint32_t(lex_.offset()), 0});
    return std::uint32_t(doc_.nodes_.size() - 1);
  }

  void close_node(std::uint32_t index) {
    node& n = doc_.nodes_[index];
    n.next = std::uint32_t(doc_.nodes_.size());
    n.raw_length = std::uint32_t(lex_.offset()) - n.raw_offset;
  }

  bool literal(std::string_view word, json_kind kind) {
    const auto index = push(kind);
    if (!lex_.literal(word)) return false;
    close_node(index);
    return true;
  }

  bool value(std::size_t depth) {
    if (lex_.at_end()) return lex_.fail("unexpected end of input");
    switch (lex_.peek()) {
      case '{':
        return object(depth);
      case '[':
        return array(depth);
      case '"':
        return string_value();
      case 't':
        return literal("true", json_kind::boolean);
      case 'f':
        return literal("false", json_kind::boolean);
      case 'n':
        return literal("null", json_kind::null);
      default:
        return number();
    }
  }

  bool number() {
    const auto index = push(json_kind::number);
    const std::size_t start = lex_.offset();
    if (!lex_.number()) return false;
    node& n = doc_.nodes_[index];
    n.offset = std::uint32_t(start);
    n.length = std::uint32_t(lex_.offset() - start);
    close_node(index);
    return true;
  }

  // A string's content is a slice of the text, or, when it had escapes, its
  // decoded text appended to the arena.
  bool string_value() {
    const auto index = push(json_kind::string);
    detail::string_span s;
    if (!lex_.string(s)) return false;
    node& n = doc_.nodes_[index];
    if (s.escaped) {
      std::string& arena = doc_.arena_;
      const std::size_t arena_start = arena.size();
      detail::decode_string(s, arena);
      n.in_arena = true;
      n.offset = std::uint32_t(arena_start);
      n.length = std::uint32_t(arena.size() - arena_start);
    } else {
      n.offset = std::uint32_t(s.begin - doc_.text_.data());
      n.length = std::uint32_t(s.end - s.begin);
    }
    close_node(index);
    return true;
  }

  bool array(std::size_t depth) {
    return container(depth, json_kind::array, ']', "expected , or ]", [&] { return value(depth + 1); });
  }

  // Members are stored as key (a string node) followed by the value's subtree.
  bool object(std::size_t depth) {
    return container(depth, json_kind::object, '}', "expected , or }", [&] {
      if (!lex_.at('"')) return lex_.fail("expected a key");
      if (!string_value()) return false;
      lex_.skip_space();
      if (!lex_.at(':')) return lex_.fail("expected :");
      lex_.advance();
      lex_.skip_space();
      return value(depth + 1);
    });
  }

  // `[`/`{` at the cursor: elements parsed by `element`, separated by commas, up to `close`.
  template <class F>
  bool container(std::size_t depth, json_kind kind, char close, const char* expected, F&& element) {
    if (depth >= max_depth_) return lex_.fail("nested too deeply");
    const auto index = push(kind);
    lex_.advance();
    lex_.skip_space();
    std::uint32_t count = 0;
    if (lex_.at(close)) {
      lex_.advance();
    } else {
      while (true) {
        if (!element()) return false;
        ++count;
        lex_.skip_space();
        if (lex_.at(',')) {
          lex_.advance();
          lex_.skip_space();
          continue;
        }
        if (lex_.at(close)) {
          lex_.advance();
          break;
        }
        return lex_.fail(expected);
      }
    }
    doc_.nodes_[index].count = count;
    close_node(index);
    return true;
  }

  json_document& doc_;
  detail::json_lexer lex_;
  std::size_t max_depth_;
};

result<json_document> json_document::parse(std::string_view text, std::size_t max_depth) {
  json_document doc;
  doc.text_ = text;
  auto ok = json_parser(doc, text, max_depth).run();
  if (!ok) return ok.take_error();
  return doc;
}

bool json_value::is_integer() const {
  if (!is_number()) return false;
  const auto text = raw();
  return text.find_first_of(".eE") == std::string_view::npos;
}

bool json_value::as_bool() const { return is_bool() && doc_->text_[doc_->nodes_[index_].raw_offset] == 't'; }

std::optional<long long> json_value::as_integer() const {
  if (!is_integer()) return std::nullopt;
  auto text = raw();
  const bool negative = !text.empty() && text[0] == '-';
  if (negative) text.remove_prefix(1);
  if (text.size() > 16) return std::nullopt;
  long long n = 0;
  for (char c : text) n = n * 10 + (c - '0');
  if (n > (1LL << 53)) return std::nullopt;
  return negative ? -n : n;
}

json_value json_value::at(std::size_t i) const {
  const auto& nodes = doc_->nodes_;
  const bool object = nodes[index_].kind == json_kind::object;
  std::uint32_t child = index_ + 1;
  for (std::size_t k = 0; k < i; ++k) {
    if (object) child = nodes[child].next;  // skip key
    child = nodes[child].next;
  }
  if (object) child = nodes[child].next;
  return json_value(doc_, child);
}

std::string_view json_value::key_at(std::size_t i) const {
  const auto& nodes = doc_->nodes_;
  std::uint32_t child = index_ + 1;
  for (std::size_t k = 0; k < i; ++k) child = nodes[nodes[child].next].next;
  return json_value(doc_, child).str();
}

std::optional<json_value> json_value::find(std::string_view key) const {
  if (!is_object()) return std::nullopt;
  // A walk over the nodes, no call per member: a record's fields are looked
  // up a dozen times per call. Length and first byte first: most keys differ
  // in one of them. The last match wins, as in JSON.parse.
  const auto& nodes = doc_->nodes_;
  std::uint32_t found = 0;
  std::uint32_t child = index_ + 1;
  for (std::uint32_t k = 0, n = nodes[index_].count; k < n; ++k) {
    const auto& name = nodes[child];
    const std::uint32_t value = name.next;
    if (name.length == key.size()) {
      const char* text = (name.in_arena ? doc_->arena_.data() : doc_->text_.data()) + name.offset;
      if (key.empty() || (text[0] == key[0] && std::memcmp(text, key.data(), key.size()) == 0)) found = value;
    }
    child = nodes[value].next;
  }
  if (found == 0) return std::nullopt;
  return json_value(doc_, found);
}

const char* json_value::kind_name() const {
  switch (kind()) {
    case json_kind::null:
      return "null";
    case json_kind::boolean:
      return "a boolean";
    case json_kind::number:
      return "a number";
    case json_kind::string:
      return "a string";
    case json_kind::array:
      return "an array";
    case json_kind::object:
      return "an object";
  }
  return "a value";
}

void json_writer::separate() {
  if (after_key_) {
    after_key_ = false;
  } else if (!first_) {
    out_ += ',';
  }
  first_ = false;
}

namespace {

// The letter after the backslash of c's two-character escape ('n' for a
// newline), or 0 when c takes the six-character u00XX form.
char short_escape_letter(unsigned char c) {
  switch (c) {
    case '"':
      return '"';
    case '\\':
      return '\\';
    case '\b':
      return 'b';
    case '\f':
      return 'f';
    case '\n':
      return 'n';
    case '\r':
      return 'r';
    case '\t':
      return 't';
    default:
      return 0;
  }
}

// The content of a JSON string literal for `text`, without the quotes.
// U+0085, U+2028 and U+2029 are escaped too (JSON.stringify leaves them):
// what the core writes is read by models and prompts, where a raw one could
// start a line of its own.
void append_escaped_content(std::string& out, std::string_view text, bool strip_nul) {
  static constexpr char kHex[] = "0123456789abcdef";
  const char* data = text.data();
  const std::size_t size = text.size();
  std::size_t run = 0;
  std::size_t line_break = next_line_break(data, 0, size);
  for (std::size_t i = 0; (i = std::min(end_of_plain_run(data, i, size), line_break)) < size; ++i) {
    out.append(data + run, i - run);
    if (i == line_break) {
      const std::size_t length = line_break_at(data, i, size);
      out.append(line_break_escape(data + i, length), 6);
      run = i + length;
      i = run - 1;
      line_break = next_line_break(data, run, size);
      continue;
    }
    const unsigned char c = static_cast<unsigned char>(text[i]);
    run = i + 1;
    // One append per escape: bodies are JSON inside a JSON string, so every
    // quote of theirs is escaped.
    if (const char letter = short_escape_letter(c)) {
      const char escape[2] = {'\\', letter};
      out.append(escape, 2);
    } else if (c != 0 || !strip_nul) {
      const char escape[6] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 15]};
      out.append(escape, 6);
    }
  }
  out.append(data + run, size - run);
}

// `before` + the string literal for `text` + `after` (each '\0' for none). Most
// strings and keys need no escape, and are written with one resize.
void append_escaped(std::string& out, std::string_view text, bool strip_nul, char before = 0, char after = 0) {
  if (end_of_plain_run(text.data(), 0, text.size()) == text.size() &&
      next_line_break(text.data(), 0, text.size()) == text.size()) {
    const std::size_t extra = (before ? 1 : 0) + (after ? 1 : 0);
    std::size_t at = out.size();
    out.resize(at + text.size() + 2 + extra);
    char* data = out.data();
    if (before) data[at++] = before;
    data[at++] = '"';
    std::memcpy(data + at, text.data(), text.size());
    at += text.size();
    data[at++] = '"';
    if (after) data[at] = after;
    return;
  }
  if (before) out += before;
  out += '"';
  append_escaped_content(out, text, strip_nul);
  out += '"';
  if (after) out += after;
}

}  // namespace

void json_writer::string(std::string_view text) {
  separate();
  append_escaped(out_, text, false);
}

void json_writer::string(std::string_view prefix, std::string_view text) {
  separate();
  out_ += '"';
  append_escaped_content(out_, prefix, false);
  append_escaped_content(out_, text, false);
  out_ += '"';
}

void json_writer::integer(long long value) {
  separate();
  out_ += std::to_string(value);
}

void json_writer::key(std::string_view name) {
  append_escaped(out_, name, false, first_ ? '\0' : ',', ':');
  first_ = false;
  after_key_ = true;
}

void json_writer::plain_key(const char* name, std::size_t size) {
  std::size_t at = out_.size();
  out_.resize(at + size + (first_ ? 3 : 4));
  char* data = out_.data();
  if (!first_) data[at++] = ',';
  data[at++] = '"';
  std::memcpy(data + at, name, size);
  at += size;
  data[at++] = '"';
  data[at] = ':';
  first_ = false;
  after_key_ = true;
}

void json_writer::value(json_value value, bool strip_nul) {
  switch (value.kind()) {
    case json_kind::string:
      separate();
      append_escaped(out_, value.str(), strip_nul);
      return;
    case json_kind::array:
      begin_array();
      value.for_each_element([&](std::size_t, json_value item) { this->value(item, strip_nul); });
      end_array();
      return;
    case json_kind::object:
      begin_object();
      value.for_each_member([&](std::string_view name, json_value item) {
        std::string key_text(name);
        if (strip_nul) key_text.erase(std::remove(key_text.begin(), key_text.end(), '\0'), key_text.end());
        key(key_text);
        this->value(item, strip_nul);
      });
      end_object();
      return;
    default:
      raw_value(value.raw());
  }
}

std::string json_quote(std::string_view text) {
  std::string out;
  append_escaped(out, text, false);
  return out;
}

}  // namespace alfred
