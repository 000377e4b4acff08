// db_call's params validated against the domain's functions: each mistake a
// model makes is refused before any request with a code, a path into the
// params and a hint; what passes has its refs translated.
#include <doctest/doctest.h>

#include <string>

#include "../support.h"
#include "../team_domain.h"
#include "alfred/tool_call/tool_call.h"

namespace alfred::test {
namespace {

result<tool_call> call(std::string_view params, const ref_registry& reg = team_registry(),
                       std::span<const fixed_value> fixed = {}) {
  auto doc = json_document::parse(params);
  REQUIRE(doc.ok());
  return parse_tool_call(team(), reg, "db_call", doc->root(), kAlice, fixed);
}

void refused(std::string_view params, std::string_view code, std::string_view path, std::string_view message,
             std::string_view hint = {}) {
  auto parsed = call(params);
  REQUIRE_FALSE(parsed.ok());
  CHECK(parsed.err().code.name() == code);
  CHECK(parsed.err().path == path);
  CHECK(parsed.err().message == message);
  if (!hint.empty()) CHECK(parsed.err().hint == hint);
}

std::string args_text(const tool_call& c) {
  std::string out;
  for (const auto& field : c.args) out += std::string(field.column) + "=" + field.json + ";";
  return out;
}

}  // namespace

TEST_CASE("db_call: a function and its arguments, refs translated to keys, in the order the function declares") {
  auto archived = call(R"({"function":"archive_project","args":{"project_id":"project_1"}})");
  REQUIRE(archived.ok());
  CHECK(archived->kind == tool_kind::call);
  CHECK(archived->fn == team().find_function("archive_project"));
  CHECK(archived->tbl == team().find_table("projects"));
  CHECK(args_text(*archived) == std::string("project_id=\"") + kProjectOne + "\";");
  CHECK(writes(*archived));

  auto counted =
      call(R"({"function":"count_open_tickets","args":{"limit":5,"project_id":"project_1","status":"open"}})");
  REQUIRE(counted.ok());
  CHECK(args_text(*counted) == std::string("project_id=\"") + kProjectOne + "\";status=\"open\";limit=5;");
  CHECK_FALSE(writes(*counted));
  CHECK(counted->tbl == nullptr);

  auto listed = call(R"({"function":"get_accounts"})");
  REQUIRE(listed.ok());
  CHECK(listed->args.empty());
  CHECK(call(R"({"function":"get_accounts","args":{}})").ok());
  CHECK(call(R"({"function":"get_accounts","args":null})").ok());

  auto mine = call(R"({"function":"project_tags","args":{"owner":"me","tags":["a","b"]}})");
  REQUIRE(mine.ok());
  CHECK(args_text(*mine) == std::string("tags=[\"a\",\"b\"];owner=\"") + kAlice + "\";");
}

TEST_CASE("db_call: strict mode's args as JSON text, and nulls for what is left out") {
  auto strict = call(R"({"function":"count_open_tickets","args":"{\"project_id\":\"project_1\",\"status\":null}"})");
  REQUIRE(strict.ok());
  CHECK(args_text(*strict) == std::string("project_id=\"") + kProjectOne + "\";");
  refused(R"({"function":"get_accounts","args":"not json"})", "invalid_param", "args",
          "args is text that is not a JSON object of the function's arguments");
}

TEST_CASE("db_call: a vector argument takes the text to embed, never numbers") {
  auto search = call(R"({"function":"match_documents","args":{"query_embedding":"lisbon contract","match_count":3}})");
  REQUIRE(search.ok());
  REQUIRE(search->embeds.size() == 1);
  CHECK(search->embeds[0].first == "query_embedding");
  CHECK(search->embeds[0].second == "lisbon contract");
  CHECK(args_text(*search) == "match_count=3;");
  refused(R"({"function":"match_documents","args":{"query_embedding":[0.1,0.2]}})", "invalid_value",
          "args.query_embedding", "query_embedding is searched by meaning: give the text to search for, got an array");
  refused(R"({"function":"match_documents","args":{"query_embedding":"  "}})", "invalid_value", "args.query_embedding",
          "query_embedding is searched by meaning: give the text to search for, got empty text");
}

TEST_CASE("db_call: every mistake is refused before any request, with a path and a hint") {
  refused(R"({})", "missing_param", "function", "function is required",
          "one of: get_accounts, archive_project, count_open_tickets, match_documents, create_account, "
          "current_account, project_tags, touch");
  refused(R"({"function":7})", "invalid_param", "function", "function must be a function's name, got a number");
  refused(R"({"function":"delete_everything"})", "unknown_function", "function",
          "'delete_everything' is not a function of the teams database");
  {
    // A domain pulled without a project name is "database": not "the database database".
    domain unnamed = team();
    unnamed.name = "database";
    auto doc = json_document::parse(R"({"function":"delete_everything"})");
    auto parsed = parse_tool_call(unnamed, team_registry(), "db_call", doc->root(), kAlice, {});
    REQUIRE_FALSE(parsed.ok());
    CHECK(parsed.err().message == "'delete_everything' is not a function of the database");
  }
  refused(R"({"function":"get_accounts","table":"projects"})", "unknown_param", "table",
          "db_call does not take 'table'", "allowed: function, args, limit, offset");
  // A page is of a set: a function that returns one value has none.
  refused(R"({"function":"count_open_tickets","args":{"project_id":"project_1"},"offset":5})", "invalid_param",
          "offset", "count_open_tickets returns no set of rows to page through",
          "leave limit and offset out of this call");
  refused(R"({"function":"project_tags","limit":0})", "invalid_param", "limit",
          "limit must be between 1 and 1000, got 0");
  // A page of a function that changes data would call it again: refused, whatever it returns.
  refused(R"({"function":"archive_project","args":{"project_id":"project_1"},"limit":5})", "invalid_param", "limit",
          "archive_project changes data: a page of its rows would call it again",
          "leave limit and offset out of this call");
  // Strict mode's offset 0 is no offset.
  auto first_page = call(R"({"function":"count_open_tickets","args":{"project_id":"project_1"},"offset":0})");
  REQUIRE(first_page.ok());
  CHECK_FALSE(first_page->offset);
  auto paged = call(R"({"function":"project_tags","limit":5,"offset":10})");
  REQUIRE(paged.ok());
  CHECK(paged->limit == 5);
  CHECK(paged->offset == 10);
  refused(R"({"function":"archive_project","args":{}})", "missing_argument", "args.project_id",
          "archive_project needs project_id", "archive_project takes archive_project(project_id: ref of projects)");
  refused(R"({"function":"archive_project","args":{"project":"project_1"}})", "unknown_argument", "args.project",
          "archive_project takes no argument 'project'",
          "archive_project takes archive_project(project_id: ref of projects)");
  refused(R"({"function":"get_accounts","args":{"x":1}})", "unknown_argument", "args.x",
          "get_accounts takes no argument 'x'", "it takes no arguments: give \"args\": {}");
  refused(R"({"function":"get_accounts","args":[1]})", "invalid_param", "args",
          "args must be an object of the function's arguments, got an array");
  refused(R"({"function":"count_open_tickets","args":{"project_id":"project_1","status":"pending"}})", "invalid_value",
          "args.status", "'pending' is not an allowed value for status");
  refused(R"({"function":"count_open_tickets","args":{"project_id":"project_1","limit":"many"}})", "invalid_value",
          "args.limit", "limit expects a whole number such as 30, got 'many'");
  refused(R"({"function":"archive_project","args":{"project_id":"account_1"}})", "ref_type_mismatch", "args.project_id",
          "account_1 (Acme) is a row of accounts, but project_id takes a ref to projects (project_N)");
  refused(R"({"function":"archive_project","args":{"project_id":"project_9"}})", "unknown_ref", "args.project_id",
          "project_9 is not a known ref; refs cannot be invented");
}

TEST_CASE("db_call: a raw key where a ref belongs is refused, and never answered with another row's ref") {
  auto raw = call(std::string(R"({"function":"archive_project","args":{"project_id":")") + kProjectOne + "\"}}");
  REQUIRE_FALSE(raw.ok());
  CHECK(raw.err().code == codes::raw_id);
  CHECK(raw.err().path == "args.project_id");
}

TEST_CASE("db_call: a value the app fixes fills its argument, and the model may not give it") {
  const std::vector<fixed_value> fixed{{"account_id", std::string("\"") + kAccountBeta + "\""}};
  auto current = call(R"({"function":"current_account","args":{}})", team_registry(), fixed);
  REQUIRE(current.ok());
  CHECK(args_text(*current) == std::string("account_id=\"") + kAccountBeta + "\";");
  auto given = call(R"({"function":"current_account","args":{"account_id":"account_1"}})", team_registry(), fixed);
  REQUIRE_FALSE(given.ok());
  CHECK(given.err().code == codes::system_column);
  CHECK(given.err().path == "args.account_id");
  const std::vector<fixed_value> wrong{{"account_id", "42"}};
  auto bad = call(R"({"function":"current_account"})", team_registry(), wrong);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.err().code == codes::invalid_option);
}

