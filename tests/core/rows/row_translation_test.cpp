// Output translation: rows from PostgREST become rows the model may see -
// refs instead of UUIDs, no owner column, no hidden or undeclared columns,
// and every row registered with its label .

#include "alfred/rows/row_translation.h"

#include <cctype>
#include <string>

#include "../request_text.h"
#include "../support.h"
#include "alfred/registry/uuid_scrub.h"
#include "alfred/rows/function_result.h"

namespace alfred::test {
namespace {

constexpr const char* kSaved = "5b0c6f3e-2a1d-4c8e-9f7a-3d2e1c0b9a88";
constexpr const char* kParent = "11111111-2222-4333-8444-555555555555";
constexpr const char* kRi1 = "22222222-2222-4333-8444-555555555555";
constexpr const char* kRi2 = "22222222-3333-4333-8444-555555555555";
constexpr const char* kSalt = "33333333-2222-4333-8444-555555555555";
constexpr const char* kMeal = "44444444-2222-4333-8444-555555555555";
constexpr const char* kTask = "55555555-2222-4333-8444-555555555555";
constexpr const char* kPref = "66666666-2222-4333-8444-555555555555";
constexpr const char* kLog = "77777777-2222-4333-8444-555555555555";
constexpr const char* kPepper = "88888888-2222-4333-8444-555555555555";

std::string q(const char* uuid) { return std::string("\"") + uuid + "\""; }

// A recipes row as PostgREST returns it for select=*,recipe_ingredients(*).
std::string butter_chicken_row() {
  return std::string(R"j({"id":)j") + q(kRecipe1) + R"j(,"user_id":)j" + q(kAlice) +
         R"j(,"name":"Butter Chicken","cuisine":"indian","embedding":[0.12,-0.5,0.33],"parent_recipe_id":)j" +
         q(kParent) + R"j(,"secret_column":"x","owner_uuid":)j" + q(kAlice) + R"j(,"recipe_ingredients":[{"id":)j" +
         q(kRi1) + R"j(,"user_id":)j" + q(kAlice) + R"j(,"recipe_id":)j" + q(kRecipe1) + R"j(,"ingredient_id":)j" +
         q(kSalt) + R"j(,"name":"salt","quantity":1.5},{"id":)j" + q(kRi2) + R"j(,"recipe_id":)j" + q(kRecipe1) +
         R"j(,"ingredient_id":null,"name":"ghee","quantity":null}]})j";
}

}  // namespace

TEST_CASE("ids and FK columns become refs - owner, hidden and undeclared columns are dropped") {
  ref_registry reg = sample_registry();
  const std::string out = translate(reg, "recipes", "[" + butter_chicken_row() + "]");
  CHECK(out == R"j([{"id":"recipe_1","name":"Butter Chicken","cuisine":"indian","parent_recipe_id":"recipe_3",)j"
               R"j("recipe_ingredients":[{"id":"ri_1","recipe_id":"recipe_1","ingredient_id":"ing_1",)j"
               R"j("name":"salt","quantity":1.5},)j"
               R"j({"id":"ri_2","recipe_id":"recipe_1","ingredient_id":null,"name":"ghee","quantity":null}]}])j");
  CHECK(first_uuid_in(out) == "");
}

TEST_CASE("regression: a number beyond a double is copied as written (JSON.parse reads it as Infinity)") {
  ref_registry reg = sample_registry();
  CHECK(translate(reg, "inventory", R"j([{"quantity":1.1e9995,"name":"milk","unit":"l"}])j") ==
        R"j([{"quantity":1.1e9995,"name":"milk","unit":"l"}])j");
}

TEST_CASE("unknown FK UUIDs are registered as linked refs with the target table") {
  ref_registry reg = sample_registry();
  translate(reg, "recipes", "[" + butter_chicken_row() + "]");
  const ref_entry* parent = reg.find("recipe_3");
  REQUIRE(parent != nullptr);
  CHECK(parent->key == kParent);
  CHECK(parent->action == ref_action::linked);
  CHECK(parent->table == "recipes");
  CHECK(parent->label == "");
  const ref_entry* salt = reg.find("ing_1");
  REQUIRE(salt != nullptr);
  CHECK(salt->key == kSalt);
  CHECK(salt->action == ref_action::linked);
  CHECK(salt->table == "ingredients");
  CHECK(salt->type == "ing");
}

TEST_CASE("nested rows are registered as read rows with their own labels") {
  ref_registry reg = sample_registry();
  reg.set_turn(2);
  translate(reg, "recipes", butter_chicken_row());
  const ref_entry* ri = reg.find("ri_1");
  REQUIRE(ri != nullptr);
  CHECK(ri->key == kRi1);
  CHECK(ri->table == "recipe_ingredients");
  CHECK(ri->label == "salt");
  CHECK(ri->action == ref_action::read);
  CHECK(ri->turn_created == 2);
  CHECK(reg.find("ri_2")->label == "ghee");
  // The top-level row was known: same ref, refreshed turn, label kept.
  const ref_entry* recipe = reg.find("recipe_1");
  CHECK(recipe->turn_created == 1);
  CHECK(recipe->turn_last == 2);
  CHECK(recipe->label == "Butter Chicken");
}

TEST_CASE("a single row object is translated as an object") {
  ref_registry reg = sample_registry();
  CHECK(translate(reg, "inventory",
                  std::string(R"j({"id":)j") + q(kInv1) + R"j(,"user_id":)j" + q(kAlice) +
                      R"j(,"name":"milk","quantity":2,"unit":"l","ingredient_id":null})j") ==
        R"j({"id":"inv_1","name":"milk","quantity":2,"unit":"l","ingredient_id":null})j");
}

TEST_CASE("many-to-one embeds (meal_plans → recipes) are translated - meal plan label is 'Feb 01 [dinner]'") {
  ref_registry reg = sample_registry();
  const std::string out = translate(reg, "meal_plans",
                                    std::string(R"j([{"id":)j") + q(kMeal) + R"j(,"user_id":)j" + q(kAlice) +
                                        R"j(,"date":"2026-02-01","meal_type":"dinner","recipe_id":)j" + q(kRecipe2) +
                                        R"j(,"recipes":{"id":)j" + q(kRecipe2) + R"j(,"name":"Cod Curry","user_id":)j" +
                                        q(kAlice) + R"j(},"servings":2}])j");
  CHECK(
      out ==
      R"j([{"id":"meal_1","date":"2026-02-01","meal_type":"dinner","recipe_id":"recipe_2","_recipe_id_label":"Cod Curry",)j"
      R"j("recipes":{"id":"recipe_2","name":"Cod Curry"},"servings":2}])j");
  REQUIRE(reg.find("meal_1") != nullptr);
  CHECK(reg.find("meal_1")->label == "Feb 01 [dinner]");
  CHECK(first_uuid_in(out) == "");
}

TEST_CASE("labels: name, title, date fallback, the fixed preferences label, cooking log dates") {
  ref_registry reg;
  translate(reg, "meal_plans", std::string(R"j([{"id":)j") + q(kMeal) + R"j(,"date":"2026-12-24"}])j");
  CHECK(reg.find("meal_1")->label == "2026-12-24");  // no meal_type: first label column
  translate(reg, "tasks", std::string(R"j([{"id":)j") + q(kTask) + R"j(,"title":"Thaw chicken"}])j");
  CHECK(reg.find("task_1")->label == "Thaw chicken");
  translate(reg, "preferences", std::string(R"j([{"id":)j") + q(kPref) + R"j(,"allergies":["peanuts"]}])j");
  CHECK(reg.find("pref_1")->label == "preferences");
  translate(reg, "cooking_log",
            std::string(R"j([{"id":)j") + q(kLog) + R"j(,"cooked_at":"2026-03-14T18:30:00+00:00","rating":5}])j");
  CHECK(reg.find("log_1")->label == "Mar 14");
  translate(reg, "inventory", std::string(R"j([{"id":)j") + q(kInv1) + R"j(,"name":"","notes":"x"}])j");
  CHECK(reg.find("inv_1")->label == "");
}

TEST_CASE("the same UUID gets the same ref across calls and in any letter case") {
  ref_registry reg;
  const std::string first = translate(reg, "recipes", std::string(R"j([{"id":)j") + q(kRecipe1) + R"j(,"name":"A"}])j");
  const std::string second =
      translate(reg, "recipes", R"j([{"id":"C69607BB-5D2E-4B8A-9F3C-1E2D3C4B5A61","name":"A"}])j");
  const std::string as_fk = translate(reg, "tasks",
                                      std::string(R"j([{"id":)j") + q(kTask) +
                                          R"j(,"title":"t","recipe_id":"C69607BB-5D2E-4B8A-9F3C-1E2D3C4B5A61"}])j");
  CHECK(first == R"j([{"id":"recipe_1","name":"A"}])j");
  CHECK(second == R"j([{"id":"recipe_1","name":"A"}])j");
  CHECK(as_fk == R"j([{"id":"task_1","title":"t","recipe_id":"recipe_1","_recipe_id_label":"A"}])j");
  CHECK(reg.entries().size() == 2);
}

TEST_CASE("a linked row read later keeps its ref and gets its label and action") {
  ref_registry reg = sample_registry();
  translate(reg, "inventory",
            std::string(R"j([{"id":"a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c51","ingredient_id":)j") + q(kSalt) + "}]");
  CHECK(reg.find("ing_1")->action == ref_action::linked);
  translate(reg, "ingredients", std::string(R"j([{"id":)j") + q(kSalt) + R"j(,"name":"salt","embedding":[1]}])j");
  CHECK(reg.find("ing_1")->action == ref_action::read);
  CHECK(reg.find("ing_1")->label == "salt");
  // A later FK sighting does not downgrade it back to linked.
  translate(reg, "shopping_list", std::string(R"j([{"id":)j") + q(kTask) + R"j(,"ingredient_id":)j" + q(kSalt) + "}]");
  CHECK(reg.find("ing_1")->action == ref_action::read);
}

TEST_CASE("uuid[] columns become arrays of refs") {
  ref_registry reg;
  const std::string out = translate(reg, "preferences",
                                    std::string(R"j([{"id":)j") + q(kPref) + R"j(,"assumed_staples":[)j" + q(kSalt) +
                                        "," + q(kPepper) + "," + q(kSalt) + R"j(],"favorite_cuisines":["thai"]}])j");
  CHECK(out == R"j([{"id":"pref_1","assumed_staples":["ing_1","ing_2","ing_1"],"favorite_cuisines":["thai"]}])j");
  CHECK(reg.find("ing_2")->key == kPepper);
  CHECK(translate(reg, "preferences", std::string(R"j([{"id":)j") + q(kPref) + R"j(,"assumed_staples":null}])j") ==
        R"j([{"id":"pref_1","assumed_staples":null}])j");
}

TEST_CASE("the action is recorded: created rows, updated rows, deleted rows") {
  ref_registry reg = sample_registry();
  translate(reg, "tasks", std::string(R"j({"id":)j") + q(kTask) + R"j(,"title":"t"})j", ref_action::created);
  CHECK(reg.find("task_1")->action == ref_action::created);
  translate(reg, "inventory", std::string(R"j([{"id":)j") + q(kInv1) + R"j(,"name":"milk"}])j", ref_action::updated);
  CHECK(reg.find("inv_1")->action == ref_action::updated);
  translate(reg, "recipes", std::string(R"j([{"id":)j") + q(kRecipe2) + R"j(,"name":"Cod Curry"}])j",
            ref_action::deleted);
  CHECK(reg.find("recipe_2")->action == ref_action::deleted);
}

TEST_CASE("regression: reading a saved artifact's row returns its regular ref and leaves the gen_ ref saved") {
  ref_registry reg = sample_registry();
  REQUIRE(reg.promote("gen_recipe_1", kSaved, "").ok());
  CHECK(translate(reg, "recipes", std::string(R"j([{"id":)j") + q(kSaved) + R"j(,"name":"Thai Basil Chicken"}])j") ==
        R"j([{"id":"recipe_3","name":"Thai Basil Chicken"}])j");
  CHECK(reg.find("gen_recipe_1")->action == ref_action::created);
  CHECK(reg.find_pending_by_label("recipe", "Thai Basil Chicken") == nullptr);
  CHECK(
      translate(reg, "recipe_ingredients",
                std::string(R"j([{"id":)j") + q(kRi1) + R"j(,"recipe_id":)j" + q(kSaved) + R"j(,"name":"basil"}])j") ==
      R"j([{"id":"ri_1","recipe_id":"recipe_3","_recipe_id_label":"Thai Basil Chicken","name":"basil"}])j");
}

TEST_CASE("values that are not UUIDs where UUIDs are declared are dropped, not shown") {
  ref_registry reg;
  CHECK(translate(reg, "tasks", R"j([{"id":"not-a-uuid","title":"t","recipe_id":"recipe_1","meal_plan_id":42}])j") ==
        R"j([{"title":"t"}])j");
  CHECK(reg.entries().empty());
}

TEST_CASE("non-row input: null stays null, scalars in an array are skipped, an empty array stays empty") {
  ref_registry reg;
  CHECK(translate(reg, "recipes", "null") == "null");
  CHECK(translate(reg, "recipes", "[]") == "[]");
  CHECK(translate(reg, "recipes", R"j([1, "x", null, {"name": "A"}])j") == R"j([{"name":"A"}])j");
}

TEST_CASE("regression: a UUID quoted inside a text value stays as written, the scrub for the model replaces it") {
  // The rows are the developer's and what a write-back starts from, so the
  // user's text is kept; a tool result runs the rows through scrub_uuids.
  ref_registry reg = sample_registry();
  const std::string out =
      translate(reg, "inventory",
                R"j([{"name":"jar","notes":"same box as C69607BB-5D2E-4B8A-9F3C-1E2D3C4B5A61, not )j"
                R"j(0b5e9c1a-7d3f-4e2b-9a8c-6f1d2e3c4b5a"}])j");
  CHECK(
      out ==
      R"j([{"name":"jar","notes":"same box as C69607BB-5D2E-4B8A-9F3C-1E2D3C4B5A61, not 0b5e9c1a-7d3f-4e2b-9a8c-6f1d2e3c4b5a"}])j");
  std::string for_model = out;
  scrub_uuids(for_model, reg);
  CHECK(for_model == R"j([{"name":"jar","notes":"same box as recipe_1, not <id>"}])j");
}

