#include "alfred/rows/row_translation.h"

#include <vector>

#include "../tool_call/row_key.h"
#include "alfred/uuid/uuid_bits.h"
#include "row_translation_labels.h"
#include "row_translation_stream.h"

namespace alfred {

std::string row_label(const table& tbl, json_value row) {
  const detail::compiled_label label = detail::compile_label(tbl);
  // A parsed row's values as label text.
  std::vector<std::string_view> values;
  for (const auto& name : label.names) {
    const auto value = row.find(name);
    values.push_back(!value                                   ? std::string_view()
                     : value->is_string()                     ? value->str()
                     : value->is_number() || value->is_bool() ? value->raw()
                                                              : std::string_view());
  }
  std::string scratch;
  return std::string(detail::render_label(label, values, scratch));
}

result<std::string> translate_rows(const domain& dom, ref_registry& registry, const table& tbl,
                                   std::string_view rows_json, ref_action action, std::string_view current_user,
                                   std::size_t* rows_written, bool* quotes_uuid) {
  std::string out;
  auto done = detail::translate_row_stream(dom, registry, tbl, rows_json, action, out, nullptr, current_user,
                                           rows_written, quotes_uuid);
  if (!done) return done.take_error();
  return out;
}

result<labeled_translation> translate_rows_if_labeled(const domain& dom, ref_registry& registry, const table& tbl,
                                                      std::string_view rows_json, ref_action action,
                                                      std::string_view current_user) {
  labeled_translation out;
  auto done = detail::translate_row_stream(dom, registry, tbl, rows_json, action, out.rows, &out.missing, current_user,
                                           &out.count, &out.quotes_uuid);
  if (!done) return done.take_error();
  return out;
}

result<std::vector<label_lookup>> unlabeled_references(const domain& dom, const ref_registry& registry,
                                                       const table& tbl, std::string_view rows_json,
                                                       std::string_view current_user) {
  return detail::survey_row_stream(dom, registry, tbl, rows_json, current_user);
}

std::string label_select(const table& tbl) {
  const column* key = tbl.key_column();
  std::string select = key ? key->name : std::string();
  for (const auto& name : detail::compile_label(tbl).names) {
    if (tbl.is_key(name)) continue;
    select += ',';
    select += name;
  }
  return select;
}

status apply_labels(const domain&, ref_registry& registry, const table& target, std::string_view rows_json) {
  auto doc = json_document::parse(rows_json);
  if (!doc) return error{codes::invalid_json, "rows", doc.err().message, "rows must be the JSON PostgREST returned"};
  const json_value root = doc->root();
  const column* key_col = target.key_column();
  if (!key_col) return ok_status();
  auto apply = [&](json_value row) {
    const auto key = detail::row_key_text(target, row);
    if (!key) return;
    const std::string label = row_label(target, row);
    if (label.empty()) return;
    const ref_entry* known = key_col->type == column_type::uuid ? registry.find_by_uuid(*key, target.ref_prefix)
                                                                : registry.find_by_key(target.ref_prefix, *key);
    if (known)
      registry.set_label(std::size_t(known - registry.entries().data()), label);
    else
      registry.register_keyed_row(target.name, target.ref_prefix, key_col->type, *key, ref_action::linked, label);
  };
  if (root.is_array())
    root.for_each_element([&](std::size_t, json_value row) { apply(row); });
  else
    apply(root);
  return ok_status();
}

}  // namespace alfred
