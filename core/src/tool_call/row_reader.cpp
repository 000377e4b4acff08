// The rows stage of reading a create or an update (call_stage.h): each row's
// keys writable columns of the table, its values checked and refs resolved,
// and the gen_ artifact a created row saves.
#include <algorithm>

#include "../json/echo.h"
#include "../json/format.h"
#include "call_stage.h"

namespace alfred::detail {

// One create/update object: checks keys and values, returns the sanitized
// row and (for creates) the pending gen_ ref it saves.
result<row> row_reader::parse_row(json_value data, const param_path& path, std::string* saves) {
  if (!data.is_object())
    return error{codes::invalid_data, path.str(), textfmt::format("a row must be an object, got {}", data.kind_name()),
                 "{\"name\": \"milk\", \"quantity\": 1, \"unit\": \"l\"}"};
  const table& tbl = *call_.tbl;
  row out;
  std::optional<error> failure;
  data.for_each_member([&](std::string_view key, json_value value) {
    if (failure) return;
    const param_path key_path = path.member(key);
    for (const auto& field : out)
      if (field.column == key) {
        failure =
            error{codes::invalid_data, key_path.str(), textfmt::format("{} is given twice", detail::echoed(key)), ""};
        return;
      }
    // The key of a created row names the artifact it saves (`id:
    // gen_recipe_1`); a key the model may write (a text slug) is a value
    // unless it is a gen_ ref.
    const column* key_col = tbl.key_column();
    const bool gen_marker = value.is_string() && parse_ref_name(value.str()) && parse_ref_name(value.str())->generated;
    if (key_col && key == key_col->name && kind_ == tool_kind::create && saves && (!key_col->writable || gen_marker)) {
      auto saved = parse_save_marker(value, key_path);
      if (!saved)
        failure = saved.take_error();
      else
        *saves = std::move(*saved);
      return;
    }
    auto col = writable_column(key, key_path);
    if (!col) {
      failure = col.take_error();
      return;
    }
    auto checked = detail::check_payload_value(scope(), **col, value, key_path);
    if (!checked)
      failure = checked.take_error();
    else
      out.push_back({(*col)->name, std::move(*checked)});
  });
  if (failure) return std::move(*failure);
  if (kind_ == tool_kind::create)
    if (auto ok = add_fixed_values(out, path); !ok) return ok.take_error();
  if (kind_ == tool_kind::create) {
    // Every missing column at once: a model told one at a time makes as many calls.
    std::string missing;
    bool several = false;
    for (const auto& col : tbl.columns) {
      if (!col.required || !col.settable(write_create)) continue;
      if (std::any_of(out.begin(), out.end(), [&](const row_field& f) { return f.column == col.name; })) continue;
      if (!missing.empty()) missing += ", ", several = true;
      missing += col.name;
    }
    if (!missing.empty())
      return error{codes::missing_column, path.str(),
                   textfmt::format("{} {} required to create a row in {}", missing, several ? "are" : "is", tbl.name),
                   textfmt::format("add {} to the row", missing)};
  }
  return out;
}

// The values the app fixes, on a created row: each column of the table the
// app names, checked against its type; a column the domain hides without
// declaring it (a uuid no foreign key names) takes the app's value as given.
status row_reader::add_fixed_values(row& out, const param_path& path) const {
  const table& tbl = *call_.tbl;
  for (const auto& col : tbl.columns)
    if (const fixed_value* fixed = fixed_for(col.name)) {
      auto checked = check_fixed_value(col, fixed->json, path.member(col.name));
      if (!checked) return checked.take_error();
      out.push_back({col.name, std::move(*checked)});
    }
  for (const auto& name : tbl.hidden_columns)
    if (const fixed_value* fixed = tbl.find_column(name) ? nullptr : fixed_for(name))
      out.push_back({name, fixed->json});
  return ok_status();
}

const fixed_value* row_reader::fixed_for(std::string_view column) const {
  const table& tbl = *call_.tbl;
  const bool hidden =
      std::find(tbl.hidden_columns.begin(), tbl.hidden_columns.end(), column) != tbl.hidden_columns.end();
  if ((!tbl.find_column(column) && !hidden) || tbl.is_key(column) || column == tbl.owner) return nullptr;
  for (const auto& fixed : fixed_)
    if (fixed.name == column) return &fixed;
  return nullptr;
}

// What the model may set instead, for a refusal's hint: "columns db_update
// may set on documents: data, public_access_level", or that none may be.
std::string row_reader::settable_hint() const {
  const table& tbl = *call_.tbl;
  const write_op op = kind_ == tool_kind::create ? write_create : write_update;
  std::vector<std::string_view> names;
  for (const auto& col : tbl.columns)
    if (col.writable && col.settable(op) && !tbl.hides_column(col.name) && col.name != tbl.owner &&
        !(tbl.is_key(col.name) && op == write_update) && !fixed_for(col.name))
      names.push_back(col.name);
  const std::string_view tool = op == write_create ? "db_create" : "db_update";
  if (names.empty()) return textfmt::format("{} may set no column of {}", tool, tbl.name);
  return textfmt::format("columns {} may set on {}: {}", tool, tbl.name, textfmt::join(names, ", "));
}

result<const column*> row_reader::writable_column(std::string_view key, const param_path& key_path) {
  const table& tbl = *call_.tbl;
  if (tbl.has_owner() && key == tbl.owner)
    return error{codes::system_column, key_path.str(),
                 textfmt::format("{} holds the row's owner, the signed-in user, and is never given; leave it out", key),
                 settable_hint()};
  if (fixed_for(key))
    return error{codes::system_column, key_path.str(),
                 textfmt::format("{} is set by the app for every call; leave it out", key), settable_hint()};
  const column* col = tbl.find_column(key);
  if (col && tbl.is_key(key) && (kind_ == tool_kind::update || !col->writable))
    return error{
        codes::system_column, key_path.str(),
        kind_ == tool_kind::update
            ? textfmt::format("{} is the key of {} and cannot be changed; choose the rows with filters", key, tbl.name)
            : textfmt::format("{} is assigned by the database; leave it out", key),
        settable_hint()};
  if (col && col->type == column_type::tsvector) return visible_column(key, key_path, tbl).take_error();
  if (!col || tbl.hides_column(key)) {
    if (is_postgrest_reserved(key))
      return error{codes::reserved_column, key_path.str(),
                   textfmt::format("'{}' is a PostgREST keyword, not a column", detail::echoed(key)),
                   textfmt::format("columns of {}: {}", tbl.name, visible_columns(dom_, tbl))};
    return error{codes::unknown_column, key_path.str(),
                 textfmt::format("{} has no column '{}'", tbl.name, detail::echoed(key)),
                 textfmt::format("columns of {}: {}", tbl.name, visible_columns(dom_, tbl))};
  }
  if (!col->writable)
    return error{codes::read_only_column, key_path.str(), textfmt::format("{} is maintained by the database", key),
                 settable_hint()};
  // Column privileges may let users give a column on a new row and never
  // change it, or the other way round (docs/own-schema.md#column-privileges).
  if (kind_ == tool_kind::update && !col->settable(write_update))
    return error{codes::read_only_column, key_path.str(),
                 textfmt::format("{} is set when a row is created and cannot be changed", key), settable_hint()};
  if (kind_ == tool_kind::create && !col->settable(write_create))
    return error{codes::read_only_column, key_path.str(),
                 textfmt::format("{} cannot be given on a new row; db_update may set it once the row exists", key),
                 settable_hint()};
  return col;
}

// `id: "gen_recipe_1"` in a create row says which generated artifact it saves.
result<std::string> row_reader::parse_save_marker(json_value value, const param_path& path) {
  const std::string explain = "id is assigned by the database; only a gen_ ref may be given, to save that artifact";
  const std::string_view leave_out = "leave id out to create a new row";
  if (!value.is_string()) return error{codes::system_column, path.str(), explain, std::string(leave_out)};
  const std::string text(value.str());
  auto name = parse_ref_name(text);
  const ref_entry* entry = registry_.find(text);
  if (!name || !name->generated) return error{codes::system_column, path.str(), explain, std::string(leave_out)};
  if (!entry) {
    std::string pending;
    for (const ref_entry* candidate : registry_.refs_of_type(call_.tbl->ref_prefix))
      if (candidate->pending()) pending += (pending.empty() ? "" : ", ") + candidate->ref;
    return error{
        codes::unknown_ref, path.str(), textfmt::format("{} is not a pending generated artifact", detail::echoed(text)),
        pending.empty() ? textfmt::format("no generated {} is waiting to be saved; leave id out to create a new row",
                                          call_.tbl->name)
                        : textfmt::format("pending: {}", pending)};
  }
  if (entry->type != call_.tbl->ref_prefix)
    return error{
        codes::ref_type_mismatch, path.str(),
        textfmt::format("{} is generated {} content, not a row for {}", entry->ref, entry->table, call_.tbl->name),
        textfmt::format("save it with db_create on {}", entry->table)};
  if (!entry->pending())
    return error{codes::already_saved, path.str(),
                 textfmt::format("{} was already saved as {}", entry->ref, entry->saved_as),
                 textfmt::format("to change it, db_update {} with id = {}", call_.tbl->name, entry->saved_as)};
  return entry->ref;
}

status row_reader::read_create(const std::optional<json_value>& data) {
  if (!data || data->is_null())
    return error{codes::missing_param, "data", "data is required", "an object, or an array of objects for a batch"};
  call_.batch = data->is_array();
  if (call_.batch && data->empty())
    return error{codes::invalid_data, "data", "data is an empty array; nothing to create", "give one object per row"};
  if (call_.batch && data->size() > static_cast<std::size_t>(dom_.max_rows))
    return error{codes::invalid_data, "data", textfmt::format("at most {} rows per create", dom_.max_rows),
                 "split the batch"};
  std::optional<error> failure;
  auto add_row = [&](json_value item, const param_path& path) {
    if (failure) return;
    std::string saves;
    auto parsed = parse_row(item, path, &saves);
    if (!parsed) {
      failure = parsed.take_error();
      return;
    }
    if (!saves.empty() && std::find(call_.saves.begin(), call_.saves.end(), saves) != call_.saves.end()) {
      failure = error{codes::already_saved, path.member("id").str(),
                      textfmt::format("{} is saved twice in this batch", saves), ""};
      return;
    }
    call_.rows.push_back(std::move(*parsed));
    call_.saves.push_back(std::move(saves));
  };
  if (call_.batch)
    data->for_each_element([&](std::size_t i, json_value item) { add_row(item, param_path("data").element(i)); });
  else
    add_row(*data, "data");
  if (failure) return std::move(*failure);
  return ok_status();
}

status row_reader::read_update(const std::optional<json_value>& data) {
  if (!data || data->is_null()) return error{codes::missing_param, "data", "data is required", "{\"quantity\": 2}"};
  if (!data->is_object())
    return error{codes::invalid_data, "data",
                 textfmt::format("db_update data must be one object, got {}", data->kind_name()),
                 "the same change applies to every matching row"};
  auto parsed = parse_row(*data, "data", nullptr);
  if (!parsed) return parsed.take_error();
  if (parsed->empty()) return error{codes::invalid_data, "data", "data has no columns to change", "{\"quantity\": 2}"};
  call_.rows.push_back(std::move(*parsed));
  return ok_status();
}

}  // namespace alfred::detail
