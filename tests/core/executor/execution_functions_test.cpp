// db_call through the executor: the exact request for a function that reads
// (GET) and one that writes (POST), the embedding of a vector argument, the
// answer by what the function returns, and its errors as the model sees them.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "../request_text.h"
#include "../support.h"
#include "../team_domain.h"
#include "alfred/api/api.h"
#include "alfred/executor/executor.h"

namespace alfred::test {
namespace {

using nlohmann::json;

need_response ok(std::string body, int status = 200) { return {status, "", "application/json", std::move(body)}; }

struct call_run {
  ref_registry registry = team_registry();
  std::optional<execution> ex;

  call_run& start(std::string_view params, execution_options settings = {}) {
    ex.emplace(team(), registry, "db_call", params, alice_session(), std::move(settings));
    return *this;
  }
  const need& only_need() const {
    REQUIRE(ex->needs().size() == 1);
    return ex->needs().front();
  }
  call_run& answer(need_response response) {
    ex->respond(0, std::move(response));
    return *this;
  }
  json result() const {
    REQUIRE(ex->done());
    return json::parse(ex->result_json());
  }
};

std::string body_of(const http_request& req) { return req.body.value_or("(none)"); }

}  // namespace

TEST_CASE("a function that reads is GET /rpc/<name> with its arguments in the query string") {
  call_run r;
  r.start(R"({"function":"count_open_tickets","args":{"project_id":"project_1","status":"open"}})");
  const http_request& req = r.only_need().request;
  CHECK(req.method == "GET");
  CHECK(url_path(req) == "http://127.0.0.1:3000/rpc/count_open_tickets");
  CHECK(query_text(req) == std::string("project_id=") + kProjectOne + "\nstatus=open\n");
  CHECK_FALSE(req.body.has_value());
  r.answer(ok("3"));
  const json out = r.result();
  CHECK(out["error"].is_null());
  CHECK(out["data"] == json::parse(R"([{"value":3}])"));
  CHECK(out["count"] == 1);
  CHECK(out["query"]["tool"] == "db_call");
  CHECK(out["query"]["function"] == "count_open_tickets");
  CHECK(out["query"]["table"] == "");
  CHECK(out["query"]["requested"] == json::parse(R"({"function":"count_open_tickets",
    "args":{"project_id":"project_1","status":"open"}})"));
}

TEST_CASE("a read whose argument PostgREST would read as its own (limit) is sent by POST") {
  call_run r;
  r.start(R"({"function":"count_open_tickets","args":{"project_id":"project_1","limit":2}})");
  const http_request& req = r.only_need().request;
  CHECK(req.method == "POST");
  CHECK(body_of(req) == std::string(R"({"project_id":")") + kProjectOne + R"(","limit":2})");
}

TEST_CASE("a list argument of a read goes as a PostgreSQL array literal, each element quoted") {
  call_run r;
  r.start(R"({"function":"project_tags","args":{"tags":["a,b","say \"hi\""]}})");
  const http_request& req = r.only_need().request;
  CHECK(req.method == "GET");
  CHECK(query_text(req) == "tags={\"a,b\",\"say \\\"hi\\\"\"}\n");
  r.answer(ok(R"(["x","y"])"));
  CHECK(r.result()["data"] == json::parse(R"([{"value":"x"},{"value":"y"}])"));
}

TEST_CASE("a function that writes is POST with a JSON body, and rows of a table come back with refs and labels") {
  call_run r;
  r.start(R"({"function":"archive_project","args":{"project_id":"project_1"}})");
  const http_request& req = r.only_need().request;
  CHECK(req.method == "POST");
  CHECK(req.url == "http://127.0.0.1:3000/rpc/archive_project");
  CHECK(body_of(req) == std::string(R"({"project_id":")") + kProjectOne + "\"}");
  CHECK(headers_text(req).find("Content-Type: application/json") != std::string::npos);
  r.answer(ok(std::string(R"({"id":")") + kProjectOne + R"(","account_id":")" + kAccountAcme +
              R"(","name":"Apollo","status":"archived","created_by":")" + kAlice + "\"}"));
  const json out = r.result();
  CHECK(out["error"].is_null());
  CHECK(out["data"] == json::parse(R"([{"id":"project_1","account_id":"account_1","_account_id_label":"Acme",
    "name":"Apollo","status":"archived","created_by":"me"}])"));
  CHECK(out["query"]["table"] == "projects");
}

