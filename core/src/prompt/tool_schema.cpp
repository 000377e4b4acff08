// The JSON Schema of each tool's params (tool_parameters_schema), written
// from the tool-parameter table and the domain's tables; the tools'
// descriptions and the list of them all are tool_descriptions.cpp's.
// Longer than 500 lines because the schema writer is one walk over the
// tool-parameter table, a member per kind of property; split, its halves
// would share every member.
#include "alfred/prompt/tool_schema.h"

#include <algorithm>
#include <iterator>

#include "../json/format.h"
#include "../tool_call/tool_params.h"
#include "alfred/json/json.h"
#include "tool_schema_tables.h"

namespace alfred {
namespace {

using detail::is_visible;
using detail::param_use;
using detail::ref_table;
using detail::tables_for;
using detail::tool_param;

// What a filter's value holds. The ops it names are the rows' (filter_ops.h):
// the table test compares the lists with the rows' shapes.
// The search text of similar is named only where it is offered.
std::string value_description(const domain& dom, bool semantic) {
  const table* example = ref_table(dom, 0);
  return textfmt::format(
      "A scalar of the column's type (a ref such as {} for key and foreign-key columns, {} for the signed-in "
      "user, dates as YYYY-MM-DD), a list for in, not_in, contains, contained_by and overlaps, null for is_null and "
      "is_not_null{}.",
      ref_text(example ? example->ref_prefix : "row", 1), kCurrentUserRef,
      semantic ? ", the search text for _semantic similar" : "");
}

// A column the model may set in a create or update row: never the owner,
// and a key column only when creating (a text slug, a join table's refs).
bool is_settable(const domain& dom, const table& tbl, const column& col, tool_kind kind,
                 const tool_schema_options& options) {
  return is_visible(dom, tbl, col) && col.settable(kind == tool_kind::create ? write_create : write_update) &&
         col.name != tbl.owner && !(tbl.is_key(col.name) && kind != tool_kind::create) && !options.fixes(col.name);
}

// Every visible column of the tables a tool acts on, in first-seen order.
std::vector<std::string_view> column_names(const domain& dom, const std::vector<const table*>& tables) {
  std::vector<std::string_view> out;
  for (const table* tbl : tables)
    for (const auto& col : tbl->columns)
      if (is_visible(dom, *tbl, col) && std::find(out.begin(), out.end(), col.name) == out.end())
        out.push_back(col.name);
  return out;
}

class schema_writer {
 public:
  schema_writer(const domain& dom, tool_kind kind, const tool_schema_options& options, std::string& out)
      : dom_(dom),
        kind_(kind),
        strict_(options.strict),
        inline_(options.inline_schema),
        options_(options),
        tables_(tables_for(dom, kind)),
        w_(out) {}

  void params() {
    // The keys and which are required are the tool-parameter table's.
    std::vector<std::string_view> keys;
    std::vector<std::string_view> required;
    for (const auto& row : detail::tool_param_rows()) {
      const param_use use = row.use_by(kind_);
      if (use == param_use::none) continue;
      keys.push_back(row.key);
      if (use == param_use::required) required.push_back(row.key);
    }
    w_.begin_object();
    text("type", "object");
    w_.key("properties");
    w_.begin_object();
    for (const auto& row : detail::tool_param_rows()) {
      if (row.use_by(kind_) == param_use::none) continue;
      w_.key(row.key);
      property(row);
    }
    w_.end_object();
    strings("required", strict_ ? keys : required);
    w_.key("additionalProperties");
    w_.boolean(false);
    const bool typed_rows = inline_ && !strict_ && (kind_ == tool_kind::create || kind_ == tool_kind::update);
    if ((kind_ != tool_kind::create && kind_ != tool_kind::call) || typed_rows) {
      w_.key("$defs");
      w_.begin_object();
      if (kind_ != tool_kind::create) {
        w_.key("filter");
        filter();
      }
      if (typed_rows)
        for (const table* tbl : tables_) {
          w_.key(row_def(*tbl));
          row(*tbl);
        }
      w_.end_object();
    }
    w_.end_object();
  }

 private:
  void text(std::string_view key, std::string_view value) {
    w_.key(key);
    w_.string(value);
  }

  void strings(std::string_view key, const std::vector<std::string_view>& values, bool with_null = false) {
    w_.key(key);
    w_.begin_array();
    for (auto value : values) w_.string(value);
    if (with_null) w_.null();
    w_.end_array();
  }

