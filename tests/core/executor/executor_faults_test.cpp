// The executor when the network or the server misbehaves: writes whose
// answer was lost, creates retried with the same row ids, concurrent saves of
// one artifact, proxies' HTML pages, and the limits of one call. Each case
// is scripted need by need, like executor_test.cpp.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "../request_text.h"
#include "../support.h"
#include "alfred/executor/executor.h"

namespace alfred::test {
namespace {

using nlohmann::json;

constexpr const char* kNewId1 = "0b6f1a2c-3d4e-4f50-8a6b-7c8d9e0f1a21";
constexpr const char* kNewId2 = "0b6f1a2c-3d4e-4f50-8a6b-7c8d9e0f1a22";

execution_options with_ids(std::vector<std::string> ids) {
  execution_options settings;
  settings.row_ids = std::move(ids);
  return settings;
}

need_response answer(int status, std::string body, transport_failure failure = transport_failure::none) {
  return {status, "", "application/json", std::move(body), failure};
}

std::string row(const char* id, std::string_view fields) {
  return std::string(R"({"id":")") + id + "\"," + std::string(fields) + "}";
}

json result_of(const execution& ex) {
  REQUIRE(ex.done());
  return json::parse(ex.result_json());
}

std::string query_of(const http_request& req) {
  std::string out;
  for (const auto& [key, value] : decoded_query(req.url)) out += (out.empty() ? "" : "&") + key + "=" + value;
  return out;
}

const char* kSaveGen =
    R"({"table":"recipes","data":{"id":"gen_recipe_1","name":"Thai Basil Chicken","instructions":["cook"]}})";

}  // namespace

TEST_CASE("a create sends the row ids it was given, in the order of data, after de-duplication too") {
  ref_registry reg = sample_registry();
  execution ex(kitchen(), reg, "db_create", R"({"table":"tasks","data":[{"title":"a"},{"title":"b"}]})",
               alice_session(), with_ids({kNewId1, kNewId2}));
  REQUIRE(ex.needs().size() == 1);
  const json body = json::parse(*ex.needs()[0].request.body);
  CHECK(body[0]["id"] == kNewId1);
  CHECK(body[1]["id"] == kNewId2);
  CHECK(body[0]["title"] == "a");

  SUBCASE("without ids the database assigns them") {
    execution plain(kitchen(), reg, "db_create", R"({"table":"tasks","data":{"title":"a"}})", alice_session());
    CHECK(json::parse(*plain.needs()[0].request.body).count("id") == 0);
  }
  SUBCASE("a lost answer: only a create that sent its ids is said to be safe to send again") {
    execution with(kitchen(), reg, "db_create", R"({"table":"tasks","data":{"title":"a"}})", alice_session(),
                   with_ids({kNewId1}));
    execution without(kitchen(), reg, "db_create", R"({"table":"tasks","data":{"title":"a"}})", alice_session());
    for (execution* ex : {&with, &without}) ex->respond(0, answer(0, "socket hang up", transport_failure::no_response));
    CHECK(result_of(with)["error"]["hint"] ==
          "the change may or may not have been made: read the rows (db_read) before trying again; a repeated "
          "db_create of the same data reuses its row ids, so it cannot insert a second row");
    CHECK(result_of(without)["error"]["hint"] ==
          "the change may or may not have been made: read the rows (db_read) before trying again");
  }
}

TEST_CASE("regression: a write whose answer was lost is write_outcome_unknown, never network_error") {
  ref_registry reg = sample_registry();
  const std::string before = reg.to_json();
  const char* update =
      R"({"table":"tasks","filters":[{"field":"title","op":"=","value":"x"}],"data":{"completed":true}})";

  SUBCASE("connection reset while reading the body: the status is kept") {
    execution ex(kitchen(), reg, "db_update", update, alice_session());
    ex.respond(0, answer(200, R"([{"id":")", transport_failure::body_incomplete));
    const json out = result_of(ex);
    CHECK(out["error"]["code"] == "write_outcome_unknown");
    CHECK(out["error"]["status"] == 200);
    CHECK(out["error"]["message"] ==
          "db_update on tasks: the outcome is unknown; the database answered HTTP 200 OK but its answer was cut off");
    CHECK(out["error"]["hint"].get<std::string>().find("read the rows (db_read) before trying again") !=
          std::string::npos);
  }
  SUBCASE("a 204 with an empty body") {
    execution ex(kitchen(), reg, "db_update", update, alice_session());
    ex.respond(0, answer(204, ""));
    const json out = result_of(ex);
    CHECK(out["error"]["code"] == "write_outcome_unknown");
    CHECK(out["error"]["status"] == 204);
  }
  SUBCASE("a timeout") {
    execution ex(kitchen(), reg, "db_delete", R"({"table":"tasks","filters":[{"field":"title","op":"=","value":"x"}]})",
                 alice_session());
    ex.respond(0, answer(0, "no response within 50 ms", transport_failure::timeout));
    const json out = result_of(ex);
    CHECK(out["error"]["code"] == "write_outcome_unknown");
    CHECK(out["error"].count("status") == 0);
  }
  SUBCASE("a proxy's 502 page: the database may have committed") {
    execution ex(kitchen(), reg, "db_update", update, alice_session());
    ex.respond(0, {502, "", "text/html", "<html><body><h1>502 Bad Gateway</h1></body></html>"});
    const json out = result_of(ex);
    CHECK(out["error"]["code"] == "write_outcome_unknown");
    CHECK(out["error"]["status"] == 502);
    CHECK(out["error"]["rawBody"] == "<html><body><h1>502 Bad Gateway</h1></body></html>");
    CHECK(out["error"]["message"].get<std::string>().find('<') == std::string::npos);
  }
  SUBCASE("a 4xx is a definite refusal") {
    execution ex(kitchen(), reg, "db_update", update, alice_session());
    ex.respond(0, {429, "", "text/html", "<html>slow down</html>"});
    const json out = result_of(ex);
    CHECK(out["error"]["code"] == "rate_limited");
    CHECK(out["error"]["message"] == "db_update on tasks failed: HTTP 429 Too Many Requests");
  }
  SUBCASE("the database's own 5xx is a definite failure") {
    execution ex(kitchen(), reg, "db_update", update, alice_session());
    ex.respond(0, answer(503, R"({"code":"PGRST001","message":"Database client error","details":null,"hint":null})"));
    CHECK(result_of(ex)["error"]["code"] == "unavailable");
  }
  CHECK(reg.to_json() == before);
}

TEST_CASE("regression: a 201 with an empty body is settled by reading the created rows back by id") {
  ref_registry reg = sample_registry();
  execution ex(kitchen(), reg, "db_create", kSaveGen, alice_session(), with_ids({kNewId1}));
  ex.respond(0, answer(201, ""));
  REQUIRE(ex.needs().size() == 1);
  const http_request& read = ex.needs()[0].request;
  CHECK(read.method == "GET");
  CHECK(query_of(read).find(std::string("id=in.(") + kNewId1 + ")") != std::string::npos);
  CHECK(query_of(read).find(std::string("user_id=eq.") + kAlice) != std::string::npos);

  SUBCASE("the rows are there: a normal create result, the artifact promoted") {
    ex.respond(0, answer(200, "[" + row(kNewId1, R"("name":"Thai Basil Chicken","instructions":["cook"])") + "]"));
    const json out = result_of(ex);
    CHECK(out["error"].is_null());
    CHECK(out["data"]["id"] == "recipe_3");
    CHECK(reg.resolve("gen_recipe_1")->key == kNewId1);
    CHECK(out["query"]["notes"][0] ==
          "the database's answer (HTTP 201 Created) could not be read; the created rows were read back by id");
  }
  SUBCASE("the rows cannot be read back: the outcome stays unknown, the registry unchanged") {
    const std::string before = reg.to_json();
    ex.respond(0, answer(0, "fetch failed", transport_failure::no_response));
    const json out = result_of(ex);
    CHECK(out["error"]["code"] == "write_outcome_unknown");
    CHECK(out["error"]["status"] == 201);
    CHECK(reg.to_json() == before);
    CHECK(reg.find("gen_recipe_1")->pending());
  }
}

TEST_CASE("regression: a create retried after a lost answer is a duplicate key, resolved as the rows already saved") {
  ref_registry reg = sample_registry();
  const char* params = R"({"table":"tasks","data":{"title":"buy basil"}})";
  {
    execution first(kitchen(), reg, "db_create", params, alice_session(), with_ids({kNewId1}));
    first.respond(0, answer(0, "socket hang up", transport_failure::no_response));
    CHECK(result_of(first)["error"]["code"] == "write_outcome_unknown");
  }
  execution retry(kitchen(), reg, "db_create", params, alice_session(), with_ids({kNewId1}));
  CHECK(json::parse(*retry.needs()[0].request.body)["id"] == kNewId1);
  retry.respond(0, {409, "", "application/json",
                    R"({"code":"23505","details":"Key (id)=(0b6f1a2c-3d4e-4f50-8a6b-7c8d9e0f1a21) already exists.",)"
                    R"("hint":null,"message":"duplicate key value violates unique constraint \"tasks_pkey\""})"});
  REQUIRE(retry.needs().size() == 1);
  CHECK(retry.needs()[0].request.method == "GET");

  SUBCASE("the first attempt did insert the row") {
    retry.respond(0, answer(200, "[" + row(kNewId1, R"("title":"buy basil","completed":false)") + "]"));
    const json out = result_of(retry);
    CHECK(out["error"].is_null());
    CHECK(out["data"]["id"] == "task_1");
    CHECK(out["count"] == 1);
    CHECK(reg.find("task_1")->action == ref_action::created);
    CHECK(out["query"]["notes"][0].get<std::string>().find("inserted by an earlier attempt") != std::string::npos);
  }
  SUBCASE("a clash on another column: the duplicate error stands") {
    retry.respond(0, answer(200, "[]"));
    const json out = result_of(retry);
    CHECK(out["error"]["code"] == "duplicate");
    CHECK(out["error"]["status"] == 409);
    // The database gave no hint: the model is told which tool changes the row that is there.
    CHECK(out["error"]["hint"] ==
          "a row with this value already exists: read it and change it with db_update, or use another value");
    CHECK(reg.find("task_1") == nullptr);
  }
}

TEST_CASE("a unique value that clashes: a create names db_update only where the table takes updates") {
  constexpr const char* kDuplicate =
      R"({"code":"23505","details":"Key (slug)=(public) already exists.","hint":null,)"
      R"("message":"duplicate key value violates unique constraint \"channels_slug_key\""})";
  auto chat =
      load_domain(R"({"name":"chat","tables":{"channels":{"ref":"channel","writable":["create","delete"],)"
                  R"("columns":{"id":{"type":"uuid","writable":false},"slug":{"type":"text","required":true}}}}})");
  REQUIRE(chat.ok());
  ref_registry reg = sample_registry();
  SUBCASE("a create on a table that takes updates") {
    execution ex(kitchen(), reg, "db_create", R"({"table":"tasks","data":{"title":"a"}})", alice_session());
    ex.respond(0, answer(409, kDuplicate));
    CHECK(result_of(ex)["error"]["hint"] ==
          "a row with this value already exists: read it and change it with db_update, or use another value");
  }
  SUBCASE("a create on a table that takes none (the model may not change the row that is there)") {
    ref_registry none;
    execution ex(*chat, none, "db_create", R"({"table":"channels","data":{"slug":"public"}})", alice_session());
    ex.respond(0, answer(409, kDuplicate));
    CHECK(result_of(ex)["error"]["code"] == "duplicate");
    CHECK(result_of(ex)["error"]["hint"] == "a row with this value already exists: use that row, or another value");
  }
  SUBCASE("an update to a value another row has") {
    execution ex(kitchen(), reg, "db_update",
                 R"({"table":"tasks","filters":[{"field":"title","op":"=","value":"x"}],"data":{"title":"b"}})",
                 alice_session());
    ex.respond(0, answer(409, kDuplicate));
    CHECK(result_of(ex)["error"]["hint"] == "a row with this value already exists: use that row, or another value");
  }
}