TEST_CASE("db_create: a value the app fixes fills the column on every create, and the model may not write it") {
  const std::vector<fixed_value> fixed{{"account_id", std::string("\"") + kAccountBeta + "\""}};
  auto doc = json_document::parse(R"({"table":"projects","data":{"name":"Zeus"}})");
  auto created = parse_tool_call(team(), team_registry(), "db_create", doc->root(), kAlice, fixed);
  REQUIRE(created.ok());
  REQUIRE(created->rows.size() == 1);
  CHECK(created->rows[0].back().column == "account_id");
  CHECK(created->rows[0].back().json == std::string("\"") + kAccountBeta + "\"");
  auto overridden = json_document::parse(R"({"table":"projects","data":{"name":"Zeus","account_id":"account_1"}})");
  auto refused_create = parse_tool_call(team(), team_registry(), "db_create", overridden->root(), kAlice, fixed);
  REQUIRE_FALSE(refused_create.ok());
  CHECK(refused_create.err().code == codes::system_column);
  CHECK(refused_create.err().path == "data.account_id");
}

TEST_CASE("db_create: a required column that references a table the API does not expose takes its ref") {
  auto missing = json_document::parse(R"({"table":"projects","data":{"name":"Zeus"}})");
  auto refused_create = parse_tool_call(team(), team_registry(), "db_create", missing->root(), kAlice);
  REQUIRE_FALSE(refused_create.ok());
  CHECK(refused_create.err().code == codes::missing_column);
  CHECK(refused_create.err().path == "data");
  CHECK(refused_create.err().message == "account_id is required to create a row in projects");
  auto given = json_document::parse(R"({"table":"projects","data":{"name":"Zeus","account_id":"account_1"}})");
  auto created = parse_tool_call(team(), team_registry(), "db_create", given->root(), kAlice);
  REQUIRE(created.ok());
  CHECK(created->rows[0][1].json == std::string("\"") + kAccountAcme + "\"");
}