  // `"type": "x"`, or `"type": ["x", "null"]` for an optional value in strict mode.
  void type(std::string_view name, bool nullable) {
    w_.key("type");
    if (!nullable) return w_.string(name);
    w_.begin_array();
    w_.string(name);
    w_.string("null");
    w_.end_array();
  }

  // What a `limit` counts in this tool.
  std::string_view limited_items() const {
    if (kind_ == tool_kind::aggregate) return "groups";
    return kind_ == tool_kind::call ? "rows of a function that returns a set" : "rows";
  }

  void property(const detail::tool_param_row& row) {
    // Strict mode makes every key required, and the optional ones nullable.
    const bool optional = strict_ && row.use_by(kind_) != param_use::required;
    w_.begin_object();
    switch (row.param) {
      case tool_param::table:
        table_names();
        break;
      case tool_param::filters:
      case tool_param::or_filters:
        filter_list(row.param, optional);
        break;
      case tool_param::columns:
        string_list("The columns to return (all when left out); a related table's rows as \"relation(col, col)\".",
                    optional, false);
        break;
      case tool_param::limit:
        type("integer", optional);
        text("description", textfmt::format("At most this many {} (1 to {}).", limited_items(), dom_.max_rows));
        if (!strict_) bounds(1, dom_.max_rows);
        break;
      case tool_param::offset:
        type("integer", optional);
        text("description", "Rows to skip, for paging.");
        if (!strict_) bounds(0, 100000000);
        break;
      case tool_param::order_by:
        order_by(optional);
        break;
      case tool_param::order_dir:
        type("string", optional);
        strings("enum", {"asc", "desc"}, optional);
        break;
      case tool_param::count:
        count_mode(optional);
        break;
      case tool_param::data:
        data();
        break;
      case tool_param::function:
        type("string", false);
        strings("enum", function_names());
        break;
      case tool_param::args:
        args(optional);
        break;
      case tool_param::group_by:
        string_list("Columns to group by (one result row per group); left out: one group of every row.", optional,
                    inline_);
        break;
      case tool_param::metrics:
        metrics();
        break;
      case tool_param::having:
        having(optional);
        break;
    }
    w_.end_object();
  }

  // A read's column to sort by; an aggregate's metric (metric_order).
  void order_by(bool optional) {
    if (kind_ == tool_kind::aggregate) return metric_order(optional);
    type("string", optional);
    text("description", "A column to sort by.");
    if (inline_) strings("enum", column_names(dom_, tables_), optional);
  }

  // count: a read's total of matching rows; how an aggregate counts.
  void count_mode(bool optional) {
    type("string", optional);
    text("description", kind_ == tool_kind::aggregate
                            ? "exact (the default), or planned or estimated: faster on large tables."
                            : "Also count every matching row (exact), not only those returned.");
    strings("enum", {"exact", "planned", "estimated"}, optional);
  }

  // An array of column names (columns, group_by); `named`: the domain's
  // column names as the items' enum.
  void string_list(std::string_view description, bool optional, bool named) {
    type("array", optional);
    text("description", description);
    w_.key("items");
    w_.begin_object();
    type("string", false);
    if (named) strings("enum", column_names(dom_, tables_));
    w_.end_object();
  }

  // metrics: [{fn, field}].
  void metrics() {
    type("array", false);
    text("description",
         "What to compute: count (of rows, or of a field's values), count_distinct, sum, avg, min, max.");
    w_.key("items");
    w_.begin_object();
    text("type", "object");
    w_.key("properties");
    w_.begin_object();
    w_.key("fn");
    w_.begin_object();
    type("string", false);
    strings("enum", {"count", "count_distinct", "sum", "avg", "min", "max"});
    w_.end_object();
    w_.key("field");
    w_.begin_object();
    type("string", strict_);
    text("description", "The column; left out for a count of rows.");
    w_.end_object();
    w_.end_object();
    strings("required", strict_ ? std::vector<std::string_view>{"fn", "field"} : std::vector<std::string_view>{"fn"});
    w_.key("additionalProperties");
    w_.boolean(false);
    w_.end_object();
  }

  // order_by of an aggregate: {metric, dir}.
  void metric_order(bool optional) {
    type("object", optional);
    text("description", "Order the groups by a metric (its index in metrics): {\"metric\": 0, \"dir\": \"desc\"}.");
    w_.key("properties");
    w_.begin_object();
    w_.key("metric");
    w_.begin_object();
    type("integer", false);
    w_.end_object();
    w_.key("dir");
    w_.begin_object();
    type("string", false);
    strings("enum", {"asc", "desc"});
    w_.end_object();
    w_.end_object();
    strings("required", {"metric", "dir"});
    w_.key("additionalProperties");
    w_.boolean(false);
  }

