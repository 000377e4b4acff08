#pragma once
// Value checks shared by filter and payload validation: column types, ISO
// dates, and the ref/UUID resolution for uuid columns.

#include <string>
#include <string_view>

#include "alfred/domain/domain.h"
#include "alfred/json/error.h"
#include "alfred/json/json.h"
#include "alfred/registry/registry.h"
#include "alfred/tool_call/tool_call.h"
#include "param_path.h"

namespace alfred::detail {

struct value_scope {
  const domain& dom;
  const ref_registry& registry;
  const table& tbl;
  /// The signed-in user's id `me` stands for ("" when nobody is).
  std::string_view me;
};

/// The table whose key a column holds: its own table for its one-column
/// key, else the foreign key's target; null for other columns.
const table* row_target(const value_scope& scope, const column& col);

/// A ref for a row of `target` (or `me` where the target is keyed by user
/// ids) → the row's key. A raw key (a UUID, a number) is refused with the
/// ref to use when the registry knows it.
result<std::string> resolve_row_ref(const value_scope& scope, const table& target, json_value value,
                                    const param_path& path, std::string_view field);

/// One scalar filter value for `col` (not null, not an array), normalized:
/// refs become UUIDs.
result<scalar> check_filter_scalar(const value_scope& scope, const column& col, json_value value,
                                   const param_path& path);

/// The elements of an array value for contains/contained_by/overlaps (a lone
/// scalar counts as a one-element array).
result<std::vector<scalar>> check_array_elements(const value_scope& scope, const column& col, json_value value,
                                                 const param_path& path);

/// A JSON column's value (a payload, a containment operand) written as sent:
/// a string or member name that is exactly a ref of a UUID key is that key
/// again, since rows show such keys inside JSON as refs; one that holds
/// `<id>`, a key the model was never shown, is refused rather than stored or
/// matched as text.
status write_json_with_keys(json_writer& w, const value_scope& scope, json_value value, const param_path& path,
                            bool strip_nul);

/// One payload value for `col` (create/update data) as sanitized JSON text:
/// NUL bytes stripped, "" → null for uuid columns, refs → UUIDs, a lone
/// string for an array column wrapped in an array.
result<std::string> check_payload_value(const value_scope& scope, const column& col, json_value value,
                                        const param_path& path);

/// A value the app fixes for every call (`fixed_value`), as JSON text fit
/// for `col`: of its type (a uuid canonical), never a ref. The app's own
/// value, so a raw key is what it should be.
result<std::string> check_fixed_value(const column& col, std::string_view json, const param_path& path);

// A JSON number whose exact value is a whole number below `bound` in magnitude,
// read from its text ("6", "6.0", "60e-1") rather than through strtod, whose
// long double path is ~6 KB of gzipped wasm.
std::optional<long long> whole_number(json_value value, long long bound);
bool is_iso_date(std::string_view text);
bool is_iso_timestamp(std::string_view text);
bool contains_nul(std::string_view text);

error invalid_value(std::string path, std::string message, std::string hint = {});
error nul_error(std::string path);
/// `<id>` (what a key never shown reads as) in a value written or matched:
/// copied from a result, it would store or look for the placeholder itself.
error hidden_key_error(std::string path);
/// A text sent as the model wrote it (a pattern, the words of a text search,
/// a JSON string or member name): refused with a NUL (PostgREST would cut
/// the value there) or `<id>` (a negated match of it would select every
/// row; stored, it would replace the key).
status check_sent_text(std::string_view text, const param_path& path);

}  // namespace alfred::detail