TEST_CASE("a table the API does not expose cannot be read or written: the hint names the functions") {
  auto doc = json_document::parse(R"({"table":"accounts"})");
  auto read = parse_tool_call(team(), team_registry(), "db_read", doc->root(), kAlice);
  REQUIRE_FALSE(read.ok());
  CHECK(read.err().code == codes::unknown_table);
  CHECK(read.err().message ==
        "accounts is not a table the database serves: its rows are refs (account_N) that function results and the "
        "rows referencing them give");
  // The functions whose name says they list accounts, not every function, and
  // the tables whose rows show account refs, not every table.
  CHECK(read.err().hint == "call get_accounts() (db_call), or read projects (their rows show account refs)");
}

TEST_CASE(
    "the functions a hint names for a table's refs, only those that read: a word of the name is the table, else "
    "the name ends with its row, else those whose results show its refs, else none") {
  const domain& dom = team();
  CHECK(dom.ref_sources(*dom.find_table("accounts")) == "get_accounts()");
  CHECK(dom.ref_sources(*dom.find_table("documents")) == "match_documents()");
  // archive_project's name says projects too, but it changes data: a hint
  // for refs never sends the model to it.
  CHECK(dom.ref_sources(*dom.find_table("projects")) == "project_tags()");
  table nothing_names_it;
  nothing_names_it.name = "labels";
  CHECK(dom.ref_sources(nothing_names_it).empty());
  CHECK(dom.ref_source_hint(nothing_names_it).empty());
  // No name says "objects": the function returning rows that reference them is named, not the others.
  auto parsed = parse_domain(R"json({"name": "files", "tables": {
    "objects": {"ref": "object", "exposed": false, "columns": {"id": {"type": "uuid"}, "name": {"type": "text"}}},
    "documents": {"ref": "doc", "label": ["name"], "columns": {"id": {"type": "uuid", "writable": false},
                  "name": {"type": "text"}, "storage_object_id": {"type": "uuid", "references": "objects"}}},
    "sections": {"ref": "section", "columns": {"id": {"type": "uuid", "writable": false},
                 "content": {"type": "text"}}}},
    "functions": {"match_sections": {"read": true, "returns": {"table": "sections", "set": true}},
                  "find_documents": {"read": true, "returns": {"table": "documents", "set": true}},
                  "import_documents": {"returns": {"table": "documents", "set": true}},
                  "latest_file": {"read": true, "returns": {"type": "uuid", "references": "objects"}}}})json");
  REQUIRE(parsed.ok());
  const table& objects = *parsed->find_table("objects");
  CHECK(parsed->ref_sources(objects) == "find_documents(), latest_file()");
  CHECK(parsed->referencing_tables(objects) == "documents");
  CHECK(parsed->ref_source_hint(objects) ==
        "call find_documents(), latest_file() (db_call), or read documents (their rows show object refs)");
}

