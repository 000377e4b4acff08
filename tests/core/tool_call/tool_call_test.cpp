// Validation of the model's tool calls: every wrong or hostile input gets an
// error with a stable code, a path into the params, a message and a hint the
// model can act on. Successful calls are checked in request_test.cpp.

#include "alfred/tool_call/tool_call.h"

#include <cstdio>
#include <string>

#include "../request_text.h"
#include "../support.h"

namespace alfred::test {
namespace {

constexpr const char* kRecipeColumns =
    "columns of recipes: id, name, description, cuisine, difficulty, prep_time_minutes, cook_time_minutes, "
    "servings, instructions, tags, source_url, is_system, parent_recipe_id, occasions, health_tags, "
    "flavor_tags, equipment_tags, created_at";
constexpr const char* kInventoryColumns =
    "columns of inventory: id, ingredient_id, name, quantity, unit, location, category, notes, expiry_date, "
    "purchase_date, created_at, updated_at";
constexpr const char* kKnownRecipes = "known recipe refs: recipe_1 (Butter Chicken), recipe_2 (Cod Curry)";
constexpr const char* kOpList =
    "supported ops: =, !=, >, >=, <, <=, in, not_in, like, ilike, not_like, not_ilike, is_null, is_not_null, "
    "contains, contained_by, overlaps, search, not_search, similar";
constexpr const char* kExclusionHint =
    ". To exclude rows: use not_in with the refs to drop, e.g. {\"field\": \"id\", \"op\": \"not_in\", \"value\": "
    "[\"recipe_5\", \"recipe_6\"]}; or in with the refs to keep; or not_ilike for a text pattern; or read "
    "everything and filter in an analyze step";
constexpr const char* kTables =
    "one of: recipes, recipe_ingredients, ingredients, inventory, shopping_list, meal_plans, tasks, preferences, "
    "cooking_log";

void check_error(const error& err, const std::string& code, const std::string& path, const std::string& message) {
  INFO(error_text(err));
  CHECK(err.code == code);
  CHECK(err.path == path);
  CHECK(err.message == message);
}

void check_error(const error& err, const std::string& code, const std::string& path, const std::string& message,
                 const std::string& hint) {
  check_error(err, code, path, message);
  CHECK(err.hint == hint);
}

// A read of recipes by id with one value (JSON text).
error recipe_id_error(const std::string& value_json, const ref_registry& reg = sample_registry()) {
  return build_error(
      "db_read", R"({"table": "recipes", "filters": [{"field": "id", "op": "=", "value": )" + value_json + "}]}", reg);
}

}  // namespace

// ---------------------------------------------------------------- tools and params

TEST_CASE("unknown tool name") {
  check_error(build_error("db_upsert", R"j({"table": "recipes"})j"), "unknown_tool", "tool",
              "'db_upsert' is not a tool", "one of: db_read, db_create, db_update, db_delete, db_aggregate");
  check_error(build_error("DB_READ", R"j({"table": "recipes"})j"), "unknown_tool", "tool", "'DB_READ' is not a tool");
}

TEST_CASE("params must be an object") {
  check_error(build_error("db_read", "[]"), "invalid_params", "", "params must be an object, got an array",
              "db_read takes: table, filters, or_filters, columns, limit, offset, order_by, order_dir, count");
  check_error(build_error("db_delete", "null"), "invalid_params", "", "params must be an object, got null",
              "db_delete takes: table, filters");
  check_error(build_error("db_create", R"("recipes")"), "invalid_params", "", "params must be an object, got a string");
}

TEST_CASE("unknown params are refused per tool (db_update with limit)") {
  check_error(
      build_error("db_update", R"j({"table": "inventory", "limit": 1, "filters": [], "data": {"quantity": 1}})j"),
      "unknown_param", "limit", "db_update does not take 'limit'", "allowed: table, filters, data");
  check_error(build_error("db_delete", R"j({"table": "inventory", "filters": [], "or_filters": []})j"), "unknown_param",
              "or_filters", "db_delete does not take 'or_filters'", "allowed: table, filters");
  check_error(build_error("db_create", R"j({"table": "inventory", "filters": [], "data": {}})j"), "unknown_param",
              "filters", "db_create does not take 'filters'", "allowed: table, data");
  check_error(build_error("db_read", R"j({"table": "inventory", "data": {}})j"), "unknown_param", "data",
              "db_read does not take 'data'",
              "allowed: table, filters, or_filters, columns, limit, offset, order_by, order_dir, count");
  check_error(build_error("db_read", R"j({"table": "inventory", "order": "name"})j"), "unknown_param", "order",
              "db_read does not take 'order'");
}

TEST_CASE("table: missing, not a string, unknown") {
  check_error(build_error("db_read", "{}"), "missing_param", "table", "table is required", kTables);
  check_error(build_error("db_read", R"j({"table": null})j"), "missing_param", "table", "table is required");
  check_error(build_error("db_read", R"j({"table": ["recipes"]})j"), "invalid_param", "table",
              "table must be a string, got an array", kTables);
  check_error(build_error("db_read", R"j({"table": "recipe"})j"), "unknown_table", "table",
              "'recipe' is not a table of the kitchen domain", kTables);
  check_error(build_error("db_read", R"j({"table": "Recipes"})j"), "unknown_table", "table",
              "'Recipes' is not a table of the kitchen domain");
  check_error(build_error("db_read", R"j({"table": "recipes?select=*"})j"), "unknown_table", "table",
              "'recipes?select=*' is not a table of the kitchen domain");
}

TEST_CASE("writes to the read-only ingredients catalog are refused") {
  const char* hint = "read it with db_read and link its rows by ref, or tell the user it cannot be done here";
  check_error(build_error("db_create", R"j({"table": "ingredients", "data": {"name": "salt", "family": "salt"}})j"),
              "read_only_table", "table", "ingredients is read-only here; db_create is not allowed on it", hint);
  check_error(build_error("db_update", R"j({"table": "ingredients", "filters": [{"field": "name", "op": "=",
      "value": "salt"}], "data": {"name": "sea salt"}})j"),
              "read_only_table", "table", "ingredients is read-only here; db_update is not allowed on it", hint);
  check_error(build_error("db_delete", R"j({"table": "ingredients", "filters": [{"field": "name", "op": "=",
      "value": "salt"}]})j"),
              "read_only_table", "table", "ingredients is read-only here; db_delete is not allowed on it", hint);
}

// ---------------------------------------------------------------- filter shape

TEST_CASE("filters must be an array of objects with only field, op and value") {
  // The examples in hints name no table's columns: the domain is the app's.
  const char* example = R"j({"field": "<column>", "op": "=", "value": "<value>"})j";
  check_error(
      build_error("db_read", R"j({"table": "recipes", "filters": {"field": "name", "op": "=", "value": "x"}})j"),
      "invalid_param", "filters", "filters must be an array of filter objects, got an object",
      R"j([{"field": "<column>", "op": "=", "value": "<value>"}])j");
  check_error(build_error("db_read", R"j({"table": "recipes", "filters": "name = x"})j"), "invalid_param", "filters",
              "filters must be an array of filter objects, got a string");
  check_error(build_error("db_read", R"j({"table": "recipes", "or_filters": {}})j"), "invalid_param", "or_filters",
              "or_filters must be an array of filter objects, got an object");
  check_error(build_error("db_read", R"j({"table": "recipes", "filters": ["name = x"]})j"), "invalid_filter",
              "filters[0]", "a filter must be an object, got a string", example);
  check_error(build_error("db_read", R"j({"table": "recipes", "filters": [{"field": "name", "op": "=", "value": "x",
      "negate": true}]})j"),
              "invalid_filter", "filters[0].negate",
              "a filter has only field, op and value (and mode and language for search); got 'negate'", example);
  check_error(build_error("db_read", R"j({"table": "recipes", "filters": [{"field": "name", "op": "=", "value": "x"},
      {"field": "name", "operator": "=", "value": "y"}]})j"),
              "invalid_filter", "filters[1].operator",
              "a filter has only field, op and value (and mode and language for search); got 'operator'");
  check_error(build_error("db_read", R"j({"table": "recipes", "filters": [{"op": "=", "value": "x"}]})j"),
              "invalid_filter", "filters[0].field", "field is required and must be a column name", example);
  check_error(build_error("db_read", R"j({"table": "recipes", "filters": [{"field": 3, "op": "=", "value": "x"}]})j"),
              "invalid_filter", "filters[0].field", "field is required and must be a column name");
  check_error(build_error("db_read", R"j({"table": "recipes", "filters": [{"field": "name", "value": "x"}]})j"),
              "invalid_filter", "filters[0].op", "op is required",
              "one of: =, !=, >, >=, <, <=, in, not_in, like, ilike, not_like, not_ilike, is_null, is_not_null, "
              "contains, contained_by, overlaps, search, not_search, similar");
}

