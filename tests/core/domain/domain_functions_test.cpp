// A domain's functions and the tables the API does not expose: what loads,
// what each setting becomes, and every refusal with the path it names.
#include <doctest/doctest.h>

#include <string>

#include "../support.h"
#include "../team_domain.h"
#include "alfred/executor/executor.h"

namespace alfred::test {
namespace {

// A domain of one projects table (and the accounts it references) with
// `functions` as given.
std::string with_functions(const std::string& functions) {
  return R"({"name":"t","tables":{
    "accounts":{"ref":"account","exposed":false,"columns":{"id":{"type":"uuid"},"name":{"type":"text"}}},
    "projects":{"ref":"project","columns":{"id":{"type":"uuid"},
      "account_id":{"type":"uuid","references":"accounts"},"n":{"type":"integer"}}}},
    "functions":)" +
         functions + "}";
}

void refused(const std::string& json, const std::string& path, const std::string& message) {
  auto loaded = parse_domain(json);
  REQUIRE_FALSE(loaded.ok());
  CHECK(loaded.err().code == codes::invalid_domain);
  CHECK(loaded.err().path == path);
  CHECK(loaded.err().message == message);
}

}  // namespace

TEST_CASE("functions load with their arguments as columns, what they return and whether they read") {
  const domain& dom = team();
  REQUIRE(dom.functions.size() == 8);
  const db_function* accounts = dom.find_function("get_accounts");
  REQUIRE(accounts);
  CHECK(accounts->read);
  CHECK(accounts->description == "The teams the signed-in user belongs to.\nOne row per team.");
  CHECK(accounts->args.columns.empty());
  CHECK(accounts->returns.type == function_returns::kind::json);

  const db_function* archive = dom.find_function("archive_project");
  REQUIRE(archive);
  CHECK_FALSE(archive->read);
  REQUIRE(archive->args.columns.size() == 1);
  CHECK(archive->args.columns[0].references == "projects");
  CHECK(archive->args.columns[0].required);
  CHECK(archive->returns.type == function_returns::kind::rows);
  CHECK(archive->returns.table == "projects");
  CHECK_FALSE(archive->returns.set);

  const db_function* match = dom.find_function("match_documents");
  REQUIRE(match);
  CHECK(match->embeds("query_embedding"));
  CHECK_FALSE(match->embeds("match_count"));
  CHECK(match->args.find_column("query_embedding")->type == column_type::text);
  CHECK(match->returns.set);

  const db_function* count = dom.find_function("count_open_tickets");
  CHECK(count->returns.type == function_returns::kind::value);
  CHECK(count->returns.value_type == column_type::integer);
  REQUIRE(count->arg_descriptions.size() == 1);
  CHECK(count->arg_descriptions[0] == std::pair<std::string, std::string>{"status", "Which tickets."});
  CHECK(dom.find_function("project_tags")->args.find_column("owner")->user_id);
  CHECK(dom.find_function("touch")->returns.type == function_returns::kind::none);
  CHECK(dom.function_list() ==
        "get_accounts, archive_project, count_open_tickets, match_documents, create_account, current_account, "
        "project_tags, touch");
  CHECK(dom.find_function("nope") == nullptr);
}

TEST_CASE("a table the API does not expose: refs only, never written, left out of the table list") {
  const domain& dom = team();
  const table* accounts = dom.find_table("accounts");
  REQUIRE(accounts);
  CHECK_FALSE(accounts->exposed);
  CHECK_FALSE(accounts->writable);
  CHECK(dom.find_table("projects")->exposed);
  CHECK(dom.table_list() == "projects, tickets, documents");

  refused(R"({"tables":{"a":{"ref":"a","exposed":false,"columns":{"name":{"type":"text"}}}}})", "tables.a.key",
          "a table the API does not expose needs a one-column key, which its refs stand for");
  refused(R"({"tables":{"a":{"ref":"a","exposed":false,"writable":true,"columns":{"id":{"type":"uuid"}}}}})",
          "tables.a.writable", "a table the API does not expose cannot be written");
  refused(R"({"tables":{"a":{"ref":"a","exposed":"no","columns":{"id":{"type":"uuid"}}}}})", "tables.a.exposed",
          "must be true or false");
}

TEST_CASE("a field named like a foreign key of the domain names the table it references, unless names disagree") {
  const domain& dom = team();
  CHECK(dom.field_reference("account_id") == dom.find_table("accounts"));
  CHECK(dom.field_reference("project_id") == dom.find_table("projects"));
  CHECK(dom.field_reference("name") == nullptr);
  CHECK(dom.field_holds_user_id("created_by"));
  CHECK_FALSE(dom.field_holds_user_id("account_id"));

  auto ambiguous = parse_domain(R"({"tables":{
    "a":{"ref":"a","columns":{"id":{"type":"uuid"}}},
    "b":{"ref":"b","columns":{"id":{"type":"uuid"},"other_id":{"type":"uuid","references":"a"}}},
    "c":{"ref":"c","columns":{"id":{"type":"uuid"},"other_id":{"type":"uuid","references":"b"}}}}})");
  REQUIRE(ambiguous.ok());
  CHECK(ambiguous->field_reference("other_id") == nullptr);
}

