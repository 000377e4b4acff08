// The templates teach the real contract, with examples from the domain in
// use: every example of an assembled prompt uses tables and columns that
// domain has, every section a template names is in the prompt of each step
// type that uses it, no example carries a UUID, and a domain other than the
// kitchen (the CRM pack as `alfred-act domain pull` wrote it, every example
// derived from its tables) gets no kitchen word at all.
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <regex>
#include <set>
#include <string>

#include "../prompt_support.h"
#include "alfred/domain/prompt_examples.h"
#include "alfred/prompt/decision.h"
#include "alfred/prompt/prompt.h"
#include "alfred/tool_call/tool_call.h"

namespace alfred::test {
namespace {

constexpr step_type kStepTypes[] = {step_type::read, step_type::write, step_type::analyze, step_type::generate};

bool is_column_anywhere(const domain& dom, const std::string& name) {
  for (const table& tbl : dom.tables)
    if (tbl.find_column(name) || tbl.find_relation(name)) return true;
  return false;
}

bool is_ref_of(const domain& dom, std::string key) {
  if (key.rfind("gen_", 0) == 0) key = key.substr(4);
  const auto underscore = key.rfind('_');
  if (underscore == std::string::npos || underscore + 1 == key.size()) return false;
  if (!std::all_of(key.begin() + long(underscore) + 1, key.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return false;
  return dom.find_table_by_prefix(key.substr(0, underscore)) != nullptr;
}

// Keys of the ActDecision and of tool params, and the keys analyze examples
// give their result; everything else in a JSON example is a column, a table
// (generated content is grouped by table) or a ref.
const std::set<std::string> kProtocolKeys = {
    "action",     "tool",        "params",  "summary",        "data",     "note_for_next_step",
    "question",   "reason_code", "details", "suggested_next", "table",    "filters",
    "or_filters", "columns",     "limit",   "offset",         "order_by", "order_dir",
    "field",      "op",          "value",   "cookable",       "missing",  "matching",
    "other",      "fn"};

std::string system_prompt_of(const domain& dom, step_type type) {
  auto prompt =
      build_act_prompt(dom, ref_registry(), R"({"step":{"type":")" + std::string(step_type_name(type)) + R"("}})");
  REQUIRE(prompt.ok());
  return prompt->system;
}

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return text;
}

// Every template placeholder, in the embedded templates.
std::set<std::string> placeholders() {
  static const std::regex slot(R"(\{\{([a-z_]+)\}\})");
  std::set<std::string> out;
  for (auto name : embedded_template_names()) {
    const std::string text(*embedded_template(name));
    for (auto it = std::sregex_iterator(text.begin(), text.end(), slot); it != std::sregex_iterator(); ++it)
      out.insert((*it)[1]);
  }
  return out;
}

std::vector<std::string> used_by(step_type type) {
  std::vector<std::string> names = {"act/base", "act/" + std::string(step_type_name(type))};
  if (step_calls_tools(type)) names.push_back("act/crud");
  return names;
}

}  // namespace

TEST_CASE("set_prompt_templates: texts by name replace the templates, act/crud gets its operator table") {
  // The templates as they are, to put back.
  std::string original;
  json_writer w(original);
  w.begin_object();
  for (auto name : embedded_template_names()) {
    w.key(name);
    w.string(*embedded_template(name));
  }
  w.end_object();
  // Copies: the views point into the templates, which setting replaces.
  auto names_now = [] {
    std::vector<std::string> out;
    for (auto name : embedded_template_names()) out.emplace_back(name);
    return out;
  };
  const auto names = names_now();
  REQUIRE(names.size() >= 7);

  for (const char* bad : {"[]", "{", R"({"act/base": 1})", R"({"": "x"})"}) {
    CAPTURE(bad);
    auto refused = set_prompt_templates(bad);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.err().code == codes::invalid_option);
    CHECK(names_now() == names);  // as they were
  }
  REQUIRE(set_prompt_templates(R"({"act/crud": "ops:\n{{filter_op_table}}\nend", "act/base": "base"})").ok());
  CHECK(names_now() == std::vector<std::string>{"act/base", "act/crud"});
  CHECK(*embedded_template("act/base") == "base");
  const std::string crud(*embedded_template("act/crud"));
  CHECK(crud.find("{{filter_op_table}}") == std::string::npos);
  CHECK(crud.find("| `=`") != std::string::npos);
  CHECK_FALSE(embedded_template("act/read"));

