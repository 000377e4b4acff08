#include "alfred/domain.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <initializer_list>
#include <optional>
#include <set>

#include "../json/json_fields.h"
#include "alfred/prompt_examples.h"

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

error config_error(std::string path, std::string message) {
  return {codes::invalid_domain, std::move(path), std::move(message), "docs/own-schema.md describes a domain's shape"};
}

// A misspelt setting ("requried") would otherwise be silently ignored.
status known_keys(json_value spec, std::initializer_list<std::string_view> keys, const std::string& path) {
  const auto key = detail::unknown_key(spec, std::span<const std::string_view>(keys.begin(), keys.size()));
  if (!key) return ok_status();
  return error{codes::invalid_domain, path.empty() ? std::string(*key) : fmt::format("{}.{}", path, *key),
               fmt::format("'{}' is not a domain setting", *key),
               fmt::format("allowed here: {}", fmt::join(keys, ", "))};
}

result<std::vector<std::string>> string_list(std::optional<json_value> value, const std::string& path) {
  std::vector<std::string> out;
  if (detail::read_text_list(value, out) == detail::field_state::wrong_type)
    return config_error(path, "must be an array of strings");
  return out;
}

// A flag, or `fallback` when it is absent or not true/false.
bool flag(json_value spec, std::string_view key, bool fallback) {
  bool value = fallback;
  detail::read_flag(spec.find(key), value);
  return value;
}

// A text setting, or "" when it is absent or not text.
std::string text_field(json_value spec, std::string_view key) {
  std::string_view text;
  detail::read_text(spec.find(key), text);
  return std::string(text);
}

result<column> parse_column(const std::string& name, json_value spec, const std::string& path) {
  if (!is_identifier(name))
    return config_error(path, fmt::format("column name '{}' is not a lower-case identifier", name));
  if (is_postgrest_reserved(name))
    return config_error(path, fmt::format("column name '{}' is reserved by PostgREST", name));
  if (!spec.is_object()) return config_error(path, "must be an object");
  if (auto ok = known_keys(spec, {"type", "required", "writable", "nullable", "references", "values"}, path); !ok)
    return ok.take_error();
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
  if (col.references == kUsersReference) {
    col.user_id = true;
    col.references.clear();
  }
  auto allowed = string_list(spec.find("values"), path + ".values");
  if (!allowed) return allowed.take_error();
  col.allowed_values = std::move(*allowed);
  return col;
}

result<semantic_search> parse_semantic(json_value spec, const std::string& path) {
  if (!spec.is_object()) return config_error(path, "must be an object");
  if (auto ok = known_keys(spec, {"rpc", "embedding_arg", "count_arg", "distance_arg", "limit", "max_distance", "text"},
                           path);
      !ok)
    return ok.take_error();
  semantic_search out;
  out.rpc = text_field(spec, "rpc");
  if (!is_identifier(out.rpc)) return config_error(path + ".rpc", "must name a database function");
  for (auto [key, target] : {std::pair{"embedding_arg", &out.embedding_arg}, std::pair{"count_arg", &out.count_arg},
                             std::pair{"distance_arg", &out.distance_arg}}) {
    if (auto value = spec.find(key)) {
      if (!value->is_string() || !is_identifier(value->str()))
        return config_error(path + "." + key, "must be an argument name");
      *target = std::string(value->str());
    }
  }
  if (auto limit = spec.find("limit")) {
    auto n = limit->as_integer();
    if (!n || *n < 1 || *n > 1000) return config_error(path + ".limit", "must be a whole number from 1 to 1000");
    out.limit = int(*n);
  }
  if (auto distance = spec.find("max_distance")) {
    if (!distance->is_number()) return config_error(path + ".max_distance", "must be a number");
    out.max_distance = std::string(distance->raw());
  }
  auto text = string_list(spec.find("text"), path + ".text");
  if (!text) return text.take_error();
  out.text_columns = std::move(*text);
  return out;
}

