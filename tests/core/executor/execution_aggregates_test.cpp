// db_aggregate through the executor: the exact requests of each strategy (a
// count of rows, the server's aggregate, counted groups, the rows within the
// bound), what the server's answers become, and the groups kept, ordered and
// cut here.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "../request_text.h"
#include "../support.h"
#include "../team_domain.h"
#include "alfred/api/api.h"
#include "alfred/executor/executor.h"

namespace alfred::test {
namespace {

using nlohmann::json;

need_response ok(std::string body, std::string range = "", int status = 200) {
  return {status, std::move(range), "application/json", std::move(body)};
}

struct aggregate_run {
  const domain& dom;
  ref_registry registry;
  std::optional<execution> ex;

  explicit aggregate_run(const domain& d, ref_registry r = ref_registry()) : dom(d), registry(std::move(r)) {}

  aggregate_run& start(std::string_view params, aggregates_support support = aggregates_support::unknown) {
    execution_options settings;
    settings.aggregates = support;
    ex.emplace(dom, registry, "db_aggregate", params, alice_session(), std::move(settings));
    return *this;
  }
  const http_request& request(std::size_t i = 0) const { return ex->needs().at(i).request; }
  json result() const {
    REQUIRE(ex->done());
    return json::parse(ex->result_json());
  }
};

}  // namespace

TEST_CASE("a count of rows is one request: Prefer count, limit 0, no rows read") {
  aggregate_run r(kitchen());
  r.start(
      R"({"table":"inventory","filters":[{"field":"location","op":"=","value":"fridge"}],"metrics":[{"fn":"count"}]})");
  REQUIRE(r.ex->needs().size() == 1);
  const http_request& req = r.request();
  CHECK(req.method == "GET");
  CHECK(query_value(req, "limit") == "0");
  CHECK(query_value(req, "location") == "eq.fridge");
  CHECK(headers_text(req).find("Prefer: count=exact") != std::string::npos);
  r.ex->respond(0, ok("[]", "*/213"));
  const json out = r.result();
  CHECK(out["error"].is_null());
  CHECK(out["data"] == json::parse(R"([{"count":213}])"));
  CHECK(out["count"] == 1);
  CHECK(out["query"]["exact"] == true);

  aggregate_run estimated(kitchen());
  estimated.start(R"({"table":"inventory","metrics":[{"fn":"count"}],"count":"estimated"})");
  CHECK(headers_text(estimated.request()).find("Prefer: count=estimated") != std::string::npos);
  estimated.ex->respond(0, ok("[]", "0-0/1200"));
  CHECK(estimated.result()["query"]["exact"] == false);
}

TEST_CASE(
    "other metrics are one aggregate request when the server computes them, and groups are ordered, kept and cut "
    "here") {
  aggregate_run r(kitchen());
  r.start(R"({"table":"inventory","group_by":["category"],"metrics":[{"fn":"count"},{"fn":"sum","field":"quantity"},
    {"fn":"avg","field":"quantity"}],"order_by":{"metric":1,"dir":"desc"},"having":[{"metric":0,"op":">","value":1}],
    "limit":2})");
  REQUIRE(r.ex->needs().size() == 1);
  CHECK(query_value(r.request(), "select") == "category,m0:count(),m1:quantity.sum(),m2:quantity.avg()");
  CHECK(query_value(r.request(), "limit") == "1001");
  r.ex->respond(0, ok(R"([{"category":"dairy","m0":3,"m1":4.5,"m2":1.5000000000000000},
    {"category":"produce","m0":5,"m1":12,"m2":2.4000000000000000},{"category":"spices","m0":1,"m1":99,"m2":99},
    {"category":null,"m0":2,"m1":0.25,"m2":0.12500000000000000}])"));
  const json out = r.result();
  CHECK(out["error"].is_null());
  CHECK(out["data"] == json::parse(R"([{"category":"produce","count":5,"sum_quantity":12,"avg_quantity":2.4},
    {"category":"dairy","count":3,"sum_quantity":4.5,"avg_quantity":1.5}])"));
  CHECK(out["count"] == 3);  // three groups matched having; two shown
  CHECK(out["query"]["aggregates"] == "on");
  CHECK(out["query"]["exact"] == true);
}

