#pragma once
// Reading a domain's JSON: what parse_domain (domain.cpp), the table parser
// (domain_tables.cpp) and the cross-table checks (domain_checks.cpp) share:
// the column types by name, the error for a bad setting, and typed fields.

#include <array>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "../json/format.h"
#include "../json/json_fields.h"
#include "alfred/domain/domain.h"
#include "alfred/json/error.h"
#include "alfred/json/json.h"

namespace alfred::detail {

struct column_type_entry {
  std::string_view name;
  column_type type;
};

/// Every column type under the name a domain writes it with.
inline constexpr std::array<column_type_entry, 11> kColumnTypes{{
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
    {"tsvector", column_type::tsvector},
}};

/// invalid_domain at `path` (a dotted path into the domain's JSON). Out of
/// line (domain.cpp), with an overload for a literal message: ~100 sites.
error config_error(const std::string& path, std::string message);
error config_error(const std::string& path, const char* message);

/// An error naming the first key of `spec` not in `keys`: a misspelt
/// setting ("requried") would otherwise be silently ignored.
inline status known_keys(json_value spec, std::initializer_list<std::string_view> keys, const std::string& path) {
  const auto key = unknown_key(spec, std::span<const std::string_view>(keys.begin(), keys.size()));
  if (!key) return ok_status();
  return error{codes::invalid_domain, path.empty() ? std::string(*key) : textfmt::format("{}.{}", path, *key),
               textfmt::format("'{}' is not a domain setting", *key),
               textfmt::format("allowed here: {}", textfmt::join(keys, ", "))};
}

/// A list of strings; empty when absent, an error when it is something else.
inline result<std::vector<std::string>> string_list(std::optional<json_value> value, const std::string& path) {
  std::vector<std::string> out;
  if (read_text_list(value, out) == field_state::wrong_type) return config_error(path, "must be an array of strings");
  return out;
}

/// A flag, or `fallback` when it is absent or not true/false.
inline bool flag(json_value spec, std::string_view key, bool fallback) {
  bool value = fallback;
  read_flag(spec.find(key), value);
  return value;
}

/// A text setting, or "" when it is absent or not text.
inline std::string text_field(json_value spec, std::string_view key) {
  std::string_view text;
  read_text(spec.find(key), text);
  return std::string(text);
}

/// One column of a table (or one argument of a function, which may take
/// `extra_keys` too) from its JSON `spec` (domain_tables.cpp).
result<column> parse_column(const std::string& name, json_value spec, const std::string& path,
                            std::initializer_list<std::string_view> extra_keys);

/// One table's settings (domain_tables.cpp); references to other tables are
/// checked once all are read (check_domain_tables).
result<table> parse_table(const std::string& name, json_value spec, std::string_view domain_owner);

/// The checks across tables (domain_checks.cpp): every UUID the database can
/// return must become a ref (or `me`, or be left out), or it would reach the
/// model; owners, relations, middleware and labels name real columns. Marks
/// owner columns that reference no table as user ids.
status check_domain_tables(domain& dom);

/// A column that references a table holds that table's one-column key, of
/// the same type; any other uuid column is the table's own key or a user id.
/// `columns_path` is where `tbl`'s columns are in the JSON
/// (`tables.deals.columns`, `functions.archive.args`). A function's text
/// argument (`text_takes_uuid`) may take a uuid key too: it is sent as text.
status check_references(const domain& dom, const table& tbl, const std::string& columns_path,
                        bool text_takes_uuid = false);

/// `"functions": {"<name>": {…}}` (domain_functions.cpp), read once the
/// tables are checked: arguments are checked as columns, against the tables.
status parse_functions(domain& dom, json_value config);

/// Fills `dom.field_references` from the foreign-key columns of its tables.
void index_field_references(domain& dom);

}  // namespace alfred::detail