result<catalog_link> parse_catalog(json_value spec, const std::string& path) {
  if (!spec.is_object()) return config_error(path, "must be an object");
  if (auto ok = known_keys(spec, {"table", "name", "aliases", "link", "copy", "dedupe"}, path); !ok)
    return ok.take_error();
  catalog_link out;
  out.catalog = text_field(spec, "table");
  out.link_column = text_field(spec, "link");
  out.alias_column = text_field(spec, "aliases");
  if (auto name = text_field(spec, "name"); !name.empty()) out.name_column = name;
  if (out.catalog.empty() || out.link_column.empty())
    return config_error(path, "needs \"table\" (the catalog) and \"link\" (the foreign key to it)");
  auto copy = string_list(spec.find("copy"), path + ".copy");
  if (!copy) return copy.take_error();
  out.copy_columns = std::move(*copy);
  out.dedupe_batches = flag(spec, "dedupe", false);
  return out;
}

result<table_middleware> parse_middleware(json_value spec, const std::string& path) {
  if (!spec.is_object()) return config_error(path, "must be an object");
  if (auto ok = known_keys(spec, {"fuzzy", "include", "semantic", "catalog"}, path); !ok) return ok.take_error();
  table_middleware out;
  auto fuzzy = string_list(spec.find("fuzzy"), path + ".fuzzy");
  if (!fuzzy) return fuzzy.take_error();
  out.fuzzy_columns = std::move(*fuzzy);
  auto include = string_list(spec.find("include"), path + ".include");
  if (!include) return include.take_error();
  out.include = std::move(*include);
  if (auto semantic = spec.find("semantic"); semantic && !semantic->is_null()) {
    auto parsed = parse_semantic(*semantic, path + ".semantic");
    if (!parsed) return parsed.take_error();
    out.semantic = std::move(*parsed);
  }
  if (auto catalog = spec.find("catalog"); catalog && !catalog->is_null()) {
    auto parsed = parse_catalog(*catalog, path + ".catalog");
    if (!parsed) return parsed.take_error();
    out.catalog = std::move(*parsed);
  }
  return out;
}

// `"key": "id"` or `"key": ["channel_id", "user_id"]`; without it, `id`
// when the table has such a column, else no key.
status parse_key(table& tbl, json_value spec, const std::string& path) {
  auto key = spec.find("key");
  if (!key) {
    if (tbl.find_column("id")) tbl.key = {"id"};
  } else if (key->is_string()) {
    tbl.key = {std::string(key->str())};
  } else {
    auto names = string_list(key, path + ".key");
    if (!names) return names.take_error();
    tbl.key = std::move(*names);
    if (key->is_null()) tbl.key.clear();
  }
  for (std::size_t i = 0; i < tbl.key.size(); ++i) {
    const column* col = tbl.find_column(tbl.key[i]);
    if (!col) return config_error(path + ".key", fmt::format("'{}' is not a column of {}", tbl.key[i], tbl.name));
    if (std::find(tbl.key.begin(), tbl.key.begin() + long(i), tbl.key[i]) != tbl.key.begin() + long(i))
      return config_error(path + ".key", fmt::format("'{}' appears twice", tbl.key[i]));
    const bool keyable =
        col->type == column_type::uuid || col->type == column_type::integer || col->type == column_type::text;
    if (!keyable)
      return config_error(path + ".key", fmt::format("{} is {}; a key column is uuid, integer or text", col->name,
                                                     column_type_name(col->type)));
  }
  return ok_status();
}

// `"owner": "<column>"`, or `"user_owned": true` for the domain's owner
// column; `"scope": "owner"` filters reads and writes to the owner's rows.
status parse_owner(table& tbl, json_value spec, std::string_view domain_owner, const std::string& path) {
  tbl.owner = text_field(spec, "owner");
  if (auto owner = spec.find("owner"); owner && !owner->is_null() && (!owner->is_string() || tbl.owner.empty()))
    return config_error(path + ".owner", "must name the column holding the owner's user id");
  if (tbl.owner.empty() && flag(spec, "user_owned", false)) tbl.owner = std::string(domain_owner);
  const std::string scope = text_field(spec, "scope");
  if (auto given = spec.find("scope"); given && scope != "owner" && scope != "rls")
    return config_error(path + ".scope",
                        "must be \"rls\" (row-level security decides what the user reads) or \"owner\" (also "
                        "filtered to the user's own rows)");
  tbl.owner_scoped = scope == "owner";
  if (tbl.owner_scoped && tbl.owner.empty())
    return config_error(path + ".scope", "\"owner\" needs an owner column (\"owner\": \"<column>\")");
  return ok_status();
}