TEST_CASE("hints show refs and columns of the call's own table, not the kitchen's (pulled CRM)") {
  const ref_registry empty;
  auto negation =
      parse_tool_call(crm_pulled(), empty, "db_read",
                      R"j({"table": "deals", "filters": [{"field": "title", "op": "exclude", "value": "x"}]})j");
  REQUIRE_FALSE(negation.ok());
  CHECK(negation.err().hint ==
        std::string(kOpList) +
            ". To exclude rows: use not_in with the refs to drop, e.g. {\"field\": \"id\", "
            "\"op\": \"not_in\", \"value\": [\"deal_5\", \"deal_6\"]}; or in with the refs to "
            "keep; or not_ilike for a text pattern; or read everything and filter in an analyze step");
  auto columns = parse_tool_call(crm_pulled(), empty, "db_read", R"j({"table": "organizations", "columns": "name)"})j");
  REQUIRE_FALSE(columns.ok());
  CHECK(columns.err().hint == R"j(["name", "deals(title)"])j");
}

TEST_CASE("unknown operators that mean exclusion get the exclusion hint") {
  for (const std::string op :
       {"excludes", "not_contains", "NOT CONTAINS", "without", "!contains", "not_equal", "exclude"}) {
    CAPTURE(op);
    auto err = build_error(
        "db_read", R"j({"table": "recipes", "filters": [{"field": "name", "op": ")j" + op + R"j(", "value": "x"}]})j");
    check_error(err, "unknown_operator", "filters[0].op", "'" + op + "' is not a supported operator",
                std::string(kOpList) + kExclusionHint);
  }
}

TEST_CASE("other unknown operators list the supported ones") {
  for (const std::string op : {"between", "~", "regex", "is", "cs", "like_any", ""}) {
    CAPTURE(op);
    auto err = build_error("db_read", R"j({"table": "recipes", "or_filters": [{"field": "name", "op": ")j" + op +
                                          R"j(", "value": "x"}]})j");
    check_error(err, "unknown_operator", "or_filters[0].op", "'" + op + "' is not a supported operator", kOpList);
  }
}

TEST_CASE("filter fields: unknown, reserved by PostgREST, the owner column") {
  check_error(build_error("db_read", R"j({"table": "recipes", "filters": [{"field": "colour", "op": "=",
      "value": "red"}]})j"),
              "unknown_column", "filters[0].field", "recipes has no column 'colour'", kRecipeColumns);
  check_error(build_error("db_read", R"j({"table": "recipes", "filters": [{"field": "or", "op": "=",
      "value": "(id.not.is.null)"}]})j"),
              "reserved_column", "filters[0].field", "'or' is a PostgREST keyword, not a column of recipes",
              "to OR conditions, put them in or_filters");
  check_error(build_error("db_read", R"j({"table": "recipes", "filters": [{"field": "and", "op": "=",
      "value": "x"}]})j"),
              "reserved_column", "filters[0].field", "'and' is a PostgREST keyword, not a column of recipes",
              "to OR conditions, put them in or_filters");
  check_error(build_error("db_read", R"j({"table": "recipes", "filters": [{"field": "select", "op": "=",
      "value": "*"}]})j"),
              "reserved_column", "filters[0].field", "'select' is a PostgREST keyword, not a column of recipes",
              kRecipeColumns);
  check_error(build_error("db_delete", R"j({"table": "inventory", "filters": [{"field": "limit", "op": "=",
      "value": "1"}]})j"),
              "reserved_column", "filters[0].field", "'limit' is a PostgREST keyword, not a column of inventory",
              kInventoryColumns);
  check_error(build_error("db_read", R"j({"table": "recipes", "or_filters": [{"field": "name", "op": "=", "value": "a"},
      {"field": "order", "op": "=", "value": "x"}]})j"),
              "reserved_column", "or_filters[1].field", "'order' is a PostgREST keyword, not a column of recipes");
  check_error(build_error("db_read", R"j({"table": "recipes", "filters": [{"field": "user_id", "op": "=",
      "value": "6f1c1a52-8d3e-4f7a-9a41-2b7d5e0c9a11"}]})j"),
              "system_column", "filters[0].field", "user_id is applied automatically; it cannot be used",
              "rows are always limited to the signed-in user");
  check_error(
      build_error("db_read", R"j({"table": "recipes", "or_filters": [{"field": "user_id", "op": "is_not_null"}]})j"),
      "system_column", "or_filters[0].field", "user_id is applied automatically; it cannot be used");
  // Embedded-resource keys and JSON paths are not columns either.
  check_error(build_error("db_read", R"j({"table": "recipes", "filters": [{"field": "recipe_ingredients.name",
      "op": "=", "value": "salt"}]})j"),
              "unknown_column", "filters[0].field", "recipes has no column 'recipe_ingredients.name'");
  check_error(build_error("db_read", R"j({"table": "preferences", "filters": [{"field": "subdomain_guidance->>theme",
      "op": "=", "value": "dark"}]})j"),
              "unknown_column", "filters[0].field", "preferences has no column 'subdomain_guidance->>theme'");
}

// ---------------------------------------------------------------- values per op

TEST_CASE("in / not_in with a scalar is an error with a corrected example") {
  check_error(build_error("db_read", R"j({"table": "recipes", "filters": [{"field": "cuisine", "op": "in",
      "value": "indian"}]})j"),
              "invalid_value", "filters[0].value", "in needs a list of values, got a string",
              R"(write "value": ["indian"])");
  check_error(build_error("db_read", R"j({"table": "recipes", "filters": [{"field": "id", "op": "in",
      "value": "recipe_1"}]})j"),
              "invalid_value", "filters[0].value", "in needs a list of values, got a string",
              R"(write "value": ["recipe_1"])");
  check_error(build_error("db_read", R"j({"table": "recipes", "filters": [{"field": "servings", "op": "not_in",
      "value": 4}]})j"),
              "invalid_value", "filters[0].value", "not_in needs a list of values, got a number",
              R"(write "value": [4])");
  check_error(build_error("db_read", R"j({"table": "recipes", "filters": [{"field": "cuisine", "op": "in",
      "value": {"a": 1}}]})j"),
              "invalid_value", "filters[0].value", "in needs a list of values, got an object",
              R"(write "value": ["a", "b"])");
  check_error(build_error("db_read", R"j({"table": "recipes", "filters": [{"field": "cuisine", "op": "in"}]})j"),
              "invalid_value", "filters[0].value", "in needs a list of values, got nothing",
              R"(write "value": ["a", "b"])");
}

