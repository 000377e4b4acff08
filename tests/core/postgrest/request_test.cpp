// Exact PostgREST requests for valid tool calls: method, full URL, decoded
// query pairs, headers and body text (docs/postgrest-wire.md).

#include "alfred/postgrest/request.h"

#include <cstdio>
#include <string>
#include <vector>

#include "../request_text.h"
#include "../support.h"
#include "alfred/api/api.h"

namespace alfred::test {
namespace {

constexpr const char* kBase = "http://127.0.0.1:3000";
constexpr const char* kSaved = "5b0c6f3e-2a1d-4c8e-9f7a-3d2e1c0b9a88";
constexpr const char* kSalt = "2f4e6a8c-1b3d-4f5a-9c7e-0d2b4f6a8c10";
constexpr const char* kPepper = "9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c21";

// `select` of a recipes read without columns: every visible column, never
// user_id or the hidden embedding.
const std::string kRecipeSelect =
    "select=id,name,description,cuisine,difficulty,prep_time_minutes,cook_time_minutes,servings,instructions,"
    "tags,source_url,is_system,parent_recipe_id,occasions,health_tags,flavor_tags,equipment_tags,created_at\n";
// The same list in a URL, its commas percent-encoded.
const std::size_t kRecipeSelectInUrl = kRecipeSelect.size() - 8 + 2 * 17;
const std::string kOwner = std::string("user_id=eq.") + kAlice + "\n";
const std::string kGetHeaders = "Accept: application/json\n";
const std::string kWriteHeaders =
    "Accept: application/json\nContent-Type: application/json\nPrefer: return=representation\n";

http_request request_for(std::string_view tool, std::string_view params, const ref_registry& reg = sample_registry(),
                         const request_options& opts = alice_options()) {
  auto req = build(tool, params, reg, opts);
  if (!req.ok()) {
    INFO(error_text(req.err()));
    REQUIRE(req.ok());
  }
  return std::move(req).value();
}

// The decoded query of a read of inventory (select=*) with these filters.
std::string inventory_query(std::string_view filters_json) {
  return query_text(
      request_for("db_read", R"j({"table": "inventory", "filters": )j" + std::string(filters_json) + "}"));
}

ref_registry with_ingredients() {
  ref_registry reg = sample_registry();
  reg.register_row("ingredients", "ing", kSalt, ref_action::read, "salt");
  reg.register_row("ingredients", "ing", kPepper, ref_action::read, "black pepper");
  return reg;
}

ref_registry with_saved_artifact() {
  ref_registry reg = sample_registry();
  auto saved = reg.promote("gen_recipe_1", kSaved, "");
  REQUIRE(saved.ok());
  REQUIRE(*saved == "recipe_3");
  return reg;
}

std::string jwt_with_role(const std::string& payload_base64url) {
  return "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9." + payload_base64url + ".c2lnbmF0dXJl";
}
// {"iss":"supabase","role":"service_role","exp":1983812996}
const std::string kServiceJwt =
    jwt_with_role("eyJpc3MiOiJzdXBhYmFzZSIsInJvbGUiOiJzZXJ2aWNlX3JvbGUiLCJleHAiOjE5ODM4MTI5OTZ9");
// {"iss":"supabase","role":"anon","exp":1983812996}
const std::string kAnonJwt = jwt_with_role("eyJpc3MiOiJzdXBhYmFzZSIsInJvbGUiOiJhbm9uIiwiZXhwIjoxOTgzODEyOTk2fQ");
// {"iss":"supabase","role":"authenticated","exp":1983812996}
const std::string kUserJwt =
    jwt_with_role("eyJpc3MiOiJzdXBhYmFzZSIsInJvbGUiOiJhdXRoZW50aWNhdGVkIiwiZXhwIjoxOTgzODEyOTk2fQ");

}  // namespace

// ---------------------------------------------------------------- db_read basics

TEST_CASE("read: full URL of a plain read, select lists visible columns, user_id right after select") {
  const http_request req = request_for("db_read", R"j({"table": "recipes"})j");
  CHECK(req.method == "GET");
  CHECK(req.url ==
        "http://127.0.0.1:3000/recipes?select=id%2Cname%2Cdescription%2Ccuisine%2Cdifficulty%2Cprep_time_minutes"
        "%2Ccook_time_minutes%2Cservings%2Cinstructions%2Ctags%2Csource_url%2Cis_system%2Cparent_recipe_id"
        "%2Coccasions%2Chealth_tags%2Cflavor_tags%2Cequipment_tags%2Ccreated_at"
        "&user_id=eq.6f1c1a52-8d3e-4f7a-9a41-2b7d5e0c9a11");
  CHECK(query_text(req) == kRecipeSelect + kOwner);
  CHECK(headers_text(req) == kGetHeaders);
  CHECK_FALSE(req.body.has_value());
}

TEST_CASE("read: a table without hidden columns selects *") {
  const http_request req = request_for("db_read", R"j({"table": "inventory"})j");
  CHECK(req.url == "http://127.0.0.1:3000/inventory?select=%2A&user_id=eq.6f1c1a52-8d3e-4f7a-9a41-2b7d5e0c9a11");
  CHECK(query_text(req) == "select=*\n" + kOwner);
}

TEST_CASE("read: the shared ingredients catalog is not scoped to a user and needs no user id") {
  request_options anonymous = alice_options();
  anonymous.user_id.clear();
  const http_request req = request_for("db_read", R"j({"table": "ingredients", "columns": ["name"],
      "filters": [{"field": "parent_category", "op": "=", "value": "spices"}]})j",
                                       sample_registry(), anonymous);
  CHECK(req.url == "http://127.0.0.1:3000/ingredients?select=id%2Cname&parent_category=eq.spices");
}

TEST_CASE("read: comparison ops =, !=, >, >=, <, <=") {
  CHECK(inventory_query(R"j([{"field": "location", "op": "=", "value": "fridge"},
      {"field": "unit", "op": "!=", "value": "g"}, {"field": "quantity", "op": ">", "value": 1},
      {"field": "quantity", "op": ">=", "value": 2}, {"field": "expiry_date", "op": "<", "value": "2026-01-31"},
      {"field": "quantity", "op": "<=", "value": 10.5}])j") ==
        "select=*\n" + kOwner +
            "location=eq.fridge\nunit=neq.g\nquantity=gt.1\nquantity=gte.2\nexpiry_date=lt.2026-01-31\n"
            "quantity=lte.10.5\n");
}

TEST_CASE("read: op aliases and spelling variants map to the canonical ops") {
  CHECK(inventory_query(R"j([{"field": "location", "op": "==", "value": "a"},
      {"field": "location", "op": "eq", "value": "b"}, {"field": "location", "op": "<>", "value": "c"},
      {"field": "location", "op": "neq", "value": "d"}, {"field": "quantity", "op": "gt", "value": 1},
      {"field": "quantity", "op": "gte", "value": 2}, {"field": "quantity", "op": "lt", "value": 3},
      {"field": "quantity", "op": "lte", "value": 4}, {"field": "location", "op": "nin", "value": ["e"]},
      {"field": "location", "op": "not in", "value": ["f"]}, {"field": "name", "op": "not like", "value": "g%"},
      {"field": "name", "op": "not ilike", "value": "h%"}, {"field": "name", "op": " ILIKE ", "value": "i%"},
      {"field": "name", "op": "NOT_IN", "value": ["j"]}])j") ==
        "select=*\n" + kOwner +
            "location=eq.a\nlocation=eq.b\nlocation=neq.c\nlocation=neq.d\nquantity=gt.1\nquantity=gte.2\n"
            "quantity=lt.3\nquantity=lte.4\nlocation=not.in.(e)\nlocation=not.in.(f)\nname=not.like.g%\n"
            "name=not.ilike.h%\nname=ilike.i%\nname=not.in.(j)\n");
}

TEST_CASE("read: pattern ops like, ilike, not_like, not_ilike pass % and * through") {
  const http_request req = request_for("db_read", R"j({"table": "recipes", "columns": ["name"], "filters": [
      {"field": "name", "op": "like", "value": "Chicken%"}, {"field": "name", "op": "ilike", "value": "*chicken*"},
      {"field": "name", "op": "not_like", "value": "%Cod"}, {"field": "name", "op": "not_ilike", "value": "%cod%"}]})j");
  CHECK(query_text(req) == "select=id,name\n" + kOwner +
                               "name=like.Chicken%\nname=ilike.*chicken*\nname=not.like.%Cod\nname=not.ilike.%cod%\n");
  CHECK(req.url ==
        "http://127.0.0.1:3000/recipes?select=id%2Cname&user_id=eq.6f1c1a52-8d3e-4f7a-9a41-2b7d5e0c9a11"
        "&name=like.Chicken%25&name=ilike.%2Achicken%2A&name=not.like.%25Cod&name=not.ilike.%25cod%25");
}