TEST_CASE("a ref of a table the API does not expose: the hints say which functions hand refs out") {
  ref_registry empty;
  auto doc = json_document::parse(R"({"table":"projects","data":{"name":"X","account_id":"Acme"}})");
  auto created = parse_tool_call(team(), empty, "db_create", doc->root(), kAlice);
  REQUIRE_FALSE(created.ok());
  CHECK(created.err().code == codes::not_a_ref);
  CHECK(created.err().hint ==
        "no account refs are known yet; call get_accounts() (db_call), or read projects (their rows show account "
        "refs) first to get refs");
  // With refs known, they are listed, and the way to find more stays; a
  // known row's name gets its ref.
  auto other = json_document::parse(R"({"table":"projects","data":{"name":"X","account_id":"Globex"}})");
  auto known = parse_tool_call(team(), team_registry(), "db_create", other->root(), kAlice);
  REQUIRE_FALSE(known.ok());
  CHECK(known.err().hint ==
        "known account refs: account_1 (Acme); to find rows by name, call get_accounts() (db_call), or read "
        "projects (their rows show account refs)");
  auto named = parse_tool_call(team(), team_registry(), "db_create", doc->root(), kAlice);
  REQUIRE_FALSE(named.ok());
  CHECK(named.err().hint == "use the ref account_1");
}

TEST_CASE("a name two rows share is not taken for either: the model asks the user") {
  ref_registry reg = team_registry();
  reg.register_row("accounts", "account", kAccountBeta, ref_action::linked, "Acme");
  auto doc = json_document::parse(R"({"table":"projects","data":{"name":"X","account_id":"acme"}})");
  auto created = parse_tool_call(team(), reg, "db_create", doc->root(), kAlice);
  REQUIRE_FALSE(created.ok());
  CHECK(created.err().code == codes::not_a_ref);
  CHECK(created.err().message == "account_id takes a ref, not a name; 'acme' is the label of account_1 and account_2");
  CHECK(created.err().hint == "ask the user which one they mean (account_1, account_2), then use its ref");
}