TEST_CASE("a function returning rows of a table with hidden columns selects the visible ones") {
  call_run r;
  r.start(R"({"function":"match_documents","args":{"query_embedding":"lisbon contract","match_count":2}})");
  const need& embed = r.only_need();
  CHECK(embed.type == need::kind::embed);
  CHECK(embed.text == "lisbon contract");
  r.answer(ok("[0.25,-1,3e-2]"));
  const http_request& req = r.only_need().request;
  CHECK(req.method == "POST");
  CHECK(query_text(req) == "select=id,title\n");
  CHECK(body_of(req) == R"({"match_count":2,"query_embedding":"[0.25,-1,3e-2]"})");
  r.answer(ok(R"([{"id":"8e3f5c4b-0d6a-4fb1-8c43-445566778899","title":"Lisbon contract"}])"));
  const json out = r.result();
  CHECK(out["data"] == json::parse(R"([{"id":"doc_1","title":"Lisbon contract"}])"));
  CHECK(out["query"]["requested"]["args"]["query_embedding"] == "lisbon contract");
  CHECK(out["query"]["effective"].is_null());
  CHECK(out["query"]["notes"] == json::parse(R"(["query_embedding was sent as the embedding of the text given"])"));
}

TEST_CASE("an embedder that fails or answers no numbers fails the call, naming the argument") {
  call_run r;
  r.start(R"({"function":"match_documents","args":{"query_embedding":"x"}})");
  r.answer(ok(R"({"error":"quota"})"));
  const json out = r.result();
  CHECK(out["error"]["code"] == "embedding_failed");
  CHECK(out["error"]["path"] == "args.query_embedding");
}

TEST_CASE("a JSON result: fields named like foreign keys become refs, labelled by the object they describe") {
  call_run r;
  r.start(R"({"function":"get_accounts"})");
  CHECK(r.only_need().request.method == "GET");
  CHECK(r.only_need().request.url == "http://127.0.0.1:3000/rpc/get_accounts");
  r.answer(ok(std::string(R"([{"account_id":")") + kAccountAcme + R"(","name":"Acme","role":"owner"},)" +
              R"({"account_id":")" + kAccountBeta + R"(","name":"Beta Research","role":"member"}])"));
  const json out = r.result();
  CHECK(out["data"] == json::parse(R"([{"account_id":"account_1","name":"Acme","role":"owner"},
    {"account_id":"account_2","name":"Beta Research","role":"member"}])"));
  const ref_entry* beta = r.registry.find("account_2");
  REQUIRE(beta);
  CHECK(beta->label == "Beta Research");
  CHECK(beta->table == "accounts");
}

TEST_CASE("a value that is a table's key comes back as its ref, and nothing comes back as no rows") {
  call_run r;
  r.start(R"({"function":"current_account","args":{"account_id":"account_1"}})");
  r.answer(ok(std::string("\"") + kAccountBeta + "\""));
  CHECK(r.result()["data"] == json::parse(R"([{"value":"account_2"}])"));

  call_run nothing;
  nothing.start(R"({"function":"touch"})");
  CHECK(nothing.only_need().request.method == "POST");
  CHECK(body_of(nothing.only_need().request) == "{}");
  nothing.answer(ok("", 204));
  const json out = nothing.result();
  CHECK(out["error"].is_null());
  CHECK(out["data"] == json::array());
  CHECK(out["query"]["notes"] == json::parse(R"(["touch returned nothing: it ran without an error"])"));
}

TEST_CASE("the function's own error reaches the model as the app wrote it, with a code") {
  call_run r;
  r.start(R"({"function":"create_account","args":{"name":"Acme"}})");
  r.answer({400, "", "application/json",
            R"({"code":"P0001","details":null,"hint":null,"message":"An account with that slug already exists"})"});
  const json out = r.result();
  CHECK(out["error"]["code"] == "function_error");
  CHECK(out["error"]["message"] == "calling create_account failed: An account with that slug already exists");
  CHECK(out["error"]["hint"] ==
        "the function refused the call for the reason in its message: correct the arguments, or tell the user");
  // A hint the function's RAISE gives is the app's own: it is kept.
  call_run hinted;
  hinted.start(R"({"function":"create_account","args":{"name":"Acme"}})");
  hinted.answer({400, "", "application/json",
                 R"({"code":"P0001","details":null,"hint":"Use a slug of letters and dashes","message":"Bad slug"})"});
  CHECK(hinted.result()["error"]["hint"] == "Use a slug of letters and dashes");
}

TEST_CASE("an operator the function's body uses that does not fit its values is the function's failure") {
  call_run r;
  r.start(R"({"function":"get_accounts"})");
  r.answer({404, "", "application/json",
            R"({"code":"42883","details":null,"hint":"No operator matches the given name and argument types. You )"
            R"(might need to add explicit type casts.","message":"operator does not exist: uuid = text"})"});
  const json out = r.result();
  CHECK(out["error"]["code"] == "function_error");
  CHECK(out["error"]["message"] == "calling get_accounts failed: operator does not exist: uuid = text");
  CHECK(out["error"]["hint"] == "the function failed inside: try other argument values, or tell the user");
  // The same from a function that writes.
  call_run write;
  write.start(R"({"function":"create_account","args":{"name":"Acme"}})");
  write.answer({404, "", "application/json",
                R"({"code":"42883","hint":null,"message":"function public.slug_of(text, integer) does not exist"})"});
  CHECK(write.result()["error"]["code"] == "function_error");
  // Naming the function called: the schema cache has it with arguments the database no longer takes.
  call_run stale;
  stale.start(R"({"function":"get_accounts"})");
  stale.answer({404, "", "application/json",
                R"({"code":"42883","hint":"No function matches the given name and argument types.",)"
                R"("message":"function public.get_accounts() does not exist"})"});
  const json gone = stale.result();
  CHECK(gone["error"]["code"] == "unknown_function");
  CHECK(gone["error"]["hint"] == "the database has no such function; the schema cache may need a reload");
}