TEST_CASE("no 36-character UUID survives translation of a realistic mixed payload") {
  ref_registry reg = sample_registry();
  std::string rows = "[";
  rows += butter_chicken_row() + ",";
  rows += std::string(R"j({"id":)j") + q(kRecipe2) + R"j(,"user_id":)j" + q(kAlice) + R"j(,"name":"Cod Curry",)j" +
          R"j("parent_recipe_id":null,"embedding":"[0.1,0.2]","created_at":"2026-01-05T10:00:00+00:00",)j" +
          R"j("recipe_ingredients":[{"id":"99999999-2222-4333-8444-555555555555","recipe_id":)j" + q(kRecipe2) +
          R"j(,"ingredient_id":"aaaaaaaa-2222-4333-8444-555555555555","name":"cod","user_id":)j" + q(kAlice) + "}]}";
  rows += "]";
  const std::string out = translate(reg, "recipes", rows);
  CHECK(first_uuid_in(out) == "");
  CHECK(out.find("user_id") == std::string::npos);
  CHECK(out.find("embedding") == std::string::npos);
  CHECK(out.find("secret_column") == std::string::npos);

  const std::string log = translate(reg, "cooking_log",
                                    std::string(R"j([{"id":)j") + q(kLog) + R"j(,"user_id":)j" + q(kAlice) +
                                        R"j(,"recipe_id":)j" + q(kRecipe1) + R"j(,"from_meal_plan_id":)j" + q(kMeal) +
                                        R"j(,"cooked_at":"2026-03-14T18:30:00Z"}])j");
  CHECK(log ==
        R"j([{"id":"log_1","recipe_id":"recipe_1","_recipe_id_label":"Butter Chicken","from_meal_plan_id":"meal_1",)j"
        R"j("cooked_at":"2026-03-14T18:30:00Z"}])j");
  CHECK(first_uuid_in(log) == "");
}

