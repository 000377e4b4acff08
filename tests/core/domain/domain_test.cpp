// Domain loading: the kitchen domain as shipped, and the configuration
// mistakes parse_domain must refuse (each one would otherwise leak a UUID to
// the model or let a column name change the meaning of a PostgREST request).

#include <string>

#include "../support.h"

namespace alfred::test {
namespace {

// A small valid domain; tests splice one mistake into it.
std::string domain_text(const std::string& tables) { return R"({"name": "shop", "tables": {)" + tables + "}}"; }

const char* kThings = R"("things": {"ref": "thing", "label": ["name"],
    "columns": {"id": {"type": "uuid"}, "name": {"type": "text"}}})";

void check_domain_error(const std::string& text, const std::string& path, const std::string& message,
                        const std::string& hint = "docs/own-schema.md describes a domain's shape") {
  auto loaded = load_domain(text);
  REQUIRE_FALSE(loaded.ok());
  CHECK(loaded.err().code == "invalid_domain");
  CHECK(loaded.err().path == path);
  CHECK(loaded.err().message == message);
  CHECK(loaded.err().hint == hint);
}

}  // namespace

TEST_CASE("kitchen domain loads with its nine tables in file order") {
  const domain& dom = kitchen();
  CHECK(dom.name == "kitchen");
  CHECK(dom.owner_column == "user_id");
  CHECK(dom.max_rows == 1000);
  REQUIRE(dom.tables.size() == 9);
  CHECK(dom.table_list() ==
        "recipes, recipe_ingredients, ingredients, inventory, shopping_list, meal_plans, tasks, "
        "preferences, cooking_log");
}

TEST_CASE("kitchen tables have the ref prefixes the model is taught") {
  const domain& dom = kitchen();
  const char* expected[][2] = {{"recipes", "recipe"}, {"recipe_ingredients", "ri"}, {"ingredients", "ing"},
                               {"inventory", "inv"},  {"shopping_list", "shop"},    {"meal_plans", "meal"},
                               {"tasks", "task"},     {"preferences", "pref"},      {"cooking_log", "log"}};
  for (const auto& [name, prefix] : expected) {
    const std::string table_name = name;
    CAPTURE(table_name);
    const table* tbl = dom.find_table(name);
    REQUIRE(tbl != nullptr);
    CHECK(tbl->ref_prefix == prefix);
    CHECK(dom.find_table_by_prefix(prefix) == tbl);
  }
  CHECK(dom.find_table("recipe") == nullptr);
  CHECK(dom.find_table("") == nullptr);
  CHECK(dom.find_table_by_prefix("gen_recipe") == nullptr);
  CHECK(dom.find_table_by_prefix("recipes") == nullptr);
}

TEST_CASE("kitchen: ingredients is a read-only catalog, every other table is user-owned and writable") {
  for (const table& tbl : kitchen().tables) {
    CAPTURE(tbl.name);
    const bool catalog = tbl.name == "ingredients";
    CHECK(tbl.has_owner() == !catalog);
    CHECK(tbl.owner_scoped == !catalog);
    CHECK(tbl.writable == !catalog);
    if (tbl.has_owner()) {
      CHECK(tbl.owner == "user_id");
      const column* owner = tbl.find_column("user_id");
      REQUIRE(owner != nullptr);
      CHECK(owner->type == column_type::uuid);
      CHECK_FALSE(owner->writable);
    }
    const column* id = tbl.find_column("id");
    REQUIRE(id != nullptr);
    CHECK(id->type == column_type::uuid);
    CHECK_FALSE(id->writable);
    CHECK_FALSE(id->nullable);
  }
}

