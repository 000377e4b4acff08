#include "alfred/row_translation.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "alfred/uuid.h"

namespace alfred {
namespace {

std::string value_text(json_value value) {
  if (value.is_string()) return std::string(value.str());
  if (value.is_number() || value.is_bool()) return std::string(value.raw());
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
std::string render_label_format(const std::string& format, json_value row) {
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
    auto value = row.find(name);
    const std::string text = value ? value_text(*value) : std::string();
    if (text.empty()) return {};
    out += filter == "mon_day" ? month_day(text) : text;
    at = close + 1;
  }
  return out;
}

const table* embed_target(const domain& dom, const table& tbl, std::string_view key) {
  if (const relation* rel = tbl.find_relation(key)) return dom.find_table(rel->table);
  for (const auto& col : tbl.columns)
    if (col.type == column_type::uuid && col.references == key && key != tbl.name) return dom.find_table(key);
  return nullptr;
}

bool is_uuid_string(json_value value) { return value.is_string() && is_uuid_syntax(value.str()); }

class row_translator {
 public:
  row_translator(const domain& dom, ref_registry& registry, std::string& out)
      : dom_(dom), registry_(registry), w_(out) {}

  // Rows of `tbl`: an array, one object, or null (an empty embed).
  void rows(const table& tbl, json_value value, ref_action action) {
    if (value.is_array()) {
      w_.begin_array();
      value.for_each_element([&](std::size_t, json_value item) {
        if (item.is_object()) row(tbl, item, action);
      });
      w_.end_array();
    } else if (value.is_object()) {
      row(tbl, value, action);
    } else {
      w_.null();
    }
  }

 private:
  void row(const table& tbl, json_value data, ref_action action) {
    w_.begin_object();
    data.for_each_member([&](std::string_view key, json_value value) {
      if (key == dom_.owner_column && tbl.user_owned) return;
      if (std::find(tbl.hidden_columns.begin(), tbl.hidden_columns.end(), key) != tbl.hidden_columns.end()) return;
      const column* col = tbl.find_column(key);
      if (!col) {
        if (const table* target = embed_target(dom_, tbl, key)) {
          w_.key(key);
          rows(*target, value, ref_action::read);
        }
        return;  // undeclared: it could be a UUID the model must not see
      }
      if (col->type == column_type::uuid) {
        if (value.is_null()) {
          w_.key(key);
          w_.null();
        } else if (is_uuid_string(value)) {
          w_.key(key);
          w_.string(uuid_ref(tbl, *col, canonical_uuid(value.str()), data, action));
        }
        return;
      }
      if (col->type == column_type::uuid_array) {
        w_.key(key);
        if (!value.is_array()) {
          w_.null();
          return;
        }
        const table* target = dom_.find_table(col->references);
        w_.begin_array();
        value.for_each_element([&](std::size_t, json_value item) {
          if (is_uuid_string(item))
            w_.string(registry_.register_linked(target->name, target->ref_prefix, canonical_uuid(item.str())));
        });
        w_.end_array();
        return;
      }
      w_.key(key);
      w_.value(value);
    });
    w_.end_object();
  }

  std::string uuid_ref(const table& tbl, const column& col, const std::string& uuid, json_value data,
                       ref_action action) {
    if (col.name == "id") return registry_.register_row(tbl.name, tbl.ref_prefix, uuid, action, row_label(tbl, data));
    const table* target = dom_.find_table(col.references);
    return registry_.register_linked(target->name, target->ref_prefix, uuid);
  }

  const domain& dom_;
  ref_registry& registry_;
  json_writer w_;
};

}  // namespace

std::string row_label(const table& tbl, json_value row) {
  if (!tbl.label_format.empty()) {
    std::string label = render_label_format(tbl.label_format, row);
    if (!label.empty()) return label;
  }
  for (const auto& name : tbl.label_columns) {
    if (auto value = row.find(name)) {
      std::string text = value_text(*value);
      if (!text.empty()) return text;
    }
  }
  return {};
}

result<std::string> translate_rows(const domain& dom, ref_registry& registry, const table& tbl,
                                   std::string_view rows_json, ref_action action) {
  auto doc = json_document::parse(rows_json);
  if (!doc) return error{"invalid_json", "rows", doc.err().message, "rows must be the JSON PostgREST returned"};
  std::string out;
  out.reserve(rows_json.size());
  row_translator(dom, registry, out).rows(tbl, doc->root(), action);
  return out;
}

}  // namespace alfred
