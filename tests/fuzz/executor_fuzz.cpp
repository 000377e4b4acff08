// The executor (core/src/executor/executor.cpp) fed arbitrary responses, round after
// round. Input, in blocks separated by a line "%%":
//   tool name [count or header: maxAffected 5, checked so] \n params JSON
//   %% status \n Content-Range \n Content-Type \n body      (one per need, in order)
// A need without a block gets status 0 (the network failed).
//
// Whatever comes back, the execution finishes within a few rounds, sends at
// most one write, scopes every request to the user, and its result is one
// JSON object with `data`, `error`, `query` and `count` in which UUID columns
// hold refs; the prompt the next Act call would be given from it holds no
// UUID at all; the registry it leaves restores.

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "alfred/executor/executor.h"
#include "alfred/prompt/prompt.h"
#include "fuzz_support.h"

namespace alfred::fuzz {
namespace {

constexpr std::string_view kSeparator = "\n%%\n";
constexpr int kMaxRounds = 8;

std::vector<std::string_view> split_blocks(std::string_view input) {
  std::vector<std::string_view> blocks;
  while (true) {
    const auto at = input.find(kSeparator);
    blocks.push_back(input.substr(0, at));
    if (at == std::string_view::npos) return blocks;
    input.remove_prefix(at + kSeparator.size());
  }
}

std::string_view take_line(std::string_view& text) {
  const auto newline = text.find('\n');
  const auto line = text.substr(0, newline);
  text.remove_prefix(newline == std::string_view::npos ? text.size() : newline + 1);
  return line;
}

need_response response_of(std::string_view block) {
  need_response out;
  const auto status = take_line(block);
  for (char c : status.substr(0, 3)) {
    if (c < '0' || c > '9') break;
    out.status = out.status * 10 + (c - '0');
  }
  out.content_range = std::string(take_line(block));
  out.content_type = std::string(take_line(block));
  out.body = std::string(block);
  return out;
}

// Model-facing rows of `tbl`: UUID columns hold refs (or null), embeds are rows.
void check_model_rows(const table& tbl, const json& rows, const std::string& path);

void check_model_row(const table& tbl, const json& row, const std::string& path) {
  check(row.is_object(), "a result row is not an object", path + ": " + row.dump());
  for (const auto& [key, value] : row.items()) {
    const std::string where = path + "." + key;
    check(!tbl.hides_owner(key), "the owner column is shown", where);
    if (const column* col = tbl.find_column(key)) {
      if (col->type == column_type::uuid)
        check(value.is_null() || (value.is_string() && parse_ref_name(value.get<std::string>())),
              "a uuid column shows something other than a ref", where + ": " + value.dump());
      if (col->type == column_type::uuid_array && !value.is_null()) {
        check(value.is_array(), "a uuid[] column is not an array", where);
        for (const auto& item : value)
          check(item.is_string() && parse_ref_name(item.get<std::string>()),
                "a uuid[] column shows something other than refs", where + ": " + value.dump());
      }
    } else if (const relation* rel = tbl.find_relation(key)) {
      check_model_rows(*kitchen().find_table(rel->table), value, where);
    } else if (const table* target = kitchen().find_table(key)) {
      check_model_rows(*target, value, where);
    }
  }
}

void check_model_rows(const table& tbl, const json& rows, const std::string& path) {
  if (rows.is_array()) {
    for (std::size_t i = 0; i < rows.size(); ++i) check_model_row(tbl, rows[i], path + "[" + std::to_string(i) + "]");
  } else if (!rows.is_null()) {
    check_model_row(tbl, rows, path);
  }
}

// A request the executor asks for: to the configured server, for this user.
void check_need(const need& n, int& writes) {
  if (n.type == need::kind::embed) return;
  const http_request& req = n.request;
  const std::string base = alice_options().base_url + "/";
  check(req.url.rfind(base, 0) == 0, "a request to another server", req.url);
  const std::string_view path = std::string_view(req.url).substr(base.size());
  if (path.rfind("rpc/", 0) == 0) {
    check(req.method == "POST", "an RPC that is not a POST", req.method);
    return;
  }
  const table* tbl = kitchen().find_table(path.substr(0, path.find('?')));
  check(tbl != nullptr, "a request to a table the domain does not have", req.url);
  if (req.method != "GET") ++writes;
  if (tbl->owner_scoped && req.method != "POST")
    check(req.url.find(std::string("user_id=eq.") + kAlice) != std::string::npos,
          "a request on a user-owned table is not scoped to the user", req.url);
  if (req.body) check(json_document::parse(*req.body).ok(), "a request body is not JSON", *req.body);
}

}  // namespace
}  // namespace alfred::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace alfred;
  using namespace alfred::fuzz;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto blocks = split_blocks(input);
  std::string_view head = blocks[0];
  // "db_update count": the tool, then how maxAffected (5) is checked, if at all.
  const std::string_view tool_line = take_line(head);
  const std::string tool(tool_line.substr(0, tool_line.find(' ')));
  const std::string_view params = head;
  execution_options settings;
  if (const auto space = tool_line.find(' '); space != std::string_view::npos) {
    settings.max_affected = 5;
    settings.max_affected_by =
        tool_line.substr(space + 1) == "count" ? max_affected_check::count : max_affected_check::header;
  }

  ref_registry reg = sample_registry();
  execution ex(kitchen(), reg, tool, params, alice_options(), settings);
  std::size_t next_block = 1;
  int rounds = 0, writes = 0;
  while (!ex.done()) {
    check(++rounds <= kMaxRounds, "the execution does not finish");
    const std::size_t count = ex.needs().size();
    check(count > 0, "an unfinished execution needs nothing");
    for (const need& n : ex.needs()) check_need(n, writes);
    for (std::size_t i = 0; i < count; ++i) {
      need_response response;
      if (next_block < blocks.size())
        response = response_of(blocks[next_block++]);
      else
        response.body = "the fuzzer has no more responses";
      ex.respond(i, std::move(response));
    }
  }
  check(writes <= 1, "more than one write sent");
  check(ex.needs().empty(), "a finished execution still needs something");

  const std::string out = ex.result_json();
  auto parsed = parse_reference(out);
  // A number beyond a double is JSON (JSON.parse reads it as Infinity) that
  // nlohmann refuses; the params in the query record and the rows copy
  // numbers as written. Read with such numbers as 0, and check the rest.
  if (parsed.number_overflow) parsed = parse_reference(without_overflowing_numbers(out));
  check(parsed.value || !valid_utf8(input), "the result is not JSON", out);
  check(ref_registry::from_json(reg.to_json()).ok(), "the registry does not restore after the execution",
        reg.to_json());
  if (!parsed.value) return 0;
  const json& result = *parsed.value;
  check(result.is_object() && result.contains("data") && result.contains("error") && result.contains("query") &&
            result.contains("count"),
        "the result lacks data, error, query or count", out);
  const json& error = result["error"];
  check(error.is_null() || (error.is_object() && error["code"].is_string() && error["message"].is_string()),
        "the error is not {code, message, …}", out);
  check(error.is_null() || result["data"].is_null(), "a result with both data and an error", out);
  check(result["count"].is_null() || result["count"].is_number_integer(), "count is not a number", out);
  // The query record shows the model its own params (UUIDs in values masked
  // as "(uuid)"); any other UUID in it came from the database.
  auto params_value = parse_reference(params);
  if (params_value.number_overflow) params_value = parse_reference(without_overflowing_numbers(params));
  const std::string params_text = params_value.value ? params_value.value->dump() : std::string(params);
  for_each_uuid(result["query"].dump(), [&](std::string_view uuid) {
    check(params_text.find(uuid) != std::string::npos || params.find(uuid) != std::string_view::npos,
          "a UUID in the query record that the params did not hold", out);
  });
  const auto table_name = result["query"].value("table", std::string());
  if (const table* tbl = kitchen().find_table(table_name); tbl && error.is_null())
    check_model_rows(*tbl, result["data"], "data");

  // The record the Act loop keeps of a successful call, as the next prompt reads it.
  if (!error.is_null() || !valid_utf8(input)) return 0;
  json record = {{"tool", tool},
                 {"table", table_name},
                 {"params", params_value.value ? *params_value.value : json()},
                 {"data", result["data"]},
                 {"error", nullptr},
                 {"count", result["count"]},
                 {"query", result["query"]}};
  const json prompt_input = {{"step", {{"type", "read"}, {"description", "fuzz"}}},
                             {"current_step_results", json::array({record})}};
  auto prompt = build_act_prompt(kitchen(), reg, prompt_input.dump());
  check(prompt.ok(), "the executor's result is not a valid prompt input",
        prompt ? std::string() : prompt.err().path + ": " + prompt.err().message);
  check(find_uuid(prompt->user).empty(), "a UUID in the prompt built from the result", prompt->user);
  return 0;
}
