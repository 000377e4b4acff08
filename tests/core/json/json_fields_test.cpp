// The shared typed object-field reader (core/src/json/json_fields.h) and the
// one JSON tokenizer (core/src/json/json_lexer.h) every reader of the core
// goes through.

#include "../../../core/src/json/json_fields.h"

#include <doctest/doctest.h>

#include <array>
#include <string>
#include <vector>

#include "../../../core/src/json/json_lexer.h"
#include "alfred/json/json.h"

namespace alfred::test {
namespace {

using detail::field_state;

json_document doc_of(std::string_view text) {
  auto doc = json_document::parse(text);
  REQUIRE(doc.ok());
  return std::move(*doc);
}

constexpr std::array<std::string_view, 3> kKeys{"name", "count", "tags"};

}  // namespace

TEST_CASE("object_fields: one pass into slots by key, the first unknown key, null as given") {
  const auto doc = doc_of(R"({"name":"x","count":null,"other":1,"name":"y","more":2})");
  const detail::object_fields fields(doc.root(), kKeys);
  REQUIRE(fields.unknown().has_value());
  CHECK(*fields.unknown() == "other");
  CHECK(fields["name"]->str() == "y");  // the last of a repeated key, as find() gives
  REQUIRE(fields["count"].has_value());
  CHECK(fields["count"]->is_null());
  CHECK_FALSE(fields.has("count"));
  CHECK_FALSE(fields["tags"].has_value());
  CHECK_FALSE(fields["not one of the keys"].has_value());
  CHECK(detail::key_list(kKeys) == "name, count, tags");
}

TEST_CASE("typed reads tell absent (missing or null) from the wrong type") {
  const auto doc = doc_of(R"({"t":"text","n":42,"f":1.5,"b":true,"l":["a","b"],"m":["a",1],"z":null})");
  const json_value root = doc.root();
  std::string_view text;
  CHECK(detail::read_text(root.find("t"), text) == field_state::ok);
  CHECK(text == "text");
  CHECK(detail::read_text(root.find("n"), text) == field_state::wrong_type);
  CHECK(detail::read_text(root.find("z"), text) == field_state::absent);
  CHECK(detail::read_text(root.find("missing"), text) == field_state::absent);

  long long n = 0;
  CHECK(detail::read_whole_number(root.find("n"), n) == field_state::ok);
  CHECK(n == 42);
  CHECK(detail::read_whole_number(root.find("f"), n) == field_state::wrong_type);
  CHECK(detail::read_whole_number(root.find("t"), n) == field_state::wrong_type);

  bool flag = false;
  CHECK(detail::read_flag(root.find("b"), flag) == field_state::ok);
  CHECK(flag);
  CHECK(detail::read_flag(root.find("n"), flag) == field_state::wrong_type);

  json_value list;
  CHECK(detail::read_list(root.find("l"), list) == field_state::ok);
  CHECK(list.size() == 2);
  std::vector<std::string> texts;
  CHECK(detail::read_text_list(root.find("l"), texts) == field_state::ok);
  CHECK(texts == std::vector<std::string>{"a", "b"});
  texts.clear();
  CHECK(detail::read_text_list(root.find("m"), texts) == field_state::wrong_type);
  CHECK(detail::read_text_list(root.find("z"), texts) == field_state::absent);

  CHECK_FALSE(detail::present_member(root, "z").has_value());
  CHECK(detail::present_member(root, "t").has_value());
  const std::array<std::string_view, 2> known{"t", "n"};
  CHECK(detail::unknown_key(root, known) == std::optional<std::string_view>("f"));
}

TEST_CASE("json_lexer: strings, numbers and literals checked as JSON.parse checks them, the cursor where it stopped") {
  {
    const std::string text = R"("plain" "esc\n\u00e9\ud83d\ude00")";
    detail::json_lexer lex(text);
    detail::string_span s;
    REQUIRE(lex.string(s));
    CHECK(s.raw() == "plain");
    CHECK_FALSE(s.escaped);
    lex.skip_space();
    REQUIRE(lex.string(s));
    CHECK(s.escaped);
    std::string decoded;
    detail::decode_string(s, decoded);
    CHECK(decoded == "esc\n\xC3\xA9\xF0\x9F\x98\x80");
    CHECK(lex.at_end());
  }
  struct bad_string {
    const char* text;
    const char* problem;
    std::size_t at;
  };
  for (const bad_string& c :
       {bad_string{R"("open)", "unterminated string", 5}, bad_string{"\"a\x01\"", "control character in string", 2},
        bad_string{R"("\x")", "bad escape", 3}, bad_string{R"("\u12g4")", "bad \\u escape", 3},
        bad_string{R"("\ud800x")", "lone UTF-16 surrogate", 7},
        bad_string{R"("\udc00")", "lone UTF-16 surrogate", 7}}) {
    detail::json_lexer lex(c.text);
    detail::string_span s;
    CHECK_FALSE_MESSAGE(lex.string(s), c.text);
    CHECK(std::string(lex.problem()) == c.problem);
    CHECK_MESSAGE(lex.offset() == c.at, c.text);
  }
  for (const char* good : {"0", "-0", "12", "1.5", "-2e10", "3E+2", "4.0e-7"}) {
    detail::json_lexer lex(good);
    CHECK_MESSAGE(lex.number(), good);
    CHECK(lex.at_end());
  }
  for (const char* bad : {"-", "1.", "1e", "+1", ".5"}) {
    detail::json_lexer lex(bad);
    CHECK_FALSE_MESSAGE(lex.number(), bad);
  }
  detail::json_lexer lex("nul");
  CHECK_FALSE(lex.literal("null"));
  CHECK(std::string(lex.problem()) == "unexpected character");
  // The first problem stays.
  lex.fail("later");
  CHECK(std::string(lex.problem()) == "unexpected character");
}

}  // namespace alfred::test