  // With none, a prompt is an error, not a system prompt without its text.
  REQUIRE(set_prompt_templates("{}").ok());
  auto none = build_act_prompt(kitchen(), ref_registry(), R"({"step":{"type":"read"}})");
  REQUIRE_FALSE(none.ok());
  CHECK(none.err().code == codes::unknown_template);

  // The text given back is the text written in (the table once, in place).
  REQUIRE(set_prompt_templates(original).ok());
  CHECK(names_now() == names);
  for (const auto& name : names) CHECK(embedded_template(name)->find("{{filter_op_table}}") == std::string::npos);
}

TEST_CASE("templates: every placeholder is a slot, and every slot but the loop's own is used") {
  std::set<std::string> slots;
  for (const auto& slot : prompt_example_slots()) slots.insert(std::string(slot.name));
  std::set<std::string> used = placeholders();
  for (const auto& name : used) CHECK_MESSAGE(slots.count(name), name);
  used.insert({"assistant_role", "planner_generate_example"});  // the JS planner and reply prompts
  CHECK(used == slots);
}

TEST_CASE("assembled prompts: every field, table and example key exists in the domain in use") {
  static const std::regex field(R"re("field": "([a-z_]+)")re");
  static const std::regex tbl(R"re("table": "([a-z_]+)")re");
  static const std::regex key(R"re(\\?"([a-z_0-9]+)\\?": )re");
  const domain crm = load_pack("crm");
  for (const domain* dom : {&kitchen(), &crm_pulled(), &crm}) {
    CAPTURE(dom->name);
    for (step_type type : kStepTypes) {
      CAPTURE(step_type_name(type));
      const std::string text = system_prompt_of(*dom, type);
      for (auto it = std::sregex_iterator(text.begin(), text.end(), field); it != std::sregex_iterator(); ++it) {
        const std::string column = (*it)[1];
        CAPTURE(column);
        CHECK((column == "_semantic" || is_column_anywhere(*dom, column)));
      }
      for (auto it = std::sregex_iterator(text.begin(), text.end(), tbl); it != std::sregex_iterator(); ++it)
        CHECK_MESSAGE(dom->find_table(std::string((*it)[1])) != nullptr, (*it)[1]);
      for (auto it = std::sregex_iterator(text.begin(), text.end(), key); it != std::sregex_iterator(); ++it) {
        const std::string k = (*it)[1];
        CAPTURE(k);
        CHECK((kProtocolKeys.count(k) || is_column_anywhere(*dom, k) || dom->find_table(k) || is_ref_of(*dom, k)));
      }
      CHECK(first_uuid_in(text).empty());
      CHECK(text.find("{{") == std::string::npos);
    }
  }
}

TEST_CASE("CRM prompts: no kitchen word in any step type's assembled prompt, system or user") {
  const char* kKitchenWords[] = {"recipe", "inventory", "ingredient", "pantry",  "fridge", "freezer",
                                 "meal",   "kitchen",   "cook",       "chicken", "basil",  "shopping",
                                 "grocer", "allerg",    "inv_",       "ri_",     "shop_"};
  const domain crm = load_pack("crm");
  for (const domain* dom : {&crm_pulled(), &crm}) {
    for (step_type type : kStepTypes) {
      CAPTURE(step_type_name(type));
      auto prompt = build_act_prompt(*dom, ref_registry(),
                                     R"({"step":{"type":")" + std::string(step_type_name(type)) +
                                         R"(","description":"Find the open deals","index":0,"total":1},)"
                                         R"("user_message":"Which deals close this month?","today":"2026-02-09"})");
      REQUIRE(prompt.ok());
      const std::string text = lower(prompt->system + prompt->user);
      for (const char* word : kKitchenWords) CHECK_MESSAGE(text.find(word) == std::string::npos, word);
    }
    const auto reply = domain_template(*dom, "reply/executed-queries");
    REQUIRE(reply);
    for (const char* word : kKitchenWords) CHECK_MESSAGE(lower(*reply).find(word) == std::string::npos, word);
  }
}

TEST_CASE("derived examples: the decisions they show are valid calls of their domain") {
  for (const domain* dom : {&crm_pulled(), &kitchen()}) {
    CAPTURE(dom->name);
    for (const char* slot : {"read_call", "create_call"}) {
      CAPTURE(slot);
      auto decision = parse_decision(derived_prompt_example(*dom, slot));
      REQUIRE(decision.ok());
      CHECK(parse_tool_call(*dom, ref_registry(), decision->tool, decision->params_json).ok());
    }
  }
}

