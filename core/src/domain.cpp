#include "alfred/domain.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <optional>
#include <set>

namespace alfred {
namespace {

struct type_entry {
  std::string_view name;
  column_type type;
};

constexpr std::array<type_entry, 10> kTypes{{
    {"uuid", column_type::uuid},
    {"text", column_type::text},
    {"integer", column_type::integer},
    {"numeric", column_type::numeric},
    {"boolean", column_type::boolean},
    {"date", column_type::date},
    {"timestamp", column_type::timestamp},
    {"text[]", column_type::text_array},
    {"uuid[]", column_type::uuid_array},
    {"jsonb", column_type::jsonb},
}};

bool is_identifier(std::string_view name) {
  if (name.empty() || name.size() > 63) return false;
  if (!(name[0] >= 'a' && name[0] <= 'z')) return false;
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; });
}

error config_error(std::string path, std::string message) {
  return {"invalid_domain", std::move(path), std::move(message),
          "see core/domains/kitchen.json for the expected shape"};
}

result<std::vector<std::string>> string_list(std::optional<json_value> value, const std::string& path) {
  std::vector<std::string> out;
  if (!value || value->is_null()) return out;
  if (!value->is_array()) return config_error(path, "must be an array of strings");
  bool all_strings = true;
  value->for_each_element([&](std::size_t, json_value item) {
    all_strings = all_strings && item.is_string();
    out.emplace_back(item.str());
  });
  if (!all_strings) return config_error(path, "must be an array of strings");
  return out;
}

bool flag(json_value spec, std::string_view key, bool fallback) {
  auto value = spec.find(key);
  return value && value->is_bool() ? value->as_bool() : fallback;
}

std::string text_field(json_value spec, std::string_view key) {
  auto value = spec.find(key);
  return value && value->is_string() ? std::string(value->str()) : std::string();
}

result<column> parse_column(const std::string& name, json_value spec, const std::string& path) {
  if (!is_identifier(name))
    return config_error(path, fmt::format("column name '{}' is not a lower-case identifier", name));
  if (is_postgrest_reserved(name))
    return config_error(path, fmt::format("column name '{}' is reserved by PostgREST", name));
  if (!spec.is_object()) return config_error(path, "must be an object");
  column col;
  col.name = name;
  const std::string type = text_field(spec, "type");
  if (type.empty()) return config_error(path + ".type", "is required");
  auto found = std::find_if(kTypes.begin(), kTypes.end(), [&](const type_entry& t) { return t.name == type; });
  if (found == kTypes.end()) return config_error(path + ".type", fmt::format("unknown column type '{}'", type));
  col.type = found->type;
  col.required = flag(spec, "required", false);
  col.writable = flag(spec, "writable", true);
  col.nullable = flag(spec, "nullable", !col.required);
  col.references = text_field(spec, "references");
  auto allowed = string_list(spec.find("values"), path + ".values");
  if (!allowed) return allowed.take_error();
  col.allowed_values = std::move(*allowed);
  return col;
}

result<table> parse_table(const std::string& name, json_value spec) {
  const std::string path = "tables." + name;
  if (!is_identifier(name))
    return config_error(path, fmt::format("table name '{}' is not a lower-case identifier", name));
  if (!spec.is_object()) return config_error(path, "must be an object");
  table tbl;
  tbl.name = name;
  tbl.ref_prefix = text_field(spec, "ref");
  if (!is_identifier(tbl.ref_prefix) || tbl.ref_prefix == "gen" || tbl.ref_prefix.rfind("gen_", 0) == 0 ||
      tbl.ref_prefix.back() == '_')
    return config_error(path + ".ref", "must be a lower-case identifier that does not start with 'gen'");
  tbl.user_owned = flag(spec, "user_owned", false);
  tbl.writable = flag(spec, "writable", true);

  auto columns = spec.find("columns");
  if (!columns || !columns->is_object() || columns->empty())
    return config_error(path + ".columns", "must be a non-empty object");
  std::optional<error> failure;
  columns->for_each_member([&](std::string_view col_name, json_value col_spec) {
    if (failure) return;
    const std::string name_text(col_name);
    auto col = parse_column(name_text, col_spec, path + ".columns." + name_text);
    if (!col)
      failure = col.take_error();
    else
      tbl.columns.push_back(std::move(*col));
  });
  if (failure) return std::move(*failure);
  const column* id = tbl.find_column("id");
  if (!id || id->type != column_type::uuid)
    return config_error(path + ".columns.id", "every table needs a uuid 'id' column");

  auto label = string_list(spec.find("label"), path + ".label");
  if (!label) return label.take_error();
  tbl.label_columns = std::move(*label);
  tbl.label_format = text_field(spec, "label_format");
  auto hidden = string_list(spec.find("hidden"), path + ".hidden");
  if (!hidden) return hidden.take_error();
  tbl.hidden_columns = std::move(*hidden);

  if (auto relations = spec.find("relations")) {
    if (!relations->is_object()) return config_error(path + ".relations", "must be an object");
    relations->for_each_member([&](std::string_view rel_name, json_value target) {
      if (failure) return;
      if (!target.is_string() || !is_identifier(rel_name))
        failure = config_error(path + ".relations." + std::string(rel_name), "must name a table");
      else
        tbl.relations.push_back({std::string(rel_name), std::string(target.str())});
    });
    if (failure) return std::move(*failure);
  }
  return tbl;
}

}  // namespace

