#include "request_conditions.h"

#include "alfred/tool_call/filter_ops.h"
#include "alfred/tool_call/like_pattern.h"

namespace alfred::detail {
namespace {

// The elements of a list filter, with SQL NULL split out: PostgREST's
// `in.(null)` compares with the string "null", never with NULL
// (docs/postgrest-wire.md#null).
struct split_list {
  std::vector<std::string_view> items;
  bool has_null = false;

  bool is_lone_empty() const { return items.size() == 1 && items[0].empty(); }
};

split_list split_nulls(const std::vector<scalar>& list) {
  split_list out;
  out.items.reserve(list.size());
  for (const auto& item : list) {
    if (item.is_null())
      out.has_null = true;
    else
      out.items.push_back(item.text);
  }
  return out;
}

// `(a,"b c")`
void append_list(std::string& out, const std::vector<std::string_view>& items) {
  out += '(';
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += ',';
    append_list_value(out, items[i]);
  }
  out += ')';
}

}  // namespace

void condition_writer::list(std::string_view col, bool negated, std::string_view op,
                            const std::vector<std::string_view>& items) {
  std::string& text = start(col, negated, op);
  append_list(text, items);
  finish(col, text);
}

namespace {

// cs/cd/ov operand: a PostgreSQL array literal, or JSON text for jsonb.
std::string containment_operand(const filter& f) {
  return f.col->type == column_type::jsonb ? f.json_operand : array_literal(f.values);
}

// A list filter. NULL goes as a condition of its own, ORed for a list that
// keeps rows (`in`) and ANDed for one that leaves them out (`not_in`); a lone
// "" goes as the equality of the op's polarity, since `in.("")` is the empty
// list.
void encode_list(const filter& f, const filter_op_rule& rule, condition_writer& out) {
  const std::string_view col = f.field;
  const bool excludes = rule.negation != op_negation::none;
  const split_list list = split_nulls(f.values);
  if (list.has_null && list.items.empty()) {
    out.null_test(col, excludes);
    return;
  }
  const condition_writer::group_state group =
      list.has_null ? out.open_group(!excludes) : condition_writer::group_state{};
  if (list.is_lone_empty())
    out.compare(col, false, filter_op_rule_of(excludes ? filter_op::neq : filter_op::eq).postgrest, "");
  else
    out.list(col, rule.negation == op_negation::prefix, rule.postgrest, list.items);
  if (list.has_null) {
    out.null_test(col, excludes);
    out.close_group(group);
  }
}

}  // namespace

// One filter as conditions, as its op's row says (filter_ops.h).
void encode_filter(const filter& f, condition_writer& out) {
  const filter_op_rule& rule = filter_op_rule_of(f.op);
  std::string_view op = rule.postgrest;
  std::string operand;  // a value the encoding makes
  std::string search;   // a text search's operator: wfts, or wfts(english)
  std::string_view value;
  switch (rule.shape) {
    case value_shape::none:
      out.null_test(f.field, rule.negation != op_negation::none);
      return;
    case value_shape::scalar_or_null:
      if (f.value().is_null()) {
        out.null_test(f.field, rule.negation != op_negation::none);
        return;
      }
      value = f.value().text;
      break;
    case value_shape::ordered_scalar:
      value = f.value().text;
      break;
    case value_shape::list:
      encode_list(f, rule, out);
      return;
    case value_shape::pattern: {
      // like/ilike, or match/imatch for a pattern with a literal `*` or one that
      // ignores accents (like_pattern.h).
      pattern_operand pattern = encode_like_pattern(f.value().text, rule.postgrest == "ilike", f.accents);
      op = pattern.op;
      operand = std::move(pattern.value);
      value = operand;
      break;
    }
    case value_shape::elements_or_object:
    case value_shape::elements:
      operand = containment_operand(f);
      value = operand;
      break;
    case value_shape::text_search:
      search = f.search_operator;
      if (!f.language.empty()) search.append("(").append(f.language).append(")");
      op = search;
      value = f.value().text;
      break;
    case value_shape::search_text:
      return;  // consumed before building
  }
  out.compare(f.field, rule.negation == op_negation::prefix, op, value);
}

}  // namespace alfred::detail
