// Write-only tables (`"readable": false`): a feedback form's table whose
// row-level security lets users insert rows and never read them. Its creates
// are sent with return=minimal (a read-back would be refused), answered with
// how many rows were saved and no refs; every other tool is refused before a
// request is made (docs/own-schema.md#write-only-tables).

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "../request_text.h"
#include "../support.h"
#include "alfred/api/api.h"
#include "alfred/executor/executor.h"
#include "alfred/json/json.h"
#include "alfred/prompt/tool_schema.h"
#include "alfred/tool_call/tool_call.h"

namespace alfred::test {
namespace {

using nlohmann::json;

constexpr const char* kFeedbackDomain = R"json({
  "name": "shop",
  "tables": {
    "orders": {"ref": "order", "label": ["title"],
      "columns": {"id": {"type": "uuid", "writable": false}, "title": {"type": "text", "required": true}}},
    "feedback": {"ref": "feedback", "readable": false,
      "columns": {"id": {"type": "uuid", "writable": false}, "body": {"type": "text", "required": true},
                  "order_id": {"type": "uuid", "references": "orders"}}},
    "signups": {"ref": "signup", "readable": false, "key": [],
      "columns": {"email": {"type": "text", "required": true}}}
  }
})json";

const domain& shop() {
  static const domain dom = [] {
    auto parsed = parse_domain(kFeedbackDomain);
    REQUIRE(parsed.ok());
    return std::move(parsed).value();
  }();
  return dom;
}

constexpr const char* kNewId = "0b6f1a2c-3d4e-4f50-8a6b-7c8d9e0f1a21";
constexpr const char* kNewId2 = "0b6f1a2c-3d4e-4f50-8a6b-7c8d9e0f1a22";

execution_options for_model(std::vector<std::string> ids = {}) {
  execution_options settings;
  settings.row_ids = std::move(ids);
  settings.for_model = result_limits{};
  return settings;
}

json model_text(const execution& ex) {
  REQUIRE(ex.done());
  std::string scratch;
  const std::string& text = api::execution_result(ex, scratch);
  return json::parse(text.substr(text.find('\n') + 1));
}

need_response answer(int status, std::string body, transport_failure failure = transport_failure::none) {
  return {status, "", "application/json", std::move(body), failure};
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

}  // namespace

TEST_CASE("readable: false makes a table take creates only, and anything else is refused") {
  const table& feedback = *shop().find_table("feedback");
  CHECK_FALSE(feedback.readable);
  CHECK(feedback.writes == write_create);
  CHECK(takes(feedback, tool_kind::create));
  CHECK_FALSE(takes(feedback, tool_kind::read));
  CHECK_FALSE(takes(feedback, tool_kind::aggregate));
  CHECK_FALSE(takes(feedback, tool_kind::update));
  CHECK(feedback.write_note() == kWriteOnlyNote);
  // A table without a key still takes creates when they are not read back.
  CHECK(shop().find_table("signups")->allows(write_create));
  CHECK(shop().find_table("orders")->readable);

  const std::string base = R"({"name": "t", "tables": {"things": {"ref": "thing", )";
  const std::string tail = R"(, "columns": {"id": {"type": "uuid", "writable": false}}}}})";
  for (const char* bad : {R"("readable": false, "writable": true)", R"("readable": false, "writable": ["update"])",
                          R"("readable": false, "writable": false)"}) {
    INFO(bad);
    auto parsed = parse_domain(base + bad + tail);
    REQUIRE_FALSE(parsed.ok());
    CHECK(parsed.err().code == codes::invalid_domain);
    CHECK(parsed.err().path == "tables.things.writable");
  }
  auto wrong = parse_domain(base + R"("readable": "no")" + tail);
  REQUIRE_FALSE(wrong.ok());
  CHECK(wrong.err().path == "tables.things.readable");
  auto listed = parse_domain(base + R"("readable": false, "writable": ["create"])" + tail);
  REQUIRE(listed.ok());
  CHECK(listed->tables[0].writes == write_create);
  auto absent = parse_domain(base + R"("readable": null)" + tail);
  REQUIRE(absent.ok());
  CHECK(absent->tables[0].readable);
}

