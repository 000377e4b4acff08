// The parts of reading a tool call every stage uses (call_stage.h).
#include "call_stage.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "../json/echo.h"
#include "../json/text.h"

namespace alfred::detail {

std::string lower_trimmed(std::string_view text) { return trimmed_lower(text, " \t"); }

// How to exclude rows without an invented operator (models reach for
// `excludes` or `not_contains`, which do not exist), with refs of the table
// the call is about.
std::string exclusion_hint(const table& tbl) {
  return fmt::format(
      "To exclude rows: use not_in with the refs to drop, e.g. {{\"field\": \"id\", \"op\": \"not_in\", "
      "\"value\": [\"{0}_5\", \"{0}_6\"]}}; or in with the refs to keep; or not_ilike for a text "
      "pattern; or read everything and filter in an analyze step",
      tbl.ref_prefix);
}

bool looks_like_negation(std::string_view op) {
  const std::string text = lower_trimmed(op);
  return text.rfind("not", 0) == 0 || text.rfind("!", 0) == 0 || text.find("exclud") != std::string::npos ||
         text.find("without") != std::string::npos;
}

bool looks_like_rows(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && (text[first] == '{' || text[first] == '[');
}

std::string visible_columns(const domain& dom, const table& tbl) {
  std::vector<std::string_view> names;
  for (const auto& col : tbl.columns)
    if (col.name != dom.owner_column) names.push_back(col.name);
  return fmt::format("{}", fmt::join(names, ", "));
}

// A column the model may filter, select or order by.
result<const column*> call_stage::visible_column(std::string_view name, const param_path& path,
                                                 const table& tbl) const {
  if (name == dom_.owner_column && tbl.user_owned)
    return error{codes::system_column, path.str(),
                 fmt::format("{} is applied automatically; it cannot be used", detail::echoed(name)),
                 "rows are always limited to the signed-in user"};
  if (is_postgrest_reserved(name))
    return error{codes::reserved_column, path.str(),
                 fmt::format("'{}' is a PostgREST keyword, not a column of {}", detail::echoed(name), tbl.name),
                 name == "or" || name == "and"
                     ? std::string("to OR conditions, put them in or_filters")
                     : fmt::format("columns of {}: {}", tbl.name, visible_columns(dom_, tbl))};
  const column* col = tbl.find_column(name);
  if (!col || is_hidden(tbl, name))
    return error{codes::unknown_column, path.str(),
                 fmt::format("{} has no column '{}'", tbl.name, detail::echoed(name)),
                 fmt::format("columns of {}: {}", tbl.name, visible_columns(dom_, tbl))};
  return col;
}

bool call_stage::is_hidden(const table& tbl, std::string_view name) {
  return std::find(tbl.hidden_columns.begin(), tbl.hidden_columns.end(), name) != tbl.hidden_columns.end();
}

}  // namespace alfred::detail
