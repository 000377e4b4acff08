// The executor driven by scripted responses: the same sans-I/O state machine
// the JS side runs against a live PostgREST, checked need by need.
#include "alfred/executor/executor.h"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "../request_text.h"
#include "../support.h"
#include "alfred/tool_call/like_pattern.h"

namespace alfred::test {
namespace {

using nlohmann::json;

constexpr const char* kMilkCatalog = "11111111-2222-4333-8444-555555555501";
constexpr const char* kOatMilkCatalog = "11111111-2222-4333-8444-555555555502";

need_response ok(std::string body, int status = 200) { return {status, "", "application/json", std::move(body)}; }

struct run {
  ref_registry registry = sample_registry();
  std::optional<execution> ex;

  run& start(std::string_view tool, std::string_view params) {
    ex.emplace(kitchen(), registry, tool, params, alice_session());
    return *this;
  }
  const std::vector<need>& needs() const { return ex->needs(); }
  const http_request& request(std::size_t i = 0) const { return ex->needs().at(i).request; }
  run& answer(std::size_t i, need_response response) {
    ex->respond(i, std::move(response));
    return *this;
  }
  json result() const {
    REQUIRE(ex->done());
    return json::parse(ex->result_json());
  }
};

// A name as the middleware matches it on the wire: case and accents ignored
// (like_pattern.h pins the classes).
std::string folded_name(std::string_view pattern, accent_folding accents = accent_folding::exact) {
  return encode_like_pattern(pattern, true, accents).value;
}

std::string query_of(const http_request& req) {
  std::string out;
  for (const auto& [key, value] : decoded_query(req.url)) out += (out.empty() ? "" : "&") + key + "=" + value;
  return out;
}

// A meal-plans read sent again without its join: its one row, then the
// lookup of its recipe's label after it; the result names the recipe.
void read_again_without_join(run& r) {
  REQUIRE(r.needs().size() == 1);
  CHECK(query_of(r.request()).find("_label_") == std::string::npos);
  r.answer(0, ok(std::string(R"([{"id":")") + numbered_uuid(1) +
                 R"(","date":"2026-02-01","meal_type":"dinner","recipe_id":")" + numbered_uuid(2) + R"("}])"));
  REQUIRE(r.needs().size() == 1);  // the lookup, as before
  CHECK(r.request().url.find("/recipes?") != std::string::npos);
  r.answer(0, ok(std::string(R"([{"id":")") + numbered_uuid(2) + R"(","name":"Shakshuka"}])"));
  const json out = r.result();
  CHECK(out["error"].is_null());
  CHECK(out["data"][0]["_recipe_id_label"] == "Shakshuka");
}

}  // namespace

TEST_CASE("a validation error finishes at once, with the model's params in the query and UUIDs masked") {
  run r;
  r.start("db_read",
          R"({"table":"recipes","filters":[{"field":"id","op":"=","value":"c69607bb-5d2e-4b8a-9f3c-1e2d3c4b5a6"}]})");
  CHECK(r.ex->done());
  CHECK(r.needs().empty());
  const json out = r.result();
  CHECK(out["data"].is_null());
  CHECK(out["error"]["path"] == "filters[0].value");
  CHECK(out["query"]["source"] == "none");
  CHECK(out["query"]["table"] == "recipes");
  CHECK(out["query"]["requested"]["filters"][0]["value"] == "(uuid)");
  CHECK(out["count"].is_null());
}

TEST_CASE("regression: a UUID with an escaped NUL inside was shown unmasked in the query record, without the NUL") {
  run r;
  r.start("db_read", R"([{"id":"c69607\u0000bb-5d2e-4b8a-9f3c-1e2d3c4b5a61"}])");
  const json out = r.result();
  CHECK(out["error"]["code"] == "invalid_params");
  CHECK(out["query"]["requested"] == json::parse(R"j([{"id":"(uuid)"}])j"));
}

TEST_CASE("regression: an escape's hex digits and the text after it made up a UUID in the query record") {
  run r;
  // Written back, "\u001f" ends in "01f" + "607bb-5d2e-…": a UUID as the model reads the record.
  r.start("db_read", R"([{"id":"c69\u001f607\u0000bb-5d2e-4b8a-9f3c-1e2d3c4b5a61"},"tab\tstays"])");
  const json out = r.result();
  CHECK(out["error"]["code"] == "invalid_params");
  CHECK(out["query"]["requested"] == json::parse(R"j([{"id":"(uuid)"},"tab\tstays"])j"));
}

TEST_CASE("regression: a UUID inside a longer invented string was shown in the query record") {
  run r;
  r.start(
      "db_read",
      R"([{"i\u0000d":"c69606\u0000bb-5d2e-4b8a-9f3c-11e999e2d3c4b5a61"},"note 3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b here"])");
  const json out = r.result();
  CHECK(out["error"]["code"] == "invalid_params");
  CHECK(out["query"]["requested"][0].begin().value() == "(uuid)");
  CHECK(out["query"]["requested"][1] == "(uuid)");
}

TEST_CASE("regression: params that are a number beyond a double are shown in the query record as written") {
  run r;
  r.start("/i1", "2000e1444444444444430");
  std::string text = r.ex->result_json();
  CHECK(text.find(R"("requested":2000e1444444444444430,)") != std::string::npos);
  // nlohmann refuses the number (JSON.parse reads it as Infinity); the rest is the usual error.
  const json out = json::parse(text.replace(text.find("2000e"), 21, "0"));
  CHECK(out["error"]["code"] == "unknown_tool");
  CHECK(out["query"]["requested"] == 0);
}

TEST_CASE("a read of pending gen_ refs is answered from the registry without a request") {
  run r;
  r.start("db_read", R"({"table":"recipes","filters":[{"field":"id","op":"=","value":"gen_recipe_1"}]})");
  const json out = r.result();
  CHECK(out["error"].is_null());
  CHECK(out["data"] == json::parse(R"([{"id":"gen_recipe_1","name":"Thai Basil Chicken"}])"));
  CHECK(out["query"]["source"] == "generated");
  CHECK(out["count"] == 1);

  SUBCASE("of another table") {
    r.start("db_read", R"({"table":"inventory","filters":[{"field":"id","op":"=","value":"gen_recipe_1"}]})");
    CHECK(r.result()["error"]["code"] == "ref_type_mismatch");
  }
  SUBCASE("mixed with saved rows") {
    r.start("db_read",
            R"({"table":"recipes","filters":[{"field":"id","op":"in","value":["gen_recipe_1","recipe_1"]}]})");
    CHECK(r.result()["error"]["code"] == "mixed_refs");
  }
  SUBCASE("with another filter, which could not apply") {
    r.start("db_read", R"({"table":"recipes","filters":[{"field":"id","op":"=","value":"gen_recipe_1"},
                           {"field":"cuisine","op":"=","value":"thai"}]})");
    CHECK(r.result()["error"]["code"] == "generated_filter");
  }
}