TEST_CASE("PostgREST's function errors and a write refused in a read-only call have their own codes") {
  auto code_for = [](std::string_view params, std::string body, int status) {
    call_run r;
    r.start(params);
    r.answer({status, "", "application/json", std::move(body)});
    return r.result()["error"]["code"].get<std::string>();
  };
  CHECK(code_for(R"({"function":"get_accounts"})",
                 R"({"code":"25006","message":"cannot execute INSERT in a read-only transaction"})",
                 400) == "read_only_transaction");
  CHECK(code_for(R"({"function":"get_accounts"})", R"({"code":"PGRST202","message":"Could not find the function"})",
                 404) == "unknown_function");
  CHECK(code_for(R"({"function":"get_accounts"})", R"({"code":"PGRST203","message":"Could not choose"})", 300) ==
        "ambiguous_function");
}

TEST_CASE("a function that writes, whose answer is lost, has an unknown outcome, and a read's is a network error") {
  call_run write;
  write.start(R"({"function":"create_account","args":{"name":"Acme"}})");
  write.answer({0, "", "", "socket hang up", transport_failure::no_response});
  CHECK(write.result()["error"]["code"] == "write_outcome_unknown");
  call_run read;
  read.start(R"({"function":"get_accounts"})");
  read.answer({0, "", "", "socket hang up", transport_failure::no_response});
  CHECK(read.result()["error"]["code"] == "network_error");
}

