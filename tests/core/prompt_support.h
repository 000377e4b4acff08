#pragma once
// A realistic kitchen session for the prompt tests: rows that came back from
// PostgREST with UUIDs, translated through the registry over four turns, and
// the prompt input an Act loop would send for the current step.

#include <string>
#include <string_view>

#include "alfred/prompt/prompt.h"
#include "request_text.h"
#include "support.h"

namespace alfred::test {

/// Tool result item in the executor's shape, for a read that found `rows_json`.
inline std::string read_item(std::string_view table, std::string_view filters_json, std::string_view rows_json,
                             long count, std::string_view effective_json = "null", std::string_view notes_json = "[]") {
  std::string query = R"({"tool":"db_read","table":")" + std::string(table) + R"(","requested":{"filters":)" +
                      std::string(filters_json) +
                      R"(,"or_filters":[],"columns":null,"limit":100,"offset":null,"order_by":null,"order_dir":null,)"
                      R"("data_columns":null,"records":null},"effective":)" +
                      std::string(effective_json) + R"(,"notes":)" + std::string(notes_json) +
                      R"(,"source":"database","count":)" + std::to_string(count) + "}";
  return R"({"tool":"db_read","table":")" + std::string(table) + R"(","data":)" + std::string(rows_json) +
         R"(,"error":null,"count":)" + std::to_string(count) + R"(,"query":)" + query + "}";
}

/// The session: turn 1 read two recipes, turn 3 read the fridge, turn 4
/// (current) read recipes with ingredients and generated one recipe.
struct kitchen_session {
  ref_registry registry;
  std::string old_recipes, fridge, recipes_with_ingredients;

  kitchen_session() {
    registry.set_turn(1);
    old_recipes = translate(registry, "recipes", R"([
      {"id":"3f1c2a10-7d4e-4b8a-9c1d-2e3f4a5b6c70","user_id":"6f1c1a52-8d3e-4f7a-9a41-2b7d5e0c9a11","name":"Shakshuka","cuisine":"middle eastern"},
      {"id":"3f1c2a10-7d4e-4b8a-9c1d-2e3f4a5b6c71","user_id":"6f1c1a52-8d3e-4f7a-9a41-2b7d5e0c9a11","name":"Pad Thai","cuisine":"thai"}])");
    registry.set_turn(3);
    fridge = translate(registry, "inventory", R"([
      {"id":"5a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c01","user_id":"6f1c1a52-8d3e-4f7a-9a41-2b7d5e0c9a11","name":"milk","quantity":1,"unit":"l","location":"fridge","expiry_date":"2026-02-11","ingredient_id":"7c0d1e2f-3a4b-4c5d-8e6f-7a8b9c0d1e01"},
      {"id":"5a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c02","user_id":"6f1c1a52-8d3e-4f7a-9a41-2b7d5e0c9a11","name":"eggs","quantity":6,"unit":"pcs","location":"fridge","expiry_date":null,"ingredient_id":"7c0d1e2f-3a4b-4c5d-8e6f-7a8b9c0d1e02"}])");
    registry.set_turn(4);
    recipes_with_ingredients = translate(registry, "recipes", R"([
      {"id":"c69607bb-5d2e-4b8a-9f3c-1e2d3c4b5a61","user_id":"6f1c1a52-8d3e-4f7a-9a41-2b7d5e0c9a11","name":"Butter Chicken","cuisine":"indian","servings":4,"prep_time_minutes":20,"occasions":["weeknight"],
       "instructions":["Marinate the chicken in yoghurt, garlic and garam masala for at least an hour.","Simmer tomatoes, butter and cream until thick, then add the grilled chicken."],
       "recipe_ingredients":[
         {"id":"9e0f1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a01","recipe_id":"c69607bb-5d2e-4b8a-9f3c-1e2d3c4b5a61","name":"chicken thighs","quantity":800,"unit":"g"},
         {"id":"9e0f1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a02","recipe_id":"c69607bb-5d2e-4b8a-9f3c-1e2d3c4b5a61","name":"butter","quantity":50,"unit":"g"}]},
      {"id":"0d9a7c2e-3b4f-4e6a-8c1d-7f8e9a0b1c22","user_id":"6f1c1a52-8d3e-4f7a-9a41-2b7d5e0c9a11","name":"Cod Curry","cuisine":"indian","servings":2,"prep_time_minutes":15,"occasions":[],
       "recipe_ingredients":[
         {"id":"9e0f1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a03","recipe_id":"0d9a7c2e-3b4f-4e6a-8c1d-7f8e9a0b1c22","name":"cod","quantity":400,"unit":"g"}]}])");
    generate(
        registry, "recipes",
        R"({"name":"Thai Basil Chicken","cuisine":"thai","servings":2,"instructions":["Slice the chicken.","Stir-fry with basil."],"recipe_ingredients":[{"name":"chicken thighs","quantity":500,"unit":"g"}]})");
  }

  /// The prompt input for step 2 of 3 of type `type` in turn 4.
  std::string input(std::string_view type, std::string_view extra = "") const {
    const std::string recipes_item =
        read_item("recipes", R"([{"field":"cuisine","op":"=","value":"indian"}])", recipes_with_ingredients, 2);
    const std::string fridge_item =
        read_item("inventory", R"([{"field":"location","op":"=","value":"fridge"}])", fridge, 2);
    std::string out = R"({"step":{"type":")" + std::string(type) +
                      R"(","description":"Step two of the plan","index":1,"total":3,"subdomain":"recipes"},)";
    out += R"("user_message":"What Indian dishes can I cook tonight? Save the Thai one too.","today":"2026-02-09",)";
    out += R"("plan":["Read Indian recipes","Step two of the plan","Reply"],)";
    out +=
        R"("conversation":[{"role":"user","text":"What's in my fridge?"},{"role":"assistant","text":"Milk and eggs."},)";
    out += R"({"role":"user","text":"What Indian dishes can I cook tonight? Save the Thai one too."}],)";
    out +=
        R"("previous_turns":[{"turn":3,"steps":[{"index":0,"type":"read","description":"Read the fridge","summary":"2 items","results":[)" +
        fridge_item + "]}]}],";
    out +=
        R"("previous_steps":[{"index":0,"type":"read","description":"Read Indian recipes","summary":"Found 2 Indian recipes","note":"recipe_3 and recipe_4 are the Indian recipes","results":[)" +
        recipes_item + "]}],";
    out +=
        R"("user_profile":{"allergies":["peanuts"],"household_adults":2},"subdomain_guidance":"Prefers weeknight dishes under 40 minutes.")";
    if (!extra.empty()) out.append(",").append(extra);
    out += "}";
    return out;
  }
};

inline act_prompt build_prompt(const ref_registry& registry, std::string_view input_json) {
  auto prompt = build_act_prompt(kitchen(), registry, input_json);
  if (!prompt) FAIL_CHECK(prompt.err().code << " at " << prompt.err().path << ": " << prompt.err().message);
  REQUIRE(prompt.ok());
  return std::move(prompt).value();
}

inline error prompt_error(const ref_registry& registry, std::string_view input_json) {
  auto prompt = build_act_prompt(kitchen(), registry, input_json);
  REQUIRE_FALSE(prompt.ok());
  return prompt.err();
}

}  // namespace alfred::test
