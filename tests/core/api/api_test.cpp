// The core's text API (alfred/api/api.h), the layer the WebAssembly bindings
// delegate to: how each call reads its arguments, which error a bad one
// gets, and that a refused call leaves the registry as it was.

#include "alfred/api/api.h"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>

#include "../../../core/src/executor/db_error.h"
#include "../support.h"
#include "alfred/tool_call/filter_ops.h"

namespace alfred::test {
namespace {

using nlohmann::json;

const std::string kOptions = R"({"restUrl":"http://127.0.0.1:3000","userId":"6f1c1a52-8d3e-4f7a-9a41-2b7d5e0c9a11"})";

json parsed(const std::string& text) { return json::parse(text); }

std::string error_code_of(const std::string& result_text) {
  const json result = parsed(result_text);
  REQUIRE(result["data"].is_null());
  REQUIRE(result["error"].is_object());
  return result["error"]["code"].get<std::string>();
}

}  // namespace

TEST_CASE("api: load_domain loads a domain or leaves the target as it was") {
  domain dom;
  CHECK(api::load_domain(dom, pack_domain_json("kitchen")).empty());
  CHECK(dom.find_table("recipes") != nullptr);
  CHECK(error_code_of(api::load_domain(dom, "{\"tables\": 3}")) == "invalid_domain");
  CHECK(dom.find_table("recipes") != nullptr);
  CHECK(error_code_of(api::load_domain(dom, "not json")) == "invalid_domain");
}

namespace {

// A context of kOptions.
request_context context_of(const std::string& options_json = kOptions) {
  request_context ctx;
  const std::string failure = api::make_request_context(ctx, options_json);
  REQUIRE_MESSAGE(failure.empty(), failure);
  return ctx;
}

// The parts a successful build wrote, as `layout` says.
struct built_parts {
  std::string method, url, body, headers;
  bool has_body = false;
};

built_parts parts_of(const std::string& out, const request_layout& layout) {
  built_parts parts;
  std::size_t at = 0;
  parts.method = out.substr(at, layout.method_length);
  at += layout.method_length;
  parts.url = out.substr(at, layout.url_length);
  at += layout.url_length;
  parts.has_body = layout.has_body;
  if (layout.has_body) {
    parts.body = out.substr(at, layout.body_length);
    at += layout.body_length;
  }
  parts.headers = out.substr(at);
  return parts;
}

}  // namespace

TEST_CASE("api: make_request_context parses options once, a bad one leaves the context as it was") {
  request_context ctx = context_of();
  CHECK(ctx.options().base_url == "http://127.0.0.1:3000");
  CHECK_FALSE(ctx.send_error().has_value());
  CHECK(error_code_of(api::make_request_context(ctx, "{")) == "invalid_option");
  CHECK(error_code_of(api::make_request_context(ctx, R"({"colour":"blue"})")) == "invalid_option");
  CHECK(ctx.options().base_url == "http://127.0.0.1:3000");
  // Options no request can be sent with still make a context; each build reports it.
  const request_context ftp = context_of(R"({"restUrl":"ftp://x"})");
  REQUIRE(ftp.send_error().has_value());
  CHECK(ftp.send_error()->code == codes::invalid_option);
}

TEST_CASE("api: context_headers are the headers every request of the context carries, in send order") {
  const request_context ctx =
      context_of(R"({"restUrl":"http://127.0.0.1:3000","apiKey":"anon-key","accessToken":"user-token"})");
  CHECK(api::context_headers(ctx) ==
        R"({"apikey":"anon-key","Authorization":"Bearer user-token","Accept":"application/json"})");
  // A legacy anon key is also the bearer without a session; a publishable key never is.
  CHECK(api::context_headers(context_of(R"({"restUrl":"http://127.0.0.1:3000","apiKey":"eyJh.eyJ.sig"})")) ==
        R"({"apikey":"eyJh.eyJ.sig","Authorization":"Bearer eyJh.eyJ.sig","Accept":"application/json"})");
  CHECK(api::context_headers(context_of(R"({"restUrl":"http://127.0.0.1:3000","apiKey":"sb_publishable_x"})")) ==
        R"({"apikey":"sb_publishable_x","Accept":"application/json"})");
}

TEST_CASE("api: build_request takes [tool, params] and writes the request's parts or the error") {
  const ref_registry reg = sample_registry();
  const request_context ctx = context_of();
  std::string out;
  request_layout layout;
  REQUIRE(
      api::build_request(out, layout, kitchen(), reg, ctx,
                         R"(["db_read",{"table":"recipes","filters":[{"field":"id","op":"=","value":"recipe_1"}]}])"));
  built_parts read = parts_of(out, layout);
  CHECK(read.method == "GET");
  CHECK(read.url.find(std::string("id=eq.") + kRecipe1) != std::string::npos);
  CHECK_FALSE(read.has_body);
  CHECK(read.headers == "{}");

  // The same request as build_request writes through an http_request.
  out.clear();
  REQUIRE(
      api::build_request(out, layout, kitchen(), reg, ctx,
                         R"(["db_update",{"table":"recipes","filters":[{"field":"id","op":"=","value":"recipe_1"}],)"
                         R"("data":{"name":"Dal é"}}])"));
  const built_parts update = parts_of(out, layout);
  auto direct = build_request(kitchen(), reg, "db_update",
                              R"({"table":"recipes","filters":[{"field":"id","op":"=","value":"recipe_1"}],)"
                              R"("data":{"name":"Dal é"}})",
                              ctx.options());
  REQUIRE(direct);
  CHECK(update.method == direct->method);
  CHECK(update.url == direct->url);
  REQUIRE(update.has_body);
  CHECK(update.body == *direct->body);
  CHECK(update.headers == R"({"Content-Type":"application/json","Prefer":"return=representation"})");

  out.clear();
  CHECK_FALSE(api::build_request(out, layout, kitchen(), reg, ctx, "[\"db_read\""));
  CHECK(error_code_of(out) == "invalid_json");
  CHECK(parsed(out)["error"]["path"] == "params");
  for (const char* shape : {R"({})", R"(["db_read"])", R"([1,{}])", R"(["db_read",{},{}])"}) {
    out.clear();
    CHECK_FALSE(api::build_request(out, layout, kitchen(), reg, ctx, shape));
    CHECK_MESSAGE(error_code_of(out) == "invalid_params", shape);
    CHECK(parsed(out)["error"]["message"] == "expected [tool, params]");
  }
  out.clear();
  CHECK_FALSE(api::build_request(out, layout, kitchen(), reg, ctx, R"(["db_read",{"table":"nope"}])"));
  CHECK(error_code_of(out) == "unknown_table");
  // A send error of the context comes after the call validated, as before.
  const request_context ftp = context_of(R"({"restUrl":"ftp://x"})");
  out.clear();
  CHECK_FALSE(api::build_request(out, layout, kitchen(), reg, ftp, R"(["db_read",{"table":"nope"}])"));
  CHECK(error_code_of(out) == "unknown_table");
  out.clear();
  CHECK_FALSE(api::build_request(out, layout, kitchen(), reg, ftp, R"(["db_read",{"table":"ingredients"}])"));
  CHECK(error_code_of(out) == "invalid_option");
}

TEST_CASE("api: context_send_error reports at once what every request would") {
  CHECK(parsed(api::context_send_error(context_of())) == json::parse(R"({"data":null,"error":null})"));
  CHECK(error_code_of(api::context_send_error(context_of(R"({"restUrl":"ftp://x"})"))) == "invalid_option");
  CHECK(error_code_of(api::context_send_error(context_of(R"({"restUrl":"http://x","apiKey":"sb_secret_x"})"))) ==
        "service_key_refused");
}

TEST_CASE("api: start_execution reads [tool, settings], a newline and the params, a bad call leaves no execution") {
  ref_registry reg = sample_registry();
  const request_context ctx = context_of();
  std::optional<execution> ex;
  for (const char* shape : {"[", R"(["db_read",{}])",
                            R"(["db_read"])"
                            "\n{}",
                            R"([null,{}])"
                            "\n{}",
                            R"(["db_read",{},{}])"
                            "\n{}",
                            "\n{}"}) {
    const std::string failure = api::start_execution(ex, kitchen(), reg, ctx, shape);
    CHECK_MESSAGE(error_code_of(failure) == "invalid_params", shape);
    CHECK(parsed(failure)["error"]["message"] == "expected [tool, settings], a newline and the params");
    CHECK_FALSE(ex.has_value());
  }
  CHECK(error_code_of(api::start_execution(ex, kitchen(), reg, ctx, "[\"db_read\",{\"rowIds\":7}]\n{}")) ==
        "invalid_option");
  CHECK_FALSE(ex.has_value());
  // Params that are not JSON are the execution's error, with its result.
  CHECK(api::start_execution(ex, kitchen(), reg, ctx, "[\"db_read\",null]\n{\"table\":").empty());
  REQUIRE(ex.has_value());
  REQUIRE(ex->done());
  CHECK(parsed(ex->result_json())["error"]["code"] == "invalid_json");

  // A read of the catalog signed-in users share: one need, answered, and the result.
  const request_context signed_in =
      context_of(R"({"restUrl":"http://127.0.0.1:3000","apiKey":"anon-key","accessToken":"user-token"})");
  CHECK(
      api::start_execution(ex, kitchen(), reg, signed_in, "[\"db_read\",null]\n{\"table\":\"ingredients\",\"limit\":1}")
          .empty());
  REQUIRE(ex.has_value());
  const json needs = parsed(api::execution_needs(*ex));
  REQUIRE(needs.size() == 1);
  CHECK(needs[0]["kind"] == "http");
  CHECK(needs[0]["method"] == "GET");
  CHECK(needs[0]["url"].get<std::string>().rfind("http://127.0.0.1:3000/ingredients?", 0) == 0);
  // The context's headers (the token among them) are the caller's: a read has none of its own.
  CHECK(needs[0]["headers"] == json::object());
  CHECK(parsed(api::context_headers(signed_in)) ==
        json{{"apikey", "anon-key"}, {"Authorization", "Bearer user-token"}, {"Accept", "application/json"}});
  CHECK(api::respond(ex, 0, 200, "0-0/*", "application/json", "",
                     R"([{"id":"0d9a7c2e-3b4f-4e6a-8c1d-7f8e9a0b1c99","name":"salt"}])")
            .empty());
  REQUIRE(ex->done());
  const json result = parsed(ex->result_json());
  CHECK(result["error"].is_null());
  CHECK(result["data"][0]["name"] == "salt");
  CHECK(parsed(api::execution_needs(*ex)) == json::array());

  // A transport failure by name; an unknown name is a failure with no response.
  CHECK(api::start_execution(ex, kitchen(), reg, signed_in, "[\"db_read\",null]\n{\"table\":\"ingredients\"}").empty());
  CHECK(api::respond(ex, 0, 0, "", "", "no such failure", "connection refused").empty());
  REQUIRE(ex->done());
  CHECK(parsed(ex->result_json())["error"]["code"] == "network_error");
}

TEST_CASE("api: the registry calls") {
  ref_registry reg = sample_registry();
  const std::string before = reg.to_json();
  CHECK(parsed(api::registry_state(reg)) == json{{"data", json::parse(before)}, {"error", nullptr}});

  CHECK(error_code_of(api::restore_registry(reg, "{}")) == "invalid_state");
  CHECK(reg.to_json() == before);
  CHECK(parsed(api::restore_registry(reg, before))["data"] == true);

  CHECK(error_code_of(api::register_generated(kitchen(), reg, "nope", "{}")) == "unknown_table");
  CHECK(error_code_of(api::register_generated(kitchen(), reg, "recipes", "{")) == "invalid_json");
  CHECK(parsed(api::register_generated(kitchen(), reg, "recipes", R"({"name":"Soup"})"))["data"] == "gen_recipe_2");

  CHECK(parsed(api::update_generated(kitchen(), reg, "gen_recipe_2", R"({"name":"Hot Soup"})"))["data"] ==
        "gen_recipe_2");
  CHECK(reg.find("gen_recipe_2")->label == "Hot Soup");
  CHECK(error_code_of(api::update_generated(kitchen(), reg, "gen_recipe_2", "[1]")) == "invalid_content");
  CHECK(error_code_of(api::update_generated(kitchen(), reg, "gen_recipe_2", "{")) == "invalid_json");
  const json unknown = parsed(api::update_generated(kitchen(), reg, "gen_recipe_9", "{}"));
  CHECK(unknown["error"]["code"] == "unknown_ref");
  CHECK(unknown["error"]["hint"] == "revise a gen_ ref listed as pending");

  CHECK(parsed(api::promote(kitchen(), reg, "gen_recipe_2", "0d9a7c2e-3b4f-4e6a-8c1d-7f8e9a0b1c33",
                            "Hot Soup"))["data"] == "recipe_3");
  const json saved = parsed(api::update_generated(kitchen(), reg, "gen_recipe_2", "{}"));
  CHECK(saved["error"]["hint"] == "it was saved as recipe_3; change the saved row with db_update");
  CHECK(error_code_of(api::promote(kitchen(), reg, "gen_recipe_2", kRecipe2, "")) == "already_saved");

  CHECK(parsed(api::ref_table(reg, "inv_1"))["data"] == "inventory");
  CHECK(parsed(api::ref_table(reg, "gen_recipe_1"))["data"] == "recipes");
  CHECK(parsed(api::ref_table(reg, "gen_recipe_2"))["data"] == "recipes");
  CHECK(parsed(api::ref_table(reg, "inv_9"))["data"].is_null());
}

TEST_CASE("api: parse_ref answers the ref grammar") {
  CHECK(parsed(api::parse_ref("gen_recipe_12"))["data"] ==
        json{{"generated", true}, {"prefix", "recipe"}, {"number", 12}});
  CHECK(parsed(api::parse_ref("inv_1"))["data"] == json{{"generated", false}, {"prefix", "inv"}, {"number", 1}});
  for (const char* not_a_ref : {"", "recipe", "recipe_0", "recipe_01", "gen_", "Recipe_1", "recipe_1000000000"})
    CHECK_MESSAGE(parsed(api::parse_ref(not_a_ref))["data"].is_null(), not_a_ref);
}

TEST_CASE("api: translate_rows refuses an unknown table or action and keeps the registry") {
  ref_registry reg = sample_registry();
  const std::string before = reg.to_json();
  std::string out;
  CHECK_FALSE(api::translate_rows(out, kitchen(), reg, "nope", "read", "[]"));
  CHECK(error_code_of(out) == "unknown_table");
  out.clear();
  CHECK_FALSE(api::translate_rows(out, kitchen(), reg, "recipes", "looked", "[]"));
  CHECK(parsed(out)["error"]["hint"] == "one of: read, created, updated, deleted");
  out.clear();
  CHECK_FALSE(api::translate_rows(out, kitchen(), reg, "recipes", "read", R"([{"id":)"));
  CHECK(error_code_of(out) == "invalid_json");
  CHECK(reg.to_json() == before);
  out.clear();
  REQUIRE(api::translate_rows(out, kitchen(), reg, "recipes", "read", std::string(R"([{"id":")") + kRecipe1 + "\"}]"));
  CHECK(parsed(out) == json::parse(R"([{"id":"recipe_1"}])"));
}

TEST_CASE("api: decisions, prompts and the step rule") {
  const json rules = parsed(api::core_rules())["data"];
  CHECK(rules["toolNames"] ==
        json::parse(R"(["db_read","db_create","db_update","db_delete","db_call","db_aggregate"])"));
  CHECK(rules["stepTools"] == json::parse(R"({"read":["db_read","db_call","db_aggregate"],
    "write":["db_read","db_create","db_update","db_delete","db_call","db_aggregate"],"analyze":[],"generate":[]})"));
  CHECK(rules["toolEffects"]["db_delete"] ==
        json::parse(R"({"createsRows":false,"changesRows":true,"deletesRows":true,"callsFunction":false})"));
  CHECK(rules["toolEffects"]["db_create"]["createsRows"] == true);
  CHECK(rules["toolEffects"]["db_call"]["callsFunction"] == true);
  // A tool a read step may call changes no row (a function is judged by its own `read`).
  for (const auto& tool : rules["stepTools"]["read"]) {
    const json& effect = rules["toolEffects"][tool.get<std::string>()];
    CHECK(effect["createsRows"] == false);
    CHECK(effect["changesRows"] == false);
  }
  const json bad_step = parsed(api::parse_decision(R"({"action":"step_complete"})", "think"));
  CHECK(bad_step["error"]["code"] == "invalid_option");
  CHECK(bad_step["error"]["path"] == "stepType");
  CHECK(error_code_of(api::parse_decision(R"({"action":"tool_call","tool":"db_create"})", "read")) ==
        "action_not_allowed");
  CHECK(error_code_of(api::render_query("{", "line")) == "invalid_json");
  const json examples = parsed(api::prompt_examples(kitchen()));
  CHECK(examples["data"].is_object());
  CHECK(parsed(api::tool_definitions(kitchen(), true))["data"].size() == 5);
  CHECK(parsed(api::default_execution_limits()).contains("maxRows"));

  const ref_registry reg = sample_registry();
  std::string out;
  api::build_act_prompt(out, kitchen(), reg, "{");
  CHECK(error_code_of(out) == "invalid_json");
  CHECK(parsed(api::without_uuids(reg, std::string("Key (id)=(") + kInv1 + ")"))["data"] == "Key (id)=(inv_1)");
}

TEST_CASE("api: the prompt calls on good input") {
  const ref_registry reg = sample_registry();
  const json decision =
      parsed(api::parse_decision(R"({"action":"tool_call","tool":"db_read","params":{"table":"inventory"}})", "read"));
  CHECK(decision["error"].is_null());
  CHECK(decision["data"]["tool"] == "db_read");
  CHECK(decision["data"]["params"]["table"] == "inventory");
  const json complete = parsed(api::parse_decision(R"({"action":"step_complete","summary":"done"})", ""));
  CHECK_MESSAGE(complete["error"].is_null(), complete.dump());

  const json line = parsed(api::render_query(R"({"tool":"db_read","table":"inventory","count":0})", "line"));
  REQUIRE(line["error"].is_null());
  CHECK(line["data"].get<std::string>().find("inventory") != std::string::npos);

  std::string out;
  api::build_act_prompt(out, kitchen(), reg, R"({"step":{"type":"read","description":"what is in the fridge"}})");
  const json prompt = parsed(out);
  REQUIRE(prompt["error"].is_null());
  CHECK(prompt["data"]["user"].get<std::string>().find("what is in the fridge") != std::string::npos);
  CHECK_FALSE(prompt["data"]["system"].get<std::string>().empty());
}

TEST_CASE("api: an execution with settings takes the client's row ids") {
  ref_registry reg = sample_registry();
  std::optional<execution> ex;
  const std::string id = "0d9a7c2e-3b4f-4e6a-8c1d-7f8e9a0b1c44";
  const std::string options =
      R"({"restUrl":"http://127.0.0.1:3000","accessToken":")" + alice_session().access_token + R"("})";
  REQUIRE(api::start_execution(ex, kitchen(), reg, context_of(options),
                               R"(["db_create",{"rowIds":[")" + id + R"("]}])" + "\n" +
                                   R"({"table":"shopping_list","data":{"name":"bread"}})")
              .empty());
  // Reads first (the list's existing items), then the insert with the given id.
  for (int round = 0; round < 4 && !ex->done(); ++round) {
    const json needs = parsed(api::execution_needs(*ex));
    REQUIRE(needs.size() == 1);
    if (needs[0]["method"] == "POST") {
      CHECK(needs[0]["body"].get<std::string>().find(id) != std::string::npos);
      // A write's own headers, and none of the context's.
      CHECK(needs[0]["headers"]["Content-Type"] == "application/json");
      CHECK(needs[0]["headers"]["Prefer"].get<std::string>().find("return=representation") != std::string::npos);
      CHECK_FALSE(needs[0]["headers"].contains("Authorization"));
      return;
    }
    REQUIRE(api::respond(ex, 0, 200, "*/0", "application/json", "", "[]").empty());
  }
  FAIL("no insert was planned");
}

TEST_CASE("api: core_rules lists the rules the package generates its constants from") {
  const json rules = parsed(api::core_rules())["data"];
  CHECK(rules["filterOps"]["names"].size() == filter_op_rules().size());
  CHECK(rules["filterOps"]["names"][0] == "=");
  CHECK(rules["filterOps"]["aliases"][0] == "==");
  for (const auto& alias : rules["filterOps"]["aliases"])
    CHECK_MESSAGE(parse_filter_op(alias.get<std::string>()).has_value(), alias);
  // The hint the executor gives every unknown outcome.
  need_response lost;
  CHECK(rules["outcomeUnknownHint"] == detail::write_outcome_unknown(lost, "x", "y").hint);
  // The identifier rule as data, and is_identifier following it.
  CHECK(rules["names"]["identifier"]["maxLength"] == 63);
  CHECK(rules["names"]["generatedRefPrefix"] == "gen");
  CHECK(rules["names"]["currentUserRef"] == "me");
  CHECK(rules["names"]["usersReference"] == "auth.users");
  CHECK(rules["names"]["reservedColumns"].size() == 9);
  for (const auto& name : rules["names"]["reservedColumns"]) CHECK(is_postgrest_reserved(name.get<std::string>()));
  CHECK(is_identifier("meal_plans"));
  CHECK(is_identifier(std::string(63, 'a')));
  for (const char* name : {"", "MealPlans", "2x", "_x", "a-b", "ab c"}) CHECK_FALSE_MESSAGE(is_identifier(name), name);
  CHECK_FALSE(is_identifier(std::string(64, 'a')));
}

TEST_CASE("api: schema_description is the Act prompt's Schema section body") {
  const json text = parsed(api::schema_description(kitchen()));
  REQUIRE(text["data"].is_string());
  const std::string schema = text["data"].get<std::string>();
  CHECK(schema.find("recipes") != std::string::npos);
  std::string out;
  api::build_act_prompt(out, kitchen(), sample_registry(), R"({"step":{"type":"read","description":"x"}})");
  CHECK(parsed(out)["data"]["user"].get<std::string>().find(schema) != std::string::npos);
}

TEST_CASE("api: an allocation failure is an out_of_memory result") {
  std::string out = "partial";
  api::guarded_into(out, []() { throw std::bad_alloc(); });
  CHECK(error_code_of(out) == "out_of_memory");
  CHECK(error_code_of(api::guarded([]() -> std::string { throw std::runtime_error("boom"); })) == "internal_error");
}

TEST_CASE("api: a large result for the model is Latin-1 when asked and every character fits, else UTF-8") {
  ref_registry reg = sample_registry();
  const request_context signed_in =
      context_of(R"({"restUrl":"http://127.0.0.1:3000","apiKey":"anon-key","accessToken":"user-token"})");
  // A read of `count` ingredients named `name`, for the model; the text for the model as written.
  auto model_text = [&](const std::string& name, std::size_t count, bool& latin1) {
    std::optional<execution> ex;
    REQUIRE(api::start_execution(ex, kitchen(), reg, signed_in,
                                 R"(["db_read",{"forModel":{"rows":1000,"chars":1000000}}])"
                                 "\n{\"table\":\"ingredients\",\"limit\":1000}")
                .empty());
    json rows = json::array();
    for (std::size_t i = 0; i < count; ++i) rows.push_back({{"name", name}, {"category", "dairy"}});
    REQUIRE(api::respond(ex, 0, 200, "*/*", "application/json", "", rows.dump()).empty());
    REQUIRE(ex->done());
    std::string scratch;
    const std::string& text = api::execution_result(*ex, scratch, latin1);
    return text.substr(text.find('\n') + 1);
  };
  bool latin1 = true;
  const std::string accents = model_text(
      "Cr\xC3\xA8me fra\xC3\xAE"
      "che \xC2\xAB"
      "bio\xC2\xBB",
      600, latin1);
  CHECK(latin1);
  CHECK(accents.size() > 16384);
  CHECK(accents.find("Cr\xE8me fra\xEE"
                     "che \xAB"
                     "bio\xBB") != std::string::npos);
  // Not asked, too small, or a character past Latin-1: UTF-8 as ever.
  latin1 = false;
  CHECK(model_text("Cr\xC3\xA8me", 600, latin1).find("Cr\xC3\xA8me") != std::string::npos);
  CHECK_FALSE(latin1);
  latin1 = true;
  CHECK(json::parse(model_text("Cr\xC3\xA8me", 3, latin1))["rows"][0]["name"] == "Cr\xC3\xA8me");
  CHECK_FALSE(latin1);
  latin1 = true;
  CHECK(json::parse(model_text("Cr\xC3\xA8me \xE2\x82\xAC", 600, latin1))["rows"][599]["name"] ==
        "Cr\xC3\xA8me \xE2\x82\xAC");
  CHECK_FALSE(latin1);
}

}  // namespace alfred::test