TEST_CASE("row_label-driven labels feed generated artifacts too") {
  ref_registry reg;
  CHECK(generate(reg, "meal_plans", R"j({"date": "2026-02-01", "meal_type": "lunch"})j") == "gen_meal_1");
  CHECK(reg.find("gen_meal_1")->label == "Feb 01 [lunch]");
  CHECK(generate(reg, "tasks", R"j({"title": "Buy basil"})j") == "gen_task_1");
  CHECK(reg.find("gen_task_1")->label == "Buy basil");
}

TEST_CASE("PostgREST's json_agg layout is read and written compactly, jsonb keeps its values, not its spaces") {
  ref_registry reg;
  const std::string out =
      translate(reg, "ingredients",
                std::string("[{\"id\":") + q(kSalt) +
                    ",\"name\":\"salt\",\"nutrition_per_100g\":{\"fat\": [0.2, 1], \"kcal\": 52}}, \n "
                    "{\"id\":" +
                    q(kPepper) + ",\"name\":\"pepper\",\"tier\":1.50}]");
  CHECK(
      out ==
      R"j([{"id":"ing_1","name":"salt","nutrition_per_100g":{"fat":[0.2,1],"kcal":52}},{"id":"ing_2","name":"pepper","tier":1.50}])j");
}

TEST_CASE("strings are written escaped as JSON.stringify does, whatever escapes the input used") {
  ref_registry reg;
  const std::string out =
      translate(reg, "tasks",
                std::string(R"j([{"id":)j") + q(kTask) +
                    R"j(,"title":"a\/b \u00e9 \ud83c\udf73 \"q\" \\ \n \u001F \u0001 tab\t","ti\u0074le":"x"}])j");
  CHECK(out == std::string(R"j([{"id":"task_1","title":"a/b é 🍳 \"q\" \\ \n \u001f \u0001 tab\t","title":"x"}])j"));
  // The label is the decoded text of the last "title" member.
  CHECK(reg.find("task_1")->label == "x");
}

TEST_CASE("invalid JSON is an error and leaves the registry as it was, even after rows were registered") {
  ref_registry reg = sample_registry();
  const std::string before = reg.to_json();
  const table& recipes = *kitchen().find_table("recipes");
  const std::string good_row = std::string(R"j({"id":)j") + q(kParent) + R"j(,"name":"New name"})j";
  const std::string renamed =
      std::string(R"j({"id":)j") + q(kRecipe1) + R"j(,"name":"Renamed","parent_recipe_id":)j" + q(kSaved) + "}";
  for (const std::string& broken : std::vector<std::string>{
           "[" + good_row + "," + renamed + ",", "[" + renamed + "," + good_row + "] x",
           "[" + renamed + ",{\"id\":1,}]", "[" + renamed + R"j(,{"name":"\ud800"}])j",
           "[" + renamed + R"j(,{"name":"a)j" + std::string(1, '\x01') + "\"}]",
           std::string(70, '[') + std::string(70, ']'), "", "[01]", "[1.]", "[-]", "[tru]", R"j(["\x"])j"}) {
    CAPTURE(broken);
    auto out = translate_rows(kitchen(), reg, recipes, broken, ref_action::updated);
    REQUIRE_FALSE(out.ok());
    CHECK(out.err().code == "invalid_json");
    CHECK(out.err().path == "rows");
    CHECK(reg.to_json() == before);
  }
  // The numbers of refs that were never shown are handed out again.
  CHECK(translate(reg, "recipes", "[" + good_row + "]") == R"j([{"id":"recipe_3","name":"New name"}])j");
}