TEST_CASE("eq / comparisons: missing value, list value, wrong column type") {
  check_error(build_error("db_read", R"j({"table": "recipes", "filters": [{"field": "cuisine", "op": "="}]})j"),
              "invalid_value", "filters[0].value", "value is required", "to test for a missing value use op is_null");
  check_error(build_error("db_read", R"j({"table": "recipes", "filters": [{"field": "cuisine", "op": "=",
      "value": ["indian", "thai"]}]})j"),
              "invalid_value", "filters[0].value", "cuisine compares against one value, got an array",
              "use op 'in' with a list, or 'contains' for array columns");
  check_error(build_error("db_read", R"j({"table": "recipes", "filters": [{"field": "servings", "op": ">",
      "value": null}]})j"),
              "invalid_value", "filters[0].value", "> needs a value");
  check_error(build_error("db_read", R"j({"table": "recipes", "filters": [{"field": "id", "op": ">",
      "value": "recipe_1"}]})j"),
              "invalid_value", "filters[0].value", "id cannot be compared with >", "use = or in");
  check_error(build_error("db_read", R"j({"table": "recipe_ingredients", "filters": [{"field": "is_optional",
      "op": "<=", "value": true}]})j"),
              "invalid_value", "filters[0].value", "is_optional cannot be compared with <=", "use = or in");
  check_error(build_error("db_read", R"j({"table": "recipes", "filters": [{"field": "occasions", "op": "=",
      "value": "weeknight"}]})j"),
              "invalid_value", "filters[0].value",
              "occasions is text[]; compare it with contains, contained_by or overlaps",
              R"j({"field": "occasions", "op": "contains", "value": ["…"]})j");
  check_error(build_error("db_read", R"j({"table": "preferences", "filters": [{"field": "subdomain_guidance",
      "op": "=", "value": "x"}]})j"),
              "invalid_value", "filters[0].value",
              "subdomain_guidance is jsonb; compare it with contains, contained_by or overlaps");
}

TEST_CASE("column types: integers, numbers, booleans, enum values") {
  check_error(build_error("db_read", R"j({"table": "recipes", "filters": [{"field": "prep_time_minutes", "op": "<=",
      "value": "thirty"}]})j"),
              "invalid_value", "filters[0].value", "prep_time_minutes expects a whole number such as 30, got 'thirty'",
              "give a whole number such as 30");
  check_error(build_error("db_read", R"j({"table": "recipes", "filters": [{"field": "servings", "op": "=",
      "value": 2.5}]})j"),
              "invalid_value", "filters[0].value", "servings expects a whole number such as 30, got a number");
  check_error(build_error("db_read", R"j({"table": "inventory", "filters": [{"field": "quantity", "op": ">",
      "value": "2,5"}]})j"),
              "invalid_value", "filters[0].value", "quantity expects a number such as 2.5, got '2,5'",
              "give a number such as 2.5");
  check_error(build_error("db_read", R"j({"table": "recipe_ingredients", "filters": [{"field": "is_optional",
      "op": "=", "value": "yes"}]})j"),
              "invalid_value", "filters[0].value", "is_optional expects true or false, got 'yes'",
              "give true or false");
  check_error(build_error("db_read", R"j({"table": "recipes", "filters": [{"field": "name", "op": "=",
      "value": true}]})j"),
              "invalid_value", "filters[0].value", "name expects a string, got a boolean", "give a string");
  check_error(build_error("db_read", R"j({"table": "recipes", "filters": [{"field": "difficulty", "op": "=",
      "value": "EASY"}]})j"),
              "invalid_value", "filters[0].value", "'EASY' is not an allowed value for difficulty",
              "use one of: easy, medium, hard");
  check_error(build_error("db_read", R"j({"table": "recipes", "filters": [{"field": "difficulty", "op": "in",
      "value": ["easy", "impossible"]}]})j"),
              "invalid_value", "filters[0].value[1]", "'impossible' is not an allowed value for difficulty",
              "use one of: easy, medium, hard");
  check_error(build_error("db_read", R"j({"table": "recipes", "filters": [{"field": "flavor_tags", "op": "overlaps",
      "value": ["spicy", "bitter"]}]})j"),
              "invalid_value", "filters[0].value[1]", "'bitter' is not an allowed value for flavor_tags",
              "use one of: spicy, mild, savory, sweet, tangy, rich, light, umami, other");
}

TEST_CASE("dates and timestamps are validated, not sent for the server to reject") {
  const char* date_hint = "give an ISO date such as 2026-03-14";
  for (const std::string date : {"2026-02-30", "2025-02-29", "2026-13-01", "2026-00-10", "2026-04-31", "26-02-01",
                                 "2026-2-1", "2026/02/01", "tomorrow", "2026-02-01T10:00:00"}) {
    CAPTURE(date);
    check_error(build_error("db_read", R"j({"table": "inventory", "filters": [{"field": "expiry_date", "op": "<",
        "value": ")j" + date + R"j("}]})j"),
                "invalid_value", "filters[0].value",
                "expiry_date expects an ISO date such as 2026-03-14, got '" + date + "'", date_hint);
  }
  for (const std::string stamp :
       {"2026-02-01T25:00:00Z", "2026-02-01T10:60:00Z", "2026-02-30T10:00:00Z", "2026-02-01T10:00:00+2",
        "2026-02-01T10:00:00 UTC", "2026-02-01T10", "2026-02-01T10:00:00.Z", "2026-02-01X10:00:00"}) {
    CAPTURE(stamp);
    check_error(build_error("db_read", R"j({"table": "inventory", "filters": [{"field": "created_at", "op": ">",
        "value": ")j" + stamp + R"j("}]})j"),
                "invalid_value", "filters[0].value",
                "created_at expects an ISO timestamp such as 2026-03-14T18:30:00Z, got '" + stamp + "'",
                "give an ISO timestamp such as 2026-03-14T18:30:00Z");
  }
}

TEST_CASE("pattern and containment ops on the wrong column types") {
  check_error(build_error("db_read", R"j({"table": "recipes", "filters": [{"field": "servings", "op": "ilike",
      "value": "4"}]})j"),
              "invalid_value", "filters[0].value", "servings is integer; pattern matching works on text columns",
              "use =, in or a comparison");
  check_error(build_error("db_read", R"j({"table": "recipes", "filters": [{"field": "name", "op": "like",
      "value": 4}]})j"),
              "invalid_value", "filters[0].value", "like needs a text pattern such as \"%word%\", got a number");
  check_error(build_error("db_read", R"j({"table": "recipes", "filters": [{"field": "name", "op": "contains",
      "value": ["x"]}]})j"),
              "invalid_value", "filters[0].value", "contains works on array and JSON columns; name is text",
              R"(for text use ilike, e.g. {"field": "name", "op": "ilike", "value": "%word%"})");
  check_error(
      build_error("db_read", R"j({"table": "recipes", "filters": [{"field": "occasions", "op": "contains"}]})j"),
      "invalid_value", "filters[0].value", "contains needs a list of values",
      R"(write the values as a list, e.g. "value": ["first", "second"])");
  check_error(build_error("db_read", R"j({"table": "recipes", "filters": [{"field": "occasions", "op": "contains",
      "value": [["nested"]]}]})j"),
              "invalid_value", "filters[0].value[0]", "occasions holds strings, got an array");
  check_error(build_error("db_read", R"j({"table": "preferences", "filters": [{"field": "subdomain_guidance",
      "op": "overlaps", "value": {"a": 1}}]})j"),
              "invalid_value", "filters[0].value", "overlaps on subdomain_guidance needs a JSON object",
              R"j({"field": "subdomain_guidance", "op": "contains", "value": {"key": "value"}})j");
  check_error(build_error("db_read", R"j({"table": "preferences", "filters": [{"field": "subdomain_guidance",
      "op": "contains", "value": "dark"}]})j"),
              "invalid_value", "filters[0].value", "contains on subdomain_guidance needs a JSON object");
}

