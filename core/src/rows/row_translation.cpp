#include "alfred/rows/row_translation.h"

#include <algorithm>
#include <optional>
#include <vector>

#include "../json/text.h"
#include "../tool_call/row_key.h"
#include "alfred/uuid/uuid.h"
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
                                   std::size_t* rows_written, bool* quotes_uuid, std::size_t max_rows) {
  std::string out;
  auto done = detail::translate_row_stream(dom, registry, tbl, rows_json, action, out, nullptr, current_user,
                                           rows_written, quotes_uuid, max_rows);
  if (!done) return done.take_error();
  return out;
}

result<labeled_translation> translate_rows_if_labeled(const domain& dom, ref_registry& registry, const table& tbl,
                                                      std::string_view rows_json, ref_action action,
                                                      std::string_view current_user, std::size_t max_rows) {
  labeled_translation out;
  auto done = detail::translate_row_stream(dom, registry, tbl, rows_json, action, out.rows, &out.missing, current_user,
                                           &out.count, &out.quotes_uuid, max_rows);
  if (!done) return done.take_error();
  return out;
}

result<std::vector<label_lookup>> unlabeled_references(const domain& dom, const ref_registry& registry,
                                                       const table& tbl, std::string_view rows_json,
                                                       std::string_view current_user) {
  return detail::survey_row_stream(dom, registry, tbl, rows_json, current_user);
}

std::string label_select(const table& tbl, bool with_key) {
  const column* key = tbl.key_column();
  std::string select = key && with_key ? key->name : std::string();
  for (const auto& name : detail::compile_label(tbl).names) {
    if (with_key && tbl.is_key(name)) continue;
    select.append(select.empty() ? "" : ",").append(name);
  }
  return select;
}

namespace {

// One row of `target` by its key (`key`, as row_key_text reads it), with
// its label columns in `row`: a known row without a label gets this one, an
// unknown one becomes a `linked` ref with it. A label the session knows is
// kept (a read of the row itself renews it), so a read's labels do not
// depend on whether it also met rows the session had not met. The signed-in
// user's own row (`me`, a table keyed by user ids) gets none.
void apply_label(ref_registry& registry, const table& target, const std::optional<std::string>& key, json_value row,
                 std::string_view me = {}) {
  const column* key_col = target.key_column();
  if (!key_col || !row.is_object()) return;
  if (!key || (!me.empty() && *key == me && target.keyed_by_user())) return;
  const std::string label = row_label(target, row);
  if (label.empty()) return;
  const ref_entry* known = key_col->type == column_type::uuid ? registry.find_by_uuid(*key, target.ref_prefix)
                                                              : registry.find_by_key(target.ref_prefix, *key);
  if (known) {
    if (known->label.empty()) registry.set_label(std::size_t(known - registry.entries().data()), label);
  } else
    registry.register_keyed_row(target.name, target.ref_prefix, key_col->type, *key, ref_action::linked, label);
}

// Whether the model sees member `name` of rows of `tbl` read with `columns`.
bool selects_column(const table& tbl, const std::vector<std::string>& columns, std::string_view name) {
  if (tbl.hides_owner(name) ||
      std::find(tbl.hidden_columns.begin(), tbl.hidden_columns.end(), name) != tbl.hidden_columns.end())
    return false;
  return columns.empty() || std::find(columns.begin(), columns.end(), "*") != columns.end() ||
         std::find(columns.begin(), columns.end(), name) != columns.end();
}

}  // namespace

status apply_labels(const domain&, ref_registry& registry, const table& target, std::string_view rows_json) {
  auto doc = json_document::parse(rows_json);
  if (!doc) return error{codes::invalid_json, "rows", doc.err().message, "rows must be the JSON PostgREST returned"};
  const json_value root = doc->root();
  auto apply = [&](json_value row) { apply_label(registry, target, detail::row_key_text(target, row), row); };
  if (root.is_array())
    root.for_each_element([&](std::size_t, json_value row) { apply(row); });
  else
    apply(root);
  return ok_status();
}

std::vector<label_embed> label_embeds(const domain& dom, const table& tbl, const std::vector<std::string>& columns) {
  std::vector<label_embed> out;
  for (const auto& col : tbl.columns) {
    // A one-to-one table's key is its parent's: the row's own ref, no label.
    if (col.type == column_type::uuid_array || col.references.empty() || tbl.key_column() == &col ||
        !selects_column(tbl, columns, col.name))
      continue;
    // A table the API does not serve cannot be joined (its lookup is not sent either).
    const table* target = dom.find_table(col.references);
    if (!target || !target->exposed || !target->readable || !target->key_column()) continue;
    // The label's columns: the foreign key beside the embed holds the key.
    const std::string select = label_select(*target, false);
    if (select.empty() || select == target->key_column()->name) continue;  // a label of the key alone
    // No column is named so (a column's name starts with a letter); past
    // PostgreSQL's 63 bytes a name would be cut short.
    std::string alias = "_label_" + col.name;
    if (alias.size() > kIdentifierRule.max_length) continue;
    out.push_back({alias, alias + ":" + col.name + "(" + select + ")", target, col.name});
  }
  // Rows embedded in these: an item `rel(a,b)` as the select reader let it
  // through, of a relation or of the table a foreign key points at.
  for (const auto& item : columns) {
    const auto open = item.find('(');
    if (open == std::string::npos || item.back() != ')') continue;
    const relation* rel = tbl.find_relation(std::string_view(item).substr(0, open));
    const table* rows = rel ? dom.find_table(rel->table) : dom.find_table(std::string_view(item).substr(0, open));
    if (!rows) continue;
    // The member the rows arrive under, as the domain spells it.
    const std::string_view name = rel ? std::string_view(rel->name) : std::string_view(rows->name);
    const auto inner = detail::split_list(std::string_view(item).substr(open + 1, item.size() - open - 2));
    for (auto embed : label_embeds(dom, *rows, inner)) {
      // One level, as the select allows; a key to the table they are
      // embedded in names the row they are under, whose text shows its label.
      if (!embed.within.empty() || embed.target == &tbl) continue;
      embed.within = name;
      out.push_back(std::move(embed));
    }
  }
  return out;
}

status apply_embedded_labels(ref_registry& registry, const std::vector<label_embed>& embeds, std::string_view rows_json,
                             std::string_view current_user) {
  auto doc = json_document::parse(rows_json);
  if (!doc) return error{codes::invalid_json, "rows", doc.err().message, "rows must be the JSON PostgREST returned"};
  const std::string me = is_uuid_syntax(current_user) ? canonical_uuid(current_user) : std::string();
  // The row's key is its foreign key's value, beside the embed.
  auto apply_in = [&](json_value row, const label_embed& embed) {
    if (!row.is_object()) return;
    const auto target_row = row.find(embed.alias);
    const auto key = row.find(embed.column);
    const column* key_col = embed.target->key_column();
    if (target_row && key && key_col)
      apply_label(registry, *embed.target, detail::key_text(key_col->type, *key), *target_row, me);
  };
  auto apply = [&](json_value row) {
    if (!row.is_object()) return;
    for (const label_embed& embed : embeds) {
      if (embed.within.empty()) {
        apply_in(row, embed);
      } else if (auto rows = row.find(embed.within); rows && rows->is_array()) {
        rows->for_each_element([&](std::size_t, json_value inner) { apply_in(inner, embed); });
      } else if (rows) {
        apply_in(*rows, embed);
      }
    }
  };
  const json_value root = doc->root();
  if (root.is_array())
    root.for_each_element([&](std::size_t, json_value row) { apply(row); });
  else
    apply(root);
  return ok_status();
}

}  // namespace alfred
