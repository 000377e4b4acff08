// The error-code catalog (core/include/alfred/errors/error_codes.h): one line per
// code, unique, each with an origin and a meaning; the core's codes compare
// as text.

#include "alfred/errors/error_codes.h"

#include <doctest/doctest.h>

#include <set>
#include <string>
#include <string_view>

#include "../support.h"

using namespace alfred;

TEST_CASE("the catalog: unique codes, known origins, a meaning each, sorted within each origin") {
  const std::set<std::string_view> origins{"core", "executor", "database", "package", "model", "worker", "mcp"};
  std::set<std::string_view> seen;
  std::string_view previous_origin, previous_code;
  for (const auto& entry : error_catalog) {
    INFO(entry.code);
    CHECK(seen.insert(entry.code.name()).second);
    CHECK(origins.count(entry.origin) == 1);
    CHECK(!entry.meaning.empty());
    CHECK(entry.meaning.back() != '.');
    for (char c : entry.code.name()) CHECK(((c >= 'a' && c <= 'z') || c == '_'));
    if (entry.origin == previous_origin) CHECK(previous_code < entry.code.name());
    previous_origin = entry.origin;
    previous_code = entry.code.name();
  }
  CHECK(seen.size() > 100);
}

TEST_CASE("a code compares with text and with another code, an error's default code is empty") {
  CHECK(codes::unknown_column == "unknown_column");
  CHECK(codes::unknown_column == std::string("unknown_column"));
  CHECK(codes::unknown_column != codes::unknown_table);
  CHECK(std::string_view(codes::timeout) == "timeout");
  CHECK(error{}.code.empty());
  const error err{codes::missing_filter, "filters", "m", "h"};
  CHECK(err.code == codes::missing_filter);
}
