// db_aggregate's params validated against the domain: groups, metrics, the
// order by a metric and having, each mistake refused before any request.
#include <doctest/doctest.h>

#include <string>

#include "../support.h"
#include "alfred/tool_call/tool_call.h"

namespace alfred::test {
namespace {

result<tool_call> aggregate(std::string_view params) {
  auto doc = json_document::parse(params);
  REQUIRE(doc.ok());
  return parse_tool_call(kitchen(), sample_registry(), "db_aggregate", doc->root(), kAlice);
}

void refused(std::string_view params, std::string_view code, std::string_view path, std::string_view message) {
  auto parsed = aggregate(params);
  REQUIRE_FALSE(parsed.ok());
  CHECK(parsed.err().code.name() == code);
  CHECK(parsed.err().path == path);
  CHECK(parsed.err().message == message);
}

}  // namespace

TEST_CASE("db_aggregate: groups, metrics with their keys, the order by a metric, having and limit") {
  auto call = aggregate(R"({"table":"inventory","filters":[{"field":"location","op":"=","value":"fridge"}],
    "group_by":["category"],"metrics":[{"fn":"count"},{"fn":"sum","field":"quantity"},{"fn":"max","field":"expiry_date"},
    {"fn":"count_distinct","field":"unit"}],"order_by":{"metric":1,"dir":"asc"},
    "having":[{"metric":0,"op":">=","value":2}],"limit":3})");
  REQUIRE(call.ok());
  CHECK(call->kind == tool_kind::aggregate);
  CHECK_FALSE(writes(*call));
  const aggregate_spec& spec = call->aggregate;
  REQUIRE(spec.group_by.size() == 1);
  CHECK(spec.group_by[0]->name == "category");
  REQUIRE(spec.metrics.size() == 4);
  CHECK(spec.metrics[0].key == "count");
  CHECK(spec.metrics[1].key == "sum_quantity");
  CHECK(spec.metrics[2].key == "max_expiry_date");
  CHECK(spec.metrics[3].key == "count_distinct_unit");
  CHECK(spec.order_metric == std::optional<std::size_t>(1));
  CHECK_FALSE(spec.descending);
  REQUIRE(spec.having.size() == 1);
  CHECK(spec.having[0].op == ">=");
  CHECK(spec.having[0].value == "2");
  CHECK(spec.limit == std::optional<long>(3));
  CHECK(call->filters.size() == 1);

  auto by_key = aggregate(R"({"table":"inventory","metrics":[{"fn":"sum","field":"quantity"}],"order_by":"sum_quantity",
    "count":"estimated"})");
  REQUIRE(by_key.ok());
  CHECK(by_key->aggregate.order_metric == std::optional<std::size_t>(0));
  CHECK(by_key->aggregate.descending);
  CHECK(by_key->count == "estimated");
  CHECK(aggregate(R"({"table":"ingredients","metrics":[{"fn":"count"}]})").ok());  // a read-only table
}

TEST_CASE("db_aggregate: each mistake is refused with its path") {
  refused(R"({"table":"inventory"})", "missing_param", "metrics", "metrics is required: what to compute over the rows");
  refused(R"({"table":"inventory","metrics":[]})", "invalid_param", "metrics",
          "metrics must be a non-empty list of {fn, field}");
  refused(R"({"table":"inventory","metrics":[{"fn":"median","field":"quantity"}]})", "invalid_param", "metrics[0].fn",
          "'median' is not a metric");
  refused(R"({"table":"inventory","metrics":[{"fn":"sum"}]})", "invalid_param", "metrics[0].field",
          "sum needs a field: a number column (integer or numeric)");
  refused(R"({"table":"inventory","metrics":[{"fn":"sum","field":"name"}]})", "invalid_param", "metrics[0].field",
          "sum of name cannot be computed: name is text");
  refused(R"({"table":"inventory","metrics":[{"fn":"avg","field":"id"}]})", "invalid_param", "metrics[0].field",
          "avg of id cannot be computed: id is uuid");
  refused(R"({"table":"inventory","metrics":[{"fn":"count","field":"colour"}]})", "unknown_column", "metrics[0].field",
          "inventory has no column 'colour'");
  refused(R"({"table":"inventory","metrics":[{"fn":"count"},{"fn":"count"}]})", "invalid_param", "metrics[1]",
          "count is asked for twice");
  refused(R"({"table":"inventory","metrics":[{"fn":"count","what":1}]})", "invalid_param", "metrics[0].what",
          "a metric takes fn and field, not 'what'");
  refused(R"({"table":"inventory","group_by":["colour"],"metrics":[{"fn":"count"}]})", "unknown_column", "group_by[0]",
          "inventory has no column 'colour'");
  refused(R"({"table":"inventory","group_by":"a,b","metrics":[{"fn":"count"}]})", "unknown_column", "group_by",
          "inventory has no column 'a,b'");
  refused(R"({"table":"inventory","metrics":[{"fn":"count"}],"order_by":{"metric":3}})", "invalid_param",
          "order_by.metric", "order_by.metric must be the index of a metric");
  refused(R"({"table":"inventory","metrics":[{"fn":"count"}],"order_by":"sum_quantity"})", "invalid_param", "order_by",
          "'sum_quantity' is not one of the metrics asked for");
  refused(R"({"table":"inventory","metrics":[{"fn":"count"}],"having":[{"metric":0,"op":"like","value":1}]})",
          "invalid_param", "having[0].op", "op must compare numbers");
  refused(R"({"table":"inventory","metrics":[{"fn":"count"}],"having":[{"metric":0,"op":">","value":"2"}]})",
          "invalid_param", "having[0].value", "value must be a number");
  refused(R"({"table":"inventory","metrics":[{"fn":"count"}],"count":"roughly"})", "invalid_param", "count",
          "count must be \"exact\", \"planned\" or \"estimated\"");
  refused(R"({"table":"inventory","metrics":[{"fn":"count"}],"columns":["name"]})", "unknown_param", "columns",
          "db_aggregate does not take 'columns'");
  refused(
      R"({"table":"inventory","metrics":[{"fn":"count"}],"filters":[{"field":"_semantic","op":"similar","value":"x"}]})",
      "invalid_filter", "filters[0]", "semantic search is only available in db_read filters");
}

}  // namespace alfred::test
