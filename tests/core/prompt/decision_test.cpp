#include "alfred/prompt/decision.h"

#include <doctest/doctest.h>

#include <functional>
#include <string>

#include "../support.h"
#include "alfred/json/json.h"

namespace alfred::test {
namespace {

act_decision parsed(std::string_view text, std::optional<step_type> step = std::nullopt) {
  auto d = parse_decision(text, step);
  if (!d) FAIL_CHECK(d.err().code << " at " << d.err().path << ": " << d.err().message);
  REQUIRE(d.ok());
  return *d;
}

error failure(std::string_view text, std::optional<step_type> step = std::nullopt) {
  auto d = parse_decision(text, step);
  REQUIRE_FALSE(d.ok());
  return d.err();
}

// OpenAI strict structured outputs: every object closes its properties and
// requires all of them; no keyword outside the supported subset.
void check_strict(json_value node, const std::string& path) {
  CAPTURE(path);
  if (!node.is_object()) return;
  static const char* supported[] = {"type",  "properties", "required", "additionalProperties", "enum", "anyOf",
                                    "items", "$defs",      "$ref",     "description"};
  node.for_each_member([&](std::string_view key, json_value value) {
    bool known = false;
    for (const char* k : supported) known = known || key == k;
    if (path.size() >= 11 && path.substr(path.size() - 11) == ".properties") known = true;  // property names
    if (path.size() >= 6 && path.substr(path.size() - 6) == ".$defs") known = true;
    CHECK_MESSAGE(known, "unsupported keyword " << key);
    if (value.is_object()) check_strict(value, path + "." + std::string(key));
    if (value.is_array())
      value.for_each_element([&](std::size_t i, json_value element) {
        check_strict(element, path + "." + std::string(key) + "[" + std::to_string(i) + "]");
      });
  });
  auto props = node.find("properties");
  if (!props) return;
  auto additional = node.find("additionalProperties");
  REQUIRE(additional);
  CHECK(additional->is_bool());
  CHECK_FALSE(additional->as_bool());
  auto required = node.find("required");
  REQUIRE(required);
  CHECK(required->size() == props->size());
  props->for_each_member([&](std::string_view key, json_value) {
    bool listed = false;
    required->for_each_element([&](std::size_t, json_value r) { listed = listed || r.str() == key; });
    CHECK_MESSAGE(listed, key << " is not required");
  });
}

}  // namespace

TEST_CASE("schema: valid under OpenAI strict structured outputs") {
  auto doc = json_document::parse(act_decision_schema());
  REQUIRE(doc.ok());
  const json_value root = doc->root();
  CHECK(root.find("type")->str() == "object");
  CHECK_FALSE(root.find("anyOf"));  // the root may not be a union
  check_strict(root, "$");
  // Nullable fields are ["type", "null"], and a nullable enum lists null.
  auto tool = root.find("properties")->find("tool");
  CHECK(tool->find("type")->at(1).str() == "null");
  CHECK(tool->find("enum")->at(tool->find("enum")->size() - 1).is_null());
}

TEST_CASE("parse: a strict-mode tool_call, null and placeholder params dropped, data text parsed") {
  const auto d = parsed(
      R"({"action":"tool_call","tool":"db_create","params":{"table":"shopping_list","filters":[],"or_filters":null,)"
      R"("columns":null,"limit":null,"offset":null,"order_by":null,"order_dir":null,)"
      R"("data":"[{\"name\": \"eggs\", \"quantity\": 12}]"},"summary":null,"data":null,"note_for_next_step":null,)"
      R"("question":null,"reason_code":null,"details":null,"suggested_next":null})");
  CHECK(d.action == decision_action::tool_call);
  CHECK(d.tool == "db_create");
  CHECK(d.params_json == R"({"table":"shopping_list","data":[{"name":"eggs","quantity":12}]})");
  CHECK(
      decision_to_json(d) ==
      R"({"action":"tool_call","tool":"db_create","params":{"table":"shopping_list","data":[{"name":"eggs","quantity":12}]}})");
}

TEST_CASE("regression: a number beyond a double in params (as JSON text) is kept as written") {
  const auto d = parsed(
      R"({"action":"tool_call","tool":"db_update","params":"{\"table\":\"inventory\",\"data\":{\"quantity\":2.2e824}}"})");
  CHECK(d.params_json == R"({"table":"inventory","data":{"quantity":2.2e824}})");
  CHECK(decision_to_json(d) ==
        R"({"action":"tool_call","tool":"db_update","params":{"table":"inventory","data":{"quantity":2.2e824}}})");
}

TEST_CASE("parse: read params keep what a read takes, filter values pass through untouched") {
  const auto d = parsed(
      R"({"action":"tool_call","tool":"db_read","params":{"table":"inventory","filters":[{"field":"expiry_date","op":"is_null","value":null}],)"
      R"("or_filters":[],"columns":null,"limit":100,"offset":null,"order_by":"name","order_dir":"asc","data":null}})",
      step_type::read);
  CHECK(d.params_json ==
        R"({"table":"inventory","filters":[{"field":"expiry_date","op":"is_null","value":null}],"or_filters":[],)"
        R"("limit":100,"order_by":"name","order_dir":"asc"})");
}

TEST_CASE("parse: a placeholder under a key no tool takes is dropped for a write and kept for a read") {
  // A write tool drops [] and "" under keys it does not take; db_read keeps
  // them under a key no tool takes, so the tool-call parser refuses it by name.
  CHECK(parsed(R"({"action":"tool_call","tool":"db_delete","params":{"table":"inventory","limit":"","colour":[],)"
               R"("filters":[{"field":"id","op":"=","value":"inv_1"}]}})")
            .params_json == R"({"table":"inventory","filters":[{"field":"id","op":"=","value":"inv_1"}]})");
  CHECK(parsed(R"({"action":"tool_call","tool":"db_read","params":{"table":"inventory","colour":[],"data":""}})")
            .params_json == R"({"table":"inventory","colour":[]})");
  // A value that is not a placeholder is kept for the tool-call parser to refuse.
  CHECK(parsed(R"({"action":"tool_call","tool":"db_create","params":{"table":"inventory","limit":5,"data":{}}})")
            .params_json == R"({"table":"inventory","limit":5,"data":{}})");
}

TEST_CASE("parse: fences, text around the object, params as JSON text, omitted nulls") {
  CHECK(parsed("```json\n{\"action\":\"ask_user\",\"question\":\"Which fridge?\"}\n```").question == "Which fridge?");
  CHECK(parsed("Sure! {\"action\":\"fail\",\"details\":\"db down\"} Hope that helps.").details == "db down");
  CHECK(parsed("\xEF\xBB\xBF  {\"action\":\"fail\"}\n").action == decision_action::fail);
  const auto d = parsed(
      R"({"action":"tool_call","tool":"db_update","params":"{\"table\":\"inventory\",\"filters\":[{\"field\":\"id\",\"op\":\"=\",\"value\":\"inv_4\"}],\"data\":{\"quantity\":2}}"})");
  CHECK(d.params_json ==
        R"({"table":"inventory","filters":[{"field":"id","op":"=","value":"inv_4"}],"data":{"quantity":2}})");
}

TEST_CASE("parse: step_complete data as text or object, prose stays a string, result_summary accepted") {
  CHECK(parsed(R"({"action":"step_complete","summary":"ok","data":"{\"cookable\":[\"recipe_2\"]}"})").data_json ==
        R"({"cookable":["recipe_2"]})");
  CHECK(parsed(R"({"action":"step_complete","summary":"ok","data":{"a":1}})").data_json == R"({"a":1})");
  CHECK(parsed(R"({"action":"step_complete","summary":"ok","data":"Both recipes fit."})").data_json ==
        R"("Both recipes fit.")");
  CHECK(parsed(R"({"action":"step_complete","summary":"ok","data":null})").data_json == "null");
  const auto original = parsed(R"({"action":"step_complete","result_summary":"Found 3","note_for_next_step":"inv_1"})");
  CHECK(original.summary == "Found 3");
  CHECK(decision_to_json(original) ==
        R"({"action":"step_complete","summary":"Found 3","data":null,"note_for_next_step":"inv_1"})");
}

TEST_CASE("parse: blocked") {
  const auto d = parsed(
      R"({"action":"blocked","reason_code":"insufficient_info","details":"no date given","suggested_next":"ask_user"})");
  CHECK(d.reason_code == "INSUFFICIENT_INFO");
  CHECK(
      decision_to_json(d) ==
      R"({"action":"blocked","reason_code":"INSUFFICIENT_INFO","details":"no date given","suggested_next":"ask_user"})");
  CHECK(failure(R"({"action":"blocked","reason_code":"BORED"})").path == "reason_code");
  CHECK(failure(R"({"action":"blocked","reason_code":"PLAN_INVALID","suggested_next":"retry"})").path ==
        "suggested_next");
}

TEST_CASE("parse: errors the model can act on") {
  const auto not_json = failure("{\"action\": \"tool_call\", ");
  CHECK(not_json.code == "invalid_decision_json");
  CHECK(not_json.hint.find("\"action\": \"step_complete\"") != std::string::npos);
  CHECK(failure("[1,2]").code == "invalid_decision_json");
  CHECK(failure(R"({"tool":"db_read"})").path == "action");
  const auto unknown = failure(R"({"action":"request_schema"})");
  CHECK(unknown.path == "action");
  CHECK(unknown.hint == "one of: tool_call, step_complete, ask_user, blocked, fail");
  CHECK(failure(R"({"action":"tool_call","tool":"db_upsert","params":{}})").path == "tool");
  CHECK(failure(R"({"action":"tool_call","tool":"db_read"})").path == "params");
  CHECK(failure(R"({"action":"tool_call","tool":"db_read","params":[1]})").path == "params");
  CHECK(failure(R"({"action":"tool_call","tool":"db_read","params":"{table"})").path == "params");
  const auto bad_data =
      failure(R"({"action":"tool_call","tool":"db_create","params":{"table":"x","data":"{name: eggs}"}})");
  CHECK(bad_data.path == "params.data");
  CHECK(failure(R"({"action":"tool_call","tool":"db_create","params":{"table":"x","data":"5"}})").path ==
        "params.data");
  CHECK(failure(R"({"action":"step_complete","summary":"  "})").path == "summary");
  CHECK(failure(R"({"action":"step_complete","summary":3})").path == "summary");
  CHECK(failure(R"({"action":"ask_user"})").path == "question");
}

TEST_CASE("parse: actions the step type does not allow") {
  const auto analyze =
      failure(R"({"action":"tool_call","tool":"db_read","params":{"table":"recipes"}})", step_type::analyze);
  CHECK(analyze.code == "action_not_allowed");
  CHECK(analyze.hint.find("tool_call") == std::string::npos);
  const auto read =
      failure(R"({"action":"tool_call","tool":"db_delete","params":{"table":"recipes"}})", step_type::read);
  CHECK(read.code == "action_not_allowed");
  CHECK(read.path == "tool");
  CHECK(read.hint == "allowed tools: db_read, db_call");
  CHECK(parsed(R"({"action":"tool_call","tool":"db_read","params":{"table":"recipes"}})", step_type::write).tool ==
        "db_read");
  CHECK(parsed(R"({"action":"step_complete","summary":"done"})", step_type::generate).summary == "done");
}

}  // namespace alfred::test

namespace alfred::test {

TEST_CASE("a pretty-printed decision with ``` inside a string is parsed, bare or fenced") {
  const std::string decision =
      "{\n"
      "  \"action\": \"step_complete\",\n"
      "  \"summary\": \"Saved the note ```json {\\\"a\\\":1}``` as written\",\n"
      "  \"data\": null,\n"
      "  \"note_for_next_step\": \"keep ``` as is\"\n"
      "}";
  const auto bare = parsed(decision);
  CHECK(bare.summary == "Saved the note ```json {\"a\":1}``` as written");
  CHECK(bare.note_for_next_step == "keep ``` as is");
  const auto fenced = parsed("Here it is:\n```json\n" + decision + "\n```\nDone {really}.");
  CHECK(fenced.summary == bare.summary);
  CHECK(fenced.note_for_next_step == bare.note_for_next_step);
  CHECK(parsed("```\n" + decision + "\n  ```").note_for_next_step == bare.note_for_next_step);
}

}  // namespace alfred::test