  // having: [{metric, op, value}].
  void having(bool optional) {
    type("array", optional);
    text("description", "Keep the groups whose metric (its index in metrics) compares so with value.");
    w_.key("items");
    w_.begin_object();
    text("type", "object");
    w_.key("properties");
    w_.begin_object();
    w_.key("metric");
    w_.begin_object();
    type("integer", false);
    w_.end_object();
    w_.key("op");
    w_.begin_object();
    type("string", false);
    strings("enum", {"=", "!=", ">", ">=", "<", "<="});
    w_.end_object();
    w_.key("value");
    w_.begin_object();
    type("number", false);
    w_.end_object();
    w_.end_object();
    strings("required", {"metric", "op", "value"});
    w_.key("additionalProperties");
    w_.boolean(false);
    w_.end_object();
  }

  std::vector<std::string_view> function_names() const {
    std::vector<std::string_view> names;
    for (const auto& fn : dom_.functions)
      if (options_.offers(fn)) names.push_back(fn.name);
    return names;
  }

  // `args`: the function's arguments by name. Strict mode has no open
  // objects, so there they are JSON text, as a create's rows are.
  void args(bool optional) {
    if (strict_) {
      type("string", optional);
      text("description", "The arguments by name, as JSON text (\"{}\" for none).");
      return;
    }
    type("object", false);
    text("description", "The arguments by name ({} for none).");
  }

  // `table`: the tool's tables as an enum.
  void table_names() {
    type("string", false);
    std::vector<std::string_view> names;
    for (const table* tbl : tables_) names.push_back(tbl->name);
    strings("enum", names);
  }

  // `filters` or `or_filters`: a list of filter objects ($defs/filter).
  void filter_list(tool_param param, bool optional) {
    type("array", optional);
    text("description", param == tool_param::filters
                            ? filters_description()
                            : std::string_view("Conditions of which at least one must hold (OR), ANDed with filters."));
    w_.key("items");
    w_.begin_object();
    text("$ref", "#/$defs/filter");
    w_.end_object();
  }

  std::string_view filters_description() const {
    switch (kind_) {
      case tool_kind::read:
      case tool_kind::aggregate:
        return "Conditions that must all hold (AND). Left out: every row.";
      case tool_kind::update:
        return "Conditions that select the rows to change (AND), e.g. id = a ref; at least one must narrow the rows.";
      default:
        return "Conditions that select the rows to delete (AND), e.g. id in a list of refs; at least one must narrow "
               "the rows.";
    }
  }

  void bounds(long min, long max) {
    w_.key("minimum");
    w_.integer(min);
    w_.key("maximum");
    w_.integer(max);
  }

  void filter() {
    std::vector<std::string_view> fields = column_names(dom_, tables_);
    // _semantic is offered only where a table of the tool has semantic search.
    const bool semantic = kind_ == tool_kind::read && std::any_of(tables_.begin(), tables_.end(), [](const table* tbl) {
                            return tbl->middleware.semantic.has_value();
                          });
    if (semantic) fields.push_back(kSemanticField);
    w_.begin_object();
    text("type", "object");
    text("description", "One condition: {field, op, value}.");
    w_.key("properties");
    w_.begin_object();
    w_.key("field");
    w_.begin_object();
    type("string", false);
    text("description", semantic ? "A column of the table, or _semantic with op similar." : "A column of the table.");
    if (inline_) strings("enum", fields);
    w_.end_object();
    w_.key("op");
    w_.begin_object();
    type("string", false);
    // similar (a read's only op of its shape) only where _semantic is offered.
    std::vector<std::string_view> op_names;
    for (const filter_op_rule& rule : filter_op_rules())
      if (!read_filters_only(rule.shape) || semantic) op_names.push_back(rule.name);
    strings("enum", op_names);
    w_.end_object();
    w_.key("value");
    filter_value(semantic);
    // A text search's mode and language, where a table offered has a search
    // column; not in strict schemas, where every key is required: each filter
    // a model writes would carry two nulls for the default (websearch).
    if (!strict_ && has_search_column()) search_options();
    w_.end_object();
    strings("required", strict_ ? std::vector<std::string_view>{"field", "op", "value"}
                                : std::vector<std::string_view>{"field", "op"});
    w_.key("additionalProperties");
    w_.boolean(false);
    w_.end_object();
  }