TEST_CASE("kitchen: every uuid column except id and user_id references a table") {
  const domain& dom = kitchen();
  for (const table& tbl : dom.tables) {
    for (const column& col : tbl.columns) {
      if (col.type != column_type::uuid && col.type != column_type::uuid_array) continue;
      if (col.name == "id" || col.name == "user_id") continue;
      const std::string column_path = tbl.name + "." + col.name;
      CAPTURE(column_path);
      CHECK(dom.find_table(col.references) != nullptr);
    }
  }
  const table* recipes = dom.find_table("recipes");
  REQUIRE(recipes != nullptr);
  CHECK(recipes->find_column("parent_recipe_id")->references == "recipes");
  const column* staples = dom.find_table("preferences")->find_column("assumed_staples");
  REQUIRE(staples != nullptr);
  CHECK(staples->type == column_type::uuid_array);
  CHECK(staples->references == "ingredients");
  CHECK(dom.find_table("cooking_log")->find_column("from_meal_plan_id")->references == "meal_plans");
}

TEST_CASE("kitchen: column attributes, relations, hidden columns and labels") {
  const domain& dom = kitchen();
  const table& recipes = *dom.find_table("recipes");
  const column* name = recipes.find_column("name");
  REQUIRE(name != nullptr);
  CHECK(name->required);
  CHECK_FALSE(name->nullable);  // required implies NOT NULL
  CHECK(recipes.find_column("cuisine")->nullable);
  CHECK(recipes.find_column("difficulty")->allowed_values == std::vector<std::string>{"easy", "medium", "hard"});
  CHECK(recipes.find_column("instructions")->type == column_type::text_array);
  CHECK(recipes.find_column("created_at")->type == column_type::timestamp);
  CHECK_FALSE(recipes.find_column("is_system")->writable);
  CHECK(recipes.find_column("embedding") == nullptr);
  CHECK(recipes.hidden_columns == std::vector<std::string>{"embedding"});
  CHECK(recipes.label_columns == std::vector<std::string>{"name"});
  REQUIRE(recipes.find_relation("recipe_ingredients") != nullptr);
  CHECK(recipes.find_relation("recipe_ingredients")->table == "recipe_ingredients");
  CHECK(recipes.find_relation("ingredients") == nullptr);
  CHECK(recipes.find_column("nope") == nullptr);

  CHECK(dom.find_table("meal_plans")->label_format == "{date|mon_day} [{meal_type}]");
  CHECK(dom.find_table("preferences")->label_format == "preferences");
  CHECK(dom.find_table("tasks")->label_columns == std::vector<std::string>{"title"});
  CHECK(dom.find_table("inventory")->find_column("expiry_date")->type == column_type::date);
  CHECK(dom.find_table("preferences")->find_column("subdomain_guidance")->type == column_type::jsonb);
  CHECK(dom.find_table("recipe_ingredients")->find_column("quantity")->type == column_type::numeric);
  CHECK(dom.find_table("recipe_ingredients")->find_column("is_optional")->type == column_type::boolean);
  CHECK(dom.find_table("recipes")->find_column("servings")->type == column_type::integer);
}

TEST_CASE("column_type_name uses the domain JSON spellings") {
  CHECK(column_type_name(column_type::uuid) == "uuid");
  CHECK(column_type_name(column_type::text) == "text");
  CHECK(column_type_name(column_type::integer) == "integer");
  CHECK(column_type_name(column_type::numeric) == "numeric");
  CHECK(column_type_name(column_type::boolean) == "boolean");
  CHECK(column_type_name(column_type::date) == "date");
  CHECK(column_type_name(column_type::timestamp) == "timestamp");
  CHECK(column_type_name(column_type::text_array) == "text[]");
  CHECK(column_type_name(column_type::uuid_array) == "uuid[]");
  CHECK(column_type_name(column_type::jsonb) == "jsonb");
}

TEST_CASE("is_postgrest_reserved: the query keys PostgREST interprets itself") {
  for (const std::string key : {"select", "columns", "on_conflict", "order", "limit", "offset", "or", "and", "not"}) {
    CAPTURE(key);
    CHECK(is_postgrest_reserved(key));
  }
  for (const std::string key : {"name", "orders", "order_by", "Select", "OR", "", "user_id", "id", "nott"}) {
    CAPTURE(key);
    CHECK_FALSE(is_postgrest_reserved(key));
  }
}

