#pragma once
/// A small JSON reader and writer for the core's hot paths. Parsing makes a
/// flat array of nodes over the caller's text (no allocation per value) and
/// keeps every value's raw text, so numbers and untouched sub-documents are
/// written back exactly as received. The writer escapes like
/// `JSON.stringify`, so bodies are byte-identical to what JavaScript sends.
///
///     std::string text = R"({"table": "inventory", "limit": 5})";
///     auto doc = json_document::parse(text);  // invalid_json for text JSON.parse refuses
///     if (!doc) return doc.err();
///     std::optional<json_value> limit = doc->root().find("limit");  // limit->as_integer() == 5
///     std::string out;
///     json_writer w(out);
///     w.begin_object(); w.key("table"); w.string("inventory"); w.end_object();  // {"table":"inventory"}
///
/// A `json_document` does not own its text: it views the caller's string
/// (only strings with escapes are decoded into the document's own storage),
/// and that string must outlive it. A `json_value` views the document: it
/// must not outlive the document, nor survive a move of it (take values from
/// the document where it will stay). A `json_writer` appends to a string it
/// borrows.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "alfred/json/error.h"

namespace alfred {

class json_document;

enum class json_kind : std::uint8_t { null, boolean, number, string, array, object };

/// A value inside a `json_document`; valid while the document and the text it
/// was parsed from are alive. Cheap to copy.
class json_value {
 public:
  json_value() = default;

  json_kind kind() const;
  bool is_null() const { return kind() == json_kind::null; }
  bool is_bool() const { return kind() == json_kind::boolean; }
  bool is_number() const { return kind() == json_kind::number; }
  bool is_string() const { return kind() == json_kind::string; }
  bool is_array() const { return kind() == json_kind::array; }
  bool is_object() const { return kind() == json_kind::object; }
  /// Scalar: not an array or object.
  bool is_primitive() const { return !is_array() && !is_object(); }
  /// A number written without fraction or exponent.
  bool is_integer() const;

  bool as_bool() const;
  /// The decoded content of a string value.
  std::string_view str() const;
  /// The value as it appears in the source text (numbers: their digits).
  std::string_view raw() const;
  /// An integer value, if it is one and fits in 53 bits.
  std::optional<long long> as_integer() const;

  /// Number of array elements or object members.
  std::size_t size() const;
  bool empty() const { return size() == 0; }
  /// The i-th array element or object member value.
  json_value at(std::size_t i) const;
  /// The i-th object member's key.
  std::string_view key_at(std::size_t i) const;
  /// The member with this key (the last one if repeated), or nothing.
  std::optional<json_value> find(std::string_view key) const;

  /// "a string", "an array", … for error messages.
  const char* kind_name() const;

  /// Calls `f(key, value)` for each object member, in order.
  template <class F>
  void for_each_member(F&& f) const {
    std::uint32_t child = index_ + 1;
    for (std::size_t k = 0, n = is_object() ? size() : 0; k < n; ++k) {
      const json_value value(doc_, next_of(child));
      f(json_value(doc_, child).str(), value);
      child = next_of(value.index_);
    }
  }

  /// Calls `f(index, value)` for each array element, in order.
  template <class F>
  void for_each_element(F&& f) const {
    std::uint32_t child = index_ + 1;
    for (std::size_t k = 0, n = is_array() ? size() : 0; k < n; ++k) {
      f(k, json_value(doc_, child));
      child = next_of(child);
    }
  }

 private:
  friend class json_document;
  json_value(const json_document* doc, std::uint32_t index) : doc_(doc), index_(index) {}
  std::uint32_t next_of(std::uint32_t index) const;
  const json_document* doc_ = nullptr;
  std::uint32_t index_ = 0;
};

/// A parsed JSON text. Does not copy the text: keep it alive as long as the
/// document. Rejects what `JSON.parse` rejects, lone UTF-16 surrogates, and
/// nesting deeper than `max_depth`.
class json_document {
 public:
  static result<json_document> parse(std::string_view text, std::size_t max_depth = 64);
  json_value root() const { return json_value(this, 0); }

 private:
  friend class json_value;
  friend class json_parser;
  struct node {
    json_kind kind;
    bool in_arena;         // string content lives in arena_ (it had escapes)
    std::uint32_t next;    // index one past this value's subtree
    std::uint32_t count;   // elements or members
    std::uint32_t offset;  // string content / raw text start
    std::uint32_t length;
    std::uint32_t raw_offset;
    std::uint32_t raw_length;
  };
  std::string_view text_;
  std::string arena_;
  std::vector<node> nodes_;
};

// The accessors every reader calls per value, inline so a walk over a
// document costs loads, not calls.
inline std::uint32_t json_value::next_of(std::uint32_t index) const { return doc_->nodes_[index].next; }

inline json_kind json_value::kind() const { return doc_ ? doc_->nodes_[index_].kind : json_kind::null; }

inline std::string_view json_value::str() const {
  if (!doc_) return {};
  const auto& n = doc_->nodes_[index_];
  if (n.kind != json_kind::string) return {};
  const char* base = n.in_arena ? doc_->arena_.data() : doc_->text_.data();
  return std::string_view(base + n.offset, n.length);
}

inline std::string_view json_value::raw() const {
  if (!doc_) return "null";
  const auto& n = doc_->nodes_[index_];
  return std::string_view(doc_->text_.data() + n.raw_offset, n.raw_length);
}

inline std::size_t json_value::size() const {
  if (!doc_) return 0;
  const auto& n = doc_->nodes_[index_];
  return (n.kind == json_kind::array || n.kind == json_kind::object) ? n.count : 0;
}

/// Appends JSON text, escaping strings exactly as `JSON.stringify` does.
class json_writer {
 public:
  explicit json_writer(std::string& out) : out_(out) {}
  void string(std::string_view text);
  /// One string whose content is `prefix` followed by `text` ("Bearer " + token).
  void string(std::string_view prefix, std::string_view text);
  /// A value given as ready JSON text (a raw number, a nested document).
  void raw_value(std::string_view json_text) {
    separate();
    out_ += json_text;
  }
  void null() {
    separate();
    out_ += "null";
  }
  void boolean(bool value) {
    separate();
    out_ += value ? "true" : "false";
  }
  void integer(long long value);
  /// Re-writes a parsed value; `strip_nul` removes U+0000 from its strings.
  void value(json_value value, bool strip_nul = false);
  /// Writes `"key":`; the next value call writes the member's value.
  void key(std::string_view name);
  /// `key` for a name written in the source, which has nothing to escape
  /// (plain ASCII): copied as it is, without the scan for escapes.
  template <std::size_t N>
  void key(const char (&name)[N]) {
    plain_key(name, N - 1);
  }
  void begin_object() {
    separate();
    out_ += '{';
    first_ = true;
  }
  void end_object() {
    out_ += '}';
    first_ = false;
  }
  void begin_array() {
    separate();
    out_ += '[';
    first_ = true;
  }
  void end_array() {
    out_ += ']';
    first_ = false;
  }
  /// What was written so far.
  std::string_view text() const { return out_; }

 private:
  void separate();
  void plain_key(const char* name, std::size_t size);
  std::string& out_;
  bool first_ = true;
  bool after_key_ = false;
};

/// A JSON string literal for `text` (`"…"`, escaped like JSON.stringify).
std::string json_quote(std::string_view text);

}  // namespace alfred
