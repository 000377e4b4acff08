#include <algorithm>
#include <span>
#include <string>

#include "../json/format.h"
#include "prompt_sections.h"

namespace alfred::detail {
namespace {

std::string_view type_text(column_type type) {
  switch (type) {
    case column_type::numeric:
      return "number";
    case column_type::date:
      return "date";
    case column_type::timestamp:
      return "timestamp";
    default:
      return column_type_name(type);
  }
}

void append_column(std::string& out, const domain& dom, const table& tbl, const column& col) {
  out.append("- ").append(col.name).append(": ");
  const table* target = col.references.empty() ? nullptr : dom.find_table(col.references);
  if (&col == tbl.key_column()) {
    textfmt::format_to(out, "ref ({})", ref_pattern(tbl.ref_prefix));
    if (tbl.owner == col.name || col.user_id) out += ", me for your own row";
  } else if (col.user_id) {
    out += "user: me when it is you";
    if (const table* users = dom.users_table())
      textfmt::format_to(out, ", else a ref ({})", ref_pattern(users->ref_prefix));
  } else if (target && col.type == column_type::uuid_array) {
    textfmt::format_to(out, "list of refs → {} ({})", target->name, ref_pattern(target->ref_prefix));
  } else if (target) {
    textfmt::format_to(out, "ref → {} ({})", target->name, ref_pattern(target->ref_prefix));
    if (target->key_column() && (target->owner == target->key_column()->name || target->key_column()->user_id))
      out += ", me when it is you";
  } else {
    out.append(type_text(col.type));
  }
  if (col.required && tbl.allows(write_create) && col.settable(write_create)) out += ", required";
  if (!col.writable && tbl.writable) out += ", read-only";
  if (col.writable && tbl.allows(write_create) && !col.settable(write_create)) out += ", not on create";
  if (col.writable && tbl.allows(write_update) && !col.settable(write_update)) out += ", set on create only";
  // A one-to-one table's key is its parent's: a create names the parent row.
  if (&col == tbl.key_column() && target && target != &tbl && tbl.allows(write_create) && col.settable(write_create))
    textfmt::format_to(out, "; a create gives the {} row's ref ({})", target->name, ref_pattern(target->ref_prefix));
  if (!col.allowed_values.empty()) {
    out += ", one of: ";
    for (std::size_t i = 0; i < col.allowed_values.size(); ++i) out.append(i ? ", " : "").append(col.allowed_values[i]);
  }
  out += '\n';
}

// "### archive_project (changes data; returns rows of projects)", its
// description, then one line per argument as columns are listed.
void append_function(std::string& out, const domain& dom, const db_function& fn, std::span<const std::string> fixed) {
  std::string_view returns;
  std::string rows;
  switch (fn.returns.type) {
    case function_returns::kind::rows:
      rows = textfmt::format("returns {} of {}", fn.returns.set ? "rows" : "a row", fn.returns.table);
      returns = rows;
      break;
    case function_returns::kind::value:
      rows =
          textfmt::format("returns {} {}", fn.returns.set ? "values of type" : "a", type_text(fn.returns.value_type));
      returns = rows;
      break;
    case function_returns::kind::json:
      returns = "returns JSON";
      break;
    case function_returns::kind::none:
      returns = "returns nothing";
      break;
  }
  textfmt::format_to(out, "\n### {} ({}; {})\n", fn.name, fn.read ? "reads only" : "changes data", returns);
  if (!fn.description.empty()) out.append(fn.description).append("\n");
  bool any = false;
  for (const column& arg : fn.args.columns) {
    if (std::find(fixed.begin(), fixed.end(), arg.name) != fixed.end()) continue;
    any = true;
    if (fn.embeds(arg.name)) {
      out.append("- ")
          .append(arg.name)
          .append(": text, searched by meaning")
          .append(arg.required ? ", required\n" : "\n");
      continue;
    }
    std::string line;
    append_column(line, dom, fn.args, arg);
    // An argument is given or not: "required" is said for each one that
    // has no default.
    if (arg.required && line.find(", required") == std::string::npos) line.insert(line.size() - 1, ", required");
    out += line;
    for (const auto& [name, text] : fn.arg_descriptions)
      if (name == arg.name) out.append("  ").append(text).append("\n");
  }
  if (!any) out += "- (no arguments: \"args\": {})\n";
}

}  // namespace

void append_schema_body(std::string& out, const domain& dom, std::span<const std::string> fixed) {
  out +=
      "Types: number = decimal, date = \"YYYY-MM-DD\", timestamp = ISO date and time, text[] = list of text. "
      "Columns not listed do not exist.\n";
  for (const table& tbl : dom.tables) {
    if (!tbl.exposed) {
      textfmt::format_to(
          out, "\n### {} (refs {}): not a table to read; its refs come from {}\n", tbl.name,
          ref_pattern(tbl.ref_prefix),
          dom.functions.empty() ? "the rows that reference it" : "function results and the rows that reference it");
      continue;
    }
    if (!tbl.readable)
      textfmt::format_to(out, "\n### {} ({})\n", tbl.name, tbl.write_note().substr(2));
    else if (tbl.key_column())
      textfmt::format_to(out, "\n### {} (refs {}){}\n", tbl.name, ref_pattern(tbl.ref_prefix), tbl.write_note());
    else if (!tbl.key.empty())
      textfmt::format_to(out, "\n### {} (rows named by {}){}\n", tbl.name, textfmt::join(tbl.key, " + "),
                         tbl.write_note());
    else
      textfmt::format_to(out, "\n### {} (read-only)\n", tbl.name);
    for (const column& col : tbl.columns) {
      if (col.type == column_type::tsvector) {
        textfmt::format_to(out, "- {}: text search only (op search), never read\n", col.name);
        continue;
      }
      const bool hidden =
          std::find(tbl.hidden_columns.begin(), tbl.hidden_columns.end(), col.name) != tbl.hidden_columns.end();
      if (hidden || tbl.hides_owner(col.name)) continue;
      append_column(out, dom, tbl, col);
    }
    for (const relation& rel : tbl.relations) {
      const table* target = dom.find_table(rel.table);
      const std::string_view example =
          target && !target->label_columns.empty() ? std::string_view(target->label_columns.front()) : "*";
      textfmt::format_to(out, "- related rows: {} (read with \"columns\": [\"*\", \"{}({})\"])\n", rel.name, rel.name,
                         example);
    }
  }
  if (dom.functions.empty()) return;
  out += "\n## Functions (db_call: {\"function\": name, \"args\": {argument: value}})\n";
  for (const db_function& fn : dom.functions) append_function(out, dom, fn, fixed);
}

}  // namespace alfred::detail