// The vector, word and byte loops of end_of_plain_run agree with a plain
// byte-by-byte scan: every special byte at every offset of runs up to 40
// bytes, each start, and bytes above 0x7F (UTF-8) that are plain.
TEST_CASE("end_of_plain_run finds the first quote, backslash or control byte at any offset") {
  const auto reference = [](const std::string& text, std::size_t at) {
    for (; at < text.size(); ++at) {
      const unsigned char c = static_cast<unsigned char>(text[at]);
      if (c < 0x20 || c == '"' || c == '\\') break;
    }
    return at;
  };
  const std::string specials = std::string("\"\\\x1f\n\x01", 5) + std::string(1, '\0');
  for (std::size_t length = 0; length <= 40; ++length) {
    std::string plain;
    for (std::size_t i = 0; i < length; ++i) plain += i % 3 == 0 ? char(0xC3) : char('a' + i % 26);
    for (std::size_t start = 0; start <= length; ++start) {
      CHECK(alfred::detail::end_of_plain_run(plain.data(), start, plain.size()) == reference(plain, start));
    }
    for (std::size_t where = 0; where < length; ++where) {
      for (char special : specials) {
        std::string text = plain;
        text[where] = special;
        for (std::size_t start = 0; start <= length; start += 5) {
          CHECK(alfred::detail::end_of_plain_run(text.data(), start, text.size()) == reference(text, start));
        }
      }
    }
  }
  // Two special bytes: the first is found wherever the second is (a control
  // byte's borrow marks the bytes after it in the word and vector tests).
  for (std::size_t first = 0; first < 40; ++first) {
    for (std::size_t second = first + 1; second < 40; ++second) {
      std::string text(40, 'x');
      text[first] = first % 2 ? '\0' : '\x1f';
      text[second] = second % 2 ? '"' : '\\';
      CHECK(alfred::detail::end_of_plain_run(text.data(), 0, text.size()) == first);
      CHECK(alfred::detail::end_of_plain_run(text.data(), first + 1, text.size()) == second);
    }
  }
  // 0x20 and 0x7F are plain; 0xFF is not mistaken for a control byte.
  const std::string edges = std::string(17, ' ') + "\x7f\xff" + std::string(20, '~');
  CHECK(alfred::detail::end_of_plain_run(edges.data(), 0, edges.size()) == edges.size());
}