TEST_CASE("a row limit is counted in the translation pass: a row over it is response_too_large, nothing registered") {
  const table& recipes = *kitchen().find_table("recipes");
  const table& tasks = *kitchen().find_table("tasks");
  ref_registry reg = sample_registry();
  const std::string before = reg.to_json();
  // Two rows at the top, with two embedded rows: the embedded ones do not count.
  const std::string two = "[" + butter_chicken_row() + R"j(,{"id":)j" + q(kParent) + R"j(,"name":"Parent"}])j";
  std::size_t written = 0;
  CHECK(translate_rows(kitchen(), reg, recipes, two, ref_action::read, {}, &written, nullptr, 2).ok());
  CHECK(written == 2);
  reg = sample_registry();
  auto over = translate_rows(kitchen(), reg, recipes, two, ref_action::read, {}, nullptr, nullptr, 1);
  REQUIRE_FALSE(over.ok());
  CHECK(over.err().code == "response_too_large");
  CHECK(over.err().message == "more than 1 rows");
  CHECK(reg.to_json() == before);
  // Found at the row after the limit: what follows it is not read.
  CHECK(
      translate_rows(kitchen(), reg, recipes, two.substr(0, two.size() - 10), ref_action::read, {}, nullptr, nullptr, 1)
          .err()
          .code == "response_too_large");
  // Before any label is looked up: the rows are over the limit whatever their labels.
  const std::string unlabeled = std::string(R"j([{"id":)j") + q(kTask) + R"j(,"recipe_id":)j" + q(kSaved) +
                                R"j(},{"id":)j" + q(kLog) + R"j(,"recipe_id":)j" + q(kParent) + "}]";
  auto lookups = translate_rows_if_labeled(kitchen(), reg, tasks, unlabeled, ref_action::read, {}, 1);
  REQUIRE_FALSE(lookups.ok());
  CHECK(lookups.err().code == "response_too_large");
  CHECK(reg.to_json() == before);
  CHECK(translate_rows_if_labeled(kitchen(), reg, tasks, unlabeled, ref_action::read, {}, 2).ok());
  // Elements that are not rows count too, though none is written.
  CHECK(translate_rows(kitchen(), reg, tasks, "[0,null,\"x\"]", ref_action::read, {}, nullptr, nullptr, 2).err().code ==
        "response_too_large");
  CHECK(translate_rows(kitchen(), reg, tasks, "[0,null]", ref_action::read, {}, nullptr, nullptr, 2).ok());
}

TEST_CASE("JSON the reader accepts is accepted here too (nesting up to 64 levels, any whitespace)") {
  ref_registry reg;
  const std::string deep = std::string(62, '[') + std::string(62, ']');
  CHECK(translate(reg, "recipes", R"j([{"name":"A","tags":)j" + deep + "}]") ==
        R"j([{"name":"A","tags":)j" + deep + "}]");
  CHECK(translate(reg, "recipes", " \t\r\n[ { \"name\" : \"A\" , \"servings\" : -1.5e+3 } ] \n") ==
        R"j([{"name":"A","servings":-1.5e+3}])j");
  CHECK(translate(reg, "recipes", "\"text\"") == "null");
  CHECK(translate(reg, "recipes", "42") == "null");
}

TEST_CASE("FK labels: only when the target has a label that differs from its ref, uuid[] gets none") {
  ref_registry reg = sample_registry();
  reg.register_row("ingredients", "ing", kSalt, ref_action::read, "ing_1");  // a label that says nothing
  const std::string out = translate(reg, "recipe_ingredients",
                                    std::string(R"j([{"id":)j") + q(kRi1) + R"j(,"recipe_id":)j" + q(kRecipe2) +
                                        R"j(,"ingredient_id":)j" + q(kSalt) + R"j(,"name":"salt"},{"id":)j" + q(kRi2) +
                                        R"j(,"recipe_id":)j" + q(kParent) + R"j(,"name":"x"}])j");
  CHECK(
      out ==
      R"j([{"id":"ri_1","recipe_id":"recipe_2","_recipe_id_label":"Cod Curry","ingredient_id":"ing_1","name":"salt"},)j"
      R"j({"id":"ri_2","recipe_id":"recipe_3","name":"x"}])j");
  CHECK(translate(reg, "preferences",
                  std::string(R"j([{"id":)j") + q(kPref) + R"j(,"assumed_staples":[)j" + q(kSalt) + "]}]") ==
        R"j([{"id":"pref_1","assumed_staples":["ing_1"]}])j");
}

TEST_CASE("FK labels: a key to the row itself or to a row it is embedded in has none when that row shows its own") {
  ref_registry reg;
  const std::string out =
      translate(reg, "recipes",
                std::string(R"j([{"id":)j") + q(kRecipe1) + R"j(,"name":"Stock","parent_recipe_id":)j" + q(kRecipe1) +
                    R"j(,"recipe_ingredients":[{"id":)j" + q(kRi1) + R"j(,"recipe_id":)j" + q(kRecipe1) + "}]}]");
  CHECK(out == R"j([{"id":"recipe_1","name":"Stock","parent_recipe_id":"recipe_1",)j"
               R"j("recipe_ingredients":[{"id":"ri_1","recipe_id":"recipe_1"}]}])j");
  // The row's label is registered all the same: the row itself shows it.
  REQUIRE(reg.find("recipe_1") != nullptr);
  CHECK(reg.find("recipe_1")->label == "Stock");
}

TEST_CASE("FK labels: a key to an enclosing row whose text does not show its label keeps the label") {
  // The enclosing recipe read without its name (its label known from before),
  // or with its name only after the rows embedded in it.
  ref_registry reg = sample_registry();  // recipe_1 is Butter Chicken
  const std::string nameless =
      translate(reg, "recipes",
                std::string(R"j([{"id":)j") + q(kRecipe1) + R"j(,"recipe_ingredients":[{"id":)j" + q(kRi1) +
                    R"j(,"recipe_id":)j" + q(kRecipe1) + "}]}]");
  CHECK(
      nameless ==
      R"j([{"id":"recipe_1","recipe_ingredients":[{"id":"ri_1","recipe_id":"recipe_1","_recipe_id_label":"Butter Chicken"}]}])j");
  const std::string named_after =
      translate(reg, "recipes",
                std::string(R"j([{"id":)j") + q(kRecipe1) + R"j(,"recipe_ingredients":[{"id":)j" + q(kRi1) +
                    R"j(,"recipe_id":)j" + q(kRecipe1) + R"j(}],"name":"Butter Chicken"}])j");
  CHECK(
      named_after ==
      R"j([{"id":"recipe_1","recipe_ingredients":[{"id":"ri_1","recipe_id":"recipe_1","_recipe_id_label":"Butter Chicken"}],)j"
      R"j("name":"Butter Chicken"}])j");
  // A key to another row of the same table (a sibling, not an enclosing row) keeps its label.
  const std::string sibling = translate(reg, "recipes",
                                        std::string(R"j([{"id":)j") + q(kRecipe1) +
                                            R"j(,"name":"Butter Chicken","recipe_ingredients":[{"id":)j" + q(kRi1) +
                                            R"j(,"recipe_id":)j" + q(kRecipe2) + "}]}]");
  CHECK(sibling == R"j([{"id":"recipe_1","name":"Butter Chicken","recipe_ingredients":[{"id":"ri_1",)j"
                   R"j("recipe_id":"recipe_2","_recipe_id_label":"Cod Curry"}]}])j");
}

