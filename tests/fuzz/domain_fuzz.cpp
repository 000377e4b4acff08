// Domain loading (`parse_domain`, core/src/domain/domain.cpp) on arbitrary JSON: a
// domain is configuration a developer writes, but the loader's promise is
// that a domain it accepts cannot make the core leak or break. So a domain
// that loads is used: a row of every table, every column filled in (UUIDs
// in the UUID columns, one embed per relation), is translated and must show
// none of the UUIDs the row held in its UUID columns, and nothing at all
// once scrubbed as a tool result is (a UUID inside a free-text value, such
// as an allowed value, stays in the rows as the user wrote it); a read of
// every table builds a request to that table or fails with a structured
// error; a create of every writable table, each settable column filled in,
// builds a request or fails with a structured error (a uuid column without a
// reference once crashed the core here); the prompt built over the
// translated rows holds no UUID.
// Cross-table references of the loaded domain all resolve. A refused domain
// is an `invalid_domain` error with a message.

#include <cstdint>
#include <set>
#include <string>

#include "alfred/prompt/prompt.h"
#include "alfred/registry/uuid_scrub.h"
#include "alfred/rows/row_translation.h"
#include "fuzz_support.h"

namespace alfred::fuzz {
namespace {

constexpr const char* kPromptInput =
    R"({"step":{"type":"read","description":"Read everything","index":0,"total":1},"user_message":"show me","today":"2026-02-09"})";

// The UUIDs inside the free-text values the rows hold (an allowed value may
// be any text, a UUID too): these stay in translated rows as written.
std::set<std::string, std::less<>>& in_text() {
  static std::set<std::string, std::less<>> uuids;
  return uuids;
}

// A distinct UUID per value, so that a leaked one names its column.
std::string next_uuid(unsigned& counter) {
  const unsigned n = ++counter;
  char text[37];
  std::snprintf(text, sizeof text, "%08x-1111-4222-8333-%012x", n, n * 7919u);
  return text;
}

json value_for(const column& col, unsigned& counter) {
  switch (col.type) {
    case column_type::uuid:
      return next_uuid(counter);
    case column_type::uuid_array:
      return json::array({next_uuid(counter), next_uuid(counter)});
    case column_type::integer:
      return 3;
    case column_type::numeric:
      return 2.5;
    case column_type::boolean:
      return true;
    case column_type::date:
      return "2026-02-09";
    case column_type::timestamp:
      return "2026-02-09T10:00:00+00:00";
    case column_type::text_array:
      return json::array({"first", "second"});
    case column_type::jsonb:
      return json{{"note", "kept"}};
    case column_type::tsvector:
      // As PostgREST returns one: lexemes with their positions, as text.
      return "'bread':1 'butter':2";
    case column_type::text:
      break;
  }
  // An allowed value may be any bytes; the row is JSON text, written by nlohmann.
  if (col.allowed_values.empty() || !valid_utf8(col.allowed_values.front())) return std::string("some ") + col.name;
  for_each_uuid(col.allowed_values.front(), [](std::string_view uuid) { in_text().emplace(uuid); });
  return col.allowed_values.front();
}

json full_row(const domain& dom, const table& tbl, unsigned& counter, bool embeds) {
  json row = json::object();
  for (const auto& col : tbl.columns) row[col.name] = value_for(col, counter);
  if (!embeds) return row;
  for (const auto& rel : tbl.relations)
    if (const table* target = dom.find_table(rel.table))
      row[rel.name] = json::array({full_row(dom, *target, counter, false)});
  for (const auto& col : tbl.columns)
    if (col.type == column_type::uuid && !col.references.empty() && col.references != tbl.name &&
        !row.contains(col.references))
      if (const table* target = dom.find_table(col.references))
        row[col.references] = full_row(dom, *target, counter, false);
  return row;
}

void check_loaded(const domain& dom) {
  for (const auto& tbl : dom.tables) {
    check(dom.find_table(tbl.name) == &tbl, "a table is not found by its name", tbl.name);
    check(dom.find_table_by_prefix(tbl.ref_prefix) == &tbl, "a table is not found by its prefix", tbl.ref_prefix);
    for (const auto& key : tbl.key) check(tbl.find_column(key) != nullptr, "a key column the table lacks", key);
    if (const column* key = tbl.key_column())
      check(key->type == column_type::uuid || key->type == column_type::integer || key->type == column_type::text,
            "a key of another type", tbl.name);
    check(!tbl.key.empty() || !tbl.writable, "a writable table without a key", tbl.name);
    if (tbl.has_owner()) {
      const column* owner = tbl.find_column(tbl.owner);
      check(owner && owner->type == column_type::uuid && !owner->writable,
            "an owner column that is not a read-only uuid", tbl.owner);
    }
    for (const auto& col : tbl.columns) {
      check(!is_postgrest_reserved(col.name), "a reserved column name", col.name);
      if (!col.references.empty()) check(dom.find_table(col.references), "a reference to no table", col.references);
    }
    for (const auto& rel : tbl.relations) check(dom.find_table(rel.table), "a relation to no table", rel.table);
  }
}

}  // namespace
}  // namespace alfred::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace alfred;
  using namespace alfred::fuzz;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  auto loaded = parse_domain(input);
  if (!loaded) {
    check(loaded.err().code == "invalid_domain", "an unexpected domain error code", loaded.err().code);
    check(!loaded.err().message.empty(), "a domain error without a message");
    return 0;
  }
  const domain& dom = *loaded;
  check_loaded(dom);

  ref_registry reg;
  reg.set_turn(1);
  unsigned counter = 0;
  in_text().clear();
  for (const auto& tbl : dom.tables) {
    const std::string body = json::array({full_row(dom, tbl, counter, true)}).dump();
    auto rows = translate_rows(dom, reg, tbl, body, ref_action::read);
    check(rows.ok(), "a row of a loaded domain does not translate", body);
    // The UUIDs this test generated for the UUID columns (…-1111-4222-8333-…)
    // are all replaced.
    for_each_uuid(*rows, [&](std::string_view uuid) {
      check(uuid.substr(8, 16) != "-1111-4222-8333-" || in_text().count(uuid) > 0,
            "a UUID column's value in translated rows", std::string(uuid) + "\n" + body + "\n" + *rows);
    });
    std::string for_model = *rows;
    scrub_uuids(for_model, reg);
    const auto uuid = find_uuid(for_model);
    check(uuid.empty(), "a UUID in translated rows as a tool result shows them",
          std::string(uuid) + "\n" + body + "\n" + for_model);

    if (tbl.writable) {
      json data = json::object();
      for (const auto& col : tbl.columns)
        if (col.writable && col.name != tbl.owner) data[col.name] = value_for(col, counter);
      auto create =
          build_request(dom, reg, "db_create", json{{"table", tbl.name}, {"data", data}}.dump(), alice_options());
      if (create)
        check(create->method == "POST", "a create is not a POST", create->method);
      else
        check(!create.err().code.empty() && !create.err().message.empty(), "a create error without a code or message",
              create.err().code);
    }

    auto req = build_request(dom, reg, "db_read", R"({"table":")" + tbl.name + R"(","limit":5})", alice_options());
    if (req) {
      const std::string prefix = alice_options().base_url + "/" + tbl.name + "?";
      check(req->method == "GET", "a read is not a GET", req->method);
      check(req->url.rfind(prefix, 0) == 0, "a read goes elsewhere", req->url);
    } else {
      check(!req.err().code.empty() && !req.err().message.empty(), "a read error without a code or message",
            req.err().code);
    }
  }
  auto state = ref_registry::from_json(reg.to_json());
  check(state.ok(), "the registry does not restore", reg.to_json());

  auto prompt = build_act_prompt(dom, reg, kPromptInput);
  if (prompt) {
    for (const std::string* text : {&prompt->system, &prompt->user}) {
      const auto uuid = find_uuid(*text);
      check(uuid.empty(), "a UUID in the prompt", std::string(uuid) + "\n" + *text);
    }
  } else {
    check(!prompt.err().code.empty() && !prompt.err().message.empty(), "a prompt error without a code or message");
  }
  return 0;
}