TEST_CASE("a saved gen_ ref is read from the database") {
  run r;
  REQUIRE(r.registry.promote("gen_recipe_1", numbered_uuid(7), "Thai Basil Chicken"));
  r.start("db_read", R"({"table":"recipes","filters":[{"field":"id","op":"=","value":"gen_recipe_1"}]})");
  REQUIRE(r.needs().size() == 1);
  CHECK(query_of(r.request()).find("id=eq." + numbered_uuid(7)) != std::string::npos);
}

TEST_CASE("recipe reads match names loosely and include their ingredients") {
  run r;
  r.start("db_read", R"({"table":"recipes","filters":[{"field":"name","op":"=","value":"butter 50%_off"}],"limit":5})");
  REQUIRE(r.needs().size() == 1);
  const std::string q = query_of(r.request());
  CHECK(q.find("select=id,name,") == 0);
  // The ingredients' catalog labels come inside their embed, the parent
  // recipe's beside it (filtered by its owner); the ingredients' recipe_id
  // names the recipe they are under.
  CHECK(q.find(",recipe_ingredients(id,name,quantity,unit,ingredient_id,is_optional,notes,"
               "_label_ingredient_id:ingredient_id(name)),"
               "_label_parent_recipe_id:parent_recipe_id(name)&") != std::string::npos);
  CHECK(q.find(std::string("&_label_parent_recipe_id.user_id=eq.") + kAlice + "&") != std::string::npos);
  CHECK(q.find("name=imatch." + folded_name("*butter 50\\%\\_off*")) != std::string::npos);
  r.answer(0, ok(std::string(R"([{"id":")") + kRecipe1 + R"(","name":"Butter Chicken","recipe_ingredients":[]}])"));
  const json out = r.result();
  CHECK(out["data"][0]["id"] == "recipe_1");
  CHECK(out["query"]["requested"]["filters"][0]["op"] == "=");
  CHECK(out["query"]["effective"]["filters"][0]["op"] == "ilike");
  CHECK(out["query"]["notes"].size() == 1);
  CHECK(out["count"] == 1);
}

TEST_CASE("a name too long to fold within the budget is matched ignoring case only") {
  const std::string name(200, 'a');
  run r;
  r.start("db_read", R"({"table":"recipes","filters":[{"field":"name","op":"=","value":")" + name + R"("}]})");
  REQUIRE(r.needs().size() == 1);
  CHECK(query_of(r.request()).find("name=ilike.*" + name + "*") != std::string::npos);
  r.answer(0, ok("[]"));
  const std::string note = r.result()["query"]["notes"][0];
  CHECK(note.find("ignoring case (") != std::string::npos);
}

TEST_CASE("an inventory name filter goes through the catalog, and falls back to the name when nothing matches") {
  run r;
  r.start("db_read", R"({"table":"inventory","filters":[{"field":"name","op":"=","value":"Milks"},
                         {"field":"location","op":"=","value":"fridge"}]})");
  REQUIRE(r.needs().size() == 1);
  const std::string lookup = query_of(r.request());
  CHECK(lookup.find("/ingredients") == std::string::npos);  // the path is not in the query
  CHECK(r.request().url.find("/ingredients?") != std::string::npos);
  CHECK(lookup.find("or=(name.imatch." + folded_name("milk", accent_folding::loose) +
                    R"(,aliases.cs."{milk}",name.ilike.milks,aliases.cs."{milks}"))") != std::string::npos);

  SUBCASE("a match reads rows linked to it or named like it") {
    r.answer(0, ok(std::string(R"([{"id":")") + kMilkCatalog +
                   R"(","name":"milk","aliases":["whole milk"],"category":"dairy"},{"id":")" + kOatMilkCatalog +
                   R"(","name":"oat milk","aliases":[],"category":"dairy"}])"));
    REQUIRE(r.needs().size() == 1);
    const std::string q = query_of(r.request());
    CHECK(q.find(std::string("or=(ingredient_id.in.(") + kMilkCatalog + "),name.imatch." + folded_name("*Milks*") +
                 ")") != std::string::npos);
    CHECK(q.find("location=eq.fridge") != std::string::npos);
    r.answer(0, ok("[]"));
    const json out = r.result();
    CHECK(out["query"]["effective"]["or_filters"][0]["value"][0].get<std::string>().rfind("ing_", 0) == 0);
    CHECK(out["query"]["notes"][0].get<std::string>().find("catalog") != std::string::npos);
  }
  SUBCASE("no match keeps a name filter instead of dropping it") {
    r.answer(0, ok("[]"));
    const std::string q = query_of(r.request());
    CHECK(q.find("name=imatch." + folded_name("*Milks*")) != std::string::npos);
    CHECK(q.find("or=") == std::string::npos);
    r.answer(0, ok("[]"));
    CHECK(r.result()["query"]["notes"][0].get<std::string>().find("no catalog entry") != std::string::npos);
  }
  SUBCASE("a failed lookup is an error, not an unfiltered read") {
    r.answer(0, {500, "", "text/plain", "boom"});
    const json out = r.result();
    CHECK(out["error"]["code"] == "server_error");
    CHECK(out["error"]["status"] == 500);
  }
}