TEST_CASE("FK labels: an enclosing row whose label reads a hidden column keeps the label below it") {
  auto parsed = load_domain(R"({"name": "lists", "tables": {
    "lists": {"ref": "list", "label": ["title"], "hidden": ["title"], "relations": {"items": "items"}, "columns": {
      "id": {"type": "uuid", "writable": false}, "title": {"type": "text"}}},
    "items": {"ref": "item", "label": ["text"], "columns": {
      "id": {"type": "uuid", "writable": false}, "list_id": {"type": "uuid", "references": "lists"},
      "text": {"type": "text"}}}}})");
  REQUIRE(parsed.ok());
  const domain& dom = *parsed;
  ref_registry reg;
  auto out = translate_rows(dom, reg, *dom.find_table("lists"),
                            std::string(R"j([{"id":)j") + q(kRecipe1) + R"j(,"title":"Groceries","items":[{"id":)j" +
                                q(kRi1) + R"j(,"list_id":)j" + q(kRecipe1) + R"j(,"text":"milk"}]}])j",
                            ref_action::read);
  REQUIRE(out.ok());
  CHECK(*out == R"j([{"id":"list_1","items":[{"id":"item_1","list_id":"list_1","_list_id_label":"Groceries",)j"
                R"j("text":"milk"}]}])j");
}

TEST_CASE(
    "a row keyed by its name (roles): the ref, and the name beside it, in the row and wherever it is referenced") {
  auto parsed = load_domain(R"({"name": "saas", "tables": {
    "roles": {"ref": "role", "key": "name", "label": ["name"], "columns": {
      "name": {"type": "text", "writable": false}, "hierarchy_level": {"type": "integer"}}},
    "memberships": {"ref": "member", "label": ["account_role"], "columns": {
      "id": {"type": "uuid", "writable": false}, "account_role": {"type": "text", "references": "roles"}}}}})");
  if (!parsed) FAIL(parsed.err().path << ": " << parsed.err().message);
  const domain& dom = *parsed;
  CHECK(dom.find_table("roles")->labelled_by_key());
  CHECK_FALSE(dom.find_table("memberships")->labelled_by_key());
  ref_registry reg;
  auto roles = translate_rows(dom, reg, *dom.find_table("roles"),
                              R"([{"name":"owner","hierarchy_level":1},{"name":"member","hierarchy_level":2}])",
                              ref_action::read);
  REQUIRE(roles.ok());
  CHECK(*roles == R"([{"name":"role_1","hierarchy_level":1,"_name_label":"owner"},)"
                  R"({"name":"role_2","hierarchy_level":2,"_name_label":"member"}])");
  // A role the session has not read is labelled by its name too, with no lookup.
  ref_registry fresh;
  auto members =
      translate_rows(dom, fresh, *dom.find_table("memberships"),
                     std::string(R"([{"id":)") + q(kRi1) + R"(,"account_role":"viewer"}])", ref_action::read);
  REQUIRE(members.ok());
  CHECK(*members == R"([{"id":"member_1","account_role":"role_1","_account_role_label":"viewer"}])");
  CHECK(fresh.find("role_1")->label == "viewer");
  // In a function's answer too; a member's name there is not the role's.
  auto answer = translate_function_json(dom, fresh,
                                        R"([{"account_role":"viewer","name":"Ben Smith","email":"b@x.com"}])", kAlice);
  REQUIRE(answer.ok());
  CHECK(*answer ==
        R"([{"account_role":"role_1","_account_role_label":"viewer","name":"Ben Smith","email":"b@x.com"}])");
  CHECK(fresh.find("role_1")->label == "viewer");
}

TEST_CASE("label embeds: by the column, for the foreign keys a read shows whose target's label is more than its key") {
  auto parsed = load_domain(R"({"name": "shop", "tables": {
    "orders": {"ref": "order", "label": ["code"], "hidden": ["note_id"], "columns": {
      "id": {"type": "uuid", "writable": false}, "code": {"type": "text"},
      "customer_id": {"type": "uuid", "references": "customers"}, "note_id": {"type": "uuid", "references": "notes"},
      "tag_id": {"type": "integer", "references": "tags"}, "region": {"type": "text", "references": "regions"},
      "customer_id_with_a_name_as_long_as_postgresql_allows_it_to_be_x": {"type": "uuid", "references": "customers"}}},
    "order_details": {"ref": "detail", "label": ["text"], "columns": {
      "id": {"type": "uuid", "writable": false, "references": "orders"}, "text": {"type": "text"},
      "customer_id": {"type": "uuid", "references": "customers"}}},
    "customers": {"ref": "customer", "label": ["name"], "columns": {
      "id": {"type": "uuid", "writable": false}, "name": {"type": "text"}}},
    "notes": {"ref": "note", "label": ["body"], "columns": {
      "id": {"type": "uuid", "writable": false}, "body": {"type": "text"}}},
    "tags": {"ref": "tag", "label": ["id"], "columns": {"id": {"type": "integer", "writable": false}}},
    "regions": {"ref": "region", "key": ["code"], "label": ["name", "code"], "columns": {
      "code": {"type": "text"}, "name": {"type": "text"}}},
    "vendors": {"ref": "vendor", "exposed": false, "label": ["name"], "columns": {
      "id": {"type": "uuid", "writable": false}, "name": {"type": "text"}}},
    "supplies": {"ref": "supply", "label": ["name"], "columns": {
      "id": {"type": "uuid", "writable": false}, "name": {"type": "text"},
      "vendor_id": {"type": "uuid", "references": "vendors"}}}}})");
  if (!parsed) FAIL(parsed.err().path << ": " << parsed.err().message);
  const domain& dom = *parsed;
  auto selects = [&](std::string_view table, std::vector<std::string> columns) {
    std::vector<std::string> out;
    for (const auto& embed : label_embeds(dom, *dom.find_table(table), columns)) out.push_back(embed.select);
    return out;
  };
  // orders: note_id is hidden, a tag's label is its key, the longest name's alias would be cut short. An
  // embed brings the label's columns, the key only where the label reads it (the foreign key holds it).
  CHECK(selects("orders", {}) ==
        std::vector<std::string>{"_label_customer_id:customer_id(name)", "_label_region:region(name,code)"});
  // A one-to-one table's key is its parent's: the row's own ref, no label.
  CHECK(selects("order_details", {}) == std::vector<std::string>{"_label_customer_id:customer_id(name)"});
  CHECK(selects("order_details", {"text"}).empty());
  CHECK(selects("order_details", {"*"}) == selects("order_details", {}));
  // A table the API does not serve cannot be joined.
  CHECK(selects("supplies", {}).empty());

  ref_registry reg;
  const auto embeds = label_embeds(dom, *dom.find_table("order_details"), {});
  const std::string customer = numbered_uuid(5);
  // The customer's key is the foreign key beside the embed, which brings the label's columns alone.
  std::string upper = customer;
  for (char& c : upper) c = char(std::toupper(static_cast<unsigned char>(c)));
  REQUIRE(apply_embedded_labels(reg, embeds,
                                std::string(R"([{"id":")") + numbered_uuid(1) + R"(","customer_id":")" + upper +
                                    R"(","_label_customer_id":{"name":"Ada"}},{"id":")" + numbered_uuid(2) +
                                    R"(","customer_id":null,"_label_customer_id":null},7])")
              .ok());
  REQUIRE(reg.find_by_uuid(customer, "customer") != nullptr);
  CHECK(reg.find_by_uuid(customer, "customer")->label == "Ada");
  CHECK(reg.entries().size() == 1);
  CHECK_FALSE(apply_embedded_labels(reg, embeds, "[{").ok());
}

