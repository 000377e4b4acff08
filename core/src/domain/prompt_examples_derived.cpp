// Examples derived from a domain's own tables and columns, for every slot a
// domain gives no text for. They use only what the domain declares (table and
// column names, ref prefixes, allowed values), so they are valid calls of that
// domain and name nothing from another; values the domain cannot supply are
// plain placeholders ("New deal").
#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>

#include "alfred/json.h"
#include "alfred/prompt_examples.h"

namespace alfred {
namespace {

bool is_hidden(const table& tbl, const column& col) {
  return std::find(tbl.hidden_columns.begin(), tbl.hidden_columns.end(), col.name) != tbl.hidden_columns.end();
}

// A column the model may use in filters and writes of `tbl`.
bool usable(const domain& dom, const table& tbl, const column& col) {
  (void)dom;
  return !is_hidden(tbl, col) && !tbl.is_key(col.name) && col.name != tbl.owner && !col.user_id;
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

std::string ref(const table& tbl, int number) { return fmt::format("{}_{}", tbl.ref_prefix, number); }

std::string refs_json(const table& tbl, std::initializer_list<int> numbers) {
  std::string out = "[";
  for (int n : numbers) out.append(out.size() > 1 ? ", " : "").append(json_quote(ref(tbl, n)));
  return out + "]";
}

std::string filter(std::string_view field, std::string_view op, std::string_view value_json) {
  return fmt::format(R"({{"field": "{}", "op": "{}", "value": {}}})", field, op, value_json);
}

std::string code(std::string_view text) { return fmt::format("`{}`", text); }

// The columns and tables the examples are made of, chosen once per domain.
struct picks {
  const table* main = nullptr;    // the table most examples use
  const table* second = nullptr;  // another table, for variety
  const table* child = nullptr;   // a table that belongs to main (a relation)
  const column* child_fk = nullptr;
  const table* create = nullptr;  // a writable table for create/update/delete examples
  const column* label = nullptr;  // main's text label column
  const table* enum_table = nullptr;
  const column* enum_col = nullptr;
  const table* number_table = nullptr;
  const column* number = nullptr;
  const table* date_table = nullptr;
  const column* date = nullptr;
  const table* array_table = nullptr;
  const column* array = nullptr;
  const table* fk_table = nullptr;
  const column* fk = nullptr;
  const table* semantic = nullptr;
};

const column* text_label(const table& tbl) {
  for (const auto& name : tbl.label_columns)
    if (const column* col = tbl.find_column(name); col && col->type == column_type::text) return col;
  for (const auto& col : tbl.columns)
    if (col.type == column_type::text && col.allowed_values.empty()) return &col;
  return nullptr;
}

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

picks pick(const domain& dom) {
  picks p;
  auto owned = [](const table& tbl) { return tbl.has_owner() && tbl.writable && tbl.key_column(); };
  for (const auto& tbl : dom.tables)
    if (!p.main && owned(tbl) && !tbl.relations.empty() && dom.find_table(tbl.relations.front().table)) p.main = &tbl;
  for (const auto& tbl : dom.tables)
    if (!p.main && owned(tbl) && !tbl.label_columns.empty()) p.main = &tbl;
  for (const auto& tbl : dom.tables)
    if (!p.main && tbl.writable && tbl.key_column()) p.main = &tbl;
  for (const auto& tbl : dom.tables)
    if (!p.main && tbl.key_column()) p.main = &tbl;
  if (!p.main) p.main = &dom.tables.front();
  for (const auto& tbl : dom.tables)
    if (!p.second && &tbl != p.main) p.second = &tbl;
  if (!p.second) p.second = p.main;
  if (!p.main->relations.empty()) {
    p.child = dom.find_table(p.main->relations.front().table);
    if (p.child)
      for (const auto& col : p.child->columns)
        if (!p.child_fk && is_reference(col) && col.references == p.main->name) p.child_fk = &col;
    if (!p.child_fk) p.child = nullptr;
  }
  // Create examples need a table whose required columns are all plain values.
  for (const auto& tbl : dom.tables) {
    if (p.create || !tbl.writable || !tbl.key_column()) continue;
    const bool plain_required = std::all_of(tbl.columns.begin(), tbl.columns.end(), [](const column& col) {
      return !col.required || !col.writable ||
             (col.references.empty() && !col.user_id && col.type != column_type::uuid &&
              col.type != column_type::uuid_array);
    });
    if (plain_required && text_label(tbl)) p.create = &tbl;
  }
  if (!p.create) p.create = p.main;
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

std::string new_value(const table& tbl, std::string_view which = "New") {
  return fmt::format("{} {}", which, singular(tbl.name));
}

// A row for a create example: the label, every other required plain column,
// and `extra` (ready JSON members).
std::string example_row(const table& tbl, std::string_view which, std::string_view extra = "") {
  std::string out = "{";
  auto add = [&](std::string_view key, const std::string& value_json) {
    out.append(out.size() > 1 ? ", " : "").append(json_quote(key)).append(": ").append(value_json);
  };
  if (!extra.empty()) out.append(extra);
  const column* label = text_label(tbl);
  if (label) add(label->name, json_quote(new_value(tbl, which)));
  for (const auto& col : tbl.columns) {
    if (!col.required || !col.writable || &col == label || col.type == column_type::uuid || is_reference(col)) continue;
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
  return fmt::format(
      R"({{"action": "tool_call", "tool": "{}", "params": {{"table": "{}", "filters": {}, "or_filters": null, "columns": null, "limit": {}, "offset": null, "order_by": {}, "order_dir": {}, "data": {}}}, "summary": null, "data": null, "note_for_next_step": null, "question": null, "reason_code": null, "details": null, "suggested_next": null}})",
      tool, table_name, or_null(filters_json), or_null(limit), order_by.empty() ? "null" : json_quote(order_by),
      order_dir.empty() ? "null" : json_quote(order_dir), data_json.empty() ? "null" : json_quote(data_json));
}

// A filter that selects some rows of `p.enum_table` (or of main by label).
struct sample_filter {
  const table* tbl;
  std::string shown;  // as a Query: line shows it
  std::string json;   // the filter clause
};

sample_filter sample(const picks& p) {
  if (p.enum_col) {
    const std::string value = enum_value(*p.enum_col, 0);
    return {p.enum_table, p.enum_col->name + " = " + value, filter(p.enum_col->name, "=", json_quote(value))};
  }
  if (p.label) return {p.main, p.label->name + " ilike %new%", filter(p.label->name, "ilike", "\"%new%\"")};
  return {p.main, key_of(*p.main) + " = " + ref(*p.main, 1), filter(key_of(*p.main), "=", json_quote(ref(*p.main, 1)))};
}

std::string derive(const domain& dom, const picks& p, std::string_view slot) {
  const table& main = *p.main;
  const std::string gen = "gen_" + ref(main, 1);
  const table& writes = *p.create;
  if (slot == "note_example")
    return code(fmt::format("\"{}, {} are the {} the next step needs\"", ref(main, 1), ref(main, 4), plain(main.name)));
  if (slot == "ref_examples") {
    std::string out;
    const int numbers[] = {1, 4, 12, 3};
    std::size_t shown = 0;
    for (const auto& tbl : dom.tables) {
      if (shown == 4) break;
      if (!tbl.key_column()) continue;  // rows without refs of their own
      out.append(shown ? ", " : "").append(code(ref(tbl, numbers[shown])));
      ++shown;
    }
    return out;
  }
  if (slot == "gen_ref") return gen;
  if (slot == "ref_tables") {
    std::string out = fmt::format("`{}_` → {}", main.ref_prefix, main.name);
    if (p.second != p.main) out += fmt::format(", `{}_` → {}", p.second->ref_prefix, p.second->name);
    return out;
  }
  if (slot == "ref_column") {
    for (const auto& tbl : dom.tables)
      for (const auto& col : tbl.columns)
        if (col.references == main.name && is_reference(col)) return code(col.name);
    return p.fk ? code(p.fk->name) : "a column that references it";
  }
  if (slot == "query_example" || slot == "reply_query_example") {
    const sample_filter s = sample(p);
    std::string out =
        fmt::format("Query: Table: {} | Filters: {} | Limit: 100\nOutcome: 0 records found", s.tbl->name, s.shown);
    if (slot == "reply_query_example")
      out += fmt::format("\nTip: only rows with {} were searched; a read without that filter would cover all of {}.",
                         s.shown, s.tbl->name);
    return out;
  }
  if (slot == "adjustment_example") {
    for (const auto& tbl : dom.tables)
      if (tbl.middleware.catalog)
        return fmt::format("for example a name matched to the {} catalog", tbl.middleware.catalog->catalog);
    for (const auto& tbl : dom.tables)
      if (!tbl.middleware.fuzzy_columns.empty()) return "for example a name matched as part of a longer name";
    return "for example a filter the system added";
  }
  if (slot == "complete_summary") return fmt::format("Found 3 {}", plain(main.name));
  if (slot == "complete_note")
    return fmt::format("{}, {}, {} are the ones the next step needs", ref(main, 1), ref(main, 4), ref(main, 7));
  if (slot == "op_eq") return code(sample(p).json);
  if (slot == "op_neq") {
    if (p.enum_col) return code(filter(p.enum_col->name, "!=", json_quote(enum_value(*p.enum_col, 1))));
    return code(filter(p.label ? p.label->name : key_of(main), "!=", json_quote(p.label ? "old" : ref(main, 2))));
  }
  if (slot == "op_compare") {
    if (p.number) return code(filter(p.number->name, ">=", "100"));
    if (p.date) return code(filter(p.date->name, ">=", "\"2026-02-09\""));
    return "(no number or date columns here)";
  }
  if (slot == "op_in") return code(filter(key_of(main), "in", refs_json(main, {1, 4})));
  if (slot == "op_not_in") return code(filter(key_of(main), "not_in", refs_json(main, {5, 6})));
  if (slot == "op_like" || slot == "op_ilike" || slot == "op_not_like" || slot == "op_not_ilike") {
    if (!p.label) return "(no text columns here)";
    const std::string_view op = slot.substr(3);
    const char* value = slot == "op_like" ? "\"New%\"" : slot == "op_ilike" ? "\"%new%\"" : "\"%old%\"";
    return code(filter(p.label->name, op, value));
  }
  if (slot == "op_is_null" || slot == "op_is_not_null") {
    const column* col = slot == "op_is_null" ? (p.date && p.date->nullable ? p.date : p.fk) : p.fk;
    if (!col) col = p.label;
    if (!col) return code(filter(key_of(main), slot.substr(3), "null"));
    return code(filter(col->name, slot.substr(3), "null"));
  }
  if (slot == "op_contains" || slot == "op_contained_by" || slot == "op_overlaps") {
    if (!p.array) return "(no list columns here)";
    if (slot == "op_contains") return code(filter(p.array->name, "contains", array_json(*p.array, 0, 1)));
    if (slot == "op_contained_by") return code(filter(p.array->name, "contained_by", array_json(*p.array, 0, 2)));
    return code(filter(p.array->name, "overlaps", array_json(*p.array, 1, 2)));
  }
  if (slot == "op_similar_row") {
    if (!p.semantic) return "";
    return fmt::format("| `similar` | meaning-based search, {} only | {} |", p.semantic->name,
                       code(filter("_semantic", "similar", json_quote("what the user described"))));
  }
  if (slot == "exclude_not_in") return code(filter(key_of(main), "not_in", refs_json(main, {1, 2, 7})));
  if (slot == "exclude_in") return code(filter(key_of(main), "in", refs_json(main, {3, 4, 8})));
  if (slot == "exclude_complex") return "by a related table, by judgement";
  if (slot == "reuse_by_ref") return code(filter(key_of(main), "in", refs_json(main, {4, 8})));
  if (slot == "read_scope") {
    std::string out = fmt::format(
        "\"Read {}\" means all {}\n(`filters: []`); add a filter only when the step or the user asks for one.",
        plain(main.name), plain(main.name));
    if (p.enum_col)
      out += fmt::format(" \"The {} {}\"\nmeans `{} = {}`.", enum_value(*p.enum_col, 0), plain(p.enum_table->name),
                         p.enum_col->name, enum_value(*p.enum_col, 0));
    return out;
  }
  if (slot == "read_call") {
    const sample_filter s = sample(p);
    const column* order = nullptr;
    for (const auto& col : s.tbl->columns)
      if (!order && (col.type == column_type::date || col.type == column_type::timestamp) && usable(dom, *s.tbl, col))
        order = &col;
    return decision("db_read", s.tbl->name, "[" + s.json + "]", "100", order ? order->name : "", order ? "asc" : "",
                    "");
  }
  if (slot == "read_by_ref") return code(filter(key_of(main), "in", refs_json(main, {2, 5})));
  if (slot == "read_either_or") {
    if (p.enum_col)
      return fmt::format("e.g. {} or {}:\n  `[{}, {}]`", enum_value(*p.enum_col, 0), enum_value(*p.enum_col, 1),
                         filter(p.enum_col->name, "=", json_quote(enum_value(*p.enum_col, 0))),
                         filter(p.enum_col->name, "=", json_quote(enum_value(*p.enum_col, 1))));
    const std::string field = p.label ? p.label->name : key_of(*p.main);
    return fmt::format("e.g.:\n  `[{}, {}]`", filter(field, "ilike", "\"%new%\""), filter(field, "ilike", "\"%old%\""));
  }
  if (slot == "read_date_range") {
    if (!p.date) return "(no date columns here)";
    return fmt::format("{} and {}", code(filter(p.date->name, ">=", "\"2026-02-09\"")),
                       code(filter(p.date->name, "<=", "\"2026-02-15\"")));
  }
  if (slot == "read_by_meaning") {
    if (!p.semantic) return "";
    return fmt::format(
        "- **By meaning** ({}): {}.\n  Combine it with ordinary filters when the user also gave hard criteria.",
        p.semantic->name, code(filter("_semantic", "similar", json_quote("what the user described"))));
  }
  if (slot == "read_columns") {
    std::string out = "`\"columns\": [";
    out += json_quote(p.label ? p.label->name : key_of(*p.main));
    if (p.child) {
      const column* child_label = text_label(*p.child);
      out += fmt::format(", \"{}({})\"", p.child->name, child_label ? child_label->name : key_of(*p.child));
    }
    return out + "]`";
  }
  if (slot == "read_long_columns") {
    for (const auto& col : main.columns)
      if (usable(dom, main, col) && (col.type == column_type::jsonb || col.type == column_type::text_array))
        return fmt::format("Fetch long columns such as `{}` only when the step\nneeds them.", col.name);
    return "";
  }
  if (slot == "create_call") {
    const std::string rows = fmt::format("[{}, {}]", example_row(writes, "First"), example_row(writes, "Second"));
    return decision("db_create", writes.name, "", "", "", "", rows);
  }
  if (slot == "save_generated_steps") {
    const std::string parent_row = example_row(main, "New", fmt::format("\"id\": \"{}\"", gen));
    if (!p.child) {
      return fmt::format(
          "1. Create the row with `\"id\": \"{}\"` in it. That marks which artifact the row saves;\n"
          "   copy the artifact's columns as they are.\n   `{}`",
          gen, parent_row);
    }
    const std::string link = fmt::format("\"{}\": \"{}\"", p.child_fk->name, gen);
    return fmt::format(
        "1. Create the main row with `\"id\": \"{}\"` in it. That marks which artifact the row saves;\n"
        "   copy the artifact's columns as they are. Nested lists (`{}`) are not columns:\n"
        "   they are saved in step 2.\n   `{}`\n"
        "2. Then create the linked rows in one batch, pointing at the saved parent by the same `gen_` ref:\n"
        "   `[{}, {}]`\n   on `{}`.",
        gen, p.child->name, parent_row, example_row(*p.child, "First", link), example_row(*p.child, "Second", link),
        p.child->name);
  }
  if (slot == "saved_as_example") return code("saved as " + ref(main, 5));
  if (slot == "write_ref_filter") return filter(key_of(writes), "=", json_quote(ref(writes, 4)));
  if (slot == "write_update_example") {
    const column* col = nullptr;
    for (const auto& c : writes.columns)
      if (!col && c.writable && usable(dom, writes, c) && c.type == column_type::text && !c.allowed_values.empty())
        col = &c;
    std::string data;
    if (col)
      data = fmt::format("{{\"{}\": \"{}\"}}", col->name, enum_value(*col, 1));
    else if (const column* label = text_label(writes))
      data = fmt::format("{{\"{}\": \"{}\"}}", label->name, new_value(writes, "Renamed"));
    else
      data = "{}";
    return fmt::format("Update `{}`: `\"filters\": [{}]`,\n  `\"data\": {}` on `{}`.", ref(writes, 4),
                       filter(key_of(writes), "=", json_quote(ref(writes, 4))), json_quote(data), writes.name);
  }
  if (slot == "write_delete_example")
    return fmt::format("`[{}]` on `{}`.", filter(key_of(writes), "in", refs_json(writes, {2, 5})), writes.name);
  if (slot == "write_cascade_note") return "";
  if (slot == "write_fk_columns") {
    std::string out;
    int shown = 0;
    for (const auto& tbl : dom.tables)
      for (const auto& col : tbl.columns)
        if (shown < 2 && is_reference(col) && usable(dom, tbl, col) && out.find(code(col.name)) == std::string::npos) {
          out.append(shown++ ? ", " : "").append(code(col.name));
        }
    return out.empty() ? "the column that references the parent" : out;
  }
  if (slot == "analyze_examples") {
    const std::string other = p.child ? plain(p.child->name) : plain(p.second->name);
    return fmt::format(
        "- **Compare lists**: which {} have no {} yet.\n"
        "- **Filter by criteria**: {} that match everything the user asked for.\n"
        "- **Compute**: totals, counts, days until a date.\n"
        "- **Decide**: which 3 {} matter most now, and why.",
        plain(main.name), other, plain(main.name), plain(main.name));
  }
  if (slot == "analyze_complete") {
    const std::string data =
        fmt::format(R"({{"matching": {}, "other": {}}})", refs_json(main, {2, 4}), refs_json(main, {1, 3, 5}));
    return fmt::format(
        R"({{"action": "step_complete", "tool": null, "params": null, "summary": "2 of 5 {} match", "data": {}, "note_for_next_step": "{} and {} match", "question": null, "reason_code": null, "details": null, "suggested_next": null}})",
        plain(main.name), json_quote(data), ref(main, 2), ref(main, 4));
  }
  if (slot == "generate_intro")
    return fmt::format(
        "Create the content the step asks for (new {}{}),\nfitted to the user: follow the user's profile and "
        "preferences when the prompt includes them.",
        plain(main.name), p.child ? fmt::format(" with their {}", plain(p.child->name)) : "");
  if (slot == "generate_shape") {
    std::string nested;
    if (p.child) {
      const column* child_label = text_label(*p.child);
      if (child_label)
        nested =
            fmt::format("\"{}\": [{{\"{}\": \"{}\"}}]", p.child->name, child_label->name, new_value(*p.child, "First"));
    }
    std::string row = example_row(main, "New");
    if (!nested.empty()) row = row.substr(0, row.size() - 1) + (row.size() > 2 ? ", " : "") + nested + "}";
    return fmt::format("{{\"{}\": [{}]}}", main.name, row);
  }
  if (slot == "generate_link_example") {
    if (p.child) return fmt::format("a {}'s `{}: \"{}\"`", singular(p.child->name), p.child_fk->name, ref(main, 4));
    if (p.fk) {
      const table* target = dom.find_table(p.fk->references);
      return fmt::format("a {}'s `{}: \"{}\"`", singular(p.fk_table->name), p.fk->name,
                         target ? ref(*target, 4) : std::string("…"));
    }
    return "refs of existing rows";
  }
  if (slot == "generate_quality")
    return "Be concrete and practical: values of each column's type, allowed values where the schema lists them,\n"
           "and only what the step asks for.";
  if (slot == "reply_ref_example") return code(ref(main, 3));
  if (slot == "assistant_role") return "a helpful assistant";
  if (slot == "planner_generate_example") return fmt::format("a new {}", singular(main.name));
  return "";
}

}  // namespace

std::string derived_prompt_example(const domain& dom, std::string_view slot) {
  if (dom.tables.empty()) return "";
  return derive(dom, pick(dom), slot);
}

example_texts prompt_examples(const domain& dom) {
  if (dom.resolved_prompt_examples.size() == prompt_example_slots().size()) return dom.resolved_prompt_examples;
  example_texts out;
  out.reserve(prompt_example_slots().size());
  std::optional<picks> chosen;
  for (const auto& slot : prompt_example_slots()) {
    auto given = std::find_if(dom.prompt_examples.begin(), dom.prompt_examples.end(),
                              [&](const auto& entry) { return entry.first == slot.name; });
    if (given != dom.prompt_examples.end()) {
      out.emplace_back(std::string(slot.name), given->second);
      continue;
    }
    if (dom.tables.empty()) {
      out.emplace_back(std::string(slot.name), std::string());
      continue;
    }
    if (!chosen) chosen = pick(dom);
    out.emplace_back(std::string(slot.name), derive(dom, *chosen, slot.name));
  }
  return out;
}

}  // namespace alfred