TEST_CASE("read: is_null / is_not_null, with and without a boolean value") {
  CHECK(inventory_query(R"j([{"field": "expiry_date", "op": "is_null"},
      {"field": "location", "op": "is_not_null"}, {"field": "notes", "op": "is_null", "value": false},
      {"field": "category", "op": "is_not_null", "value": false}, {"field": "unit", "op": "is_null", "value": true},
      {"field": "ingredient_id", "op": "is_null", "value": null}])j") ==
        "select=*\n" + kOwner +
            "expiry_date=is.null\nlocation=not.is.null\nnotes=not.is.null\ncategory=is.null\nunit=is.null\n"
            "ingredient_id=is.null\n");
}

TEST_CASE("read: '= null' becomes is.null and '!= null' becomes not.is.null") {
  CHECK(inventory_query(R"j([{"field": "expiry_date", "op": "=", "value": null},
      {"field": "ingredient_id", "op": "!=", "value": null}])j") ==
        "select=*\n" + kOwner + "expiry_date=is.null\ningredient_id=not.is.null\n");
}

TEST_CASE("read: in and not_in with several values - not_in is never dropped") {
  CHECK(inventory_query(R"j([{"field": "location", "op": "in", "value": ["fridge", "freezer"]},
      {"field": "name", "op": "not_in", "value": ["milk", "eggs", "rice"]}])j") ==
        "select=*\n" + kOwner + "location=in.(fridge,freezer)\nname=not.in.(milk,eggs,rice)\n");
}

TEST_CASE("read: in de-duplicates values") {
  const http_request req = request_for("db_read", R"j({"table": "recipes", "columns": ["name"],
      "filters": [{"field": "servings", "op": "in", "value": [2, 4, 4, 6]},
      {"field": "cuisine", "op": "in", "value": ["thai", "thai", "indian"]}]})j");
  CHECK(query_value(req, "servings") == "in.(2,4,6)");
  CHECK(query_value(req, "cuisine") == "in.(thai,indian)");
}

TEST_CASE("whole-number floats (6.0) for integer columns are sent as integers or refused, never as 6.0") {
  // PostgreSQL rejects "6.0" for an integer column (22P02), so the core must
  // either normalize it or refuse it with an error the model can act on.
  auto req = build("db_read", R"j({"table": "recipes", "columns": ["name"],
      "filters": [{"field": "servings", "op": "in", "value": [6.0, 2]}]})j");
  if (req.ok()) {
    CHECK(query_value(*req, "servings") == "in.(6,2)");
  } else {
    CHECK(req.err().code == "invalid_value");
    CHECK(req.err().path == "filters[0].value[0]");
  }
  auto limited = build("db_read", R"j({"table": "recipes", "limit": 5.0})j");
  if (limited.ok()) {
    CHECK(query_value(*limited, "limit") == "5");
  } else {
    CHECK(limited.err().code == "invalid_param");
    CHECK(limited.err().path == "limit");
  }
}

TEST_CASE("read: in with null becomes or=(col.in.(...),col.is.null)") {
  CHECK(inventory_query(R"j([{"field": "location", "op": "in", "value": ["fridge", null]}])j") ==
        "select=*\n" + kOwner + "or=(location.in.(fridge),location.is.null)\n");
  CHECK(inventory_query(R"j([{"field": "location", "op": "in", "value": [null]}])j") ==
        "select=*\n" + kOwner + "location=is.null\n");
}

TEST_CASE("read: not_in with null excludes NULL rows explicitly") {
  CHECK(inventory_query(R"j([{"field": "location", "op": "not_in", "value": ["fridge", null]}])j") ==
        "select=*\n" + kOwner + "location=not.in.(fridge)\nlocation=not.is.null\n");
}

TEST_CASE("read: in [\"\"] is eq. (in.(\"\") would be the empty list), not_in [\"\"] is neq.") {
  CHECK(inventory_query(R"j([{"field": "notes", "op": "in", "value": [""]},
      {"field": "location", "op": "not_in", "value": [""]}])j") ==
        "select=*\n" + kOwner + "notes=eq.\nlocation=neq.\n");
  CHECK(inventory_query(R"j([{"field": "notes", "op": "in", "value": ["", "x"]}])j") ==
        "select=*\n" + kOwner + "notes=in.(\"\",x)\n");
  CHECK(inventory_query(R"j([{"field": "notes", "op": "in", "value": []}])j") ==
        "select=*\n" + kOwner + "notes=in.()\n");
}

TEST_CASE("read: in [\"\", null] keeps the rows with \"\" (or=(col.eq.\"\",col.is.null), not in.(\"\"))") {
  // It went as or=(notes.in.(""),notes.is.null): in.("") is the empty list,
  // so only the NULL rows came back.
  CHECK(inventory_query(R"j([{"field": "notes", "op": "in", "value": ["", null]}])j") ==
        "select=*\n" + kOwner + "or=(notes.eq.\"\",notes.is.null)\n");
  CHECK(inventory_query(R"j([{"field": "notes", "op": "not_in", "value": [null, ""]}])j") ==
        "select=*\n" + kOwner + "notes=neq.\nnotes=not.is.null\n");
}

TEST_CASE("read: contains, contained_by, overlaps on text[] quote array elements") {
  const http_request req = request_for("db_read", R"j({"table": "recipes", "columns": ["name"], "filters": [
      {"field": "occasions", "op": "contains", "value": ["weeknight", "hosting"]},
      {"field": "occasions", "op": "contained_by", "value": ["weeknight", "weekend"]},
      {"field": "health_tags", "op": "overlaps", "value": ["vegan", "keto"]},
      {"field": "equipment_tags", "op": "contains", "value": "wok"}]})j");
  CHECK(query_text(req) == "select=id,name\n" + kOwner +
                               "occasions=cs.{weeknight,hosting}\noccasions=cd.{weeknight,weekend}\n"
                               "health_tags=ov.{vegan,keto}\nequipment_tags=cs.{wok}\n");
}

TEST_CASE("read: array literal elements with commas, quotes, spaces, NULL and \"\" stay single elements") {
  const http_request req = request_for("db_read", R"j({"table": "recipes", "columns": ["name"], "filters": [
      {"field": "occasions", "op": "contains",
       "value": ["date, night", "say \"hi\"", "two words", "NULL", "null", "", "back\\slash", "{x}", "日本酒", 7]}]})j");
  CHECK(query_value(req, "occasions") ==
        R"j(cs.{"date, night","say \"hi\"","two words","NULL","null","","back\\slash","{x}",日本酒,7})j");
}

TEST_CASE("read: contains on jsonb sends JSON and on uuid[] sends translated refs") {
  CHECK(query_value(request_for("db_read", R"j({"table": "preferences", "filters": [{"field": "subdomain_guidance",
      "op": "contains", "value": {"theme": "dark", "n": [1, 2]}}]})j"),
                    "subdomain_guidance") == R"j(cs.{"theme":"dark","n":[1,2]})j");
  CHECK(query_value(request_for("db_read", R"j({"table": "preferences", "filters": [{"field": "assumed_staples",
      "op": "overlaps", "value": ["ing_1", "ing_2"]}]})j",
                                with_ingredients()),
                    "assumed_staples") == std::string("ov.{") + kSalt + "," + kPepper + "}");
}