TEST_CASE("semantic search embeds, ranks through the RPC, then reads in rank order") {
  run r;
  r.start("db_read",
          R"({"table":"recipes","filters":[{"field":"_semantic","op":"similar","value":"cozy curry"}],"limit":1})");
  REQUIRE(r.needs().size() == 1);
  CHECK(r.needs()[0].type == need::kind::embed);
  CHECK(r.needs()[0].text == "cozy curry");
  r.answer(0, ok("[0.5, -0.25, 1e-3]"));
  REQUIRE(r.needs().size() == 1);
  CHECK(r.request().method == "POST");
  CHECK(r.request().url == "http://127.0.0.1:3000/rpc/match_recipes");
  CHECK(*r.request().body == R"({"query_embedding":"[0.5,-0.25,1e-3]","match_count":20,"max_distance":0.7})");
  r.answer(0, ok(std::string(R"([{"id":")") + kRecipe2 + R"(","name":"Cod Curry","distance":0.1},{"id":")" + kRecipe1 +
                 R"(","name":"Butter Chicken","distance":0.3}])"));
  REQUIRE(r.needs().size() == 1);
  const std::string q = query_of(r.request());
  CHECK(q.find(std::string("id=in.(") + kRecipe2 + "," + kRecipe1 + ")") != std::string::npos);
  CHECK(q.find("limit=") == std::string::npos);
  r.answer(0, ok(std::string(R"([{"id":")") + kRecipe1 + R"(","name":"Butter Chicken"},{"id":")" + kRecipe2 +
                 R"(","name":"Cod Curry"}])"));
  const json out = r.result();
  REQUIRE(out["data"].size() == 1);
  CHECK(out["data"][0]["id"] == "recipe_2");
  CHECK(out["query"]["effective"]["filters"][0]["value"] == json::parse(R"(["recipe_2","recipe_1"])"));

  SUBCASE("an RPC error is surfaced, never shown as no results") {
    run s;
    s.start("db_read", R"({"table":"recipes","filters":[{"field":"_semantic","op":"similar","value":"x"}]})");
    s.answer(0, ok("[1]"));
    s.answer(0, {404, "", "application/json", R"({"code":"PGRST202","message":"Could not find the function"})"});
    CHECK(s.result()["error"]["code"] == "unknown_function");
  }
  SUBCASE("no match is an empty result with a note, without the read") {
    run s;
    s.start("db_read", R"({"table":"recipes","filters":[{"field":"_semantic","op":"similar","value":"x"}]})");
    s.answer(0, ok("[1]"));
    s.answer(0, ok("[]"));
    const json empty = s.result();
    CHECK(empty["data"] == json::array());
    CHECK(empty["count"] == 0);
    CHECK(empty["query"]["notes"][0].get<std::string>().find("found no recipes") != std::string::npos);
  }
  SUBCASE("an embedder failure is its own error") {
    run s;
    s.start("db_read", R"({"table":"recipes","filters":[{"field":"_semantic","op":"similar","value":"x"}]})");
    s.answer(0, {0, "", "", "connection refused"});
    CHECK(s.result()["error"]["code"] == "embedding_failed");
  }
}

TEST_CASE("creates link catalog names, de-duplicate batches and report what they did") {
  run r;
  r.start("db_create", R"({"table":"shopping_list","data":[{"name":"milk","quantity":1},{"name":"eggs"},
                           {"name":"Milk","quantity":2}]})");
  REQUIRE(r.needs().size() == 1);
  r.answer(0, ok(std::string(R"([{"id":")") + kMilkCatalog + R"(","name":"milk","aliases":[],"category":"dairy"}])"));
  REQUIRE(r.needs().size() == 1);
  const json body = json::parse(*r.request().body);
  REQUIRE(body.size() == 2);
  CHECK(body[0]["name"] == "eggs");
  CHECK(body[1]["name"] == "Milk");
  CHECK(body[1]["quantity"] == 2);
  CHECK(body[1]["ingredient_id"] == kMilkCatalog);
  CHECK(body[1]["category"] == "dairy");
  CHECK(body[1]["user_id"] == kAlice);
  r.answer(0, ok(std::string(R"([{"id":")") + numbered_uuid(1) + R"(","user_id":")" + kAlice +
                     R"(","name":"eggs","ingredient_id":null},{"id":")" + numbered_uuid(2) + R"(","user_id":")" +
                     kAlice + R"(","name":"Milk","ingredient_id":")" + kMilkCatalog + R"("}])",
                 201));
  const json out = r.result();
  CHECK(out["data"][0]["id"] == "shop_1");
  CHECK(out["data"][1]["ingredient_id"].get<std::string>().rfind("ing_", 0) == 0);
  CHECK(out["data"][1].count("user_id") == 0);
  CHECK(out["query"]["requested"]["records"] == 3);
  CHECK(out["query"]["effective"]["records"] == 2);
}

// Gateways in front of PostgREST commonly refuse request lines over 8 KB.
TEST_CASE("names matched ignoring accents keep the request line well under 8 KB") {
  SUBCASE("a read by a name of any length") {
    for (std::size_t letters = 10; letters <= 200; letters += 5) {
      const std::string name(letters, 'o');
      run r;
      r.start("db_read", R"({"table":"recipes","filters":[{"field":"name","op":"=","value":")" + name + R"("}]})");
      REQUIRE(r.needs().size() == 1);
      CAPTURE(letters);
      CHECK(r.request().url.size() < 6000);
    }
  }
  SUBCASE("the catalog lookups for a batch of twenty items") {
    std::string rows;
    for (const char* name :
         {"tomatoes",  "red onions", "garlic",         "coriander", "creme fraiche", "jalapenos", "basmati rice",
          "chickpeas", "spinach",    "mozzarella",     "parmesan",  "chorizo",       "lemons",    "limes",
          "ginger",    "potatoes",   "sweet potatoes", "mushrooms", "courgettes",    "aubergine"})
      rows += std::string(rows.empty() ? "" : ",") + R"({"name":")" + name + R"("})";
    run r;
    r.start("db_create", R"({"table":"shopping_list","data":[)" + rows + "]}");
    REQUIRE(r.needs().size() == 2);  // looked up in two requests
    for (std::size_t i = 0; i < r.needs().size(); ++i) {
      CHECK(r.request(i).url.find("name.imatch.") != std::string::npos);
      CHECK(r.request(i).url.size() < 6000);
    }
  }
}

