// maxAffected: an update or delete changes at most N rows. By the database
// (`Prefer: handling=strict, max-affected=N`, PostgREST 13+), or by counting
// the selected rows first on servers without that preference.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "../support.h"
#include "alfred/executor/executor.h"

namespace alfred::test {
namespace {

using nlohmann::json;

need_response answer(int status, std::string body, std::string content_range = "") {
  return {status, std::move(content_range), "application/json", std::move(body)};
}

std::optional<execution> start(ref_registry& reg, std::string_view tool, std::string_view params, std::size_t max,
                               max_affected_check by) {
  execution_options settings;
  settings.max_affected = max;
  settings.max_affected_by = by;
  std::optional<execution> ex;
  ex.emplace(kitchen(), reg, tool, params, alice_session(), settings);
  return ex;
}

std::string prefer_of(const http_request& req) { return header(req, "Prefer"); }

constexpr std::string_view kDelete =
    R"({"table":"inventory","filters":[{"field":"location","op":"=","value":"fridge"}]})";

}  // namespace

TEST_CASE(
    "maxAffected by header: updates and deletes carry handling=strict, max-affected=N, reads and creates do not") {
  ref_registry reg = sample_registry();
  auto del = start(reg, "db_delete", kDelete, 5, max_affected_check::header);
  REQUIRE(del->needs().size() == 1);
  CHECK(del->needs()[0].request.method == "DELETE");
  CHECK(prefer_of(del->needs()[0].request) == "handling=strict, max-affected=5, return=representation");
  auto upd =
      start(reg, "db_update",
            R"({"table":"inventory","filters":[{"field":"name","op":"=","value":"milk"}],"data":{"quantity":2}})", 5,
            max_affected_check::header);
  CHECK(prefer_of(upd->needs()[0].request) == "handling=strict, max-affected=5, return=representation");
  // By ref: it cannot change more rows than it names, and goes without the preference (which PostgREST 12 refuses).
  auto by_ref =
      start(reg, "db_update",
            R"({"table":"inventory","filters":[{"field":"id","op":"=","value":"inv_1"}],"data":{"quantity":2}})", 5,
            max_affected_check::header);
  CHECK(prefer_of(by_ref->needs()[0].request) == "return=representation");
  auto read = start(reg, "db_read", R"({"table":"inventory"})", 5, max_affected_check::header);
  CHECK(prefer_of(read->needs()[0].request).find("max-affected") == std::string::npos);
  auto none = start(reg, "db_delete", kDelete, 0, max_affected_check::header);
  CHECK(prefer_of(none->needs()[0].request) == "return=representation");
}

TEST_CASE("maxAffected by header: the database's refusal (PGRST124) is too_many_rows, with a hint to narrow") {
  ref_registry reg = sample_registry();
  auto del = start(reg, "db_delete", kDelete, 5, max_affected_check::header);
  del->respond(
      0,
      answer(
          400,
          R"({"code":"PGRST124","message":"Query result exceeds max-affected preference constraint","details":"The query affects 9 rows","hint":null})"));
  REQUIRE(del->done());
  const json out = json::parse(del->result_json());
  CHECK(out["error"]["code"] == "too_many_rows");
  CHECK(out["error"]["dbCode"] == "PGRST124");
  CHECK(out["error"]["details"] == "The query affects 9 rows");
  CHECK(out["data"].is_null());
}

TEST_CASE(
    "maxAffected by count: the selected rows are counted first, within the limit the write follows, restricted to the "
    "rows counted, without the preference") {
  ref_registry reg = sample_registry();
  auto del = start(reg, "db_delete", kDelete, 5, max_affected_check::count);
  REQUIRE(del->needs().size() == 1);
  const http_request& count = del->needs()[0].request;
  CHECK(count.method == "GET");
  CHECK(prefer_of(count) == "count=exact");
  CHECK(count.url.find("location=eq.fridge") != std::string::npos);
  // The keys of every row the write may change: as many as the limit allows.
  CHECK(count.url.find("select=id") != std::string::npos);
  CHECK(count.url.find("limit=5") != std::string::npos);
  del->respond(0,
               answer(206,
                      R"([{"id":"a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c51"},{"id":"a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c52"},)"
                      R"({"id":"A1B2C3D4-E5F6-4A7B-8C9D-0E1F2A3B4C53"}])",
                      "0-2/3"));
  REQUIRE_FALSE(del->done());
  REQUIRE(del->needs().size() == 1);
  const http_request& write = del->needs()[0].request;
  CHECK(write.method == "DELETE");
  CHECK(prefer_of(write) == "return=representation");
  // A row that starts matching between the count and the write is not changed.
  CHECK(write.url.find("location=eq.fridge&id=in.%28a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c51%2C"
                       "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c52%2Ca1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c53%29") !=
        std::string::npos);
  del->respond(0, answer(200, "[]"));
  const json out = json::parse(del->result_json());
  CHECK(out["error"].is_null());
  // The record is the call as given, without the keys it was restricted to.
  CHECK(out["query"]["requested"]["filters"].size() == 1);
  CHECK(out["query"]["effective"].is_null());
}

TEST_CASE(
    "maxAffected by count: a write that names its rows by key (by ref, or an approved one) goes without a count, once "
    "restricted") {
  ref_registry reg = sample_registry();
  auto del = start(reg, "db_delete",
                   R"({"table":"inventory","filters":[{"field":"location","op":"=","value":"fridge"},)"
                   R"({"field":"id","op":"in","value":["inv_1"]}]})",
                   5, max_affected_check::count);
  REQUIRE(del->needs().size() == 1);
  const http_request& write = del->needs()[0].request;
  CHECK(write.method == "DELETE");
  CHECK(prefer_of(write) == "return=representation");
  CHECK(write.url.find("id=in.") != std::string::npos);
  CHECK(write.url.find("id=in.") == write.url.rfind("id=in."));
  del->respond(0, answer(200, std::string(R"([{"id":")") + std::string(kInv1) + R"(","name":"milk"}])"));
  REQUIRE(del->done());
  const json out = json::parse(del->result_json());
  CHECK(out["error"].is_null());
  CHECK(out["count"] == 1);
  CHECK(out["query"]["notes"] == json::array());

  // By ref with `=`: the same.
  ref_registry fresh = sample_registry();
  auto update =
      start(fresh, "db_update",
            R"({"table":"inventory","filters":[{"field":"id","op":"=","value":"inv_1"}],"data":{"quantity":2}})", 5,
            max_affected_check::count);
  REQUIRE(update->needs().size() == 1);
  CHECK(update->needs()[0].request.method == "PATCH");

  // More keys than the limit: counted first, as any other filter.
  auto wide = start(fresh, "db_delete",
                    R"({"table":"recipes","filters":[{"field":"id","op":"in","value":["recipe_1","recipe_2"]}]})", 1,
                    max_affected_check::count);
  REQUIRE(wide->needs().size() == 1);
  CHECK(wide->needs()[0].request.method == "GET");
  CHECK(prefer_of(wide->needs()[0].request) == "count=exact");
}

TEST_CASE(
    "maxAffected by count: a write by key that changed no row is counted after, to tell a row the user may not "
    "change from one that is not there") {
  ref_registry reg = sample_registry();
  constexpr std::string_view kByRef =
      R"({"table":"inventory","filters":[{"field":"id","op":"=","value":"inv_1"}],"data":{"quantity":2}})";
  auto hidden = start(reg, "db_update", kByRef, 5, max_affected_check::count);
  REQUIRE(hidden->needs()[0].request.method == "PATCH");
  hidden->respond(0, answer(200, "[]"));
  REQUIRE_FALSE(hidden->done());
  REQUIRE(hidden->needs().size() == 1);
  const http_request& count = hidden->needs()[0].request;
  CHECK(count.method == "GET");
  CHECK(prefer_of(count) == "count=exact");
  CHECK(count.url.find("id=eq.") != std::string::npos);
  hidden->respond(0, answer(206, std::string(R"([{"id":")") + std::string(kInv1) + R"("}])", "0-0/1"));
  REQUIRE(hidden->done());
  json out = json::parse(hidden->result_json());
  CHECK(out["error"].is_null());
  CHECK(out["data"] == json::array());
  CHECK(out["query"]["notes"] ==
        json::array({"the filters select 1 row this user can read, but the database changed none: row-level security "
                     "may not let this user change it"}));

  auto gone = start(reg, "db_update", kByRef, 5, max_affected_check::count);
  gone->respond(0, answer(200, "[]"));
  gone->respond(0, answer(200, "[]", "*/0"));
  REQUIRE(gone->done());
  out = json::parse(gone->result_json());
  CHECK(out["error"].is_null());
  CHECK(out["query"]["notes"] ==
        json::array({"no row matched the filters (it may not exist, or may belong to another user)"}));

  // A count that fails leaves the write's result as it is (nothing is lost, nothing is sent again), and says
  // that why no row changed is not known.
  auto unsure = start(reg, "db_update", kByRef, 5, max_affected_check::count);
  unsure->respond(0, answer(200, "[]"));
  unsure->respond(0, answer(503, "upstream down"));
  REQUIRE(unsure->done());
  out = json::parse(unsure->result_json());
  CHECK(out["error"].is_null());
  CHECK(out["count"] == 0);
  CHECK(out["query"]["notes"] ==
        json::array({"the database changed no row; counting the rows the filters select after it failed, so whether "
                     "one is missing or row-level security does not let this user change it is not known"}));

  // By header, or with no limit at all, the same: the count after tells why.
  for (const std::size_t limit : {std::size_t(5), std::size_t(0)}) {
    auto strict = start(reg, "db_update", kByRef, limit, max_affected_check::header);
    strict->respond(0, answer(200, "[]"));
    REQUIRE_FALSE(strict->done());
    CHECK(prefer_of(strict->needs()[0].request) == "count=exact");
    strict->respond(0, answer(206, std::string(R"([{"id":")") + std::string(kInv1) + R"("}])", "0-0/1"));
    REQUIRE(strict->done());
    const std::string note = json::parse(strict->result_json())["query"]["notes"][0];
    CHECK(note.find("row-level security may not let this user change it") != std::string::npos);
  }
  // A write by a filter that names no row by key, by header: its result as it came, no count.
  auto loose = start(reg, "db_delete", kDelete, 5, max_affected_check::header);
  loose->respond(0, answer(200, "[]"));
  REQUIRE(loose->done());
  CHECK(json::parse(loose->result_json())["query"]["notes"] ==
        json::array({"no row matched the filters (it may not exist, or may belong to another user)"}));
}

TEST_CASE(
    "maxAffected by count: a key that may hold NULL, or `= null` on the key, does not name one row per value: "
    "counted first") {
  ref_registry reg = sample_registry();
  // `id = null` on a NOT NULL key selects no row, but is counted, as any filter that names no row.
  auto by_null = start(reg, "db_delete", R"({"table":"inventory","filters":[{"field":"id","op":"=","value":null}]})", 5,
                       max_affected_check::count);
  REQUIRE(by_null->needs().size() == 1);
  CHECK(by_null->needs()[0].request.method == "GET");
  CHECK(prefer_of(by_null->needs()[0].request) == "count=exact");

  // A unique text column given as the key, which allows NULL.
  auto tags = load_domain(
      R"({"name":"tags","tables":{"tags":{"ref":"tag","key":"slug","columns":{"slug":{"type":"text"},"name":{"type":"text"}}}}})");
  REQUIRE(tags.ok());
  ref_registry tag_refs;
  tag_refs.register_keyed_row("tags", "tag", column_type::text, "soup", ref_action::read, "soup");
  execution_options settings;
  settings.max_affected = 1;
  settings.max_affected_by = max_affected_check::count;
  for (const std::string_view params : {R"({"table":"tags","filters":[{"field":"slug","op":"=","value":null}]})",
                                        R"({"table":"tags","filters":[{"field":"slug","op":"=","value":"tag_1"}]})"}) {
    INFO(params);
    execution del(*tags, tag_refs, "db_delete", params, alice_session(), settings);
    REQUIRE(del.needs().size() == 1);
    CHECK(del.needs()[0].request.method == "GET");
    CHECK(prefer_of(del.needs()[0].request) == "count=exact");
  }
}

TEST_CASE("maxAffected by count: a count that selects nothing sends no write") {
  ref_registry reg = sample_registry();
  auto del = start(reg, "db_delete", kDelete, 5, max_affected_check::count);
  del->respond(0, answer(200, "[]", "*/0"));
  REQUIRE(del->done());
  const json out = json::parse(del->result_json());
  CHECK(out["error"].is_null());
  CHECK(out["data"] == json::array());
  CHECK(out["count"] == 0);
  CHECK(out["query"]["notes"] ==
        json::array({"no row matched the filters (it may not exist, or may belong to another user)"}));
}

TEST_CASE(
    "maxAffected by count: rows counted that the write did not change (row-level security lets the user read them, "
    "not change them) are said as such, not as counted before changing them") {
  ref_registry reg = sample_registry();
  auto update =
      start(reg, "db_update",
            R"({"table":"inventory","filters":[{"field":"location","op":"=","value":"fridge"}],"data":{"quantity":2}})",
            5, max_affected_check::count);
  update->respond(0, answer(206, R"([{"id":"a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c51"}])", "0-0/1"));
  REQUIRE(update->needs().size() == 1);
  CHECK(update->needs()[0].request.method == "PATCH");
  update->respond(0, answer(200, "[]"));
  const json out = json::parse(update->result_json());
  CHECK(out["error"].is_null());
  CHECK(out["query"]["notes"] ==
        json::array({"the filters select 1 row this user can read, but the database changed none: row-level security "
                     "may not let this user change it"}));
}

TEST_CASE("maxAffected by count: past the rows a URL can name, the write runs with its own filters") {
  ref_registry reg = sample_registry();
  auto del = start(reg, "db_delete", kDelete, 500, max_affected_check::count);
  CHECK(del->needs()[0].request.url.find("limit=100") != std::string::npos);
  del->respond(0, answer(206, R"([{"id":"a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c51"}])", "0-99/250"));
  REQUIRE(del->needs().size() == 1);
  CHECK(del->needs()[0].request.url.find("id=in.") == std::string::npos);
  del->respond(0, answer(200, R"([{"id":"a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c51","name":"milk"}])"));
  CHECK(json::parse(del->result_json())["query"]["notes"].dump().find(
            "250 rows counted before changing them (at most 500)") != std::string::npos);
}

TEST_CASE("maxAffected by count: over the limit is too_many_rows, and the write is never sent") {
  ref_registry reg = sample_registry();
  auto del = start(reg, "db_delete", kDelete, 5, max_affected_check::count);
  del->respond(0, answer(206, R"([{"id":"a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c51"}])", "0-0/12"));
  REQUIRE(del->done());
  const json out = json::parse(del->result_json());
  CHECK(out["error"]["code"] == "too_many_rows");
  CHECK(out["error"]["message"] ==
        "this delete would change 12 rows of inventory, over the limit of 5 (maxAffected); nothing was changed");
  CHECK(out["error"]["path"] == "filters");
  // A count the database does not give cannot be checked: nothing is changed.
  auto unknown = start(reg, "db_delete", kDelete, 5, max_affected_check::count);
  unknown->respond(0, answer(200, "[]", ""));
  REQUIRE(unknown->done());
  CHECK(json::parse(unknown->result_json())["error"]["code"] == "invalid_response");
}

TEST_CASE("maxAffected: the execution option is read and checked") {
  auto doc = json_document::parse(R"({"maxAffected": 7, "maxAffectedBy": "count"})");
  auto parsed = parse_execution_options(doc->root());
  REQUIRE(parsed.ok());
  CHECK(parsed->max_affected == 7);
  CHECK(parsed->max_affected_by == max_affected_check::count);
  auto bad = json_document::parse(R"({"maxAffectedBy": "sometimes"})");
  CHECK(parse_execution_options(bad->root()).err().path == "maxAffectedBy");
  auto negative = json_document::parse(R"({"maxAffected": -1})");
  CHECK(parse_execution_options(negative->root()).err().path == "maxAffected");
}

TEST_CASE("a write by a name that changed nothing: reads match names loosely, writes as given, and the note says so") {
  ref_registry reg = sample_registry();
  // recipes.name is matched loosely by reads (middleware.fuzzy); the update compares it as given.
  auto ex =
      start(reg, "db_update",
            R"({"table":"recipes","filters":[{"field":"name","op":"=","value":"pad thai"}],"data":{"servings":2}})", 0,
            max_affected_check::header);
  REQUIRE_FALSE(ex->done());
  ex->respond(0, answer(200, "[]"));
  REQUIRE(ex->done());
  const json out = json::parse(ex->result_json());
  CHECK(out["error"].is_null());
  CHECK(out["query"]["notes"] ==
        json::array({"no row matched the filters exactly (a read matches names loosely, a write "
                     "as given): read the rows, then write by their refs"}));
}

}  // namespace alfred::test
