// The parts of reading a tool call every stage uses (call_stage.h).
#include "call_stage.h"

#include <algorithm>
#include <cctype>

#include "../json/echo.h"
#include "../json/format.h"
#include "../json/text.h"

namespace alfred::detail {

std::string lower_trimmed(std::string_view text) { return trimmed_lower(text, " \t"); }

// How to exclude rows without an invented operator (models reach for
// `excludes` or `not_contains`, which do not exist), with refs of the table
// the call is about.
namespace {
// The column that holds the refs of `tbl`'s rows ("id" when it has no key).
std::string_view ref_column(const table& tbl) { return tbl.key.empty() ? "id" : std::string_view(tbl.key.front()); }
}  // namespace

std::string exclusion_hint(const table& tbl) {
  const std::string_view field = ref_column(tbl);
  const std::string_view prefix = tbl.ref_prefix;
  return textfmt::format(
      "To exclude rows: use not_in with the refs to drop, e.g. {{\"field\": \"{0}\", \"op\": \"not_in\", "
      "\"value\": [\"{1}_5\", \"{1}_6\"]}}; or in with the refs to keep; or not_ilike for a text "
      "pattern; or read everything and filter in an analyze step",
      field, prefix);
}

std::string narrowing_example(const table& tbl) {
  if (!tbl.key_column() && !tbl.key.empty())
    return textfmt::format("e.g. \"filters\" on the key of {}: {}", tbl.name, textfmt::join(tbl.key, ", "));
  return textfmt::format(
      "e.g. \"filters\": [{{\"field\": \"{0}\", \"op\": \"in\", \"value\": [\"{1}_1\", \"{1}_2\"]}}]", ref_column(tbl),
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
  (void)dom;
  for (const auto& col : tbl.columns)
    if (!tbl.hides_owner(col.name) &&
        std::find(tbl.hidden_columns.begin(), tbl.hidden_columns.end(), col.name) == tbl.hidden_columns.end())
      names.push_back(col.name);
  return textfmt::format("{}", textfmt::join(names, ", "));
}

// A column the model may filter, select or order by.
result<const column*> call_stage::visible_column(std::string_view name, const param_path& path,
                                                 const table& tbl) const {
  if (tbl.hides_owner(name))
    return error{codes::system_column, path.str(),
                 textfmt::format("{} is applied automatically; it cannot be used", detail::echoed(name)),
                 "rows are always limited to the signed-in user"};
  if (is_postgrest_reserved(name))
    return error{codes::reserved_column, path.str(),
                 textfmt::format("'{}' is a PostgREST keyword, not a column of {}", detail::echoed(name), tbl.name),
                 name == "or" || name == "and"
                     ? std::string("to OR conditions, put them in or_filters")
                     : textfmt::format("columns of {}: {}", tbl.name, visible_columns(dom_, tbl))};
  const column* col = tbl.find_column(name);
  if (col && col->type == column_type::tsvector)
    return error{
        codes::unknown_column, path.str(),
        textfmt::format("{} is a text search column: it is searched, never read, written or compared", col->name),
        textfmt::format("{{\"field\": \"{}\", \"op\": \"search\", \"value\": \"words to find\"}}", col->name)};
  if (!col || tbl.hides_column(name))
    return error{codes::unknown_column, path.str(),
                 textfmt::format("{} has no column '{}'", tbl.name, detail::echoed(name)),
                 textfmt::format("columns of {}: {}", tbl.name, visible_columns(dom_, tbl))};
  return col;
}

}  // namespace alfred::detail