TEST_CASE("jsonb: a string that is exactly a ref is its UUID again, in a containment filter and in a payload") {
  // Rows show a UUID inside JSON as its ref ({"recipe": "recipe_1"}); the
  // model gives that value back as it read it.
  const http_request read = request_for("db_read", R"j({"table": "preferences", "filters": [{"field":
      "subdomain_guidance", "op": "contains", "value": {"recipe": "recipe_1", "ids": ["recipe_2", "recipe_9"],
      "note": "recipe_1 or so"}}]})j");
  CHECK(query_value(read, "subdomain_guidance") == std::string(R"j(cs.{"recipe":")j") + kRecipe1 + R"j(","ids":[")j" +
                                                       kRecipe2 + R"j(","recipe_9"],"note":"recipe_1 or so"})j");
  const http_request prefs = request_for("db_update", R"j({"table": "preferences", "filters": [{"field":
      "cooking_skill_level", "op": "=", "value": "beginner"}], "data": {"subdomain_guidance": {"last": "inv_1"}}})j");
  CHECK(*prefs.body == std::string(R"j({"subdomain_guidance":{"last":")j") + kInv1 + R"j("}})j");
  // A member name is a key too ({"<recipe uuid>": {"rating": 5}} shows as
  // {"recipe_1": …}); NULs are stripped from a payload's before the lookup.
  const http_request keyed = request_for("db_update", R"j({"table": "preferences", "filters": [{"field":
      "cooking_skill_level", "op": "=", "value": "beginner"}], "data": {"subdomain_guidance": {"recipe_1": {"r": 4},
      "x": "inv_1\u0000"}}})j");
  CHECK(*keyed.body ==
        std::string(R"j({"subdomain_guidance":{")j") + kRecipe1 + R"j(":{"r":4},"x":")j" + kInv1 + R"j("}})j");
  // A pending gen_ ref has no key yet: it stays text.
  const http_request pending = request_for("db_read", R"j({"table": "preferences", "filters": [{"field":
      "subdomain_guidance", "op": "contains", "value": {"r": "gen_recipe_1"}}]})j");
  CHECK(query_value(pending, "subdomain_guidance") == R"j(cs.{"r":"gen_recipe_1"})j");
  // <id> stands for a key the model never saw: matching or storing it as text would lose it.
  const error filter = build_error("db_read", R"j({"table": "preferences", "filters": [{"field":
      "subdomain_guidance", "op": "contains", "value": {"a": [1, "<id>"]}}]})j");
  const error payload = build_error("db_update", R"j({"table": "preferences", "filters": [{"field":
      "cooking_skill_level", "op": "=", "value": "beginner"}], "data": {"subdomain_guidance": {"a": [1, "<id>"]}}})j");
  const error named = build_error("db_update", R"j({"table": "preferences", "filters": [{"field":
      "cooking_skill_level", "op": "=", "value": "beginner"}], "data": {"subdomain_guidance": {"<id>\u0000": 1}}})j");
  CHECK(named.code == "invalid_value");
  CHECK(named.path == "data.subdomain_guidance");
  CHECK(filter.path == "filters[0].value.a[1]");
  CHECK(payload.path == "data.subdomain_guidance.a[1]");
  // Inside a text too: a note the model read ("path <id>/notes.md") and wrote back would lose the key for good.
  const error inside = build_error("db_update", R"j({"table": "preferences", "filters": [{"field":
      "cooking_skill_level", "op": "=", "value": "beginner"}], "data": {"subdomain_guidance": {"a": "path <id>/x"}}})j");
  const error text = build_error("db_update", R"j({"table": "tasks", "filters": [{"field": "title", "op": "=",
      "value": "x"}], "data": {"title": "see <id>/notes.md"}})j");
  const error matched = build_error("db_read", R"j({"table": "tasks", "filters": [{"field": "title", "op": "=",
      "value": "see <id>"}]})j");
  CHECK(inside.path == "data.subdomain_guidance.a");
  CHECK(text.path == "data.title");
  // A negated pattern of it would select every row: a delete must not take it as narrowing.
  const error unlike = build_error("db_delete", R"j({"table": "tasks", "filters": [{"field": "title", "op":
      "not_like", "value": "<id>/keep%"}]})j");
  const error searched = build_error("db_read", R"j({"table": "tasks", "filters": [{"field": "title", "op":
      "search", "value": "<id> notes"}]})j");
  CHECK(matched.path == "filters[0].value");
  CHECK(unlike.path == "filters[0].value");
  CHECK(searched.path == "filters[0].value");
  for (const error& refused : {filter, payload, inside, text, matched, unlike, searched}) {
    CHECK(refused.code == "invalid_value");
    CHECK(refused.message == "<id> is a key never shown: it cannot be sent");
  }
}

TEST_CASE("read: booleans, numbers as text, timestamps with offsets (+ is encoded)") {
  const http_request req = request_for("db_read", R"j({"table": "recipe_ingredients", "filters": [
      {"field": "is_optional", "op": "=", "value": "TRUE"}, {"field": "quantity", "op": ">", "value": "2.5"},
      {"field": "name", "op": "=", "value": 42}]})j");
  CHECK(query_text(req) == "select=*\n" + kOwner + "is_optional=eq.true\nquantity=gt.2.5\nname=eq.42\n");

  const http_request stamped = request_for("db_read", R"j({"table": "inventory", "filters": [
      {"field": "created_at", "op": ">", "value": "2026-02-01T10:00:00+02:00"},
      {"field": "updated_at", "op": "<", "value": "2026-02-01 10:00:00.123Z"},
      {"field": "expiry_date", "op": "=", "value": "2024-02-29"}]})j");
  CHECK(stamped.url ==
        "http://127.0.0.1:3000/inventory?select=%2A&user_id=eq.6f1c1a52-8d3e-4f7a-9a41-2b7d5e0c9a11"
        "&created_at=gt.2026-02-01T10%3A00%3A00%2B02%3A00&updated_at=lt.2026-02-01%2010%3A00%3A00.123Z"
        "&expiry_date=eq.2024-02-29");
  CHECK(query_text(stamped) == "select=*\n" + kOwner +
                                   "created_at=gt.2026-02-01T10:00:00+02:00\nupdated_at=lt.2026-02-01 10:00:00.123Z\n"
                                   "expiry_date=eq.2024-02-29\n");
}

// ---------------------------------------------------------------- hostile values

TEST_CASE("hostile top-level values are sent verbatim and fully percent-encoded") {
  const http_request req = request_for("db_read", R"j({"table": "inventory", "filters": [{"field": "name",
      "op": "=", "value": "salt, (coarse) \"kosher\" a+b&c=d#e%f g;h *\\ é"}]})j");
  CHECK(req.url ==
        "http://127.0.0.1:3000/inventory?select=%2A&user_id=eq.6f1c1a52-8d3e-4f7a-9a41-2b7d5e0c9a11"
        "&name=eq.salt%2C%20%28coarse%29%20%22kosher%22%20a%2Bb%26c%3Dd%23e%25f%20g%3Bh%20%2A%5C%20%C3%A9");
  CHECK(query_value(req, "name") == "eq.salt, (coarse) \"kosher\" a+b&c=d#e%f g;h *\\ é");
}

TEST_CASE("hostile top-level values cannot add parameters or conditions") {
  CHECK(inventory_query(R"j([{"field": "name", "op": "=", "value": "milk&user_id=neq.x"},
      {"field": "name", "op": "ilike", "value": "x;or=(id.not.is.null)"},
      {"field": "name", "op": "!=", "value": "milk,id.not.is.null"}])j") ==
        "select=*\n" + kOwner +
            "name=eq.milk&user_id=neq.x\nname=ilike.x;or=(id.not.is.null)\nname=neq.milk,id.not.is.null\n");
}

TEST_CASE("hostile in-list values each stay ONE quoted value") {
  const http_request req = request_for("db_read", R"j({"table": "inventory", "filters": [{"field": "name",
      "op": "in", "value": ["milk,id.not.is.null", "x),user_id.neq.null,and(id.is.null", "say \"hi\"",
      "back\\slash", " padded ", "", "日本酒", "a+b;c&d#e%f", "he said \"a,b\"", "plain"]}]})j");
  CHECK(
      query_value(req, "name") ==
      R"j(in.("milk,id.not.is.null","x),user_id.neq.null,and(id.is.null","say \"hi\"","back\\slash"," padded ","",日本酒,a+b;c&d#e%f,"he said \"a,b\"",plain))j");
  CHECK(decoded_query(req.url).size() == 3);
}

TEST_CASE("hostile not_in values stay quoted too") {
  CHECK(inventory_query(R"j([{"field": "location", "op": "not_in", "value": ["indian", "thai", "a,b", "(x)"]}])j") ==
        "select=*\n" + kOwner + "location=not.in.(indian,thai,\"a,b\",\"(x)\")\n");
}

TEST_CASE("regression: or_filters injection - values with , ( ) stay one quoted value inside or=(...)") {
  // Pasting values into the string gives or=(name.ilike.%mac, cheese%,name.eq.x),user_id.neq.null,and(id.is.null,…)
  const http_request req = request_for("db_read", R"j({"table": "recipes", "columns": ["name"], "or_filters": [
      {"field": "name", "op": "ilike", "value": "%mac, cheese%"},
      {"field": "name", "op": "=", "value": "x),user_id.neq.null,and(id.is.null"},
      {"field": "name", "op": "=", "value": "milk,id.not.is.null"},
      {"field": "cuisine", "op": "in", "value": ["thai", "indo", "a)b"]}]})j");
  CHECK(
      query_text(req) ==
      "select=id,name\n" + kOwner +
          R"j(or=(name.ilike."%mac, cheese%",name.eq."x),user_id.neq.null,and(id.is.null",name.eq."milk,id.not.is.null",cuisine.in.(thai,indo,"a)b")))j"
          "\n");
}

TEST_CASE("or_filters: quotes, backslashes, spaces, unicode and reserved characters in values") {
  const http_request req = request_for("db_read", R"j({"table": "inventory", "or_filters": [
      {"field": "name", "op": "=", "value": "say \"cheese\""}, {"field": "name", "op": "=", "value": "back\\slash"},
      {"field": "name", "op": "=", "value": " padded "}, {"field": "name", "op": "=", "value": "日本酒"},
      {"field": "name", "op": "=", "value": "a+b;c&d#e%f"}, {"field": "name", "op": "=", "value": "x\"),or(id.not.is.null"}]})j");
  CHECK(
      query_value(req, "or") ==
      R"j((name.eq."say \"cheese\"",name.eq."back\\slash",name.eq." padded ",name.eq.日本酒,name.eq.a+b;c&d#e%f,name.eq."x\"),or(id.not.is.null"))j");
  CHECK(decoded_query(req.url).size() == 3);
}

