// The domain's translation plans (core/src/rows/row_plan.cpp): made once by
// parse_domain, found for the domain's own tables only; a copied domain makes
// its own per translation and translates the same.

#include "../../../core/src/rows/row_plan.h"

#include <string>
#include <utility>
#include <vector>

#include "../support.h"
#include "alfred/rows/row_translation.h"

namespace alfred::test {

TEST_CASE("a parsed domain has the plan of each of its tables, and none for another domain's") {
  const domain& dom = kitchen();
  for (const table& tbl : dom.tables) {
    const detail::table_plan* plan = dom.row_plans.find(dom, tbl);
    REQUIRE(plan != nullptr);
    CHECK(plan->tbl == &tbl);
  }
  const domain& other = crm_pulled();
  CHECK(dom.row_plans.find(dom, other.tables.front()) == nullptr);
  CHECK(other.row_plans.find(other, other.tables.front()) != nullptr);
}

TEST_CASE("a copied domain has no plans and translates as the original, and a moved one keeps them") {
  const domain& dom = kitchen();
  domain copy = dom;
  for (const table& tbl : copy.tables) CHECK(copy.row_plans.find(copy, tbl) == nullptr);
  // The original's plans are not taken for the copy's tables.
  CHECK(dom.row_plans.find(dom, copy.tables.front()) == nullptr);

  const std::string rows = R"j([{"id":"5b0c6f3e-2a1d-4c8e-9f7a-3d2e1c0b9a88","name":"Dal","cuisine":"indian"}])j";
  ref_registry from_original;
  ref_registry from_copy;
  auto original_text = translate_rows(dom, from_original, *dom.find_table("recipes"), rows, ref_action::read);
  auto copy_text = translate_rows(copy, from_copy, *copy.find_table("recipes"), rows, ref_action::read);
  REQUIRE(original_text.ok());
  REQUIRE(copy_text.ok());
  CHECK(*copy_text == *original_text);

  const domain moved = std::move(copy);
  for (const table& tbl : moved.tables) CHECK(moved.row_plans.find(moved, tbl) == nullptr);
  domain fresh = dom;
  fresh.row_plans.make(fresh);
  const domain kept = std::move(fresh);
  for (const table& tbl : kept.tables) CHECK(kept.row_plans.find(kept, tbl) != nullptr);
}

TEST_CASE("a plan's compiled label renders from the row's label values") {
  const domain& dom = kitchen();
  const detail::table_plan* meals = dom.row_plans.find(dom, *dom.find_table("meal_plans"));
  REQUIRE(meals != nullptr);
  REQUIRE(meals->label.names == std::vector<std::string>{"date", "meal_type"});
  std::string scratch;
  CHECK(detail::render_label(meals->label, {"2026-01-05", "lunch"}, scratch) == "Jan 05 [lunch]");
  // A format value missing: the first label column that has one.
  CHECK(detail::render_label(meals->label, {"2026-01-05", ""}, scratch) == "2026-01-05");
  CHECK(detail::render_label(meals->label, {"", ""}, scratch).empty());
  const detail::table_plan* recipes = dom.row_plans.find(dom, *dom.find_table("recipes"));
  REQUIRE(recipes != nullptr);
  CHECK(detail::render_label(recipes->label, {"Dal"}, scratch) == "Dal");
}

// A format that never completes (a placeholder without a name, an unclosed
// brace) falls back to the label columns for every row; one that completes
// is used when all of its values are there.
TEST_CASE("a label format that never completes falls back to the label columns") {
  struct expected {
    const char* format;
    const char* full;        // {"title":"Groceries","kind":"list"}
    const char* title_only;  // {"title":"Groceries"}
  };
  for (const expected& e :
       {expected{"{title}-{}", "Groceries", "Groceries"}, expected{"x{}", "Groceries", "Groceries"},
        expected{"{|mon_day} {title}", "Groceries", "Groceries"}, expected{"{title", "Groceries", "Groceries"},
        expected{"a{title}b{", "Groceries", "Groceries"},
        expected{"{title} [{kind}]", "Groceries [list]", "Groceries"}}) {
    CAPTURE(e.format);
    auto dom =
        parse_domain(std::string(R"({"tables":{"notes":{"ref":"note","label":["title"],"label_format":")") + e.format +
                     R"(","columns":{"id":{"type":"uuid"},"title":{"type":"text"},"kind":{"type":"text"}}}}})");
    REQUIRE(dom.ok());
    const table& notes = *dom->find_table("notes");
    const auto label_of = [&](const char* row) {
      auto doc = json_document::parse(row);
      REQUIRE(doc.ok());
      return row_label(notes, doc->root());
    };
    CHECK(label_of(R"({"title":"Groceries","kind":"list"})") == e.full);
    CHECK(label_of(R"({"title":"Groceries"})") == e.title_only);
    CHECK(label_of(R"({})").empty());
    // The translator renders the same from the plan's compiled label.
    const detail::table_plan* plan = dom->row_plans.find(*dom, notes);
    REQUIRE(plan != nullptr);
    std::vector<std::string_view> values(plan->label.names.size());
    for (std::size_t i = 0; i < values.size(); ++i)
      values[i] = plan->label.names[i] == "title" ? "Groceries" : plan->label.names[i] == "kind" ? "list" : "";
    std::string scratch;
    CHECK(std::string(detail::render_label(plan->label, values, scratch)) == e.full);
  }
}

}  // namespace alfred::test
