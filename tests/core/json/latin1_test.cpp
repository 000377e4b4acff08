// UTF-8 rewritten as Latin-1 where every character fits, else left as it is.
#include "../../../core/src/json/latin1.h"

#include <doctest/doctest.h>

#include <optional>
#include <random>
#include <string>
#include <vector>

namespace alfred::test {
namespace {

// The same, one byte at a time: the reference the fast version is held to.
std::optional<std::string> latin1_by_byte(const std::string& text) {
  std::string out;
  for (std::size_t at = 0; at < text.size(); ++at) {
    const auto c = static_cast<unsigned char>(text[at]);
    if (c < 0x80) {
      out += char(c);
      continue;
    }
    if ((c != 0xC2 && c != 0xC3) || at + 1 == text.size()) return std::nullopt;
    const auto next = static_cast<unsigned char>(text[at + 1]);
    if ((next & 0xC0) != 0x80) return std::nullopt;
    out += char(((c & 0x03) << 6) | (next & 0x3F));
    ++at;
  }
  return out;
}

}  // namespace

TEST_CASE("utf8_to_latin1 rewrites text whose characters fit, one byte each") {
  std::string text = "Crème brûlée, smørrebrød ÿ \xC2\xA0 \xC2\x80\xC2\x9F";
  CHECK(detail::utf8_to_latin1(text));
  CHECK(text ==
        "Cr\xE8me br\xFBl\xE9"
        "e, sm\xF8rrebr\xF8"
        "d \xFF \xA0 \x80\x9F");
  std::string ascii = "plain toast";
  CHECK(detail::utf8_to_latin1(ascii));
  CHECK(ascii == "plain toast");
  std::string empty;
  CHECK(detail::utf8_to_latin1(empty));
  CHECK(empty.empty());
}

TEST_CASE("utf8_to_latin1 leaves text with other characters or bytes that are not UTF-8 as it is") {
  const std::vector<std::string> texts{"5 \xE2\x82\xAC", "\xC5\x91", "\xF0\x9F\x8D\xAE", "caf\xC3", "caf\xC3(",
                                       "\x80 stray",     "\xFF"};
  for (std::string text : texts) {
    const std::string before = text;
    CHECK_FALSE(detail::utf8_to_latin1(text));
    CHECK(text == before);
  }
  // An accent early, a character past Latin-1 late: nothing is rewritten.
  std::string late = std::string(100, 'a') + "\xC3\xA9" + std::string(100, 'b') + "\xE2\x82\xAC";
  const std::string before = late;
  CHECK_FALSE(detail::utf8_to_latin1(late));
  CHECK(late == before);
}

TEST_CASE("utf8_to_latin1 agrees with a byte-by-byte rewrite wherever the characters past ASCII fall") {
  // Long ASCII runs (the 64-byte steps) with accents, other characters and
  // stray bytes at every offset around the step boundaries.
  std::mt19937 random(7);
  const std::string pieces[] = {"\xC3\xA9", "\xC2\xAB", "\xC3\xBF", "\xE2\x82\xAC", "\x80", "\xC3"};
  for (int round = 0; round < 2000; ++round) {
    std::string text(std::size_t(random() % 300), 'x');
    const int inserts = int(random() % 4);
    for (int i = 0; i < inserts; ++i) {
      const auto& piece = pieces[random() % (round % 3 == 0 ? 6 : 3)];
      text.insert(random() % (text.size() + 1), piece);
    }
    const auto expected = latin1_by_byte(text);
    std::string rewritten = text;
    CHECK(detail::utf8_to_latin1(rewritten) == expected.has_value());
    CHECK(rewritten == expected.value_or(text));
  }
}

}  // namespace alfred::test