TEST_CASE("regression: two concurrent saves of one gen_ artifact: the second is refused while the first is in flight") {
  ref_registry reg = sample_registry();
  std::optional<execution> first;
  first.emplace(kitchen(), reg, "db_create", kSaveGen, alice_session(), with_ids({kNewId1}));
  REQUIRE(first->needs().size() == 1);
  CHECK(reg.save_claimed("gen_recipe_1"));

  execution second(kitchen(), reg, "db_create", kSaveGen, alice_session(), with_ids({kNewId2}));
  CHECK(second.needs().empty());
  const json refused = result_of(second);
  CHECK(refused["error"]["code"] == "save_in_progress");
  CHECK(refused["error"]["path"] == "data.id");
  CHECK(refused["error"]["message"] == "gen_recipe_1 is being saved by another call that has not finished");
  CHECK(reg.save_claimed("gen_recipe_1"));  // the refused call did not release the first one's claim

  SUBCASE("after the first fails, a save may be tried again") {
    first->respond(0, {400, "", "application/json", R"({"code":"23514","message":"check"})"});
    CHECK(result_of(*first)["error"]["code"] == "check_violation");
    CHECK_FALSE(reg.save_claimed("gen_recipe_1"));
    execution again(kitchen(), reg, "db_create", kSaveGen, alice_session(), with_ids({kNewId2}));
    CHECK(again.needs().size() == 1);
  }
  SUBCASE("an abandoned execution gives its claim back") {
    first.reset();
    CHECK_FALSE(reg.save_claimed("gen_recipe_1"));
  }
  SUBCASE("a save by label (no id marker) of the same artifact is refused too") {
    execution by_label(kitchen(), reg, "db_create",
                       R"({"table":"recipes","data":{"name":"thai basil chicken","instructions":["x"]}})",
                       alice_session(), with_ids({kNewId2}));
    const json out = result_of(by_label);
    CHECK(out["error"]["code"] == "save_in_progress");
    CHECK(out["error"]["path"] == "data");
  }
  SUBCASE("claims are not part of the saved state") {
    CHECK(reg.to_json().find("claim") == std::string::npos);
    auto restored = ref_registry::from_json(reg.to_json());
    REQUIRE(restored.ok());
    CHECK_FALSE(restored->save_claimed("gen_recipe_1"));
  }
}

