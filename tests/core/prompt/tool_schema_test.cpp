// The tool definitions generated from the domain: tables, columns, types and
// allowed values come from kitchen.json, and the strict variant obeys the
// rules of OpenAI strict structured outputs (checked by walking the schema).
// The compact variant (the default) lists the tables in one line each; the
// inline one carries the whole schema.

#include "alfred/prompt/tool_schema.h"

#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "../support.h"
#include "../team_domain.h"
#include "alfred/json/json.h"

namespace alfred::test {
namespace {

std::vector<std::string> strings_of(json_value list) {
  std::vector<std::string> out;
  list.for_each_element(
      [&](std::size_t, json_value item) { out.emplace_back(item.is_null() ? "<null>" : item.str()); });
  return out;
}

bool has(const std::vector<std::string>& list, std::string_view item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

// The strict-mode rules: a root object, every object closed and with every
// property required, only the keywords strict mode supports.
void check_strict(json_value node, const std::string& path, std::vector<std::string>& problems) {
  static const std::set<std::string, std::less<>> allowed{"type",  "properties", "required", "additionalProperties",
                                                          "items", "enum",       "anyOf",    "$ref",
                                                          "$defs", "description"};
  if (!node.is_object()) return;
  node.for_each_member([&](std::string_view key, json_value) {
    if (!allowed.count(key)) problems.push_back(path + ": keyword " + std::string(key));
  });
  auto properties = node.find("properties");
  if (properties) {
    auto additional = node.find("additionalProperties");
    if (!additional || !additional->is_bool() || additional->as_bool())
      problems.push_back(path + ": additionalProperties is not false");
    auto required = node.find("required");
    std::vector<std::string> keys;
    properties->for_each_member([&](std::string_view key, json_value) { keys.emplace_back(key); });
    if (!required || strings_of(*required) != keys) problems.push_back(path + ": not every property is required");
    properties->for_each_member(
        [&](std::string_view key, json_value child) { check_strict(child, path + "." + std::string(key), problems); });
  }
  for (std::string_view key : {"items"})
    if (auto child = node.find(key)) check_strict(*child, path + "." + std::string(key), problems);
  if (auto defs = node.find("$defs"))
    defs->for_each_member([&](std::string_view key, json_value child) {
      check_strict(child, path + ".$defs." + std::string(key), problems);
    });
  if (auto any = node.find("anyOf"))
    any->for_each_element([&](std::size_t i, json_value child) {
      check_strict(child, path + ".anyOf[" + std::to_string(i) + "]", problems);
    });
}

struct definitions {
  std::string text;
  json_document doc;

  json_value tool(std::string_view name) const {
    json_value found;
    doc.root().for_each_element([&](std::size_t, json_value item) {
      if (item.find("name")->str() == name) found = item;
    });
    return found;
  }
};

std::unique_ptr<definitions> definitions_of(const domain& dom, bool strict, bool inline_schema = true) {
  auto out = std::make_unique<definitions>();
  out->text = tool_definitions_json(dom, {strict, inline_schema});
  auto doc = json_document::parse(out->text);
  REQUIRE(doc.ok());
  out->doc = std::move(*doc);
  return out;
}

}  // namespace

TEST_CASE("tool definitions: the table tools and db_aggregate, tables and columns from the domain") {
  auto defs = definitions_of(kitchen(), false);
  std::vector<std::string> names;
  defs->doc.root().for_each_element(
      [&](std::size_t, json_value item) { names.emplace_back(item.find("name")->str()); });
  CHECK(names == std::vector<std::string>{"db_read", "db_create", "db_update", "db_delete", "db_aggregate"});

  const json_value read = defs->tool("db_read");
  CHECK(read.find("description")->str().find("### inventory (refs inv_N)") != std::string_view::npos);
  const json_value params = *read.find("parameters");
  CHECK(strings_of(*params.find("required")) == std::vector<std::string>{"table"});
  CHECK(strings_of(*params.find("properties")->find("table")->find("enum")) ==
        std::vector<std::string>{"recipes", "recipe_ingredients", "ingredients", "inventory", "shopping_list",
                                 "meal_plans", "tasks", "preferences", "cooking_log"});
  const json_value filter = *params.find("$defs")->find("filter");
  const auto fields = strings_of(*filter.find("properties")->find("field")->find("enum"));
  CHECK(has(fields, "cuisine"));
  CHECK(has(fields, "expiry_date"));
  CHECK(has(fields, "_semantic"));
  CHECK_FALSE(has(fields, "user_id"));    // the owner column is never the model's
  CHECK_FALSE(has(fields, "embedding"));  // hidden
  const auto ops = strings_of(*filter.find("properties")->find("op")->find("enum"));
  CHECK(ops.size() == 20);
  CHECK(ops.front() == "=");
  CHECK(has(ops, "not_in"));
  CHECK(has(ops, "similar"));
  CHECK(filter.find("properties")->find("value")->find("description")->str().find("_semantic similar") !=
        std::string_view::npos);
  CHECK(params.find("properties")->find("limit")->find("maximum")->as_integer() == 1000);
}

TEST_CASE("tool definitions: typed rows per writable table, required columns, allowed values") {
  auto defs = definitions_of(kitchen(), false);
  const json_value create = *defs->tool("db_create").find("parameters");
  const auto tables = strings_of(*create.find("properties")->find("table")->find("enum"));
  CHECK_FALSE(has(tables, "ingredients"));  // a read-only catalog
  CHECK(has(tables, "inventory"));
  const json_value inventory = *create.find("$defs")->find("row_inventory");
  CHECK(strings_of(*inventory.find("required")) == std::vector<std::string>{"name", "quantity", "unit"});
  const json_value columns = *inventory.find("properties");
  CHECK(columns.find("quantity")->find("type")->str() == "number");
  CHECK(columns.find("ingredient_id")->find("description")->str() == "A ref to ingredients (ing_N).");
  CHECK_FALSE(columns.find("user_id"));
  CHECK_FALSE(columns.find("created_at"));  // maintained by the database
  const json_value recipes = *create.find("$defs")->find("row_recipes");
  CHECK(strings_of(*recipes.find("properties")->find("difficulty")->find("enum")) ==
        std::vector<std::string>{"easy", "medium", "hard", "<null>"});
  CHECK(recipes.find("properties")->find("id")->find("description")->str().find("gen_recipe_1") !=
        std::string_view::npos);
  const json_value update = *defs->tool("db_update").find("parameters");
  CHECK(strings_of(*update.find("required")) == std::vector<std::string>{"table", "filters", "data"});
  CHECK(strings_of(*update.find("$defs")->find("row_recipes")->find("required")).empty());
  CHECK_FALSE(update.find("$defs")->find("row_recipes")->find("properties")->find("id"));
}

TEST_CASE("strict tool definitions obey the strict structured-output rules, compact or inline") {
  for (bool inline_schema : {false, true}) {
    CAPTURE(inline_schema);
    auto defs = definitions_of(kitchen(), true, inline_schema);
    int tools = 0;
    defs->doc.root().for_each_element([&](std::size_t, json_value item) {
      ++tools;
      std::vector<std::string> problems;
      check_strict(*item.find("parameters"), std::string(item.find("name")->str()), problems);
      CHECK_MESSAGE(problems.empty(), (problems.empty() ? std::string() : problems.front()));
    });
    CHECK(tools == 5);
  }
  auto defs = definitions_of(kitchen(), true);
  int tools = 0;
  defs->doc.root().for_each_element([&](std::size_t, json_value item) {
    ++tools;
    std::vector<std::string> problems;
    const json_value params = *item.find("parameters");
    CHECK(params.find("type")->str() == "object");
    check_strict(params, std::string(item.find("name")->str()), problems);
    CHECK_MESSAGE(problems.empty(), (problems.empty() ? std::string() : problems.front()));
  });
  CHECK(tools == 5);
  const json_value create = *defs->tool("db_create").find("parameters");
  const json_value data = *create.find("properties")->find("data");
  CHECK(data.find("type")->str() == "string");
  CHECK(data.find("description")->str().find("inventory {ingredient_id ing_N, name* text, quantity* numeric") !=
        std::string_view::npos);
  const json_value read = *defs->tool("db_read").find("parameters");
  CHECK(strings_of(*read.find("properties")->find("limit")->find("type")) ==
        std::vector<std::string>{"integer", "null"});
  CHECK(strings_of(*read.find("properties")->find("order_dir")->find("enum")) ==
        std::vector<std::string>{"asc", "desc", "<null>"});
}

TEST_CASE("a domain of read-only catalogs gets the reads only: db_read and db_aggregate") {
  auto dom = parse_domain(R"({"name": "catalog", "tables": {"items": {"ref": "item", "writable": false,
                              "columns": {"id": {"type": "uuid", "writable": false}, "name": {"type": "text"}}}}})");
  REQUIRE_MESSAGE(dom.ok(), (dom.ok() ? std::string() : dom.err().message));
  auto defs = definitions_of(*dom, true);
  CHECK(defs->doc.root().size() == 2);
  CHECK(defs->tool("db_aggregate").find("name")->str() == "db_aggregate");
  CHECK(defs->tool("db_read").find("description")->str().rfind("Read rows of the catalog database.", 0) == 0);
  // No table has semantic search: _semantic is not offered.
  const json_value field =
      *defs->tool("db_read").find("parameters")->find("$defs")->find("filter")->find("properties")->find("field");
  CHECK(strings_of(*field.find("enum")) == std::vector<std::string>{"id", "name"});
  CHECK(field.find("description")->str() == "A column of the table.");
  // Nor its op, nor its value: a model offered similar would send it to be refused.
  const json_value filter = *defs->tool("db_read").find("parameters")->find("$defs")->find("filter");
  const auto ops = strings_of(*filter.find("properties")->find("op")->find("enum"));
  CHECK_FALSE(has(ops, "similar"));
  CHECK(has(ops, "search"));
  CHECK(filter.find("properties")->find("value")->find("description")->str().find("similar") == std::string::npos);
}

}  // namespace alfred::test

