#pragma once
/// Validation of the model's tool calls (`db_read`, `db_create`, `db_update`,
/// `db_delete`, and `db_call` for the domain's functions) against the
/// domain's schema, with refs translated to UUIDs.
/// The result is a `tool_call` that can be turned into a request without any
/// further checks; every problem is reported as an `error` whose path points
/// into the params the model wrote.
///
///     std::string params = R"({"table":"inventory","filters":[{"field":"id","op":"=","value":"inv_1"}]})";
///     auto call = parse_tool_call(dom, reg, "db_delete", params, user_id);
///     if (!call) return call.err();  // unknown_ref at filters[0].value when the registry has no inv_1
///
/// A `tool_call` points into the domain (`tbl`, `col`, `fn`, and the `field`
/// and `column` names are the domain's), which must outlive it. It copies every
/// value, refs already translated, so it borrows neither the registry nor
/// the params text.

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "alfred/domain/domain.h"
#include "alfred/json/error.h"
#include "alfred/json/json.h"
#include "alfred/registry/registry.h"
#include "alfred/tool_call/filter_ops.h"
#include "alfred/tool_call/like_pattern.h"

namespace alfred {

/// The tools, in the order of their names (`db_read` … `db_aggregate`).
enum class tool_kind { read, create, update, remove, call, aggregate };

std::optional<tool_kind> parse_tool_name(std::string_view name);
std::string_view tool_name(tool_kind kind);

/// What a tool may do to the data, whatever its arguments: the facts the
/// safety controls (read-only, approval, maxAffected) are decided from. A
/// tool with none of them only reads.
///
///     effect_of(tool_kind::remove).changes_rows  // true: maxAffected bounds a delete
struct tool_effect {
  /// Inserts rows (`db_create`).
  bool creates_rows = false;
  /// Changes the rows its filters select (`db_update`, `db_delete`).
  bool changes_rows = false;
  /// Deletes the rows it changes (`db_delete`).
  bool deletes_rows = false;
  /// Calls one of the domain's functions (`db_call`): a write unless the
  /// function reads.
  bool calls_function = false;
};

/// The effect of `kind`; never fails.
tool_effect effect_of(tool_kind kind);

/// The write `kind` makes on a table's rows (table::writes), or 0 for a tool
/// that makes none (reads, db_call).
inline unsigned char write_of(tool_kind kind) {
  return kind == tool_kind::create   ? write_create
         : kind == tool_kind::update ? write_update
         : kind == tool_kind::remove ? write_delete
                                     : 0;
}

/// Whether `tbl` takes `kind`'s calls: reads unless it is write-only, a write
/// when the table allows it (table::writes), db_call never (it names a
/// function).
inline bool takes(const table& tbl, tool_kind kind) {
  if (kind == tool_kind::read || kind == tool_kind::aggregate) return tbl.readable;
  return write_of(kind) && tbl.allows(write_op(write_of(kind)));
}

/// The field name that asks for semantic search (`similar`).
inline constexpr std::string_view kSemanticField = "_semantic";

/// A validated value as it goes on the wire.
struct scalar {
  enum class kind : unsigned char { null, text, number, boolean };
  kind type = kind::null;
  /// String content, the number's JSON text, or "true"/"false".
  std::string text;

  bool is_null() const { return type == kind::null; }
};

struct filter {
  /// The column's name as the domain spells it, or `kSemanticField`.
  std::string_view field;
  const column* col = nullptr;  // null only for the `_semantic` pseudo-field
  filter_op op = filter_op::eq;
  /// The validated value(s) with refs replaced by UUIDs: one for scalar ops
  /// (a null one for `= null`), the list for in/not_in and array
  /// containment, none for is_null/is_not_null.
  std::vector<scalar> values;
  /// The JSON operand of containment on a jsonb column.
  std::string json_operand;
  /// How an `ilike` the middleware built for a name treats accents
  /// (like_pattern.h). A model's own `ilike` keeps them.
  accent_folding accents = accent_folding::none;
  /// A text search's PostgREST operator (`wfts`, `plfts`, `phfts`, `fts`:
  /// the filter's mode) and its text search configuration ("" for the
  /// database's default).
  std::string_view search_operator;
  std::string language;