TEST_CASE("regression: a 5xx HTML page gives a short message, the page is kept, cut, in rawBody") {
  ref_registry reg = sample_registry();
  execution ex(kitchen(), reg, "db_read", R"({"table":"tasks"})", alice_session());
  const std::string page =
      "<!DOCTYPE html><html><head><title>502</title></head><body>" + std::string(5000, 'x') + "</body></html>";
  ex.respond(0, {502, "", "text/html; charset=utf-8", page});
  const json out = result_of(ex);
  CHECK(out["error"]["code"] == "server_error");
  CHECK(out["error"]["status"] == 502);
  CHECK(out["error"]["message"] == "reading tasks failed: HTTP 502 Bad Gateway");
  const std::string raw = out["error"]["rawBody"];
  CHECK(raw.rfind("<!DOCTYPE html>", 0) == 0);
  CHECK(raw.size() <= 1000 + 3);
}

TEST_CASE("database refusals of a table write carry a hint the model can act on: a trigger's RAISE, text too long") {
  ref_registry reg = sample_registry();
  auto refused = [&](std::string_view body) {
    execution ex(kitchen(), reg, "db_update",
                 R"({"table":"inventory","filters":[{"field":"id","op":"=","value":"inv_1"}],"data":{"name":"x"}})",
                 alice_session());
    for (int round = 0; round < 3 && !ex.done(); ++round) ex.respond(0, answer(400, std::string(body)));
    return result_of(ex)["error"];
  };
  const json raised =
      refused(R"({"code":"P0001","message":"Email cannot be changed here","details":null,"hint":null})");
  CHECK(raised["code"] == "rule_violation");
  CHECK(raised["hint"] ==
        "the database refused it for the reason in its message: change what it names, or tell the user");
  const json too_long =
      refused(R"x({"code":"22001","message":"value too long for type character varying(255)","details":null})x");
  CHECK(too_long["code"] == "invalid_value");
  CHECK(too_long["hint"] == "the text is longer than the column allows: shorten it");
}

