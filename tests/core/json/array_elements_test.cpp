// The walk over a JSON array's elements (core/src/json/array_elements.h) that
// counts the rows of every response (array_length) and picks the rows of a
// result for the model.

#include "../../../core/src/json/array_elements.h"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace alfred::test {
namespace {

using detail::array_elements;
using detail::array_length;

// Every element `text` walks to, and whether the walk reached the closing bracket.
struct walked {
  std::vector<std::string> elements;
  bool closed = false;
};

walked walk(std::string_view text) {
  walked out;
  array_elements elements(text);
  while (auto element = elements.next()) out.elements.emplace_back(*element);
  out.closed = elements.closed();
  CHECK_FALSE(elements.next());  // the end stays the end
  return out;
}

TEST_CASE("array_elements: each element as written, strings and nesting skipped whole") {
  const walked rows = walk(R"([{"id":1,"tags":["a,b","]"]},[1,[2,3]],"x\"],[{","",null,-1.5e3,true])");
  CHECK(rows.elements == std::vector<std::string>{R"({"id":1,"tags":["a,b","]"]})", "[1,[2,3]]", R"("x\"],[{")",
                                                  R"("")", "null", "-1.5e3", "true"});
  CHECK(rows.closed);
  // Whitespace before the array and around elements; an escaped backslash
  // ends no string early.
  CHECK(walk(" \n[ 1 ,\t{\"a\" : \"\\\\\"} ]").elements == std::vector<std::string>{" 1 ", "\t{\"a\" : \"\\\\\"} "});
  // Text after the closing bracket is not looked at.
  CHECK(walk("[1]garbage").elements == std::vector<std::string>{"1"});
}

TEST_CASE("array_elements: an empty array has no element, a blank one between commas is one") {
  for (const char* empty : {"[]", "[ ]", " [\n\t] "}) {
    const walked rows = walk(empty);
    CHECK_MESSAGE(rows.elements.empty(), empty);
    CHECK_MESSAGE(rows.closed, empty);
  }
  CHECK(walk("[1, ]").elements == std::vector<std::string>{"1", " "});
}

TEST_CASE("array_elements: not an array, or cut off") {
  for (const char* other : {"", "   ", R"({"a":[1]})", "1", "\"[\"", "null"}) {
    array_elements elements(other);
    CHECK_FALSE_MESSAGE(elements.is_array(), other);
    CHECK_FALSE_MESSAGE(elements.next(), other);
    CHECK_FALSE_MESSAGE(elements.closed(), other);
  }
  // The elements before the cut, never the one it cuts.
  // (No structured binding: clang 14 cannot capture one in doctest's lambdas.)
  for (const auto& cut : std::vector<std::pair<std::string, std::size_t>>{
           {R"([{"a":1},{"a":"tw)", 1}, {R"([{"a":1},{"a":2})", 1}, {R"([1,2,)", 2}, {R"([1,"\)", 1}, {"[", 0}}) {
    const walked rows = walk(cut.first);
    CHECK_MESSAGE(rows.elements.size() == cut.second, cut.first);
    CHECK_FALSE_MESSAGE(rows.closed, cut.first);
  }
}

// Strings longer than a vector step, with the quote, backslash or bracket at
// every offset: the skip that tests sixteen or eight bytes at a time agrees
// with a parser.
TEST_CASE("array_elements agrees with a parser on long strings and every offset") {
  for (std::size_t length = 0; length <= 40; ++length) {
    for (std::size_t where = 0; where <= length; ++where) {
      for (const char* special : {"\\\"", "\\\\", "]", ",", "[", "\\u005d", "}"}) {
        std::string value(length, 'x');
        value.insert(where, special);
        const std::string text = "[\"" + value + "\",{\"k\":[\"" + value + "\"]},7]";
        const nlohmann::json parsed = nlohmann::json::parse(text);
        const walked rows = walk(text);
        REQUIRE_MESSAGE(rows.elements.size() == parsed.size(), text);
        for (std::size_t i = 0; i < parsed.size(); ++i)
          CHECK_MESSAGE(nlohmann::json::parse(rows.elements[i]) == parsed[i], text);
        CHECK(rows.closed);
      }
    }
  }
}

TEST_CASE("array_length counts up to one past the limit, and nothing for what is not a whole array") {
  CHECK(array_length("[1,[2,3],\"4,5\"]", 100) == 3);
  CHECK(array_length(" [ ] ", 100) == 0);
  CHECK(array_length("[1,2,3]", 3) == 3);
  CHECK(array_length("[1,2,3]", 2) == 3);
  CHECK(array_length("[1,2,3,4]", 1) == 2);
  CHECK(array_length("[1,2,3,4]", 0) == 1);
  // Past the limit before the cut: over the limit, whatever follows.
  CHECK(array_length("[1,2,3,\"cut", 1) == 2);
  CHECK(array_length("[1,2,3,\"cut", 10) == std::nullopt);
  CHECK(array_length("[1,2", 10) == std::nullopt);
  CHECK(array_length(R"({"rows":[1,2]})", 10) == std::nullopt);
  CHECK(array_length("", 10) == std::nullopt);
}

}  // namespace
}  // namespace alfred::test