TEST_CASE("FK labels: a label that repeats the row's own label is left out, before or after it in the row") {
  ref_registry reg = sample_registry();
  reg.register_row("ingredients", "ing", kSalt, ref_action::read, "salt");
  const std::string ri = std::string(R"j({"id":)j") + q(kRi1) + R"j(,"ingredient_id":)j" + q(kSalt);
  // The row's name after the key, before it, another name, and a name that needs escapes.
  CHECK(translate(reg, "recipe_ingredients", ri + R"j(,"name":"salt","quantity":1})j") ==
        R"j({"id":"ri_1","ingredient_id":"ing_1","name":"salt","quantity":1})j");
  CHECK(translate(reg, "recipe_ingredients",
                  std::string(R"j({"name":"salt","id":)j") + q(kRi1) + R"j(,"ingredient_id":)j" + q(kSalt) + "}") ==
        R"j({"name":"salt","id":"ri_1","ingredient_id":"ing_1"})j");
  CHECK(translate(reg, "recipe_ingredients", ri + R"j(,"name":"sea salt"})j") ==
        R"j({"id":"ri_1","ingredient_id":"ing_1","_ingredient_id_label":"salt","name":"sea salt"})j");
  CHECK(translate(reg, "recipe_ingredients", ri + R"j(,"name":"salt \"fine\""})j") ==
        R"j({"id":"ri_1","ingredient_id":"ing_1","_ingredient_id_label":"salt","name":"salt \"fine\""})j");
  reg.register_row("ingredients", "ing", kSalt, ref_action::read, "salt \"fine\"");
  CHECK(translate(reg, "recipe_ingredients", ri + R"j(,"name":"salt \"fine\""})j") ==
        R"j({"id":"ri_1","ingredient_id":"ing_1","name":"salt \"fine\""})j");
  reg.register_row("ingredients", "ing", kSalt, ref_action::read, "salt");
  // Without its name the row does not say it: the label stays.
  CHECK(translate(reg, "recipe_ingredients", ri + "}") ==
        R"j({"id":"ri_1","ingredient_id":"ing_1","_ingredient_id_label":"salt"})j");
  // Taken out from the middle of a row, rows embedded after it moved back whole.
  const std::string stock =
      translate(reg, "recipes",
                std::string(R"j([{"id":)j") + q(kRecipe2) + R"j(,"parent_recipe_id":)j" + q(kRecipe1) +
                    R"j(,"recipe_ingredients":[{"id":)j" + q(kRi2) + R"j(,"recipe_id":)j" + q(kRecipe1) +
                    R"j(,"name":"ghee"}],"name":"Butter Chicken"}])j");
  CHECK(stock ==
        R"j([{"id":"recipe_2","parent_recipe_id":"recipe_1","recipe_ingredients":[{"id":"ri_2",)j"
        R"j("recipe_id":"recipe_1","_recipe_id_label":"Butter Chicken","name":"ghee"}],"name":"Butter Chicken"}])j");
}

TEST_CASE("label_select: id and the columns the label reads") {
  CHECK(label_select(*kitchen().find_table("meal_plans")) == "id,date,meal_type");
  CHECK(label_select(*kitchen().find_table("recipes")) == "id,name");
  CHECK(label_select(*kitchen().find_table("tasks")) == "id,title");
  CHECK(label_select(*kitchen().find_table("cooking_log")) == "id,cooked_at");
  CHECK(label_select(*kitchen().find_table("preferences")) == "id");
}

TEST_CASE("unlabeled_references: FK targets without a label, per table, minus labeled rows of the response") {
  ref_registry reg = sample_registry();  // recipe_1 and recipe_2 have labels
  const std::string rows = std::string(R"j([{"id":)j") + q(kTask) + R"j(,"title":"t","recipe_id":)j" + q(kRecipe1) +
                           R"j(,"meal_plan_id":)j" + q(kMeal) + R"j(},{"id":)j" + q(kLog) +
                           R"j(,"title":"u","recipe_id":)j" + q(kParent) + R"j(,"meal_plan_id":)j" + q(kMeal) +
                           R"j(},{"id":)j" + q(kPepper) + R"j(,"recipe_id":)j" + q(kTask) +
                           R"j(,"meal_plan_id":"C0FFEE00-2222-4333-8444-555555555555"}])j";
  const std::string before = reg.to_json();
  auto lookups = unlabeled_references(kitchen(), reg, *kitchen().find_table("tasks"), rows);
  REQUIRE(lookups.ok());
  CHECK(reg.to_json() == before);
  REQUIRE(lookups->size() == 2);
  CHECK((*lookups)[0].target->name == "meal_plans");
  CHECK((*lookups)[0].keys == std::vector<std::string>{kMeal, "c0ffee00-2222-4333-8444-555555555555"});
  CHECK((*lookups)[1].target->name == "recipes");
  // kTask is a row of this response, but of tasks, not recipes: still looked up.
  CHECK((*lookups)[1].keys == std::vector<std::string>{kParent, kTask});

  // Rows of the response with a label are not looked up (nested rows' FK to their parent).
  ref_registry fresh;
  auto nested =
      unlabeled_references(kitchen(), fresh, *kitchen().find_table("recipes"),
                           std::string(R"j([{"id":)j") + q(kRecipe1) + R"j(,"name":"A","parent_recipe_id":)j" +
                               q(kParent) + R"j(,"recipe_ingredients":[{"id":)j" + q(kRi1) + R"j(,"recipe_id":)j" +
                               q(kRecipe1) + R"j(,"ingredient_id":)j" + q(kSalt) + "}]}]");
  REQUIRE(nested.ok());
  REQUIRE(nested->size() == 2);
  CHECK((*nested)[0].target->name == "recipes");
  CHECK((*nested)[0].keys == std::vector<std::string>{kParent});
  CHECK((*nested)[1].target->name == "ingredients");
  CHECK((*nested)[1].keys == std::vector<std::string>{kSalt});

  auto none = unlabeled_references(kitchen(), reg, *kitchen().find_table("tasks"),
                                   std::string(R"j([{"recipe_id":)j") + q(kRecipe2) + "}]");
  REQUIRE(none.ok());
  CHECK(none->empty());
  CHECK(unlabeled_references(kitchen(), reg, *kitchen().find_table("tasks"), "[{").err().code == "invalid_json");
}

