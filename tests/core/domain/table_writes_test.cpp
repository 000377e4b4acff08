// Writes per table and per operation (`"writable": ["update"]`): a team
// app's accounts table whose row-level security lets members rename it but
// makes new accounts through a function only. The tools offer each table to
// the writes it takes, the schema says which it does not, and a call of
// another write is refused before anything is sent (docs/own-schema.md#writable).
// Columns too: column privileges may let users give a column on a new row
// and never change it, or change one they may not give, or read none of it
// (docs/own-schema.md#column-privileges).

#include <string>

#include "../request_text.h"
#include "../support.h"
#include "alfred/domain/prompt_examples.h"
#include "alfred/json/json.h"
#include "alfred/prompt/tool_schema.h"
#include "alfred/tool_call/tool_call.h"

namespace alfred::test {
namespace {

constexpr const char* kWritesDomain = R"json({
  "name": "teams",
  "tables": {
    "accounts": {"ref": "account", "writable": ["update"], "label": ["name"],
      "columns": {"id": {"type": "uuid", "writable": false}, "name": {"type": "text", "required": true}}},
    "notes": {"ref": "note", "label": ["body"],
      "columns": {"id": {"type": "uuid", "writable": false},
                  "account_id": {"type": "uuid", "required": true, "references": "accounts"},
                  "body": {"type": "text", "required": true}}},
    "invites": {"ref": "invite", "writable": ["create", "delete"], "label": ["email"],
      "columns": {"id": {"type": "uuid", "writable": false},
                  "account_id": {"type": "uuid", "required": true, "references": "accounts"},
                  "email": {"type": "text", "required": true}}},
    "events": {"ref": "event", "writable": [],
      "columns": {"id": {"type": "uuid", "writable": false}, "what": {"type": "text"}}}
  },
  "functions": {
    "create_team_account": {"args": {"name": {"type": "text", "required": true}}, "returns": {"type": "json"}}
  }
})json";

const domain& writes_domain() {
  static const domain dom = [] {
    auto parsed = parse_domain(kWritesDomain);
    REQUIRE(parsed.ok());
    return std::move(parsed).value();
  }();
  return dom;
}

constexpr const char* kAccount = "5b1f0c3e-2a4d-4e6f-8a9b-0c1d2e3f4a51";

ref_registry accounts_registry() {
  ref_registry reg;
  reg.set_turn(1);
  reg.register_row("accounts", "account", kAccount, ref_action::read, "Acme");
  return reg;
}

result<http_request> call(std::string_view tool, std::string_view params) {
  return build_request(writes_domain(), accounts_registry(), tool, params, alice_session());
}

std::string tables_of(std::string_view tools_json, std::string_view tool) {
  auto doc = json_document::parse(tools_json);
  REQUIRE(doc.ok());
  std::string out = "<not offered>";
  doc->root().for_each_element([&](std::size_t, json_value def) {
    if (def.find("name")->str() != tool) return;
    out.clear();
    def.find("parameters")
        ->find("properties")
        ->find("table")
        ->find("enum")
        ->for_each_element([&](std::size_t i, json_value name) { out.append(i ? "," : "").append(name.str()); });
  });
  return out;
}

TEST_CASE("writable: true, false or the list of writes a table takes") {
  const domain& dom = writes_domain();
  const table& accounts = *dom.find_table("accounts");
  CHECK(accounts.writable);
  CHECK(accounts.allows(write_update));
  CHECK_FALSE(accounts.allows(write_create));
  CHECK_FALSE(accounts.allows(write_delete));
  CHECK(accounts.write_note() == ", no create or delete");
  CHECK(dom.find_table("notes")->write_note().empty());
  CHECK(dom.find_table("invites")->write_note() == ", no update");
  // An empty list is false: the table is read-only.
  const table& events = *dom.find_table("events");
  CHECK_FALSE(events.writable);
  CHECK_FALSE(events.allows(write_create));
  CHECK(events.write_note() == ", read-only");
  CHECK(kitchen().find_table("ingredients")->write_note() == ", read-only");
}

