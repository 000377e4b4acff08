#pragma once
/// Tool definitions for native tool calling: the table tools (`db_read`,
/// `db_create`, `db_update`, `db_delete`) and, for a domain with functions,
/// `db_call`, each with a description and a JSON
/// Schema of its params, generated from the domain in use (table names as an
/// enum, the filter ops, and the tables' columns: one line per table in
/// db_read's description by default, every column with its type and allowed
/// values with `inline_schema`). `parse_tool_call` accepts exactly what these
/// schemas produce, including the strict variant's nulls and `data` as JSON
/// text (tool_params.h in core/src holds that normalization, and the table of
/// which keys each tool takes and requires that the schemas are written from).
///
/// Example:
///   std::string tools = alfred::tool_definitions_json(dom, {.strict = true});
///   // [{"name":"db_read","description":"…","parameters":{"type":"object",…}}, …]
///
/// The domain is read only while the call runs; the text returned is the
/// caller's.

#include <string>
#include <string_view>
#include <vector>

#include "alfred/domain/domain.h"
#include "alfred/tool_call/tool_call.h"

namespace alfred {

struct tool_schema_options {
  /// The variant valid under OpenAI strict structured outputs: every
  /// property listed in `required` (a value the model leaves out is null),
  /// `additionalProperties: false` on every object, no numeric or length
  /// keywords, and `data` as JSON text (strict mode has no open objects).
  /// Without it: optional properties are left out of `required`, rows are
  /// typed objects per table, and limits carry `minimum`/`maximum`.
  bool strict = false;
  /// The whole schema in the tools: db_read's description lists every
  /// column with its type and allowed values, filter fields and `order_by`
  /// are enums of the columns, and the writes type each table's rows (or,
  /// strict, list their columns). Without it (the compact default, about a
  /// third of the tokens): one line per table in db_read's description
  /// (ref prefix, column names, `*` for required, allowed values), plain
  /// strings for columns and open objects for rows; the full schema is the
  /// schema description (`api::schema_description`) for a caller to offer
  /// on demand.
  bool inline_schema = false;
  /// Columns and arguments the app sets for every call (`createAct({
  /// context })`): no schema or description offers them to the model.
  std::vector<std::string> fixed;
  /// The tools of a read-only act: db_read, and db_call with only the
  /// functions that read (none: no db_call).
  bool reads_only = false;

  bool fixes(std::string_view name) const {
    for (const auto& item : fixed)
      if (item == name) return true;
    return false;
  }
  /// Whether `fn` is offered.
  bool offers(const db_function& fn) const { return !reads_only || fn.read; }
};

/// The JSON Schema of `kind`'s params for `dom`. Borrows nothing: the
/// returned text is self-contained.
std::string tool_parameters_schema(const domain& dom, tool_kind kind, const tool_schema_options& options = {});

/// A few lines telling the model what `kind` does; db_read's also lists the
/// tables (compact) or the whole schema (`inline_schema`).
std::string tool_description(const domain& dom, tool_kind kind, const tool_schema_options& options = {});

/// The tools as a JSON array of `{"name", "description", "parameters"}` in
/// the order db_read, db_create, db_update, db_delete, db_call. Tools that
/// have nothing to act on (a domain with only read-only catalogs has no
/// writes, one without functions no db_call) are left out.
std::string tool_definitions_json(const domain& dom, const tool_schema_options& options = {});

}  // namespace alfred