TEST_CASE("a large batch is looked up in the catalog in several requests, and linked once all of them answered") {
  std::string rows;
  for (int i = 0; i < 200; ++i)
    rows += std::string(rows.empty() ? "" : ",") + R"({"name":"pantry item number )" + std::to_string(i) + R"("})";
  rows += R"(,{"name":"Milk"})";
  run r;
  r.start("db_create", R"({"table":"shopping_list","data":[)" + rows + "]}");
  const std::size_t lookups = r.needs().size();
  CHECK(lookups > 2);
  std::string every;
  for (std::size_t i = 0; i < lookups; ++i) {
    CHECK(r.request(i).url.size() < 6000);
    CHECK(r.request(i).url.find("name.imatch.") != std::string::npos);  // every request folds accents
    every += query_of(r.request(i));
  }
  std::size_t name_filters = 0;  // one per name: each is its own singular
  for (std::size_t at = every.find("name.i"); at != std::string::npos; at = every.find("name.i", at + 1))
    ++name_filters;
  CHECK(name_filters == 201);
  // The first lookup finds a catalog entry for the first name; the last, milk.
  for (std::size_t i = 0; i + 1 < lookups; ++i)
    r.answer(i, ok(i == 0 ? std::string(R"([{"id":")") + kOatMilkCatalog +
                                R"(","name":"pantry item number 0","aliases":[],"category":"pantry"}])"
                          : std::string("[]")));
  CHECK(r.needs().size() == lookups);  // nothing moves before the last answer
  r.answer(lookups - 1,
           ok(std::string(R"([{"id":")") + kMilkCatalog + R"(","name":"milk","aliases":[],"category":"dairy"}])"));
  REQUIRE(r.needs().size() == 1);
  const json body = json::parse(*r.request().body);
  REQUIRE(body.size() == 201);
  CHECK(body[0]["ingredient_id"] == kOatMilkCatalog);
  CHECK(body[200]["ingredient_id"] == kMilkCatalog);
  CHECK(body[200]["category"] == "dairy");
  CHECK(body[1].count("ingredient_id") == 0);
}

TEST_CASE("a batch create of distinct items keeps every field of every row") {
  run r;
  r.start("db_create", R"({"table":"shopping_list","data":[{"name":"bread","quantity":1},{"name":"butter"},
                           {"name":"eggs","unit":"pcs"}]})");
  REQUIRE(r.needs().size() == 1);
  r.answer(0, ok("[]"));  // no catalog entry for any of them
  REQUIRE(r.needs().size() == 1);
  CHECK(query_of(r.request()) == R"(columns="name","quantity","user_id","unit"&select=*)");
  const json body = json::parse(*r.request().body);
  CHECK(body == json::parse(std::string(R"([{"user_id":")") + kAlice + R"(","name":"bread","quantity":1},
                                            {"user_id":")" +
                            kAlice + R"(","name":"butter"},
                                            {"user_id":")" +
                            kAlice + R"(","name":"eggs","unit":"pcs"}])"));
  r.answer(0, ok("[]", 201));
  const json out = r.result();
  CHECK(out["query"]["requested"]["records"] == 3);
  CHECK(out["query"]["effective"].is_null());
  CHECK(out["query"]["notes"].empty());
}

