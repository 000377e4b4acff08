// The settings of one execution (core/src/executor/execution_options.cpp):
// the response limits and the model's result limits, each a whole number
// ≥ 1, with the error words the JS side repeats.
#include <doctest/doctest.h>

#include <string>

#include "alfred/executor/executor.h"
#include "alfred/json/json.h"

namespace alfred::test {
namespace {

result<execution_options> parsed(std::string_view text) {
  auto doc = json_document::parse(text);
  REQUIRE(doc.ok());
  return parse_execution_options(doc->root());
}

// code, path and message of the error `text` gets.
std::string error_of(std::string_view text) {
  const auto options = parsed(text);
  REQUIRE_FALSE(options.ok());
  return std::string(options.err().code.name()) + " " + options.err().path + ": " + options.err().message;
}

TEST_CASE("execution options: every limit and result limit read, the others left at their defaults") {
  const auto options = parsed(
      R"({"limits":{"maxParamsBytes":1,"maxStringBytes":2,"maxResponseBytes":3,"maxRows":4},"forModel":{"rows":5,"chars":6}})");
  REQUIRE(options.ok());
  CHECK(options->limits.max_params_bytes == 1);
  CHECK(options->limits.max_string_bytes == 2);
  CHECK(options->limits.max_response_bytes == 3);
  CHECK(options->limits.max_rows == 4);
  REQUIRE(options->for_model);
  CHECK(options->for_model->rows == 5);
  CHECK(options->for_model->chars == 6);

  const auto some = parsed(R"({"limits":{"maxRows":7},"forModel":{"chars":8}})");
  REQUIRE(some.ok());
  CHECK(some->limits.max_rows == 7);
  CHECK(some->limits.max_response_bytes == execution_limits{}.max_response_bytes);
  CHECK(some->for_model->rows == result_limits{}.rows);
  CHECK(some->for_model->chars == 8);
  CHECK_FALSE(parsed(R"({"forModel":null,"limits":null})")->for_model);
}

TEST_CASE("execution options: a limit that is not a whole number ≥ 1 is refused by path and name") {
  CHECK(error_of(R"({"limits":{"maxRows":0}})") == "invalid_option limits.maxRows: maxRows must be a whole number ≥ 1");
  CHECK(error_of(R"({"limits":{"maxResponseBytes":"8"}})") ==
        "invalid_option limits.maxResponseBytes: maxResponseBytes must be a whole number ≥ 1");
  CHECK(error_of(R"({"limits":{"maxParamsBytes":1.5}})") ==
        "invalid_option limits.maxParamsBytes: maxParamsBytes must be a whole number ≥ 1");
  CHECK(error_of(R"({"forModel":{"rows":-1}})") ==
        "invalid_option forModel.rows: forModel.rows must be a whole number ≥ 1");
  CHECK(error_of(R"({"forModel":{"rows":2,"chars":true}})") ==
        "invalid_option forModel.chars: forModel.chars must be a whole number ≥ 1");
  CHECK(error_of(R"({"limits":"big"})") == "invalid_option limits: limits must be an object");
  CHECK(error_of(R"({"forModel":[]})") == "invalid_option forModel: forModel must be { rows, chars, fence }");
  CHECK(error_of(R"({"forModel":{"cols":1}})") == "invalid_option forModel.cols: unknown result limit 'cols'");
  CHECK(error_of(R"({"limits":{"maxCols":1}})") == "invalid_option limits.maxCols: unknown limit 'maxCols'");
}

}  // namespace
TEST_CASE("execution options: what the server is known to do with aggregates, as the act remembers it") {
  CHECK(parsed("{}")->aggregates == aggregates_support::unknown);
  CHECK(parsed(R"({"aggregates":"on"})")->aggregates == aggregates_support::on);
  CHECK(parsed(R"({"aggregates":"off"})")->aggregates == aggregates_support::off);
  CHECK(parsed(R"({"aggregates":"unknown"})")->aggregates == aggregates_support::unknown);
  CHECK(error_of(R"({"aggregates":"maybe"})") ==
        "invalid_option aggregates: aggregates must be \"on\", \"off\" or \"unknown\"");
  CHECK(error_of(R"({"aggregates":true})") ==
        "invalid_option aggregates: aggregates must be \"on\", \"off\" or \"unknown\"");
}

}  // namespace alfred::test
