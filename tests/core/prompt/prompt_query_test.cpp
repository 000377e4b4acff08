#include "alfred/prompt/prompt_query.h"

#include <doctest/doctest.h>

#include <string>

namespace alfred::test {
namespace {

std::string render(std::string_view json, query_style style = query_style::block) {
  auto text = render_query(json, style);
  if (!text) FAIL_CHECK(text.err().code << " at " << text.err().path << ": " << text.err().message);
  REQUIRE(text.ok());
  return *text;
}

constexpr const char* kPantry =
    R"({"tool":"db_read","table":"inventory","requested":{"filters":[{"field":"location","op":"=","value":"pantry"}],)"
    R"("or_filters":[],"columns":null,"limit":100,"offset":null,"order_by":null,"order_dir":null,"data_columns":null,)"
    R"("records":null},"effective":null,"notes":[],"source":"database","count":0})";

}  // namespace

TEST_CASE("render_query: a pantry read, with the narrow-filter tip") {
  CHECK(render(kPantry) ==
        "Query: Table: inventory | Filters: location = pantry | Limit: 100\n"
        "Outcome: 0 records found\n"
        "Tip: only rows with location = pantry were searched; a read without that filter would cover all of "
        "inventory.");
  CHECK(render(kPantry, query_style::line) == "read inventory (filters: location = pantry): 0 records");
}

TEST_CASE("render_query: a search that found nothing suggests other words, not a read of everything") {
  const std::string text =
      render(R"({"tool":"db_read","table":"tasks","requested":{"filters":[{"field":"search","op":"search",)"
             R"("value":"volume discount"}]},"source":"database","count":0})");
  CHECK(text.find("Tip: no row of tasks matched these words; other or fewer words may find some.") !=
        std::string::npos);
  CHECK(text.find("were searched") == std::string::npos);
}

TEST_CASE("render_query: unfiltered reads say so, rows found have no tip") {
  CHECK(render(R"({"tool":"db_read","table":"recipes","requested":{"filters":[]},"source":"database","count":1})") ==
        "Query: Table: recipes | Filters: none (all records)\nOutcome: 1 record found");
  CHECK(render(R"({"tool":"db_read","table":"recipes","requested":{"filters":[]},"count":0})") ==
        "Query: Table: recipes | Filters: none (all records)\nOutcome: 0 records found");
}

TEST_CASE("render_query: the effective query and middleware notes next to the requested one") {
  const char* milk =
      R"({"tool":"db_read","table":"inventory","requested":{"filters":[{"field":"name","op":"=","value":"milk"}]},)"
      R"("effective":{"filters":[{"field":"ingredient_id","op":"in","value":["ing_3"]}],"limit":100},)"
      R"("notes":["name = milk matched catalog ingredient ing_3; filtering by ingredient_id in [ing_3]"],)"
      R"("source":"database","count":0})";
  CHECK(render(milk) ==
        "Query: Table: inventory | Filters: name = milk\n"
        "Effective: Filters: ingredient_id in [ing_3] | Limit: 100\n"
        "Note: name = milk matched catalog ingredient ing_3; filtering by ingredient_id in [ing_3]\n"
        "Outcome: 0 records found\n"
        "Tip: only rows with ingredient_id in [ing_3] were searched; a read without that filter would cover all of "
        "inventory.");
  CHECK(render(milk, query_style::line) ==
        "read inventory (filters: name = milk; effective: ingredient_id in [ing_3]): 0 records");
}

TEST_CASE("render_query: Effective shows only the parts that changed, a dropped part as none") {
  // An include the middleware added: the columns alone.
  CHECK(render(R"({"tool":"db_read","table":"recipes","requested":{"filters":[],"limit":3},)"
               R"j("effective":{"filters":[],"columns":["*","recipe_ingredients(id,name)"],"limit":3},"count":3})j") ==
        "Query: Table: recipes | Filters: none (all records) | Limit: 3\n"
        "Effective: Columns: *, \"recipe_ingredients(id,name)\"\n"
        "Outcome: 3 records found");
  // A part the run left out, and one it changed, in the order a query line writes them.
  CHECK(render(R"({"tool":"db_read","table":"recipes","requested":{"filters":[{"field":"name","op":"=","value":"x"}],)"
               R"("order_by":"name","order_dir":"asc","limit":3,"offset":6},)"
               R"("effective":{"filters":[],"order_by":"name","order_dir":"asc","limit":3},"count":0})") ==
        "Query: Table: recipes | Filters: name = x | Order: name asc | Limit: 3 | Offset: 6\n"
        "Effective: Filters: none (all records) | Offset: none\n"
        "Outcome: 0 records found");
  // An effective call that renders as the asked one adds no line.
  CHECK(render(R"({"tool":"db_read","table":"recipes","requested":{"filters":[],"limit":3},)"
               R"("effective":{"filters":[],"limit":3,"data_columns":null},"count":1})") ==
        "Query: Table: recipes | Filters: none (all records) | Limit: 3\nOutcome: 1 record found");
  // A function's arguments.
  CHECK(render(R"({"tool":"db_call","table":"projects","function":"archive","requested":{"args":{"id":"p_1"}},)"
               R"("effective":{"args":{"id":"p_1","actor":"me"}},"count":1})") ==
        "Query: Function: archive | Args: id = p_1 | Returns: rows of projects\n"
        "Effective: Args: id = p_1, actor = me\n"
        "Outcome: 1 row returned");
  // An aggregate's order of groups is its own part, apart from an order of rows.
  CHECK(
      render(R"({"tool":"db_aggregate","table":"deals","requested":{"filters":[],"group_by":["stage"],)"
             R"("metrics":["count"],"order_metric":"count desc"},"effective":{"filters":[],"order_by":"stage",)"
             R"("order_dir":"asc","group_by":["stage"],"metrics":["count"],"order_metric":"count desc"},"count":2})") ==
      "Query: Table: deals | Filters: none (all records) | Group by: stage | Metrics: count | Order: count desc\n"
      "Effective: Order: stage asc\n"
      "Outcome: 2 groups computed");
}

TEST_CASE("render_query: every part of a read, and values that need quotes") {
  CHECK(
      render(
          R"({"tool":"db_read","table":"recipes","requested":{"filters":[)"
          R"({"field":"name","op":"ilike","value":"%mac, cheese%"},{"field":"parent_recipe_id","op":"is_null","value":null},)"
          R"({"field":"id","op":"not_in","value":["recipe_1","recipe_2"]},{"field":"occasions","op":"contains","value":["weeknight"]}],)"
          R"("or_filters":[{"field":"cuisine","op":"=","value":"thai"},{"field":"prep_time_minutes","op":"<=","value":30}],)"
          R"j("columns":["name","recipe_ingredients(name)"],"order_by":"name","order_dir":"desc","limit":20,"offset":40},"count":3})j") ==
      "Query: Table: recipes | Filters: name ilike \"%mac, cheese%\", parent_recipe_id is_null, id not_in [recipe_1, "
      "recipe_2], occasions contains [weeknight] | Any of: cuisine = thai OR prep_time_minutes <= 30 | Columns: "
      "name, recipe_ingredients(name) | Order: name desc | Limit: 20 | Offset: 40\n"
      "Outcome: 3 records found");
}

TEST_CASE("render_query: writes") {
  CHECK(
      render(
          R"({"tool":"db_create","table":"shopping_list","requested":{"data_columns":["name","quantity"],"records":2},"count":2})") ==
      "Query: Table: shopping_list | Create: 2 records | Columns: name, quantity\nOutcome: 2 records created");
  CHECK(
      render(
          R"({"tool":"db_update","table":"inventory","requested":{"filters":[{"field":"id","op":"=","value":"inv_4"}],"data_columns":["quantity"]},"count":1})") ==
      "Query: Table: inventory | Filters: id = inv_4 | Set: quantity\nOutcome: 1 record updated");
  CHECK(
      render(
          R"({"tool":"db_delete","table":"shopping_list","requested":{"filters":[{"field":"id","op":"in","value":["shop_2","shop_5"]}]},"count":2})",
          query_style::line) == "delete shopping_list (filters: id in [shop_2, shop_5]): 2 deleted");
}

TEST_CASE("render_query: generated content, errors and calls that never ran") {
  CHECK(
      render(
          R"({"tool":"db_read","table":"recipes","requested":{"filters":[{"field":"id","op":"=","value":"gen_recipe_1"}]},"source":"generated","count":1})") ==
      "Query: Table: recipes | Filters: id = gen_recipe_1\n"
      "Source: generated content (unsaved gen_ artifacts; no database call)\n"
      "Outcome: 1 record found");
  const char* item =
      R"({"tool":"db_read","table":"inventory","data":null,"count":null,)"
      R"("error":{"code":"unknown_column","path":"filters[0].field","message":"'colour' is not a column of inventory","hint":"columns: name, location"},)"
      R"("query":{"tool":"db_read","table":"inventory","requested":{"filters":[{"field":"colour","op":"=","value":"red"}]},"source":"none","count":null}})";
  CHECK(render(item) ==
        "Query: Table: inventory | Filters: colour = red\n"
        "Source: not executed\n"
        "Outcome: error unknown_column at filters[0].field: 'colour' is not a column of inventory (hint: columns: "
        "name, location)");
  CHECK(render(item, query_style::line) == "read inventory (filters: colour = red): error unknown_column");
}

TEST_CASE("render_query: a result item counts its data, refs that matched nothing get their own tip") {
  CHECK(render(R"({"tool":"db_read","table":"recipes","data":[{"id":"recipe_1"},{"id":"recipe_2"}],"error":null,)"
               R"("query":{"tool":"db_read","table":"recipes","requested":{"filters":[]}}})") ==
        "Query: Table: recipes | Filters: none (all records)\nOutcome: 2 records found");
  CHECK(
      render(
          R"({"tool":"db_read","table":"recipes","requested":{"filters":[{"field":"id","op":"in","value":["recipe_9"]}]},"count":0})") ==
      "Query: Table: recipes | Filters: id in [recipe_9]\nOutcome: 0 records found\n"
      "Tip: none of these refs matched a row; they may have been deleted.");
  CHECK(
      render(
          R"({"tool":"db_read","table":"recipes","requested":{"filters":[{"field":"cuisine","op":"=","value":"thai"},{"field":"servings","op":">=","value":4}]},"count":0})") ==
      "Query: Table: recipes | Filters: cuisine = thai, servings >= 4\nOutcome: 0 records found\n"
      "Tip: no row matched all of cuisine = thai, servings >= 4; fewer filters would broaden the read.");
}

TEST_CASE("render_query: ill-typed records are errors with a path") {
  CHECK(render_query("[1]").err().code == "invalid_query");
  CHECK(render_query(R"({"tool":"db_read","table":5})").err().path == "table");
  CHECK(render_query(R"({"query":{"source":"cache"}})").err().path == "query.source");
  CHECK(render_query("{").err().code == "invalid_json");
}

}  // namespace alfred::test