TEST_CASE("saving a generated recipe promotes its gen_ ref, children then link through it") {
  run r;
  r.start("db_create",
          R"({"table":"recipes","data":{"id":"gen_recipe_1","name":"Thai Basil Chicken","instructions":["cook"]}})");
  REQUIRE(r.needs().size() == 1);
  CHECK(json::parse(*r.request().body).count("id") == 0);
  r.answer(0, ok(std::string(R"([{"id":")") + numbered_uuid(9) + R"(","name":"Thai Basil Chicken"}])", 201));
  const json out = r.result();
  CHECK(out["error"].is_null());
  CHECK(out["data"]["id"] == "recipe_3");
  CHECK(out["query"]["notes"][0] == "saved gen_recipe_1 as recipe_3");

  r.start("db_create",
          R"({"table":"recipe_ingredients","data":{"recipe_id":"gen_recipe_1","name":"basil","ingredient_id":null}})");
  REQUIRE(r.needs().size() == 1);
  CHECK(json::parse(*r.request().body)["recipe_id"] == numbered_uuid(9));

  SUBCASE("a second save is refused") {
    r.start("db_create",
            R"({"table":"recipes","data":{"id":"gen_recipe_1","name":"Thai Basil Chicken","instructions":["x"]}})");
    CHECK(r.result()["error"]["code"] == "already_saved");
  }
}

TEST_CASE("database errors are typed by status and code") {
  run r;
  r.start("db_update",
          R"({"table":"inventory","filters":[{"field":"id","op":"=","value":"inv_1"}],"data":{"quantity":2}})");
  REQUIRE(r.needs().size() == 1);
  CHECK(r.request().method == "PATCH");

  SUBCASE("row-level security") {
    r.answer(0,
             {403, "", "application/json",
              R"({"code":"42501","message":"new row violates row-level security policy","details":null,"hint":null})"});
    const json out = r.result();
    CHECK(out["error"]["code"] == "permission_denied");
    CHECK(out["error"]["dbCode"] == "42501");
    CHECK(out["query"]["source"] == "database");
  }
  SUBCASE("text/plain") {
    r.answer(0, {400, "", "text/plain", "bad request"});
    CHECK(r.result()["error"]["message"] == "db_update on inventory failed: bad request");
  }
  SUBCASE("a request never sent had no effect") {
    r.answer(0, {0, "", "", "connect ECONNREFUSED 127.0.0.1:9", transport_failure::not_sent});
    const json out = r.result();
    CHECK(out["error"]["code"] == "network_error");
    CHECK(out["error"]["hint"] == "nothing was sent; try again");
  }
  SUBCASE("a write sent without an answer has an unknown outcome, not no effect") {
    r.answer(0, {0, "", "", "fetch failed", transport_failure::no_response});
    const json out = r.result();
    CHECK(out["error"]["code"] == "write_outcome_unknown");
    CHECK(out["error"]["message"] ==
          "db_update on inventory: the outcome is unknown; the request was sent but no answer came (fetch failed)");
  }
  SUBCASE("an expired token") {
    r.answer(0, {401, "", "application/json", R"({"code":"PGRST303","message":"JWT expired"})"});
    CHECK(r.result()["error"]["code"] == "unauthorized");
  }
  SUBCASE("no row matched") {
    r.answer(0, ok("[]"));
    // A write by ref that changed nothing: its rows are counted after it, to say why.
    REQUIRE(r.needs().size() == 1);
    CHECK(r.request().method == "GET");
    r.answer(0, {200, "*/0", "application/json", "[]"});
    const json out = r.result();
    CHECK(out["count"] == 0);
    CHECK(out["query"]["notes"][0].get<std::string>().find("no row matched") == 0);
  }
}

TEST_CASE("foreign keys get labels from one batched lookup per table, a failed lookup keeps the rows") {
  run r;
  r.start("db_read", R"({"table":"meal_plans"})");
  REQUIRE(r.needs().size() == 1);
  r.answer(0,
           ok(std::string(R"([{"id":")") + numbered_uuid(1) +
              R"(","date":"2026-02-01","meal_type":"dinner","recipe_id":")" + numbered_uuid(2) + R"("},{"id":")" +
              numbered_uuid(3) + R"(","date":"2026-02-02","meal_type":"lunch","recipe_id":")" + kRecipe1 + R"("}])"));
  REQUIRE(r.needs().size() == 1);
  const std::string q = query_of(r.request());
  CHECK(r.request().url.find("/recipes?") != std::string::npos);
  CHECK(q == std::string("select=id,name&user_id=eq.") + kAlice + "&id=in.(" + numbered_uuid(2) + ")");

  SUBCASE("labels found") {
    r.answer(0, ok(std::string(R"([{"id":")") + numbered_uuid(2) + R"(","name":"Shakshuka"}])"));
    const json out = r.result();
    CHECK(out["data"][0]["_recipe_id_label"] == "Shakshuka");
    CHECK(out["data"][1]["_recipe_id_label"] == "Butter Chicken");
    CHECK(out["data"][0]["id"] == "meal_1");
  }
  SUBCASE("a single object is not a lookup's rows") {
    r.answer(0, ok(std::string(R"({"id":")") + numbered_uuid(2) + R"(","name":"Shakshuka"})"));
    const json out = r.result();
    CHECK(out["error"].is_null());
    CHECK(out["data"][0].count("_recipe_id_label") == 0);
    CHECK(out["query"]["notes"][0] == "labels of recipes rows could not be fetched");
  }
  SUBCASE("lookup failed") {
    r.answer(0, {500, "", "text/plain", "down"});
    const json out = r.result();
    CHECK(out["error"].is_null());
    CHECK(out["data"].size() == 2);
    CHECK(out["data"][0].count("_recipe_id_label") == 0);
    CHECK(out["query"]["notes"][0] == "labels of recipes rows could not be fetched");
  }
}

TEST_CASE("a read brings its foreign keys' labels along: one request, no lookup") {
  run r;
  r.registry = ref_registry();  // the session's first read
  r.start("db_read", R"({"table":"tasks","limit":5})");
  REQUIRE(r.needs().size() == 1);
  const std::string q = query_of(r.request());
  // By the column: one relationship each, whichever table it points at.
  CHECK(q.find("select=*,_label_recipe_id:recipe_id(name),_label_meal_plan_id:meal_plan_id(date,meal_type)&") == 0);
  // Recipes and meal plans are scoped to their owner: the joined rows are
  // filtered by the owner as their lookup is (a row another user shares is
  // joined as null).
  CHECK(q.find(std::string("&_label_recipe_id.user_id=eq.") + kAlice) != std::string::npos);
  CHECK(q.find(std::string("&_label_meal_plan_id.user_id=eq.") + kAlice) != std::string::npos);
  const std::string plan = numbered_uuid(7);
  r.answer(0, ok(std::string(R"([{"id":")") + numbered_uuid(1) + R"(","title":"Marinate","recipe_id":")" +
                 numbered_uuid(2) + R"(","meal_plan_id":")" + plan +
                 R"(","_label_recipe_id":{"name":"Shakshuka"},"_label_meal_plan_id":{)"
                 R"("date":"2026-02-01","meal_type":"dinner"}},{"id":")" +
                 numbered_uuid(3) +
                 R"(","title":"Shop","recipe_id":null,"meal_plan_id":null,"_label_recipe_id":null,)"
                 R"("_label_meal_plan_id":null}])"));
  const json out = r.result();  // no second round
  CHECK(out["error"].is_null());
  CHECK(out["data"][0]["_recipe_id_label"] == "Shakshuka");
  CHECK(out["data"][0]["_meal_plan_id_label"] == "Feb 01 [dinner]");
  CHECK(out["data"][0].count("_label_recipe_id") == 0);  // the embeds never reach the model
  CHECK(out["data"][1].count("_label_meal_plan_id") == 0);
  CHECK(out["data"][1]["recipe_id"].is_null());
  // The record shows the call as the model made it.
  CHECK(out["query"]["effective"].is_null());
  CHECK(out["query"]["requested"]["columns"].is_null());
  CHECK(r.registry.find("recipe_1") != nullptr);
  CHECK(r.registry.find("recipe_1")->label == "Shakshuka");

  // The next read joins again, since only its answer tells which rows it
  // meets: a row the session knows keeps the label it knows (the same
  // whether or not the read met new rows), a new one gets its label from the
  // embed; one request.
  r.start("db_read", R"({"table":"meal_plans"})");
  REQUIRE(r.needs().size() == 1);
  CHECK(query_of(r.request()).find("select=*,_label_recipe_id:recipe_id(name)&") == 0);
  r.answer(0, ok(std::string(R"([{"id":")") + plan + R"(","date":"2026-02-01","meal_type":"dinner","recipe_id":")" +
                 numbered_uuid(2) + R"(","_label_recipe_id":{"name":"Shakshuka, renamed"}},{"id":")" +
                 numbered_uuid(8) + R"(","date":"2026-02-02","meal_type":"lunch","recipe_id":")" + numbered_uuid(9) +
                 R"(","_label_recipe_id":{"name":"Dal"}}])"));
  const json next = r.result();
  CHECK(next["error"].is_null());
  CHECK(next["data"][0]["recipe_id"] == "recipe_1");
  CHECK(next["data"][0]["_recipe_id_label"] == "Shakshuka");
  CHECK(next["data"][1]["recipe_id"] == "recipe_2");
  CHECK(next["data"][1]["_recipe_id_label"] == "Dal");
  CHECK(next["data"][1].count("_label_recipe_id") == 0);
}

