// Full-text search filters (ops search and not_search): a tsvector column,
// searched and never read, or a text column; the mode's PostgREST operator
// and the configuration on the wire; every mistake refused with its path.
#include <doctest/doctest.h>

#include <string>

#include "../../../core/src/executor/query_record.h"
#include "../request_text.h"
#include "../support.h"
#include "alfred/prompt/prompt_query.h"
#include "alfred/prompt/tool_schema.h"
#include "alfred/tool_call/tool_call.h"

namespace alfred::test {
namespace {

constexpr const char* kNotesDomain = R"({"name": "notes", "owner_column": "user_id", "tables": {
  "notes": {"ref": "note", "user_owned": true, "label": ["title"], "columns": {
    "id": {"type": "uuid", "writable": false}, "user_id": {"type": "uuid", "writable": false}, "title": {"type": "text", "required": true},
    "body": {"type": "text"}, "stars": {"type": "integer"}, "document": {"type": "tsvector"}}}}})";

const domain& notes() {
  static const domain dom = [] {
    auto parsed = load_domain(kNotesDomain);
    if (!parsed) FAIL(error_text(parsed.err()));
    return std::move(*parsed);
  }();
  return dom;
}

result<http_request> notes_request(std::string_view tool, std::string_view params) {
  return build_request(notes(), ref_registry(), tool, params, alice_options());
}

error notes_error(std::string_view tool, std::string_view params) {
  auto req = notes_request(tool, params);
  REQUIRE_FALSE(req.ok());
  return req.err();
}

std::string read_with(std::string_view filter) {
  return std::string(R"({"table": "notes", "filters": [)") + std::string(filter) + "]}";
}

}  // namespace

TEST_CASE("text search: a tsvector column is searched with the mode's operator and the configuration") {
  const auto wire = [](std::string_view filter, const char* key = "document") {
    auto req = notes_request("db_read", read_with(filter));
    if (!req) FAIL(error_text(req.err()));
    return query_value(*req, key);
  };
  CHECK(wire(R"({"field": "document", "op": "search", "value": "lisbon contract"})") == "wfts.lisbon contract");
  CHECK(wire(R"({"field": "document", "op": "search", "value": "\"lisbon contract\" -draft", "mode": "websearch"})") ==
        "wfts.\"lisbon contract\" -draft");
  CHECK(wire(R"({"field": "document", "op": "search", "value": "lisbon contract", "mode": "phrase",
                 "language": "english"})") == "phfts(english).lisbon contract");
  CHECK(wire(R"({"field": "document", "op": "search", "value": "lisbon", "mode": "plain"})") == "plfts.lisbon");
  CHECK(wire(R"({"field": "document", "op": "search", "value": "lisbon & !draft", "mode": "query"})") ==
        "fts.lisbon & !draft");
  CHECK(wire(R"({"field": "document", "op": "not_search", "value": "draft", "language": "pg_catalog.simple"})") ==
        "not.wfts(pg_catalog.simple).draft");
  CHECK(wire(R"({"field": "body", "op": "search", "value": "lisbon", "mode": null, "language": null})", "body") ==
        "wfts.lisbon");
  // In or=(…), as every other condition.
  auto either = notes_request("db_read", R"({"table": "notes", "or_filters": [
    {"field": "document", "op": "search", "value": "lisbon", "language": "english"},
    {"field": "title", "op": "ilike", "value": "%lisbon%"}]})");
  REQUIRE(either.ok());
  CHECK(query_value(*either, "or") == "(document.wfts(english).lisbon,title.ilike.%lisbon%)");
  // A search narrows an update or a delete.
  auto del = notes_request("db_delete", read_with(R"({"field": "document", "op": "search", "value": "draft"})"));
  REQUIRE(del.ok());
  CHECK(query_value(*del, "document") == "wfts.draft");
}

