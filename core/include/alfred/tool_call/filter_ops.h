#pragma once
/// The filter operators, one row each (docs/filter-ops.md). A row holds every
/// rule about its op: the spellings the model may write, the value it takes,
/// its PostgREST operator and how `not.` applies, whether it narrows an update
/// or delete, and its line in the prompt's operator table. Validation
/// (tool_call.cpp), both PostgREST encoders (request_conditions.cpp: filters and `or=`),
/// query records and their rendering, the tool schemas and the prompt
/// templates all read the rows; none of them names an op.
///
///     const filter_op_rule& rule = filter_op_rule_of(filter_op::not_in);
///     // rule.name == "not_in", rule.postgrest == "in", rule.negation == op_negation::prefix
///     std::optional<filter_op> op = parse_filter_op(" NOT IN ");  // filter_op::not_in
///
/// Adding an op is one enumerator, one row and its tests (the table test
/// walks every row through validation, both encoders, rendering, the tool
/// schema and the prompt).
///
/// The rows are constant data in static storage: the references, pointers
/// and views these functions return are valid for the whole program.

#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace alfred {

/// The ops, in the order of their rows (and of the prompt table and the
/// schema enum).
enum class filter_op : unsigned char {
  eq,
  neq,
  gt,
  gte,
  lt,
  lte,
  in,
  not_in,
  like,
  ilike,
  not_like,
  not_ilike,
  is_null,
  is_not_null,
  contains,
  contained_by,
  overlaps,
  search,
  not_search,
  similar,
};

/// What a filter's `value` holds. It decides how the value is validated,
/// how it is encoded, and how a query record shows it.
enum class value_shape : unsigned char {
  /// No value, or true/false (false means the `opposite` op). Query lines
  /// show the op alone.
  none,
  /// One scalar of the column's type; null means IS NULL.
  scalar_or_null,
  /// One non-null scalar of a column with an order (not uuid or boolean).
  ordered_scalar,
  /// A list of scalars of the column's type; null is allowed and duplicates
  /// are dropped. Query records show a list.
  list,
  /// A LIKE pattern (like_pattern.h) on a text column.
  pattern,
  /// The elements of an array column, or a JSON object for a jsonb column.
  /// Query records show a list (or the object).
  elements_or_object,
  /// The elements of an array column. Query records show a list.
  elements,
  /// Words to find by full-text search (PostgreSQL text search) in a
  /// `tsvector` or text column; the filter's `mode` and `language` pick the
  /// PostgREST operator (wfts by default, which takes any text).
  text_search,
  /// Non-empty search text on the `_semantic` field; db_read `filters`
  /// only. Not sent as a filter: the executor embeds it and calls the
  /// search function.
  search_text,
};

/// How `not.` applies to an op on the wire.
enum class op_negation : unsigned char {
  /// Keeps the rows its operator matches: `eq.x`, `is.null`.
  none,
  /// The negation of its operator, written with `not.`: `not.in.(…)`,
  /// `not.like.x`, `not.is.null`.
  prefix,
  /// The operator itself leaves rows out (`neq.x`); only its IS NULL form
  /// takes `not.` (`not.is.null`).
  in_operator,
};

/// Whether an op, as a db_update/db_delete filter, selects fewer rows than
/// the owner scope alone (a write needs one that does).
enum class write_narrowing : unsigned char {
  always,
  /// Only on a nullable column: IS NOT NULL leaves nothing out of a NOT NULL one.
  if_nullable,
  /// When it leaves out a non-null value, or NULL on a nullable column
  /// (`!= null` and `not_in [null]` are IS NOT NULL).
  if_excludes_value,
  /// Unless the pattern is only wildcards (`%`, `*`), which match every row.
  if_pattern_selective,
};

/// One op's rules. The rows are constant and live for the whole program.
struct filter_op_rule {
  filter_op op;
  /// The canonical name the model is taught (prompt table, schema enum, error
  /// hints, query records).
  std::string_view name;
  /// Further spellings accepted, lower case ("" for none). Matching ignores
  /// case and surrounding spaces.
  std::array<std::string_view, 2> aliases;
  value_shape shape;
  /// The PostgREST operator ("" for an op that is not sent as a filter). A
  /// pattern's `like`/`ilike` goes as `match`/`imatch` when the pattern holds
  /// a literal `*` (like_pattern.h).
  std::string_view postgrest;
  op_negation negation;
  /// The op that keeps exactly the rows this one leaves out (is_null ↔
  /// is_not_null); the op itself where NULL makes both sides false (`=`
  /// and `!=` both leave NULL out).
  filter_op opposite;
  write_narrowing narrowing;
  /// Its line in the prompt's operator table (prompts/act/crud.md): the
  /// example slot (one of prompt_example_slots()), and what the op means. Consecutive rows with one slot
  /// share a line; a row without a meaning takes its whole line from the
  /// slot (empty when it does not apply to the domain).
  std::string_view example_slot;
  std::string_view meaning;
};

/// Every row, in `filter_op` order.
std::span<const filter_op_rule> filter_op_rules();

/// The row of `op`.
const filter_op_rule& filter_op_rule_of(filter_op op);

/// The op a model's spelling names ("=", "eq", " NOT IN "), or nullopt.
std::optional<filter_op> parse_filter_op(std::string_view spelling);

/// The row whose canonical name is exactly `name` (query records carry
/// canonical names), or null.
const filter_op_rule* find_filter_op(std::string_view name);

/// The canonical name the model is taught ("=", "!=", "not_in", …).
std::string_view filter_op_name(filter_op op);

/// Every canonical name, ", "-joined, for error hints.
std::string filter_op_list();

/// The canonical names of the ops whose shape `pred` accepts, as prose:
/// "in, not_in and overlaps" (`conjunction` "and").
std::string filter_op_names(bool (*pred)(value_shape), std::string_view conjunction);

/// True when row `row` of filter_op_rules() starts a line of the prompt's
/// operator table: rows sharing an example slot share its line.
bool opens_prompt_line(std::size_t row);

/// The op compares the elements of an array column (or a jsonb value).
constexpr bool takes_elements(value_shape shape) {
  return shape == value_shape::elements_or_object || shape == value_shape::elements;
}

/// A query record shows the op's value as a list (`"value": ["a", "b"]`).
constexpr bool takes_list(value_shape shape) { return shape == value_shape::list || takes_elements(shape); }

/// The op takes no value: a query line shows `field op` alone.
constexpr bool takes_no_value(value_shape shape) { return shape == value_shape::none; }

/// The op exists only in db_read's `filters` (not in `or_filters`, not in
/// writes).
constexpr bool read_filters_only(value_shape shape) { return shape == value_shape::search_text; }

/// A text search's modes (the filter's `mode`) and their PostgREST
/// operators: websearch (`wfts`, the default: any text is a valid query),
/// plain (`plfts`), phrase (`phfts`), query (`fts`, tsquery syntax).
struct search_mode {
  std::string_view name;
  std::string_view postgrest;
};
std::span<const search_mode> search_modes();
/// The mode named `name`, or null.
const search_mode* find_search_mode(std::string_view name);
/// "websearch, plain, phrase, query".
std::string search_mode_list();

}  // namespace alfred