result<table> parse_table(const std::string& name, json_value spec, std::string_view domain_owner) {
  const std::string path = "tables." + name;
  if (!is_identifier(name))
    return config_error(path, fmt::format("table name '{}' is not a lower-case identifier", name));
  if (!spec.is_object()) return config_error(path, "must be an object");
  if (auto ok = known_keys(spec,
                           {"ref", "key", "owner", "scope", "user_owned", "writable", "label", "label_format", "hidden",
                            "relations", "middleware", "columns"},
                           path);
      !ok)
    return ok.take_error();
  table tbl;
  tbl.name = name;
  tbl.ref_prefix = text_field(spec, "ref");
  if (!is_ref_prefix(tbl.ref_prefix))
    return config_error(path + ".ref",
                        "must be a lower-case identifier that does not start with 'gen' and is not 'me'");
  tbl.writable = flag(spec, "writable", true);

  auto columns = spec.find("columns");
  if (!columns || !columns->is_object() || columns->empty())
    return config_error(path + ".columns", "must be a non-empty object");
  std::optional<error> failure;
  columns->for_each_member([&](std::string_view col_name, json_value col_spec) {
    if (failure) return;
    const std::string name_text(col_name);
    // A repeated key: the translator would read one declaration and a
    // reader of the JSON (JSON.parse keeps the last) another.
    if (tbl.find_column(name_text)) {
      failure = config_error(path + ".columns." + name_text, "column appears twice");
      return;
    }
    auto col = parse_column(name_text, col_spec, path + ".columns." + name_text);
    if (!col)
      failure = col.take_error();
    else
      tbl.columns.push_back(std::move(*col));
  });
  if (failure) return std::move(*failure);
  if (auto ok = parse_key(tbl, spec, path); !ok) return ok.take_error();
  if (auto ok = parse_owner(tbl, spec, domain_owner, path); !ok) return ok.take_error();
  // A table without a key has no way to name one row: reads only.
  if (tbl.key.empty() && tbl.writable && spec.find("writable") && flag(spec, "writable", false))
    return config_error(path + ".writable", "a table without a key cannot be written; give its \"key\"");
  if (tbl.key.empty()) tbl.writable = false;

  auto label = string_list(spec.find("label"), path + ".label");
  if (!label) return label.take_error();
  tbl.label_columns = std::move(*label);
  tbl.label_format = text_field(spec, "label_format");
  auto hidden = string_list(spec.find("hidden"), path + ".hidden");
  if (!hidden) return hidden.take_error();
  tbl.hidden_columns = std::move(*hidden);

  if (auto middleware = spec.find("middleware")) {
    auto parsed = parse_middleware(*middleware, path + ".middleware");
    if (!parsed) return parsed.take_error();
    tbl.middleware = std::move(*parsed);
  }

  if (auto relations = spec.find("relations")) {
    if (!relations->is_object()) return config_error(path + ".relations", "must be an object");
    relations->for_each_member([&](std::string_view rel_name, json_value target) {
      if (failure) return;
      if (!target.is_string() || !is_identifier(rel_name))
        failure = config_error(path + ".relations." + std::string(rel_name), "must name a table");
      else if (tbl.find_relation(rel_name))
        failure = config_error(path + ".relations." + std::string(rel_name), "relation appears twice");
      else if (tbl.find_column(rel_name))
        // One key of a row cannot be both: the translator would read the
        // embedded rows as the column's value.
        failure = config_error(path + ".relations." + std::string(rel_name), "a column has the same name");
      else
        tbl.relations.push_back({std::string(rel_name), std::string(target.str())});
    });
    if (failure) return std::move(*failure);
  }
  return tbl;
}

const table* embed_target(const domain& dom, const table& tbl, std::string_view name) {
  if (const relation* rel = tbl.find_relation(name)) return dom.find_table(rel->table);
  for (const auto& col : tbl.columns)
    if (col.type != column_type::uuid_array && col.references == name && name != tbl.name) return dom.find_table(name);
  return nullptr;
}

