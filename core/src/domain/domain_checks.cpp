// The checks across a domain's tables, once all are read: foreign keys and
// their targets' keys, owner columns, embeddable relations, middleware and
// labels. Every UUID the database can return must become a ref (or `me`, or
// be left out), or it would reach the model.
#include <algorithm>

#include "../json/format.h"
#include "domain_config.h"

namespace alfred::detail {
namespace {

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
    return config_error(path, textfmt::format("'{}' must be relation(id,column,…)", item));
  const table* target = embed_target(dom, tbl, item.substr(0, open));
  if (!target || !target->readable)
    return config_error(path, textfmt::format("{} cannot embed '{}'", tbl.name, item.substr(0, open)));
  bool has_id = false;
  std::string_view columns = std::string_view(item).substr(open + 1, item.size() - open - 2);
  while (!columns.empty()) {
    const auto comma = columns.find(',');
    const std::string_view name = columns.substr(0, comma);
    const column* col = target->find_column(name);
    if (!col || target->hides_owner(name) ||
        std::find(target->hidden_columns.begin(), target->hidden_columns.end(), name) != target->hidden_columns.end())
      return config_error(path, textfmt::format("{} has no visible column '{}'", target->name, name));
    has_id = has_id || target->is_key(name);
    columns = comma == std::string_view::npos ? std::string_view() : columns.substr(comma + 1);
  }
  if (!has_id && target->key_column())
    return config_error(path,
                        textfmt::format("must list {}, so that embedded rows get refs", target->key_column()->name));
  return ok_status();
}

status check_middleware(const domain& dom, const table& tbl, const std::string& path) {
  const table_middleware& mw = tbl.middleware;
  for (const auto& name : mw.fuzzy_columns) {
    const column* col = tbl.find_column(name);
    if (!col || col->type != column_type::text)
      return config_error(path + ".fuzzy", textfmt::format("'{}' is not a text column", name));
  }
  for (std::size_t i = 0; i < mw.include.size(); ++i) {
    auto ok = check_include(dom, tbl, mw.include[i], textfmt::format("{}.include[{}]", path, i));
    if (!ok) return ok;
  }
  if (mw.semantic && !tbl.key_column()) return config_error(path + ".semantic", "needs a one-column key");
  if (mw.semantic)
    for (const auto& name : mw.semantic->text_columns) {
      const column* col = tbl.find_column(name);
      if (!col || (col->type != column_type::text && col->type != column_type::text_array))
        return config_error(path + ".semantic.text", textfmt::format("'{}' is not a text or text[] column", name));
    }
  if (const auto& link = mw.catalog) {
    const table* catalog = dom.find_table(link->catalog);
    if (!catalog || !catalog->readable)
      return config_error(path + ".catalog.table", textfmt::format("not a table to read: '{}'", link->catalog));
    const column* fk = tbl.find_column(link->link_column);
    if (!fk || fk->references != catalog->name)
      return config_error(path + ".catalog.link", textfmt::format("must be a column referencing {}", catalog->name));
    for (const table* side : {&tbl, catalog}) {
      const column* name = side->find_column(link->name_column);
      if (!name || name->type != column_type::text)
        return config_error(path + ".catalog.name",
                            textfmt::format("{} has no text column '{}'", side->name, link->name_column));
    }
    if (!link->alias_column.empty()) {
      const column* aliases = catalog->find_column(link->alias_column);
      if (!aliases || aliases->type != column_type::text_array)
        return config_error(path + ".catalog.aliases",
                            textfmt::format("{} has no text[] column '{}'", catalog->name, link->alias_column));
    }
    for (const auto& name : link->copy_columns)
      if (!tbl.find_column(name) || !catalog->find_column(name))
        return config_error(path + ".catalog.copy", textfmt::format("'{}' must be a column of both tables", name));
  }
  return ok_status();
}

// The owner column holds the owner's user id: a uuid the model never sets.
// One that references no table is a user id (auth.users).
status check_owner(table& tbl, const std::string& path) {
  if (!tbl.has_owner()) return ok_status();
  const auto owner =
      std::find_if(tbl.columns.begin(), tbl.columns.end(), [&](const column& col) { return col.name == tbl.owner; });
  if (owner == tbl.columns.end() || owner->type != column_type::uuid || owner->writable)
    return config_error(
        path + ".owner",
        textfmt::format("the owner column '{}' must be a non-writable uuid column of {}", tbl.owner, tbl.name));
  if (owner->references.empty()) owner->user_id = true;
  return ok_status();
}

}  // namespace

status check_references(const domain& dom, const table& tbl, const std::string& columns_path, bool text_takes_uuid) {
  for (const auto& col : tbl.columns) {
    const std::string col_path = columns_path + "." + col.name;
    const bool is_uuid = col.type == column_type::uuid || col.type == column_type::uuid_array;
    if (!col.references.empty()) {
      const table* target = dom.find_table(col.references);
      if (!target) return config_error(col_path, textfmt::format("references unknown table '{}'", col.references));
      const column* key = target->key_column();
      if (!key)
        return config_error(col_path, textfmt::format("references {}, whose key is not one column", target->name));
      const column_type holds = col.type == column_type::uuid_array ? column_type::uuid : col.type;
      if (holds != column_type::uuid && holds != column_type::integer && holds != column_type::text)
        return config_error(col_path, "only uuid, uuid[], integer and text columns can reference a table");
      if (key->type != holds && !(text_takes_uuid && holds == column_type::text && key->type == column_type::uuid))
        return config_error(col_path, textfmt::format("is {} but the key of {} ({}) is {}", column_type_name(col.type),
                                                      target->name, key->name, column_type_name(key->type)));
    } else if (col.user_id) {
      if (col.type != column_type::uuid) return config_error(col_path, "a user id (auth.users) column must be uuid");
    } else if (is_uuid && tbl.key_column() != &col) {
      return config_error(col_path, "a uuid column must reference a table (or auth.users)");
    }
  }
  return ok_status();
}

status check_domain_tables(domain& dom) {
  for (auto& tbl : dom.tables) {
    const std::string path = "tables." + tbl.name;
    if (auto ok = check_owner(tbl, path); !ok) return ok;
    if (auto ok = check_references(dom, tbl, path + ".columns"); !ok) return ok;
    // A relation's rows are read: never a write-only table's.
    for (const auto& rel : tbl.relations)
      if (const table* target = dom.find_table(rel.table); !target || !target->readable)
        return config_error(path + ".relations." + rel.name, textfmt::format("not a table to read: '{}'", rel.table));
    if (!tbl.readable && !tbl.exposed)
      return config_error(path + ".readable", "a table the API does not expose cannot be written");
    if (auto ok = check_middleware(dom, tbl, path + ".middleware"); !ok) return ok;
    for (const auto& label_col : tbl.label_columns)
      if (!tbl.find_column(label_col))
        return config_error(path + ".label", textfmt::format("unknown column '{}'", label_col));
  }
  return ok_status();
}

}  // namespace alfred::detail