TEST_CASE("is_null / is_not_null take no value or a boolean") {
  check_error(build_error("db_read", R"j({"table": "recipes", "filters": [{"field": "cuisine", "op": "is_null",
      "value": "yes"}]})j"),
              "invalid_value", "filters[0].value", "is_null takes no value (or true/false), got a string",
              "omit value");
  check_error(build_error("db_read", R"j({"table": "recipes", "filters": [{"field": "cuisine", "op": "is_not_null",
      "value": 0}]})j"),
              "invalid_value", "filters[0].value", "is_not_null takes no value (or true/false), got a number");
}

TEST_CASE("NUL bytes in filter values are refused (PostgREST would truncate: eggs\\0junk deletes eggs)") {
  const char* hint = "PostgREST truncates filter values at NUL; remove it";
  const char* message = "the value contains a NUL byte (U+0000)";
  check_error(build_error("db_delete", R"j({"table": "inventory", "filters": [{"field": "name", "op": "=",
      "value": "eggs\u0000junk"}]})j"),
              "nul_byte", "filters[0].value", message, hint);
  check_error(build_error("db_read", R"j({"table": "inventory", "filters": [{"field": "name", "op": "in",
      "value": ["milk", "eggs\u0000junk"]}]})j"),
              "nul_byte", "filters[0].value[1]", message, hint);
  check_error(build_error("db_read", R"j({"table": "inventory", "filters": [{"field": "name", "op": "not_ilike",
      "value": "%egg\u0000%"}]})j"),
              "nul_byte", "filters[0].value", message, hint);
  check_error(build_error("db_read", R"j({"table": "inventory", "or_filters": [{"field": "name", "op": "=",
      "value": "milk"}, {"field": "name", "op": "ilike", "value": "\u0000"}]})j"),
              "nul_byte", "or_filters[1].value", message, hint);
  check_error(build_error("db_read", R"j({"table": "recipes", "filters": [{"field": "occasions", "op": "contains",
      "value": ["date", "night\u0000"]}]})j"),
              "nul_byte", "filters[0].value[1]", message);
  check_error(build_error("db_read", R"j({"table": "preferences", "filters": [{"field": "subdomain_guidance",
      "op": "contains", "value": {"theme\u0000": "dark"}}]})j"),
              "nul_byte", "filters[0].value", message);
  check_error(build_error("db_read", R"j({"table": "recipes", "filters": [{"field": "id", "op": "=",
      "value": "recipe_1\u0000"}]})j"),
              "nul_byte", "filters[0].value", message);
}

// ---------------------------------------------------------------- refs and UUIDs

TEST_CASE("unknown refs are an error listing the known refs (never sent as literal strings)") {
  check_error(recipe_id_error(R"("recipe_9")"), "unknown_ref", "filters[0].value",
              "recipe_9 is not a known ref; refs cannot be invented", kKnownRecipes);
  check_error(build_error("db_read", R"j({"table": "inventory", "filters": [{"field": "id", "op": "in",
      "value": ["inv_1", "inv_7"]}]})j"),
              "unknown_ref", "filters[0].value[1]", "inv_7 is not a known ref; refs cannot be invented",
              "known inv refs: inv_1 (milk)");
  check_error(build_error("db_read", R"j({"table": "tasks", "filters": [{"field": "meal_plan_id", "op": "=",
      "value": "meal_1"}]})j"),
              "unknown_ref", "filters[0].value", "meal_1 is not a known ref; refs cannot be invented",
              "no meal refs are known yet; read meal_plans first to get refs");
}

TEST_CASE("the known-refs hint is capped at 12 and says how many exist") {
  ref_registry reg;
  for (int i = 0; i < 15; ++i) reg.register_row("recipes", "recipe", numbered_uuid(i), ref_action::read, "");
  check_error(recipe_id_error(R"("recipe_99")", reg), "unknown_ref", "filters[0].value",
              "recipe_99 is not a known ref; refs cannot be invented",
              "known recipe refs: recipe_1, recipe_2, recipe_3, recipe_4, recipe_5, recipe_6, recipe_7, recipe_8, "
              "recipe_9, recipe_10, recipe_11, recipe_12, … (15 in all)");
}

TEST_CASE("refs of the wrong type: inv_1 where a recipe is expected") {
  check_error(build_error("db_read", R"j({"table": "recipe_ingredients", "filters": [{"field": "recipe_id",
      "op": "=", "value": "inv_1"}]})j"),
              "ref_type_mismatch", "filters[0].value",
              "inv_1 (milk) is a row of inventory, but recipe_id takes a ref to recipes (recipe_N)", kKnownRecipes);
  check_error(recipe_id_error(R"("inv_1")"), "ref_type_mismatch", "filters[0].value",
              "inv_1 (milk) is a row of inventory, but id takes a ref to recipes (recipe_N)", kKnownRecipes);
  // Unknown, but its prefix names another table.
  check_error(
      build_error("db_read", R"j({"table": "recipe_ingredients", "filters": [{"field": "recipe_id",
      "op": "=", "value": "inv_7"}]})j"),
      "ref_type_mismatch", "filters[0].value",
      "inv_7 is not a known ref, and inv refs are rows of inventory while recipe_id takes a ref to recipes (recipe_N)",
      kKnownRecipes);
  // A known UUID of another table.
  check_error(recipe_id_error(R"("a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c51")"), "ref_type_mismatch", "filters[0].value",
              "this UUID belongs to inv_1 (milk), a row of inventory, but id takes a ref to recipes (recipe_N)",
              kKnownRecipes);
  // Payload foreign keys and uuid[] elements are checked the same way.
  check_error(build_error("db_create", R"j({"table": "recipe_ingredients", "data": {"recipe_id": "inv_1",
      "name": "salt"}})j"),
              "ref_type_mismatch", "data.recipe_id",
              "inv_1 (milk) is a row of inventory, but recipe_id takes a ref to recipes (recipe_N)");
  check_error(build_error("db_update", R"j({"table": "preferences", "filters": [{"field": "cooking_skill_level",
      "op": "=", "value": "beginner"}], "data": {"assumed_staples": ["inv_1"]}})j"),
              "ref_type_mismatch", "data.assumed_staples[0]",
              "inv_1 (milk) is a row of inventory, but assumed_staples takes a ref to ingredients (ing_N)",
              "no ing refs are known yet; read ingredients first to get refs");
}

TEST_CASE("a pending gen_ ref where a saved row is needed") {
  const char* message =
      "gen_recipe_1 (Thai Basil Chicken) is generated content that has not been saved, so it has no row in recipes yet";
  const char* hint = "save it first with db_create on recipes (its content is under Generated Data), then use its ref";
  check_error(build_error("db_create", R"j({"table": "recipe_ingredients", "data": {"recipe_id": "gen_recipe_1",
      "name": "basil"}})j"),
              "pending_ref", "data.recipe_id", message, hint);
  check_error(build_error("db_read", R"j({"table": "recipes", "filters": [{"field": "id", "op": "in",
      "value": ["recipe_1", "gen_recipe_1"]}]})j"),
              "pending_ref", "filters[0].value[1]", message, hint);
  check_error(build_error("db_create", R"j({"table": "meal_plans", "data": {"date": "2026-02-01",
      "meal_type": "dinner", "recipe_id": "gen_recipe_1"}})j"),
              "pending_ref", "data.recipe_id", message, hint);
}

TEST_CASE("a ref marked deleted is refused and left out of the hint") {
  ref_registry reg = sample_registry();
  reg.mark("recipe_2", ref_action::deleted);
  check_error(recipe_id_error(R"("recipe_2")", reg), "deleted_ref", "filters[0].value",
              "recipe_2 (Cod Curry) was deleted earlier in this session",
              "known recipe refs: recipe_1 (Butter Chicken)");
}