TEST_CASE("translate_rows_if_labeled: one pass when labels are known, else what unlabeled_references says") {
  const table& tasks = *kitchen().find_table("tasks");
  const table& recipes = *kitchen().find_table("recipes");
  // Every FK labeled: the translation, as translate_rows gives it.
  {
    ref_registry reg = sample_registry();
    ref_registry copy = sample_registry();
    const std::string rows =
        std::string(R"j([{"id":)j") + q(kTask) + R"j(,"title":"t","recipe_id":)j" + q(kRecipe2) + "}]";
    auto once = translate_rows_if_labeled(kitchen(), reg, tasks, rows, ref_action::read);
    REQUIRE(once.ok());
    CHECK(once->missing.empty());
    auto plain = translate_rows(kitchen(), copy, tasks, rows, ref_action::read);
    REQUIRE(plain.ok());
    CHECK(once->rows == *plain);
    CHECK(reg.to_json() == copy.to_json());
  }
  // Labels missing: the same lookups as the survey, nothing translated, the
  // registry as it was. (One UUID that is both a row of one table and a
  // foreign key into another is the one case where the two may differ: the
  // translation takes the label the registry already has for it.)
  for (const std::string& rows :
       {std::string(R"j([{"id":)j") + q(kTask) + R"j(,"title":"t","recipe_id":)j" + q(kRecipe1) +
        R"j(,"meal_plan_id":)j" + q(kMeal) + R"j(},{"id":)j" + q(kLog) + R"j(,"title":"u","recipe_id":)j" + q(kParent) +
        R"j(,"meal_plan_id":)j" + q(kMeal) + R"j(},{"id":)j" + q(kPepper) + R"j(,"recipe_id":)j" + q(kSaved) +
        R"j(,"meal_plan_id":"C0FFEE00-2222-4333-8444-555555555555"}])j"}) {
    ref_registry reg = sample_registry();
    const std::string before = reg.to_json();
    auto survey = unlabeled_references(kitchen(), reg, tasks, rows);
    auto once = translate_rows_if_labeled(kitchen(), reg, tasks, rows, ref_action::read);
    REQUIRE(once.ok());
    CHECK(once->rows.empty());
    CHECK(reg.to_json() == before);
    REQUIRE(once->missing.size() == survey->size());
    for (std::size_t i = 0; i < survey->size(); ++i) {
      CHECK(once->missing[i].target == (*survey)[i].target);
      CHECK(once->missing[i].keys == (*survey)[i].keys);
    }
  }
  // A row of the response that labels an FK target (a nested row's FK to its
  // parent) needs no lookup, as in the survey; the parent FK of a recipe does.
  ref_registry fresh;
  const std::string nested = std::string(R"j([{"id":)j") + q(kRecipe1) +
                             R"j(,"name":"A","recipe_ingredients":[{"id":)j" + q(kRi1) + R"j(,"recipe_id":)j" +
                             q(kRecipe1) + "}]}]";
  auto labeled = translate_rows_if_labeled(kitchen(), fresh, recipes, nested, ref_action::read);
  REQUIRE(labeled.ok());
  CHECK(labeled->missing.empty());
  CHECK(labeled->rows.find("recipe_1") != std::string::npos);
  CHECK(translate_rows_if_labeled(kitchen(), fresh, tasks, "[{", ref_action::read).err().code == "invalid_json");
}

TEST_CASE("apply_labels then translate: FKs get the looked-up labels, known refs keep their action") {
  ref_registry reg = sample_registry();
  translate(reg, "tasks", std::string(R"j([{"id":)j") + q(kTask) + R"j(,"meal_plan_id":)j" + q(kMeal) + "}]");
  REQUIRE(reg.find("meal_1")->label.empty());
  const table& meal_plans = *kitchen().find_table("meal_plans");
  REQUIRE(apply_labels(kitchen(), reg, meal_plans,
                       std::string(R"j([{"id":)j") + q(kMeal) +
                           R"j(,"date":"2026-02-01","meal_type":"dinner"},{"id":)j" + q(kLog) +
                           R"j(,"date":"2026-02-02","meal_type":"lunch"},{"id":null},{"date":"x"},7])j")
              .ok());
  CHECK(reg.find("meal_1")->label == "Feb 01 [dinner]");
  CHECK(reg.find("meal_1")->action == ref_action::linked);
  CHECK(reg.find("meal_2")->label == "Feb 02 [lunch]");
  CHECK(reg.find("meal_2")->key == kLog);
  CHECK(reg.find("meal_2")->action == ref_action::linked);
  CHECK(translate(reg, "tasks", std::string(R"j([{"id":)j") + q(kTask) + R"j(,"meal_plan_id":)j" + q(kMeal) + "}]") ==
        R"j([{"id":"task_1","meal_plan_id":"meal_1","_meal_plan_id_label":"Feb 01 [dinner]"}])j");
  const std::string before = reg.to_json();
  CHECK(apply_labels(kitchen(), reg, meal_plans, "[{").err().code == "invalid_json");
  CHECK(reg.to_json() == before);
}

}  // namespace alfred::test