TEST_CASE("writable: anything but true, false or a list of create, update and delete is refused") {
  const std::string base = R"({"name": "t", "tables": {"things": {"ref": "thing", "writable": )";
  const std::string tail = R"(, "columns": {"id": {"type": "uuid", "writable": false}}}}})";
  for (const char* bad :
       {R"("yes")", "1", R"(["insert"])", R"(["update", "upsert"])", R"([true])", R"({"update": true})"}) {
    INFO(bad);
    auto parsed = parse_domain(base + bad + tail);
    REQUIRE_FALSE(parsed.ok());
    CHECK(parsed.err().code == codes::invalid_domain);
    CHECK(parsed.err().path == "tables.things.writable");
    CHECK(parsed.err().message.find("\"create\", \"update\", \"delete\"") != std::string::npos);
  }
  // null reads as absent, as everywhere in the core: every write.
  auto absent = parse_domain(base + "null" + tail);
  REQUIRE(absent.ok());
  CHECK(absent->tables[0].writes == write_all);
  // A repeated write is the same write.
  auto twice = parse_domain(base + R"(["update", "update"])" + tail);
  REQUIRE(twice.ok());
  CHECK(twice->tables[0].writes == write_update);
  // A table without a key or one the API does not serve takes no write, listed or not.
  auto keyless = parse_domain(
      R"({"name": "t", "tables": {"log": {"ref": "log", "key": [], "writable": ["create"], "columns": {"what": {"type": "text"}}}}})");
  REQUIRE_FALSE(keyless.ok());
  CHECK(keyless.err().path == "tables.log.writable");
  auto unserved = parse_domain(
      R"({"name": "t", "tables": {"teams": {"ref": "team", "exposed": false, "writable": ["update"], "columns": {"id": {"type": "uuid"}}}}})");
  REQUIRE_FALSE(unserved.ok());
  CHECK(unserved.err().path == "tables.teams.writable");
}

TEST_CASE("a write the table does not take is refused before a request is made, with what to do instead") {
  auto created = call("db_create", R"({"table": "accounts", "data": {"name": "Globex"}})");
  REQUIRE_FALSE(created.ok());
  CHECK(created.err().code == codes::read_only_table);
  CHECK(created.err().path == "table");
  CHECK(created.err().message == "accounts takes no create or delete here; db_create is not allowed on it");
  CHECK(created.err().hint == "tell the user it cannot be done here, unless a db_call function does it");
  auto deleted =
      call("db_delete", R"({"table": "accounts", "filters": [{"field": "id", "op": "=", "value": "account_1"}]})");
  REQUIRE_FALSE(deleted.ok());
  CHECK(deleted.err().message == "accounts takes no create or delete here; db_delete is not allowed on it");
  auto changed = call("db_update", R"({"table": "invites", "filters": [{"field": "email", "op": "=", "value": "a@b.c"}],
      "data": {"email": "b@b.c"}})");
  REQUIRE_FALSE(changed.ok());
  CHECK(changed.err().message == "invites takes no update here; db_update is not allowed on it");
  // Without functions, nothing else does it.
  auto no_functions = parse_domain(
      R"({"name": "t", "tables": {"notes": {"ref": "note", "writable": ["create", "update"], "columns": {"id": {"type": "uuid", "writable": false}}}}})");
  REQUIRE(no_functions.ok());
  auto kept =
      build_request(*no_functions, ref_registry{}, "db_delete",
                    R"({"table": "notes", "filters": [{"field": "id", "op": "in", "value": []}]})", alice_session());
  REQUIRE_FALSE(kept.ok());
  CHECK(kept.err().code == codes::read_only_table);
  CHECK(kept.err().hint == "tell the user it cannot be done here");
  auto logged = call("db_create", R"({"table": "events", "data": {"what": "x"}})");
  REQUIRE_FALSE(logged.ok());
  CHECK(logged.err().message == "events is read-only here; db_create is not allowed on it");
  CHECK(logged.err().hint ==
        "read it with db_read and link its rows by ref, or tell the user it cannot be done here, unless a db_call "
        "function does it");

  // The writes it takes are built as ever.
  auto renamed =
      call("db_update", R"({"table": "accounts", "filters": [{"field": "id", "op": "=", "value": "account_1"}],
      "data": {"name": "Acme Inc"}})");
  REQUIRE(renamed.ok());
  CHECK(renamed->method == "PATCH");
  CHECK(renamed->url.find(kAccount) != std::string::npos);
  CHECK(call("db_create", R"({"table": "invites", "data": {"account_id": "account_1", "email": "a@b.c"}})").ok());
  CHECK(
      call("db_delete", R"({"table": "invites", "filters": [{"field": "email", "op": "=", "value": "a@b.c"}]})").ok());
  CHECK(call("db_read", R"({"table": "accounts"})").ok());
  CHECK(call("db_read", R"({"table": "events"})").ok());
}