  // Whether a table offered has a search column (tsvector): then a filter
  // offers a text search's mode and language.
  bool has_search_column() const {
    for (const table* tbl : tables_)
      for (const auto& col : tbl->columns)
        if (col.type == column_type::tsvector) return true;
    return false;
  }

  void search_options() {
    w_.key("mode");
    w_.begin_object();
    type("string", false);
    text("description", "search only: websearch (the default), plain, phrase or query.");
    std::vector<std::string_view> names;
    for (const auto& mode : search_modes()) names.push_back(mode.name);
    strings("enum", names);
    w_.end_object();
    w_.key("language");
    w_.begin_object();
    type("string", false);
    text("description", "search only: the text search configuration, such as english.");
    w_.end_object();
  }

  void scalar_types(bool with_object) {
    w_.begin_array();
    for (std::string_view name : {"string", "number", "boolean", "null"}) {
      w_.begin_object();
      type(name, false);
      w_.end_object();
    }
    if (with_object) {
      // Containment on a JSON column; strict mode has no open objects.
      w_.begin_object();
      type("object", false);
      w_.end_object();
    }
  }

  void filter_value(bool semantic) {
    w_.begin_object();
    // The compact writes say it once, in db_read's filters.
    if (inline_ || kind_ == tool_kind::read)
      text("description", value_description(dom_, semantic));
    else
      text("description", "A value as in db_read's filters.");
    w_.key("anyOf");
    scalar_types(!strict_);
    w_.begin_object();
    type("array", false);
    w_.key("items");
    w_.begin_object();
    w_.key("anyOf");
    scalar_types(false);
    w_.end_array();
    w_.end_object();
    w_.end_object();
    w_.end_array();
    w_.end_object();
  }

  void data() {
    const std::string_view what = kind_ == tool_kind::create
                                      ? "One row object, or a list of row objects for a batch."
                                      : "An object with the columns to change, applied to every selected row.";
    if (strict_) {
      type("string", false);
      text("description", inline_
                              ? textfmt::format("{} As JSON text. Columns: {}", what, settable_columns_text())
                              : textfmt::format("{} As JSON text, with the table's columns as db_read lists them{}.",
                                                what, compact_columns_note()));
      return;
    }
    if (!inline_) return open_rows(what);
    text("description", kind_ == tool_kind::create
                            ? "One row object, or a list of row objects for a batch, of the table's columns."
                            : "An object with the columns to change, applied to every selected row.");
    w_.key("anyOf");
    w_.begin_array();
    auto refs = [&]() {
      for (const table* tbl : tables_) {
        w_.begin_object();
        text("$ref", "#/$defs/" + row_def(*tbl));
        w_.end_object();
      }
    };
    refs();
    if (kind_ == tool_kind::create) {
      w_.begin_object();
      type("array", false);
      w_.key("items");
      w_.begin_object();
      w_.key("anyOf");
      w_.begin_array();
      refs();
      w_.end_array();
      w_.end_object();
      w_.end_object();
    }
    w_.end_array();
  }

  // " (* = required; …)": what the compact table list's marks mean here.
  std::string_view compact_columns_note() const {
    return kind_ == tool_kind::create ? " (* = required; a key only as a gen_ ref, to save that generated artifact)"
                                      : "";
  }

  // The compact variant's rows: objects of any columns (the core checks
  // them against the table), described in words instead of typed per table.
  void open_rows(std::string_view what) {
    text("description", textfmt::format("{} Columns as db_read lists them{}.", what, compact_columns_note()));
    if (kind_ == tool_kind::update) return text("type", "object");
    w_.key("anyOf");
    w_.begin_array();
    w_.begin_object();
    type("object", false);
    w_.end_object();
    w_.begin_object();
    type("array", false);
    w_.key("items");
    w_.begin_object();
    type("object", false);
    w_.end_object();
    w_.end_object();
    w_.end_array();
  }

  static std::string row_def(const table& tbl) { return "row_" + tbl.name; }

