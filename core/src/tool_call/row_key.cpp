#include "row_key.h"

#include "alfred/registry/registry.h"
#include "alfred/uuid/uuid.h"

namespace alfred::detail {

std::optional<std::string> key_text(column_type type, json_value value) {
  switch (type) {
    case column_type::uuid:
      if (value.is_string() && is_uuid_syntax(value.str())) return canonical_uuid(value.str());
      return std::nullopt;
    case column_type::integer: {
      const std::string_view text = value.is_number() ? value.raw() : value.is_string() ? value.str() : "";
      if (is_integer_key(text)) return std::string(text);
      return std::nullopt;
    }
    default:
      if (value.is_string() && !value.str().empty()) return std::string(value.str());
      return std::nullopt;
  }
}

std::optional<std::string> row_key_text(const table& tbl, json_value row) {
  const column* key = tbl.key_column();
  if (!key || !row.is_object()) return std::nullopt;
  auto value = row.find(key->name);
  if (!value) return std::nullopt;
  return key_text(key->type, *value);
}

scalar key_scalar(const column& key_col, std::string key) {
  return {key_col.type == column_type::integer ? scalar::kind::number : scalar::kind::text, std::move(key)};
}

filter key_in_filter(const column& col, std::vector<std::string> keys) {
  filter f;
  f.field = col.name;
  f.col = &col;
  f.op = filter_op::in;
  f.values.reserve(keys.size());
  for (auto& key : keys) f.values.push_back(key_scalar(col, std::move(key)));
  return f;
}

}  // namespace alfred::detail