namespace alfred::test {

TEST_CASE("compact tool definitions (the default): one line per table, names instead of typed rows") {
  const std::string compact = tool_definitions_json(kitchen());
  const std::string full = tool_definitions_json(kitchen(), {.inline_schema = true});
  CHECK(compact.size() * 5 < full.size() * 2);
  auto doc = json_document::parse(compact);
  REQUIRE(doc.ok());
  definitions defs{compact, std::move(*doc)};
  const std::string_view read = defs.tool("db_read").find("description")->str();
  CHECK(read.rfind("Read rows of the kitchen database.", 0) == 0);
  CHECK(read.find("### inventory") == std::string_view::npos);  // not the whole schema
  CHECK(read.find("\n- inventory (inv_N): id, ingredient_id→ingredients, name*, quantity*, unit*, location, "
                  "category, notes, expiry_date, purchase_date, created_at, updated_at\n") != std::string_view::npos);
  CHECK(read.find("\n- recipes (recipe_N): id, name*, description, cuisine, difficulty (easy|medium|hard), ") !=
        std::string_view::npos);
  CHECK(read.find("instructions[]*, tags[], ") != std::string_view::npos);
  CHECK(read.find("; related: recipe_ingredients\n") != std::string_view::npos);
  CHECK(read.find("\n- ingredients (ing_N, read-only): id, name, aliases[], ") != std::string_view::npos);
  CHECK(read.find("user_id") == std::string_view::npos);    // the owner is never the model's
  CHECK(read.find("embedding") == std::string_view::npos);  // hidden
  // Columns are strings the core checks, rows open objects: no enum of every
  // column, no typed row per table.
  const json_value params = *defs.tool("db_read").find("parameters");
  CHECK_FALSE(params.find("$defs")->find("filter")->find("properties")->find("field")->find("enum"));
  CHECK_FALSE(params.find("properties")->find("order_by")->find("enum"));
  CHECK(strings_of(*params.find("properties")->find("table")->find("enum")).size() == 9);
  const json_value create = *defs.tool("db_create").find("parameters");
  CHECK_FALSE(create.find("$defs"));
  CHECK(create.find("properties")->find("data")->find("description")->str() ==
        "One row object, or a list of row objects for a batch. Columns as db_read lists them (* = required; a key "
        "only as a gen_ ref, to save that generated artifact).");
  const json_value update = *defs.tool("db_update").find("parameters");
  CHECK(update.find("properties")->find("data")->find("type")->str() == "object");
  CHECK_FALSE(update.find("$defs")->find("row_recipes"));
  // The strict variant names the columns the same way.
  auto strict = definitions_of(kitchen(), true, false);
  CHECK(strict->tool("db_create").find("parameters")->find("properties")->find("data")->find("description")->str() ==
        "One row object, or a list of row objects for a batch. As JSON text, with the table's columns as db_read "
        "lists them (* = required; a key only as a gen_ ref, to save that generated artifact).");
}

TEST_CASE("compact tool definitions: keys of other kinds, keyless views and composite keys are named") {
  auto dom = parse_domain(R"({"name": "chat", "tables": {
      "channels": {"ref": "chan", "key": ["slug"], "columns": {"slug": {"type": "text", "required": true},
                   "topic": {"type": "text"}, "kind": {"type": "text", "values": ["public", "private"]}}},
      "members": {"ref": "member", "key": ["channel_slug", "member"], "columns": {"channel_slug": {"type": "text", "references": "channels"},
                  "member": {"type": "text"}}},
      "busy": {"ref": "busy", "key": [], "writable": false, "columns": {"slug": {"type": "text"}}}}})");
  REQUIRE_MESSAGE(dom.ok(), (dom.ok() ? std::string() : dom.err().message));
  const std::string read = tool_description(*dom, tool_kind::read);
  CHECK(read.find("\n- channels (chan_N): slug*, topic, kind (public|private)\n") != std::string::npos);
  CHECK(read.find("\n- members (rows named by channel_slug + member): channel_slug→channels, member\n") !=
        std::string::npos);
  CHECK(read.find("\n- busy (read-only): slug\n") != std::string::npos);
}

}  // namespace alfred::test