TEST_CASE("transport failures of reads have their own codes") {
  ref_registry reg = sample_registry();
  // Answered the same way each time it asks (a response too large with the
  // labels' rows along is asked for again without them).
  auto failed_read = [&](const need_response& response) {
    execution ex(kitchen(), reg, "db_read", R"({"table":"tasks"})", alice_session());
    for (int round = 0; round < 3 && !ex.done(); ++round) ex.respond(0, response);
    return result_of(ex)["error"];
  };
  CHECK(failed_read(answer(0, "no response within 30000 ms", transport_failure::timeout))["code"] == "timeout");
  const json big = failed_read(answer(200, "content-length 104857600, over 8 MiB", transport_failure::too_large));
  CHECK(big["code"] == "response_too_large");
  CHECK(big["status"] == 200);
  CHECK(failed_read(answer(0, "", transport_failure::not_a_response))["code"] == "invalid_response");
  const json cut = failed_read(answer(200, "[{\"id\":", transport_failure::body_incomplete));
  CHECK(cut["code"] == "network_error");
  CHECK(cut["status"] == 200);
}

TEST_CASE("limits: params, strings and rows over the limit are refused with a clear error") {
  ref_registry reg = sample_registry();
  execution_options tight;
  tight.limits.max_params_bytes = 200;
  tight.limits.max_string_bytes = 16;
  tight.limits.max_rows = 2;

  execution params(kitchen(), reg, "db_read", R"({"table":"tasks","filters":[)" + std::string(300, ' ') + "]}",
                   alice_session(), tight);
  CHECK(result_of(params)["error"]["code"] == "params_too_large");
  CHECK(result_of(params)["error"]["message"] == "the size of the params is 330 bytes, over the limit of 200 bytes");

  execution text(kitchen(), reg, "db_create",
                 R"({"table":"tasks","data":{"title":"a title of more than sixteen bytes"}})", alice_session(), tight);
  const json long_text = result_of(text)["error"];
  CHECK(long_text["code"] == "value_too_large");
  CHECK(long_text["path"] == "data.title");
  CHECK(long_text["message"] == "a text in the params is over the limit of 16 bytes");

  execution rows(kitchen(), reg, "db_read", R"({"table":"tasks"})", alice_session(), tight);
  rows.respond(0, answer(200, R"([{"id":")" + numbered_uuid(1) + R"("},{"id":")" + numbered_uuid(2) + R"("},{"id":")" +
                                  numbered_uuid(3) + R"("}])"));
  const json many = result_of(rows)["error"];
  CHECK(many["code"] == "response_too_large");
  CHECK(many["message"] == "reading tasks failed: the response is larger than the limit (more than 2 rows)");
  CHECK(reg.find("task_1") == nullptr);
}