TEST_CASE("a minimal domain loads - defaults for owner column and max_rows") {
  auto loaded = load_domain(domain_text(kThings));
  REQUIRE(loaded.ok());
  CHECK(loaded->name == "shop");
  CHECK(loaded->owner_column == "user_id");
  CHECK(loaded->max_rows == 1000);
  REQUIRE(loaded->tables.size() == 1);
  CHECK(loaded->tables[0].ref_prefix == "thing");
  CHECK_FALSE(loaded->tables[0].has_owner());
  CHECK(loaded->tables[0].writable);
}

TEST_CASE("domain error: reserved column names (or, select, limit, order, not)") {
  for (const std::string name : {"or", "select", "limit", "order", "not", "and", "offset", "columns", "on_conflict"}) {
    CAPTURE(name);
    const std::string tables = std::string(R"("things": {"ref": "thing", "columns": {"id": {"type": "uuid"}, ")") +
                               name + R"(": {"type": "text"}}})";
    check_domain_error(domain_text(tables), std::string("tables.things.columns.") + name,
                       std::string("column name '") + name + "' is reserved by PostgREST");
  }
}

TEST_CASE("domain error: two tables with the same ref prefix") {
  const std::string tables =
      std::string(kThings) + R"(, "others": {"ref": "thing", "columns": {"id": {"type": "uuid"}}})";
  check_domain_error(domain_text(tables), "tables.others.ref", "ref prefix 'thing' is used by two tables");
}

TEST_CASE("regression: a column declared twice (jsonb, then a uuid reference) leaked the UUID, now refused") {
  // The translator read the first declaration and copied the UUID as jsonb.
  check_domain_error(domain_text(std::string(kThings) + R"(, "boxes": {"ref": "box", "columns": {"id": {"type": "uuid"},
      "thing_id": {"type": "jsonb"}, "thing_id": {"type": "uuid", "references": "things"}}})"),
                     "tables.boxes.columns.thing_id", "column appears twice");
  check_domain_error(domain_text(std::string(kThings) + R"(, "boxes": {"ref": "box", "relations": {"things": "things",
      "things": "boxes"}, "columns": {"id": {"type": "uuid"}}})"),
                     "tables.boxes.relations.things", "relation appears twice");
}

TEST_CASE("regression: a relation named like a column (its embedded rows read as the column's value) is refused") {
  check_domain_error(domain_text(std::string(kThings) + R"(, "boxes": {"ref": "box", "relations": {"name": "things"},
      "columns": {"id": {"type": "uuid"}, "name": {"type": "text"}}})"),
                     "tables.boxes.relations.name", "a column has the same name");
}

TEST_CASE("domain error: foreign key to an unknown table") {
  const std::string tables = R"("things": {"ref": "thing", "columns": {"id": {"type": "uuid"},
      "box_id": {"type": "uuid", "references": "boxes"}}})";
  check_domain_error(domain_text(tables), "tables.things.columns.box_id", "references unknown table 'boxes'");
}

TEST_CASE("domain error: uuid and uuid[] columns without references would leak UUIDs") {
  check_domain_error(domain_text(R"("things": {"ref": "thing", "columns": {"id": {"type": "uuid"},
      "box_id": {"type": "uuid"}}})"),
                     "tables.things.columns.box_id", "a uuid column must reference a table (or auth.users)");
  check_domain_error(domain_text(R"("things": {"ref": "thing", "columns": {"id": {"type": "uuid"},
      "box_ids": {"type": "uuid[]"}}})"),
                     "tables.things.columns.box_ids", "a uuid column must reference a table (or auth.users)");
}

TEST_CASE("domain error: a foreign key's type must be the type of the key it points at") {
  check_domain_error(domain_text(std::string(kThings) + R"(, "boxes": {"ref": "box", "columns": {"id": {"type": "uuid"},
      "thing_name": {"type": "text", "references": "things"}}})"),
                     "tables.boxes.columns.thing_name", "is text but the key of things (id) is uuid");
  check_domain_error(domain_text(std::string(kThings) + R"(, "boxes": {"ref": "box", "columns": {"id": {"type": "uuid"},
      "thing_day": {"type": "date", "references": "things"}}})"),
                     "tables.boxes.columns.thing_day",
                     "only uuid, uuid[], integer and text columns can reference a table");
}

