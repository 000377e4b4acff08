#include "tool_params.h"

#include "../json/format.h"

namespace alfred::detail {
namespace {

constexpr param_use no = param_use::none;
constexpr param_use opt = param_use::optional;
constexpr param_use req = param_use::required;

// One row per key, in tool_param order (checked below).
// clang-format off
constexpr std::array<tool_param_row, kToolParamCount> kToolParams{{
    //                                     db_read db_create db_update db_delete db_call db_aggregate
    {tool_param::table,      "table",      {req,    req,      req,      req,      no,     req}},
    {tool_param::function,   "function",   {no,     no,       no,       no,       req,    no}},
    {tool_param::args,       "args",       {no,     no,       no,       no,       opt,    no}},
    {tool_param::filters,    "filters",    {opt,    no,       req,      req,      no,     opt}},
    {tool_param::or_filters, "or_filters", {opt,    no,       no,       no,       no,     opt}},
    {tool_param::columns,    "columns",    {opt,    no,       no,       no,       no,     no}},
    {tool_param::limit,      "limit",      {opt,    no,       no,       no,       opt,    opt}},
    {tool_param::offset,     "offset",     {opt,    no,       no,       no,       opt,    no}},
    {tool_param::order_by,   "order_by",   {opt,    no,       no,       no,       no,     opt}},
    {tool_param::order_dir,  "order_dir",  {opt,    no,       no,       no,       no,     no}},
    {tool_param::count,      "count",      {opt,    no,       no,       no,       no,     opt}},
    {tool_param::data,       "data",       {no,     req,      req,      no,       no,     no}},
    {tool_param::group_by,   "group_by",   {no,     no,       no,       no,       no,     opt}},
    {tool_param::metrics,    "metrics",    {no,     no,       no,       no,       no,     req}},
    {tool_param::having,     "having",     {no,     no,       no,       no,       no,     opt}},
}};
// clang-format on

constexpr bool in_enum_order() {
  for (std::size_t i = 0; i < kToolParams.size(); ++i)
    if (static_cast<std::size_t>(kToolParams[i].param) != i) return false;
  return true;
}
static_assert(in_enum_order(), "kToolParams must list the keys in tool_param order, one row each");

}  // namespace

std::span<const tool_param_row> tool_param_rows() { return kToolParams; }

const tool_param_row& tool_param_of(tool_param param) { return kToolParams[static_cast<std::size_t>(param)]; }

const tool_param_row* find_tool_param(std::string_view key) {
  for (const auto& row : kToolParams)
    if (row.key == key) return &row;
  return nullptr;
}

std::string tool_param_list(tool_kind tool) {
  std::string out;
  for (const auto& row : kToolParams) {
    if (row.use_by(tool) == param_use::none) continue;
    if (!out.empty()) out += ", ";
    out += row.key;
  }
  return out;
}

bool is_absent_param(json_value value) { return value.is_null(); }

result<json_document> parse_data_text(std::string_view text, const std::string& path) {
  constexpr const char* hint =
      "data is JSON text of the row(s): \"{\\\"name\\\": \\\"eggs\\\", \\\"quantity\\\": 12}\"";
  auto doc = json_document::parse(text);
  if (!doc) return error{codes::invalid_data, path, path + " is text that is not JSON: " + doc.err().message, hint};
  if (!doc->root().is_object() && !doc->root().is_array())
    return error{codes::invalid_data, path,
                 textfmt::format("{} must hold a JSON object or list, got {}", path, doc->root().kind_name()), hint};
  return std::move(*doc);
}

}  // namespace alfred::detail