TEST_CASE("a read's rows counted as they are translated: over the limit, cut off, or broken inside, each says so") {
  execution_options tight;
  tight.limits.max_rows = 2;
  auto read = [&](const std::string& body, ref_registry& reg) {
    execution ex(kitchen(), reg, "db_read", R"({"table":"tasks"})", alice_session(), tight);
    ex.respond(0, answer(200, body));
    return result_of(ex);
  };
  const std::string three = "[" + row(kNewId1, R"("title":"a")") + "," + row(kNewId2, R"("title":"b")") + "," +
                            row("0b6f1a2c-3d4e-4f50-8a6b-7c8d9e0f1a33", R"("title":"c")") + "]";
  ref_registry reg = sample_registry();
  const std::string before = reg.to_json();
  // Over the limit, whole or cut off after the row past it: nothing registered.
  for (const std::string& body : {three, three.substr(0, three.size() - 8)}) {
    CAPTURE(body);
    const json over = read(body, reg)["error"];
    CHECK(over["code"] == "response_too_large");
    CHECK(over["status"] == 200);
    CHECK(over["message"] == "reading tasks failed: the response is larger than the limit (more than 2 rows)");
    CHECK(reg.to_json() == before);
  }
  // Cut off within the limit: not rows.
  const json cut = read(three.substr(0, three.find("},{") + 1), reg)["error"];
  CHECK(cut["code"] == "invalid_response");
  CHECK(cut["message"] == "reading tasks failed: the database answered HTTP 200 OK but not with rows");
  CHECK(reg.to_json() == before);
  // A whole array with a broken row: the translator's own error.
  const json broken = read("[" + row(kNewId1, R"("title":"a")") + R"(,{"title":01}])", reg)["error"];
  CHECK(broken["code"] == "invalid_json");
  CHECK(reg.to_json() == before);
  // At the limit: the rows.
  const json two = read("[" + row(kNewId1, R"("title":"a")") + "," + row(kNewId2, R"("title":"b")") + "]", reg);
  CHECK(two["count"] == 2);
}

