// Native micro-benchmark of the row translator: the bodies of
// bench/translate-rows.mjs translated by the core as the WASM call does
// (translate_rows, then scrub_uuids over the text), timed natively so that
// a profiler (perf record) sees the core alone.
//
//   node bench/native/write-fixtures.mjs build/bench-fixtures
//   cmake --build build/native --target alfred_bench_rows
//   ./build/native/alfred_bench_rows domains/kitchen/domain.json build/bench-fixtures
//
// Prints the median ms of each side (translation, scrub) per response.

#include <cstdio>
#include <string>

#include "alfred/domain/domain.h"
#include "alfred/registry/registry.h"
#include "alfred/registry/uuid_scrub.h"
#include "alfred/rows/row_translation.h"
#include "median_ms.h"

using alfred::bench::median_ms;
using alfred::bench::read_file;

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s <domain.json> <fixtures folder> [rounds]\n", argv[0]);
    return 2;
  }
  auto dom = alfred::parse_domain(read_file(argv[1]));
  if (!dom) {
    std::fprintf(stderr, "domain: %s\n", dom.err().message.c_str());
    return 1;
  }
  const std::string folder = argv[2];
  const int rounds = argc > 3 ? std::atoi(argv[3]) : 11;
  const std::string recipes = read_file(folder + "/recipes.json");
  const std::string labels = read_file(folder + "/recipe-labels.json");
  const std::string plans = read_file(folder + "/meal-plans.json");
  std::string user = read_file(folder + "/user-id.txt");
  const alfred::table& recipe_table = *dom->find_table("recipes");
  const alfred::table& plan_table = *dom->find_table("meal_plans");

  auto translate = [&](alfred::ref_registry& reg, const alfred::table& tbl, const std::string& body) {
    auto rows = alfred::translate_rows(*dom, reg, tbl, body, alfred::ref_action::read, user);
    if (!rows) {
      std::fprintf(stderr, "translate: %s\n", rows.err().message.c_str());
      std::exit(1);
    }
    return std::move(*rows);
  };
  alfred::ref_registry labeled;
  translate(labeled, recipe_table, labels);

  struct side {
    const char* name;
    const alfred::table* tbl;
    const std::string* body;
    const alfred::ref_registry* start;
  };
  const alfred::ref_registry empty;
  const side sides[] = {{"recipes + ingredients", &recipe_table, &recipes, &empty},
                        {"meal plans (FK labels)", &plan_table, &plans, &labeled}};
  std::printf("%-24s %8s %10s %10s %10s %10s\n", "response", "MB", "cold ms", "warm ms", "scrub ms", "out MB");
  for (const side& s : sides) {
    const double cold = median_ms(rounds, [&] {
      alfred::ref_registry reg = *s.start;
      translate(reg, *s.tbl, *s.body);
    });
    alfred::ref_registry warm = *s.start;
    const std::string out = translate(warm, *s.tbl, *s.body);
    const double warm_ms = median_ms(rounds, [&] { translate(warm, *s.tbl, *s.body); });
    const double scrub = median_ms(rounds, [&] {
      std::string text = out;
      alfred::scrub_uuids(text, warm);
    });
    std::printf("%-24s %8.2f %10.3f %10.3f %10.3f %10.2f\n", s.name, s.body->size() / 1e6, cold, warm_ms, scrub,
                out.size() / 1e6);
  }
  return 0;
}