std::string_view column_type_name(column_type type) {
  for (const auto& entry : kTypes)
    if (entry.type == type) return entry.name;
  return "unknown";
}

bool is_postgrest_reserved(std::string_view name) {
  static constexpr std::array<std::string_view, 9> kReserved{"select", "columns", "on_conflict", "order", "limit",
                                                             "offset", "or",      "and",         "not"};
  return std::find(kReserved.begin(), kReserved.end(), name) != kReserved.end();
}

const column* table::find_column(std::string_view col_name) const {
  for (const auto& col : columns)
    if (col.name == col_name) return &col;
  return nullptr;
}

const relation* table::find_relation(std::string_view rel_name) const {
  for (const auto& rel : relations)
    if (rel.name == rel_name) return &rel;
  return nullptr;
}

const table* domain::find_table(std::string_view table_name) const {
  for (const auto& tbl : tables)
    if (tbl.name == table_name) return &tbl;
  return nullptr;
}

const table* domain::find_table_by_prefix(std::string_view prefix) const {
  for (const auto& tbl : tables)
    if (tbl.ref_prefix == prefix) return &tbl;
  return nullptr;
}

std::string domain::table_list() const {
  std::string out;
  for (const auto& tbl : tables) {
    if (!out.empty()) out += ", ";
    out += tbl.name;
  }
  return out;
}

result<domain> parse_domain(std::string_view config_json) {
  auto doc = json_document::parse(config_json);
  if (!doc) return config_error("", doc.err().message);
  const json_value config = doc->root();
  if (!config.is_object()) return config_error("", "a domain must be a JSON object");
  domain dom;
  dom.name = text_field(config, "name");
  if (dom.name.empty()) dom.name = "domain";
  const std::string owner = text_field(config, "owner_column");
  if (!owner.empty()) dom.owner_column = owner;
  if (auto max_rows = config.find("max_rows")) {
    auto n = max_rows->as_integer();
    if (!n) return config_error("max_rows", "must be a whole number");
    if (*n < 1 || *n > 1000000) return config_error("max_rows", "must be positive");
    dom.max_rows = int(*n);
  }

  auto tables = config.find("tables");
  if (!tables || !tables->is_object() || tables->empty()) return config_error("tables", "must be a non-empty object");
  std::set<std::string> prefixes;
  std::optional<error> failure;
  tables->for_each_member([&](std::string_view name_view, json_value spec) {
    if (failure) return;
    const std::string name(name_view);
    auto tbl = parse_table(name, spec);
    if (!tbl) {
      failure = tbl.take_error();
    } else if (!prefixes.insert(tbl->ref_prefix).second) {
      failure = config_error("tables." + name + ".ref",
                             fmt::format("ref prefix '{}' is used by two tables", tbl->ref_prefix));
    } else if (dom.find_table(name)) {
      failure = config_error("tables." + name, "table appears twice");
    } else {
      dom.tables.push_back(std::move(*tbl));
    }
  });
  if (failure) return std::move(*failure);

  // Cross-table checks: every UUID the database can return must become a ref
  // (or be the owner column, which is stripped), or it would reach the model.
  for (const auto& tbl : dom.tables) {
    const std::string path = "tables." + tbl.name;
    if (tbl.user_owned) {
      const column* owner = tbl.find_column(dom.owner_column);
      if (!owner || owner->type != column_type::uuid || owner->writable)
        return config_error(path + ".columns." + dom.owner_column,
                            "a user-owned table needs a non-writable uuid owner column");
    }
    for (const auto& col : tbl.columns) {
      const std::string col_path = path + ".columns." + col.name;
      const bool is_uuid = col.type == column_type::uuid || col.type == column_type::uuid_array;
      if (!col.references.empty()) {
        if (!is_uuid) return config_error(col_path, "only uuid columns can reference a table");
        if (!dom.find_table(col.references))
          return config_error(col_path, fmt::format("references unknown table '{}'", col.references));
      } else if (is_uuid && col.name != "id" && col.name != dom.owner_column) {
        return config_error(col_path, "a uuid column must reference a table");
      }
    }
    for (const auto& rel : tbl.relations)
      if (!dom.find_table(rel.table))
        return config_error(path + ".relations." + rel.name, fmt::format("unknown table '{}'", rel.table));
    for (const auto& label_col : tbl.label_columns)
      if (!tbl.find_column(label_col))
        return config_error(path + ".label", fmt::format("unknown column '{}'", label_col));
  }
  return dom;
}

}  // namespace alfred
