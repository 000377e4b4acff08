// db_call end to end in the core: params as a model writes them against a
// team app's functions, then whatever the database might answer.
// Input: the params JSON, a line `---`, the answer's body.
//
// A call that validates must become a request that is safe to send: the
// function's own /rpc path, GET only for a function that reads, every
// argument one the function declares (refs sent as keys, never as refs),
// within the URL limit. Whatever the answer, the execution ends, and the
// text the model reads holds no UUID.

#include <cstdint>
#include <string>

#include "alfred/api/api.h"
#include "alfred/executor/executor.h"
#include "alfred/postgrest/request.h"
#include "alfred/tool_call/tool_call.h"
#include "fuzz_support.h"

namespace alfred::fuzz {
namespace {

constexpr const char* kTeamDomain = R"json({
  "name": "teams",
  "tables": {
    "accounts": {"ref": "account", "exposed": false, "label": ["name"],
      "columns": {"id": {"type": "uuid"}, "name": {"type": "text"}}},
    "projects": {"ref": "project", "label": ["name"],
      "columns": {"id": {"type": "uuid", "writable": false},
        "account_id": {"type": "uuid", "required": true, "references": "accounts"},
        "name": {"type": "text", "required": true}, "created_by": {"type": "uuid", "references": "auth.users"}}},
    "tickets": {"ref": "ticket", "label": ["title"],
      "columns": {"id": {"type": "integer", "writable": false},
        "project_id": {"type": "uuid", "references": "projects"}, "title": {"type": "text"}}},
    "documents": {"ref": "doc", "label": ["title"], "hidden": ["embedding"],
      "columns": {"id": {"type": "uuid"}, "title": {"type": "text"}, "embedding": {"type": "text"}}}
  },
  "functions": {
    "get_accounts": {"read": true, "returns": {"type": "json"}},
    "archive_project": {"args": {"project_id": {"type": "uuid", "required": true, "references": "projects"}},
      "returns": {"table": "projects"}},
    "count_tickets": {"read": true, "args": {"project_id": {"type": "uuid", "references": "projects"},
      "status": {"type": "text", "values": ["open", "closed"]}, "limit": {"type": "integer"},
      "tags": {"type": "text[]"}, "ticket_ids": {"type": "integer", "references": "tickets"}},
      "returns": {"type": "integer"}},
    "match_documents": {"read": true, "args": {"query_embedding": {"type": "vector", "required": true},
      "match_count": {"type": "integer"}}, "returns": {"table": "documents", "set": true}},
    "current_account": {"read": true, "args": {"owner": {"type": "uuid", "references": "auth.users"}},
      "returns": {"type": "uuid", "references": "accounts"}},
    "touch": {"returns": {"type": "void"}}
  }
})json";

const domain& team() {
  static const domain dom = [] {
    auto parsed = parse_domain(kTeamDomain);
    if (!parsed) fail("the team domain does not load", parsed.err().message);
    return std::move(parsed).value();
  }();
  return dom;
}

ref_registry team_registry() {
  ref_registry reg;
  reg.set_turn(1);
  reg.register_row("accounts", "account", "5b0c2f1e-7a3d-4c8e-9f10-112233445566", ref_action::linked, "Acme");
  reg.register_row("projects", "project", "7d2e4b3a-9c5f-4ea0-9b32-334455667788", ref_action::read, "Apollo");
  reg.register_keyed_row("tickets", "ticket", column_type::integer, "42", ref_action::read, "Lamp");
  return reg;
}

bool has_uuid(std::string_view text) {
  for (std::size_t at = 0; at + 36 <= text.size(); ++at)
    if (is_uuid_syntax(text.substr(at, 36))) return true;
  return false;
}

void check_request(const tool_call& call, const http_request& req) {
  const std::string prefix = alice_options().base_url + "/rpc/" + call.fn->name;
  check(req.url.rfind(prefix, 0) == 0 && (req.url.size() == prefix.size() || req.url[prefix.size()] == '?'),
        "the URL does not name the function", req.url);
  check(req.url.size() <= alice_options().max_url_length, "the URL is over the limit", req.url);
  check(req.url.find_first_of(" \t\r\n#\"<>\\^`{|}") == std::string::npos, "the URL has an unencoded byte", req.url);
  if (req.method == "GET") {
    check(call.fn->read, "a function that changes data is sent by GET", req.url);
    check(!req.body, "a GET has a body", req.url);
    return;
  }
  check(req.method == "POST", "a function is sent by neither GET nor POST", req.method);
  check(req.body.has_value(), "a POST has no body", req.url);
  const json body = json::parse(*req.body, nullptr, false);
  check(body.is_object(), "the body is not an object", *req.body);
  for (const auto& [key, value] : body.items()) {
    const column* arg = call.fn->args.find_column(key);
    check(arg != nullptr, "the body has an argument the function does not declare", *req.body);
    if (arg->type == column_type::uuid && !value.is_null())
      check(value.is_string() && is_uuid_syntax(value.get<std::string>()), "a uuid argument sent without a UUID",
            *req.body);
  }
}

}  // namespace
}  // namespace alfred::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace alfred;
  using namespace alfred::fuzz;
  const std::string input(reinterpret_cast<const char*>(data), size);
  const auto split = input.find("\n---\n");
  const std::string params = input.substr(0, split);
  const std::string answer = split == std::string::npos ? std::string("null") : input.substr(split + 5);

  ref_registry registry = team_registry();
  auto call = parse_tool_call(team(), registry, "db_call", std::string_view(params), kAlice);
  if (call) {
    auto req = build_request(team(), *call, alice_options());
    if (req) check_request(*call, *req);
  }

  execution_options settings;
  settings.for_model = result_limits{};
  request_options session = alice_options();
  // {"role":"authenticated","sub":"<kAlice>"}, with a dummy signature.
  session.access_token =
      "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9."
      "eyJyb2xlIjoiYXV0aGVudGljYXRlZCIsInN1YiI6IjZmMWMxYTUyLThkM2UtNGY3YS05YTQxLTJiN2Q1ZTBjOWExMSJ9.c2lnbmF0dXJl";
  execution ex(team(), registry, "db_call", std::string_view(params), session, settings);
  for (int round = 0; round < 8 && !ex.done(); ++round) {
    const std::size_t needs = ex.needs().size();
    for (std::size_t i = 0; i < needs; ++i) {
      const bool embed = ex.needs()[i].type == need::kind::embed;
      ex.respond(i, {200, "", "application/json", embed ? std::string("[0.5,1,-2]") : answer});
    }
  }
  check(ex.done(), "the execution did not end", params);
  std::string scratch;
  const std::string& text = api::execution_result(ex, scratch);
  const auto newline = text.find('\n');
  check(newline != std::string::npos, "a result for the model has no model text", text);
  check(!has_uuid(std::string_view(text).substr(newline + 1)), "the model's text holds a UUID", text);
  return 0;
}
