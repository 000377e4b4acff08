// A function's JSON and values as rows the model may see: refs for fields
// named like the domain's foreign keys, `me` or a user's ref for user ids.
#include "alfred/rows/function_result.h"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "../support.h"
#include "../team_domain.h"
#include "alfred/rows/row_translation.h"

namespace alfred::test {
namespace {

using nlohmann::json;

json translated(std::string_view body, ref_registry& reg, std::size_t* n = nullptr) {
  auto out = translate_function_json(team(), reg, body, kAlice, n);
  REQUIRE(out.ok());
  return json::parse(*out);
}

}  // namespace

TEST_CASE("function JSON: a list of objects, one object, a value, null") {
  ref_registry reg = team_registry();
  std::size_t n = 0;
  CHECK(translated(R"([{"a":1},{"a":2}])", reg, &n) == json::parse(R"([{"a":1},{"a":2}])"));
  CHECK(n == 2);
  CHECK(translated(R"({"a":1})", reg, &n) == json::parse(R"([{"a":1}])"));
  CHECK(n == 1);
  CHECK(translated("42", reg, &n) == json::parse(R"([{"value":42}])"));
  CHECK(translated("null", reg, &n) == json::array());
  CHECK(n == 0);
  CHECK(translated("", reg) == json::array());
  CHECK(translated(R"([1,"x"])", reg) == json::parse(R"([{"value":1},{"value":"x"}])"));
}

TEST_CASE("function JSON: a key under a foreign key's name becomes its ref, and the object without an id labels it") {
  ref_registry reg = team_registry();
  const std::string body = std::string(R"([{"account_id":")") + kAccountBeta +
                           R"(","name":"Beta","nested":{"project_id":")" + kProjectOne + R"("}}])";
  CHECK(translated(body, reg) ==
        json::parse(R"([{"account_id":"account_2","name":"Beta","nested":{"project_id":"project_1"}}])"));
  CHECK(reg.find("account_2")->label == "Beta");
  CHECK(reg.find("account_2")->action == ref_action::linked);
  // project_1 keeps its label and action: a nested mention does not relabel it.
  CHECK(reg.find("project_1")->label == "Apollo");
  CHECK(reg.find("project_1")->action == ref_action::read);
}

TEST_CASE("function JSON: the row the call named is relabelled as the answer describes it, a listing's object not") {
  ref_registry reg = team_registry();
  translated(std::string(R"({"account_id":")") + kAccountBeta + R"(","name":"Beta"})", reg);
  REQUIRE(reg.find("account_2")->label == "Beta");
  const std::vector<std::string> beta{kAccountBeta};
  auto named = [&](std::string body) {
    auto out = translate_function_json(team(), reg, body, kAlice, nullptr, beta);
    REQUIRE(out.ok());
  };
  // update_account(account_id = account_2) answers with the new name: later results and hints show it.
  named(std::string(R"({"account_id":")") + kAccountBeta + R"(","name":"Beta Corp","slug":"beta"})");
  CHECK(reg.find("account_2")->label == "Beta Corp");
  // An answer without the label's columns leaves the label as it was.
  named(std::string(R"({"account_id":")") + kAccountBeta + R"(","account_role":"owner"})");
  CHECK(reg.find("account_2")->label == "Beta Corp");
  // A listing whose objects hold another row's name (a member of Acme) does not relabel a known row.
  translated(std::string(R"([{"account_id":")") + kAccountAcme + R"(","name":"Ben Smith","email":"b@x.com"}])", reg);
  CHECK(reg.find("account_1")->label == "Acme");
  // A mention inside another row's object does not relabel it.
  named(std::string(R"({"id":7,"account_id":")") + kAccountBeta + R"(","name":"A project"})");
  CHECK(reg.find("account_2")->label == "Beta Corp");
}

TEST_CASE("function JSON: an object with an id of its own does not label the rows it references") {
  ref_registry reg;
  translated(std::string(R"({"id":7,"account_id":")") + kAccountBeta + R"(","name":"A project"})", reg);
  CHECK(reg.find("account_1")->label.empty());
}

TEST_CASE("function JSON: a value that is not a key of the table stays as it is, for the scrub") {
  ref_registry reg;
  CHECK(translated(R"({"account_id":"not-a-uuid","project_id":12})", reg) ==
        json::parse(R"([{"account_id":"not-a-uuid","project_id":12}])"));
  CHECK(reg.entries().empty());
}

TEST_CASE("function JSON: the signed-in user's id is me, and another user's a ref labelled by the name beside it") {
  ref_registry reg;
  const std::string bob = "0b4a6c5d-1e7f-4a2b-9d54-556677889900";
  const std::string body = std::string(R"([{"created_by":")") + kAlice + R"(","name":"Alice"},{"created_by":")" + bob +
                           R"(","name":"Bob","x":1}])";
  const json out = translated(body, reg);
  CHECK(out == json::parse(R"([{"created_by":"me","name":"Alice"},{"created_by":"user_1","name":"Bob","x":1}])"));
  REQUIRE(reg.entries().size() == 1);
  CHECK(reg.entries()[0].table == "auth.users");
  CHECK(reg.entries()[0].label == "Bob");
  CHECK(reg.resolve("user_1")->key == bob);
  CHECK(out.dump().find(bob) == std::string::npos);
}

TEST_CASE("function JSON: the row an object without an id describes: a member list's user_id, else another row's key") {
  const std::string bob = "0b4a6c5d-1e7f-4a2b-9d54-556677889900";
  const std::string carol = "1c5b7d6e-2f80-4b3c-8e65-667788990011";
  ref_registry reg;
  // A team's line with its creator: the name is the team's, whoever created it.
  translated(R"([{"created_by":")" + bob + R"(","account_id":")" + kAccountAcme + R"(","name":"Acme"}])", reg);
  CHECK(reg.find("account_1")->label == "Acme");
  CHECK(reg.find("user_1")->label.empty());
  // A member list that carries the team and who invited each: the names are the members'.
  ref_registry members;
  translated(std::string(R"([{"user_id":")") + kAlice + R"(","account_id":")" + kAccountBeta +
                 R"(","name":"Me Myself"},{"created_by":")" + carol + R"(","user_id":")" + bob + R"(","account_id":")" +
                 kAccountBeta + R"(","name":"Bob"},{"user_id":")" + carol + R"(","account_id":")" + kAccountBeta +
                 R"(","name":"Carol"}])",
             members);
  const ref_entry* beta = members.find_by_uuid_preferring(kAccountBeta, "account");
  REQUIRE(beta != nullptr);
  CHECK(beta->label.empty());
  CHECK(members.find_by_uuid_preferring(bob, "user")->label == "Bob");
  CHECK(members.find_by_uuid_preferring(carol, "user")->label == "Carol");
}