// `relation(id,col,…)`: an embeddable table and its columns, its key
// included so that nested rows get refs.
status check_include(const domain& dom, const table& tbl, const std::string& item, const std::string& path) {
  const auto open = item.find('(');
  if (open == std::string::npos || item.back() != ')')
    return config_error(path, fmt::format("'{}' must be relation(id,column,…)", item));
  const table* target = embed_target(dom, tbl, item.substr(0, open));
  if (!target) return config_error(path, fmt::format("{} cannot embed '{}'", tbl.name, item.substr(0, open)));
  bool has_id = false;
  std::string_view columns = std::string_view(item).substr(open + 1, item.size() - open - 2);
  while (!columns.empty()) {
    const auto comma = columns.find(',');
    const std::string_view name = columns.substr(0, comma);
    const column* col = target->find_column(name);
    if (!col || target->hides_owner(name) ||
        std::find(target->hidden_columns.begin(), target->hidden_columns.end(), name) != target->hidden_columns.end())
      return config_error(path, fmt::format("{} has no visible column '{}'", target->name, name));
    has_id = has_id || target->is_key(name);
    columns = comma == std::string_view::npos ? std::string_view() : columns.substr(comma + 1);
  }
  if (!has_id && target->key_column())
    return config_error(path, fmt::format("must list {}, so that embedded rows get refs", target->key_column()->name));
  return ok_status();
}

status check_middleware(const domain& dom, const table& tbl, const std::string& path) {
  const table_middleware& mw = tbl.middleware;
  for (const auto& name : mw.fuzzy_columns) {
    const column* col = tbl.find_column(name);
    if (!col || col->type != column_type::text)
      return config_error(path + ".fuzzy", fmt::format("'{}' is not a text column", name));
  }
  for (std::size_t i = 0; i < mw.include.size(); ++i) {
    auto ok = check_include(dom, tbl, mw.include[i], fmt::format("{}.include[{}]", path, i));
    if (!ok) return ok;
  }
  if (mw.semantic && !tbl.key_column()) return config_error(path + ".semantic", "needs a one-column key");
  if (mw.semantic)
    for (const auto& name : mw.semantic->text_columns) {
      const column* col = tbl.find_column(name);
      if (!col || (col->type != column_type::text && col->type != column_type::text_array))
        return config_error(path + ".semantic.text", fmt::format("'{}' is not a text or text[] column", name));
    }
  if (const auto& link = mw.catalog) {
    const table* catalog = dom.find_table(link->catalog);
    if (!catalog) return config_error(path + ".catalog.table", fmt::format("unknown table '{}'", link->catalog));
    const column* fk = tbl.find_column(link->link_column);
    if (!fk || fk->references != catalog->name)
      return config_error(path + ".catalog.link", fmt::format("must be a column referencing {}", catalog->name));
    for (const table* side : {&tbl, catalog}) {
      const column* name = side->find_column(link->name_column);
      if (!name || name->type != column_type::text)
        return config_error(path + ".catalog.name",
                            fmt::format("{} has no text column '{}'", side->name, link->name_column));
    }
    if (!link->alias_column.empty()) {
      const column* aliases = catalog->find_column(link->alias_column);
      if (!aliases || aliases->type != column_type::text_array)
        return config_error(path + ".catalog.aliases",
                            fmt::format("{} has no text[] column '{}'", catalog->name, link->alias_column));
    }
    for (const auto& name : link->copy_columns)
      if (!tbl.find_column(name) || !catalog->find_column(name))
        return config_error(path + ".catalog.copy", fmt::format("'{}' must be a column of both tables", name));
  }
  return ok_status();
}

}  // namespace

std::string_view column_type_name(column_type type) {
  for (const auto& entry : kTypes)
    if (entry.type == type) return entry.name;
  return "unknown";
}

namespace {
constexpr std::array<std::string_view, 9> kReserved{"select", "columns", "on_conflict", "order", "limit",
                                                    "offset", "or",      "and",         "not"};
}  // namespace

bool is_postgrest_reserved(std::string_view name) {
  return std::find(kReserved.begin(), kReserved.end(), name) != kReserved.end();
}

std::span<const std::string_view> postgrest_reserved_names() { return kReserved; }

bool is_identifier(std::string_view name) {
  const identifier_rule& rule = kIdentifierRule;
  if (name.empty() || name.size() > rule.max_length) return false;
  if (rule.first.find(name[0]) == std::string_view::npos) return false;
  return name.find_first_not_of(rule.rest) == std::string_view::npos;
}

const column* table::find_column(std::string_view col_name) const {
  for (const auto& col : columns)
    if (col.name == col_name) return &col;
  return nullptr;
}