TEST_CASE("domain error: ref prefixes that would collide with gen_ refs or be unparsable") {
  const std::string message = "must be a lower-case identifier that does not start with 'gen' and is not 'me'";
  for (const std::string prefix : {"gen", "gen_thing", "Thing", "thing_", "", "9thing", "th-ing", "me"}) {
    CAPTURE(prefix);
    const std::string tables =
        std::string(R"("things": {"ref": ")") + prefix + R"(", "columns": {"id": {"type": "uuid"}}})";
    check_domain_error(domain_text(tables), "tables.things.ref", message);
  }
  check_domain_error(domain_text(R"("things": {"columns": {"id": {"type": "uuid"}}})"), "tables.things.ref", message);
}

TEST_CASE("a ref prefix that merely begins with the letters gen (genre) is fine") {
  auto loaded = load_domain(domain_text(R"("genres": {"ref": "genre", "columns": {"id": {"type": "uuid"}}})"));
  REQUIRE(loaded.ok());
  CHECK(loaded->tables[0].ref_prefix == "genre");
}

TEST_CASE("domain error: unknown column type, missing id, bad owner column") {
  check_domain_error(domain_text(R"("things": {"ref": "thing", "columns": {"id": {"type": "uuid"},
      "name": {"type": "varchar"}}})"),
                     "tables.things.columns.name.type", "unknown column type 'varchar'");
  check_domain_error(domain_text(R"("things": {"ref": "thing", "key": "code", "columns": {"name": {"type": "text"}}})"),
                     "tables.things.key", "'code' is not a column of things");
  check_domain_error(domain_text(R"("things": {"ref": "thing", "columns": {"id": {"type": "jsonb"}}})"),
                     "tables.things.key", "id is jsonb; a key column is uuid, integer or text");
  check_domain_error(domain_text(R"("things": {"ref": "thing", "user_owned": true,
      "columns": {"id": {"type": "uuid"}}})"),
                     "tables.things.owner", "the owner column 'user_id' must be a non-writable uuid column of things");
  check_domain_error(domain_text(R"("things": {"ref": "thing", "owner": "user_id",
      "columns": {"id": {"type": "uuid"}, "user_id": {"type": "uuid"}}})"),
                     "tables.things.owner", "the owner column 'user_id' must be a non-writable uuid column of things");
}

TEST_CASE("domain error: column and table names must be lower-case identifiers") {
  check_domain_error(domain_text(R"("things": {"ref": "thing", "columns": {"id": {"type": "uuid"},
      "Name": {"type": "text"}}})"),
                     "tables.things.columns.Name", "column name 'Name' is not a lower-case identifier");
  check_domain_error(domain_text(R"("things": {"ref": "thing", "columns": {"id": {"type": "uuid"},
      "na me": {"type": "text"}}})"),
                     "tables.things.columns.na me", "column name 'na me' is not a lower-case identifier");
  check_domain_error(domain_text(R"("my things": {"ref": "thing", "columns": {"id": {"type": "uuid"}}})"),
                     "tables.my things", "table name 'my things' is not a lower-case identifier");
}

TEST_CASE("domain error: relations and labels must name things that exist") {
  check_domain_error(domain_text(R"("things": {"ref": "thing", "relations": {"parts": "parts"},
      "columns": {"id": {"type": "uuid"}}})"),
                     "tables.things.relations.parts", "not a table to read: 'parts'");
  check_domain_error(domain_text(R"("things": {"ref": "thing", "label": ["title"],
      "columns": {"id": {"type": "uuid"}}})"),
                     "tables.things.label", "unknown column 'title'");
}

TEST_CASE("domain error: the document's overall shape") {
  check_domain_error("[]", "", "a domain must be a JSON object");
  check_domain_error(R"({"name": "shop"})", "tables", "must be a non-empty object");
  check_domain_error(R"({"name": "shop", "tables": {}})", "tables", "must be a non-empty object");
  check_domain_error(R"({"name": "shop", "max_rows": 0, "tables": {)" + std::string(kThings) + "}}", "max_rows",
                     "must be positive");
  check_domain_error(domain_text(R"("things": {"ref": "thing", "columns": {}})"), "tables.things.columns",
                     "must be a non-empty object");
}