TEST_CASE(
    "function JSON: a table's own key names no field, so an answer's id is no user's even beside a profile table") {
  auto dom = parse_domain(R"({"name": "d", "tables": {"profiles": {"ref": "profile", "owner": "id", "label": ["name"],
    "columns": {"id": {"type": "uuid", "writable": false, "nullable": false}, "name": {"type": "text"}}}}})");
  REQUIRE(dom.ok());
  CHECK(dom->users_table() == dom->find_table("profiles"));
  CHECK(dom->field_reference("id") == nullptr);
  // A key that is a foreign key under its own name (one billing row per account) still names its field.
  auto billing = parse_domain(R"({"name": "d", "tables": {
    "accounts": {"ref": "account", "label": ["name"], "columns": {"id": {"type": "uuid"}, "name": {"type": "text"}}},
    "billing": {"ref": "bill", "key": "account_id", "columns": {"account_id": {"type": "uuid", "references": "accounts"},
                                                                 "plan": {"type": "text"}}}}})");
  REQUIRE(billing.ok());
  CHECK(billing->field_reference("account_id") == billing->find_table("accounts"));
  ref_registry reg;
  auto out =
      translate_function_json(*dom, reg, std::string(R"([{"id":")") + kAccountAcme + R"(","name":"Acme"}])", kAlice);
  REQUIRE(out.ok());
  CHECK(reg.entries().empty());
}

TEST_CASE("function JSON: a member list's user_id holds user ids where no column of the domain has that name") {
  auto dom = parse_domain(R"({"name": "d", "tables": {"tasks": {"ref": "task", "label": ["title"],
    "columns": {"id": {"type": "uuid"}, "title": {"type": "text"}}}},
    "functions": {"team_members": {"read": true, "returns": {"type": "json"}}}})");
  REQUIRE(dom.ok());
  ref_registry reg;
  const std::string bob = "0b4a6c5d-1e7f-4a2b-9d54-556677889900";
  auto out = translate_function_json(
      *dom, reg,
      std::string(R"([{"user_id":")") + kAlice + R"(","name":"Me"},{"user_id":")" + bob + R"(","name":"Bob"}])",
      kAlice);
  REQUIRE(out.ok());
  CHECK(json::parse(*out) == json::parse(R"([{"user_id":"me","name":"Me"},{"user_id":"user_1","name":"Bob"}])"));
  CHECK(reg.find("user_1")->label == "Bob");
}