TEST_CASE("a read whose label embeds would make its URL too long goes as the call asked") {
  run r;
  r.registry = ref_registry();
  // Meal plans the session has met, without their recipes.
  std::string rows = "[";
  std::string refs;
  for (int i = 1; i <= 202; ++i) {
    rows += (i > 1 ? "," : "") + std::string(R"({"id":")") + numbered_uuid(1000 + i) +
            R"(","date":"2026-02-01","meal_type":"dinner","recipe_id":null})";
    refs += (i > 1 ? "," : "") + std::string("\"meal_") + std::to_string(i) + "\"";
  }
  REQUIRE(
      translate_rows(kitchen(), r.registry, *kitchen().find_table("meal_plans"), rows + "]", ref_action::read).ok());
  const std::string params = R"({"table":"meal_plans","filters":[{"field":"id","op":"in","value":[)" + refs + "]}]}";
  // As the call asked, the URL fits.
  const auto plain = build_request(kitchen(), r.registry, "db_read", params, alice_options());
  REQUIRE(plain.ok());
  // No room left for the embed (`,_label_recipe_id:recipe_id(name)`, percent-encoded).
  REQUIRE(plain->url.size() + 40 > alice_options().max_url_length);
  r.start("db_read", params);
  REQUIRE(r.needs().size() == 1);
  CHECK(r.request().url == plain->url);
  // That was this call's URL, not the database: nothing is remembered.
  r.answer(0, ok("[]"));
  CHECK(r.result()["error"].is_null());
  CHECK_FALSE(r.registry.refuses_joins("meal_plans"));
}

TEST_CASE("a read whose response with the labels' rows is over the limit goes again as the call asked") {
  run r;
  r.registry = ref_registry();
  r.start("db_read", R"({"table":"meal_plans"})");
  REQUIRE(r.needs().size() == 1);
  CHECK(query_of(r.request()).find("_label_recipe_id:") != std::string::npos);
  r.answer(0, {200, "", "application/json", "content-length 9000000, over 8 MiB", transport_failure::too_large});
  read_again_without_join(r);
  // This call's size, not the database: the next read joins again.
  CHECK_FALSE(r.registry.refuses_joins("meal_plans"));
  SUBCASE("too large without them too: the read's error") {
    run big;
    big.registry = ref_registry();
    big.start("db_read", R"({"table":"meal_plans"})");
    big.answer(0, {200, "", "application/json", "over the limit", transport_failure::too_large});
    REQUIRE(big.needs().size() == 1);
    big.answer(0, {200, "", "application/json", "over the limit", transport_failure::too_large});
    CHECK(big.ex->done());
    CHECK_FALSE(big.result()["error"].is_null());
  }
}

TEST_CASE("rows embedded in a read bring their foreign keys' labels inside their embed") {
  run r;
  r.registry = ref_registry();
  r.start("db_read", R"j({"table":"recipes","columns":["name","recipe_ingredients(name,ingredient_id)"]})j");
  REQUIRE(r.needs().size() == 1);
  CHECK(query_of(r.request())
            .find("select=id,name,recipe_ingredients(id,name,ingredient_id,"
                  "_label_ingredient_id:ingredient_id(name))&") == 0);
  const std::string salt = numbered_uuid(40);
  r.answer(0, ok(std::string(R"([{"id":")") + numbered_uuid(30) + R"(","name":"Dal","recipe_ingredients":[{"id":")" +
                 numbered_uuid(31) + R"(","name":"sea salt","ingredient_id":")" + salt +
                 R"(","_label_ingredient_id":{"name":"salt"}}]}])"));
  const json out = r.result();  // no lookup round
  CHECK(out["error"].is_null());
  const json ingredient = out["data"][0]["recipe_ingredients"][0];
  CHECK(ingredient["_ingredient_id_label"] == "salt");
  CHECK(ingredient.count("_label_ingredient_id") == 0);
}

TEST_CASE("label embeds: only for foreign keys the read shows, to tables whose label is more than their key") {
  auto select_of = [](std::string_view params) {
    run r;
    r.registry = ref_registry();
    r.start("db_read", params);
    REQUIRE(r.needs().size() == 1);
    const std::string q = query_of(r.request());
    return q.substr(0, q.find('&'));
  };
  CHECK(select_of(R"({"table":"tasks","columns":["title","due_date"]})") == "select=id,title,due_date");
  CHECK(select_of(R"({"table":"tasks","columns":["title","recipe_id"]})") ==
        "select=id,title,recipe_id,_label_recipe_id:recipe_id(name)");
  // A table pointing at itself: the row the column names, not its children.
  CHECK(select_of(R"({"table":"recipes","columns":["name","parent_recipe_id"]})") ==
        "select=id,name,parent_recipe_id,_label_parent_recipe_id:parent_recipe_id(name)");
  CHECK(select_of(R"({"table":"ingredients"})").find("_label_") == std::string::npos);  // no foreign key
  // buildRequest (no executor) sends the call as it is.
  const auto built = build("db_read", R"({"table":"tasks"})");
  REQUIRE(built.ok());
  CHECK(query_of(*built).find("_label_") == std::string::npos);
}