TEST_CASE("domain error: a misspelt or unknown setting is refused, at every level, not ignored") {
  check_domain_error(R"({"name": "shop", "owner": "user_id", "tables": {)" + std::string(kThings) + "}}", "owner",
                     "'owner' is not a domain setting",
                     "allowed here: name, owner_column, max_rows, tables, functions, prompt_examples");
  check_domain_error(
      domain_text(R"("things": {"ref": "thing", "user_owend": true, "columns": {"id": {"type": "uuid"}}})"),
      "tables.things.user_owend", "'user_owend' is not a domain setting",
      "allowed here: ref, key, owner, scope, user_owned, signed_in, writable, readable, exposed, label, label_format, "
      "hidden, "
      "relations, "
      "middleware, columns");
  check_domain_error(
      domain_text(
          R"("things": {"ref": "thing", "columns": {"id": {"type": "uuid"}, "name": {"type": "text", "requried": true}}})"),
      "tables.things.columns.name.requried", "'requried' is not a domain setting",
      "allowed here: type, required, writable, nullable, references, values");
  check_domain_error(domain_text(R"("things": {"ref": "thing", "middleware": {"fuzz": ["name"]},
      "columns": {"id": {"type": "uuid"}, "name": {"type": "text"}}})"),
                     "tables.things.middleware.fuzz", "'fuzz' is not a domain setting",
                     "allowed here: fuzzy, include, semantic, catalog");
  check_domain_error(domain_text(R"("things": {"ref": "thing", "middleware": {"semantic": {"rpc": "match", "top": 3}},
      "columns": {"id": {"type": "uuid"}}})"),
                     "tables.things.middleware.semantic.top", "'top' is not a domain setting",
                     "allowed here: rpc, embedding_arg, count_arg, distance_arg, limit, max_distance, text");
}

TEST_CASE("prompt_examples: text per known slot, an unknown slot or a non-text value is refused") {
  auto loaded = load_domain(
      R"({"name": "shop", "prompt_examples": {"gen_ref": "gen_thing_1", "assistant_role": "a shop assistant"},
      "tables": {)" +
      std::string(kThings) + "}}");
  REQUIRE(loaded.ok());
  CHECK(loaded->prompt_examples == std::vector<std::pair<std::string, std::string>>{
                                       {"gen_ref", "gen_thing_1"}, {"assistant_role", "a shop assistant"}});
  auto unknown = load_domain(R"({"name": "shop", "prompt_examples": {"gen_refs": "x"}, "tables": {)" +
                             std::string(kThings) + "}}");
  REQUIRE_FALSE(unknown.ok());
  CHECK(unknown.err().path == "prompt_examples.gen_refs");
  CHECK(unknown.err().message == "'gen_refs' is not a prompt example slot");
  CHECK(unknown.err().hint.rfind("slots: note_example, ref_examples, gen_ref, ", 0) == 0);
  check_domain_error(R"({"name": "shop", "prompt_examples": {"gen_ref": 1}, "tables": {)" + std::string(kThings) + "}}",
                     "prompt_examples.gen_ref", "must be text");
  check_domain_error(R"({"name": "shop", "prompt_examples": [], "tables": {)" + std::string(kThings) + "}}",
                     "prompt_examples", "must be an object of slot name → text");
}

TEST_CASE("semantic text columns: what a row's embedding is made of must be text or text[] columns") {
  const domain& dom = kitchen();
  CHECK(dom.find_table("recipes")->middleware.semantic->text_columns ==
        std::vector<std::string>{"name", "description", "cuisine", "tags", "flavor_tags", "occasions", "health_tags"});
  check_domain_error(
      domain_text(R"("things": {"ref": "thing", "middleware": {"semantic": {"rpc": "match", "text": ["n"]}},
      "columns": {"id": {"type": "uuid"}, "n": {"type": "integer"}}})"),
      "tables.things.middleware.semantic.text", "'n' is not a text or text[] column");
}

}  // namespace alfred::test