TEST_CASE("or_filters: every op is sent, none dropped silently") {
  const http_request req = request_for("db_read", R"j({"table": "recipes", "columns": ["name"], "or_filters": [
      {"field": "cuisine", "op": "!=", "value": "thai"}, {"field": "id", "op": "not_in", "value": ["recipe_1", "recipe_2"]},
      {"field": "source_url", "op": "is_not_null"}, {"field": "source_url", "op": "is_null"},
      {"field": "occasions", "op": "contains", "value": ["date, night"]},
      {"field": "health_tags", "op": "contained_by", "value": ["vegan"]},
      {"field": "flavor_tags", "op": "overlaps", "value": ["spicy", "umami"]},
      {"field": "servings", "op": ">=", "value": 4}, {"field": "servings", "op": "<", "value": 2},
      {"field": "prep_time_minutes", "op": ">", "value": 5}, {"field": "prep_time_minutes", "op": "<=", "value": 30},
      {"field": "name", "op": "like", "value": "A*"}, {"field": "name", "op": "not_like", "value": "B%"},
      {"field": "name", "op": "not_ilike", "value": "%cod%"}, {"field": "cuisine", "op": "=", "value": null},
      {"field": "cuisine", "op": "!=", "value": null}]})j");
  CHECK(
      query_value(req, "or") ==
      std::string("(cuisine.neq.thai,id.not.in.(") + kRecipe1 + "," + kRecipe2 +
          R"j(),source_url.not.is.null,source_url.is.null,occasions.cs."{\"date, night\"}",health_tags.cd."{vegan}",flavor_tags.ov."{spicy,umami}",servings.gte.4,servings.lt.2,prep_time_minutes.gt.5,prep_time_minutes.lte.30,name.like.A*,name.not.like.B%,name.not.ilike.%cod%,cuisine.is.null,cuisine.not.is.null))j");
}

TEST_CASE("or_filters: in/not_in with null inside or=(...)") {
  const http_request req = request_for("db_read", R"j({"table": "recipes", "columns": ["name"], "or_filters": [
      {"field": "cuisine", "op": "in", "value": ["a,b", null]}, {"field": "id", "op": "not_in", "value": ["recipe_1", null]},
      {"field": "difficulty", "op": "in", "value": [null]}]})j");
  CHECK(query_value(req, "or") == std::string(R"j((cuisine.in.("a,b"),cuisine.is.null,and(id.not.in.()j") + kRecipe1 +
                                      "),id.not.is.null),difficulty.is.null)");
}

TEST_CASE("or_filters: in [\"\"] must match the empty string, not become the empty list in.(\"\")") {
  // Top-level in [""] is sent as eq. because in.("") means "no values";
  // the same list inside or=(...) must not silently match nothing.
  const http_request req = request_for("db_read", R"j({"table": "inventory", "or_filters": [
      {"field": "notes", "op": "in", "value": [""]}, {"field": "name", "op": "=", "value": "milk"}]})j");
  CHECK(query_value(req, "or") == R"j((notes.eq."",name.eq.milk))j");
}

TEST_CASE("or_filters: not_in [\"\"] must exclude the empty string, not become not.in.(\"\") (matches all)") {
  const http_request req = request_for("db_read", R"j({"table": "inventory", "or_filters": [
      {"field": "notes", "op": "not_in", "value": [""]}, {"field": "name", "op": "=", "value": "milk"}]})j");
  CHECK(query_value(req, "or") == R"j((notes.neq."",name.eq.milk))j");
}

TEST_CASE("or_filters AND-ed with filters - an in-with-null filter adds its own or=") {
  const http_request req = request_for("db_read", R"j({"table": "inventory", "filters": [
      {"field": "location", "op": "in", "value": ["pantry", null]}, {"field": "quantity", "op": ">", "value": 0}],
      "or_filters": [{"field": "name", "op": "=", "value": "rice"}, {"field": "name", "op": "=", "value": "milk"}]})j");
  CHECK(query_text(req) == "select=*\n" + kOwner +
                               "or=(location.in.(pantry),location.is.null)\nquantity=gt.0\n"
                               "or=(name.eq.rice,name.eq.milk)\n");
}

TEST_CASE("refs in text columns are values, not refs") {
  CHECK(inventory_query(R"j([{"field": "name", "op": "=", "value": "recipe_1"},
      {"field": "notes", "op": "in", "value": ["inv_1", "gen_recipe_1"]}])j") ==
        "select=*\n" + kOwner + "name=eq.recipe_1\nnotes=in.(inv_1,gen_recipe_1)\n");
}

// ---------------------------------------------------------------- refs and UUIDs in filters

TEST_CASE("refs become UUIDs in filters - duplicates collapse") {
  const http_request req = request_for("db_read", R"j({"table": "recipes", "columns": ["name"], "filters": [
      {"field": "id", "op": "in", "value": ["recipe_1", "recipe_2", "recipe_1"]},
      {"field": "parent_recipe_id", "op": "=", "value": "recipe_2"}]})j");
  CHECK(query_text(req) == "select=id,name\n" + kOwner + "id=in.(" + kRecipe1 + "," + kRecipe2 + ")\n" +
                               "parent_recipe_id=eq." + kRecipe2 + "\n");
}

TEST_CASE("raw UUIDs are never sent: a known one is refused with its ref, an unknown one with the known refs") {
  // Another user's row id in a filter would be sent and answer nothing (or,
  // on a shared table, that user's row); the model sees refs only.
  auto known = build("db_read", R"j({"table": "recipes", "columns": ["name"], "filters": [
      {"field": "id", "op": "in", "value": ["C69607BB-5D2E-4B8A-9F3C-1E2D3C4B5A61", "recipe_1"]}]})j");
  REQUIRE_FALSE(known.ok());
  CHECK(known.err().code == "raw_id");
  CHECK(known.err().path == "filters[0].value[0]");
  CHECK(known.err().message == "id takes a ref, not a UUID; that row is recipe_1 (Butter Chicken)");
  CHECK(known.err().hint == "use the ref recipe_1");
  auto unknown = build("db_read", R"j({"table": "recipes", "columns": ["name"], "filters": [
      {"field": "id", "op": "=", "value": "7E3F1A2B-4C5D-4E6F-8A9B-0C1D2E3F4A5B"}]})j");
  REQUIRE_FALSE(unknown.ok());
  CHECK(unknown.err().code == "raw_id");
  CHECK(unknown.err().message == "id takes a ref such as recipe_1, not a UUID; refs cannot be made from ids");
  CHECK(unknown.err().hint == "known recipe refs: recipe_1 (Butter Chicken), recipe_2 (Cod Curry)");
  auto foreign_key = build("db_create", R"j({"table": "recipe_ingredients", "data": {"name": "basil",
      "recipe_id": "7e3f1a2b-4c5d-4e6f-8a9b-0c1d2e3f4a5b"}})j");
  REQUIRE_FALSE(foreign_key.ok());
  CHECK(foreign_key.err().code == "raw_id");
  CHECK(foreign_key.err().path == "data.recipe_id");
}

TEST_CASE("a promoted gen_ ref resolves to the saved row in filters and payloads") {
  const ref_registry reg = with_saved_artifact();
  CHECK(query_value(request_for("db_read", R"j({"table": "recipes", "columns": ["name"], "filters": [
      {"field": "id", "op": "=", "value": "gen_recipe_1"}]})j",
                                reg),
                    "id") == std::string("eq.") + kSaved);
  const http_request child = request_for("db_create", R"j({"table": "recipe_ingredients", "data": [
      {"recipe_id": "gen_recipe_1", "name": "basil"}, {"recipe_id": "recipe_3", "name": "chilli"}]})j",
                                         reg);
  CHECK(*child.body == std::string(R"j([{"recipe_id":")j") + kSaved + R"j(","name":"basil","user_id":")j" + kAlice +
                           R"j("},{"recipe_id":")j" + kSaved + R"j(","name":"chilli","user_id":")j" + kAlice + "\"}]");
}

// ---------------------------------------------------------------- columns, order, paging

TEST_CASE("columns: embedded recipe_ingredients(name, quantity) gets id - the row id is added") {
  const http_request req = request_for("db_read", R"j({"table": "recipes",
      "columns": ["name", "recipe_ingredients(name, quantity)"]})j");
  CHECK(query_text(req) == "select=id,name,recipe_ingredients(id,name,quantity)\n" + kOwner);
  CHECK(req.url ==
        "http://127.0.0.1:3000/recipes?select=id%2Cname%2Crecipe_ingredients%28id%2Cname%2Cquantity%29"
        "&user_id=eq.6f1c1a52-8d3e-4f7a-9a41-2b7d5e0c9a11");
}

