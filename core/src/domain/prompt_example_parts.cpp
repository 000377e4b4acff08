// The pieces derived prompt examples are made of: the tables and columns
// chosen once per domain, and the writers of refs, filters, rows and
// decisions (prompt_example_parts.h).
#include "prompt_example_parts.h"

#include <algorithm>
#include <tuple>

#include "../json/format.h"
#include "alfred/json/json.h"

namespace alfred::detail {
namespace {

// The first column of `dom` (main's first) that `match` accepts.
template <class Match>
std::pair<const table*, const column*> first_column(const domain& dom, const table* prefer, Match match) {
  if (prefer)
    for (const auto& col : prefer->columns)
      if (usable(dom, *prefer, col) && match(col)) return {prefer, &col};
  for (const auto& tbl : dom.tables)
    for (const auto& col : tbl.columns)
      if (usable(dom, tbl, col) && match(col)) return {&tbl, &col};
  return {nullptr, nullptr};
}

}  // namespace

// A column the model may use in filters and writes of `tbl` (never of a
// write-only table, which is never filtered).
bool usable(const domain& dom, const table& tbl, const column& col) {
  (void)dom;
  return tbl.readable && !tbl.hides_column(col.name) && !tbl.is_key(col.name) && col.name != tbl.owner && !col.user_id;
}

// The column a table's refs are written in ("id" for most tables).
std::string key_of(const table& tbl) {
  if (const column* key = tbl.key_column()) return key->name;
  return tbl.key.empty() ? std::string("id") : tbl.key.front();
}

// A column holding a ref to another table (a foreign key of any key type).
bool is_reference(const column& col) { return !col.references.empty() && col.type != column_type::uuid_array; }

// "organizations" → "organization", "shopping_list" → "shopping list".
std::string singular(std::string_view name) {
  std::string out(name);
  std::replace(out.begin(), out.end(), '_', ' ');
  if (out.size() > 4 && out.compare(out.size() - 3, 3, "ies") == 0) return out.substr(0, out.size() - 3) + "y";
  if (out.size() > 4 && (out.compare(out.size() - 4, 4, "sses") == 0 || out.compare(out.size() - 3, 3, "xes") == 0))
    return out.substr(0, out.size() - 2);
  if (out.size() > 3 && out.back() == 's' && out.compare(out.size() - 2, 2, "ss") != 0 &&
      out.compare(out.size() - 2, 2, "us") != 0 && out.compare(out.size() - 2, 2, "is") != 0)
    out.pop_back();
  return out;
}

std::string plain(std::string_view name) {
  std::string out(name);
  std::replace(out.begin(), out.end(), '_', ' ');
  return out;
}

std::string ref(const table& tbl, int number) { return ref_text(tbl.ref_prefix, number); }

std::string refs_json(const table& tbl, std::initializer_list<int> numbers) {
  std::string out = "[";
  for (int n : numbers) out.append(out.size() > 1 ? ", " : "").append(json_quote(ref(tbl, n)));
  return out + "]";
}

std::string filter(std::string_view field, std::string_view op, std::string_view value_json) {
  return textfmt::format(R"({{"field": "{}", "op": "{}", "value": {}}})", field, op, value_json);
}

std::string code(std::string_view text) { return textfmt::format("`{}`", text); }

const column* text_label(const table& tbl) {
  for (const auto& name : tbl.label_columns)
    if (const column* col = tbl.find_column(name); col && col->type == column_type::text) return col;
  for (const auto& col : tbl.columns)
    if (col.type == column_type::text && col.allowed_values.empty() && col.references.empty()) return &col;
  return nullptr;
}

namespace {

// The tables the write examples are of: creates of one whose required
// columns are all plain values; updates and deletes of one that takes them,
// the create's where it does.
void pick_writes(const domain& dom, picks& p) {
  for (const auto& tbl : dom.tables) {
    if (p.create || !tbl.allows(write_create) || !tbl.readable || !tbl.key_column()) continue;
    const bool plain_required = std::all_of(tbl.columns.begin(), tbl.columns.end(), [](const column& col) {
      return !col.required || !col.settable(write_create) ||
             (col.references.empty() && !col.user_id && col.type != column_type::uuid &&
              col.type != column_type::uuid_array);
    });
    if (plain_required && text_label(tbl)) p.create = &tbl;
  }
  if (!p.create) p.create = p.main;
  p.update = p.remove = p.create;
  for (auto it = dom.tables.rbegin(); it != dom.tables.rend(); ++it) {
    if (!p.create->allows(write_update) && it->allows(write_update) && it->key_column()) p.update = &*it;
    if (!p.create->allows(write_delete) && it->allows(write_delete) && it->key_column()) p.remove = &*it;
  }
}

}  // namespace

picks pick(const domain& dom) {
  picks p;
  // Examples show the writes a table takes: the main table takes them all
  // where one does, else creates (a generated artifact is saved by one).
  using table_test = bool (*)(const table&);
  const table_test writes_tests[] = {[](const table& t) { return t.writable && t.writes == write_all; },
                                     [](const table& t) { return t.allows(write_create); }};
  for (const table_test writable : writes_tests) {
    auto owned = [&](const table& tbl) { return tbl.has_owner() && writable(tbl) && tbl.readable && tbl.key_column(); };
    for (const auto& tbl : dom.tables)
      if (!p.main && owned(tbl) && !tbl.relations.empty() && dom.find_table(tbl.relations.front().table)) p.main = &tbl;
    for (const auto& tbl : dom.tables)
      if (!p.main && owned(tbl) && !tbl.label_columns.empty()) p.main = &tbl;
    for (const auto& tbl : dom.tables)
      if (!p.main && writable(tbl) && tbl.readable && tbl.key_column()) p.main = &tbl;
  }
  for (const auto& tbl : dom.tables)
    if (!p.main && tbl.readable && tbl.key_column()) p.main = &tbl;
  if (!p.main) p.main = &dom.tables.front();
  for (const auto& tbl : dom.tables)
    if (!p.second && &tbl != p.main && tbl.readable) p.second = &tbl;
  if (!p.second) p.second = p.main;
  if (!p.main->relations.empty()) {
    p.child = dom.find_table(p.main->relations.front().table);
    if (p.child)
      for (const auto& col : p.child->columns)
        if (!p.child_fk && is_reference(col) && col.references == p.main->name) p.child_fk = &col;
    if (!p.child_fk) p.child = nullptr;
  }
  pick_writes(dom, p);
  p.label = text_label(*p.main);
  std::tie(p.enum_table, p.enum_col) = first_column(
      dom, p.main, [](const column& c) { return c.type == column_type::text && c.allowed_values.size() >= 2; });
  std::tie(p.number_table, p.number) = first_column(
      dom, p.main, [](const column& c) { return c.type == column_type::integer || c.type == column_type::numeric; });
  std::tie(p.date_table, p.date) =
      first_column(dom, p.main, [](const column& c) { return c.type == column_type::date; });
  if (!p.date)
    std::tie(p.date_table, p.date) =
        first_column(dom, p.main, [](const column& c) { return c.type == column_type::timestamp && c.writable; });
  std::tie(p.array_table, p.array) = first_column(
      dom, p.main, [](const column& c) { return c.type == column_type::text_array && !c.allowed_values.empty(); });
  if (!p.array)
    std::tie(p.array_table, p.array) =
        first_column(dom, p.main, [](const column& c) { return c.type == column_type::text_array; });
  std::tie(p.fk_table, p.fk) =
      first_column(dom, nullptr, [&](const column& c) { return is_reference(c) && !c.required; });
  if (!p.fk) std::tie(p.fk_table, p.fk) = first_column(dom, nullptr, [](const column& c) { return is_reference(c); });
  for (const auto& tbl : dom.tables)
    if (!p.semantic && tbl.middleware.semantic) p.semantic = &tbl;
  return p;
}

// The n-th allowed value of an enum column (wrapping), or a placeholder.
std::string enum_value(const column& col, std::size_t n) { return col.allowed_values[n % col.allowed_values.size()]; }

// Array values for examples: allowed values when the column has them.
std::string array_json(const column& col, std::size_t from, std::size_t count) {
  std::string out = "[";
  for (std::size_t i = 0; i < count; ++i) {
    const std::string value = col.allowed_values.empty() ? (i == 0 ? "first" : "second") : enum_value(col, from + i);
    out.append(i ? ", " : "").append(json_quote(value));
  }
  return out + "]";
}

std::string new_value(const table& tbl, std::string_view which) {
  return textfmt::format("{} {}", which, singular(tbl.name));
}

// A row for a create example: the label, every other required plain column,
// and `extra` (ready JSON members).
std::string example_row(const table& tbl, std::string_view which, std::string_view extra, const domain* dom) {
  std::string out = "{";
  auto add = [&](std::string_view key, const std::string& value_json) {
    out.append(out.size() > 1 ? ", " : "").append(json_quote(key)).append(": ").append(value_json);
  };
  if (!extra.empty()) out.append(extra);
  const column* label = text_label(tbl);
  if (label) add(label->name, json_quote(new_value(tbl, which)));
  for (const auto& col : tbl.columns) {
    if (dom && !tbl.hides_column(col.name) && &col != label && col.required && col.settable(write_create) &&
        (is_reference(col) || col.user_id) && extra.find(json_quote(col.name)) == extra.npos) {
      const table* target = col.user_id ? nullptr : dom->find_table(col.references);
      if (col.user_id) add(col.name, json_quote(kCurrentUserRef));
      if (target) add(col.name, json_quote(ref_text(target->ref_prefix, 1)));
    }
    if (!col.required || !col.settable(write_create) || &col == label || col.type == column_type::uuid ||
        is_reference(col))
      continue;
    switch (col.type) {
      case column_type::text:
        add(col.name, json_quote(col.allowed_values.empty() ? plain(col.name) : col.allowed_values.front()));
        break;
      case column_type::integer:
      case column_type::numeric:
        add(col.name, "1");
        break;
      case column_type::boolean:
        add(col.name, "true");
        break;
      case column_type::date:
      case column_type::timestamp:
        add(col.name, "\"2026-02-09\"");
        break;
      case column_type::text_array:
        add(col.name, array_json(col, 0, 1));
        break;
      default:
        break;
    }
  }
  return out + "}";
}

// A decision in the strict shape: every field, null where unused.
std::string decision(std::string_view tool, std::string_view table_name, std::string_view filters_json,
                     std::string_view limit, std::string_view order_by, std::string_view order_dir,
                     std::string_view data_json) {
  const auto or_null = [](std::string_view text) { return text.empty() ? std::string("null") : std::string(text); };
  return textfmt::format(
      R"({{"action": "tool_call", "tool": "{}", "params": {{"table": "{}", "filters": {}, "or_filters": null, "columns": null, "limit": {}, "offset": null, "order_by": {}, "order_dir": {}, "data": {}}}, "summary": null, "data": null, "note_for_next_step": null, "question": null, "reason_code": null, "details": null, "suggested_next": null}})",
      tool, table_name, or_null(filters_json), or_null(limit), order_by.empty() ? "null" : json_quote(order_by),
      order_dir.empty() ? "null" : json_quote(order_dir), data_json.empty() ? "null" : json_quote(data_json));
}

sample_filter sample(const picks& p) {
  if (p.enum_col) {
    const std::string value = enum_value(*p.enum_col, 0);
    return {p.enum_table, p.enum_col->name + " = " + value, filter(p.enum_col->name, "=", json_quote(value))};
  }
  if (p.label) return {p.main, p.label->name + " ilike %new%", filter(p.label->name, "ilike", "\"%new%\"")};
  return {p.main, key_of(*p.main) + " = " + ref(*p.main, 1), filter(key_of(*p.main), "=", json_quote(ref(*p.main, 1)))};
}

}  // namespace alfred::detail