TEST_CASE("a function's rows cut off are the translator's invalid JSON, not a read's answer without rows") {
  call_run write;
  write.start(R"({"function":"archive_project","args":{"project_id":"project_1"}})");
  write.answer(ok(std::string(R"({"id":")") + kProjectOne + R"(","name":"Apo)"));
  const json err = write.result()["error"];
  CHECK(err["code"] == "write_outcome_unknown");
  const std::string message = err["message"];
  CHECK(message.find("invalid JSON at byte") != std::string::npos);
  CHECK(message.find("reading projects") == std::string::npos);
}

TEST_CASE("a function runs as the signed-in user: without a user's token nothing is sent") {
  ref_registry reg = team_registry();
  execution ex(team(), reg, "db_call", R"({"function":"get_accounts"})", alice_options());
  REQUIRE(ex.done());
  const json out = json::parse(ex.result_json());
  CHECK(out["error"]["code"] == "not_signed_in");
  CHECK(out["error"]["message"] ==
        "get_accounts runs as the signed-in user, and no signed-in user's access token was "
        "given");
}

TEST_CASE("the model's result for a call names the function, with the query as text") {
  call_run r;
  execution_options settings;
  settings.for_model = result_limits{};
  r.start(R"({"function":"count_open_tickets","args":{"project_id":"project_1"}})", settings);
  r.answer(ok("4"));
  std::string scratch;
  const std::string& text = api::execution_result(*r.ex, scratch);
  const json model = json::parse(text.substr(text.find('\n') + 1));
  CHECK(model["ok"] == true);
  CHECK(model["tool"] == "db_call");
  CHECK(model["function"] == "count_open_tickets");
  CHECK(model["rows"] == json::parse(R"([{"value":4}])"));
  CHECK(model["query"] ==
        "Query: Function: count_open_tickets | Args: project_id = project_1\nOutcome: 1 row returned");
}

TEST_CASE("a value the app fixes is sent as the argument, never the model's") {
  call_run r;
  execution_options settings;
  settings.fixed.push_back({"account_id", std::string("\"") + kAccountBeta + "\""});
  r.start(R"({"function":"current_account"})", settings);
  CHECK(query_text(r.only_need().request) == std::string("account_id=") + kAccountBeta + "\n");
}

}  // namespace alfred::test

namespace alfred::test {

TEST_CASE("regression: a UUID in a key the model made up came back in the error's path") {
  call_run r;
  r.start(R"({"function":"get_accounts","x-c69607bb-5d2e-4b8a-9f3c-1e2d3c4b5a61":1})");
  const json out = r.result();
  CHECK(out["error"]["code"] == "unknown_param");
  CHECK(out["error"]["path"].get<std::string>().find("c69607bb") == std::string::npos);
}

TEST_CASE("regression: a table the model named in a db_call, holding a UUID, was echoed as the result's table") {
  call_run r;
  r.start(R"({"table":"get_acc---o#u6f1c1a52-8d3e-4f7a-9a41-2b7d5e0c9a11}}nts"})");
  const json out = r.result();
  CHECK(out["error"]["code"] == "unknown_param");
  CHECK(out["query"]["table"] == "(uuid)");
  CHECK(out.dump().find("6f1c1a52") == std::string::npos);
}

TEST_CASE("regression: a function name the model made up, holding a UUID, was echoed in the query record") {
  call_run r;
  r.start(R"({"function":"ge11111111-2222-4333-8444-555555555501t_accounts"})");
  const json out = r.result();
  CHECK(out["error"]["code"] == "unknown_function");
  CHECK(out["query"].contains("function") == false);
  CHECK(out["query"]["requested"]["function"] == "(uuid)");
}

}  // namespace alfred::test

namespace alfred::test {

TEST_CASE("a vector argument's size, when the domain gives it, is checked before the embedding is sent") {
  auto dom = parse_domain(R"({"tables":{"docs":{"ref":"doc","columns":{"id":{"type":"uuid"}}}},
    "functions":{"search":{"read":true,"args":{"q":{"type":"vector","dimensions":3,"required":true}},
      "returns":{"table":"docs","set":true}}}})");
  REQUIRE(dom.ok());
  CHECK(dom->find_function("search")->embedding_size("q") == 3);
  ref_registry reg;
  execution wrong(*dom, reg, "db_call", R"({"function":"search","args":{"q":"lisbon"}})", alice_session());
  REQUIRE(wrong.needs().size() == 1);
  wrong.respond(0, ok("[1,2]"));
  REQUIRE(wrong.done());
  const json out = json::parse(wrong.result_json());
  CHECK(out["error"]["code"] == "embedding_failed");
  CHECK(out["error"]["message"] == "the embedder gave 2 numbers, and q takes a vector of 3");
  CHECK(out["query"]["source"] == "none");
  execution right(*dom, reg, "db_call", R"({"function":"search","args":{"q":"lisbon"}})", alice_session());
  right.respond(0, ok("[1,2,3]"));
  REQUIRE(right.needs().size() == 1);
  CHECK(right.needs()[0].request.body.value_or("") == R"({"q":"[1,2,3]"})");
  auto bad = parse_domain(R"({"tables":{"docs":{"ref":"doc","columns":{"id":{"type":"uuid"}}}},
    "functions":{"search":{"args":{"q":{"type":"vector","dimensions":0}},"returns":{"type":"void"}}}})");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.err().path == "functions.search.args.q.dimensions");
}

TEST_CASE("a function argument names a field as a column does: user ids in a JSON result are me or a user's ref") {
  auto dom = parse_domain(R"({"tables":{"accounts":{"ref":"account","exposed":false,"label":["name"],
      "columns":{"id":{"type":"uuid"},"name":{"type":"text"}}}},
    "functions":{"members":{"read":true,"returns":{"type":"json"}},
      "remove_member":{"args":{"user_id":{"type":"uuid","references":"auth.users","required":true}},
        "returns":{"type":"void"}}}})");
  REQUIRE(dom.ok());
  CHECK(dom->field_holds_user_id("user_id"));
  ref_registry reg;
  execution ex(*dom, reg, "db_call", R"({"function":"members"})", alice_session());
  ex.respond(0, ok(std::string(R"([{"user_id":")") + kAlice + R"(","name":"ada"},{"user_id":")" + kAccountBeta +
                   R"(","name":"ben"}])"));
  CHECK(json::parse(ex.result_json())["data"] ==
        json::parse(R"([{"user_id":"me","name":"ada"},{"user_id":"user_1","name":"ben"}])"));
  CHECK(ex.result_json().find(kAccountBeta) == std::string::npos);
  // "Remove Ben": the member by the ref the list gave, sent as his id.
  execution removed(*dom, reg, "db_call", R"({"function":"remove_member","args":{"user_id":"user_1"}})",
                    alice_session());
  REQUIRE(removed.needs().size() == 1);
  CHECK(removed.needs()[0].request.body.value_or("") == std::string(R"({"user_id":")") + kAccountBeta + "\"}");
}

}  // namespace alfred::test