TEST_CASE("derived examples for the pulled CRM: its tables, prefixes, enum values and relation") {
  const domain& dom = crm_pulled();
  CHECK(derived_prompt_example(dom, "ref_examples") == "`act_1`, `contact_4`, `deal_12`, `org_3`");
  CHECK(derived_prompt_example(dom, "gen_ref") == "gen_org_1");
  CHECK(derived_prompt_example(dom, "op_eq") == R"(`{"field": "stage", "op": "=", "value": "lead"}`)");
  CHECK(derived_prompt_example(dom, "op_contains") ==
        R"(`{"field": "preferred_channels", "op": "contains", "value": ["email"]}`)");
  CHECK(derived_prompt_example(dom, "query_example") ==
        "Query: Table: deals | Filters: stage = lead | Limit: 100\nOutcome: 0 records found");
  CHECK(derived_prompt_example(dom, "save_generated_steps") ==
        "1. Create the main row with `\"id\": \"gen_org_1\"` in it. That marks which artifact the row saves;\n"
        "   copy the artifact's columns as they are. Nested lists (`deals`) are not columns:\n"
        "   they are saved in step 2.\n"
        "   `{\"id\": \"gen_org_1\", \"name\": \"New organization\"}`\n"
        "2. Then create the linked rows in one batch, pointing at the saved parent by the same `gen_` ref:\n"
        "   `[{\"organization_id\": \"gen_org_1\", \"title\": \"First deal\"}, {\"organization_id\": \"gen_org_1\", "
        "\"title\": \"Second deal\"}]`\n"
        "   on `deals`.");
  // No semantic search in the CRM: the operator row and the read pattern are left out.
  CHECK(derived_prompt_example(dom, "op_similar_row").empty());
  CHECK(system_prompt_of(dom, step_type::read).find("similar") == std::string::npos);
}

TEST_CASE("fill_examples: placeholders replaced, a line holding only an empty one dropped, unknown ones kept") {
  const example_texts examples = {{"a", "x"}, {"empty", ""}};
  CHECK(fill_examples("1 {{a}} 2\n{{empty}}\n3 {{empty}}.\n{{nope}}", examples) == "1 x 2\n3 .\n{{nope}}");
  CHECK(fill_examples("{{a}}{{a}}", examples) == "xx");
  CHECK(fill_examples("{{empty}}", examples).empty());
  CHECK(fill_examples("open {{ and }} close", examples) == "open {{ and }} close");
}

TEST_CASE("templates: every section a template names is in the prompt of each step type that uses it") {
  const ref_registry empty;
  for (step_type type : kStepTypes) {
    const std::string type_name(step_type_name(type));
    CAPTURE(type_name);
    // Minimal input: only the sections that are always there.
    const auto user = build_prompt(empty, R"({"step":{"type":")" + type_name + R"("}})").user;
    for (const std::string& name : used_by(type)) {
      CAPTURE(name);
      const std::string text(*embedded_template(name));
      for (prompt_section section : kPromptSections)
        for (step_type any : kStepTypes) {
          const std::string title(prompt_section_title(section, any));
          if (text.find("**" + title + "**") == std::string::npos) continue;
          CAPTURE(title);
          CHECK(user.find(". " + title + "\n") != std::string::npos);
        }
    }
  }
}

TEST_CASE("templates: the contract points are taught (kitchen prompts)") {
  const std::string base = system_prompt_of(kitchen(), step_type::analyze);
  const std::string crud = system_prompt_of(kitchen(), step_type::read);
  const std::string& read = crud;
  const std::string write = system_prompt_of(kitchen(), step_type::write);
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

TEST_CASE("templates: the contract points are taught with a derived domain's own refs (pulled CRM)") {
  const std::string crud = system_prompt_of(crm_pulled(), step_type::read);
  const std::string write = system_prompt_of(crm_pulled(), step_type::write);
  for (const char* op : {"`=`", "`!=`", "`>`", "`in`", "`not_in`", "`like`", "`ilike`", "`not_like`", "`not_ilike`",
                         "`is_null`", "`is_not_null`", "`contains`", "`contained_by`", "`overlaps`"})
    CHECK_MESSAGE(crud.find(std::string("| ") + op) != std::string::npos, op);
  CHECK(crud.find(R"("op": "not_in", "value": ["org_1", "org_2", "org_7"])") != std::string::npos);
  CHECK(crud.find(R"("op": "in", "value": ["org_3", "org_4", "org_8"])") != std::string::npos);
  CHECK(write.find(R"("id": "gen_org_1")") != std::string::npos);
  CHECK(write.find(R"("organization_id": "gen_org_1")") != std::string::npos);
}

}  // namespace alfred::test
