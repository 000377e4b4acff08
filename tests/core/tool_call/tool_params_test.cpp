// Params written under the strict tool schemas (tool_schema.h): every
// property present, null for the ones left out, `data` as JSON text. They
// must build exactly the request the plain params build, and a broken `data`
// text is an error at `data`, never a request.

#include "../../../core/src/tool_call/tool_params.h"

#include <algorithm>
#include <string>

#include "../request_text.h"
#include "../support.h"

namespace alfred::test {
namespace {

void check_same_request(std::string_view tool, std::string_view strict, std::string_view plain) {
  auto from_strict = build(tool, strict);
  auto from_plain = build(tool, plain);
  REQUIRE_MESSAGE(from_strict.ok(), error_text(from_strict.err()));
  REQUIRE_MESSAGE(from_plain.ok(), error_text(from_plain.err()));
  CHECK(from_strict->method == from_plain->method);
  CHECK(from_strict->url == from_plain->url);
  CHECK(headers_text(*from_strict) == headers_text(*from_plain));
  CHECK(from_strict->body == from_plain->body);
}

}  // namespace

TEST_CASE("strict db_read: null for every option left out is the plain read (was unknown_param)") {
  check_same_request("db_read",
                     R"({"table": "recipes", "filters": [{"field": "cuisine", "op": "=", "value": "indian"}],
                         "or_filters": null, "columns": null, "limit": null, "offset": null, "order_by": null,
                         "order_dir": null, "count": null})",
                     R"({"table": "recipes", "filters": [{"field": "cuisine", "op": "=", "value": "indian"}]})");
  check_same_request(
      "db_read", R"({"table": "inventory", "filters": null, "limit": 5, "order_by": "name",
                                    "order_dir": "desc", "count": "exact", "columns": null, "or_filters": null,
                                    "offset": null})",
      R"({"table": "inventory", "limit": 5, "order_by": "name", "order_dir": "desc", "count": "exact"})");
}

TEST_CASE("strict db_create: data as JSON text, one row and a batch") {
  check_same_request("db_create",
                     R"({"table": "inventory", "data": "{\"name\": \"milk\", \"quantity\": 1, \"unit\": \"l\"}"})",
                     R"({"table": "inventory", "data": {"name": "milk", "quantity": 1, "unit": "l"}})");
  check_same_request(
      "db_create",
      R"({"table": "recipe_ingredients", "data": "[{\"recipe_id\": \"recipe_1\", \"name\": \"salt\"}, {\"recipe_id\": \"recipe_2\", \"name\": \"pepper\"}]"})",
      R"({"table": "recipe_ingredients", "data": [{"recipe_id": "recipe_1", "name": "salt"},
                                                 {"recipe_id": "recipe_2", "name": "pepper"}]})");
}

TEST_CASE("strict db_update and db_delete: data as JSON text, refs inside it translated") {
  check_same_request("db_update",
                     R"({"table": "recipes", "filters": [{"field": "id", "op": "=", "value": "recipe_1"}],
                         "data": "{\"servings\": 6, \"parent_recipe_id\": \"recipe_2\"}"})",
                     R"({"table": "recipes", "filters": [{"field": "id", "op": "=", "value": "recipe_1"}],
                         "data": {"servings": 6, "parent_recipe_id": "recipe_2"}})");
  auto update = build("db_update", R"({"table": "recipes", "filters": [{"field": "id", "op": "=", "value": "recipe_1"}],
                                       "data": "{\"parent_recipe_id\": \"recipe_2\"}"})");
  REQUIRE(update.ok());
  CHECK(*update->body == std::string(R"({"parent_recipe_id":")") + kRecipe2 + "\"}");
  check_same_request("db_delete",
                     R"({"table": "inventory", "filters": [{"field": "id", "op": "=", "value": "inv_1"}]})",
                     R"({"table": "inventory", "filters": [{"field": "id", "op": "=", "value": "inv_1"}]})");
}

