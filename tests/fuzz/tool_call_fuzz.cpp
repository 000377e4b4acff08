// Tool-call validation and request building: params as the model writes
// them, against the kitchen domain and a registry with refs of every kind.
// Input: the tool name, a newline, the params JSON.
//
// A call that validates must become a request that is safe to send: the
// right method on the named table, scoped to the signed-in user, a body of
// writable columns with UUIDs (never refs) in UUID columns, an update or
// delete that selects rows, within the URL limit; and both ways of writing
// the request (http_request, append_request_result) agree.

#include <cstdint>
#include <string>

#include "alfred/api/api.h"
#include "alfred/postgrest/request.h"
#include "alfred/tool_call/tool_call.h"
#include "fuzz_support.h"

namespace alfred::fuzz {
namespace {

void check_uuid_value(const column& col, const json& value, const std::string& where) {
  if (value.is_null()) return;
  if (col.type == column_type::uuid) {
    check(value.is_string() && is_uuid_syntax(value.get<std::string>()), "a uuid column sent without a UUID",
          where + ": " + value.dump());
    return;
  }
  check(value.is_array(), "a uuid[] column sent without an array", where + ": " + value.dump());
  for (const auto& item : value)
    check(item.is_string() && is_uuid_syntax(item.get<std::string>()), "a uuid[] element sent without a UUID",
          where + ": " + value.dump());
}

// One row of a POST or PATCH body.
void check_body_row(const table& tbl, const json& row, bool create, const std::string& body) {
  check(row.is_object(), "a body row is not an object", body);
  for (const auto& [key, value] : row.items()) {
    if (tbl.has_owner() && key == tbl.owner) {
      check(create, "an update sends the owner column", body);
      check(value == json(kAlice), "a row is created for another user", body);
      continue;
    }
    const column* col = tbl.find_column(key);
    check(col != nullptr, "the body has a column the table does not have", body);
    check(col->writable, "the body writes a column the model may not set", body);
    if (col->type == column_type::uuid || col->type == column_type::uuid_array) check_uuid_value(*col, value, body);
  }
  if (create && tbl.has_owner()) check(row.contains(tbl.owner), "a created row has no owner", body);
}

void check_request(const tool_call& call, const http_request& req) {
  const table& tbl = *call.tbl;
  const std::string prefix = alice_options().base_url + "/" + tbl.name;
  check(req.url.rfind(prefix, 0) == 0 && (req.url.size() == prefix.size() || req.url[prefix.size()] == '?'),
        "the URL does not name the table", req.url);
  check(req.url.size() <= alice_options().max_url_length, "the URL is over the limit", req.url);
  check(req.url.find_first_of(" \t\r\n#\"<>\\^`{|}") == std::string::npos, "the URL has an unencoded byte", req.url);
  static constexpr const char* kMethods[] = {"GET", "POST", "PATCH", "DELETE"};
  check(req.method == kMethods[int(call.kind)], "the method does not match the tool", req.method);
  if (tbl.owner_scoped && call.kind != tool_kind::create)
    check(req.url.find(std::string("user_id=eq.") + kAlice) != std::string::npos,
          "a request on a user-owned table is not scoped to the user", req.url);
  if (call.kind == tool_kind::update || call.kind == tool_kind::remove)
    check(!call.filters.empty(), "an update or delete without a filter", req.url);
  if (call.kind == tool_kind::create) check(tbl.writable, "a create on a read-only table", tbl.name);
  const bool has_body = call.kind == tool_kind::create || call.kind == tool_kind::update;
  check(req.body.has_value() == has_body, "a body where none belongs, or none where one does", req.url);
  if (!req.body) return;
  check(json_document::parse(*req.body).ok(), "the body is not JSON", *req.body);
  // Text from JavaScript is always well-formed UTF-8; nlohmann insists on it.
  if (!valid_utf8(*req.body)) return;
  const auto body = parse_reference(*req.body);
  // A number beyond a double is copied as the model wrote it (valid JSON; the
  // core's own reader accepted the body above), which nlohmann refuses.
  if (body.number_overflow) return;
  check(body.value.has_value(), "the body is not JSON", *req.body);
  check(!body.duplicate_keys, "the body repeats a key", *req.body);
  if (body.value->is_array()) {
    check(call.kind == tool_kind::create && call.batch, "an array body for a single row", *req.body);
    check(!body.value->empty(), "an empty batch", *req.body);
    for (const auto& row : *body.value) check_body_row(tbl, row, true, *req.body);
  } else {
    check_body_row(tbl, *body.value, call.kind == tool_kind::create, *req.body);
  }
}

}  // namespace
}  // namespace alfred::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace alfred;
  using namespace alfred::fuzz;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto newline = input.find('\n');
  const std::string_view tool =
      newline == std::string_view::npos ? std::string_view("db_read") : input.substr(0, newline);
  const std::string_view params = newline == std::string_view::npos ? input : input.substr(newline + 1);

  auto call = parse_tool_call(kitchen(), sample_registry(), tool, params);
  if (!call) {
    check(!call.err().code.empty() && !call.err().message.empty(), "an error without code or message");
    auto direct = build_request(kitchen(), sample_registry(), tool, params, alice_options());
    check(!direct && direct.err().code == call.err().code, "build_request disagrees with parse_tool_call");
    return 0;
  }
  check(parse_tool_name(tool) == call->kind, "the call's kind is not the tool's");
  check(call->tbl && kitchen().find_table(call->tbl->name) == call->tbl, "the call's table is not the domain's");

  auto req = build_request(kitchen(), *call, alice_options());
  std::string appended;
  auto appended_ok = append_request_result(appended, kitchen(), *call, alice_options());
  if (!req) {
    check(!req.err().code.empty() && !req.err().message.empty(), "an error without code or message");
    check(!appended_ok && appended_ok.err().code == req.err().code && appended.empty(),
          "append_request_result disagrees with build_request");
    return 0;
  }
  check_request(*call, *req);
  std::string written;
  json_writer w(written);
  write_request(w, *req);
  check(appended_ok && appended == api::data_result(written), "append_request_result writes another request",
        appended + "\n" + written);
  check(json_document::parse(appended).ok(), "the request result is not JSON", appended);
  return 0;
}
