// The example slots of the Act templates, one row each (slot_rows), with the
// example derived from a domain's own tables and columns for every slot a
// domain gives no text for. They use only what the domain declares (table and
// column names, ref prefixes, allowed values), so they are valid calls of that
// domain and name nothing from another; values the domain cannot supply are
// plain placeholders ("New deal").
#include <algorithm>
#include <optional>
#include <string>

#include "../json/format.h"
#include "alfred/domain/prompt_examples.h"
#include "alfred/json/json.h"
#include "prompt_example_parts.h"

namespace alfred {
namespace {

using detail::array_json;
using detail::code;
using detail::decision;
using detail::enum_value;
using detail::example_row;
using detail::filter;
using detail::is_reference;
using detail::key_of;
using detail::new_value;
using detail::pick;
using detail::picks;
using detail::plain;
using detail::ref;
using detail::refs_json;
using detail::sample;
using detail::sample_filter;
using detail::singular;
using detail::text_label;
using detail::usable;

// What every derivation reads: the domain, the picks made once for it, and
// the slot asked for (one derivation serves several slots, such as the
// like/ilike ops).
struct slot_input {
  const domain& dom;
  const picks& p;
  std::string_view slot;

  const table& main() const { return *p.main; }
  const table& writes() const { return *p.create; }
  std::string gen() const { return ref_text(p.main->ref_prefix, 1, true); }
};

std::string note_example(const slot_input& in) {
  const table& main = in.main();
  return code(
      textfmt::format("\"{}, {} are the {} the next step needs\"", ref(main, 1), ref(main, 4), plain(main.name)));
}

std::string ref_examples(const slot_input& in) {
  std::string out;
  const int numbers[] = {1, 4, 12, 3};
  std::size_t shown = 0;
  for (const auto& tbl : in.dom.tables) {
    if (shown == 4) break;
    if (!tbl.key_column() || !tbl.readable) continue;  // rows without refs of their own
    out.append(shown ? ", " : "").append(code(ref(tbl, numbers[shown])));
    ++shown;
  }
  return out;
}

std::string ref_tables(const slot_input& in) {
  const table& main = in.main();
  std::string out = textfmt::format("`{}_` → {}", main.ref_prefix, main.name);
  if (in.p.second != in.p.main) out += textfmt::format(", `{}_` → {}", in.p.second->ref_prefix, in.p.second->name);
  return out;
}

std::string ref_column(const slot_input& in) {
  for (const auto& tbl : in.dom.tables)
    for (const auto& col : tbl.columns)
      if (col.references == in.main().name && is_reference(col)) return code(col.name);
  return in.p.fk ? code(in.p.fk->name) : "a column that references it";
}

// query_example and reply_query_example (which adds the tip).
std::string query_example(const slot_input& in) {
  const sample_filter s = sample(in.p);
  std::string out =
      textfmt::format("Query: Table: {} | Filters: {} | Limit: 100\nOutcome: 0 records found", s.tbl->name, s.shown);
  if (in.slot == "reply_query_example")
    out += textfmt::format("\nTip: only rows with {} were searched; a read without that filter would cover all of {}.",
                           s.shown, s.tbl->name);
  return out;
}

std::string adjustment_example(const slot_input& in) {
  for (const auto& tbl : in.dom.tables)
    if (tbl.middleware.catalog)
      return textfmt::format("for example a name matched to the {} catalog", tbl.middleware.catalog->catalog);
  for (const auto& tbl : in.dom.tables)
    if (!tbl.middleware.fuzzy_columns.empty()) return "for example a name matched as part of a longer name";
  return "for example a filter the system added";
}

std::string complete_note(const slot_input& in) {
  const table& main = in.main();
  return textfmt::format("{}, {}, {} are the ones the next step needs", ref(main, 1), ref(main, 4), ref(main, 7));
}

std::string op_neq(const slot_input& in) {
  const picks& p = in.p;
  if (p.enum_col) return code(filter(p.enum_col->name, "!=", json_quote(enum_value(*p.enum_col, 1))));
  return code(
      filter(p.label ? p.label->name : key_of(in.main()), "!=", json_quote(p.label ? "old" : ref(in.main(), 2))));
}

std::string op_compare(const slot_input& in) {
  if (in.p.number) return code(filter(in.p.number->name, ">=", "100"));
  if (in.p.date) return code(filter(in.p.date->name, ">=", "\"2026-02-09\""));
  return "(no number or date columns here)";
}

// op_like, op_ilike, op_not_like, op_not_ilike: the op is the slot's name.
std::string op_pattern(const slot_input& in) {
  if (!in.p.label) return "(no text columns here)";
  const std::string_view op = in.slot.substr(3);
  const char* value = in.slot == "op_like" ? "\"New%\"" : in.slot == "op_ilike" ? "\"%new%\"" : "\"%old%\"";
  return code(filter(in.p.label->name, op, value));
}

// op_is_null and op_is_not_null.
std::string op_null(const slot_input& in) {
  const picks& p = in.p;
  const column* col = in.slot == "op_is_null" ? (p.date && p.date->nullable ? p.date : p.fk) : p.fk;
  if (!col) col = p.label;
  if (!col) return code(filter(key_of(in.main()), in.slot.substr(3), "null"));
  return code(filter(col->name, in.slot.substr(3), "null"));
}

// op_contains, op_contained_by and op_overlaps.
std::string op_containment(const slot_input& in) {
  const column* array = in.p.array;
  if (!array) return "(no list columns here)";
  if (in.slot == "op_contains") return code(filter(array->name, "contains", array_json(*array, 0, 1)));
  if (in.slot == "op_contained_by") return code(filter(array->name, "contained_by", array_json(*array, 0, 2)));
  return code(filter(array->name, "overlaps", array_json(*array, 1, 2)));
}

// The operator table's line for full-text search: on a search column
// (tsvector) where the domain has one, else on a text column.
std::string op_search_row(const slot_input& in) {
  const column* col = nullptr;
  for (const auto& tbl : in.dom.tables)
    for (const auto& c : tbl.columns)
      if (!col && tbl.exposed && c.type == column_type::tsvector) col = &c;
  if (!col) col = in.p.label;
  if (!col) return "";
  return textfmt::format(
      "| `search` `not_search` | has (lacks) these words; \"a phrase\", `or` and `-word` work | {} |",
      code(filter(col->name, "search", "\"words to find\"")));
}

std::string op_similar_row(const slot_input& in) {
  if (!in.p.semantic) return "";
  return textfmt::format("| `similar` | meaning-based search, {} only | {} |", in.p.semantic->name,
                         code(filter("_semantic", "similar", json_quote("what the user described"))));
}

// `op` over main's refs numbered `numbers`, on main's key column.
std::string main_refs_filter(const slot_input& in, std::string_view op, std::initializer_list<int> numbers) {
  return code(filter(key_of(in.main()), op, refs_json(in.main(), numbers)));
}

std::string read_scope(const slot_input& in) {
  const picks& p = in.p;
  const table& main = in.main();
  std::string out = textfmt::format(
      "\"Read {}\" means all {}\n(`filters: []`); add a filter only when the step or the user asks for one.",
      plain(main.name), plain(main.name));
  if (p.enum_col)
    out += textfmt::format(" \"The {} {}\"\nmeans `{} = {}`.", enum_value(*p.enum_col, 0), plain(p.enum_table->name),
                           p.enum_col->name, enum_value(*p.enum_col, 0));
  return out;
}

std::string read_call(const slot_input& in) {
  const sample_filter s = sample(in.p);
  const column* order = nullptr;
  for (const auto& col : s.tbl->columns)
    if (!order && (col.type == column_type::date || col.type == column_type::timestamp) && usable(in.dom, *s.tbl, col))
      order = &col;
  return decision("db_read", s.tbl->name, "[" + s.json + "]", "100", order ? order->name : "", order ? "asc" : "", "");
}

std::string read_either_or(const slot_input& in) {
  const picks& p = in.p;
  if (p.enum_col)
    return textfmt::format("e.g. {} or {}:\n  `[{}, {}]`", enum_value(*p.enum_col, 0), enum_value(*p.enum_col, 1),
                           filter(p.enum_col->name, "=", json_quote(enum_value(*p.enum_col, 0))),
                           filter(p.enum_col->name, "=", json_quote(enum_value(*p.enum_col, 1))));
  const std::string field = p.label ? p.label->name : key_of(*p.main);
  return textfmt::format("e.g.:\n  `[{}, {}]`", filter(field, "ilike", "\"%new%\""),
                         filter(field, "ilike", "\"%old%\""));
}

std::string read_date_range(const slot_input& in) {
  if (!in.p.date) return "(no date columns here)";
  return textfmt::format("{} and {}", code(filter(in.p.date->name, ">=", "\"2026-02-09\"")),
                         code(filter(in.p.date->name, "<=", "\"2026-02-15\"")));
}

std::string read_by_meaning(const slot_input& in) {
  if (!in.p.semantic) return "";
  return textfmt::format(
      "- **By meaning** ({}): {}.\n  Combine it with ordinary filters when the user also gave hard criteria.",
      in.p.semantic->name, code(filter("_semantic", "similar", json_quote("what the user described"))));
}

std::string read_columns(const slot_input& in) {
  const picks& p = in.p;
  std::string out = "`\"columns\": [";
  out += json_quote(p.label ? p.label->name : key_of(*p.main));
  if (p.child) {
    const column* child_label = text_label(*p.child);
    out += textfmt::format(", \"{}({})\"", p.child->name, child_label ? child_label->name : key_of(*p.child));
  }
  return out + "]`";
}

std::string read_long_columns(const slot_input& in) {
  const table& main = in.main();
  for (const auto& col : main.columns)
    if (usable(in.dom, main, col) && (col.type == column_type::jsonb || col.type == column_type::text_array))
      return textfmt::format("Fetch long columns such as `{}` only when the step\nneeds them.", col.name);
  return "";
}

std::string create_call(const slot_input& in) {
  const table& writes = in.writes();
  const std::string rows = textfmt::format("[{}, {}]", example_row(writes, "First", "", &in.dom),
                                           example_row(writes, "Second", "", &in.dom));
  return decision("db_create", writes.name, "", "", "", "", rows);
}

std::string save_generated_steps(const slot_input& in) {
  const picks& p = in.p;
  const std::string gen = in.gen();
  const std::string parent_row = example_row(in.main(), "New", textfmt::format("\"id\": \"{}\"", gen), &in.dom);
  if (!p.child || !p.child->allows(write_create)) {
    return textfmt::format(
        "1. Create the row with `\"id\": \"{}\"` in it. That marks which artifact the row saves;\n"
        "   copy the artifact's columns as they are.\n   `{}`",
        gen, parent_row);
  }
  const std::string link = textfmt::format("\"{}\": \"{}\"", p.child_fk->name, gen);
  return textfmt::format(
      "1. Create the main row with `\"id\": \"{}\"` in it. That marks which artifact the row saves;\n"
      "   copy the artifact's columns as they are. Nested lists (`{}`) are not columns:\n"
      "   they are saved in step 2.\n   `{}`\n"
      "2. Then create the linked rows in one batch, pointing at the saved parent by the same `gen_` ref:\n"
      "   `[{}, {}]`\n   on `{}`.",
      gen, p.child->name, parent_row, example_row(*p.child, "First", link, &in.dom),
      example_row(*p.child, "Second", link, &in.dom), p.child->name);
}

std::string write_update_example(const slot_input& in) {
  const table& writes = *in.p.update;
  const column* col = nullptr;
  for (const auto& c : writes.columns)
    if (!col && c.settable(write_update) && usable(in.dom, writes, c) && c.type == column_type::text &&
        !c.allowed_values.empty())
      col = &c;
  std::string data;
  if (col)
    data = textfmt::format("{{\"{}\": \"{}\"}}", col->name, enum_value(*col, 1));
  else if (const column* label = text_label(writes); label && label->settable(write_update))
    data = textfmt::format("{{\"{}\": \"{}\"}}", label->name, new_value(writes, "Renamed"));
  else
    data = "{}";
  return textfmt::format("Update `{}`: `\"filters\": [{}]`,\n  `\"data\": {}` on `{}`.", ref(writes, 4),
                         filter(key_of(writes), "=", json_quote(ref(writes, 4))), json_quote(data), writes.name);
}

std::string write_delete_example(const slot_input& in) {
  const table& writes = *in.p.remove;
  return textfmt::format("`[{}]` on `{}`.", filter(key_of(writes), "in", refs_json(writes, {2, 5})), writes.name);
}

std::string write_fk_columns(const slot_input& in) {
  std::string out;
  int shown = 0;
  for (const auto& tbl : in.dom.tables)
    for (const auto& col : tbl.columns)
      if (shown < 2 && is_reference(col) && usable(in.dom, tbl, col) && out.find(code(col.name)) == std::string::npos) {
        out.append(shown++ ? ", " : "").append(code(col.name));
      }
  return out.empty() ? "the column that references the parent" : out;
}

std::string analyze_examples(const slot_input& in) {
  const picks& p = in.p;
  const table& main = in.main();
  const std::string other = p.child ? plain(p.child->name) : plain(p.second->name);
  return textfmt::format(
      "- **Compare lists**: which {} have no {} yet.\n"
      "- **Filter by criteria**: {} that match everything the user asked for.\n"
      "- **Compute**: totals, counts, days until a date.\n"
      "- **Decide**: which 3 {} matter most now, and why.",
      plain(main.name), other, plain(main.name), plain(main.name));
}

std::string analyze_complete(const slot_input& in) {
  const table& main = in.main();
  const std::string data =
      textfmt::format(R"({{"matching": {}, "other": {}}})", refs_json(main, {2, 4}), refs_json(main, {1, 3, 5}));
  return textfmt::format(
      R"({{"action": "step_complete", "tool": null, "params": null, "summary": "2 of 5 {} match", "data": {}, "note_for_next_step": "{} and {} match", "question": null, "reason_code": null, "details": null, "suggested_next": null}})",
      plain(main.name), json_quote(data), ref(main, 2), ref(main, 4));
}

std::string generate_intro(const slot_input& in) {
  const picks& p = in.p;
  return textfmt::format(
      "Create the content the step asks for (new {}{}),\nfitted to the user: follow the user's profile and "
      "preferences when the prompt includes them.",
      plain(in.main().name), p.child ? textfmt::format(" with their {}", plain(p.child->name)) : "");
}

std::string generate_shape(const slot_input& in) {
  const picks& p = in.p;
  const table& main = in.main();
  std::string nested;
  if (p.child) {
    const column* child_label = text_label(*p.child);
    if (child_label)
      nested = textfmt::format("\"{}\": [{{\"{}\": \"{}\"}}]", p.child->name, child_label->name,
                               new_value(*p.child, "First"));
  }
  std::string row = example_row(main, "New");
  if (!nested.empty()) row = row.substr(0, row.size() - 1) + (row.size() > 2 ? ", " : "") + nested + "}";
  return textfmt::format("{{\"{}\": [{}]}}", main.name, row);
}

std::string generate_link_example(const slot_input& in) {
  const picks& p = in.p;
  if (p.child)
    return textfmt::format("a {}'s `{}: \"{}\"`", singular(p.child->name), p.child_fk->name, ref(in.main(), 4));
  if (p.fk) {
    const table* target = in.dom.find_table(p.fk->references);
    return textfmt::format("a {}'s `{}: \"{}\"`", singular(p.fk_table->name), p.fk->name,
                           target ? ref(*target, 4) : std::string("…"));
  }
  return "refs of existing rows";
}

using slot_input_fn = std::string (*)(const slot_input&);

// One row per slot of the Act templates: the slot, what its text shows (for
// a domain author), and how a domain's tables make it.
struct slot_row {
  prompt_example_slot slot;
  slot_input_fn derive;
};

// Every slot, in template order. Longer than 60 lines because it is a table:
// one row per slot, the one-line derivations written in place.
const std::vector<slot_row>& slot_rows() {
  static const std::vector<slot_row> rows = {
      {{"note_example", "a note_for_next_step naming refs (base)"}, note_example},
      {{"ref_examples", "four refs of different tables (base)"}, ref_examples},
      {{"gen_ref", "a generated ref, bare (base, generate)"}, [](const slot_input& in) { return in.gen(); }},
      {{"ref_tables", "ref prefixes and their tables (base)"}, ref_tables},
      {{"ref_column", "a foreign key column (base)"}, ref_column},
      {{"query_example", "an executed query as the prompt shows it (base)"}, query_example},
      {{"adjustment_example", "what an Effective: line may show (base, reply)"}, adjustment_example},
      {{"complete_summary", "a step_complete summary (base)"},
       [](const slot_input& in) { return textfmt::format("Found 3 {}", plain(in.main().name)); }},
      {{"complete_note", "a step_complete note_for_next_step (base)"}, complete_note},
      {{"op_eq", "a filter with = (crud)"}, [](const slot_input& in) { return code(sample(in.p).json); }},
      {{"op_neq", "a filter with != (crud)"}, op_neq},
      {{"op_compare", "a filter with a comparison (crud)"}, op_compare},
      {{"op_in", "a filter with in over refs (crud)"},
       [](const slot_input& in) {
         return main_refs_filter(in, "in", {1, 4});
       }},
      {{"op_not_in", "a filter with not_in over refs (crud)"},
       [](const slot_input& in) {
         return main_refs_filter(in, "not_in", {5, 6});
       }},
      {{"op_like", "a filter with like (crud)"}, op_pattern},
      {{"op_ilike", "a filter with ilike (crud)"}, op_pattern},
      {{"op_not_like", "a filter with not_like (crud)"}, op_pattern},
      {{"op_not_ilike", "a filter with not_ilike (crud)"}, op_pattern},
      {{"op_is_null", "a filter with is_null (crud)"}, op_null},
      {{"op_is_not_null", "a filter with is_not_null (crud)"}, op_null},
      {{"op_contains", "a filter with contains on an array column (crud, read)"}, op_containment},
      {{"op_contained_by", "a filter with contained_by (crud)"}, op_containment},
      {{"op_overlaps", "a filter with overlaps (crud)"}, op_containment},
      {{"op_search", "the operator table's row for search and not_search, or nothing (crud)"}, op_search_row},
      {{"op_similar_row", "the operator table's row for similar, or nothing (crud)"}, op_similar_row},
      {{"exclude_not_in", "leaving refs out with not_in (crud)"},
       [](const slot_input& in) {
         return main_refs_filter(in, "not_in", {1, 2, 7});
       }},
      {{"exclude_in", "keeping refs with in (crud)"},
       [](const slot_input& in) {
         return main_refs_filter(in, "in", {3, 4, 8});
       }},
      {{"exclude_complex", "exclusions left to an analyze step (crud)"},
       [](const slot_input&) -> std::string { return "by a related table, by judgement"; }},
      {{"reuse_by_ref", "selecting rows in context by ref (crud)"},
       [](const slot_input& in) {
         return main_refs_filter(in, "in", {4, 8});
       }},
      {{"read_scope", "what a read step reads and what not (read)"}, read_scope},
      {{"read_call", "a complete db_read decision (read)"}, read_call},
      {{"read_by_ref", "a read by refs (read)"},
       [](const slot_input& in) {
         return main_refs_filter(in, "in", {2, 5});
       }},
      {{"read_either_or", "or_filters over two values (read)"}, read_either_or},
      {{"read_date_range", "a date range as two filters (read)"}, read_date_range},
      {{"read_by_meaning", "the semantic search pattern, or nothing (read)"}, read_by_meaning},
      {{"read_columns", "columns with a related table (read)"}, read_columns},
      {{"read_long_columns", "which long columns to fetch only when needed (read)"}, read_long_columns},
      {{"create_call", "a complete db_create decision (write)"}, create_call},
      {{"save_generated_steps", "saving a gen_ artifact and its linked rows (write)"}, save_generated_steps},
      {{"saved_as_example", "how a saved artifact is marked (write)"},
       [](const slot_input& in) { return code("saved as " + ref(in.main(), 5)); }},
      {{"write_ref_filter", "a filter on one ref (write)"},
       [](const slot_input& in) { return filter(key_of(*in.p.update), "=", json_quote(ref(*in.p.update, 4))); }},
      {{"write_update_example", "an update by ref (write)"}, write_update_example},
      {{"write_delete_example", "a delete of several refs (write)"}, write_delete_example},
      {{"write_cascade_note", "what a delete also deletes, or nothing (write)"},
       [](const slot_input&) { return std::string(); }},
      {{"write_fk_columns", "foreign key columns (write)"}, write_fk_columns},
      {{"analyze_examples", "what analysis looks like (analyze)"}, analyze_examples},
      {{"analyze_complete", "a step_complete with data (analyze)"}, analyze_complete},
      {{"generate_intro", "what a generate step creates (generate)"}, generate_intro},
      {{"generate_shape", "generated content grouped by table (generate)"}, generate_shape},
      {{"generate_link_example", "a generated row pointing at an existing ref (generate)"}, generate_link_example},
      {{"generate_quality", "what good generated content is (generate)"},
       [](const slot_input&) -> std::string {
         return "Be concrete and practical: values of each column's type, allowed values where the schema lists "
                "them,\nand only what the step asks for.";
       }},
      {{"reply_query_example", "an empty read with its tip (reply)"}, query_example},
      {{"reply_ref_example", "a ref never shown to the user (reply)"},
       [](const slot_input& in) { return code(ref(in.main(), 3)); }},
      {{"assistant_role", "who answers the user (reply prompt of the loop)"},
       [](const slot_input&) -> std::string { return "a helpful assistant"; }},
      {{"planner_generate_example", "what a generate step makes (planner)"},
       [](const slot_input& in) { return textfmt::format("a new {}", singular(in.main().name)); }},
  };
  return rows;
}

}  // namespace

const std::vector<prompt_example_slot>& prompt_example_slots() {
  static const std::vector<prompt_example_slot> slots = [] {
    std::vector<prompt_example_slot> out;
    out.reserve(slot_rows().size());
    for (const auto& row : slot_rows()) out.push_back(row.slot);
    return out;
  }();
  return slots;
}

std::string derived_prompt_example(const domain& dom, std::string_view slot) {
  if (dom.tables.empty()) return "";
  for (const auto& row : slot_rows())
    if (row.slot.name == slot) return row.derive({dom, pick(dom), slot});
  return "";
}

example_texts prompt_examples(const domain& dom) {
  if (dom.resolved_prompt_examples.size() == prompt_example_slots().size()) return dom.resolved_prompt_examples;
  example_texts out;
  out.reserve(slot_rows().size());
  std::optional<picks> chosen;
  for (const slot_row& row : slot_rows()) {
    const std::string_view name = row.slot.name;
    auto given = std::find_if(dom.prompt_examples.begin(), dom.prompt_examples.end(),
                              [&](const auto& entry) { return entry.first == name; });
    if (given != dom.prompt_examples.end()) {
      out.emplace_back(std::string(name), given->second);
      continue;
    }
    if (dom.tables.empty()) {
      out.emplace_back(std::string(name), std::string());
      continue;
    }
    if (!chosen) chosen = pick(dom);
    out.emplace_back(std::string(name), row.derive({dom, *chosen, name}));
  }
  return out;
}

}  // namespace alfred