TEST_CASE("strict data text that is not rows is invalid_data at data, nothing built") {
  const auto not_json = build_error("db_create", R"({"table": "inventory", "data": "{name: milk}"})");
  CHECK(not_json.code == "invalid_data");
  CHECK(not_json.path == "data");
  CHECK(not_json.message.rfind("data is text that is not JSON: ", 0) == 0);
  CHECK(not_json.hint.find("JSON text of the row(s)") != std::string::npos);
  // Text that is not rows at all stays a string, refused as one.
  const auto scalar = build_error("db_update", R"({"table": "inventory", "data": "5",
                                                   "filters": [{"field": "id", "op": "=", "value": "inv_1"}]})");
  CHECK(scalar.code == "invalid_data");
  CHECK(scalar.path == "data");
  CHECK(scalar.message == "db_update data must be one object, got a string");
  const auto unclosed = build_error("db_create", R"({"table": "inventory", "data": " [{\"name\": \"milk\"}"})");
  CHECK(unclosed.path == "data");
  CHECK(unclosed.message.rfind("data is text that is not JSON: ", 0) == 0);
  // Inside the text, paths are the rows' own.
  const auto bad_column = build_error("db_create", R"({"table": "inventory", "data": "{\"nme\": \"milk\"}"})");
  CHECK(bad_column.code == "unknown_column");
  CHECK(bad_column.path == "data.nme");
}

TEST_CASE("null is absent, but a value under a key the tool does not take is still refused") {
  CHECK(build("db_delete", R"({"table": "inventory", "limit": null, "data": null,
                               "filters": [{"field": "id", "op": "=", "value": "inv_1"}]})")
            .ok());
  const auto limit = build_error("db_delete", R"({"table": "inventory", "limit": 1,
                                                  "filters": [{"field": "id", "op": "=", "value": "inv_1"}]})");
  CHECK(limit.code == "unknown_param");
  CHECK(limit.path == "limit");
  // Null filters on a delete are no filters: refused, not "every row".
  CHECK(build_error("db_delete", R"({"table": "inventory", "filters": null})").code == "missing_filter");
  CHECK(build_error("db_create", R"({"table": "inventory", "data": null})").code == "missing_param");
  CHECK(build_error("db_read", R"({"table": null})").code == "missing_param");
}

TEST_CASE("the tool-parameter table: each tool's keys in schema order, the hint lists them, unknown keys have no row") {
  CHECK(detail::tool_param_list(tool_kind::read) ==
        "table, filters, or_filters, columns, limit, offset, order_by, order_dir, count");
  CHECK(detail::tool_param_list(tool_kind::create) == "table, data");
  CHECK(detail::tool_param_list(tool_kind::update) == "table, filters, data");
  CHECK(detail::tool_param_list(tool_kind::remove) == "table, filters");
  const auto rows = detail::tool_param_rows();
  REQUIRE(rows.size() == detail::kToolParamCount);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    CAPTURE(rows[i].key);
    CHECK(static_cast<std::size_t>(rows[i].param) == i);
    CHECK(detail::find_tool_param(rows[i].key) == &rows[i]);
    CHECK(&detail::tool_param_of(rows[i].param) == &rows[i]);
    // Every key is some tool's, and `table` is every tool's, required.
    const bool taken = std::any_of(rows[i].by_tool.begin(), rows[i].by_tool.end(),
                                   [](detail::param_use use) { return use != detail::param_use::none; });
    CHECK(taken);
  }
  for (auto tool : {tool_kind::read, tool_kind::create, tool_kind::update, tool_kind::remove})
    CHECK(detail::tool_param_of(detail::tool_param::table).use_by(tool) == detail::param_use::required);
  CHECK(detail::find_tool_param("or_groups") == nullptr);
  CHECK(detail::find_tool_param("Table") == nullptr);
  CHECK(detail::find_tool_param("") == nullptr);
  // The parser's hint is the table's list.
  const auto wrong = build_error("db_update", R"({"table": "inventory", "limit": 1})");
  CHECK(wrong.code == "unknown_param");
  CHECK(wrong.hint == "allowed: table, filters, data");
}

TEST_CASE("is_absent_param and parse_data_text") {
  auto doc = json_document::parse(R"({"a": null, "b": [], "c": ""})");
  REQUIRE(doc.ok());
  CHECK(detail::is_absent_param(*doc->root().find("a")));
  CHECK_FALSE(detail::is_absent_param(*doc->root().find("b")));
  CHECK_FALSE(detail::is_absent_param(*doc->root().find("c")));
  CHECK(detail::parse_data_text("[{\"x\": 1}]", "data").ok());
  CHECK(detail::parse_data_text("\"x\"", "params.data").err().message ==
        "params.data must hold a JSON object or list, got a string");
}

}  // namespace alfred::test