TEST_CASE("text search: the column is never read or written, and every mistake has its path") {
  // A read without columns selects the visible ones, not the document.
  auto read = notes_request("db_read", R"({"table": "notes"})");
  REQUIRE(read.ok());
  CHECK(query_value(*read, "select") == "id,user_id,title,body,stars");
  const auto refused = [](const error& err, std::string_view code, std::string_view path, std::string_view message) {
    INFO(error_text(err));
    CHECK(err.code.name() == code);
    CHECK(err.path == path);
    CHECK(err.message == message);
  };
  refused(notes_error("db_read", read_with(R"({"field": "document", "op": "=", "value": "x"})")), "unknown_column",
          "filters[0].field", "document is a text search column: it is searched, never read, written or compared");
  refused(notes_error("db_read", R"({"table": "notes", "columns": ["document"]})"), "unknown_column", "columns[0]",
          "document is a text search column: it is searched, never read, written or compared");
  refused(notes_error("db_create", R"({"table": "notes", "data": {"title": "t", "document": "x"}})"), "unknown_column",
          "data.document", "document is a text search column: it is searched, never read, written or compared");
  refused(notes_error("db_read", read_with(R"({"field": "stars", "op": "search", "value": "5"})")), "invalid_value",
          "filters[0].field", "stars is integer; text search works on text and tsvector columns");
  refused(notes_error("db_read", read_with(R"({"field": "document", "op": "search", "value": "  "})")), "invalid_value",
          "filters[0].value", "search needs the words to find, e.g. \"lisbon contract\"");
  refused(notes_error("db_read", read_with(R"({"field": "document", "op": "search", "value": ["a"]})")),
          "invalid_value", "filters[0].value", "search needs the words to find, e.g. \"lisbon contract\"");
  refused(notes_error("db_read", read_with(R"({"field": "document", "op": "search", "value": "a", "mode": "fuzzy"})")),
          "invalid_filter", "filters[0].mode", "mode must be one of websearch, plain, phrase, query");
  refused(notes_error("db_read",
                      read_with(R"x({"field": "document", "op": "search", "value": "a", "language": "english)"})x")),
          "invalid_filter", "filters[0].language",
          "language must name a text search configuration, such as english or simple");
  refused(notes_error("db_read", read_with(R"({"field": "title", "op": "=", "value": "a", "mode": "phrase"})")),
          "invalid_filter", "filters[0].mode", "mode belongs to a text search (op search or not_search), not to =");
  refused(notes_error("db_read", read_with(R"({"field": "nope", "op": "search", "value": "a"})")), "unknown_column",
          "filters[0].field", "notes has no column 'nope'");
}

TEST_CASE("text search: the record and its line show the mode and configuration, the schemas name the column") {
  const std::string params = read_with(
      R"({"field": "document", "op": "search", "value": "lisbon contract", "mode": "phrase", "language": "english"})");
  auto doc = json_document::parse(params);
  REQUIRE(doc.ok());
  auto call = parse_tool_call(notes(), ref_registry(), "db_read", doc->root(), kAlice);
  if (!call) FAIL(error_text(call.err()));
  const std::string record = R"({"tool": "db_read", "table": "notes", "requested": )" +
                             detail::call_params_json(ref_registry(), *call) + R"(, "source": "database", "count": 2})";
  CHECK(record.find(
            R"({"field":"document","op":"search","value":"lisbon contract","mode":"phrase","language":"english"})") !=
        std::string::npos);
  auto line = render_query(std::string_view(record), query_style::line);
  REQUIRE(line.ok());
  CHECK(*line == "read notes (filters: document search lisbon contract (phrase, english)): 2 records");

  const std::string compact = tool_description(notes(), tool_kind::read, {});
  CHECK(compact.find("- notes (note_N): id, user_id, title*, body, stars; search: document\n") != std::string::npos);
  // Mode and language where a table has a search column; strict schemas
  // (every key required) leave them out: websearch, the default, is what a
  // model needs, and two nulls in every filter would cost every call.
  const std::string plain = tool_parameters_schema(notes(), tool_kind::read, {false});
  CHECK(
      plain.find(
          R"("mode":{"type":"string","description":"search only: websearch (the default), plain, phrase or query.","enum":["websearch","plain","phrase","query"]})") !=
      std::string::npos);
  CHECK(plain.find(R"("required":["field","op"])") != std::string::npos);
  CHECK(tool_parameters_schema(notes(), tool_kind::read, {true}).find(R"("mode")") == std::string::npos);
  CHECK(tool_parameters_schema(kitchen(), tool_kind::read, {false}).find(R"("mode")") == std::string::npos);
}

}  // namespace alfred::test
