// Native micro-benchmark of request building: the five tool calls of
// bench/build-requests.mjs (reads with filters and refs, a batch create, an
// update and a delete by ref), built through the core's text API as
// Core#buildRequest does through WebAssembly, timed natively so that a
// profiler (perf record, callgrind) sees the core alone.
//
//   cmake --build build/native --target alfred_bench_requests
//   ./build/native/alfred_bench_requests domains/kitchen/domain.json [rounds]
//
// Prints the median µs of each build.

#include <cstdio>
#include <string>

#include "alfred/api/api.h"
#include "alfred/domain/domain.h"
#include "alfred/postgrest/request.h"
#include "alfred/registry/registry.h"
#include "alfred/rows/row_translation.h"
#include "median_ms.h"

namespace {

using alfred::bench::read_file;

constexpr const char* kUser = "11111111-1111-1111-1111-111111111111";
constexpr const char* kContext =
    R"({"baseUrl":"https://abcdefghijklmnop.supabase.co/rest/v1","apiKey":"anon-key","userId":"11111111-1111-1111-1111-111111111111",)"
    R"("accessToken":"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMTExMTExMS0xMTExLTExMTEtMTExMS0xMTExMTExMTExMTEiLCJyb2xlIjoiYXV0aGVudGljYXRlZCJ9.c2lnbmF0dXJl"})";

// Eight rows of `table` whose ids start with `prefix`, as PostgREST sends them.
std::string rows_of(const char* prefix, const char* name) {
  std::string out = "[";
  for (int i = 1; i <= 8; ++i) {
    char row[160];
    std::snprintf(row, sizeof row, R"(%s{"id":"%s-0000-4000-8000-%012d","name":"%s %d"})", i > 1 ? "," : "", prefix, i,
                  name, i);
    out += row;
  }
  return out + "]";
}

struct call {
  const char* name;
  const char* json;
};

constexpr call kCalls[] = {
    {"read: 3 filters + or + order + limit",
     R"(["db_read",{"table":"inventory","columns":["id","name","quantity","unit","location","expiry_date"],)"
     R"("filters":[{"field":"location","op":"=","value":"fridge"},{"field":"expiry_date","op":"<=","value":"2025-06-01"}],)"
     R"("or_filters":[{"field":"name","op":"ilike","value":"*milk*"},{"field":"name","op":"ilike","value":"*cheese*"}],)"
     R"("order_by":"expiry_date","limit":50}])"},
    {"read by ref list (5 refs)",
     R"(["db_read",{"table":"recipes","columns":["id","name","cuisine","servings"],)"
     R"("filters":[{"field":"id","op":"in","value":["recipe_1","recipe_2","recipe_3","recipe_4","recipe_5"]}]}])"},
    {"batch create (3 rows)",
     R"(["db_create",{"table":"inventory","data":[)"
     R"({"name":"milk","quantity":2,"unit":"l","location":"fridge","expiry_date":"2025-06-10"},)"
     R"({"name":"eggs","quantity":12,"unit":"pcs","location":"fridge","expiry_date":"2025-06-20"},)"
     R"({"name":"rice","quantity":1,"unit":"kg","location":"pantry","expiry_date":"2026-01-01"}]}])"},
    {"update by ref", R"(["db_update",{"table":"inventory","filters":[{"field":"id","op":"=","value":"inv_3"}],)"
                      R"("data":{"quantity":5,"location":"freezer"}}])"},
    {"delete by ref list",
     R"(["db_delete",{"table":"inventory","filters":[{"field":"id","op":"in","value":["inv_4","inv_5"]}]}])"},
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s <domain.json> [rounds]\n", argv[0]);
    return 2;
  }
  alfred::domain dom;
  if (auto failure = alfred::api::load_domain(dom, read_file(argv[1])); !failure.empty()) {
    std::fprintf(stderr, "domain: %s\n", failure.c_str());
    return 1;
  }
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 11;
  alfred::ref_registry registry;
  for (const auto& [table, prefix, name] :
       {std::tuple{"recipes", "0a8e7e53", "recipe"}, std::tuple{"inventory", "b7c1d2e3", "item"}}) {
    auto rows = alfred::translate_rows(dom, registry, *dom.find_table(table), rows_of(prefix, name),
                                       alfred::ref_action::read, kUser);
    if (!rows) {
      std::fprintf(stderr, "translate %s: %s\n", table, rows.err().message.c_str());
      return 1;
    }
  }
  alfred::request_context context;
  if (auto failure = alfred::api::make_request_context(context, kContext); !failure.empty()) {
    std::fprintf(stderr, "context: %s\n", failure.c_str());
    return 1;
  }
  std::string out;
  alfred::request_layout layout;
  double total = 0;
  for (const call& c : kCalls) {
    if (!alfred::api::build_request(out, layout, dom, registry, context, c.json)) {
      std::fprintf(stderr, "%s: %s\n", c.name, out.c_str());
      return 1;
    }
    const double us = 1000 * alfred::bench::median_ms(rounds, [&]() {
                        alfred::api::build_request(out, layout, dom, registry, context, c.json);
                      });
    total += us;
    std::printf("%-40s %6.2f µs\n", c.name, us);
  }
  std::printf("%-40s %6.2f µs\n", "all five", total);
}