TEST_CASE("a write-only table is offered to db_create alone, and the schema says so") {
  const std::string tools = tool_definitions_json(shop());
  CHECK(tables_of(tools, "db_read") == "orders");
  CHECK(tables_of(tools, "db_create") == "orders,feedback,signups");
  CHECK(tables_of(tools, "db_update") == "orders");
  tool_schema_options inline_schema;
  inline_schema.inline_schema = true;
  const std::string schema = tool_description(shop(), tool_kind::read, inline_schema);
  CHECK(schema.find("\n### feedback (write-only: db_create adds rows, which cannot be read back)\n") !=
        std::string::npos);
  CHECK(schema.find("\n### signups (write-only: db_create adds rows, which cannot be read back)\n") !=
        std::string::npos);
  CHECK(tool_description(shop(), tool_kind::read)
            .find("- feedback (write-only: db_create adds rows, which cannot be read back):") != std::string::npos);
  CHECK(tool_description(shop(), tool_kind::create).find("(a write-only table's: how many were saved)") !=
        std::string::npos);
}

TEST_CASE("a read, update or delete of a write-only table is refused before a request is made") {
  for (const auto& call :
       {std::pair{"db_read", R"({"table": "feedback"})"},
        std::pair{
            "db_update",
            R"({"table": "feedback", "filters": [{"field": "body", "op": "=", "value": "x"}], "data": {"body": "y"}})"},
        std::pair{"db_delete", R"({"table": "feedback", "filters": [{"field": "body", "op": "=", "value": "x"}]})"},
        std::pair{"db_aggregate", R"({"table": "feedback", "metrics": [{"fn": "count"}]})"}}) {
    // Named, not bound: clang 14's lambdas (INFO) cannot capture a structured binding.
    const char* tool = call.first;
    INFO(tool);
    auto built = build_request(shop(), ref_registry{}, tool, call.second, alice_session());
    REQUIRE_FALSE(built.ok());
    CHECK(built.err().code == codes::write_only_table);
    CHECK(built.err().path == "table");
    CHECK(built.err().message ==
          std::string("feedback is write-only: db_create adds rows, which cannot be read back here; ") + tool +
              " is not allowed on it");
    CHECK(built.err().hint == "tell the user it cannot be done here");
  }
}

TEST_CASE("a create on a write-only table is sent without reading its rows back") {
  auto built = build_request(shop(), ref_registry{}, "db_create", R"({"table": "feedback", "data": {"body": "Great"}})",
                             alice_session());
  REQUIRE(built.ok());
  CHECK(built->method == "POST");
  CHECK(built->url.find("select=") == std::string::npos);
  CHECK(headers_text(*built).find("Prefer: return=minimal\n") != std::string::npos);
  auto batch =
      build_request(shop(), ref_registry{}, "db_create",
                    R"({"table": "signups", "data": [{"email": "a@b.c"}, {"email": "d@e.f"}]})", alice_session());
  REQUIRE(batch.ok());
  CHECK(headers_text(*batch).find("Prefer: return=minimal\n") != std::string::npos);
}

TEST_CASE("the model reads how many rows a write-only create saved, with no refs") {
  ref_registry reg;
  execution ex(shop(), reg, "db_create", R"({"table": "feedback", "data": [{"body": "Great"}, {"body": "Slow"}]})",
               alice_session(), for_model({kNewId, kNewId2}));
  REQUIRE(ex.needs().size() == 1);
  ex.respond(0, answer(201, ""));
  const json model = model_text(ex);
  CHECK(model["ok"] == true);
  CHECK(model["count"] == 2);
  CHECK(model["rows"] == json::array());
  CHECK(model["query"].get<std::string>().find(
            "\nNote: saved in feedback, write-only: db_create adds rows, which cannot be read back\n") !=
        std::string::npos);
  CHECK(reg.to_json().find("feedback_") == std::string::npos);

  SUBCASE("one row, and a table without a key") {
    ref_registry none;
    execution one(shop(), none, "db_create", R"({"table": "signups", "data": {"email": "a@b.c"}})", alice_session(),
                  for_model());
    one.respond(0, answer(201, ""));
    const json saved = model_text(one);
    CHECK(saved["ok"] == true);
    CHECK(saved["count"] == 1);
    CHECK(saved["query"].get<std::string>().find("Note: saved in signups, write-only") != std::string::npos);
  }
}