TEST_CASE("db_call: a user id argument takes me or another user's ref, never a UUID or a name") {
  const std::string bob = "0b4a6c5d-1e7f-4a2b-9d54-556677889900";
  ref_registry none = team_registry();
  auto unknown = call(R"({"function":"project_tags","args":{"owner":"user_1"}})", none);
  REQUIRE_FALSE(unknown.ok());
  CHECK(unknown.err().code == codes::unknown_ref);
  CHECK(unknown.err().hint ==
        "me is the signed-in user; others get refs from the rows and function answers that show them (a team's "
        "members)");

  ref_registry reg = team_registry();
  reg.register_row("auth.users", "user", bob, ref_action::linked, "Bob");
  auto theirs = call(R"({"function":"project_tags","args":{"owner":"user_1"}})", reg);
  REQUIRE(theirs.ok());
  CHECK(args_text(*theirs) == "owner=\"" + bob + "\";");
  auto mine = call(R"({"function":"project_tags","args":{"owner":"me"}})", reg);
  REQUIRE(mine.ok());
  CHECK(args_text(*mine) == std::string("owner=\"") + kAlice + "\";");
  auto named = call(R"({"function":"project_tags","args":{"owner":"bob"}})", reg);
  REQUIRE_FALSE(named.ok());
  CHECK(named.err().code == codes::not_a_ref);
  CHECK(named.err().hint == "use the ref user_1");
  auto pasted = call(R"({"function":"project_tags","args":{"owner":")" + bob + "\"}}", reg);
  REQUIRE_FALSE(pasted.ok());
  CHECK(pasted.err().code == codes::raw_id);
  CHECK(pasted.err().hint == "use the ref user_1");
  auto other_table = call(R"({"function":"project_tags","args":{"owner":"account_1"}})", reg);
  REQUIRE_FALSE(other_table.ok());
  CHECK(other_table.err().code == codes::ref_type_mismatch);
  CHECK(other_table.err().hint == "known user refs: user_1 (Bob); me is the signed-in user");
  auto misnamed = call(R"({"function":"project_tags","args":{"user":"user_1"}})", reg);
  REQUIRE_FALSE(misnamed.ok());
  CHECK(misnamed.err().hint.find("owner?: me or a user ref") != std::string::npos);
}

TEST_CASE("a domain of functions and no table served: hints point at db_call, not at tables it has none of") {
  auto parsed = parse_domain(R"json({"name": "teams", "tables": {
    "accounts": {"ref": "account", "exposed": false, "label": ["name"],
                 "columns": {"id": {"type": "uuid"}, "name": {"type": "text"}}}},
    "functions": {"get_accounts": {"read": true, "returns": {"type": "json"}},
                  "get_account": {"read": true, "args": {"account_id": {"type": "uuid", "required": true,
                                  "references": "accounts"}}, "returns": {"type": "json"}}}})json");
  REQUIRE(parsed.ok());
  const domain& dom = *parsed;
  ref_registry reg;
  auto read = json_document::parse(R"({"table":"accounts"})");
  auto refused = parse_tool_call(dom, reg, "db_read", read->root(), kAlice);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.err().hint == "call get_accounts() (db_call)");
  auto other = json_document::parse(R"({"table":"teams"})");
  auto unknown = parse_tool_call(dom, reg, "db_read", other->root(), kAlice);
  REQUIRE_FALSE(unknown.ok());
  CHECK(unknown.err().hint == "no table is served here: call a function with db_call (get_accounts, get_account)");
  auto tool = parse_tool_call(dom, reg, "db_schema", read->root(), kAlice);
  REQUIRE_FALSE(tool.ok());
  CHECK(tool.err().hint == "one of: db_call");
}

TEST_CASE(
    "a table the API does not serve, in a domain without functions: the hint names the tables whose rows reference "
    "it") {
  auto parsed = parse_domain(R"json({"name": "plain", "tables": {
    "accounts": {"ref": "account", "exposed": false, "label": ["name"],
                 "columns": {"id": {"type": "uuid"}, "name": {"type": "text"}}},
    "projects": {"ref": "project", "label": ["name"], "columns": {"id": {"type": "uuid", "writable": false},
                 "name": {"type": "text"}, "account_id": {"type": "uuid", "references": "accounts"}}}}})json");
  REQUIRE(parsed.ok());
  ref_registry reg;
  auto doc = json_document::parse(R"({"table":"projects","data":{"name":"X","account_id":"Acme"}})");
  auto created = parse_tool_call(*parsed, reg, "db_create", doc->root(), kAlice);
  REQUIRE_FALSE(created.ok());
  CHECK(created.err().hint ==
        "no account refs are known yet; read projects (their rows show account refs) first to get refs");
}

}  // namespace alfred::test