namespace alfred::test {
TEST_CASE("render_query: OR conditions alone are not 'all records', middleware groups are ANDed") {
  const std::string text = render(
      R"({"tool":"db_read","table":"inventory","requested":{"filters":[{"field":"name","op":"=","value":"milk"}]},)"
      R"("effective":{"filters":[],"or_filters":[{"field":"ingredient_id","op":"in","value":["ing_3"]},)"
      R"({"field":"name","op":"ilike","value":"*milk*"}]},"source":"database","count":2})");
  CHECK(text.find("\nEffective: Filters: none | Any of: ingredient_id in [ing_3] OR name ilike *milk*\n") !=
        std::string::npos);
  CHECK(text.find("none (all records)") == std::string::npos);
  const std::string grouped = render(
      R"({"tool":"db_read","table":"inventory","requested":{"filters":[]},"effective":{"filters":[],)"
      R"("or_filters":[{"field":"location","op":"=","value":"fridge"},{"field":"location","op":"=","value":"freezer"}],)"
      R"("or_groups":[[{"field":"ingredient_id","op":"in","value":["ing_3"]},{"field":"name","op":"ilike","value":"*milk*"}]]},)"
      R"("source":"database","count":1})");
  CHECK(grouped.find("Any of: location = fridge OR location = freezer AND (ingredient_id in [ing_3] OR name ilike "
                     "*milk*)") != std::string::npos);
}
}  // namespace alfred::test
