// The text API's registry calls: state, generated artifacts, refs, row
// translation and UUID scrubbing.

#include <utility>

#include "../json/format.h"
#include "alfred/api/api.h"
#include "alfred/json/json.h"
#include "alfred/postgrest/request.h"
#include "alfred/registry/uuid_scrub.h"
#include "alfred/rows/row_translation.h"
#include "alfred/uuid/uuid.h"
#include "results.h"

namespace alfred::api {

std::string restore_registry(ref_registry& reg, std::string_view state_json) {
  return guarded([&]() -> std::string {
    auto restored = ref_registry::from_json(state_json);
    if (!restored) return error_result(restored.err());
    reg = std::move(*restored);
    return data_result("true");
  });
}

std::string registry_state(const ref_registry& reg) {
  return guarded([&]() { return data_result(reg.to_json()); });
}

std::string register_generated(const domain& dom, ref_registry& reg, std::string_view table_name,
                               std::string_view content_json) {
  return guarded([&]() -> std::string {
    const table* tbl = dom.find_table(table_name);
    if (!tbl) return error_result(unknown_table(table_name));
    // Saving one is a create read back for its ref: a write-only table's never is.
    if (!tbl->readable)
      return error_result(
          {codes::write_only_table, "table",
           textfmt::format("{}{}: generated content cannot be saved there as an artifact", tbl->name, kWriteOnlyNote),
           "create its rows with db_create"});
    auto content = json_document::parse(content_json);
    if (!content) return error_result({codes::invalid_json, "content", content.err().message, ""});
    const std::string label = row_label(*tbl, content->root());
    auto ref = reg.register_generated(tbl->name, tbl->ref_prefix, std::string(content_json), label);
    if (!ref) return error_result(ref.err());
    return quoted_data(*ref);
  });
}

std::string update_generated(const domain& dom, ref_registry& reg, std::string_view gen_ref,
                             std::string_view content_json) {
  return guarded([&]() -> std::string {
    const ref_entry* entry = reg.find(gen_ref);
    if (!entry || !entry->pending()) {
      const std::string hint = entry && entry->generated
                                   ? "it was saved as " + entry->saved_as + "; change the saved row with db_update"
                                   : "revise a gen_ ref listed as pending";
      return error_result(
          {codes::unknown_ref, "", std::string(gen_ref) + " is not a pending generated artifact", hint});
    }
    const table* tbl = dom.find_table(entry->table);
    if (!tbl) return error_result(unknown_table(entry->table));
    auto content = json_document::parse(content_json);
    if (!content) return error_result({codes::invalid_json, "content", content.err().message, ""});
    if (!content->root().is_object())
      return error_result({codes::invalid_content, "content", "the content of an artifact must be an object", ""});
    const std::string label = row_label(*tbl, content->root());
    auto updated = reg.update_generated(gen_ref, std::string(content_json), label);
    if (!updated) return error_result(updated.err());
    return quoted_data(gen_ref);
  });
}

std::string promote(const domain& dom, ref_registry& reg, std::string_view gen_ref, std::string_view key,
                    std::string_view label) {
  return guarded([&]() -> std::string {
    // The key's type is its table's: a UUID, an integer's digits or text.
    const ref_entry* entry = reg.find(gen_ref);
    const table* tbl = entry ? dom.find_table(entry->table) : nullptr;
    const column* key_col = tbl ? tbl->key_column() : nullptr;
    auto saved = reg.promote(gen_ref, key, label, key_col ? key_col->type : column_type::uuid);
    if (!saved) return error_result(saved.err());
    return quoted_data(*saved);
  });
}

std::string uncertain_ids(const ref_registry& reg, std::string_view key) {
  return guarded([&]() {
    const std::vector<std::string>* ids = reg.uncertain_ids(key);
    if (!ids) return data_result("null");
    std::string out;
    json_writer w(out);
    w.begin_array();
    for (const auto& id : *ids) w.string(id);
    w.end_array();
    return data_result(out);
  });
}

std::string set_uncertain(ref_registry& reg, std::string_view key, std::string_view ids_json) {
  return guarded([&]() -> std::string {
    auto doc = json_document::parse(ids_json);
    if (!doc) return error_result({codes::invalid_json, "ids", doc.err().message, ""});
    if (doc->root().is_null()) {
      reg.forget_uncertain(key);
      return data_result("true");
    }
    std::vector<std::string> ids;
    bool all_uuids = doc->root().is_array() && !doc->root().empty();
    doc->root().for_each_element([&](std::size_t, json_value id) {
      if (id.is_string() && is_uuid_syntax(id.str()))
        ids.push_back(canonical_uuid(id.str()));
      else
        all_uuids = false;
    });
    if (!all_uuids) return error_result({codes::invalid_option, "ids", "ids must be a non-empty array of UUIDs", ""});
    reg.remember_uncertain(key, std::move(ids));
    return data_result("true");
  });
}

std::string ref_table(const ref_registry& reg, std::string_view ref) {
  return guarded([&]() {
    const ref_entry* entry = reg.resolve(ref);
    return entry ? quoted_data(entry->table) : data_result("null");
  });
}

std::string parse_ref(std::string_view text) {
  return guarded([&]() {
    const auto name = parse_ref_name(text);
    if (!name) return data_result("null");
    std::string data;
    json_writer w(data);
    w.begin_object();
    w.key("generated");
    w.boolean(name->generated);
    w.key("prefix");
    w.string(name->prefix);
    w.key("number");
    w.integer(name->number);
    w.end_object();
    return data_result(data);
  });
}

bool translate_rows(std::string& out, const domain& dom, ref_registry& reg, std::string_view table_name,
                    std::string_view action, std::string_view rows_json, std::string_view current_user) {
  bool ok = false;
  guarded_into(out, [&]() {
    const table* tbl = dom.find_table(table_name);
    auto parsed = parse_row_action(action);
    if (!tbl) {
      out = error_result(unknown_table(table_name));
    } else if (!parsed) {
      out = error_result({codes::invalid_option, "action", "'" + std::string(action) + "' is not a row action",
                          "one of: read, created, updated, deleted"});
    } else if (auto rows = alfred::translate_rows(dom, reg, *tbl, rows_json, *parsed, current_user)) {
      out = std::move(*rows);
      ok = true;
    } else {
      out = error_result(rows.err());
    }
  });
  return ok;
}

std::string without_uuids(const ref_registry& reg, std::string_view text) {
  return guarded([&]() {
    std::string out(text);
    scrub_uuids(out, reg);
    return quoted_data(out);
  });
}

}  // namespace alfred::api
