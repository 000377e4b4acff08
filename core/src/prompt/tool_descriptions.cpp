// The tools' descriptions (tool_description) and the tools with their
// schemas as one JSON array (tool_definitions_json); the schemas themselves
// are tool_schema.cpp's.
#include <algorithm>
#include <array>
#include <iterator>
#include <string>

#include "../json/format.h"
#include "../tool_call/function_reader.h"
#include "alfred/json/json.h"
#include "alfred/prompt/tool_schema.h"
#include "prompt_sections.h"
#include "tool_schema_tables.h"

namespace alfred {
namespace {

using detail::is_visible;
using detail::ref_table;
using detail::tables_for;

constexpr std::array<tool_kind, 6> kTools{tool_kind::read,   tool_kind::create, tool_kind::update,
                                          tool_kind::remove, tool_kind::call,   tool_kind::aggregate};

// `"<column>": "<prefix>_1"`: a foreign key of a table that takes creates, for the
// create description.
std::string link_example(const domain& dom) {
  for (const auto& tbl : dom.tables) {
    if (!tbl.allows(write_create)) continue;
    for (const auto& col : tbl.columns) {
      const table* target = col.references.empty() ? nullptr : dom.find_table(col.references);
      if (target && col.type != column_type::uuid_array && col.settable(write_create))
        return textfmt::format(" (\"{}\": \"{}\")", col.name, ref_text(target->ref_prefix, 1));
    }
  }
  return {};
}

bool any_owner_scoped(const domain& dom) {
  return std::any_of(dom.tables.begin(), dom.tables.end(), [](const table& t) { return t.owner_scoped; });
}

bool is_array(column_type type) { return type == column_type::text_array || type == column_type::uuid_array; }

// One table of the compact list: "- recipes (recipe_N): id, name*, tags[],
// difficulty (easy|medium|hard), parent_recipe_id→recipes; related:
// recipe_ingredients". Names, not types: the model writes calls from the
// names, and a refused call's hint says what a column takes.
void append_table_line(std::string& out, const domain& dom, const table& tbl, const tool_schema_options& options) {
  out.append("- ").append(tbl.name).append(" (");
  if (!tbl.exposed) {
    textfmt::format_to(
        out, "{}): not a table to read; its refs come from {}\n", ref_pattern(tbl.ref_prefix),
        dom.functions.empty() ? "the rows that reference it" : "db_call results and the rows that reference it");
    return;
  }
  if (!tbl.readable)
    out.append(tbl.write_note().substr(2));
  else if (tbl.key_column())
    out.append(ref_pattern(tbl.ref_prefix)).append(tbl.write_note());
  else if (!tbl.key.empty())
    textfmt::format_to(out, "rows named by {}{}", textfmt::join(tbl.key, " + "), tbl.write_note());
  else
    out += "read-only";
  out += "):";
  bool first = true;
  for (const column& col : tbl.columns) {
    if (!is_visible(dom, tbl, col)) continue;
    out.append(first ? " " : ", ").append(col.name);
    first = false;
    if (is_array(col.type)) out += "[]";
    if (col.required && tbl.allows(write_create) && col.settable(write_create) && !options.fixes(col.name)) out += '*';
    const table* target = col.references.empty() ? nullptr : dom.find_table(col.references);
    if (target && &col != tbl.key_column()) out.append("→").append(target->name);
    if (!col.allowed_values.empty()) textfmt::format_to(out, " ({})", textfmt::join(col.allowed_values, "|"));
  }
  // Text search columns are searched, never read: named apart.
  first = true;
  for (const column& col : tbl.columns) {
    if (col.type != column_type::tsvector) continue;
    out.append(first ? "; search: " : ", ").append(col.name);
    first = false;
  }
  for (std::size_t i = 0; i < tbl.relations.size(); ++i)
    out.append(i ? ", " : "; related: ").append(tbl.relations[i].name);
  out += '\n';
}

// The compact form of the schema in db_read's description: one line per table.
void append_table_list(std::string& out, const domain& dom, const tool_schema_options& options) {
  out += "Tables (ref prefix: columns, * required, [] a list, →table a ref to it, (a|b) the allowed values):\n";
  for (const table& tbl : dom.tables) append_table_line(out, dom, tbl, options);
}

// The first line of a function's description, cut to a line's length.
std::string first_line(std::string_view text, std::size_t max_chars) {
  const std::string_view line = text.substr(0, text.find('\n'));
  if (line.size() <= max_chars) return std::string(line);
  std::size_t cut = max_chars;
  while (cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xC0) == 0x80) --cut;  // not inside a character
  return std::string(line.substr(0, cut)) + "…";
}

// "- archive_project(project_id: ref of projects) — Archives a project.
// [changes data]" One line per function; `inline_schema` adds each argument's
// description and allowed values.
void append_function_list(std::string& out, const domain& dom, const tool_schema_options& options) {
  out += "Functions (? optional):\n";
  for (const db_function& fn : dom.functions) {
    if (!options.offers(fn)) continue;
    out.append("- ").append(detail::function_signature(dom, fn, options.fixed));
    if (!fn.description.empty())
      out.append(" — ").append(first_line(fn.description, options.inline_schema ? 400 : 120));
    out.append(fn.read ? " [reads]" : " [changes data]");
    if (options.inline_schema && fn.returns.type == function_returns::kind::rows)
      out.append(" Returns rows of ").append(fn.returns.table).append(".");
    out += '\n';
    if (!options.inline_schema) continue;
    for (const column& arg : fn.args.columns) {
      if (options.fixes(arg.name)) continue;
      const auto described = std::find_if(fn.arg_descriptions.begin(), fn.arg_descriptions.end(),
                                          [&](const auto& d) { return d.first == arg.name; });
      if (described == fn.arg_descriptions.end() && arg.allowed_values.empty()) continue;
      out.append("  - ").append(arg.name).append(":");
      if (described != fn.arg_descriptions.end()) out.append(" ").append(first_line(described->second, 200));
      if (!arg.allowed_values.empty()) textfmt::format_to(out, " ({})", textfmt::join(arg.allowed_values, "|"));
      out += '\n';
    }
  }
}

// db_create's: where every table is write-only, with the tables, as no
// db_read is offered to list them.
std::string create_description(const domain& dom, const tool_schema_options& options) {
  std::string out = textfmt::format(
      "Create rows (one, or a batch). Link rows with refs{}, including generated artifacts not saved yet (gen_ "
      "refs). The owner and keys the database assigns are set for you. Returns the created rows with their new "
      "refs{}.",
      link_example(dom),
      std::any_of(dom.tables.begin(), dom.tables.end(), [](const table& t) { return !t.readable; })
          ? " (a write-only table's: how many were saved)"
          : "");
  // Where every table is write-only, db_read is not offered to list them.
  if (tables_for(dom, tool_kind::read).empty()) {
    out += "\n\n";
    if (options.inline_schema)
      detail::append_schema_body(out, dom);
    else
      append_table_list(out, dom, options);
  }
  return out;
}

}  // namespace