TEST_CASE("invented UUIDs: zero padding, nil, documentation examples") {
  check_error(recipe_id_error(R"("c69607bb-0000-0000-0000-000000000000")"), "invented_uuid", "filters[0].value",
              "'c69607bb-0000-0000-0000-000000000000' cannot be a row id: its version digit is not 1-8, which no "
              "UUID generator produces",
              std::string("use the refs shown in context instead of UUIDs; ") + kKnownRecipes);
  check_error(recipe_id_error(R"("00000000-0000-0000-0000-000000000000")"), "invented_uuid", "filters[0].value",
              "'00000000-0000-0000-0000-000000000000' cannot be a row id: it is the nil UUID");
  check_error(recipe_id_error(R"("550e8400-e29b-41d4-a716-446655440000")"), "invented_uuid", "filters[0].value",
              "'550e8400-e29b-41d4-a716-446655440000' cannot be a row id: it is a well-known example UUID from "
              "documentation");
  check_error(build_error("db_create", R"j({"table": "tasks", "data": {"title": "prep",
      "recipe_id": "123e4567-e89b-12d3-a456-426614174000"}})j"),
              "invented_uuid", "data.recipe_id",
              "'123e4567-e89b-12d3-a456-426614174000' cannot be a row id: it is a well-known example UUID from "
              "documentation");
}

TEST_CASE("truncated copies of known UUIDs, and whole ones that resemble them") {
  check_error(recipe_id_error(R"("c69607bb-5d2e-4b8a")"), "invalid_uuid", "filters[0].value",
              "'c69607bb-5d2e-4b8a' is not a complete UUID (truncated or altered)",
              std::string("use the refs shown in context instead of UUIDs; ") + kKnownRecipes);
  check_error(recipe_id_error(R"("c69607bb-5d2e-4b8a-9f3c-1e2d3c4b5a6")"), "invalid_uuid", "filters[0].value",
              "'c69607bb-5d2e-4b8a-9f3c-1e2d3c4b5a6' is not a complete UUID (truncated or altered)");
  // Same first 8 hex digits as recipe_1, rest made up: possibly another
  // user's row, so never answered with the ref of the row it resembles.
  const error resembling = recipe_id_error(R"("c69607bb-1111-4222-8333-444455556666")");
  check_error(resembling, "raw_id", "filters[0].value",
              "id takes a ref such as recipe_1, not a UUID; refs cannot be made from ids");
  CHECK(resembling.message.find("Butter Chicken") == std::string::npos);
}

TEST_CASE("a label where a ref belongs names the ref to use") {
  check_error(recipe_id_error(R"("Butter Chicken")"), "not_a_ref", "filters[0].value",
              "id takes a ref, not a name; 'Butter Chicken' is the label of recipe_1", "use the ref recipe_1");
  check_error(recipe_id_error(R"("  cod curry ")"), "not_a_ref", "filters[0].value",
              "id takes a ref, not a name; '  cod curry ' is the label of recipe_2", "use the ref recipe_2");
  check_error(build_error("db_create", R"j({"table": "recipe_ingredients", "data": {"recipe_id": "Butter Chicken",
      "name": "ghee"}})j"),
              "not_a_ref", "data.recipe_id",
              "recipe_id takes a ref, not a name; 'Butter Chicken' is the label of recipe_1", "use the ref recipe_1");
  check_error(recipe_id_error(R"("Paneer Tikka")"), "not_a_ref", "filters[0].value",
              "id takes a ref such as recipe_1, got 'Paneer Tikka'",
              std::string(kKnownRecipes) + "; to find rows by name, read recipes with a name filter first");
  check_error(recipe_id_error(R"("")"), "not_a_ref", "filters[0].value", "id takes a ref such as recipe_1, got ''");
  check_error(recipe_id_error("7"), "invalid_value", "filters[0].value",
              "id takes a ref such as recipe_1, got a number", kKnownRecipes);
}

TEST_CASE("refs are case-sensitive: Recipe_1 gets a case hint") {
  check_error(recipe_id_error(R"("Recipe_1")"), "unknown_ref", "filters[0].value",
              "'Recipe_1' is not a known ref; refs are case-sensitive", "write it exactly as shown: recipe_1");
  check_error(recipe_id_error(R"("RECIPE_2")"), "unknown_ref", "filters[0].value",
              "'RECIPE_2' is not a known ref; refs are case-sensitive", "write it exactly as shown: recipe_2");
}

// ---------------------------------------------------------------- update/delete guard

TEST_CASE("update and delete without a filter are refused (the owner scope alone selects every row)") {
  const char* delete_message = "db_delete needs a filter that selects rows; changing every row of inventory is refused";
  const char* hint = R"(e.g. "filters": [{"field": "id", "op": "in", "value": ["inv_1", "inv_2"]}])";
  check_error(build_error("db_delete", R"j({"table": "inventory"})j"), "missing_filter", "filters", delete_message,
              hint);
  check_error(build_error("db_delete", R"j({"table": "inventory", "filters": []})j"), "missing_filter", "filters",
              delete_message, hint);
  check_error(build_error("db_delete", R"j({"table": "inventory", "filters": null})j"), "missing_filter", "filters",
              delete_message);
  check_error(build_error("db_update", R"j({"table": "recipes", "data": {"cuisine": "thai"}})j"), "missing_filter",
              "filters", "db_update needs a filter that selects rows; changing every row of recipes is refused",
              R"(e.g. "filters": [{"field": "id", "op": "in", "value": ["recipe_1", "recipe_2"]}])");
}

TEST_CASE("filters that cannot exclude a row do not count as narrowing") {
  const char* update_message = "db_update needs a filter that selects rows; changing every row of inventory is refused";
  for (const std::string filter : {
           R"j({"field": "id", "op": "is_not_null"})j",
           R"j({"field": "id", "op": "is_null", "value": false})j",
           R"j({"field": "name", "op": "is_not_null"})j",  // name is NOT NULL
           R"j({"field": "name", "op": "ilike", "value": "%"})j",
           R"j({"field": "name", "op": "ilike", "value": "*"})j",
           R"j({"field": "name", "op": "like", "value": "%%*"})j",
           R"j({"field": "id", "op": "not_in", "value": []})j",
       }) {
    CAPTURE(filter);
    check_error(build_error("db_update",
                            R"j({"table": "inventory", "filters": [)j" + filter + R"j(], "data": {"quantity": 1}})j"),
                "missing_filter", "filters", update_message);
  }
}

TEST_CASE("regression: delete with only 'id != null' must not pass the guard (it is id=not.is.null: every row)") {
  // id is NOT NULL, so id=not.is.null plus the automatic user_id=eq.<self>
  // is "delete everything of mine" - the guard exists to refuse exactly that.
  check_error(build_error("db_delete", R"j({"table": "inventory", "filters": [{"field": "id", "op": "!=",
      "value": null}]})j"),
              "missing_filter", "filters",
              "db_delete needs a filter that selects rows; changing every row of inventory is refused");
}

TEST_CASE("regression: delete with only 'id not_in [null]' must not pass the guard (it is id=not.is.null)") {
  check_error(build_error("db_delete", R"j({"table": "inventory", "filters": [{"field": "id", "op": "not_in",
      "value": [null]}]})j"),
              "missing_filter", "filters",
              "db_delete needs a filter that selects rows; changing every row of inventory is refused");
}

TEST_CASE("regression: update with only 'name neq null' on a NOT NULL column must not pass the guard") {
  check_error(build_error("db_update", R"j({"table": "inventory", "filters": [{"field": "name", "op": "neq",
      "value": null}], "data": {"quantity": 0}})j"),
              "missing_filter", "filters",
              "db_update needs a filter that selects rows; changing every row of inventory is refused");
}