TEST_CASE("each write tool offers the tables that take it, and one no table takes is not offered") {
  const std::string tools = tool_definitions_json(writes_domain());
  CHECK(tables_of(tools, "db_read") == "accounts,notes,invites,events");
  CHECK(tables_of(tools, "db_create") == "notes,invites");
  CHECK(tables_of(tools, "db_update") == "accounts,notes");
  CHECK(tables_of(tools, "db_delete") == "notes,invites");

  auto only_updates = parse_domain(
      R"({"name": "t", "tables": {"accounts": {"ref": "account", "writable": ["update"], "columns": {"id": {"type": "uuid", "writable": false}, "name": {"type": "text"}}}}})");
  REQUIRE(only_updates.ok());
  const std::string few = tool_definitions_json(*only_updates);
  CHECK(tables_of(few, "db_update") == "accounts");
  CHECK(tables_of(few, "db_create") == "<not offered>");
  CHECK(tables_of(few, "db_delete") == "<not offered>");
}

TEST_CASE("the schema says which writes a table does not take, and required columns only where creates are") {
  tool_schema_options inline_schema;
  inline_schema.inline_schema = true;
  const std::string schema = tool_description(writes_domain(), tool_kind::read, inline_schema);
  CHECK(schema.find("### accounts (refs account_N), no create or delete\n") != std::string::npos);
  CHECK(schema.find("### notes (refs note_N)\n") != std::string::npos);
  CHECK(schema.find("### invites (refs invite_N), no update\n") != std::string::npos);
  CHECK(schema.find("### events (refs event_N), read-only\n") != std::string::npos);
  // accounts.name is NOT NULL, but no create of accounts is made here.
  CHECK(schema.find("- name: text\n") != std::string::npos);
  CHECK(schema.find("- body: text, required\n") != std::string::npos);

  const std::string list = tool_description(writes_domain(), tool_kind::read);
  INFO(list);
  CHECK(list.find("- accounts (account_N, no create or delete): id, name\n") != std::string::npos);
  CHECK(list.find("- invites (invite_N, no update): id, account_id*→accounts, email*\n") != std::string::npos);

  // The write tools' examples name a table that takes them.
  CHECK(tool_description(writes_domain(), tool_kind::update).find("id = account_1") != std::string::npos);
  CHECK(tool_description(writes_domain(), tool_kind::remove).find("id in [note_1, note_2]") != std::string::npos);
}

TEST_CASE("prompt examples are drawn from a table that takes every write") {
  // accounts comes first and is labelled, but takes only updates: the
  // examples' creates and deletes are of notes.
  const std::string create = derived_prompt_example(writes_domain(), "create_call");
  INFO(create);
  CHECK(create.find("\"notes\"") != std::string::npos);
  CHECK(create.find("\"accounts\"") == std::string::npos);
  // Its required foreign key, as a ref: the create it shows is one the database takes.
  CHECK(create.find(R"(\"account_id\": \"account_1\")") != std::string::npos);
}

TEST_CASE("a create's example gives each required foreign key it shows once, as a ref, and a user id as me") {
  auto invoices = parse_domain(R"({"name": "billing", "tables": {
    "currencies": {"ref": "cur", "key": "code", "writable": false, "columns": {"code": {"type": "text"}}},
    "projects": {"ref": "proj", "writable": false, "columns": {"id": {"type": "uuid", "writable": false}}},
    "invoices": {"ref": "invoice", "owner": "user_id", "hidden": ["project_id"],
      "columns": {"id": {"type": "uuid", "writable": false},
                  "user_id": {"type": "uuid", "writable": false},
                  "currency": {"type": "text", "required": true, "references": "currencies"},
                  "project_id": {"type": "uuid", "required": true, "references": "projects"},
                  "assignee_id": {"type": "uuid", "required": true, "references": "auth.users"}}}}})");
  REQUIRE(invoices.ok());
  const std::string create = derived_prompt_example(*invoices, "create_call");
  INFO(create);
  CHECK(create.find(R"([{\"currency\": \"cur_1\", \"assignee_id\": \"me\"}, )") != std::string::npos);
  CHECK(create.find("project_id") == std::string::npos);
}