TEST_CASE("a server that refuses aggregates (PGRST123): counts by an enum become one counted request per value") {
  aggregate_run r(kitchen());
  r.start(R"({"table":"meal_plans","group_by":["meal_type"],"metrics":[{"fn":"count"}]})");
  r.ex->respond(0, ok(R"({"code":"PGRST123","message":"Use of aggregate functions is not allowed"})", "", 400));
  REQUIRE_FALSE(r.ex->done());
  const std::size_t asked = r.ex->needs().size();
  // The five meal types (the column is required: no null group), and every
  // row under the filters.
  REQUIRE(asked == 6);
  CHECK(query_value(r.request(0), "meal_type") == "eq.breakfast");
  CHECK(query_value(r.request(0), "limit") == "0");
  CHECK(query_value(r.request(5), "meal_type").empty());
  CHECK(query_value(r.request(5), "limit") == "0");
  for (std::size_t i = 0; i + 1 < asked; ++i) r.ex->respond(i, ok("[]", i == 0 ? "*/2" : i == 1 ? "*/0" : "*/1"));
  r.ex->respond(5, ok("[]", "*/5"));
  const json out = r.result();
  CHECK(out["error"].is_null());
  CHECK(out["query"]["aggregates"] == "off");
  CHECK(out["data"][0] == json::parse(R"({"meal_type":"breakfast","count":2})"));
  CHECK(out["data"].size() == 4);  // the group with no rows is no group
  CHECK(out["query"]["exact"] == true);
}

TEST_CASE("counted groups that miss rows (values the domain does not list): the rows decide") {
  aggregate_run r(kitchen());
  r.start(R"({"table":"meal_plans","group_by":["meal_type"],"metrics":[{"fn":"count"}]})", aggregates_support::off);
  const std::size_t asked = r.ex->needs().size();
  REQUIRE(asked == 6);
  for (std::size_t i = 0; i + 1 < asked; ++i) r.ex->respond(i, ok("[]", i == 0 ? "*/2" : "*/0"));
  r.ex->respond(5, ok("[]", "*/3"));  // one row holds a meal type no request asked for
  REQUIRE_FALSE(r.ex->done());
  REQUIRE(r.ex->needs().size() == 1);
  CHECK(query_value(r.request(), "select") == "id,meal_type");
  r.ex->respond(
      0,
      ok(R"([{"id":"a","meal_type":"breakfast"},{"id":"b","meal_type":"breakfast"},{"id":"c","meal_type":"brunch"}])",
         "0-2/3"));
  const json out = r.result();
  CHECK(out["error"].is_null());
  CHECK(out["data"] == json::parse(R"([{"meal_type":"breakfast","count":2},{"meal_type":"brunch","count":1}])"));
  CHECK(out["query"]["exact"] == true);
  CHECK(out["query"]["notes"].dump().find("1 of the 3 rows hold values outside") != std::string::npos);
}

TEST_CASE("without the server's aggregates a sum is computed from the rows within the bound, exactly") {
  aggregate_run r(kitchen());
  r.start(R"({"table":"inventory","group_by":["location"],"metrics":[{"fn":"sum","field":"quantity"},
    {"fn":"min","field":"expiry_date"},{"fn":"count_distinct","field":"unit"}]})",
          aggregates_support::off);
  REQUIRE(r.ex->needs().size() == 1);
  CHECK(query_value(r.request(), "select") == "id,location,quantity,expiry_date,unit");
  CHECK(headers_text(r.request()).find("Prefer: count=exact") != std::string::npos);
  r.ex->respond(0, ok(R"([{"id":"a","location":"fridge","quantity":0.1,"expiry_date":"2026-12-01","unit":"l"},
    {"id":"b","location":"fridge","quantity":0.2,"expiry_date":"2026-11-30","unit":"l"},
    {"id":"c","location":"pantry","quantity":3,"expiry_date":null,"unit":"g"},
    {"id":"d","location":"fridge","quantity":null,"expiry_date":null,"unit":"kg"}])",
                      "0-3/4"));
  const json out = r.result();
  CHECK(out["data"] == json::parse(R"([
    {"location":"fridge","sum_quantity":0.3,"min_expiry_date":"2026-11-30","count_distinct_unit":2},
    {"location":"pantry","sum_quantity":3,"min_expiry_date":null,"count_distinct_unit":1}])"));
}

TEST_CASE("without the server's aggregates, text min and max follow the database's collation, not byte order") {
  aggregate_run r(kitchen());
  r.start(R"({"table":"inventory","group_by":["location"],"metrics":[{"fn":"min","field":"name"},
    {"fn":"max","field":"name"},{"fn":"max","field":"unit"}]})",
          aggregates_support::off);
  REQUIRE(r.ex->needs().size() == 1);
  // Sorted by the first text column a min or max is asked of.
  CHECK(query_value(r.request(), "order") == "name.asc");
  // A collation where 'apple' < 'Banana' < 'cherry' (en_US), unlike bytes; a
  // unit of digits is text ('10' before '9').
  r.ex->respond(0, ok(R"([{"id":"a","location":"pantry","name":"apple","unit":"9"},
    {"id":"b","location":"pantry","name":"Banana","unit":"10"},
    {"id":"c","location":"pantry","name":"cherry","unit":null},
    {"id":"d","location":"pantry","name":null,"unit":"2"}])",
                      "0-3/4"));
  CHECK(r.result()["data"] ==
        json::parse(R"([{"location":"pantry","min_name":"apple","max_name":"cherry","max_unit":"9"}])"));
}