// ---------------------------------------------------------------- payloads

TEST_CASE("the owner column and id are refused in payloads") {
  check_error(build_error("db_create", R"j({"table": "inventory", "data": {"name": "milk", "quantity": 1, "unit": "l",
      "user_id": "2222aaaa-2222-4222-8222-222222222222"}})j"),
              "system_column", "data.user_id",
              "user_id holds the row's owner, the signed-in user, and is never given; leave it out",
              "columns db_create may set on inventory: ingredient_id, name, quantity, unit, location, category, notes, "
              "expiry_date, purchase_date");
  check_error(build_error("db_update", R"j({"table": "inventory", "filters": [{"field": "id", "op": "=",
      "value": "inv_1"}], "data": {"user_id": "2222aaaa-2222-4222-8222-222222222222"}})j"),
              "system_column", "data.user_id",
              "user_id holds the row's owner, the signed-in user, and is never given; leave it out");
  check_error(build_error("db_update", R"j({"table": "inventory", "filters": [{"field": "id", "op": "=",
      "value": "inv_1"}], "data": {"id": "inv_2"}})j"),
              "system_column", "data.id",
              "id is the key of inventory and cannot be changed; choose the rows with filters",
              "columns db_update may set on inventory: ingredient_id, name, quantity, unit, location, category, notes, "
              "expiry_date, purchase_date");
  const char* create_id = "id is assigned by the database; only a gen_ ref may be given, to save that artifact";
  for (const std::string id : {R"("recipe_1")", R"("c69607bb-5d2e-4b8a-9f3c-1e2d3c4b5a61")", "1", "null"}) {
    CAPTURE(id);
    check_error(build_error("db_create", R"j({"table": "recipes", "data": {"id": )j" + id +
                                             R"j(, "name": "A", "instructions": ["x"]}})j"),
                "system_column", "data.id", create_id);
  }
  check_error(build_error("db_create", R"j({"table": "recipes", "data": {"id": "gen_recipe_9", "name": "A",
      "instructions": ["x"]}})j"),
              "unknown_ref", "data.id", "gen_recipe_9 is not a pending generated artifact", "pending: gen_recipe_1");
}

TEST_CASE("saving a generated artifact: wrong table, already saved, saved twice in one batch") {
  check_error(build_error("db_create", R"j({"table": "tasks", "data": {"id": "gen_recipe_1", "title": "cook"}})j"),
              "ref_type_mismatch", "data.id", "gen_recipe_1 is generated recipes content, not a row for tasks",
              "save it with db_create on recipes");
  ref_registry reg = sample_registry();
  REQUIRE(reg.promote("gen_recipe_1", "5b0c6f3e-2a1d-4c8e-9f7a-3d2e1c0b9a88", "").ok());
  check_error(build_error("db_create", R"j({"table": "recipes", "data": {"id": "gen_recipe_1",
      "name": "Thai Basil Chicken", "instructions": ["x"]}})j",
                          reg),
              "already_saved", "data.id", "gen_recipe_1 was already saved as recipe_3",
              "to change it, db_update recipes with id = recipe_3");
  check_error(build_error("db_create", R"j({"table": "recipes", "data": [
      {"id": "gen_recipe_1", "name": "A", "instructions": ["x"]},
      {"id": "gen_recipe_1", "name": "B", "instructions": ["y"]}]})j"),
              "already_saved", "data[1].id", "gen_recipe_1 is saved twice in this batch");
}

TEST_CASE("payload columns: unknown, reserved, hidden, read-only, required, null") {
  check_error(build_error("db_create", R"j({"table": "inventory", "data": {"name": "milk", "quantity": 1, "unit": "l",
      "colour": "white"}})j"),
              "unknown_column", "data.colour", "inventory has no column 'colour'", kInventoryColumns);
  check_error(build_error("db_create", R"j({"table": "inventory", "data": {"name": "milk", "quantity": 1, "unit": "l",
      "limit": 3}})j"),
              "reserved_column", "data.limit", "'limit' is a PostgREST keyword, not a column", kInventoryColumns);
  check_error(build_error("db_create", R"j({"table": "recipes", "data": {"name": "A", "instructions": ["x"],
      "embedding": [0.1]}})j"),
              "unknown_column", "data.embedding", "recipes has no column 'embedding'");
  check_error(build_error("db_update", R"j({"table": "inventory", "filters": [{"field": "id", "op": "=",
      "value": "inv_1"}], "data": {"created_at": "2026-01-01"}})j"),
              "read_only_column", "data.created_at", "created_at is maintained by the database");
  check_error(build_error("db_update", R"j({"table": "recipes", "filters": [{"field": "id", "op": "=",
      "value": "recipe_1"}], "data": {"is_system": true}})j"),
              "read_only_column", "data.is_system", "is_system is maintained by the database");
  // Every missing column at once, not one per call.
  check_error(build_error("db_create", R"j({"table": "inventory", "data": {"name": "milk"}})j"), "missing_column",
              "data", "quantity, unit are required to create a row in inventory", "add quantity, unit to the row");
  check_error(build_error("db_create", R"j({"table": "inventory", "data": [{"name": "milk", "quantity": 1, "unit": "l"},
      {"name": "eggs", "unit": "pcs"}]})j"),
              "missing_column", "data[1]", "quantity is required to create a row in inventory");
  check_error(build_error("db_update", R"j({"table": "inventory", "filters": [{"field": "id", "op": "=",
      "value": "inv_1"}], "data": {"name": null}})j"),
              "invalid_value", "data.name", "name cannot be null", "give a string");
  check_error(
      build_error("db_create", R"j({"table": "recipe_ingredients", "data": {"recipe_id": "", "name": "salt"}})j"),
      "invalid_value", "data.recipe_id", "recipe_id cannot be null", "give a ref");
}

TEST_CASE("payload value types") {
  check_error(build_error("db_update", R"j({"table": "inventory", "filters": [{"field": "id", "op": "=",
      "value": "inv_1"}], "data": {"quantity": "two"}})j"),
              "invalid_value", "data.quantity", "quantity expects a number such as 2.5, got 'two'",
              "give a number such as 2.5");
  check_error(build_error("db_update", R"j({"table": "inventory", "filters": [{"field": "id", "op": "=",
      "value": "inv_1"}], "data": {"expiry_date": "2026-02-30"}})j"),
              "invalid_value", "data.expiry_date",
              "expiry_date expects an ISO date such as 2026-03-14, got '2026-02-30'");
  check_error(build_error("db_update", R"j({"table": "inventory", "filters": [{"field": "id", "op": "=",
      "value": "inv_1"}], "data": {"name": 42}})j"),
              "invalid_value", "data.name", "name expects a string, got a number", "give it as text: \"42\"");
  check_error(build_error("db_update", R"j({"table": "recipes", "filters": [{"field": "id", "op": "=",
      "value": "recipe_1"}], "data": {"occasions": {"a": 1}}})j"),
              "invalid_value", "data.occasions",
              "occasions expects an array of strings such as [\"first\", \"second\"], got an object");
  check_error(build_error("db_update", R"j({"table": "recipes", "filters": [{"field": "id", "op": "=",
      "value": "recipe_1"}], "data": {"difficulty": "trivial"}})j"),
              "invalid_value", "data.difficulty", "'trivial' is not an allowed value for difficulty",
              "use one of: easy, medium, hard");
  check_error(build_error("db_update", R"j({"table": "recipes", "filters": [{"field": "id", "op": "=",
      "value": "recipe_1"}], "data": {"flavor_tags": ["spicy", "loud"]}})j"),
              "invalid_value", "data.flavor_tags[1]", "'loud' is not an allowed value for flavor_tags");
}

