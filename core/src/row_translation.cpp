#include "alfred/row_translation.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "alfred/uuid.h"

namespace alfred {
namespace {

std::string value_text(const json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_number() || value.is_boolean()) return value.dump();
  return {};
}

// "2026-02-01" → "Feb 01"; anything else unchanged.
std::string month_day(const std::string& date) {
  static constexpr std::array<const char*, 12> kMonths{"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                       "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  if (date.size() < 10 || date[4] != '-' || date[7] != '-') return date;
  const int month = (date[5] - '0') * 10 + (date[6] - '0');
  if (month < 1 || month > 12) return date;
  return fmt::format("{} {}", kMonths[month - 1], date.substr(8, 2));
}

// Renders "{date|mon_day} [{meal_type}]"; "" when a referenced value is missing.
std::string render_label_format(const std::string& format, const json& row) {
  std::string out;
  std::size_t at = 0;
  while (at < format.size()) {
    const auto open = format.find('{', at);
    if (open == std::string::npos) {
      out += format.substr(at);
      break;
    }
    const auto close = format.find('}', open);
    if (close == std::string::npos) return {};
    out += format.substr(at, open - at);
    std::string name = format.substr(open + 1, close - open - 1);
    std::string filter;
    if (auto bar = name.find('|'); bar != std::string::npos) {
      filter = name.substr(bar + 1);
      name.resize(bar);
    }
    auto it = row.find(name);
    const std::string text = it == row.end() ? std::string() : value_text(*it);
    if (text.empty()) return {};
    out += filter == "mon_day" ? month_day(text) : text;
    at = close + 1;
  }
  return out;
}

const table* embed_target(const domain& dom, const table& tbl, const std::string& key) {
  if (const relation* rel = tbl.find_relation(key)) return dom.find_table(rel->table);
  for (const auto& col : tbl.columns)
    if (col.type == column_type::uuid && col.references == key && col.name != "id")
      return dom.find_table(key);
  return nullptr;
}

json translate_row(const domain& dom, ref_registry& registry, const table& tbl, const json& row,
                   ref_action action);

json translate_any(const domain& dom, ref_registry& registry, const table& tbl, const json& value,
                   ref_action action) {
  if (value.is_array()) {
    json out = json::array();
    for (const auto& row : value)
      if (row.is_object()) out.push_back(translate_row(dom, registry, tbl, row, action));
    return out;
  }
  if (value.is_object()) return translate_row(dom, registry, tbl, value, action);
  return value.is_null() ? json() : json::array();
}

json translate_row(const domain& dom, ref_registry& registry, const table& tbl, const json& row,
                   ref_action action) {
  json out = json::object();
  for (const auto& [key, value] : row.items()) {
    if (key == dom.owner_column && tbl.user_owned) continue;
    if (std::find(tbl.hidden_columns.begin(), tbl.hidden_columns.end(), key) != tbl.hidden_columns.end())
      continue;
    const column* col = tbl.find_column(key);
    if (!col) {
      if (const table* target = embed_target(dom, tbl, key))
        out[key] = translate_any(dom, registry, *target, value, ref_action::read);
      continue;
    }
    if (col->type == column_type::uuid) {
      if (value.is_null()) {
        out[key] = nullptr;
        continue;
      }
      if (!value.is_string() || !is_uuid_syntax(value.get<std::string>())) continue;
      const std::string uuid = canonical_uuid(value.get<std::string>());
      if (key == "id") {
        out[key] = registry.register_row(tbl.name, tbl.ref_prefix, uuid, action, row_label(tbl, row));
      } else if (const table* target = dom.find_table(col->references)) {
        out[key] = registry.register_linked(target->name, target->ref_prefix, uuid);
      }
      continue;
    }
    if (col->type == column_type::uuid_array) {
      const table* target = dom.find_table(col->references);
      json refs = json::array();
      if (value.is_array() && target)
        for (const auto& item : value)
          if (item.is_string() && is_uuid_syntax(item.get<std::string>()))
            refs.push_back(registry.register_linked(target->name, target->ref_prefix,
                                                    canonical_uuid(item.get<std::string>())));
      out[key] = value.is_null() ? json() : std::move(refs);
      continue;
    }
    out[key] = value;
  }
  return out;
}

}  // namespace

std::string row_label(const table& tbl, const json& row) {
  if (!tbl.label_format.empty()) {
    std::string label = render_label_format(tbl.label_format, row);
    if (!label.empty()) return label;
  }
  for (const auto& name : tbl.label_columns) {
    auto it = row.find(name);
    if (it != row.end()) {
      std::string text = value_text(*it);
      if (!text.empty()) return text;
    }
  }
  return {};
}

json translate_rows(const domain& dom, ref_registry& registry, const table& tbl, const json& rows,
                    ref_action action) {
  return translate_any(dom, registry, tbl, rows, action);
}

}  // namespace alfred
