// Two tables that hold the same UUID: a one-to-one table whose key is its
// parent's (`nutrition.id` references `recipes.id`), a shape Supabase apps
// use for details, settings and profiles. Each row keeps a ref of its own
// table, its own label, and the model can name either.
#include <doctest/doctest.h>

#include <string>

#include "../support.h"
#include "alfred/api/api.h"
#include "alfred/domain/domain.h"
#include "alfred/postgrest/request.h"
#include "alfred/registry/registry.h"
#include "alfred/registry/uuid_scrub.h"
#include "alfred/rows/row_translation.h"

namespace alfred::test {
namespace {

constexpr const char* kShared = "aaaaaaaa-0000-4000-8000-000000000001";

const domain& recipes_with_nutrition() {
  static const domain dom = [] {
    auto loaded = parse_domain(R"({"name": "shared", "tables": {
      "recipes": {"ref": "recipe", "label": ["name"], "columns": {
        "id": {"type": "uuid", "writable": false, "nullable": false}, "name": {"type": "text"}}},
      "nutrition": {"ref": "nutri", "label": ["kcal"], "columns": {
        "id": {"type": "uuid", "required": true, "references": "recipes"}, "kcal": {"type": "integer"}}},
      "meals": {"ref": "meal", "columns": {
        "id": {"type": "uuid", "writable": false, "nullable": false},
        "recipe_id": {"type": "uuid", "references": "recipes"},
        "nutrition_id": {"type": "uuid", "references": "nutrition"}}}}})");
    REQUIRE(loaded.ok());
    return std::move(*loaded);
  }();
  return dom;
}

std::string rows_of(ref_registry& reg, const char* table, const std::string& rows) {
  const domain& dom = recipes_with_nutrition();
  auto out = translate_rows(dom, reg, *dom.find_table(table), rows, ref_action::read);
  REQUIRE(out.ok());
  return *out;
}

}  // namespace

TEST_CASE("a UUID two tables hold gets a ref in each, with its own label, and either can be named") {
  ref_registry reg;
  const std::string id = std::string("\"") + kShared + "\"";
  CHECK(rows_of(reg, "recipes", "[{\"id\":" + id + ",\"name\":\"Dal\"}]") == R"([{"id":"recipe_1","name":"Dal"}])");
  CHECK(rows_of(reg, "nutrition", "[{\"id\":" + id + ",\"kcal\":300}]") == R"([{"id":"nutri_1","kcal":300}])");
  CHECK(reg.find("recipe_1")->label == "Dal");
  CHECK(reg.find("nutri_1")->label == "300");
  CHECK(
      rows_of(reg, "meals",
              std::string(R"([{"id":"bbbbbbbb-0000-4000-8000-000000000001","recipe_id":)") + id +
                  ",\"nutrition_id\":" + id + "}]") ==
      R"([{"id":"meal_1","recipe_id":"recipe_1","_recipe_id_label":"Dal","nutrition_id":"nutri_1","_nutrition_id_label":"300"}])");
  CHECK(reg.find_by_uuid(kShared, "nutri")->ref == "nutri_1");
  CHECK(reg.find_by_uuid(kShared, "recipe")->ref == "recipe_1");
  CHECK(reg.find_by_uuid(kShared)->ref == "recipe_1");
  CHECK(reg.find_by_uuid(kShared, "meal") == nullptr);
  CHECK(reg.find_by_uuid_preferring(kShared, "nutri")->ref == "nutri_1");
  CHECK(reg.find_by_uuid_preferring(kShared, "meal")->ref == "recipe_1");
  CHECK(reg.find_by_uuid_preferring(kShared, "")->ref == "recipe_1");

  // The model names the nutrition row by its own ref; the recipe's ref is another table's.
  const domain& dom = recipes_with_nutrition();
  const request_options options = alice_options();
  auto named = build_request(
      dom, reg, "db_update",
      R"({"table":"nutrition","filters":[{"field":"id","op":"=","value":"nutri_1"}],"data":{"kcal":320}})", options);
  REQUIRE(named.ok());
  CHECK(named->url.find(std::string("id=eq.") + kShared) != std::string::npos);
  auto other = build_request(
      dom, reg, "db_update",
      R"({"table":"nutrition","filters":[{"field":"id","op":"=","value":"recipe_1"}],"data":{"kcal":320}})", options);
  REQUIRE_FALSE(other.ok());
  CHECK(other.err().code == codes::ref_type_mismatch);

  // The model reads how: the key is the table's own ref, and a create names the parent row.
  CHECK(api::schema_description(dom).find(
            "- id: ref (nutri_N), required; a create gives the recipes row's ref (recipe_N)") != std::string::npos);

  // A create of a one-to-one row takes its parent's ref as its key.
  auto create =
      build_request(dom, reg, "db_create", R"({"table":"nutrition","data":{"id":"recipe_1","kcal":280}})", options);
  REQUIRE(create.ok());
  REQUIRE(create->body.has_value());
  CHECK(create->body->find(std::string("\"id\":\"") + kShared + "\"") != std::string::npos);

  // The state keeps both refs; text holding the UUID shows a ref, never the UUID.
  auto restored = ref_registry::from_json(reg.to_json());
  REQUIRE(restored.ok());
  CHECK(restored->find_by_uuid(kShared, "nutri")->ref == "nutri_1");
  CHECK(restored->find_by_uuid(kShared, "recipe")->ref == "recipe_1");
  std::string text = std::string("row ") + kShared + " changed";
  scrub_uuids(text, *restored);
  CHECK(text == "row recipe_1 changed");
}

}  // namespace alfred::test
