// The filter op table. Every rule about an op is a field of its row here;
// docs/filter-ops.md explains the columns and how to add an op.
#include "alfred/tool_call/filter_ops.h"

#include <cctype>

namespace alfred {
namespace {

using op = filter_op;
using shape = value_shape;
using neg = op_negation;
using narrows = write_narrowing;

// One row per op, in enum order (checked below). docs/filter-ops.md says
// what each column means and how to add an op; the table test
// (tests/core/tool_call/filter_ops_test.cpp) walks every row through validation, both
// encoders, the records, the schema and the prompt.
// clang-format off
constexpr std::array<filter_op_rule, 20> kRules{{
    // op, name, aliases, shape, postgrest operator, negation,
    //  opposite, write narrowing, example slot, meaning (the prompt table's line)
    {op::eq,           "=",            {"==", "eq"},      shape::scalar_or_null,     "eq",    neg::none,
     op::eq,           narrows::always,               "op_eq",           "equal (`null` means IS NULL)"},
    {op::neq,          "!=",           {"neq", "<>"},     shape::scalar_or_null,     "neq",   neg::in_operator,
     op::neq,          narrows::if_excludes_value,    "op_neq",          "not equal"},
    {op::gt,           ">",            {"gt"},            shape::ordered_scalar,     "gt",    neg::none,
     op::gt,           narrows::always,               "op_compare",      "compare numbers and dates"},
    {op::gte,          ">=",           {"gte"},           shape::ordered_scalar,     "gte",   neg::none,
     op::gte,          narrows::always,               "op_compare",      "compare numbers and dates"},
    {op::lt,           "<",            {"lt"},            shape::ordered_scalar,     "lt",    neg::none,
     op::lt,           narrows::always,               "op_compare",      "compare numbers and dates"},
    {op::lte,          "<=",           {"lte"},           shape::ordered_scalar,     "lte",   neg::none,
     op::lte,          narrows::always,               "op_compare",      "compare numbers and dates"},
    {op::in,           "in",           {},                shape::list,               "in",    neg::none,
     op::in,           narrows::always,               "op_in",           "one of a list"},
    {op::not_in,       "not_in",       {"nin", "not in"}, shape::list,               "in",    neg::prefix,
     op::not_in,       narrows::if_excludes_value,    "op_not_in",       "none of a list (any length)"},
    {op::like,         "like",         {},                shape::pattern,            "like",  neg::none,
     op::like,         narrows::if_pattern_selective, "op_like",         "pattern, case-sensitive (`%` = anything)"},
    {op::ilike,        "ilike",        {},                shape::pattern,            "ilike", neg::none,
     op::ilike,        narrows::if_pattern_selective, "op_ilike",        "pattern, any case"},
    {op::not_like,     "not_like",     {"not like"},      shape::pattern,            "like",  neg::prefix,
     op::not_like,     narrows::always,               "op_not_like",     "does not match the pattern, case-sensitive"},
    {op::not_ilike,    "not_ilike",    {"not ilike"},     shape::pattern,            "ilike", neg::prefix,
     op::not_ilike,    narrows::always,               "op_not_ilike",    "does not match the pattern, any case"},
    {op::is_null,      "is_null",      {},                shape::none,               "is",    neg::none,
     op::is_not_null,  narrows::always,               "op_is_null",      "has no value (no `value` needed)"},
    {op::is_not_null,  "is_not_null",  {},                shape::none,               "is",    neg::prefix,
     op::is_null,      narrows::if_nullable,          "op_is_not_null",  "has a value"},
    {op::contains,     "contains",     {},                shape::elements_or_object, "cs",    neg::none,
     op::contains,     narrows::always,               "op_contains",     "array column holds all of these"},
    {op::contained_by, "contained_by", {},                shape::elements_or_object, "cd",    neg::none,
     op::contained_by, narrows::always,               "op_contained_by", "array column holds only these"},
    {op::overlaps,     "overlaps",     {},                shape::elements,           "ov",    neg::none,
     op::overlaps,     narrows::always,               "op_overlaps",     "array column holds at least one of these"},
    {op::search,       "search",       {"fts"},           shape::text_search,        "wfts",  neg::none,
     op::search,       narrows::always,               "op_search",       ""},
    {op::not_search,   "not_search",   {"not search"},    shape::text_search,        "wfts",  neg::prefix,
     op::not_search,   narrows::always,               "op_search",       ""},
    {op::similar,      "similar",      {},                shape::search_text,        "",      neg::none,
     op::similar,      narrows::always,               "op_similar_row",  ""},
}};
// clang-format on

constexpr bool in_enum_order() {
  for (std::size_t i = 0; i < kRules.size(); ++i)
    if (static_cast<std::size_t>(kRules[i].op) != i) return false;
  return true;
}
static_assert(in_enum_order(), "kRules must list the ops in filter_op order");
static_assert(static_cast<std::size_t>(filter_op::similar) + 1 == kRules.size(), "every filter_op needs a row");

}  // namespace

std::span<const filter_op_rule> filter_op_rules() { return kRules; }

const filter_op_rule& filter_op_rule_of(filter_op op) { return kRules[static_cast<std::size_t>(op)]; }

std::optional<filter_op> parse_filter_op(std::string_view spelling) {
  const auto begin = spelling.find_first_not_of(" \t");
  if (begin == std::string_view::npos) return std::nullopt;
  spelling = spelling.substr(begin, spelling.find_last_not_of(" \t") - begin + 1);
  // Every spelling is short; a longer text names no op.
  char lowered[16];
  if (spelling.size() > sizeof lowered) return std::nullopt;
  for (std::size_t i = 0; i < spelling.size(); ++i)
    lowered[i] = static_cast<char>(std::tolower(static_cast<unsigned char>(spelling[i])));
  const std::string_view wanted(lowered, spelling.size());
  for (const auto& rule : kRules) {
    if (rule.name == wanted) return rule.op;
    for (std::string_view alias : rule.aliases)
      if (alias == wanted) return rule.op;
  }
  return std::nullopt;
}

const filter_op_rule* find_filter_op(std::string_view name) {
  for (const auto& rule : kRules)
    if (rule.name == name) return &rule;
  return nullptr;
}

std::string_view filter_op_name(filter_op op) { return filter_op_rule_of(op).name; }

std::string filter_op_list() {
  std::string out;
  for (const auto& rule : kRules) out.append(out.empty() ? "" : ", ").append(rule.name);
  return out;
}

std::string filter_op_names(bool (*pred)(value_shape), std::string_view conjunction) {
  std::size_t count = 0;
  for (const auto& rule : kRules) count += pred(rule.shape);
  std::string out;
  std::size_t written = 0;
  for (const auto& rule : kRules) {
    if (!pred(rule.shape)) continue;
    if (written + 1 == count && written)
      out.append(" ").append(conjunction).append(" ");
    else if (written)
      out.append(", ");
    out.append(rule.name);
    ++written;
  }
  return out;
}

bool opens_prompt_line(std::size_t row) { return row == 0 || kRules[row - 1].example_slot != kRules[row].example_slot; }

namespace {
constexpr std::array<search_mode, 4> kSearchModes{{
    {"websearch", "wfts"},
    {"plain", "plfts"},
    {"phrase", "phfts"},
    {"query", "fts"},
}};
}  // namespace

std::span<const search_mode> search_modes() { return kSearchModes; }

const search_mode* find_search_mode(std::string_view name) {
  for (const auto& mode : kSearchModes)
    if (mode.name == name) return &mode;
  return nullptr;
}

std::string search_mode_list() {
  std::string out;
  for (const auto& mode : kSearchModes) out.append(out.empty() ? "" : ", ").append(mode.name);
  return out;
}

}  // namespace alfred