TEST_CASE("a write-only create whose answer was lost says it cannot be checked, and how to try again") {
  SUBCASE("row ids drawn by the caller: the same create again cannot save twice") {
    ref_registry reg;
    execution ex(shop(), reg, "db_create", R"({"table": "feedback", "data": {"body": "Great"}})", alice_session(),
                 for_model({kNewId}));
    ex.respond(0, answer(0, "socket hang up", transport_failure::body_incomplete));
    REQUIRE(ex.done());
    // Nothing was read back to check: the only request is the create.
    const json model = model_text(ex);
    CHECK(model["error"]["code"] == "write_outcome_unknown");
    CHECK(model["error"]["hint"] ==
          "feedback cannot be read to check: a repeated db_create of the same data reuses its row ids, so it cannot "
          "insert a second row");
  }
  SUBCASE("the same ids again meet the rows an earlier attempt saved: its primary key says so") {
    ref_registry reg;
    execution ex(shop(), reg, "db_create", R"({"table": "feedback", "data": {"body": "Great"}})", alice_session(),
                 for_model({kNewId}));
    ex.respond(
        0,
        answer(
            409,
            R"({"code":"23505","details":null,"hint":null,"message":"duplicate key value violates unique constraint \"feedback_pkey\""})"));
    const json model = model_text(ex);
    CHECK(model["ok"] == true);
    CHECK(model["count"] == 1);
    CHECK(model["query"].get<std::string>().find("inserted by an earlier attempt whose answer was lost (same row ids); "
                                                 "nothing was inserted twice") != std::string::npos);
  }
  SUBCASE("another unique value: the user is told, not asked to change a row") {
    ref_registry reg;
    execution ex(shop(), reg, "db_create", R"({"table": "feedback", "data": {"body": "Great"}})", alice_session(),
                 for_model({kNewId}));
    ex.respond(
        0,
        answer(
            409,
            R"({"code":"23505","details":null,"hint":null,"message":"duplicate key value violates unique constraint \"feedback_body_key\""})"));
    const json model = model_text(ex);
    CHECK(model["error"]["code"] == "duplicate");
    CHECK(model["error"]["hint"] == "a row with this value already exists: tell the user");
  }
  SUBCASE("keys the database assigns: do not send it again") {
    ref_registry reg;
    execution ex(shop(), reg, "db_create", R"({"table": "signups", "data": {"email": "a@b.c"}})", alice_session(),
                 for_model());
    ex.respond(0, answer(502, "<html>Bad gateway</html>"));
    const json model = model_text(ex);
    CHECK(model["error"]["code"] == "write_outcome_unknown");
    CHECK(model["error"]["hint"] ==
          "signups cannot be read to check: do not send it again; tell the user it may have been saved");
  }
}

TEST_CASE("nothing reads a write-only table through another: embeds, relations, includes, generated content") {
  // orders.feedback_id would embed it by foreign key.
  auto linked = parse_domain(R"json({"name": "t", "tables": {
      "feedback": {"ref": "feedback", "readable": false, "columns": {"id": {"type": "uuid", "writable": false}, "body": {"type": "text"}}},
      "orders": {"ref": "order", "columns": {"id": {"type": "uuid", "writable": false}, "feedback_id": {"type": "uuid", "references": "feedback"}}}}})json");
  REQUIRE(linked.ok());
  auto embed = build_request(*linked, ref_registry{}, "db_read",
                             R"json({"table": "orders", "columns": ["id", "feedback(body)"]})json", alice_session());
  REQUIRE_FALSE(embed.ok());
  CHECK(embed.err().code == codes::unknown_relation);

  for (const char* spec : {R"json("relations": {"notes": "feedback"})json",
                           R"json("middleware": {"include": ["feedback(id,body)"]})json"}) {
    INFO(spec);
    auto parsed = parse_domain(std::string(R"json({"name": "t", "tables": {
      "feedback": {"ref": "feedback", "readable": false, "columns": {"id": {"type": "uuid", "writable": false}, "order_id": {"type": "uuid", "references": "orders"}, "body": {"type": "text"}}},
      "orders": {"ref": "order", )json") +
                               spec + R"json(, "columns": {"id": {"type": "uuid", "writable": false}}}}})json");
    REQUIRE_FALSE(parsed.ok());
    CHECK(parsed.err().code == codes::invalid_domain);
  }
  auto unserved = parse_domain(
      R"({"name": "t", "tables": {"f": {"ref": "f", "readable": false, "exposed": false, "columns": {"id": {"type": "uuid"}}}}})");
  REQUIRE_FALSE(unserved.ok());
  CHECK(unserved.err().path == "tables.f.readable");

  ref_registry reg;
  const json generated = json::parse(api::register_generated(shop(), reg, "feedback", R"({"body": "Great"})"));
  CHECK(generated["error"]["code"] == "write_only_table");
  CHECK(reg.entries().empty());
}