TEST_CASE("without the server's aggregates, more rows than the bound: a clear error, nothing summed") {
  aggregate_run r(kitchen());
  r.start(R"({"table":"inventory","metrics":[{"fn":"sum","field":"quantity"}]})", aggregates_support::off);
  r.ex->respond(0, ok("[]", "0-999/5000"));
  const json out = r.result();
  CHECK(out["error"]["code"] == "aggregate_too_large");
  CHECK(out["error"]["hint"].get<std::string>().find("pgrst.db_aggregates_enabled") != std::string::npos);
}

TEST_CASE("a distinct count is its own aggregate request, counted per group here") {
  aggregate_run r(kitchen());
  r.start(R"({"table":"inventory","group_by":["location"],"metrics":[{"fn":"count_distinct","field":"unit"}]})");
  REQUIRE(r.ex->needs().size() == 1);
  CHECK(query_value(r.request(), "select") == "location,unit,n:count()");
  r.ex->respond(0, ok(R"([{"location":"fridge","unit":"l","n":2},{"location":"fridge","unit":"g","n":1},
    {"location":"fridge","unit":null,"n":4},{"location":"pantry","unit":"g","n":7}])"));
  CHECK(
      r.result()["data"] ==
      json::parse(R"([{"location":"fridge","count_distinct_unit":2},{"location":"pantry","count_distinct_unit":1}])"));
}

TEST_CASE("a distinct count over more values than the bound is refused, never a count of the first ones") {
  aggregate_run r(kitchen());
  r.start(R"({"table":"inventory","metrics":[{"fn":"count_distinct","field":"name"}]})");
  CHECK(query_value(r.request(), "limit") == "1001");
  std::string pairs = "[";
  for (int i = 0; i < 1001; ++i)
    pairs += std::string(i ? "," : "") + R"({"name":"item )" + std::to_string(i) + R"(","n":1})";
  r.ex->respond(0, ok(pairs + "]"));
  const json out = r.result();
  CHECK(out["error"]["code"] == "aggregate_too_large");
  CHECK(out["error"]["message"].get<std::string>().find("more than 1000 distinct values of name") != std::string::npos);
  CHECK(out["data"].is_null());
}

TEST_CASE("an estimated count says so in the notes, with its article") {
  aggregate_run r(kitchen());
  r.start(R"({"table":"inventory","metrics":[{"fn":"count"}],"count":"estimated"})");
  r.ex->respond(0, ok("[]", "0-0/1200"));
  CHECK(r.result()["query"]["notes"].dump().find("an estimated count") != std::string::npos);
}

TEST_CASE("a group column that is a foreign key comes back as refs with labels, never keys") {
  aggregate_run r(team(), team_registry());
  r.start(R"({"table":"projects","group_by":["account_id"],"metrics":[{"fn":"count"}]})");
  r.ex->respond(0, ok(std::string(R"([{"account_id":")") + kAccountAcme + R"(","m0":2},{"account_id":")" +
                      kAccountBeta + R"(","m0":1}])"));
  const json out = r.result();
  CHECK(out["data"] == json::parse(R"([{"account_id":"account_1","_account_id_label":"Acme","count":2},
    {"account_id":"account_2","count":1}])"));
  CHECK(out["query"]["requested"]["metrics"] == json::parse(R"(["count"])"));
  CHECK(out["query"]["requested"]["group_by"] == json::parse(R"(["account_id"])"));
}

TEST_CASE("the model reads groups_total and exact, and the query as text") {
  ref_registry reg;
  execution_options settings;
  settings.for_model = result_limits{};
  execution ex(kitchen(), reg, "db_aggregate",
               R"({"table":"inventory","group_by":["location"],"metrics":[{"fn":"count"}]})", alice_session(),
               settings);
  ex.respond(0, ok(R"([{"location":"fridge","m0":3}])"));
  std::string scratch;
  const std::string& text = api::execution_result(ex, scratch);
  const json model = json::parse(text.substr(text.find('\n') + 1));
  CHECK(model["tool"] == "db_aggregate");
  CHECK(model["groups_total"] == 1);
  CHECK(model["count"] == 1);
  CHECK(model["exact"] == true);
  CHECK(model["rows"] == json::parse(R"([{"location":"fridge","count":3}])"));
  CHECK(model["query"] ==
        "Query: Table: inventory | Filters: none (all records) | Group by: location | Metrics: count\nOutcome: 1 "
        "group computed");
}

}  // namespace alfred::test