TEST_CASE("data shape: missing, empty, wrong kind, too many rows") {
  check_error(build_error("db_create", R"j({"table": "recipes"})j"), "missing_param", "data", "data is required",
              "an object, or an array of objects for a batch");
  check_error(build_error("db_create", R"j({"table": "recipes", "data": []})j"), "invalid_data", "data",
              "data is an empty array; nothing to create");
  check_error(build_error("db_create", R"j({"table": "inventory", "data": [{"name": "milk", "quantity": 1,
      "unit": "l"}, "eggs"]})j"),
              "invalid_data", "data[1]", "a row must be an object, got a string");
  check_error(build_error("db_create", R"j({"table": "inventory", "data": "milk"})j"), "invalid_data", "data",
              "a row must be an object, got a string");
  check_error(build_error("db_update", R"j({"table": "inventory", "filters": [{"field": "id", "op": "=",
      "value": "inv_1"}]})j"),
              "missing_param", "data", "data is required");
  check_error(build_error("db_update", R"j({"table": "inventory", "filters": [{"field": "id", "op": "=",
      "value": "inv_1"}], "data": {}})j"),
              "invalid_data", "data", "data has no columns to change", R"j({"quantity": 2})j");
  check_error(build_error("db_update", R"j({"table": "inventory", "filters": [{"field": "id", "op": "=",
      "value": "inv_1"}], "data": [{"quantity": 1}]})j"),
              "invalid_data", "data", "db_update data must be one object, got an array",
              "the same change applies to every matching row");

  std::string rows;
  for (int i = 0; i < 1001; ++i) rows += std::string(i ? "," : "") + R"j({"name": "x", "quantity": 1, "unit": "g"})j";
  check_error(build_error("db_create", R"({"table": "inventory", "data": [)" + rows + "]}"), "invalid_data", "data",
              "at most 1000 rows per create", "split the batch");
}

// ---------------------------------------------------------------- read options

TEST_CASE("limit: 0, 5000, 'abc', fractions and huge numbers are refused") {
  const char* cap = "the server returns at most 1000 rows per read; page with offset";
  check_error(build_error("db_read", R"j({"table": "recipes", "limit": 0})j"), "invalid_param", "limit",
              "limit must be between 1 and 1000, got 0", cap);
  check_error(build_error("db_read", R"j({"table": "recipes", "limit": 5000})j"), "invalid_param", "limit",
              "limit must be between 1 and 1000, got 5000", cap);
  check_error(build_error("db_read", R"j({"table": "recipes", "limit": -5})j"), "invalid_param", "limit",
              "limit must be between 1 and 1000, got -5", cap);
  check_error(build_error("db_read", R"j({"table": "recipes", "limit": "abc"})j"), "invalid_param", "limit",
              "limit must be a whole number, got a string");
  check_error(build_error("db_read", R"j({"table": "recipes", "limit": ""})j"), "invalid_param", "limit",
              "limit must be a whole number, got a string");
  check_error(build_error("db_read", R"j({"table": "recipes", "limit": 10.5})j"), "invalid_param", "limit",
              "limit must be a whole number, got a number");
  check_error(build_error("db_read", R"j({"table": "recipes", "limit": true})j"), "invalid_param", "limit",
              "limit must be a whole number, got a boolean");
  CHECK(build_error("db_read", R"j({"table": "recipes", "limit": 1e300})j").code == "invalid_param");
  CHECK(build_error("db_read", R"j({"table": "recipes", "limit": -1e300})j").code == "invalid_param");
  CHECK(build_error("db_read", R"j({"table": "recipes", "limit": 18446744073709551615})j").code == "invalid_param");
  check_error(build_error("db_read", R"j({"table": "recipes", "offset": -1})j"), "invalid_param", "offset",
              "offset must be between 0 and 100000000, got -1", "");
}

TEST_CASE("order_by, order_dir and count are validated") {
  check_error(build_error("db_read", R"j({"table": "recipes", "order_by": "colour"})j"), "unknown_column", "order_by",
              "recipes has no column 'colour'", kRecipeColumns);
  check_error(build_error("db_read", R"j({"table": "recipes", "order_by": "name.desc,id"})j"), "unknown_column",
              "order_by", "recipes has no column 'name.desc,id'");
  check_error(build_error("db_read", R"j({"table": "recipes", "order_by": "user_id"})j"), "system_column", "order_by",
              "user_id is applied automatically; it cannot be used");
  check_error(build_error("db_read", R"j({"table": "recipes", "order_by": ["name"]})j"), "invalid_param", "order_by",
              "order_by must be a column name");
  // The object form db_aggregate takes, given to db_read: the hint shows db_read's.
  check_error(build_error("db_read", R"j({"table": "recipes", "order_by": {"field": "name", "dir": "desc"}})j"),
              "invalid_param", "order_by", "order_by must be a column name",
              R"(give the direction apart: "order_by": "name", "order_dir": "desc")");
  check_error(build_error("db_read", R"j({"table": "recipes", "order_by": "name", "order_dir": "sideways"})j"),
              "invalid_param", "order_dir", R"(order_dir must be "asc" or "desc")");
  check_error(build_error("db_read", R"j({"table": "recipes", "count": "bogus"})j"), "invalid_param", "count",
              R"(count must be true, "exact", "planned" or "estimated")");
}