std::string tool_description(const domain& dom, tool_kind kind, const tool_schema_options& options) {
  // A write's example table takes that write; db_call's and db_aggregate's
  // one that takes any.
  const table* example = ref_table(dom, kind == tool_kind::read ? 0 : write_of(kind) ? write_of(kind) : write_all);
  const std::string prefix = example ? example->ref_prefix : "row";
  const std::string key = example ? example->key_column()->name : "id";
  switch (kind) {
    case tool_kind::read: {
      std::string out = textfmt::format(
          "Read rows of the {}. Rows come back with refs (such as {}) in place of ids, and {} for the "
          "signed-in user; use them in filters and in later calls. {}\n\n",
          dom.name == "database" || dom.name == "domain" ? std::string("database") : dom.name + " database",
          ref_text(prefix, 1), kCurrentUserRef,
          any_owner_scoped(dom) ? "Rows are the signed-in user's, or shared with them."
                                : "Rows are those the signed-in user may see.");
      if (options.inline_schema)
        detail::append_schema_body(out, dom);
      else
        append_table_list(out, dom, options);
      return out;
    }
    case tool_kind::aggregate:
      return "Count, sum, average, min or max over the rows the filters select, without reading them; per group of "
             "group_by columns, ordered by a metric (order_by), kept by having, the first limit groups. Tables and "
             "columns as db_read lists them; keys come back as refs. A metric's key is its fn, or fn_field "
             "(sum_amount).";
    case tool_kind::call: {
      std::string out = textfmt::format(
          "Call one of the database's functions as the signed-in user. Rows are refs ({}), the user is {}. Call a "
          "function that changes data only when the user asked for what it does.\n\n",
          ref_text(prefix, 1), kCurrentUserRef);
      append_function_list(out, dom, options);
      return out;
    }
    case tool_kind::create:
      return create_description(dom, options);
    case tool_kind::update:
      return textfmt::format(
          "Change the rows the filters select (identify them by ref: {} = {}). Returns the changed rows.", key,
          ref_text(prefix, 1));
    case tool_kind::remove:
      return textfmt::format(
          "Delete the rows the filters select (identify them by ref: {} in [{}, {}]). Returns the deleted rows.", key,
          ref_text(prefix, 1), ref_text(prefix, 2));
  }
  return {};
}

std::string tool_definitions_json(const domain& dom, const tool_schema_options& options) {
  std::string out;
  json_writer w(out);
  w.begin_array();
  for (tool_kind kind : kTools) {
    if (options.reads_only && kind != tool_kind::read && kind != tool_kind::call && kind != tool_kind::aggregate)
      continue;
    const bool offered = kind == tool_kind::call
                             ? std::any_of(dom.functions.begin(), dom.functions.end(),
                                           [&](const db_function& fn) { return options.offers(fn); })
                             : !tables_for(dom, kind).empty();
    if (!offered) continue;
    w.begin_object();
    w.key("name");
    w.string(tool_name(kind));
    w.key("description");
    w.string(tool_description(dom, kind, options));
    w.key("parameters");
    w.raw_value(tool_parameters_schema(dom, kind, options));
    w.end_object();
  }
  w.end_array();
  return out;
}

}  // namespace alfred