// No UUID in any prompt: random registry states built the way a session
// builds them (rows translated from PostgREST responses with UUIDs in ids,
// foreign keys, uuid[] columns and embedded rows; generated and promoted
// artifacts; turns moving on), and prompt inputs that carry those rows.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <random>
#include <string>

#include "../prompt_support.h"
#include "alfred/prompt/prompt.h"
#include "alfred/uuid/uuid.h"

namespace alfred::test {
namespace {

std::string random_uuid(std::mt19937& rng) {
  std::uniform_int_distribution<unsigned> hex(0, 15);
  std::string out;
  for (int i = 0; i < 32; ++i) {
    if (i == 8 || i == 12 || i == 16 || i == 20) out += '-';
    unsigned digit = hex(rng);
    if (i == 12) digit = 4;
    if (i == 16) digit = 8 + digit % 4;
    out += "0123456789abcdef"[digit];
  }
  // Either case: the scrub and the registry accept both.
  if (rng() % 4 == 0)
    for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::string rows_for(std::string_view table, std::mt19937& rng, std::vector<std::string>& recipe_ids) {
  const int n = 1 + static_cast<int>(rng() % 6);
  std::string rows = "[";
  for (int i = 0; i < n; ++i) {
    const std::string id = random_uuid(rng);
    rows += i ? "," : "";
    if (table == "recipes") {
      recipe_ids.push_back(id);
      const std::string parent = recipe_ids.size() > 1 && rng() % 2 ? "\"" + recipe_ids.front() + "\"" : "null";
      rows += fmt::format(
          R"({{"id":"{0}","user_id":"{1}","name":"Recipe {0}","parent_recipe_id":{2},"recipe_ingredients":[)"
          R"({{"id":"{3}","recipe_id":"{0}","ingredient_id":"{4}","name":"salt","quantity":1}}]}})",
          id, random_uuid(rng), parent, random_uuid(rng), random_uuid(rng));
    } else if (table == "meal_plans") {
      const std::string recipe = recipe_ids.empty() ? random_uuid(rng) : recipe_ids[rng() % recipe_ids.size()];
      rows +=
          fmt::format(R"({{"id":"{}","date":"2026-02-1{}","meal_type":"dinner","recipe_id":"{}","notes":"see {}"}})",
                      id, i % 10, recipe, random_uuid(rng));
    } else if (table == "preferences") {
      rows += fmt::format(R"({{"id":"{}","assumed_staples":["{}","{}"],"subdomain_guidance":{{"ref":"{}"}}}})", id,
                          random_uuid(rng), random_uuid(rng), random_uuid(rng));
    } else {
      rows += fmt::format(R"({{"id":"{}","name":"item","quantity":2,"unit":"g","ingredient_id":"{}"}})", id,
                          random_uuid(rng));
    }
  }
  return rows + "]";
}

}  // namespace

TEST_CASE("property: no 36-character UUID appears in any prompt (400 random sessions)") {
  const char* tables[] = {"recipes", "inventory", "meal_plans", "preferences", "shopping_list"};
  const char* types[] = {"read", "write", "analyze", "generate"};
  std::mt19937 rng(20260209);
  for (int run = 0; run < 400; ++run) {
    CAPTURE(run);
    ref_registry reg;
    std::vector<std::string> recipe_ids, items;
    const int turns = 1 + static_cast<int>(rng() % 5);
    for (int turn = 1; turn <= turns; ++turn) {
      reg.set_turn(turn);
      for (int k = 0, reads = 1 + static_cast<int>(rng() % 3); k < reads; ++k) {
        const char* table = tables[rng() % 5];
        const std::string rows = translate(reg, table, rows_for(table, rng, recipe_ids));
        items.push_back(read_item(table, "[]", rows, 1));
      }
      if (rng() % 2) {
        const std::string gen = generate(reg, "recipes", R"({"name":"Gen )" + random_uuid(rng) + R"("})");
        if (rng() % 2) REQUIRE(reg.promote(gen, random_uuid(rng), "").ok());
      }
    }
    std::string results;
    for (std::size_t i = 0; i < items.size(); ++i) results += (i ? "," : "") + items[i];
    // The user and the conversation may also paste UUIDs.
    const std::string input = fmt::format(
        R"({{"step":{{"type":"{}","description":"go {}"}},"user_message":"about {}",)"
        R"("conversation":[{{"role":"user","text":"{}"}}],)"
        R"("previous_steps":[{{"index":0,"type":"read","results":[{}],"note":"{}"}}],"current_step_results":[{}]}})",
        types[rng() % 4], random_uuid(rng), recipe_ids.empty() ? random_uuid(rng) : recipe_ids.back(), random_uuid(rng),
        results, random_uuid(rng), items.back());
    const auto prompt = build_prompt(reg, input);
    for (const std::string* text : {&prompt.system, &prompt.user}) {
      const std::string found = first_uuid_in(*text);
      CHECK_MESSAGE(found.empty(), "UUID in prompt: " << found);
    }
  }
}

}  // namespace alfred::test