TEST_CASE("columns: string form, duplicates, explicit id, * and many-to-one embeds") {
  CHECK(query_value(request_for("db_read", R"j({"table": "recipes", "columns": " name , cuisine,name"})j"), "select") ==
        "id,name,cuisine");
  CHECK(query_value(request_for("db_read", R"j({"table": "recipes", "columns": ["cuisine", "id"]})j"), "select") ==
        "cuisine,id");
  CHECK(query_value(request_for("db_read", R"j({"table": "inventory", "columns": ["*", "ingredients(*)"]})j"),
                    "select") ==
        "*,ingredients(id,name,aliases,category,default_unit,nutrition_per_100g,flavor_compounds,is_system,"
        "parent_category,family,cuisines,tier,created_at)");
  // recipes has a hidden embedding column: * lists the visible columns instead.
  CHECK(query_value(request_for("db_read", R"j({"table": "recipes", "columns": ["*", "recipe_ingredients(*)"]})j"),
                    "select") == kRecipeSelect.substr(7, kRecipeSelect.size() - 8) + ",recipe_ingredients(*)");
  CHECK(query_value(request_for("db_read", R"j({"table": "meal_plans", "columns": ["date", "recipes(name)"]})j"),
                    "select") == "id,date,recipes(id,name)");
  CHECK(query_value(request_for("db_read", R"j({"table": "recipe_ingredients",
      "columns": ["name", "ingredients(name, id)", "recipes(name)"]})j"),
                    "select") == "id,name,ingredients(name,id),recipes(id,name)");
}

TEST_CASE("order, offset, limit and count: exact parameters and Prefer") {
  const http_request req = request_for("db_read", R"j({"table": "recipes", "columns": ["name"],
      "filters": [{"field": "cuisine", "op": "=", "value": "thai"}], "order_by": "name", "order_dir": "DESC",
      "limit": 10, "offset": 20, "count": true})j");
  CHECK(query_text(req) == "select=id,name\n" + kOwner + "cuisine=eq.thai\norder=name.desc\noffset=20\nlimit=10\n");
  CHECK(headers_text(req) == "Accept: application/json\nPrefer: count=exact\n");

  CHECK(query_value(request_for("db_read", R"j({"table": "recipes", "order_by": "created_at"})j"), "order") ==
        "created_at.asc");
  CHECK(header(request_for("db_read", R"j({"table": "recipes", "count": "planned"})j"), "Prefer") == "count=planned");
  CHECK(header(request_for("db_read", R"j({"table": "recipes", "count": "estimated"})j"), "Prefer") ==
        "count=estimated");
  CHECK(header(request_for("db_read", R"j({"table": "recipes", "count": false})j"), "Prefer") == "");
  CHECK(query_value(request_for("db_read", R"j({"table": "recipes", "limit": 1000, "offset": 0})j"), "limit") ==
        "1000");
}

TEST_CASE("limit and offset given as digit strings are accepted") {
  // The model often quotes numbers; "10" is as clear as 10.
  const http_request req = request_for("db_read", R"j({"table": "inventory", "limit": "10", "offset": "30"})j");
  CHECK(query_text(req) == "select=*\n" + kOwner + "offset=30\nlimit=10\n");
}

// ---------------------------------------------------------------- db_create

TEST_CASE("create: one row is an object body - user_id is injected - Prefer return=representation") {
  const http_request req = request_for("db_create", R"j({"table": "inventory", "data": {"name": "milk",
      "quantity": 1, "unit": "l", "location": "fridge", "expiry_date": "2026-03-01"}})j");
  CHECK(req.method == "POST");
  CHECK(req.url == "http://127.0.0.1:3000/inventory?select=%2A");
  CHECK(headers_text(req) == kWriteHeaders);
  REQUIRE(req.body.has_value());
  CHECK(*req.body ==
        std::string(
            R"j({"name":"milk","quantity":1,"unit":"l","location":"fridge","expiry_date":"2026-03-01","user_id":")j") +
            kAlice + "\"}");
}

TEST_CASE("create: refs become UUIDs in FK fields, including the parent_recipe_id self reference") {
  const http_request req = request_for("db_create", R"j({"table": "recipes", "data": {"name": "Butter Chicken II",
      "instructions": ["Marinate", "Cook"], "parent_recipe_id": "recipe_1"}})j");
  CHECK(*req.body ==
        std::string(R"j({"name":"Butter Chicken II","instructions":["Marinate","Cook"],"parent_recipe_id":")j") +
            kRecipe1 + R"j(","user_id":")j" + kAlice + "\"}");
  const http_request task = request_for("db_create", R"j({"table": "tasks", "data": {"title": "thaw",
      "recipe_id": "recipe_2", "due_date": "2026-02-01"}})j");
  CHECK(*task.body == std::string(R"j({"title":"thaw","recipe_id":")j") + kRecipe2 +
                          R"j(","due_date":"2026-02-01","user_id":")j" + kAlice + "\"}");
}

TEST_CASE("create: uuid[] assumed_staples are translated element by element") {
  const http_request req = request_for("db_create", R"j({"table": "preferences", "data": {
      "assumed_staples": ["ing_1", "ing_2", "ing_1"], "allergies": ["peanuts"]}})j",
                                       with_ingredients());
  CHECK(*req.body == std::string(R"j({"assumed_staples":[")j") + kSalt + "\",\"" + kPepper + "\",\"" + kSalt +
                         R"j("],"allergies":["peanuts"],"user_id":")j" + kAlice + "\"}");
}

TEST_CASE("create: id gen_recipe_1 marks the saved artifact and is not sent") {
  const http_request req = request_for("db_create", R"j({"table": "recipes", "data": {"id": "gen_recipe_1",
      "name": "Thai Basil Chicken", "instructions": ["Fry", "Serve"], "cuisine": "thai"}})j");
  CHECK(*req.body ==
        std::string(R"j({"name":"Thai Basil Chicken","instructions":["Fry","Serve"],"cuisine":"thai","user_id":")j") +
            kAlice + "\"}");
}

TEST_CASE("create: payload sanitation - NUL stripped, \"\" uuid to null, lone string to array, numbers to text") {
  const http_request req = request_for("db_create", R"j({"table": "recipe_ingredients", "data": {
      "recipe_id": "recipe_1", "ingredient_id": "", "name": "eg\u0000gs", "notes": "a\u0000", "quantity": "2.5",
      "is_optional": "false"}})j");
  CHECK(*req.body ==
        std::string(R"j({"recipe_id":")j") + kRecipe1 +
            R"j(","ingredient_id":null,"name":"eggs","notes":"a","quantity":"2.5","is_optional":false,"user_id":")j" +
            kAlice + "\"}");
  const http_request recipe = request_for("db_create", R"j({"table": "recipes", "data": {"name": "x",
      "instructions": "Just eat it", "occasions": ["a\u0000b"], "flavor_tags": "spicy"}})j");
  CHECK(*recipe.body ==
        std::string(
            R"j({"name":"x","instructions":["Just eat it"],"occasions":["ab"],"flavor_tags":["spicy"],"user_id":")j") +
            kAlice + "\"}");
}

TEST_CASE("create: numbers in a text[] payload are sent as strings or refused with a path") {
  auto req = build("db_create", R"j({"table": "recipes", "data": {"name": "x", "instructions": ["Step", 2, 2.5]}})j");
  if (req.ok()) {
    CHECK(*req->body == std::string(R"j({"name":"x","instructions":["Step","2","2.5"],"user_id":")j") + kAlice + "\"}");
  } else {
    CHECK(req.err().code == "invalid_value");
    CHECK(req.err().path == "data.instructions[1]");
  }
}

TEST_CASE("create: strings are JSON-escaped like JSON.stringify - unicode kept as UTF-8") {
  const http_request req = request_for("db_create", R"j({"table": "inventory", "data": {
      "name": "a\"b\\c\n\t\u00e9\u65e5\u0001</script>", "quantity": 1, "unit": "l"}})j");
  CHECK(*req.body ==
        std::string("{\"name\":\"a\\\"b\\\\c\\n\\té日\\u0001</script>\",\"quantity\":1,\"unit\":\"l\",\"user_id\":\"") +
            kAlice + "\"}");
}

TEST_CASE("regression: NUL inside jsonb object keys must not reach the body (the server would answer 400 22P05)") {
  auto req = build("db_update", R"j({"table": "preferences", "filters": [{"field": "cooking_skill_level", "op": "=",
      "value": "beginner"}], "data": {"subdomain_guidance": {"th\u0000eme": "da\u0000rk"}}})j");
  if (req.ok()) {
    REQUIRE(req->body.has_value());
    CHECK(req->body->find("\\u0000") == std::string::npos);
    CHECK(req->body->find('\0') == std::string::npos);
  } else {
    CHECK(req.err().code == "nul_byte");
  }
}

TEST_CASE("create: batch with uniform keys sends columns= and no missing=default") {
  const http_request req = request_for("db_create", R"j({"table": "inventory", "data": [
      {"name": "milk", "quantity": 1, "unit": "l"}, {"name": "eggs", "quantity": 6, "unit": "pcs"}]})j");
  CHECK(req.url ==
        "http://127.0.0.1:3000/inventory?columns=%22name%22%2C%22quantity%22%2C%22unit%22%2C%22user_id%22"
        "&select=%2A");
  CHECK(query_text(req) == "columns=\"name\",\"quantity\",\"unit\",\"user_id\"\nselect=*\n");
  CHECK(headers_text(req) == kWriteHeaders);
  CHECK(*req.body == std::string(R"j([{"name":"milk","quantity":1,"unit":"l","user_id":")j") + kAlice +
                         R"j("},{"name":"eggs","quantity":6,"unit":"pcs","user_id":")j" + kAlice + "\"}]");
}