TEST_CASE("where no table takes every write, each write's example is of a table that takes it") {
  // A chat app as its policies have it: an audit log nobody writes, channels
  // created and deleted, messages created and edited.
  auto chat = parse_domain(R"({"name": "chat", "tables": {
    "audit": {"ref": "audit", "writable": false, "label": ["what"],
      "columns": {"id": {"type": "integer", "writable": false}, "what": {"type": "text"}}},
    "channels": {"ref": "channel", "writable": ["create", "delete"], "label": ["slug"],
      "columns": {"id": {"type": "integer", "writable": false}, "slug": {"type": "text", "required": true}}},
    "messages": {"ref": "message", "writable": ["create", "update"], "label": ["message"],
      "columns": {"id": {"type": "integer", "writable": false}, "message": {"type": "text"}}}}})");
  REQUIRE(chat.ok());
  const auto example = [&](std::string_view slot) { return derived_prompt_example(*chat, slot); };
  CHECK(example("create_call").find("\"table\": \"channels\"") != std::string::npos);
  CHECK(example("write_update_example").find("on `messages`") != std::string::npos);
  CHECK(example("write_ref_filter").find("message_4") != std::string::npos);
  CHECK(example("write_delete_example").find("on `channels`") != std::string::npos);
  // Generated content is saved by a create: a table that takes one, not the audit log.
  CHECK(example("generate_shape").find("\"channels\"") != std::string::npos);
  CHECK(example("generate_shape").find("audit") == std::string::npos);
}

// A posts table under column privileges: category is given on a new row
// and never changed, pinned changed and never given, status set by
// moderators alone, internal_score not even read.
constexpr const char* kGrantsDomain = R"json({
  "name": "blog",
  "tables": {
    "posts": {"ref": "post", "label": ["title"], "hidden": ["internal_score"],
      "columns": {"id": {"type": "integer", "writable": false},
                  "title": {"type": "text", "required": true},
                  "category": {"type": "text", "writable": ["create"]},
                  "pinned": {"type": "boolean", "writable": ["update"]},
                  "status": {"type": "text", "writable": false},
                  "internal_score": {"type": "integer"}}},
    "comments": {"ref": "comment", "label": ["body"],
      "columns": {"id": {"type": "integer", "writable": false},
                  "post_id": {"type": "integer", "required": true, "references": "posts"},
                  "body": {"type": "text", "required": true}}}
  }
})json";

const domain& grants_domain() {
  static const domain dom = [] {
    auto parsed = parse_domain(kGrantsDomain);
    REQUIRE(parsed.ok());
    return std::move(parsed).value();
  }();
  return dom;
}

result<http_request> post_call(std::string_view tool, std::string_view params) {
  ref_registry reg;
  reg.set_turn(1);
  reg.register_keyed_row("posts", "post", column_type::integer, "7", ref_action::read, "Hello");
  return build_request(grants_domain(), reg, tool, params, alice_session());
}

TEST_CASE("a column's writable: true, false, or the writes that may set it") {
  const table& posts = *grants_domain().find_table("posts");
  const column& category = *posts.find_column("category");
  CHECK(category.settable(write_create));
  CHECK_FALSE(category.settable(write_update));
  const column& pinned = *posts.find_column("pinned");
  CHECK_FALSE(pinned.settable(write_create));
  CHECK(pinned.settable(write_update));
  CHECK_FALSE(posts.find_column("status")->settable(write_create));
  CHECK(posts.find_column("title")->settable(write_update));

  const std::string base =
      R"({"name": "t", "tables": {"things": {"ref": "thing", "columns": {"id": {"type": "uuid", "writable": false}, "name": {"type": "text", "writable": )";
  for (const char* bad : {R"(["delete"])", R"(["insert"])", R"("create")", "1"}) {
    INFO(bad);
    auto parsed = parse_domain(base + bad + "}}}}}");
    REQUIRE_FALSE(parsed.ok());
    CHECK(parsed.err().code == codes::invalid_domain);
    CHECK(parsed.err().path == "tables.things.columns.name.writable");
  }
  auto none = parse_domain(base + "[]}}}}}");
  REQUIRE(none.ok());
  CHECK_FALSE(none->tables[0].find_column("name")->writable);
}

