// The columns stage of reading a read (call_stage.h): `columns` as a list or
// PostgREST's select text, each a visible column, `*`, or an embedded
// relation with its own columns.
#include <algorithm>

#include "../json/echo.h"
#include "../json/format.h"
#include "call_stage.h"

namespace alfred::detail {
namespace {

std::string trim(std::string_view text) {
  auto begin = text.find_first_not_of(" \t\n");
  if (begin == std::string_view::npos) return {};
  auto end = text.find_last_not_of(" \t\n");
  return std::string(text.substr(begin, end - begin + 1));
}

}  // namespace

status select_reader::read(const std::optional<json_value>& value) {
  if (!value || value->is_null()) return ok_status();
  std::vector<std::string> items;
  if (value->is_string()) {
    auto parts = split_select(value->str());
    if (!parts) return parts.take_error();
    items = std::move(*parts);
  } else if (value->is_array()) {
    std::optional<error> failure;
    value->for_each_element([&](std::size_t i, json_value item) {
      if (!item.is_string() && !failure)
        failure = error{codes::invalid_param, textfmt::format("columns[{}]", i), "columns must be strings", ""};
      items.emplace_back(item.str());
    });
    if (failure) return std::move(*failure);
  } else {
    return error{codes::invalid_param, "columns", "columns must be an array of column names",
                 "[\"<column>\", \"<column>\"]"};
  }
  const param_path columns_path("columns");
  for (std::size_t i = 0; i < items.size(); ++i) {
    auto item = parse_select_item(items[i], columns_path.element(i));
    if (!item) return item.take_error();
    if (!item->empty() && std::find(call_.columns.begin(), call_.columns.end(), *item) == call_.columns.end())
      call_.columns.push_back(std::move(*item));
  }
  return ok_status();
}

// `["name", "relation(name)"]` for this call's table: what columns may look like.
std::string select_reader::columns_example() const {
  const table& tbl = *call_.tbl;
  auto first_visible = [&](const table& of) -> std::string {
    if (!of.label_columns.empty()) return of.label_columns.front();
    for (const auto& col : of.columns)
      if (!of.is_key(col.name) && of.shows_column(col.name)) return col.name;
    return of.columns.front().name;
  };
  if (tbl.relations.empty()) return textfmt::format("[\"{}\"]", first_visible(tbl));
  const table* target = dom_.find_table(tbl.relations.front().table);
  return textfmt::format("[\"{}\", \"{}({})\"]", first_visible(tbl), tbl.relations.front().name,
                         target ? first_visible(*target) : std::string("*"));
}

// Splits "a, b, rel(c, d)" at top-level commas.
result<std::vector<std::string>> select_reader::split_select(std::string_view text) const {
  std::vector<std::string> out;
  int depth = 0;
  std::string current;
  for (char c : text) {
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (depth < 0) break;
    if (c == ',' && depth == 0) {
      out.push_back(current);
      current.clear();
    } else {
      current += c;
    }
  }
  if (depth != 0) return error{codes::invalid_param, "columns", "unbalanced parentheses in columns", columns_example()};
  out.push_back(current);
  return out;
}

// "name", "*", or "relation(col, col)" → validated select text ("" to skip).
result<std::string> select_reader::parse_select_item(const std::string& raw, const param_path& path) {
  const std::string item = trim(raw);
  if (item.empty()) return std::string();
  if (item == "*") return item;
  const auto open = item.find('(');
  if (open == std::string::npos) {
    auto col = visible_column(item, path, *call_.tbl);
    if (!col) return col.take_error();
    return item;
  }
  if (item.back() != ')')
    return error{codes::invalid_param, path.str(),
                 textfmt::format("'{}' is not a column or relation(columns)", detail::echoed(item)), ""};
  const std::string rel_name = trim(item.substr(0, open));
  const table* target = embedded_table(rel_name);
  if (!target)
    return error{codes::unknown_relation, path.str(),
                 textfmt::format("{} cannot embed '{}'", call_.tbl->name, detail::echoed(rel_name)), embeddable_hint()};
  auto inner = split_select(std::string_view(item).substr(open + 1, item.size() - open - 2));
  if (!inner) return error{codes::invalid_param, path.str(), inner.err().message, inner.err().hint};
  std::vector<std::string> cols;
  bool star = false;
  for (const auto& raw_inner : *inner) {
    const std::string name = trim(raw_inner);
    if (name.empty()) continue;
    if (name == "*") {
      star = true;
      continue;
    }
    auto col = visible_column(name, path, *target);
    if (!col) return col.take_error();
    if (std::find(cols.begin(), cols.end(), name) == cols.end()) cols.push_back(name);
  }
  // Nested rows need their key to get refs (a composite key's columns carry
  // the refs of the rows they join).
  if (!star)
    for (auto key = target->key.rbegin(); key != target->key.rend(); ++key)
      if (std::find(cols.begin(), cols.end(), *key) == cols.end()) cols.insert(cols.begin(), *key);
  // A table with hidden columns is read by its visible ones, as at the top
  // level: column privileges may refuse `*`.
  if (star) {
    std::string all;
    target->append_read_columns(all);
    cols.insert(cols.begin(), std::move(all));
  }
  return textfmt::format("{}({})", rel_name, textfmt::join(cols, ","));
}

// A declared one-to-many relation, or the target table of a foreign key.
const table* select_reader::embedded_table(std::string_view name) const {
  if (const relation* rel = call_.tbl->find_relation(name)) return dom_.find_table(rel->table);
  // A write-only table's rows are never read, embedded or not.
  for (const auto& col : call_.tbl->columns)
    if (is_embeddable_fk(col) && col.references == name)
      if (const table* target = dom_.find_table(col.references); target && target->readable) return target;
  return nullptr;
}

// A self reference (recipes.parent_recipe_id) is not embeddable by table
// name: PostgREST cannot tell which direction is meant (PGRST201).
bool select_reader::is_embeddable_fk(const column& col) const {
  return col.type != column_type::uuid_array && !col.references.empty() && col.references != call_.tbl->name;
}

std::string select_reader::embeddable_hint() const {
  std::vector<std::string> names;
  for (const auto& rel : call_.tbl->relations) names.push_back(rel.name);
  for (const auto& col : call_.tbl->columns)
    if (is_embeddable_fk(col) && std::find(names.begin(), names.end(), col.references) == names.end())
      names.push_back(col.references);
  if (names.empty()) return textfmt::format("{} has no related tables to embed", call_.tbl->name);
  return textfmt::format("embeddable: {}", textfmt::join(names, ", "));
}

}  // namespace alfred::detail
