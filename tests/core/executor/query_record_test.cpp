// The query record: the call as the model reads it again, keys of any type as
// refs and the signed-in user as `me`, a key no ref holds never shown as the
// database's number or UUID.
#include "../../../core/src/executor/query_record.h"

#include <doctest/doctest.h>

#include "../../../core/src/tool_call/row_key.h"
#include "../support.h"
#include "alfred/domain/domain.h"
#include "alfred/rows/row_translation.h"
#include "alfred/tool_call/tool_call.h"

namespace alfred::test {
namespace {

constexpr std::string_view kDesk = R"({
  "name": "desk",
  "tables": {
    "tickets": {"ref": "ticket", "label": ["title"], "columns": {
      "id": {"type": "integer", "writable": false, "nullable": false},
      "title": {"type": "text", "required": true},
      "assignee_id": {"type": "uuid", "references": "auth.users"}}}
  }
})";

const domain& desk() {
  static const domain dom = [] {
    auto loaded = parse_domain(kDesk);
    REQUIRE(loaded.ok());
    return std::move(loaded).value();
  }();
  return dom;
}

}  // namespace

TEST_CASE("query record: bigint keys as refs, the signed-in user as me, and a key no ref holds as (unregistered row)") {
  ref_registry reg;
  const table& tickets = *desk().find_table("tickets");
  REQUIRE(translate_rows(desk(), reg, tickets, R"([{"id": 5, "title": "Lamp"}])", ref_action::read, kAlice).ok());
  // The document views its text: the text lives as long as the document.
  const std::string text =
      std::string(R"({"table": "tickets", "filters": [{"field": "id", "op": "in", "value": ["ticket_1"]},)") +
      R"({"field": "assignee_id", "op": "=", "value": "me"}]})";
  auto params = json_document::parse(text);
  REQUIRE(params.ok());
  auto call = parse_tool_call(desk(), reg, "db_read", params->root(), kAlice);
  REQUIRE(call.ok());
  // As a middleware's lookup adds keys (a catalog link, a semantic ranking): one known, one not.
  call->filters.push_back(detail::key_in_filter(*tickets.key_column(), {"5", "77"}));
  const std::string record = detail::call_params_json(reg, *call, &desk());
  CHECK(record.find(R"("value":["ticket_1"])") != std::string::npos);
  CHECK(record.find(R"("field":"assignee_id","op":"=","value":"me")") != std::string::npos);
  CHECK(record.find(R"x("value":["ticket_1","(unregistered row)"])x") != std::string::npos);
  CHECK(record.find("77") == std::string::npos);
}

TEST_CASE("query record: a UUID inside the model's own text is shown as (uuid), never echoed") {
  ref_registry reg;
  auto params = json_document::parse(
      R"({"table": "tickets", "filters": [{"field": "title", "op": "ilike", "value": "%6f1c1a52-8d3e-4f7a-9a41-2b7d5e0c9a11%"}]})");
  REQUIRE(params.ok());
  auto call = parse_tool_call(desk(), reg, "db_read", params->root(), kAlice);
  REQUIRE(call.ok());
  const std::string record = detail::call_params_json(reg, *call, &desk());
  CHECK(record.find("6f1c1a52") == std::string::npos);
  CHECK(record.find(R"x("field":"title","op":"ilike","value":"(uuid)")x") != std::string::npos);
}

TEST_CASE(
    "query record: me for a column referencing a table keyed by user ids (a personal account), not (unregistered "
    "row)") {
  auto loaded = parse_domain(R"({"name": "saas", "tables": {
    "accounts": {"ref": "account", "owner": "id", "label": ["name"], "columns": {
      "id": {"type": "uuid", "writable": false, "nullable": false}, "name": {"type": "text", "required": true},
      "created_by": {"type": "uuid", "references": "accounts"}}}}})");
  REQUIRE(loaded.ok());
  const domain& dom = *loaded;
  ref_registry reg;
  auto params =
      json_document::parse(R"({"table": "accounts", "filters": [{"field": "created_by", "op": "=", "value": "me"}]})");
  REQUIRE(params.ok());
  auto call = parse_tool_call(dom, reg, "db_read", params->root(), kAlice);
  REQUIRE(call.ok());
  const std::string record = detail::call_params_json(reg, *call, &dom);
  CHECK(record.find(R"("field":"created_by","op":"=","value":"me")") != std::string::npos);
  CHECK(record.find("unregistered") == std::string::npos);
}

TEST_CASE("query record: a made-up name is echoed without its control characters, whose escapes could spell a UUID") {
  // JSON writes NUL as \u0000: beside "c1a52-8d3e-…" its digits would read as a UUID the name does not hold.
  const std::string name = std::string("get_acc---") + '\0' + "c1a52-8d3e-4f7a-9a41-2b7d5e0c9a11";
  CHECK(detail::echoed_text(name) == "get_acc---c1a52-8d3e-4f7a-9a41-2b7d5e0c9a11");
  CHECK(detail::echoed_text(std::string("a\x1f") + "b") == "ab");
  CHECK(detail::echoed_text("plain name") == "plain name");
}

}  // namespace alfred::test
