#pragma once
/// Rendering of executed tool calls (step-query observability): what was
/// asked, what the middleware made of it, and what came back, in the form
/// the Act prompt, Reply, Think, the CLI and the demo all show.
///
///     Query: Table: inventory | Filters: location = pantry | Limit: 100
///     Outcome: 0 records found
///     Tip: only rows with location = pantry were searched; …
///
/// The input is the executor's query record or a whole step result item
/// (`{tool, table, data, error, count, query}`), whose error and count then
/// complete the outcome. Values are shown as the model wrote them (refs,
/// never UUIDs).
///
///     auto block = render_query(record_json);                     // result<std::string>
///     auto line = render_query(record_json, query_style::line);  // for a turn summary
///
/// The record is read only while the call runs; the text returned is the
/// caller's.

#include <string>
#include <string_view>

#include "alfred/json/error.h"
#include "alfred/json/json.h"

namespace alfred {

enum class query_style {
  /// `Query:`, `Effective:`, `Note:`, `Source:`, `Outcome:` and `Tip:` lines.
  block,
  /// One line for turn summaries: `read inventory (filters: location = pantry): 0 records`.
  line,
};

/// Renders a query record or step result item. Errors: `invalid_query`
/// (with the path of the ill-typed member).
result<std::string> render_query(json_value record, query_style style = query_style::block);
/// The same for JSON text.
result<std::string> render_query(std::string_view record_json, query_style style = query_style::block);

}  // namespace alfred
