// The one home of the ref format (ref_format.h): what ref_text writes,
// parse_ref_name reads back, for regular and generated refs, and the
// prefixes a table may take.

#include "alfred/domain/ref_format.h"

#include <string>

#include "../support.h"

namespace alfred::test {
namespace {

TEST_CASE("ref_format: ref_text writes what parse_ref_name reads, regular and gen_") {
  CHECK(ref_text("recipe", 3) == "recipe_3");
  CHECK(ref_text("meal_plan", 1, true) == "gen_meal_plan_1");
  CHECK(ref_text("inv", kMaxRefNumber) == "inv_999999999");
  CHECK(generated_ref_prefix("recipe") == "gen_recipe");
  CHECK(ref_pattern("deal") == "deal_N");
  for (const bool generated : {false, true}) {
    for (const long number : {1L, 42L, kMaxRefNumber}) {
      for (const char* prefix : {"recipe", "meal_plan", "t2"}) {
        const auto name = parse_ref_name(ref_text(prefix, number, generated));
        REQUIRE(name);
        CHECK(name->prefix == prefix);
        CHECK(name->number == number);
        CHECK(name->generated == generated);
      }
    }
  }
}

TEST_CASE("ref_format: text that is not a ref, and the prefixes a table may not take") {
  for (const char* text :
       {"recipe", "recipe_", "_1", "recipe_01", "recipe_1000000000", "Recipe_1", "gen__1", "recipe_1a", "me"})
    CHECK_MESSAGE(!parse_ref_name(text), std::string(text));
  for (const char* prefix : {"recipe", "meal_plan", "t2", "general"})
    CHECK_MESSAGE(is_ref_prefix(prefix), std::string(prefix));
  for (const char* prefix : {"", "gen", "gen_x", "me", "recipe_", "Recipe", "2x", "a-b"})
    CHECK_MESSAGE(!is_ref_prefix(prefix), std::string(prefix));
}

}  // namespace
}  // namespace alfred::test