TEST_CASE("a function's settings are checked, each refusal at its path") {
  CHECK(parse_domain(with_functions(R"({"f":{"returns":{"type":"void"}}})")).ok());
  refused(with_functions(R"({"f":{"returns":{"type":"void"}, "volatile": true}})"), "functions.f.volatile",
          "'volatile' is not a domain setting");
  refused(with_functions(R"({"F":{"returns":{"type":"void"}}})"), "functions.F",
          "function name 'F' is not a lower-case identifier");
  refused(with_functions(R"({"f":{}})"), "functions.f.returns", "is required: {\"table\": …}, {\"type\": …}");
  refused(with_functions(R"({"f":{"returns":{"table":"nope"}}})"), "functions.f.returns.table", "unknown table 'nope'");
  refused(with_functions(R"({"f":{"returns":{"type":"money"}}})"), "functions.f.returns.type",
          "unknown type 'money': a column type, json or void");
  refused(with_functions(R"({"f":{"returns":{"table":"projects","type":"json"}}})"), "functions.f.returns",
          "gives both \"table\" and \"type\": a function returns rows of a table or values");
  refused(with_functions(R"({"f":{"returns":{"type":"void","set":true}}})"), "functions.f.returns.set",
          "a function that returns nothing returns no set");
  refused(with_functions(R"({"f":{"returns":{"type":"json","references":"projects"}}})"),
          "functions.f.returns.references", "only a returned value can reference a table");
  refused(with_functions(R"({"f":{"returns":{"type":"integer","references":"projects"}}})"),
          "functions.f.returns.references", "integer values are not keys of projects");
  refused(with_functions(R"({"f":{"read":"yes","returns":{"type":"void"}}})"), "functions.f.read",
          "must be true or false");
  refused(with_functions(R"({"f":{"args":{"x":{"type":"uuid"}},"returns":{"type":"void"}}})"), "functions.f.args.x",
          "a uuid column must reference a table (or auth.users)");
  refused(with_functions(R"({"f":{"args":{"x":{"type":"uuid","references":"nope"}},"returns":{"type":"void"}}})"),
          "functions.f.args.x", "references unknown table 'nope'");
  refused(with_functions(R"({"f":{"args":{"x":{"type":"integer","writable":false}},"returns":{"type":"void"}}})"),
          "functions.f.args.x.writable", "'writable' is a column setting, not an argument's");
  refused(with_functions(R"({"f":{"args":{"x":{"type":"vector","values":["a"]}},"returns":{"type":"void"}}})"),
          "functions.f.args.x.values", "'values' is not a domain setting");
  refused(with_functions(R"({"f":{"args":{"x":{"type":"text","description":5}},"returns":{"type":"void"}}})"),
          "functions.f.args.x.description", "must be text");
  refused(with_functions(R"([])"), "functions", "must be an object of function name → settings");
  // A text argument may take a uuid key (sent as text); other types may not, nor may a table's text column.
  refused(
      with_functions(R"({"f":{"args":{"x":{"type":"integer","references":"projects"}},"returns":{"type":"void"}}})"),
      "functions.f.args.x", "is integer but the key of projects (id) is uuid");
  auto text_arg = parse_domain(
      with_functions(R"({"f":{"args":{"x":{"type":"text","references":"projects"}},"returns":{"type":"void"}}})"));
  REQUIRE(text_arg.ok());
  CHECK(text_arg->find_function("f")->args.find_column("x")->references == "projects");
}

TEST_CASE("a function returning JSON may name the result columns to select, and a call selects them") {
  auto loaded = parse_domain(
      with_functions(R"({"match":{"read":true,"returns":{"type":"json","set":true,"columns":["id","content"]}}})"));
  REQUIRE(loaded.ok());
  CHECK(loaded->find_function("match")->returns.columns == "id,content");
  ref_registry registry;
  execution ex(*loaded, registry, "db_call", R"({"function":"match"})", alice_session(), {});
  REQUIRE(ex.needs().size() == 1);
  CHECK(ex.needs().front().request.url == "http://127.0.0.1:3000/rpc/match?select=id%2Ccontent");
  const std::string message = "lists a JSON result's columns";
  refused(with_functions(R"({"f":{"returns":{"table":"projects","columns":["id"]}}})"), "functions.f.returns.columns",
          message);
  refused(with_functions(R"({"f":{"returns":{"type":"json","columns":["Id;x"]}}})"), "functions.f.returns.columns",
          message);
  refused(with_functions(R"({"f":{"returns":{"type":"json","columns":"id"}}})"), "functions.f.returns.columns",
          "must be an array of strings");
}

TEST_CASE("an argument may have a name PostgREST reserves: it is sent in the body, never in a query string") {
  auto loaded = parse_domain(
      with_functions(R"({"f":{"read":true,"args":{"limit":{"type":"integer"}},"returns":{"type":"json"}}})"));
  REQUIRE(loaded.ok());
  CHECK(loaded->find_function("f")->args.find_column("limit") != nullptr);
}

}  // namespace alfred::test
