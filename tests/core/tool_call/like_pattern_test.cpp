// LIKE patterns on the wire: PostgREST reads every `*` of a like/ilike value
// as `%`, so patterns with a literal `*` go as anchored regular expressions.
#include "alfred/tool_call/like_pattern.h"

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

TEST_CASE("a name match that ignores accents: every letter is the class of its forms") {
  const auto folded = [](std::string_view pattern) {
    const pattern_operand operand = encode_like_pattern(pattern, true, accent_folding::exact);
    return std::string(operand.op) + "." + operand.value;
  };
  const std::string c = "[cCÇçĆ-čḈḉ]";
  const std::string e = "[eEÈ-Ëè-ëĒ-ěȄ-ȇȨȩḔ-ḝẸ-ệ]";
  const std::string o = "[oOÒ-ÖØò-öøŌ-őƠơǑǒǪ-ǭǾǿȌ-ȏȪ-ȱṌ-ṓỌ-ợ]";
  SUBCASE("typed without accents, with them, or in capitals: one regular expression") {
    CHECK(folded("*ce*") == "imatch." + c + e);
    CHECK(folded("*cé*") == "imatch." + c + e);
    CHECK(folded("*CẾ*") == "imatch." + c + e);
    CHECK(folded("co") == "imatch.^" + c + o + "$");
    CHECK(folded("*ở*") == "imatch." + o);
  }
  SUBCASE("everything else is as without folding") {
    CHECK(folded("*e 1.5\\*x_%*") == "imatch." + e + " 1\\.5\\*[xXẊ-ẍ].");
    CHECK(folded("*日本*") == "imatch.日本");
    CHECK(folded("*×*") == "imatch.×");
  }
  SUBCASE("nothing to fold, or not ilike: the plain encoding") {
    CHECK(folded("*12 %*") == "ilike.*12 %*");
    CHECK(wire("*crème*", true) == "ilike.*crème*");
    CHECK(encode_like_pattern("*cre*", false, accent_folding::exact).op == "like");
  }
  SUBCASE("loosely, a letter is itself or any accented Latin letter") {
    CHECK(encode_like_pattern("pho", true, accent_folding::loose).value == "^[pÀ-ỹ][hÀ-ỹ][oÀ-ỹ]$");
    CHECK(encode_like_pattern("phở 2", true, accent_folding::loose).value == "^[pÀ-ỹ][hÀ-ỹ][oÀ-ỹ] 2$");
  }
  SUBCASE("a truncated UTF-8 sequence stays bytes") { CHECK(folded("*\xC3*") == "imatch.\xC3"); }
}

TEST_CASE("folding_within: exact while it fits, then loose, then none") {
  CHECK(folding_within("*creme brulee*", accent_folding::exact, kAccentFoldBudget) == accent_folding::exact);
  const std::string long_name = "*" + std::string(60, 'o') + "*";
  CHECK(folding_within(long_name, accent_folding::exact, kAccentFoldBudget) == accent_folding::loose);
  CHECK(folding_within("*" + std::string(200, 'o') + "*", accent_folding::exact, kAccentFoldBudget) ==
        accent_folding::none);
  CHECK(folding_within("*pho*", accent_folding::loose, 1000) == accent_folding::loose);
  CHECK(folding_within("*pho*", accent_folding::loose, 10) == accent_folding::none);
}

TEST_CASE("fold_latin trims, drops accents and lowers ASCII") {
  CHECK(fold_latin("Crème Brûlée") == "creme brulee");
  CHECK(fold_latin(" \t Jalapeño\r\n") == "jalapeno");
  CHECK(fold_latin("Phở Gà, Đà Nẵng") == "pho ga, da nang");
  CHECK(fold_latin("Jalapeño × 2 ŁÓDŹ ø") == "jalapeno × 2 lodz o");
  CHECK(fold_latin("日本 \xC3") == "日本 \xC3");
}

TEST_CASE("like_literal escapes every wildcard, * included") {
  CHECK(like_literal("star*item 50%_\\") == "star\\*item 50\\%\\_\\\\");
  CHECK(wire("*" + like_literal("*lead") + "*") == "imatch.\\*lead");
  CHECK(wire(like_literal("milk")) == "ilike.milk");
}

}  // namespace alfred::test