TEST_CASE("a column write its privileges refuse is refused before a request, saying what may be done") {
  auto changed =
      post_call("db_update", R"({"table": "posts", "filters": [{"field": "id", "op": "=", "value": "post_1"}],
      "data": {"category": "news"}})");
  REQUIRE_FALSE(changed.ok());
  CHECK(changed.err().code == codes::read_only_column);
  CHECK(changed.err().path == "data.category");
  CHECK(changed.err().message == "category is set when a row is created and cannot be changed");
  CHECK(changed.err().hint.rfind("columns db_update may set on posts: ", 0) == 0);
  CHECK(changed.err().hint.find("category") == std::string::npos);
  auto given = post_call("db_create", R"({"table": "posts", "data": {"title": "Hi", "pinned": true}})");
  REQUIRE_FALSE(given.ok());
  CHECK(given.err().path == "data.pinned");
  CHECK(given.err().message == "pinned cannot be given on a new row; db_update may set it once the row exists");
  CHECK(given.err().hint.rfind("columns db_create may set on posts: ", 0) == 0);
  CHECK(post_call("db_update", R"({"table": "posts", "filters": [{"field": "id", "op": "=", "value": "post_1"}],
      "data": {"status": "published"}})")
            .err()
            .code == codes::read_only_column);
  CHECK(post_call("db_create", R"({"table": "posts", "data": {"title": "Hi", "category": "news"}})").ok());
  CHECK(post_call("db_update", R"({"table": "posts", "filters": [{"field": "id", "op": "=", "value": "post_1"}],
      "data": {"pinned": true, "title": "Hello again"}})")
            .ok());
}

TEST_CASE("writes and embeds read back the columns a read would, never one the domain hides") {
  const std::string visible = "id,title,category,pinned,status";
  auto created = post_call("db_create", R"({"table": "posts", "data": {"title": "Hi"}})");
  REQUIRE(created.ok());
  CHECK(query_value(*created, "select") == visible);
  auto changed =
      post_call("db_update", R"({"table": "posts", "filters": [{"field": "id", "op": "=", "value": "post_1"}],
      "data": {"title": "Hey"}})");
  REQUIRE(changed.ok());
  CHECK(query_value(*changed, "select") == visible);
  auto removed =
      post_call("db_delete", R"({"table": "posts", "filters": [{"field": "id", "op": "=", "value": "post_1"}]})");
  REQUIRE(removed.ok());
  CHECK(query_value(*removed, "select") == visible);
  auto embedded = post_call("db_read", R"j({"table": "comments", "columns": ["body", "posts(*)"]})j");
  REQUIRE(embedded.ok());
  CHECK(query_value(*embedded, "select") == "id,body,posts(" + visible + ")");
  // A table without hidden columns is read back whole, as before.
  auto comment = post_call("db_create", R"({"table": "comments", "data": {"post_id": "post_1", "body": "Nice"}})");
  REQUIRE(comment.ok());
  CHECK(query_value(*comment, "select") == "*");
}

TEST_CASE("the schema says which columns a create or an update may not set, and requires only what a create gives") {
  tool_schema_options inline_schema;
  inline_schema.inline_schema = true;
  const std::string schema = tool_description(grants_domain(), tool_kind::read, inline_schema);
  CHECK(schema.find("- category: text, set on create only\n") != std::string::npos);
  CHECK(schema.find("- pinned: boolean, not on create\n") != std::string::npos);
  CHECK(schema.find("- status: text, read-only\n") != std::string::npos);
  CHECK(schema.find("internal_score") == std::string::npos);
  // A required column a create may not give is not asked for: the database decides.
  auto unsettable = parse_domain(
      R"({"name": "t", "tables": {"things": {"ref": "thing", "columns": {"id": {"type": "uuid", "writable": false}, "code": {"type": "text", "required": true, "writable": ["update"]}, "name": {"type": "text"}}}}})");
  REQUIRE(unsettable.ok());
  CHECK(build_request(*unsettable, ref_registry{}, "db_create", R"({"table": "things", "data": {"name": "x"}})",
                      alice_session())
            .ok());
}

}  // namespace
}  // namespace alfred::test