TEST_CASE("execution options are checked") {
  auto parsed = [](std::string_view text) {
    auto doc = json_document::parse(text);
    REQUIRE(doc.ok());
    return parse_execution_options(doc->root());
  };
  const auto ok = parsed(R"({"rowIds":["0B6F1A2C-3D4E-4F50-8A6B-7C8D9E0F1A21"],"limits":{"maxRows":5}})");
  REQUIRE(ok.ok());
  CHECK(ok->row_ids == std::vector<std::string>{kNewId1});
  CHECK(ok->limits.max_rows == 5);
  CHECK(ok->limits.max_response_bytes == std::size_t(8) << 20);
  CHECK(parsed(R"({"rowIds":["recipe_1"]})").err().path == "rowIds[0]");
  CHECK(parsed(R"({"limits":{"maxRows":0}})").err().path == "limits.maxRows");
  CHECK(parsed(R"({"limits":{"maxBananas":1}})").err().code == "invalid_option");
  CHECK(parsed(R"({"seed":1})").err().code == "invalid_option");
  CHECK(execution_limits_json() ==
        R"({"maxParamsBytes":1048576,"maxStringBytes":262144,"maxResponseBytes":8388608,"maxRows":10000})");
}

TEST_CASE("regression: a 50 MB table name is not echoed whole") {
  ref_registry reg = sample_registry();
  const std::string name(50u << 20, 'x');
  execution ex(kitchen(), reg, "db_read", R"({"table":")" + name + R"("})", alice_session());
  const json out = result_of(ex);
  CHECK(out["error"]["code"] == "params_too_large");

  execution_options roomy;
  roomy.limits.max_params_bytes = std::size_t(64) << 20;
  roomy.limits.max_string_bytes = std::size_t(64) << 20;
  execution wide(kitchen(), reg, "db_read", R"({"table":")" + name + R"("})", alice_session(), roomy);
  const std::string message = result_of(wide)["error"]["message"];
  CHECK(message.size() < 200);
  CHECK(message.find("xxxx…'") != std::string::npos);
  CHECK(wide.result_json().size() < 2000);
}

}  // namespace alfred::test