TEST_CASE("create: batch with differing keys sends the union in columns= and Prefer missing=default") {
  const http_request req = request_for("db_create", R"j({"table": "inventory", "data": [
      {"name": "milk", "quantity": 1, "unit": "l"}, {"name": "eggs", "quantity": 6, "unit": "pcs", "location": "fridge"},
      {"unit": "g", "quantity": 500, "name": "rice", "notes": "basmati"}]})j");
  CHECK(query_text(req) == "columns=\"name\",\"quantity\",\"unit\",\"user_id\",\"location\",\"notes\"\nselect=*\n");
  CHECK(headers_text(req) ==
        "Accept: application/json\nContent-Type: application/json\nPrefer: missing=default, return=representation\n");
  CHECK(*req.body == std::string(R"j([{"name":"milk","quantity":1,"unit":"l","user_id":")j") + kAlice +
                         R"j("},{"name":"eggs","quantity":6,"unit":"pcs","location":"fridge","user_id":")j" + kAlice +
                         R"j("},{"unit":"g","quantity":500,"name":"rice","notes":"basmati","user_id":")j" + kAlice +
                         "\"}]");
}

TEST_CASE("create: a one-element batch stays an array body") {
  const http_request req = request_for("db_create", R"j({"table": "tasks", "data": [{"title": "shop"}]})j");
  CHECK(query_text(req) == "columns=\"title\",\"user_id\"\nselect=*\n");
  CHECK(*req.body == std::string(R"j([{"title":"shop","user_id":")j") + kAlice + "\"}]");
}

// ---------------------------------------------------------------- db_update / db_delete

TEST_CASE("update: PATCH with owner scope, translated filters, body, select=* and return=representation") {
  const http_request req = request_for("db_update", R"j({"table": "inventory", "filters": [
      {"field": "id", "op": "=", "value": "inv_1"}], "data": {"quantity": 2, "ingredient_id": "", "notes": "x\u0000y"}})j");
  CHECK(req.method == "PATCH");
  CHECK(req.url ==
        std::string("http://127.0.0.1:3000/inventory?user_id=eq.") + kAlice + "&id=eq." + kInv1 + "&select=%2A");
  CHECK(headers_text(req) == kWriteHeaders);
  CHECK(*req.body == R"j({"quantity":2,"ingredient_id":null,"notes":"xy"})j");
}

TEST_CASE("update: refs in FK payload fields and uuid[] become UUIDs, \"\" clears a FK") {
  const http_request meal = request_for("db_update", R"j({"table": "meal_plans", "filters": [
      {"field": "date", "op": "=", "value": "2026-02-01"}], "data": {"recipe_id": "recipe_2", "notes": "swap"}})j");
  CHECK(*meal.body == std::string(R"j({"recipe_id":")j") + kRecipe2 + R"j(","notes":"swap"})j");
  const http_request prefs = request_for("db_update", R"j({"table": "preferences", "filters": [
      {"field": "cooking_skill_level", "op": "is_not_null"}], "data": {"assumed_staples": ["ing_2"]}})j",
                                         with_ingredients());
  CHECK(*prefs.body == std::string(R"j({"assumed_staples":[")j") + kPepper + "\"]}");
  const http_request recipe = request_for("db_update", R"j({"table": "recipes", "filters": [
      {"field": "id", "op": "=", "value": "recipe_1"}], "data": {"parent_recipe_id": ""}})j");
  CHECK(*recipe.body == R"j({"parent_recipe_id":null})j");
}

TEST_CASE("update: narrowing filters other than id are accepted") {
  const http_request req = request_for("db_update", R"j({"table": "inventory", "filters": [
      {"field": "location", "op": "is_not_null"}, {"field": "name", "op": "ilike", "value": "%milk%"}],
      "data": {"location": "fridge"}})j");
  CHECK(query_text(req) == kOwner + "location=not.is.null\nname=ilike.%milk%\nselect=*\n");
}

TEST_CASE("delete: DELETE with filters, no body, no Content-Type") {
  const http_request req = request_for("db_delete", R"j({"table": "recipes", "filters": [
      {"field": "id", "op": "in", "value": ["recipe_1", "recipe_2"]}]})j");
  CHECK(req.method == "DELETE");
  // A write reads back what a read would: never the embedding.
  CHECK(query_text(req) == kOwner + "id=in.(" + kRecipe1 + "," + kRecipe2 + ")\n" + kRecipeSelect);
  CHECK(headers_text(req) == "Accept: application/json\nPrefer: return=representation\n");
  CHECK_FALSE(req.body.has_value());
}

TEST_CASE("delete: 'everything except these' is a real not.in filter") {
  const http_request req = request_for("db_delete", R"j({"table": "recipes", "filters": [
      {"field": "id", "op": "not_in", "value": ["recipe_1", "recipe_2"]}]})j");
  CHECK(query_text(req) == kOwner + "id=not.in.(" + kRecipe1 + "," + kRecipe2 + ")\n" + kRecipeSelect);
}

// ---------------------------------------------------------------- options and headers

TEST_CASE("headers: apikey and the user's token - the anon key is not used as Bearer when a token is given") {
  request_options opts = alice_options();
  opts.api_key = kAnonJwt;
  opts.access_token = kUserJwt;
  const http_request req =
      request_for("db_create", R"j({"table": "tasks", "data": {"title": "shop"}})j", sample_registry(), opts);
  CHECK(headers_text(req) == "apikey: " + kAnonJwt + "\nAuthorization: Bearer " + kUserJwt + "\n" + kWriteHeaders);
  CHECK(header(req, "Authorization") == "Bearer " + kUserJwt);
}

TEST_CASE("headers: a legacy anon key alone is also the Bearer - a publishable key never is") {
  request_options anon = alice_options();
  anon.api_key = kAnonJwt;
  CHECK(headers_text(request_for("db_read", R"j({"table": "tasks"})j", sample_registry(), anon)) ==
        "apikey: " + kAnonJwt + "\nAuthorization: Bearer " + kAnonJwt + "\n" + kGetHeaders);
  request_options publishable = alice_options();
  publishable.api_key = "sb_publishable_abc123";
  CHECK(headers_text(request_for("db_read", R"j({"table": "tasks"})j", sample_registry(), publishable)) ==
        "apikey: sb_publishable_abc123\n" + kGetHeaders);
  publishable.access_token = kUserJwt;
  CHECK(headers_text(request_for("db_read", R"j({"table": "tasks"})j", sample_registry(), publishable)) ==
        "apikey: sb_publishable_abc123\nAuthorization: Bearer " + kUserJwt + "\n" + kGetHeaders);
}

TEST_CASE("base URL: trailing slashes trimmed, Supabase /rest/v1 prefix kept") {
  request_options opts = alice_options();
  opts.base_url = "https://abcd.supabase.co/rest/v1//";
  CHECK(url_path(request_for("db_read", R"j({"table": "tasks"})j", sample_registry(), opts)) ==
        "https://abcd.supabase.co/rest/v1/tasks");
}

TEST_CASE("userId is canonicalized to lower case in the owner filter and in bodies") {
  request_options opts = alice_options();
  opts.user_id = "6F1C1A52-8D3E-4F7A-9A41-2B7D5E0C9A11";
  const http_request read = request_for("db_read", R"j({"table": "tasks"})j", sample_registry(), opts);
  CHECK(query_value(read, "user_id") == std::string("eq.") + kAlice);
  const http_request create =
      request_for("db_create", R"j({"table": "tasks", "data": {"title": "t"}})j", sample_registry(), opts);
  CHECK(*create.body == std::string(R"j({"title":"t","user_id":")j") + kAlice + "\"}");
}

TEST_CASE("service-role JWTs and sb_secret_ keys are refused as apiKey or accessToken") {
  const char* hint = "use the anon/publishable key and the signed-in user's access token";
  struct bad_option {
    const char* field;
    std::string value;
  };
  for (const auto& bad : {bad_option{"apiKey", kServiceJwt}, bad_option{"accessToken", kServiceJwt},
                          bad_option{"apiKey", "sb_secret_abc123"}, bad_option{"accessToken", "sb_secret_abc123"}}) {
    request_options opts = alice_options();
    (std::string(bad.field) == "apiKey" ? opts.api_key : opts.access_token) = bad.value;
    const std::string field = bad.field;
    CAPTURE(field);
    const error err = build_error("db_read", R"j({"table": "tasks"})j", sample_registry(), opts);
    CHECK(err.code == "service_key_refused");
    CHECK(err.path == field);
    CHECK(err.message == field + " is a service-role key, which bypasses row-level security");
    CHECK(err.hint == hint);
  }
}