namespace alfred::test {
namespace {

// The translation of one recipes or ingredients row holding `member`, or
// the error's message.
std::string translated_member(std::string_view table_name, std::string_view member, bool* quotes_uuid = nullptr) {
  ref_registry reg = sample_registry();
  const std::string body = std::string(R"j([{"name":"x",)j") + std::string(member) + "}]";
  auto out = translate_rows(kitchen(), reg, *kitchen().find_table(table_name), body, ref_action::read, {}, nullptr,
                            quotes_uuid);
  return out ? *out : out.err().message;
}

}  // namespace

TEST_CASE("a nested value is copied as it was written when it is compact, token by token when not") {
  // Compact, no escape: one span, byte for byte.
  CHECK(translated_member("recipes", R"j("instructions":["Chop.","Stir – gently.","Serve"])j") ==
        R"j([{"name":"x","instructions":["Chop.","Stir – gently.","Serve"]}])j");
  CHECK(translated_member("ingredients",
                          R"j("nutrition_per_100g":{"kcal":52,"fat":{"g":-0.2e1},"raw":[true,false,null,{},[]]})j") ==
        R"j([{"name":"x","nutrition_per_100g":{"kcal":52,"fat":{"g":-0.2e1},"raw":[true,false,null,{},[]]}}])j");
  CHECK(translated_member("recipes", R"j("tags":[],"instructions":[[]])j") ==
        R"j([{"name":"x","tags":[],"instructions":[[]]}])j");
  // Whitespace between tokens (jsonb as PostgreSQL prints it) and escapes
  // are written as JSON.stringify would.
  CHECK(translated_member("ingredients", R"j("nutrition_per_100g":{"kcal": 52, "fat": {"g": 0.2}, "tags" : [ ]})j") ==
        R"j([{"name":"x","nutrition_per_100g":{"kcal":52,"fat":{"g":0.2},"tags":[]}}])j");
  CHECK(translated_member("recipes", R"j("instructions":["say \"hi\"","caf\u00e9","a\/b"])j") ==
        R"j([{"name":"x","instructions":["say \"hi\"","café","a/b"]}])j");
  CHECK(translated_member("ingredients", R"j("nutrition_per_100g":{"k\u0065y":1})j") ==
        R"j([{"name":"x","nutrition_per_100g":{"key":1}}])j");
  // A dropped nested value is checked the same way, and left out.
  CHECK(translated_member("recipes", R"j("embedding":[0.1,-2,3e5],"secret":{"a":[1]})j") == R"j([{"name":"x"}])j");
}

TEST_CASE("regression: an invalid nested value is refused at the byte where it goes wrong") {
  // The compact copy gives up on anything unusual and the value is read
  // again token by token, which finds the problem and says where.
  const std::pair<const char*, const char*> cases[] = {
      {R"j("instructions":["a",])j", "invalid JSON at byte 33: unexpected character"},
      {R"j("instructions":["a" "b"])j", "invalid JSON at byte 33: expected , or ]"},
      {R"j("instructions":["a"})j", "invalid JSON at byte 32: expected , or ]"},
      {R"j("instructions":[01])j", "invalid JSON at byte 30: expected , or ]"},
      {R"j("instructions":[1.])j", "invalid JSON at byte 31: a fraction needs digits"},
      {R"j("instructions":[1e+])j", "invalid JSON at byte 32: an exponent needs digits"},
      {R"j("instructions":[-])j", "invalid JSON at byte 30: unexpected character"},
      {R"j("instructions":[tru])j", "invalid JSON at byte 29: unexpected character"},
      {R"j("instructions":["a\x"])j", "invalid JSON at byte 33: bad escape"},
      {"\"instructions\":[\"a\tb\"]", "invalid JSON at byte 32: control character in string"},
      {R"j("nutrition_per_100g":{"a" 1})j", "invalid JSON at byte 39: expected :"},
      {R"j("nutrition_per_100g":{1:1})j", "invalid JSON at byte 35: expected a key"},
      {R"j("nutrition_per_100g":{"a":1,})j", "invalid JSON at byte 41: expected a key"},
      {R"j("nutrition_per_100g":{"a":})j", "invalid JSON at byte 39: unexpected character"},
  };
  for (const auto& item : cases) {
    // Not a structured binding: clang 14 (Emscripten) cannot capture one.
    const char* member = item.first;
    const char* message = item.second;
    CAPTURE(member);
    const char* table_name = std::string_view(member).starts_with("\"nutrition") ? "ingredients" : "recipes";
    CHECK(translated_member(table_name, member) == std::string(message));
  }
  CHECK(translated_member("recipes", R"j("instructions":["a")j") == "invalid JSON at byte 32: expected , or ]");
  // As deep as the reader allows, and one level deeper.
  const auto nested = [](int levels) {
    return "\"instructions\":" + std::string(std::size_t(levels), '[') + std::string(std::size_t(levels), ']');
  };
  CHECK(translated_member("recipes", nested(62)).starts_with(R"j([{"name":"x","instructions":[[[)j"));
  CHECK(translated_member("recipes", nested(63)) == "invalid JSON at byte 90: nested too deeply");
}

TEST_CASE("quotes_uuid says whether a text of the output holds a UUID, as the scrub would find it") {
  bool quotes_uuid = true;
  translated_member("recipes", R"j("description":"Mix well - a non-stick pan; 2026-01-02T10:00:00+00:00")j",
                    &quotes_uuid);
  CHECK_FALSE(quotes_uuid);
  // Keys become refs: no text holds one.
  {
    ref_registry reg = sample_registry();
    auto out = translate_rows(kitchen(), reg, *kitchen().find_table("recipes"), "[" + butter_chicken_row() + "]",
                              ref_action::read, {}, nullptr, &quotes_uuid);
    REQUIRE(out);
    CHECK_FALSE(quotes_uuid);
  }
  const std::string uuid = "C69607BB-5D2E-4B8A-9F3C-1E2D3C4B5A61";
  const std::string holding[] = {
      R"j("description":")j" + uuid + R"j(")j",
      R"j("description":"see )j" + uuid + R"j(, then stir")j",
      R"j("description":"escaped\n)j" + uuid + R"j(")j",
      R"j("instructions":["a","b: )j" + uuid + R"j("])j",
      R"j("instructions":[ "b: )j" + uuid + R"j(" ])j",
      R"j("instructions":[{")j" + uuid + R"j(":1}])j",
      // An escape's hex digits complete one once written: the scrub reads
      // the written text, so this note does too.
      R"j("description":"\u00012345-1234-1234-1234-123456789abc")j",
  };
  for (const std::string& member : holding) {
    CAPTURE(member);
    quotes_uuid = false;
    const std::string out = translated_member("recipes", member, &quotes_uuid);
    CHECK(quotes_uuid);
    std::string scrubbed = out;
    scrub_uuids(scrubbed, sample_registry());
    CHECK(scrubbed != out);
  }
}

TEST_CASE("quotes_uuid: a foreign key's label that holds a UUID is noted too") {
  ref_registry reg = sample_registry();
  const std::string recipe = "0b5e9c1a-7d3f-4e2b-9a8c-6f1d2e3c4b5a";
  const std::string named = R"j([{"id":")j" + recipe + R"j(","name":"copy of c69607bb-5d2e-4b8a-9f3c-1e2d3c4b5a61"}])j";
  REQUIRE(translate_rows(kitchen(), reg, *kitchen().find_table("recipes"), named, ref_action::read));
  bool quotes_uuid = false;
  const std::string plan = R"j([{"id":"44444444-2222-4333-8444-555555555555","recipe_id":")j" + recipe + R"j("}])j";
  auto out = translate_rows(kitchen(), reg, *kitchen().find_table("meal_plans"), plan, ref_action::read, {}, nullptr,
                            &quotes_uuid);
  REQUIRE(out);
  CHECK(out->find("c69607bb") != std::string::npos);
  CHECK(quotes_uuid);
}

}  // namespace alfred::test
