// The templates teach the real contract: every example uses tables and
// columns the schema has, every section they name is in the prompt of each
// step type they are used for, and no example carries a UUID.
#include <doctest/doctest.h>

#include <regex>
#include <set>
#include <string>

#include "alfred/prompt.h"
#include "prompt_support.h"

namespace alfred::test {
namespace {

bool is_column_anywhere(const std::string& name) {
  for (const table& tbl : kitchen().tables)
    if (tbl.find_column(name) || tbl.find_relation(name)) return true;
  return false;
}

// Keys of the ActDecision and of tool params; everything else in a JSON
// example is a column.
const std::set<std::string> kProtocolKeys = {
    "action",     "tool",        "params",  "summary",        "data",         "note_for_next_step",
    "question",   "reason_code", "details", "suggested_next", "table",        "filters",
    "or_filters", "columns",     "limit",   "offset",         "order_by",     "order_dir",
    "field",      "op",          "value",   "recipes",        "gen_recipe_1", "cookable",
    "missing",    "recipe_1",    "recipe_3"};

std::vector<std::string> used_by(step_type type) {
  std::vector<std::string> names = {"act/base", "act/" + std::string(step_type_name(type))};
  if (step_calls_tools(type)) names.push_back("act/crud");
  return names;
}

}  // namespace

TEST_CASE("templates: every field, table and example key exists in the kitchen schema") {
  static const std::regex field(R"re("field": "([a-z_]+)")re");
  static const std::regex tbl(R"re("table": "([a-z_]+)")re");
  static const std::regex key(R"re(\\?"([a-z_0-9]+)\\?": )re");
  for (auto name : embedded_template_names()) {
    if (name.rfind("act/", 0) != 0 || name == "act/decision.schema") continue;
    CAPTURE(name);
    const std::string text(*embedded_template(name));
    for (auto it = std::sregex_iterator(text.begin(), text.end(), field); it != std::sregex_iterator(); ++it) {
      const std::string column = (*it)[1];
      CAPTURE(column);
      CHECK((column == "_semantic" || is_column_anywhere(column)));
    }
    for (auto it = std::sregex_iterator(text.begin(), text.end(), tbl); it != std::sregex_iterator(); ++it)
      CHECK_MESSAGE(kitchen().find_table(std::string((*it)[1])) != nullptr, (*it)[1]);
    for (auto it = std::sregex_iterator(text.begin(), text.end(), key); it != std::sregex_iterator(); ++it) {
      const std::string k = (*it)[1];
      CAPTURE(k);
      CHECK((kProtocolKeys.count(k) || is_column_anywhere(k)));
    }
    CHECK(first_uuid_in(text).empty());
  }
}

TEST_CASE("templates: every section a template names is in the prompt of each step type that uses it") {
  const kitchen_session session;
  const ref_registry empty;
  for (step_type type : {step_type::read, step_type::write, step_type::analyze, step_type::generate}) {
    const std::string type_name(step_type_name(type));
    CAPTURE(type_name);
    // Minimal input: only the sections that are always there.
    const auto user = build_prompt(empty, R"({"step":{"type":")" + type_name + R"("}})").user;
    for (const std::string& name : used_by(type)) {
      CAPTURE(name);
      const std::string text(*embedded_template(name));
      for (prompt_section section : kPromptSections)
        for (step_type any : {step_type::read, step_type::write, step_type::analyze, step_type::generate}) {
          const std::string title(prompt_section_title(section, any));
          if (text.find("**" + title + "**") == std::string::npos) continue;
          CAPTURE(title);
          CHECK(user.find(". " + title + "\n") != std::string::npos);
        }
    }
  }
}

TEST_CASE("templates: the contract points are taught") {
  const std::string base(*embedded_template("act/base"));
  const std::string crud(*embedded_template("act/crud"));
  const std::string read(*embedded_template("act/read"));
  const std::string write(*embedded_template("act/write"));
  CHECK(base.find("Use refs **exactly as shown**") != std::string::npos);
  CHECK(base.find("Never invent a ref") != std::string::npos);
  // Every operator of the core, each with an example row in the table.
  for (const char* op : {"`=`", "`!=`", "`>`", "`in`", "`not_in`", "`like`", "`ilike`", "`not_like`", "`not_ilike`",
                         "`is_null`", "`is_not_null`", "`contains`", "`contained_by`", "`overlaps`", "`similar`"})
    CHECK_MESSAGE(crud.find(std::string("| ") + op) != std::string::npos, op);
  // Exclusions the right way: not_in with several refs, positive in, or analyze.
  CHECK(crud.find(R"("op": "not_in", "value": ["recipe_1", "recipe_2", "recipe_7"])") != std::string::npos);
  CHECK(crud.find(R"("op": "in", "value": ["recipe_3", "recipe_4", "recipe_8"])") != std::string::npos);
  CHECK(crud.find("let\n   the analyze step filter it") != std::string::npos);
  CHECK(crud.find("not again by name") != std::string::npos);
  CHECK(read.find("**By ref**") != std::string::npos);
  CHECK(write.find(R"("id": "gen_recipe_1")") != std::string::npos);
  CHECK(write.find(R"("recipe_id": "gen_recipe_1")") != std::string::npos);
}

}  // namespace alfred::test
