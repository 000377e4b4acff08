// LIKE patterns on the wire: PostgREST reads every `*` of a like/ilike value
// as `%`, so patterns with a literal `*` go as anchored regular expressions.
#include "alfred/like_pattern.h"

#include <doctest/doctest.h>

namespace alfred::test {
namespace {

std::string wire(std::string_view pattern, bool case_insensitive = true) {
  const pattern_operand operand = encode_like_pattern(pattern, case_insensitive);
  return std::string(operand.op) + "." + operand.value;
}

}  // namespace

TEST_CASE("patterns without a literal * are sent as they are") {
  CHECK(wire("%chicken%") == "ilike.%chicken%");
  CHECK(wire("*chicken*") == "ilike.*chicken*");
  CHECK(wire("**chicken") == "ilike.**chicken");
  CHECK(wire("chicken*", false) == "like.chicken*");
  CHECK(wire("*") == "ilike.*");
  CHECK(wire("50\\%\\_off") == "ilike.50\\%\\_off");
  CHECK(wire("") == "ilike.");
}

TEST_CASE("a literal * in a pattern is not a wildcard on the wire") {
  SUBCASE("inside the pattern") {
    CHECK(wire("star*item") == "imatch.^star\\*item$");
    CHECK(wire("star*item", false) == "match.^star\\*item$");
  }
  SUBCASE("escaped, anywhere") {
    CHECK(wire("star\\*") == "imatch.^star\\*$");
    CHECK(wire("\\*star") == "imatch.^\\*star$");
  }
  SUBCASE("with edge wildcards, as the fuzzy name match writes it") {
    CHECK(wire("*star\\*item*") == "imatch.star\\*item");
    CHECK(wire("*star*item*") == "imatch.star\\*item");
    CHECK(wire("%a*b") == "imatch.a\\*b$");
    CHECK(wire("a*b%") == "imatch.^a\\*b");
  }
  SUBCASE("with the other wildcards and regex metacharacters") {
    CHECK(wire("a*b_c%d") == "imatch.^a\\*b.c.*d$");
    CHECK(wire("(1+2)*[x]{3}.^$|?") == "imatch.^\\(1\\+2\\)\\*\\[x\\]\\{3\\}\\.\\^\\$\\|\\?$");
    CHECK(wire("a*\\\\b") == "imatch.^a\\*\\\\b$");
    CHECK(wire("a*\\%") == "imatch.^a\\*%$");
    CHECK(wire("crème*brûlée") == "imatch.^crème\\*brûlée$");
  }
  SUBCASE("a trailing lone backslash stays a literal backslash") { CHECK(wire("a*b\\") == "imatch.^a\\*b\\\\$"); }
}

TEST_CASE("like_literal escapes every wildcard, * included") {
  CHECK(like_literal("star*item 50%_\\") == "star\\*item 50\\%\\_\\\\");
  CHECK(wire("*" + like_literal("*lead") + "*") == "imatch.\\*lead");
  CHECK(wire(like_literal("milk")) == "ilike.milk");
}

}  // namespace alfred::test