  const scalar& value() const { return values.front(); }
};

/// A value the app sets for every call of an act (`createAct({ context })`:
/// the active team, a tenant id): a create of a table with a column of that
/// name gets it, a function with an argument of that name gets it, and the
/// model may give neither (`system_column`).
struct fixed_value {
  std::string name;
  /// The value as JSON text, checked against each column or argument it fills.
  std::string json;
};

/// What a `db_aggregate` metric computes.
enum class metric_fn : unsigned char { count, count_distinct, sum, avg, min, max };

/// One metric of a `db_aggregate`: `{"fn": "sum", "field": "amount"}`.
struct metric {
  metric_fn fn = metric_fn::count;
  /// The column it reads; null for `count` of rows.
  const column* col = nullptr;
  /// Its key in the result's rows: `count`, `count_<field>`,
  /// `count_distinct_<field>`, `sum_<field>`, `avg_<field>`, …
  std::string key;
};

/// `{"metric": i, "op": ">", "value": 5}`: groups kept by a metric's value.
struct having_clause {
  std::size_t metric = 0;
  /// `=`, `!=`, `>`, `>=`, `<` or `<=`.
  std::string op;
  /// The number compared with, as JSON number text.
  std::string value;
};

/// What a `db_aggregate` asks besides its table and filters.
struct aggregate_spec {
  /// The columns rows are grouped by (none: one group of every row).
  std::vector<const column*> group_by;
  std::vector<metric> metrics;
  /// The metric the groups are ordered by, and whether from the largest.
  std::optional<std::size_t> order_metric;
  bool descending = true;
  std::vector<having_clause> having;
  /// The most groups returned (after having and ordering).
  std::optional<long> limit;
};

/// One column of a create/update row: the sanitized value as JSON text.
struct row_field {
  /// The column's name as the domain spells it.
  std::string_view column;
  std::string json;
};
using row = std::vector<row_field>;

struct tool_call {
  tool_kind kind = tool_kind::read;
  /// The table of a table tool; for `db_call`, the table whose rows the
  /// function returns (null when it returns values, JSON or nothing).
  const table* tbl = nullptr;
  /// db_call: the function called.
  const db_function* fn = nullptr;
  /// db_call: the arguments given, sanitized with refs translated, in the
  /// order the function declares them (`column` is the argument's name).
  row args;
  /// db_call: arguments of type vector, each with the text whose embedding
  /// the executor sends in its place.
  std::vector<std::pair<std::string_view, std::string>> embeds;
  /// db_aggregate: the groups and metrics asked for.
  aggregate_spec aggregate;
  /// A read's select list as the executor writes it ("" for the call's own):
  /// an aggregate's `m0:amount.sum(),category`.
  std::string select_text;
  /// Select items a read sends after its own, written by the executor from
  /// the domain's names (the labels of its foreign keys' rows:
  /// `label_embeds` in row_translation.h); not part of the call the query
  /// record shows.
  std::string extra_select;
  /// The same for the rows of an embed among the call's items: its name
  /// (`recipe_ingredients`) and the items sent inside its parentheses.
  std::vector<std::pair<std::string_view, std::string>> extra_within;
  /// Query parameters a read sends after its own filters, written by the
  /// executor (an embed's owner filter: `_label_recipe_id.user_id` and
  /// `eq.<the user's id>`).
  std::vector<std::pair<std::string, std::string>> extra_filters;
  std::vector<filter> filters;
  std::vector<filter> or_filters;
  /// Further OR groups, each ANDed with the rest (added by middleware when
  /// `or_filters` is taken).
  std::vector<std::vector<filter>> or_groups;
  /// Validated select items ("name", "recipe_ingredients(name,quantity)");
  /// empty means every visible column.
  std::vector<std::string> columns;
  std::optional<long> limit;
  std::optional<long> offset;
  std::string order_by;
  bool descending = false;
  /// "", "exact", "planned" or "estimated".
  std::string count;
  /// create: the rows to insert; update: the one patch object. Sanitized,
  /// with refs translated.
  std::vector<row> rows;
  bool batch = false;
  /// create: sent without reading its rows back (return=minimal), as a
  /// write-only table's always is, and a create row-level security refused
  /// to read back (docs/own-schema.md#write-only-tables).
  bool unread = false;
  /// create: for each row, the pending `gen_` ref it saves ("" for none).
  std::vector<std::string> saves;
  /// The text of a `_semantic` `similar` filter ("" when none).
  std::string semantic_query;
  /// The signed-in user's id that `me` stands for ("" when nobody is).
  std::string current_user;
  /// update/delete: sent with `Prefer: handling=strict, max-affected=N`, so
  /// that the database refuses to change more rows (0: no such preference).
  std::size_t max_affected = 0;
};

/// The name of a metric function (`count_distinct`).
std::string_view metric_fn_name(metric_fn fn);

/// Whether a call changes data: a create, update or delete, or a call of a
/// function that is not a read.
bool writes(const tool_call& call);

/// Validates `params` for `tool` ("db_read", …) and translates refs through
/// `registry` (and `me` to `current_user`, the signed-in user's id, "" for
/// none). Never touches the registry's state.
///
/// @example parse_tool_call(dom, reg, "db_read", params, user_id) // filters on `me` → the user's UUID
result<tool_call> parse_tool_call(const domain& dom, const ref_registry& registry, std::string_view tool,
                                  json_value params, std::string_view current_user = {});
/// The same, with the values the app fixes for every call (`fixed`).
result<tool_call> parse_tool_call(const domain& dom, const ref_registry& registry, std::string_view tool,
                                  json_value params, std::string_view current_user, std::span<const fixed_value> fixed);
/// The same for params given as JSON text.
result<tool_call> parse_tool_call(const domain& dom, const ref_registry& registry, std::string_view tool,
                                  std::string_view params_json, std::string_view current_user = {});

}  // namespace alfred
