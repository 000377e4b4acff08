// The core's JSON reader and writer, checked against nlohmann_json as an
// independent reference: same documents accepted and rejected, same values
// after a round trip, and escaping exactly as JSON.stringify writes it.

#include "alfred/json/json.h"

#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "../support.h"

namespace alfred::test {
namespace {

// Our reader then our writer, re-read by nlohmann.
nlohmann::json round_trip(const std::string& text) {
  auto doc = json_document::parse(text);
  REQUIRE(doc.ok());
  std::string out;
  json_writer w(out);
  w.value(doc->root());
  return nlohmann::json::parse(out);
}

bool nlohmann_accepts(const std::string& text) { return !nlohmann::json::parse(text, nullptr, false).is_discarded(); }

// A random JSON value: nested containers, unicode, control characters,
// quotes and backslashes in strings and keys, integers and decimals.
nlohmann::json random_value(std::mt19937& rng, int depth) {
  const auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  static const std::vector<std::string> kPieces = {"a",      "Z",  "0",    " ",    "\"", "\\",     "/",
                                                   "\n",     "\t", "\x01", "\x1f", "é",  "日本酒", "😀",
                                                   "\u2028", ",",  "(",    ")",    "{",  "}",      "%"};
  const auto random_string = [&]() {
    std::string text;
    for (int i = pick(8); i > 0; --i) text += kPieces[static_cast<std::size_t>(pick(int(kPieces.size())))];
    return text;
  };
  switch (depth > 3 ? pick(4) : pick(6)) {
    case 0:
      return nullptr;
    case 1:
      return pick(2) == 0;
    case 2:
      return pick(2) == 0 ? nlohmann::json(pick(1000000) - 500000) : nlohmann::json(pick(100000) / 64.0);
    case 3:
      return random_string();
    case 4: {
      nlohmann::json array = nlohmann::json::array();
      for (int i = pick(5); i > 0; --i) array.push_back(random_value(rng, depth + 1));
      return array;
    }
    default: {
      nlohmann::json object = nlohmann::json::object();
      for (int i = pick(5); i > 0; --i) object[random_string()] = random_value(rng, depth + 1);
      return object;
    }
  }
}

}  // namespace

TEST_CASE("json: 500 random documents survive our reader and writer unchanged") {
  std::mt19937 rng(20261121);
  for (int i = 0; i < 500; ++i) {
    const nlohmann::json value = random_value(rng, 0);
    const std::string text = value.dump();
    CAPTURE(text);
    CHECK(round_trip(text) == value);
  }
}

TEST_CASE("json: accepts and rejects the same documents as nlohmann") {
  const std::vector<std::string> documents = {
      "{}", "[]", "0", "-0", "1.5e3", "-1E-2", "\"\"", "true", "null", " [1 , 2 ] ", "{\"a\":{\"b\":[{}]}}",
      "\"\\u00e9\\ud83d\\ude00\"", "\"\\/\"",
      // rejected by both:
      "", " ", "[1,]", "{\"a\":1,}", "01", "1.", ".5", "-", "+1", "1e", "NaN", "[1 2]", "{\"a\"}", "{a:1}",
      "\"unterminated", "\"bad \\x escape\"", "\"tab\tinside\"", "\"\\ud800\"", "\"\\udc00\"", "\"\\ud800\\u0041\"",
      "[1]]", "tru", "nul", "'single'", "[\"a\",]", "{\"a\":}", "\"\\u12\""};
  for (const auto& text : documents) {
    CAPTURE(text);
    CHECK(json_document::parse(text).ok() == nlohmann_accepts(text));
  }
}

TEST_CASE("json: strings are escaped as JSON.stringify escapes them, and the line breaks it leaves raw as escapes") {
  CHECK(json_quote("a\"b\\c") == R"("a\"b\\c")");
  CHECK(json_quote("\b\f\n\r\t") == R"("\b\f\n\r\t")");
  CHECK(json_quote(std::string("\x01\x1f\x7f", 3)) == "\"\\u0001\\u001f\x7f\"");
  CHECK(json_quote(std::string("nul\0here", 8)) == R"("nul\u0000here")");
  CHECK(json_quote("é日😀 / </script>") == "\"é日😀 / </script>\"");
  // U+2028, U+2029 and U+0085 would start a line for a reader that splits on
  // them: escaped, in any place of the string and one after another.
  CHECK(json_quote("a\u2028b\u2029c\u0085d") == R"("a\u2028b\u2029c\u0085d")");
  CHECK(json_quote("\u2028\u2028") == R"("\u2028\u2028")");
  CHECK(json_quote("0123456789abcdef0123456789\u2029") == R"("0123456789abcdef0123456789\u2029")");
  // Their neighbours in UTF-8 (’ …, a no-break space, ©) stay as they are.
  CHECK(json_quote("\u2019\u2026\u00a0\u00a9\u2027\u202a") == "\"\u2019\u2026\u00a0\u00a9\u2027\u202a\"");
  CHECK(json_quote(std::string("\xE2\x80", 2)) == std::string("\"\xE2\x80\"", 4));
  CHECK(json_quote(std::string("\xC2", 1)) == std::string("\"\xC2\"", 3));
}

TEST_CASE("json: numbers and untouched sub-documents are written back byte for byte") {
  const std::string text = R"({"n":1.50,"e":1E+2,"big":12345678901234567890,"nested":{"k":[0.10,-0]}})";
  auto doc = json_document::parse(text);
  REQUIRE(doc.ok());
  std::string out;
  json_writer w(out);
  w.value(doc->root());
  CHECK(out == text);
}

TEST_CASE("json: nesting deeper than the limit is refused, not a stack overflow") {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  auto doc = json_document::parse(deep);
  REQUIRE_FALSE(doc.ok());
  CHECK(doc.err().code == "invalid_json");
  CHECK(doc.err().message.find("nested too deeply") != std::string::npos);
  CHECK(json_document::parse(std::string(64, '[') + std::string(64, ']')).ok());
}

TEST_CASE("json: a repeated key keeps its last value, as JSON.parse does") {
  auto doc = json_document::parse(R"({"a":1,"a":2})");
  REQUIRE(doc.ok());
  CHECK(doc->root().find("a")->raw() == "2");
}

TEST_CASE("json: find matches keys by their text, past nested values, escaped keys and the empty key included") {
  auto doc = json_document::parse(R"({"ab":{"b":1},"b":[1,{"c":2}],"":3,"\u0063d":4,"c":5,"cd":6,"b\"":7,"\u0065":8})");
  REQUIRE(doc.ok());
  const auto root = doc->root();
  CHECK(root.find("b")->raw() == R"([1,{"c":2}])");
  CHECK(root.find("")->raw() == "3");
  CHECK(root.find("cd")->raw() == "6");  // the escaped "\u0063d" first, then the plain one: the last wins
  CHECK(root.find("c")->raw() == "5");
  CHECK(root.find("e")->raw() == "8");
  CHECK(root.find("b\"")->raw() == "7");
  CHECK_FALSE(root.find("a").has_value());
  CHECK_FALSE(root.find("abc").has_value());
  CHECK_FALSE(root.find("b")->find("c").has_value());  // an array has no members
  CHECK_FALSE(json_value().find("b").has_value());
}

TEST_CASE("json: keys written from the source and from text read the same") {
  std::string literal;
  std::string text;
  json_writer from_source(literal);
  from_source.begin_object();
  from_source.key("a");
  from_source.integer(1);
  from_source.key("table_name");
  from_source.begin_object();
  from_source.key("x");
  from_source.null();
  from_source.end_object();
  from_source.key("b");
  from_source.begin_array();
  from_source.end_array();
  from_source.end_object();
  json_writer from_text(text);
  from_text.begin_object();
  from_text.key(std::string_view("a"));
  from_text.integer(1);
  from_text.key(std::string_view("table_name"));
  from_text.begin_object();
  from_text.key(std::string_view("x"));
  from_text.null();
  from_text.end_object();
  from_text.key(std::string_view("b"));
  from_text.begin_array();
  from_text.end_array();
  from_text.end_object();
  CHECK(literal == R"({"a":1,"table_name":{"x":null},"b":[]})");
  CHECK(literal == text);
}

}  // namespace alfred::test