TEST_CASE("service keys are refused even for reads of the shared catalog") {
  request_options opts = alice_options();
  opts.access_token = kServiceJwt;
  CHECK(build_error("db_read", R"j({"table": "ingredients"})j", sample_registry(), opts).code == "service_key_refused");
}

TEST_CASE("header-unsafe characters in keys and tokens are invalid_option (no header injection)") {
  for (const std::string value :
       std::vector<std::string>{"abc\r\nX-Evil: 1", "abc def", "abc\tdef", std::string("abc\0def", 7), "abc\x7f"}) {
    request_options opts = alice_options();
    opts.api_key = value;
    const error err = build_error("db_read", R"j({"table": "tasks"})j", sample_registry(), opts);
    CHECK(err.code == "invalid_option");
    CHECK(err.path == "apiKey");
    CHECK(err.message == "apiKey contains spaces or control characters");
    CHECK(err.hint == "pass the key or token exactly as issued");
    request_options token = alice_options();
    token.access_token = value;
    const error token_err = build_error("db_read", R"j({"table": "tasks"})j", sample_registry(), token);
    CHECK(token_err.code == "invalid_option");
    CHECK(token_err.path == "accessToken");
  }
}

TEST_CASE("non-ASCII keys and tokens are invalid_option (fetch's Headers would throw on them)") {
  for (const std::string value : {"tök€n", "日本", "abc\xc2\xa0"}) {
    request_options opts = alice_options();
    opts.access_token = value;
    auto req = build("db_read", R"j({"table": "tasks"})j", sample_registry(), opts);
    REQUIRE_FALSE(req.ok());
    CHECK(req.err().code == "invalid_option");
    CHECK(req.err().path == "accessToken");
  }
}

TEST_CASE("missing or malformed userId on a user-owned table - bad base URLs") {
  request_options none = alice_options();
  none.user_id.clear();
  const error missing = build_error("db_read", R"j({"table": "recipes"})j", sample_registry(), none);
  CHECK(missing.code == "missing_user_id");
  CHECK(missing.path == "userId");
  CHECK(missing.message == "recipes belongs to users; a user id is required");
  CHECK(missing.hint == "pass userId (the signed-in user's id, the JWT's sub claim)");
  CHECK(build_error("db_create", R"j({"table": "tasks", "data": {"title": "t"}})j", sample_registry(), none).code ==
        "missing_user_id");

  request_options bad_user = alice_options();
  bad_user.user_id = "alice";
  const error invalid = build_error("db_read", R"j({"table": "recipes"})j", sample_registry(), bad_user);
  CHECK(invalid.code == "invalid_option");
  CHECK(invalid.path == "userId");
  CHECK(invalid.message == "userId must be a UUID");

  for (const std::string base : {"ftp://127.0.0.1", "127.0.0.1:3000", "javascript:alert(1)"}) {
    request_options opts = alice_options();
    opts.base_url = base;
    opts.base_url_field = "baseUrl";
    const error err = build_error("db_read", R"j({"table": "tasks"})j", sample_registry(), opts);
    CHECK(err.code == "invalid_option");
    CHECK(err.path == "baseUrl");
    CHECK(err.message == "baseUrl must be an http:// or https:// URL");
  }
  {
    // No URL at all: named as the option a newcomer is told to pass.
    request_options opts = alice_options();
    opts.base_url = "";
    const error err = build_error("db_read", R"j({"table": "tasks"})j", sample_registry(), opts);
    CHECK(err.code == "invalid_option");
    CHECK(err.path == "url");
    CHECK(err.message == "url is required");
  }
  for (const std::string base : {"http://h/rest/v1?x=1", "http://h/#frag", "http://h /rest", "http://h\r\n/x"}) {
    request_options opts = alice_options();
    opts.base_url = base;
    opts.base_url_field = "baseUrl";
    const error err = build_error("db_read", R"j({"table": "tasks"})j", sample_registry(), opts);
    CHECK(err.code == "invalid_option");
    CHECK(err.message == "baseUrl must not contain a query, fragment or spaces");
  }
}

// ---------------------------------------------------------------- URLs and sessions like supabase-js

namespace {

// {"role":"authenticated","sub":"<kAlice>"}
const std::string kAliceJwt =
    jwt_with_role("eyJyb2xlIjoiYXV0aGVudGljYXRlZCIsInN1YiI6IjZmMWMxYTUyLThkM2UtNGY3YS05YTQxLTJiN2Q1ZTBjOWExMSJ9");
// {"role":"authenticated","sub":"0b7d2c4e-1f3a-4c5b-8d6e-7f8091a2b3c4"}
const std::string kBobJwt =
    jwt_with_role("eyJyb2xlIjoiYXV0aGVudGljYXRlZCIsInN1YiI6IjBiN2QyYzRlLTFmM2EtNGM1Yi04ZDZlLTdmODA5MWEyYjNjNCJ9");

result<request_options> options_from(const std::string& json_text) {
  auto doc = json_document::parse(json_text);
  REQUIRE(doc.ok());
  return parse_request_options(doc->root());
}

std::string root_of(const std::string& json_text) {
  auto opts = options_from(json_text);
  if (!opts.ok()) {
    INFO(error_text(opts.err()));
    REQUIRE(opts.ok());
  }
  return opts->base_url;
}

error options_error(const std::string& json_text) {
  auto opts = options_from(json_text);
  REQUIRE_FALSE(opts.ok());
  return opts.err();
}

}  // namespace