TEST_CASE("columns: unknown, hidden, owner, reserved, bad embeds") {
  check_error(build_error("db_read", R"j({"table": "recipes", "columns": 5})j"), "invalid_param", "columns",
              "columns must be an array of column names", R"j(["<column>", "<column>"])j");
  check_error(build_error("db_read", R"j({"table": "recipes", "columns": ["name", 5]})j"), "invalid_param",
              "columns[1]", "columns must be strings");
  check_error(build_error("db_read", R"j({"table": "recipes", "columns": ["name", "colour"]})j"), "unknown_column",
              "columns[1]", "recipes has no column 'colour'", kRecipeColumns);
  check_error(build_error("db_read", R"j({"table": "recipes", "columns": ["embedding"]})j"), "unknown_column",
              "columns[0]", "recipes has no column 'embedding'");
  check_error(build_error("db_read", R"j({"table": "recipes", "columns": ["user_id"]})j"), "system_column",
              "columns[0]", "user_id is applied automatically; it cannot be used");
  check_error(build_error("db_read", R"j({"table": "recipes", "columns": "name,select"})j"), "reserved_column",
              "columns[1]", "'select' is a PostgREST keyword, not a column of recipes");
  check_error(build_error("db_read", R"j({"table": "recipes", "columns": ["ingredients(name)"]})j"), "unknown_relation",
              "columns[0]", "recipes cannot embed 'ingredients'", "embeddable: recipe_ingredients");
  check_error(build_error("db_read", R"j({"table": "inventory", "columns": ["recipes(name)"]})j"), "unknown_relation",
              "columns[0]", "inventory cannot embed 'recipes'", "embeddable: ingredients");
  check_error(build_error("db_read", R"j({"table": "recipes", "columns": ["recipe_ingredients(name, colour)"]})j"),
              "unknown_column", "columns[0]", "recipe_ingredients has no column 'colour'");
  check_error(build_error("db_read", R"j({"table": "recipes", "columns": ["recipe_ingredients(user_id)"]})j"),
              "system_column", "columns[0]", "user_id is applied automatically; it cannot be used");
  check_error(build_error("db_read", R"j({"table": "recipes", "columns": ["recipe_ingredients(name"]})j"),
              "invalid_param", "columns[0]", "'recipe_ingredients(name' is not a column or relation(columns)");
  check_error(build_error("db_read", R"j({"table": "recipes", "columns": "name, recipe_ingredients(name"})j"),
              "invalid_param", "columns", "unbalanced parentheses in columns");
  check_error(build_error("db_read", R"j({"table": "recipes", "columns": "name)"})j"), "invalid_param", "columns",
              "unbalanced parentheses in columns");
  check_error(build_error("db_read", R"j({"table": "recipes", "columns": ["recipe_ingredients(name)x"]})j"),
              "invalid_param", "columns[0]", "'recipe_ingredients(name)x' is not a column or relation(columns)");
  check_error(build_error("db_read", R"j({"table": "recipes", "columns": ["recipe_ingredients!inner(name)"]})j"),
              "unknown_relation", "columns[0]", "recipes cannot embed 'recipe_ingredients!inner'");
}

TEST_CASE("semantic search: only as a _semantic similar filter of db_read") {
  check_error(build_error("db_read", R"j({"table": "recipes", "filters": [{"field": "name", "op": "similar",
      "value": "light dinner"}]})j"),
              "invalid_filter", "filters[0].op", "similar is semantic search; its field is '_semantic', not 'name'",
              R"j({"field": "_semantic", "op": "similar", "value": "<what to find>"})j");
  check_error(build_error("db_read", R"j({"table": "recipes", "filters": [{"field": "_semantic", "op": "=",
      "value": "light dinner"}]})j"),
              "invalid_filter", "filters[0].op", "_semantic only works with op similar");
  check_error(build_error("db_read", R"j({"table": "recipes", "or_filters": [{"field": "_semantic", "op": "similar",
      "value": "light dinner"}]})j"),
              "invalid_filter", "or_filters[0]", "semantic search is only available in db_read filters");
  check_error(build_error("db_delete", R"j({"table": "recipes", "filters": [{"field": "_semantic", "op": "similar",
      "value": "light dinner"}]})j"),
              "invalid_filter", "filters[0]", "semantic search is only available in db_read filters");
  check_error(build_error("db_read", R"j({"table": "recipes", "filters": [{"field": "_semantic", "op": "similar",
      "value": "  "}]})j"),
              "invalid_value", "filters[0].value", "similar needs a non-empty search text");
  check_error(build_error("db_read", R"j({"table": "recipes", "filters": [
      {"field": "_semantic", "op": "similar", "value": "light"},
      {"field": "_semantic", "op": "similar", "value": "dinner"}]})j"),
              "invalid_filter", "filters[1]", "only one semantic search per read");
  // A table without semantic search says so at once, whichever field the filter names:
  // pointing the model at _semantic would only earn it a second refusal.
  for (const std::string field : {"_semantic", "name"})
    check_error(build_error("db_read", R"j({"table": "inventory", "filters": [{"field": ")j" + field +
                                           R"j(", "op": "similar", "value": "something cold"}]})j"),
                "unsupported_filter", "filters[0]", "inventory has no semantic search",
                "filter with ilike on a text column instead");
  // A valid one cannot become a plain request: it needs the executor's embedding step.
  check_error(build_error("db_read", R"j({"table": "recipes", "filters": [{"field": "_semantic", "op": "similar",
      "value": "light dinner"}]})j"),
              "requires_executor", "filters",
              "semantic search needs an embedding of the query, which a plain request cannot carry",
              "run it through createAct().execute(), which embeds the text and calls the search RPC");
}

TEST_CASE("errors point at the first bad filter even after good ones") {
  check_error(build_error("db_read", R"j({"table": "inventory", "filters": [
      {"field": "location", "op": "=", "value": "fridge"},
      {"field": "quantity", "op": ">", "value": 1},
      {"field": "expiry_date", "op": "<", "value": "2026-02-30"}]})j"),
              "invalid_value", "filters[2].value",
              "expiry_date expects an ISO date such as 2026-03-14, got '2026-02-30'");
}

TEST_CASE("regression: a self reference is not embeddable by table name (PostgREST answers PGRST201)") {
  const error err = build_error("db_read", R"j({"table": "recipes", "columns": ["name", "recipes(name)"]})j");
  CHECK(err.code == "unknown_relation");
  CHECK(err.path == "columns[1]");
  CHECK(err.hint == "embeddable: recipe_ingredients");
}

TEST_CASE("regression: a date where a ref belongs is not called a truncated UUID") {
  const error err = build_error("db_read", R"j({"table": "meal_plans", "filters": [
      {"field": "recipe_id", "op": "=", "value": "2026-02-01"}]})j");
  CHECK(err.code == "not_a_ref");
  CHECK(err.message == "recipe_id takes a ref such as recipe_1, got '2026-02-01'");
}

TEST_CASE("not_ilike on a non-text column points to the exclusion patterns") {
  const error err = build_error("db_read", R"j({"table": "recipes", "filters": [
      {"field": "id", "op": "not_ilike", "value": "recipe_1"}]})j");
  CHECK(err.code == "invalid_value");
  CHECK(err.hint.find("use not_in with the refs to drop") != std::string::npos);
}

TEST_CASE("the owner column naming only the signed-in user is the user scope: it does not narrow a write") {
  auto parsed = parse_domain(R"json({"name": "inbox", "tables": {
    "notifications": {"ref": "note", "owner": "user_id", "columns": {"id": {"type": "uuid", "writable": false},
      "user_id": {"type": "uuid", "writable": false, "references": "auth.users"}, "is_read": {"type": "boolean"}}},
    "profiles": {"ref": "profile", "owner": "id", "columns": {"id": {"type": "uuid", "writable": false},
      "name": {"type": "text"}}},
    "bookmarks": {"ref": "bookmark", "owner": "user_id", "key": ["user_id", "post_id"], "columns": {
      "user_id": {"type": "uuid", "writable": false, "references": "auth.users"}, "post_id": {"type": "integer"}}}}})json");
  REQUIRE(parsed.ok());
  ref_registry empty;
  auto call = [&](const char* tool, const char* params) {
    auto doc = json_document::parse(params);
    return parse_tool_call(*parsed, empty, tool, doc->root(), kAlice);
  };
  const char* message =
      "db_update needs a filter that selects rows; user_id = me is every row of the user's, and changing every row "
      "of notifications is refused";
  for (const char* filter :
       {R"({"field": "user_id", "op": "=", "value": "me"})", R"({"field": "user_id", "op": "in", "value": ["me"]})",
        R"({"field": "user_id", "op": "in", "value": ["me", null]})"}) {
    CAPTURE(filter);
    auto refused = call("db_update", (std::string(R"({"table": "notifications", "data": {"is_read": true},
        "filters": [)") + filter + "]}")
                                         .c_str());
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.err().code == codes::missing_filter);
    CHECK(refused.err().message == message);
  }
  // With a filter that narrows, or on another column, it passes; as it does
  // where the owner is the key (the user's one profile).
  CHECK(call("db_update", R"({"table": "notifications", "data": {"is_read": true}, "filters": [
      {"field": "user_id", "op": "=", "value": "me"}, {"field": "is_read", "op": "=", "value": false}]})")
            .ok());
  CHECK(call("db_delete", R"({"table": "profiles", "filters": [{"field": "id", "op": "=", "value": "me"}]})").ok());
  // One column of a two-column key: every bookmark of the user's.
  auto bookmarks =
      call("db_delete", R"({"table": "bookmarks", "filters": [{"field": "user_id", "op": "=", "value": "me"}]})");
  REQUIRE_FALSE(bookmarks.ok());
  CHECK(bookmarks.err().code == codes::missing_filter);
  CHECK(call("db_delete", R"({"table": "bookmarks", "filters": [{"field": "user_id", "op": "=", "value": "me"},
      {"field": "post_id", "op": "=", "value": 7}]})")
            .ok());
  // A read is not guarded.
  CHECK(call("db_read", R"({"table": "notifications", "filters": [{"field": "user_id", "op": "=", "value": "me"}]})")
            .ok());
}

}  // namespace alfred::test
