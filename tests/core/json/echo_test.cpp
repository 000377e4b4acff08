// Values echoed in error messages are cut on a UTF-8 boundary.
#include "../../../core/src/json/echo.h"

#include <doctest/doctest.h>

#include <string>

namespace alfred::test {

TEST_CASE("clip_utf8 keeps short text and cuts long text with an ellipsis") {
  CHECK(detail::clip_utf8("milk", 80) == "milk");
  CHECK(detail::clip_utf8(std::string(80, 'a'), 80) == std::string(80, 'a'));
  CHECK(detail::clip_utf8(std::string(81, 'a'), 80) == std::string(80, 'a') + "…");
  CHECK(detail::echoed(std::string(50u << 20, 'x')).size() == detail::kEchoBytes + 3);
}

TEST_CASE("regression: clip_utf8 never splits a UTF-8 sequence") {
  // "é" is two bytes, "€" three, "😀" four: a cut at every offset lands before a lead byte.
  const std::string text = "aé€😀é€😀é€😀";
  for (std::size_t max = 0; max < text.size(); ++max) {
    const std::string cut = detail::clip_utf8(text, max);
    const std::string kept = cut.substr(0, cut.size() - std::string("…").size());
    CHECK(kept.size() <= max);
    CHECK(text.compare(0, kept.size(), kept) == 0);
    if (kept.size() < text.size()) CHECK((static_cast<unsigned char>(text[kept.size()]) & 0xC0) != 0x80);
  }
  // Not UTF-8 at all: at most three bytes are given back.
  CHECK(detail::clip_utf8(std::string(100, '\x80'), 10).size() == 7 + 3);
}

}  // namespace alfred::test