TEST_CASE("url is the Supabase URL and gets /rest/v1, as createClient builds it") {
  CHECK(root_of(R"j({"url": "https://abcd.supabase.co"})j") == "https://abcd.supabase.co/rest/v1");
  CHECK(root_of(R"j({"url": "https://abcd.supabase.co///"})j") == "https://abcd.supabase.co/rest/v1");
  CHECK(root_of(R"j({"url": "http://127.0.0.1:54321"})j") == "http://127.0.0.1:54321/rest/v1");
  CHECK(root_of(R"j({"url": "https://api.example.com/"})j") == "https://api.example.com/rest/v1");
  CHECK(root_of(R"j({"url": "https://example.com/supabase/"})j") == "https://example.com/supabase/rest/v1");
  request_options opts = *options_from(R"j({"url": "http://127.0.0.1:54321/"})j");
  opts.user_id = kAlice;
  CHECK(url_path(request_for("db_read", R"j({"table": "tasks"})j", sample_registry(), opts)) ==
        "http://127.0.0.1:54321/rest/v1/tasks");
}

TEST_CASE("restUrl and baseUrl are the PostgREST root, used as they are") {
  CHECK(root_of(R"j({"restUrl": "http://127.0.0.1:3000"})j") == "http://127.0.0.1:3000");
  CHECK(root_of(R"j({"restUrl": "https://abcd.supabase.co/rest/v1/"})j") == "https://abcd.supabase.co/rest/v1/");
  CHECK(root_of(R"j({"baseUrl": "http://127.0.0.1:3000"})j") == "http://127.0.0.1:3000");
}

TEST_CASE("regression: a bare project URL as baseUrl silently built URLs PostgREST does not serve") {
  for (const std::string field : {"baseUrl", "restUrl"}) {
    const error err = options_error(R"j({")j" + field + R"j(": "https://abcd.supabase.co/"})j");
    CHECK(err.code == "invalid_option");
    CHECK(err.path == field);
    CHECK(err.message == field +
                             " is the PostgREST root, but https://abcd.supabase.co is a Supabase project URL "
                             "(PostgREST is under /rest/v1)");
    CHECK(err.hint == "pass it as url (it gets /rest/v1), or " + field + ": 'https://abcd.supabase.co/rest/v1'");
  }
}

TEST_CASE("url already ending in /rest/v1, two URL options, unknown keys and wrong types are invalid_option") {
  const error doubled = options_error(R"j({"url": "https://abcd.supabase.co/rest/v1/"})j");
  CHECK(doubled.code == "invalid_option");
  CHECK(doubled.path == "url");
  CHECK(doubled.message == "url is the Supabase URL and gets /rest/v1 added; this one already ends in /rest/v1");

  const error both = options_error(R"j({"url": "https://abcd.supabase.co", "restUrl": "http://127.0.0.1:3000"})j");
  CHECK(both.code == "invalid_option");
  CHECK(both.path == "restUrl");
  CHECK(both.message == "give either url or restUrl, not both");

  const error unknown = options_error(R"j({"url": "https://abcd.supabase.co", "acessToken": "x"})j");
  CHECK(unknown.code == "invalid_option");
  CHECK(unknown.path == "acessToken");
  CHECK(unknown.message == "unknown option acessToken");

  for (const std::string field : {"url", "restUrl", "apiKey", "accessToken", "userId"}) {
    const error err = options_error(R"j({")j" + field + R"j(": 42})j");
    CHECK(err.code == "invalid_option");
    CHECK(err.path == field);
    CHECK(err.message == field + " must be a string");
  }

  request_options bad_url = *options_from(R"j({"url": "abcd.supabase.co"})j");
  bad_url.user_id = kAlice;
  const error scheme = build_error("db_read", R"j({"table": "tasks"})j", sample_registry(), bad_url);
  CHECK(scheme.path == "url");
  CHECK(scheme.message == "url must be an http:// or https:// URL");
}

TEST_CASE("userId defaults to the access token's sub, and must match it when given") {
  CHECK(options_from(R"j({"restUrl": "http://h", "accessToken": ")j" + kAliceJwt + R"j("})j")->user_id == kAlice);
  CHECK(options_from(R"j({"restUrl": "http://h", "accessToken": ")j" + kAliceJwt +
                     R"j(", "userId": "6F1C1A52-8D3E-4F7A-9A41-2B7D5E0C9A11"})j")
            ->user_id == "6F1C1A52-8D3E-4F7A-9A41-2B7D5E0C9A11");
  const error mismatch =
      options_error(R"j({"restUrl": "http://h", "accessToken": ")j" + kBobJwt + R"j(", "userId": ")j" + kAlice + "\"}");
  CHECK(mismatch.code == "invalid_option");
  CHECK(mismatch.path == "userId");
  CHECK(mismatch.message == "userId is not the user the access token belongs to (its sub)");
  // A token without sub (or not a JWT) leaves userId as given.
  CHECK(options_from(R"j({"restUrl": "http://h", "accessToken": ")j" + kUserJwt + R"j("})j")->user_id.empty());

  request_options opts = *options_from(R"j({"restUrl": "http://h", "accessToken": ")j" + kAliceJwt + R"j("})j");
  CHECK(query_value(request_for("db_read", R"j({"table": "tasks"})j", sample_registry(), opts), "user_id") ==
        std::string("eq.") + kAlice);
}

TEST_CASE("tokens read in turn, more of them than the claims kept, each give their own user and role") {
  // The last two tokens' claims are kept (a session sends the same ones each
  // time): a third, and the first again, are read afresh, never mixed up.
  const auto parsed = [](const std::string& token) {
    return options_from(R"j({"restUrl": "http://h", "apiKey": ")j" + kAnonJwt + R"j(", "accessToken": ")j" + token +
                        R"j("})j");
  };
  for (int round = 0; round < 3; ++round) {
    CHECK(parsed(kAliceJwt)->user_id == kAlice);
    CHECK(parsed(kBobJwt)->user_id == "0b7d2c4e-1f3a-4c5b-8d6e-7f8091a2b3c4");
    CHECK(parsed(kUserJwt)->user_id.empty());
    request_options service = *parsed(kServiceJwt);
    CHECK(check_request_options(service).err().code == "service_key_refused");
    service.access_token = kAliceJwt;
    CHECK(check_request_options(service).ok());
  }
}

TEST_CASE("require_signed_in: user-owned and signed_in tables need a user's token, public ones do not") {
  const table& tasks = *kitchen().find_table("tasks");
  // The kitchen's catalog is for signed-in users only (its policy is `to authenticated`).
  const table& catalog = *kitchen().find_table("ingredients");
  request_options opts = alice_options();
  CHECK(require_signed_in(catalog, opts).err().message ==
        "ingredients is for signed-in users only, and no signed-in user's access token was given");
  table open = catalog;
  open.signed_in = false;
  CHECK(require_signed_in(open, opts).ok());
  const error none = require_signed_in(tasks, opts).err();
  CHECK(none.code == "not_signed_in");
  CHECK(none.path == "accessToken");
  CHECK(none.message == "tasks belongs to users, and no signed-in user's access token was given");
  opts.access_token = kAnonJwt;
  CHECK(require_signed_in(tasks, opts).err().message ==
        "tasks belongs to users, and the access token is the anon key, not a user's token");
  opts.access_token = kUserJwt;
  CHECK(require_signed_in(tasks, opts).err().message ==
        "tasks belongs to users, and the access token names no user (no sub claim)");
  opts.access_token = kAliceJwt;
  CHECK(require_signed_in(tasks, opts).ok());
}

// ---------------------------------------------------------------- URL length

TEST_CASE("a long in-list under the URL limit is sent whole") {
  ref_registry reg;
  std::string refs;
  std::string uuids;
  const int count = 190;
  for (int i = 0; i < count; ++i) {
    const std::string uuid = numbered_uuid(i);
    const std::string ref = reg.register_row("recipes", "recipe", uuid, ref_action::read, "");
    refs += std::string(i ? "," : "") + "\"" + ref + "\"";
    uuids += std::string(i ? "," : "") + uuid;
  }
  const http_request req = request_for("db_delete", R"j({"table": "recipes", "filters": [{"field": "id", "op": "in",
      "value": [)j" + refs + "]}]}",
                                       reg);
  CHECK(query_text(req) == kOwner + "id=in.(" + uuids + ")\n" + kRecipeSelect);
  CHECK(req.url.size() == std::string("http://127.0.0.1:3000/recipes?user_id=eq.").size() + 36 +
                              std::string("&id=in.%28%29&select=").size() + kRecipeSelectInUrl + count * 36 +
                              (count - 1) * 3);
  CHECK(req.url.size() <= 8000);
}

TEST_CASE("a URL over the limit is url_too_long, never truncated") {
  ref_registry reg;
  std::string refs;
  const int count = 220;
  for (int i = 0; i < count; ++i)
    refs += std::string(i ? "," : "") + "\"" +
            reg.register_row("recipes", "recipe", numbered_uuid(i), ref_action::read, "") + "\"";
  const std::string params =
      R"j({"table": "recipes", "filters": [{"field": "id", "op": "in", "value": [)j" + refs + "]}]}";
  const std::size_t length = std::string("http://127.0.0.1:3000/recipes?user_id=eq.").size() + 36 +
                             std::string("&id=in.%28%29&select=").size() + kRecipeSelectInUrl + count * 36 +
                             (count - 1) * 3;
  const error err = build_error("db_delete", params, reg);
  CHECK(err.code == "url_too_long");
  CHECK(err.path == "filters");
  CHECK(err.message == "the request URL would be " + std::to_string(length) + " bytes, over the 8000-byte limit");
  CHECK(err.hint == "split the value list into several smaller calls, or filter on fewer values");

  // The limit is inclusive and configurable.
  request_options exact = alice_options();
  exact.max_url_length = length;
  CHECK(request_for("db_delete", params, reg, exact).url.size() == length);
  exact.max_url_length = length - 1;
  CHECK(build_error("db_delete", params, reg, exact).code == "url_too_long");
}

TEST_CASE("append_request_result writes what api::data_result(write_request(build_request)) writes") {
  // The binding's hot path builds its JSON result without an http_request;
  // it must stay byte-identical to the native API's request.
  const ref_registry reg = sample_registry();
  request_options bearer = alice_options();
  bearer.api_key = "eyJ.anon\\key\"";
  bearer.access_token = "tok\"en";
  request_options publishable = alice_options();
  publishable.api_key = "sb_publishable_abc";
  const std::pair<std::string_view, std::string_view> calls[] = {
      {"db_read",
       R"j({"table": "inventory", "filters": [{"field": "name", "op": "in", "value": ["a \"b\"", null]}],
            "or_filters": [{"field": "name", "op": "ilike", "value": "*milk*"}], "order_by": "name", "count": true})j"},
      {"db_create", R"j({"table": "inventory", "data": [{"name": "tab\tmilk", "quantity": 2, "unit": "l"},
                                                        {"name": "eggs", "quantity": 6, "unit": "pcs", "location": "fridge"}]})j"},
      {"db_update", R"j({"table": "inventory", "filters": [{"field": "id", "op": "=", "value": "inv_1"}],
                        "data": {"quantity": 5}})j"},
      {"db_delete", R"j({"table": "recipes", "filters": [{"field": "id", "op": "in", "value": ["recipe_1"]}]})j"},
      {"db_read", R"j({"table": "recipes", "filters": [{"field": "_semantic", "op": "similar", "value": "x"}]})j"},
  };
  int built = 0;
  for (const request_options& opts : {alice_options(), bearer, publishable, request_options()}) {
    for (const auto& tool_and_params : calls) {
      const std::string_view tool = tool_and_params.first;  // clang 14: INFO cannot capture structured bindings
      const std::string_view params = tool_and_params.second;
      auto call = parse_tool_call(kitchen(), reg, tool, params);
      INFO(tool, " ", params, " ", call.ok() ? "" : error_text(call.err()));
      REQUIRE(call.ok());
      auto request = build_request(kitchen(), *call, opts);
      std::string expected;
      if (request.ok()) {
        json_writer w(expected);
        write_request(w, *request);
        expected = api::data_result(expected);
      }
      std::string written = "kept:";
      const status ok = append_request_result(written, kitchen(), *call, opts);
      REQUIRE(ok.ok() == request.ok());
      if (ok.ok())
        CHECK(written == "kept:" + expected);
      else
        CHECK((written == "kept:" && error_text(ok.err()) == error_text(request.err())));
      built += ok.ok();
    }
  }
  CHECK(built == 12);  // semantic search and the options without a base URL fail
}

}  // namespace alfred::test