TEST_CASE("a database that cannot join a foreign key's rows gets the read again without, and the lookup after it") {
  const std::pair<int, const char*> refusals[] = {{400, "PGRST200"}, {300, "PGRST201"}, {401, "42501"}, {403, "42501"}};
  for (const auto& refusal : refusals) {
    const int status = refusal.first;
    const char* const code = refusal.second;
    CAPTURE(status);
    run r;
    r.registry = ref_registry();
    r.start("db_read", R"({"table":"meal_plans"})");
    REQUIRE(r.needs().size() == 1);
    CHECK(query_of(r.request()).find("_label_recipe_id:recipe_id(name)") != std::string::npos);
    r.answer(0, {status, "", "application/json",
                 std::string(R"({"code":")") + code + R"(","details":null,"hint":null,"message":"no join"})"});
    read_again_without_join(r);
    // The registry remembers the refusal, in its state too: the next read of
    // meal plans asks for no join, nor does one restored from the state; a
    // read of another table still joins.
    CHECK(r.registry.refuses_joins("meal_plans"));
    const std::string state = r.registry.to_json();
    CHECK(state.find(R"("joins_refused":["meal_plans"])") != std::string::npos);
    r.start("db_read", R"({"table":"meal_plans"})");
    CHECK(query_of(r.request()).find("_label_") == std::string::npos);
    r.registry = *ref_registry::from_json(state);
    r.start("db_read", R"({"table":"meal_plans","limit":3})");
    CHECK(query_of(r.request()).find("_label_") == std::string::npos);
    r.start("db_read", R"({"table":"tasks"})");
    CHECK(query_of(r.request()).find("_label_recipe_id:recipe_id(name)") != std::string::npos);
  }
  SUBCASE("a read that fails without the join too leaves nothing remembered") {
    run r;
    r.registry = ref_registry();
    r.start("db_read", R"({"table":"meal_plans"})");
    const std::string denied = R"({"code":"42501","message":"permission denied for table meal_plans"})";
    r.answer(0, {403, "", "application/json", denied});
    REQUIRE(r.needs().size() == 1);
    r.answer(0, {403, "", "application/json", denied});
    CHECK_FALSE(r.result()["error"].is_null());
    CHECK_FALSE(r.registry.refuses_joins("meal_plans"));
    CHECK(r.registry.to_json().find("joins_refused") == std::string::npos);
  }
  SUBCASE("a refusal for another reason is the read's error, in one request") {
    run r;
    r.registry = ref_registry();
    r.start("db_read", R"({"table":"meal_plans"})");
    r.answer(0, {400, "", "application/json", R"({"code":"22P02","message":"invalid input syntax for type date"})"});
    CHECK(r.ex->done());
    CHECK_FALSE(r.result()["error"].is_null());
  }
  SUBCASE("another failure is the read's error, not a second request") {
    run r;
    r.registry = ref_registry();
    r.start("db_read", R"({"table":"meal_plans"})");
    r.answer(0, {500, "", "application/json", R"({"code":"XX000","message":"boom"})"});
    CHECK(r.ex->done());
    CHECK_FALSE(r.result()["error"].is_null());
  }
}

TEST_CASE("a requested count comes from Content-Range") {
  run r;
  r.start("db_read", R"({"table":"tasks","count":"exact","limit":1})");
  REQUIRE(r.needs().size() == 1);
  r.answer(0, {200, "0-0/42", "application/json", "[]"});
  CHECK(r.result()["count"] == 42);
}

TEST_CASE("Content-Range totals beyond 2^53 - 1 or malformed are invalid_response, never an overflowed count") {
  auto count_of = [](const char* range) {
    run r;
    r.start("db_read", R"({"table":"tasks","count":"exact","limit":1})");
    r.answer(0, {200, range, "application/json", "[]"});
    return r.result();
  };
  CHECK(count_of("*/2147483648")["count"] == 2147483648LL);
  CHECK(count_of("0-0/9007199254740991")["count"] == 9007199254740991LL);
  CHECK(count_of("0-0/*")["count"] == 0);  // unknown total: the rows there are
  CHECK(count_of("")["count"] == 0);
  for (const char* bad : {"*/9007199254740992", "*/18446744073709551616", "*/99999999999999999999999", "0-0/-1", "0-0/",
                          "0-0/12abc", "garbage"}) {
    CAPTURE(bad);
    const json out = count_of(bad);
    CHECK(out["error"]["code"] == "invalid_response");
    CHECK(out["data"].is_null());
    CHECK(out["count"].is_null());
  }
}

TEST_CASE("a 2xx body that is not an array of rows is invalid_response, not zero rows or fields as rows") {
  for (const char* body : {"42", "\"x\"", "true", "null", " {\"id\":\"x\",\"name\":\"a\",\"b\":1}", "", "oops"}) {
    CAPTURE(body);
    run r;
    r.start("db_read", R"({"table":"tasks"})");
    r.answer(0, ok(body));
    const json out = r.result();
    CHECK(out["data"].is_null());
    CHECK(out["error"]["code"] == "invalid_response");
    CHECK(out["error"]["message"].get<std::string>().find("the database answered tasks with ") == 0);
    CHECK(out["count"].is_null());
  }
  // A write's 2xx may mean it was applied: not rows is an unknown outcome,
  // with the status kept, never a result (docs/limits-and-faults.md).
  run r;
  r.start("db_create", R"({"table":"tasks","data":{"title":"call mum"}})");
  r.answer(0, ok(std::string(R"({"id":")") + numbered_uuid(4) + R"(","title":"call mum"})", 201));
  const json out = r.result();
  CHECK(out["data"].is_null());
  CHECK(out["error"]["code"] == "write_outcome_unknown");
  CHECK(out["error"]["status"] == 201);
}

TEST_CASE("database errors show refs or <id> for UUIDs, the raw text stays in error.raw") {
  run r;
  r.start("db_update",
          R"({"table":"inventory","filters":[{"field":"id","op":"=","value":"inv_1"}],"data":{"quantity":2}})");
  const std::string unknown = "0f0e0d0c-0b0a-4908-8706-050403020100";
  const std::string body =
      std::string(
          R"({"code":"23505","message":"duplicate key value violates unique constraint \"inventory_pkey\"","details":"Key (id)=()") +
      kInv1 + R"() already exists.","hint":"not )" + unknown + R"("})";
  r.answer(0, {409, "", "application/json", body});
  const json err = r.result()["error"];
  CHECK(err["code"] == "duplicate");
  CHECK(err["details"] == "Key (id)=(inv_1) already exists.");
  CHECK(err["hint"] == "not <id>");
  CHECK(err["raw"]["details"] == std::string("Key (id)=(") + kInv1 + ") already exists.");
  CHECK(err["raw"]["hint"] == "not " + unknown);
  CHECK(err["raw"]["message"] == err["message"]);
  const std::string shown =
      err["message"].get<std::string>() + err["details"].get<std::string>() + err["hint"].get<std::string>();
  CHECK(shown.find(kInv1) == std::string::npos);
}

TEST_CASE("a long non-JSON error body is cut between UTF-8 characters") {
  // Too long for the message: the status goes there, the body to rawBody,
  // cut at 1000 bytes.
  std::string body(999, 'x');
  body += "é and more";  // é's two bytes straddle the 1000-byte cut
  run r;
  r.start("db_read", R"({"table":"tasks"})");
  r.answer(0, {502, "", "text/plain", body});
  const json err = r.result()["error"];  // json::parse refuses invalid UTF-8
  CHECK(err["message"] == "reading tasks failed: HTTP 502 Bad Gateway");
  CHECK(err["rawBody"] == std::string(999, 'x') + "…");
}

TEST_CASE("responses for a finished or unknown need are ignored") {
  run r;
  r.start("db_read", R"({"table":"tasks"})");
  r.answer(5, ok("[]"));
  CHECK_FALSE(r.ex->done());
  r.answer(0, ok("[]"));
  r.answer(0, ok("[1]"));
  CHECK(r.result()["data"] == json::array());
}