namespace alfred::test {

TEST_CASE(
    "db_call: the functions as an enum, their signatures in the description, args an object or strict JSON text") {
  const std::string text = tool_definitions_json(team());
  auto doc = json_document::parse(text);
  REQUIRE(doc.ok());
  const json_value tools = doc->root();
  json_value call = tools.at(0);
  tools.for_each_element([&](std::size_t, json_value tool) {
    if (tool.find("name")->str() == "db_call") call = tool;
  });
  CHECK(call.find("name")->str() == "db_call");
  const std::string description(call.find("description")->str());
  CHECK(description.find("- archive_project(project_id: ref of projects) — Archives a project instead of deleting "
                         "it. [changes data]\n") != std::string::npos);
  CHECK(description.find("- get_accounts() — The teams the signed-in user belongs to. [reads]") != std::string::npos);
  CHECK(description.find("count_open_tickets(project_id: ref of projects, status?: text (open|closed), limit?: "
                         "integer)") != std::string::npos);
  CHECK(description.find("match_documents(query_embedding: text to search by meaning, match_count?: integer)") !=
        std::string::npos);
  const json_value params = *call.find("parameters");
  CHECK(strings_of(*params.find("required")) == std::vector<std::string>{"function"});
  CHECK(strings_of(*params.find("properties")->find("function")->find("enum")).size() == 8);
  CHECK(params.find("properties")->find("args")->find("type")->str() == "object");
  CHECK_FALSE(params.find("$defs"));

  const std::string strict_text = tool_definitions_json(team(), {.strict = true});
  auto strict = json_document::parse(strict_text);
  json_value strict_call = strict->root().at(0);
  strict->root().for_each_element([&](std::size_t, json_value tool) {
    if (tool.find("name")->str() == "db_call") strict_call = tool;
  });
  const json_value strict_args = *strict_call.find("parameters")->find("properties")->find("args");
  CHECK(strings_of(*strict_args.find("type")) == std::vector<std::string>{"string", "null"});
  std::vector<std::string> problems;
  check_strict(*strict_call.find("parameters"), "db_call", problems);
  CHECK(problems.empty());
}

TEST_CASE("db_call for a read-only act: only the functions that read, and no writes at all") {
  tool_schema_options options;
  options.reads_only = true;
  const std::string text = tool_definitions_json(team(), options);
  auto doc = json_document::parse(text);
  std::vector<std::string> names;
  doc->root().for_each_element([&](std::size_t, json_value tool) { names.emplace_back(tool.find("name")->str()); });
  CHECK(names == std::vector<std::string>{"db_read", "db_call", "db_aggregate"});
  const json_value call = doc->root().at(1);
  CHECK(strings_of(*call.find("parameters")->find("properties")->find("function")->find("enum")) ==
        std::vector<std::string>{"get_accounts", "count_open_tickets", "match_documents", "current_account",
                                 "project_tags"});
  CHECK(std::string(call.find("description")->str()).find("archive_project") == std::string::npos);
}

TEST_CASE("values the app fixes are offered nowhere: not a required column, not an argument") {
  tool_schema_options options;
  options.fixed = {"account_id"};
  const std::string tools = tool_definitions_json(team(), options);
  CHECK(tools.find("account_id*") == std::string::npos);
  CHECK(tools.find("current_account()") != std::string::npos);
  CHECK(tool_definitions_json(team()).find("account_id*") != std::string::npos);
}

TEST_CASE("a table the API does not expose is listed as refs only, and no tool acts on it") {
  const std::string tools = tool_definitions_json(team());
  CHECK(tools.find("- accounts (account_N): not a table to read; its refs come from db_call results and the rows "
                   "that reference it") != std::string::npos);
  CHECK(tools.find(R"("enum":["projects","tickets","documents"])") != std::string::npos);
}

}  // namespace alfred::test