const column* table::key_column() const { return key.size() == 1 ? find_column(key.front()) : nullptr; }

bool table::is_key(std::string_view col_name) const { return std::find(key.begin(), key.end(), col_name) != key.end(); }

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
  if (auto ok = known_keys(config, {"name", "owner_column", "max_rows", "tables", "prompt_examples"}, ""); !ok)
    return ok.take_error();
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

  if (auto examples = config.find("prompt_examples"); examples && !examples->is_null()) {
    if (!examples->is_object()) return config_error("prompt_examples", "must be an object of slot name → text");
    std::optional<error> failure;
    examples->for_each_member([&](std::string_view slot, json_value text) {
      if (failure) return;
      const std::string path = fmt::format("prompt_examples.{}", slot);
      if (!is_prompt_example_slot(slot)) {
        std::vector<std::string_view> names;
        for (const auto& known : prompt_example_slots()) names.push_back(known.name);
        failure = error{codes::invalid_domain, path, fmt::format("'{}' is not a prompt example slot", slot),
                        fmt::format("slots: {}", fmt::join(names, ", "))};
      } else if (!text.is_string()) {
        failure = config_error(path, "must be text");
      } else {
        dom.prompt_examples.emplace_back(std::string(slot), std::string(text.str()));
      }
    });
    if (failure) return std::move(*failure);
  }

  auto tables = config.find("tables");
  if (!tables || !tables->is_object() || tables->empty()) return config_error("tables", "must be a non-empty object");
  std::set<std::string> prefixes;
  std::optional<error> failure;
  tables->for_each_member([&](std::string_view name_view, json_value spec) {
    if (failure) return;
    const std::string name(name_view);
    auto tbl = parse_table(name, spec, dom.owner_column);
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
  // (or `me`, or be left out), or it would reach the model.
  for (auto& tbl : dom.tables) {
    const std::string path = "tables." + tbl.name;
    if (tbl.has_owner()) {
      const auto owner = std::find_if(tbl.columns.begin(), tbl.columns.end(),
                                      [&](const column& col) { return col.name == tbl.owner; });
      if (owner == tbl.columns.end() || owner->type != column_type::uuid || owner->writable)
        return config_error(
            path + ".owner",
            fmt::format("the owner column '{}' must be a non-writable uuid column of {}", tbl.owner, tbl.name));
      if (owner->references.empty()) owner->user_id = true;
    }
    for (const auto& col : tbl.columns) {
      const std::string col_path = path + ".columns." + col.name;
      const bool is_uuid = col.type == column_type::uuid || col.type == column_type::uuid_array;
      if (!col.references.empty()) {
        const table* target = dom.find_table(col.references);
        if (!target) return config_error(col_path, fmt::format("references unknown table '{}'", col.references));
        const column* key = target->key_column();
        if (!key)
          return config_error(col_path, fmt::format("references {}, whose key is not one column", target->name));
        const column_type holds = col.type == column_type::uuid_array ? column_type::uuid : col.type;
        if (holds != column_type::uuid && holds != column_type::integer && holds != column_type::text)
          return config_error(col_path, "only uuid, uuid[], integer and text columns can reference a table");
        if (key->type != holds)
          return config_error(col_path, fmt::format("is {} but the key of {} ({}) is {}", column_type_name(col.type),
                                                    target->name, key->name, column_type_name(key->type)));
      } else if (col.user_id) {
        if (col.type != column_type::uuid) return config_error(col_path, "a user id (auth.users) column must be uuid");
      } else if (is_uuid && tbl.key_column() != &col) {
        return config_error(col_path, "a uuid column must reference a table (or auth.users)");
      }
    }
    for (const auto& rel : tbl.relations)
      if (!dom.find_table(rel.table))
        return config_error(path + ".relations." + rel.name, fmt::format("unknown table '{}'", rel.table));
    if (auto ok = check_middleware(dom, tbl, path + ".middleware"); !ok) return ok.take_error();
    for (const auto& label_col : tbl.label_columns)
      if (!tbl.find_column(label_col))
        return config_error(path + ".label", fmt::format("unknown column '{}'", label_col));
  }
  dom.resolved_prompt_examples = prompt_examples(dom);
  return dom;
}

}  // namespace alfred
