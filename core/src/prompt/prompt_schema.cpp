#include <fmt/format.h>

#include <algorithm>

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
    fmt::format_to(std::back_inserter(out), "ref ({})", ref_pattern(tbl.ref_prefix));
    if (tbl.owner == col.name || col.user_id) out += ", me for your own row";
  } else if (col.user_id) {
    out += "user: me when it is you";
  } else if (target && col.type == column_type::uuid_array) {
    fmt::format_to(std::back_inserter(out), "list of refs → {} ({})", target->name, ref_pattern(target->ref_prefix));
  } else if (target) {
    fmt::format_to(std::back_inserter(out), "ref → {} ({})", target->name, ref_pattern(target->ref_prefix));
    if (target->key_column() && (target->owner == target->key_column()->name || target->key_column()->user_id))
      out += ", me when it is you";
  } else {
    out.append(type_text(col.type));
  }
  if (col.required && tbl.writable && col.writable) out += ", required";
  if (!col.writable && tbl.writable) out += ", read-only";
  if (!col.allowed_values.empty()) {
    out += ", one of: ";
    for (std::size_t i = 0; i < col.allowed_values.size(); ++i) out.append(i ? ", " : "").append(col.allowed_values[i]);
  }
  out += '\n';
}

}  // namespace

void append_schema_body(std::string& out, const domain& dom) {
  out +=
      "Types: number = decimal, date = \"YYYY-MM-DD\", timestamp = ISO date and time, text[] = list of text. "
      "Columns not listed do not exist.\n";
  for (const table& tbl : dom.tables) {
    if (tbl.key_column())
      fmt::format_to(std::back_inserter(out), "\n### {} (refs {}){}\n", tbl.name, ref_pattern(tbl.ref_prefix),
                     tbl.writable ? "" : ", read-only catalog");
    else if (!tbl.key.empty())
      fmt::format_to(std::back_inserter(out), "\n### {} (rows named by {}){}\n", tbl.name, fmt::join(tbl.key, " + "),
                     tbl.writable ? "" : ", read-only");
    else
      fmt::format_to(std::back_inserter(out), "\n### {} (read-only)\n", tbl.name);
    for (const column& col : tbl.columns) {
      const bool hidden =
          std::find(tbl.hidden_columns.begin(), tbl.hidden_columns.end(), col.name) != tbl.hidden_columns.end();
      if (hidden || tbl.hides_owner(col.name)) continue;
      append_column(out, dom, tbl, col);
    }
    for (const relation& rel : tbl.relations) {
      const table* target = dom.find_table(rel.table);
      const std::string_view example =
          target && !target->label_columns.empty() ? std::string_view(target->label_columns.front()) : "*";
      fmt::format_to(std::back_inserter(out), "- related rows: {} (read with \"columns\": [\"*\", \"{}({})\"])\n",
                     rel.name, rel.name, example);
    }
  }
}

}  // namespace alfred::detail