TEST_CASE("where every table is write-only, db_create lists them, as no db_read is offered") {
  auto only = parse_domain(
      R"({"name": "t", "tables": {"feedback": {"ref": "feedback", "readable": false, "columns": {"id": {"type": "uuid", "writable": false}, "body": {"type": "text", "required": true}}}}})");
  REQUIRE(only.ok());
  const std::string tools = tool_definitions_json(*only);
  CHECK(tables_of(tools, "db_read") == "<not offered>");
  CHECK(tool_description(*only, tool_kind::create)
            .find("- feedback (write-only: db_create adds rows, which cannot be "
                  "read back): id, body*\n") != std::string::npos);
  CHECK(tool_description(shop(), tool_kind::create).find("- feedback (") == std::string::npos);
}

TEST_CASE("a create row-level security refused to read back is sent once more without the read-back") {
  // orders: a SELECT policy for admins only lets a user insert rows but not read them back.
  const char* refused =
      R"({"code":"42501","details":null,"hint":null,"message":"new row violates row-level security policy for table \"orders\""})";
  SUBCASE("saved: counted, with a note, no refs") {
    ref_registry reg;
    execution ex(shop(), reg, "db_create", R"({"table": "orders", "data": {"title": "Lamp"}})", alice_session(),
                 for_model({kNewId}));
    REQUIRE(ex.needs().size() == 1);
    CHECK(query_text(ex.needs()[0].request).find("select=") != std::string::npos);
    ex.respond(0, answer(403, refused));
    REQUIRE(ex.needs().size() == 1);
    const http_request& again = ex.needs()[0].request;
    CHECK(query_text(again).find("select=") == std::string::npos);
    CHECK(headers_text(again).find("Prefer: return=minimal\n") != std::string::npos);
    CHECK(json::parse(*again.body)["id"] == kNewId);  // the same row id: the first insert was rolled back
    ex.respond(0, answer(201, ""));
    const json model = model_text(ex);
    CHECK(model["ok"] == true);
    CHECK(model["count"] == 1);
    CHECK(model["query"].get<std::string>().find(
              "Note: saved in orders; row-level security does not let this user read them back (no refs)") !=
          std::string::npos);
  }
  SUBCASE("a grant's refusal is not sent again") {
    ref_registry reg;
    execution ex(shop(), reg, "db_create", R"({"table": "orders", "data": {"title": "Lamp"}})", alice_session(),
                 for_model({kNewId}));
    ex.respond(
        0,
        answer(403, R"({"code":"42501","details":null,"hint":null,"message":"permission denied for table orders"})"));
    CHECK(ex.done());
    CHECK(model_text(ex)["error"]["code"] == "permission_denied");
  }
  SUBCASE("refused again: the policy refused the row itself") {
    ref_registry reg;
    execution ex(shop(), reg, "db_create", R"({"table": "orders", "data": {"title": "Lamp"}})", alice_session(),
                 for_model({kNewId}));
    ex.respond(0, answer(403, refused));
    ex.respond(0, answer(403, refused));
    const json model = model_text(ex);
    CHECK(model["ok"] == false);
    CHECK(model["error"]["code"] == "permission_denied");
  }
}

}  // namespace alfred::test