namespace alfred::test {

TEST_CASE("a set a function returns is capped as a read's rows are: the request asks for the cap and the total") {
  call_run r;
  execution_options settings;
  settings.for_model = result_limits{};
  settings.for_model->rows = 3;
  r.start(R"({"function":"project_tags","args":{"tags":["a"]}})", settings);
  const http_request& req = r.only_need().request;
  CHECK(req.url.find("limit=3") != std::string::npos);
  CHECK(headers_text(req).find("Prefer: count=exact\n") != std::string::npos);
  r.answer({200, "0-2/120", "application/json", R"(["a","b","c"])"});
  std::string scratch;
  const std::string& text = api::execution_result(*r.ex, scratch);
  const json model = json::parse(text.substr(text.find('\n') + 1));
  CHECK(model["count"] == 120);
  CHECK(model["truncated"] == true);
  // A set the function reads is paged as a read's rows are.
  CHECK(model["hint"] ==
        "The call returned 120 rows; this result shows 3. Page with limit and offset 3 to see the others.");
  CHECK(model["query"] == "Query: Function: project_tags | Args: tags = [a] | Limit: 3\nOutcome: 120 rows returned");
  // One value, not a set: nothing to cap.
  call_run one;
  one.start(R"({"function":"count_open_tickets","args":{"project_id":"project_1"}})", settings);
  CHECK(one.only_need().request.url.find("limit=") == std::string::npos);
}

TEST_CASE(
    "a page of a set a function returns: limit and offset sent, in the query, and a set a write returns is not paged") {
  call_run r;
  execution_options settings;
  settings.for_model = result_limits{};
  settings.for_model->rows = 3;
  r.start(R"({"function":"project_tags","args":{"tags":["a"]},"limit":2,"offset":4})", settings);
  const http_request& req = r.only_need().request;
  CHECK(req.url.find("limit=2&offset=4") != std::string::npos);
  // Under the cap: no total asked for, as a read's own limit.
  CHECK(headers_text(req).find("Prefer: count=") == std::string::npos);
  r.answer({200, "4-5/*", "application/json", R"(["e","f"])"});
  std::string scratch;
  const std::string& text = api::execution_result(*r.ex, scratch);
  const json model = json::parse(text.substr(text.find('\n') + 1));
  CHECK(model["rows"] == json::parse(R"([{"value":"e"},{"value":"f"}])"));
  CHECK(model["query"] ==
        "Query: Function: project_tags | Args: tags = [a] | Limit: 2 | Offset: 4\nOutcome: 2 rows returned");
  // A limit over the cap is the cap, as a read's.
  call_run over;
  over.start(R"({"function":"project_tags","limit":40})", settings);
  CHECK(over.only_need().request.url.find("limit=3") != std::string::npos);
}

}  // namespace alfred::test