TEST_CASE("a LIKE pattern ending in a lone backslash is refused before any request") {
  // PostgreSQL fails it (22025) only when a row's text reaches that far, so
  // the same call would fail or not depending on the rows.
  for (const char* pattern : {R"("\\")", R"("trailing\\")", R"("a\\\\\\")"}) {
    run r;
    r.start("db_read",
            std::string(R"({"table":"tasks","filters":[{"field":"title","op":"ilike","value":)") + pattern + "}]}");
    CHECK(r.needs().empty());
    CHECK(r.result()["error"]["code"] == "invalid_value");
    CHECK(r.result()["error"]["path"] == "filters[0].value");
  }
  for (const char* pattern : {R"("\\\\")", R"("100\\%")", R"("a\\b")"}) {
    run r;
    r.start("db_read", std::string(R"({"table":"tasks","or_filters":[{"field":"title","op":"like","value":)") +
                           pattern + R"(},{"field":"category","op":"is_null"}]})");
    CHECK(r.needs().size() == 1);
  }
}

}  // namespace alfred::test

namespace alfred::test {
TEST_CASE("saving a gen_ ref that does not exist names the pending ones") {
  ref_registry reg = sample_registry();
  execution ex(kitchen(), reg, "db_create",
               R"({"table":"recipes","data":{"id":"gen_recipe_9","name":"x","instructions":["a"]}})", alice_session());
  const auto out = nlohmann::json::parse(ex.result_json());
  CHECK(out["error"]["code"] == "unknown_ref");
  CHECK(out["error"]["hint"] == "pending: gen_recipe_1");
}
}  // namespace alfred::test

namespace alfred::test {
TEST_CASE("not_signed_in: a user-owned table without a user's token finishes with no needs") {
  ref_registry reg = sample_registry();
  execution ex(kitchen(), reg, "db_read", R"({"table":"inventory"})", alice_options());
  CHECK(ex.done());
  CHECK(ex.needs().empty());
  const auto out = nlohmann::json::parse(ex.result_json());
  CHECK(out["error"]["code"] == "not_signed_in");
  CHECK(out["error"]["path"] == "accessToken");
  CHECK(out["data"].is_null());
}
}  // namespace alfred::test

namespace alfred::test {
TEST_CASE("not_signed_in: a table without an owner marked signed_in needs a user's token too, and others do not") {
  auto dom = parse_domain(R"({"name": "docs", "tables": {
      "sections": {"ref": "section", "signed_in": true, "columns": {"id": {"type": "integer", "writable": false}, "content": {"type": "text"}}},
      "topics": {"ref": "topic", "columns": {"id": {"type": "integer", "writable": false}, "name": {"type": "text"}}}}})");
  REQUIRE(dom.ok());
  CHECK(dom->find_table("sections")->signed_in);
  CHECK_FALSE(dom->find_table("topics")->signed_in);
  ref_registry reg;
  execution sections(*dom, reg, "db_read", R"({"table":"sections"})", alice_options());
  CHECK(sections.done());
  const auto out = nlohmann::json::parse(sections.result_json());
  CHECK(out["error"]["code"] == "not_signed_in");
  CHECK(out["error"]["message"] ==
        "sections is for signed-in users only, and no signed-in user's access token was given");
  execution counted(*dom, reg, "db_aggregate", R"({"table":"sections","metrics":[{"fn":"count"}]})", alice_options());
  CHECK(nlohmann::json::parse(counted.result_json())["error"]["code"] == "not_signed_in");
  execution topics(*dom, reg, "db_read", R"({"table":"topics"})", alice_options());
  CHECK_FALSE(topics.done());
  execution signed_in(*dom, reg, "db_read", R"({"table":"sections"})", alice_session());
  CHECK_FALSE(signed_in.done());
  auto wrong = parse_domain(
      R"({"name": "t", "tables": {"a": {"ref": "a", "signed_in": "yes", "columns": {"id": {"type": "integer"}}}}})");
  REQUIRE_FALSE(wrong.ok());
  CHECK(wrong.err().path == "tables.a.signed_in");
}

TEST_CASE("the refs are the first signed-in user's: another user's call is refused before any request") {
  run r;
  r.start("db_read", R"({"table": "inventory", "limit": 1})");
  r.answer(0, ok("[]"));
  CHECK(r.result()["error"].is_null());
  CHECK(r.registry.user() == kAlice);
  // Saved and restored, the refs stay hers.
  auto restored = restore(state_text(r.registry));
  REQUIRE(restored.ok());
  CHECK(restored->user() == kAlice);
  CHECK(json::parse(state_text(*restored))["user"] == kAlice);
  // {"role":"authenticated","sub":"b0b0b0b0-0000-4000-8000-00000000000b"}
  request_options bob = alice_options();
  bob.user_id = "b0b0b0b0-0000-4000-8000-00000000000b";
  bob.access_token =
      "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9."
      "eyJyb2xlIjoiYXV0aGVudGljYXRlZCIsInN1YiI6ImIwYjBiMGIwLTAwMDAtNDAwMC04MDAwLTAwMDAwMDAwMDAwYiJ9.c2lnbmF0dXJl";
  execution other(kitchen(), *restored, "db_read", R"({"table": "inventory", "limit": 1})", bob);
  REQUIRE(other.done());
  const json refused = json::parse(other.result_json());
  CHECK(refused["error"]["code"] == "state_of_another_user");
  CHECK(refused["error"]["path"] == "state");
  // Nor may a call when no one is signed in (she signed out; her labels stay hers).
  request_options signed_out = alice_options();
  signed_out.user_id.clear();
  execution anonymous(kitchen(), *restored, "db_read", R"({"table": "inventory", "limit": 1})", signed_out);
  REQUIRE(anonymous.done());
  CHECK(json::parse(anonymous.result_json())["error"]["message"] ==
        "these refs are a signed-in user's, and no one is signed in now");
  // Her own calls go on; a user that is not a string is a damaged state.
  execution again(kitchen(), *restored, "db_read", R"({"table": "inventory", "limit": 1})", alice_session());
  CHECK_FALSE(again.done());
  CHECK(
      restore(
          R"({"format":"alfred-act/registry","version":2,"turn":0,"counters":{},"gen_counters":{},"refs":[],"user":7})")
          .err()
          .path == "user");
}
}  // namespace alfred::test
