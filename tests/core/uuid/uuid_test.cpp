// UUID checks for values the model writes where a row id is expected.

#include "alfred/uuid/uuid.h"

#include <string>

#include "../support.h"

namespace alfred::test {

TEST_CASE("is_uuid_syntax accepts 8-4-4-4-12 hex in any case") {
  CHECK(is_uuid_syntax("c69607bb-5d2e-4b8a-9f3c-1e2d3c4b5a61"));
  CHECK(is_uuid_syntax("C69607BB-5D2E-4B8A-9F3C-1E2D3C4B5A61"));
  CHECK(is_uuid_syntax("c69607BB-5d2E-4b8A-9f3C-1e2d3c4B5a61"));
  CHECK(is_uuid_syntax("00000000-0000-0000-0000-000000000000"));
}

TEST_CASE("is_uuid_syntax rejects everything that is not exactly a UUID") {
  for (const std::string text : {
           "",
           "c69607bb-5d2e-4b8a-9f3c-1e2d3c4b5a6",    // 35 chars
           "c69607bb-5d2e-4b8a-9f3c-1e2d3c4b5a611",  // 37 chars
           "c69607bb5d2e4b8a9f3c1e2d3c4b5a61",       // no dashes
           "{c69607bb-5d2e-4b8a-9f3c-1e2d3c4b5a61}",
           "c69607bb-5d2e-4b8a-9f3c_1e2d3c4b5a61",  // _ for -
           "c69607bb-5d2e4-b8a-9f3c-1e2d3c4b5a61",  // dash moved
           "g69607bb-5d2e-4b8a-9f3c-1e2d3c4b5a61",  // g is not hex
           " c69607bb-5d2e-4b8a-9f3c-1e2d3c4b5a6",  // leading space
           "recipe_1",
           "------------------------------------",
       }) {
    CAPTURE(text);
    CHECK_FALSE(is_uuid_syntax(text));
  }
  const std::string with_nul("c69607bb-5d2e-4b8a-9f3c-1e2d3c4b5a6\0", 36);
  CHECK_FALSE(is_uuid_syntax(with_nul));
}

TEST_CASE("canonical_uuid lower-cases the hex digits as PostgreSQL prints them") {
  CHECK(canonical_uuid("C69607BB-5D2E-4B8A-9F3C-1E2D3C4B5A61") == "c69607bb-5d2e-4b8a-9f3c-1e2d3c4b5a61");
  CHECK(canonical_uuid("c69607bb-5d2e-4b8a-9f3c-1e2d3c4b5a61") == "c69607bb-5d2e-4b8a-9f3c-1e2d3c4b5a61");
  CHECK(canonical_uuid("ABCDEF01-2345-4789-ABCD-EF0123456789") == "abcdef01-2345-4789-abcd-ef0123456789");
}

TEST_CASE("looks_like_broken_uuid: truncated or altered copies of a UUID") {
  for (const std::string text : {
           "c69607bb-5d2e-4b8a",                     // truncated
           "c69607bb-5d2e-4b8a-9f3c-1e2d3c4b5a6",    // one digit short
           "c69607bb-5d2e-4b8a-9f3c-1e2d3c4b5a611",  // one digit too many
           "c69607bb-5d2e-4b8a-9f3c1e2d3c4b5a61",    // a dash lost
           "C69607BB-5D2E",                          // upper case
       }) {
    CAPTURE(text);
    CHECK(looks_like_broken_uuid(text));
  }
}

TEST_CASE("looks_like_broken_uuid: not for complete UUIDs, refs, words or short text") {
  for (const std::string text : {
           "c69607bb-5d2e-4b8a-9f3c-1e2d3c4b5a61",  // complete
           "recipe_1", "gen_recipe_1", "Butter Chicken", "", "c696-07", "cafe-be",
           "c69607bb-5d2e-4b8a-9f3c-1e2d3c4b5a6z",  // a non-hex letter
       }) {
    CAPTURE(text);
    CHECK_FALSE(looks_like_broken_uuid(text));
  }
}

TEST_CASE("implausible_uuid_reason: values no UUID generator produces") {
  CHECK(implausible_uuid_reason("00000000-0000-0000-0000-000000000000") == "it is the nil UUID");
  CHECK(implausible_uuid_reason("ffffffff-ffff-ffff-ffff-ffffffffffff") == "it is the max UUID");
  for (const std::string example : {"123e4567-e89b-12d3-a456-426614174000", "123e4567-e89b-12d3-a456-426655440000",
                                    "550e8400-e29b-41d4-a716-446655440000", "f81d4fae-7dec-11d0-a765-00a0c91e6bf6"}) {
    CAPTURE(example);
    CHECK(implausible_uuid_reason(example) == "it is a well-known example UUID from documentation");
  }
  // Padding a known prefix with zeros clears the version nibble.
  CHECK(implausible_uuid_reason("c69607bb-0000-0000-0000-000000000000") ==
        "its version digit is not 1-8, which no UUID generator produces");
  CHECK(implausible_uuid_reason("c69607bb-5d2e-9b8a-9f3c-1e2d3c4b5a61") ==
        "its version digit is not 1-8, which no UUID generator produces");
  CHECK(implausible_uuid_reason("c69607bb-5d2e-4b8a-cf3c-1e2d3c4b5a61") ==
        "its variant digit is not 8, 9, a or b, which no UUID generator produces");
  CHECK(implausible_uuid_reason("c69607bb-5d2e-4b8a-7f3c-1e2d3c4b5a61") ==
        "its variant digit is not 8, 9, a or b, which no UUID generator produces");
}

TEST_CASE("implausible_uuid_reason: real generator output (v1, v4, v7, all variants) is plausible") {
  for (const std::string uuid : {kAlice, kRecipe1, kRecipe2, kInv1,
                                 "7d444840-9dc0-11d1-b245-5ffdce74fad2",  // v1
                                 "01890a5d-ac96-774b-bcce-b302099a8057",  // v7
                                 "3f2504e0-4f89-41d3-8a0c-0305e82c3301", "3f2504e0-4f89-41d3-9a0c-0305e82c3301",
                                 "3f2504e0-4f89-41d3-aa0c-0305e82c3301", "3f2504e0-4f89-41d3-ba0c-0305e82c3301"}) {
    CAPTURE(uuid);
    CHECK(implausible_uuid_reason(uuid) == "");
  }
}

}  // namespace alfred::test