TEST_CASE("function JSON: beside a domain table whose refs are user_…, other users are userx_…") {
  auto dom = parse_domain(R"({"name": "d", "tables": {"people": {"ref": "user", "label": ["name"],
    "columns": {"id": {"type": "uuid"}, "name": {"type": "text"},
                "created_by": {"type": "uuid", "references": "auth.users"}}}}})");
  REQUIRE(dom.ok());
  REQUIRE(dom->users_table() != nullptr);
  CHECK(dom->users_table()->ref_prefix == "userx");
  ref_registry reg;
  const std::string body = std::string(R"([{"created_by":")") + kAlice +
                           R"("},{"created_by":"0b4a6c5d-1e7f-4a2b-9d54-556677889900","x":1}])";
  auto out = translate_function_json(*dom, reg, body, kAlice);
  REQUIRE(out.ok());
  CHECK(json::parse(*out) == json::parse(R"([{"created_by":"me"},{"created_by":"userx_1","x":1}])"));
}

TEST_CASE("function JSON: invalid JSON is an error and registers nothing") {
  ref_registry reg;
  auto out = translate_function_json(team(), reg, std::string(R"([{"account_id":")") + kAccountBeta + "\"}", kAlice);
  REQUIRE_FALSE(out.ok());
  CHECK(out.err().code == codes::invalid_json);
  CHECK(reg.entries().empty());
}

TEST_CASE("function values: one value (a list included) is one row, and a set is a row per value") {
  ref_registry reg = team_registry();
  const db_function& tags = *team().find_function("project_tags");
  std::size_t n = 0;
  auto set = translate_function_values(team(), reg, tags, R"(["a","b"])", &n);
  REQUIRE(set.ok());
  CHECK(json::parse(*set) == json::parse(R"([{"value":"a"},{"value":"b"}])"));
  CHECK(n == 2);
  const db_function& count = *team().find_function("count_open_tickets");
  auto one = translate_function_values(team(), reg, count, "12", &n);
  CHECK(json::parse(*one) == json::parse(R"([{"value":12}])"));
  CHECK(n == 1);
  const db_function& current = *team().find_function("current_account");
  auto ref = translate_function_values(team(), reg, current, std::string("\"") + kAccountAcme + "\"");
  CHECK(json::parse(*ref) == json::parse(R"([{"value":"account_1"}])"));
}

}  // namespace alfred::test

namespace alfred::test {

TEST_CASE("a foreign key holding the signed-in user's id is me only where its table is keyed by user ids") {
  // A personal account shares its owner's id (basejump): it is a row of accounts, not the user.
  ref_registry reg = team_registry();
  auto rows = translate_rows(team(), reg, *team().find_table("projects"),
                             std::string(R"([{"id":")") + kProjectOne + R"(","account_id":")" + kAlice +
                                 R"(","name":"Apollo","created_by":")" + kAlice + "\"}]",
                             ref_action::read, kAlice);
  REQUIRE(rows.ok());
  const json out = json::parse(*rows);
  CHECK(out[0]["account_id"] == "account_2");
  CHECK(out[0]["created_by"] == "me");
}

TEST_CASE("a row's user id column: another user is the ref a member list labelled, the query never shows a UUID") {
  const std::string bob = "0b4a6c5d-1e7f-4a2b-9d54-556677889900";
  ref_registry reg = team_registry();
  // A list of people first (get_account_members' objects, under a user-id field of this domain), then the projects
  // they created.
  REQUIRE(translate_function_json(team(), reg, R"([{"created_by":")" + bob + R"(","name":"Bob","email":"bob@x.com"}])",
                                  kAlice)
              .ok());
  auto rows =
      translate_rows(team(), reg, *team().find_table("projects"),
                     std::string(R"([{"id":")") + kProjectOne + R"(","name":"Apollo","created_by":")" + bob + "\"}]",
                     ref_action::read, kAlice);
  REQUIRE(rows.ok());
  CHECK(json::parse(*rows) ==
        json::parse(R"([{"id":"project_1","name":"Apollo","created_by":"user_1","_created_by_label":"Bob"}])"));
  // Unknown until a row shows them: a ref without a label.
  const std::string carol = "1c5b7d6e-2f80-4b3c-8e65-667788990011";
  auto unnamed =
      translate_rows(team(), reg, *team().find_table("projects"),
                     R"([{"id":"8e3f5c4b-0d60-4fb1-8c43-445566778899","name":"B","created_by":")" + carol + "\"}]",
                     ref_action::read, kAlice);
  REQUIRE(unnamed.ok());
  CHECK(json::parse(*unnamed)[0]["created_by"] == "user_2");
  CHECK(unnamed->find(carol) == std::string::npos);
}

}  // namespace alfred::test