  // One row of `tbl` as a typed object (non-strict).
  void row(const table& tbl) {
    std::vector<std::string_view> required;
    w_.begin_object();
    text("type", "object");
    text("description", textfmt::format("A row of {}.", tbl.name));
    w_.key("properties");
    w_.begin_object();
    if (const column* key = tbl.key_column(); kind_ == tool_kind::create && key && !key->writable && tbl.readable) {
      w_.key(key->name);
      w_.begin_object();
      type("string", false);
      text("description", textfmt::format("Only to save a generated artifact: its gen_ ref ({}). Left out otherwise.",
                                          ref_text(tbl.ref_prefix, 1, true)));
      w_.end_object();
    }
    for (const auto& col : tbl.columns) {
      if (!is_settable(dom_, tbl, col, kind_, options_)) continue;
      if (kind_ == tool_kind::create && col.required) required.push_back(col.name);
      w_.key(col.name);
      column_value(col);
    }
    w_.end_object();
    strings("required", required);
    w_.key("additionalProperties");
    w_.boolean(false);
    w_.end_object();
  }

  void column_value(const column& col) {
    const table* target = col.references.empty() ? nullptr : dom_.find_table(col.references);
    w_.begin_object();
    // A foreign key of any type is a ref (a string) to the model.
    if (target && col.type != column_type::uuid_array) {
      type("string", col.nullable);
      text("description", textfmt::format("A ref to {} ({}).", target->name, ref_pattern(target->ref_prefix)));
      w_.end_object();
      return;
    }
    switch (col.type) {
      case column_type::uuid:
        type("string", col.nullable);
        if (target)
          text("description", textfmt::format("A ref to {} ({}).", target->name, ref_pattern(target->ref_prefix)));
        break;
      case column_type::text:
        type("string", col.nullable);
        if (!col.allowed_values.empty()) strings("enum", to_views(col.allowed_values), col.nullable);
        break;
      case column_type::integer:
        type("integer", col.nullable);
        break;
      case column_type::numeric:
        type("number", col.nullable);
        break;
      case column_type::boolean:
        type("boolean", col.nullable);
        break;
      case column_type::date:
        type("string", col.nullable);
        text("description", "A date, YYYY-MM-DD.");
        break;
      case column_type::timestamp:
        type("string", col.nullable);
        text("description", "An ISO 8601 date and time.");
        break;
      case column_type::text_array:
      case column_type::uuid_array:
        type("array", col.nullable);
        if (target)
          text("description", textfmt::format("Refs to {} ({}).", target->name, ref_pattern(target->ref_prefix)));
        w_.key("items");
        w_.begin_object();
        type("string", false);
        if (!col.allowed_values.empty()) strings("enum", to_views(col.allowed_values));
        w_.end_object();
        break;
      case column_type::jsonb:
      case column_type::tsvector:  // never written (hidden, read-only)
        text("description", "Any JSON value.");
        break;
    }
    w_.end_object();
  }

  static std::vector<std::string_view> to_views(const std::vector<std::string>& values) {
    return std::vector<std::string_view>(values.begin(), values.end());
  }

  // "recipes {name* text, difficulty text easy|medium|hard, …}; …" for the
  // strict variant, whose rows are JSON text the schema cannot type.
  std::string settable_columns_text() const {
    std::string out;
    for (const table* tbl : tables_) {
      if (!out.empty()) out += "; ";
      out.append(tbl->name).append(" {");
      bool first = true;
      for (const auto& col : tbl->columns) {
        if (!is_settable(dom_, *tbl, col, kind_, options_)) continue;
        out.append(first ? "" : ", ").append(col.name);
        if (kind_ == tool_kind::create && col.required) out += '*';
        const table* target = col.references.empty() ? nullptr : dom_.find_table(col.references);
        if (target)
          textfmt::format_to(out, " {}{}", col.type == column_type::uuid_array ? "[]" : "",
                             ref_pattern(target->ref_prefix));
        else
          out.append(" ").append(column_type_name(col.type));
        for (std::size_t i = 0; i < col.allowed_values.size(); ++i)
          out.append(i ? "|" : " ").append(col.allowed_values[i]);
        first = false;
      }
      out += '}';
    }
    if (kind_ == tool_kind::create) out += " (* = required; a key only as a gen_ ref, to save that generated artifact)";
    return out;
  }

  const domain& dom_;
  tool_kind kind_;
  bool strict_;
  bool inline_;
  const tool_schema_options& options_;
  std::vector<const table*> tables_;
  json_writer w_;
};

}  // namespace

std::string tool_parameters_schema(const domain& dom, tool_kind kind, const tool_schema_options& options) {
  std::string out;
  schema_writer(dom, kind, options, out).params();
  return out;
}

}  // namespace alfred
