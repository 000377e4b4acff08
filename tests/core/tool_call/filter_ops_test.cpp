// The filter op table (filter_ops.h): its invariants, and a walk over every
// row and every spelling through validation, both PostgREST encoders
// (top-level filters and `or=` conditions), the query record and its
// rendering, the tool schemas, the Act decision schema and the prompt's
// operator table. A row added without its expected encoding below, or whose
// encoding, rendering or prompt line is missing, fails here.

#include "alfred/tool_call/filter_ops.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "../../../core/src/executor/query_record.h"
#include "../request_text.h"
#include "../support.h"
#include "alfred/domain/prompt_examples.h"
#include "alfred/prompt/decision.h"
#include "alfred/prompt/prompt.h"
#include "alfred/prompt/prompt_query.h"
#include "alfred/prompt/tool_schema.h"
#include "alfred/tool_call/tool_call.h"
#include "alfred_prompt_templates.h"

namespace alfred::test {
namespace {

// What one op does with a sample filter, written out by hand: the decoded
// top-level parameter, the condition inside `or=(…)` and the query line.
struct op_sample {
  std::string_view name;
  std::string_view table;
  std::string_view field;
  std::string_view value;  // JSON; "" for none
  std::string_view parameter;
  std::string_view condition;
  std::string_view line;
};

constexpr op_sample kSamples[] = {
    {"=", "inventory", "location", R"("fridge")", "location=eq.fridge", "location.eq.fridge", "location = fridge"},
    {"!=", "inventory", "location", R"("fridge")", "location=neq.fridge", "location.neq.fridge", "location != fridge"},
    {">", "inventory", "quantity", "2", "quantity=gt.2", "quantity.gt.2", "quantity > 2"},
    {">=", "inventory", "quantity", "2", "quantity=gte.2", "quantity.gte.2", "quantity >= 2"},
    {"<", "inventory", "quantity", "2", "quantity=lt.2", "quantity.lt.2", "quantity < 2"},
    {"<=", "inventory", "quantity", "2", "quantity=lte.2", "quantity.lte.2", "quantity <= 2"},
    {"in", "inventory", "location", R"(["fridge", "pantry"])", "location=in.(fridge,pantry)",
     "location.in.(fridge,pantry)", "location in [fridge, pantry]"},
    {"not_in", "inventory", "location", R"(["fridge", "pantry"])", "location=not.in.(fridge,pantry)",
     "location.not.in.(fridge,pantry)", "location not_in [fridge, pantry]"},
    {"like", "inventory", "name", R"("mi%")", "name=like.mi%", "name.like.mi%", "name like mi%"},
    {"ilike", "inventory", "name", R"("%milk%")", "name=ilike.%milk%", "name.ilike.%milk%", "name ilike %milk%"},
    {"not_like", "inventory", "name", R"("%old%")", "name=not.like.%old%", "name.not.like.%old%",
     "name not_like %old%"},
    {"not_ilike", "inventory", "name", R"("%old%")", "name=not.ilike.%old%", "name.not.ilike.%old%",
     "name not_ilike %old%"},
    {"is_null", "inventory", "expiry_date", "", "expiry_date=is.null", "expiry_date.is.null", "expiry_date is_null"},
    {"is_not_null", "inventory", "expiry_date", "", "expiry_date=not.is.null", "expiry_date.not.is.null",
     "expiry_date is_not_null"},
    {"contains", "recipes", "tags", R"(["quick"])", "tags=cs.{quick}", R"(tags.cs."{quick}")", "tags contains [quick]"},
    {"contained_by", "recipes", "tags", R"(["quick", "vegan"])", "tags=cd.{quick,vegan}", R"(tags.cd."{quick,vegan}")",
     "tags contained_by [quick, vegan]"},
    {"overlaps", "recipes", "tags", R"(["quick", "vegan"])", "tags=ov.{quick,vegan}", R"(tags.ov."{quick,vegan}")",
     "tags overlaps [quick, vegan]"},
    {"search", "inventory", "name", R"("oat milk")", "name=wfts.oat milk", "name.wfts.oat milk",
     "name search oat milk"},
    {"not_search", "inventory", "name", R"("oat milk")", "name=not.wfts.oat milk", "name.not.wfts.oat milk",
     "name not_search oat milk"},
    // Not a filter on the wire: the executor embeds the text and calls the search function.
    {"similar", "recipes", "_semantic", R"("light dinner")", "", "", "_semantic similar light dinner"},
};

const op_sample* sample_of(std::string_view name) {
  for (const auto& sample : kSamples)
    if (sample.name == name) return &sample;
  return nullptr;
}

std::string filter_json(const op_sample& sample, std::string_view op) {
  std::string out = R"({"field": ")" + std::string(sample.field) + R"(", "op": )" + json_quote(op);
  if (!sample.value.empty()) out += R"(, "value": )" + std::string(sample.value);
  return out + "}";
}

std::string read_params(const op_sample& sample, std::string_view op, std::string_view key) {
  return R"({"table": ")" + std::string(sample.table) + R"(", ")" + std::string(key) + R"(": [)" +
         filter_json(sample, op) + "]}";
}

// The decoded query parameters after `select` and the owner scope.
std::vector<std::string> filter_parameters(const http_request& req) {
  std::vector<std::string> out;
  for (const auto& [key, value] : decoded_query(req.url))
    if (key != "select" && key != "user_id") out.push_back(key + "=" + value);
  return out;
}

// Every spelling of a row, and each shouted with spaces around it.
std::vector<std::string> spellings_of(const filter_op_rule& rule) {
  std::vector<std::string> out{std::string(rule.name)};
  for (std::string_view alias : rule.aliases)
    if (!alias.empty()) out.emplace_back(alias);
  const std::size_t given = out.size();
  for (std::size_t i = 0; i < given; ++i) {
    std::string loud = out[i];
    std::transform(loud.begin(), loud.end(), loud.begin(), [](unsigned char c) { return char(std::toupper(c)); });
    out.push_back(" " + loud + "\t");
  }
  return out;
}

// Each `op` enum of the filter objects in a JSON Schema.
std::vector<std::vector<std::string>> op_enums(std::string_view schema_json) {
  auto doc = json_document::parse(schema_json);
  REQUIRE(doc.ok());
  std::vector<std::vector<std::string>> out;
  std::function<void(json_value)> walk = [&](json_value node) {
    if (node.is_object()) {
      if (auto op = node.find("op"); op && op->is_object())
        if (auto values = op->find("enum")) {
          out.emplace_back();
          values->for_each_element([&](std::size_t, json_value v) { out.back().emplace_back(v.str()); });
        }
      node.for_each_member([&](std::string_view, json_value child) { walk(child); });
    } else if (node.is_array()) {
      node.for_each_element([&](std::size_t, json_value child) { walk(child); });
    }
  };
  walk(doc->root());
  return out;
}

std::vector<std::string> canonical_names(bool with_read_only) {
  std::vector<std::string> out;
  for (const auto& rule : filter_op_rules())
    if (with_read_only || !read_filters_only(rule.shape)) out.emplace_back(rule.name);
  return out;
}

// The line a read renders for `call`: "read recipes (filters: …): 1 record".
std::string rendered_line(const tool_call& call, std::string_view table) {
  const std::string record = R"({"tool": "db_read", "table": ")" + std::string(table) + R"(", "requested": )" +
                             detail::call_params_json(sample_registry(), call) +
                             R"(, "source": "database", "count": 1})";
  auto line = render_query(std::string_view(record), query_style::line);
  REQUIRE(line.ok());
  return *line;
}

std::string system_prompt_for(step_type type) {
  auto prompt = build_act_prompt(kitchen(), ref_registry(),
                                 R"({"step":{"type":")" + std::string(step_type_name(type)) + R"("}})");
  REQUIRE(prompt.ok());
  return prompt->system;
}

}  // namespace

TEST_CASE("filter op table: one row per op in enum order, spellings unique, lines and opposites consistent") {
  const auto rules = filter_op_rules();
  std::set<std::string> spellings;
  for (std::size_t i = 0; i < rules.size(); ++i) {
    const filter_op_rule& rule = rules[i];
    CAPTURE(rule.name);
    CHECK(static_cast<std::size_t>(rule.op) == i);
    CHECK(&filter_op_rule_of(rule.op) == &rule);
    CHECK(filter_op_name(rule.op) == rule.name);
    CHECK(find_filter_op(rule.name) == &rule);
    CHECK(spellings.insert(std::string(rule.name)).second);
    for (std::string_view alias : rule.aliases) {
      if (alias.empty()) continue;
      CAPTURE(alias);
      CHECK(spellings.insert(std::string(alias)).second);
      CHECK(std::none_of(alias.begin(), alias.end(), [](unsigned char c) { return std::isupper(c); }));
      CHECK(alias.front() != ' ');
      CHECK(alias.back() != ' ');
      CHECK(find_filter_op(alias) == nullptr);  // records carry canonical names only
    }
    // A pair of opposites is two null tests of opposite polarity.
    const filter_op_rule& opposite = filter_op_rule_of(rule.opposite);
    CHECK(opposite.opposite == rule.op);
    if (rule.opposite != rule.op) {
      CHECK(rule.shape == value_shape::none);
      CHECK(opposite.shape == value_shape::none);
      CHECK((rule.negation == op_negation::none) != (opposite.negation == op_negation::none));
    }
    CHECK(rule.postgrest.empty() == (rule.shape == value_shape::search_text));
    if (rule.shape == value_shape::pattern) CHECK((rule.postgrest == "like" || rule.postgrest == "ilike"));
    // Rows sharing a prompt line are neighbours and say the same.
    CHECK_FALSE(rule.example_slot.empty());
    for (std::size_t j = 0; j + 1 < i; ++j)
      if (rules[j].example_slot == rule.example_slot) CHECK(rules[j + 1].example_slot == rule.example_slot);
    if (i && rules[i - 1].example_slot == rule.example_slot) {
      CHECK(rules[i - 1].meaning == rule.meaning);
    }
  }
  CHECK(filter_op_list() ==
        "=, !=, >, >=, <, <=, in, not_in, like, ilike, not_like, not_ilike, is_null, is_not_null, contains, "
        "contained_by, overlaps, search, not_search, similar");
  CHECK(filter_op_names(takes_elements, "or") == "contains, contained_by or overlaps");
  CHECK_FALSE(parse_filter_op("not  in"));
  CHECK_FALSE(parse_filter_op("  "));
  CHECK_FALSE(parse_filter_op(""));
  CHECK_FALSE(parse_filter_op("excludes"));
}

TEST_CASE("filter op table: every spelling of every op validates, encodes as its row says, renders") {
  for (const filter_op_rule& rule : filter_op_rules()) {
    CAPTURE(rule.name);
    const op_sample* sample = sample_of(rule.name);
    REQUIRE_MESSAGE(sample != nullptr, "add the op's expected encoding to kSamples");
    for (const std::string& spelling : spellings_of(rule)) {
      CAPTURE(spelling);
      REQUIRE(parse_filter_op(spelling) == rule.op);
      const std::string params = read_params(*sample, spelling, "filters");
      auto call = parse_tool_call(kitchen(), sample_registry(), "db_read", params);
      if (!call) FAIL(error_text(call.err()));
      REQUIRE(call->filters.size() == 1);
      CHECK(call->filters[0].op == rule.op);

      // Top-level filters: `col=[not.]op.value` from the row.
      auto req = build("db_read", params);
      if (read_filters_only(rule.shape)) {
        REQUIRE_FALSE(req.ok());
        CHECK(req.err().code == "requires_executor");
      } else {
        if (!req) FAIL(error_text(req.err()));
        const std::vector<std::string> parameters = filter_parameters(*req);
        REQUIRE(parameters.size() == 1);
        CHECK(parameters[0] == sample->parameter);
        const std::string prefix = rule.negation == op_negation::prefix ? "not." : "";
        CHECK(parameters[0].rfind(std::string(sample->field) + "=" + prefix + std::string(rule.postgrest) + ".", 0) ==
              0);
      }

      // Conditions inside or=(…): `col.[not.]op.value`.
      const std::string or_params = read_params(*sample, spelling, "or_filters");
      auto or_req = build("db_read", or_params);
      if (read_filters_only(rule.shape)) {
        REQUIRE_FALSE(or_req.ok());
        CHECK(or_req.err().code == "invalid_filter");
      } else {
        if (!or_req) FAIL(error_text(or_req.err()));
        CHECK(query_value(*or_req, "or") == "(" + std::string(sample->condition) + ")");
        const std::string prefix = rule.negation == op_negation::prefix ? "not." : "";
        CHECK(std::string(sample->condition)
                  .rfind(std::string(sample->field) + "." + prefix + std::string(rule.postgrest) + ".", 0) == 0);
      }

      // The query record names the canonical op; its line shows the value
      // as the shape says (none, a list, or one value).
      const std::string line = rendered_line(*call, sample->table);
      CHECK(line == "read " + std::string(sample->table) + " (filters: " + std::string(sample->line) + "): 1 record");
      const std::string after_op = std::string(sample->line).substr(sample->field.size() + 1 + rule.name.size());
      if (takes_no_value(rule.shape))
        CHECK(after_op.empty());
      else
        CHECK(after_op.rfind(takes_list(rule.shape) ? " [" : " ", 0) == 0);
    }
  }
}

TEST_CASE("filter op table: writes need a narrowing filter, as each row's narrowing says") {
  for (const filter_op_rule& rule : filter_op_rules()) {
    CAPTURE(rule.name);
    const op_sample& sample = *sample_of(rule.name);
    const std::string params =
        R"({"table": ")" + std::string(sample.table) + R"(", "filters": [)" + filter_json(sample, rule.name) + "]}";
    auto del = build("db_delete", params);
    if (read_filters_only(rule.shape)) {
      REQUIRE_FALSE(del.ok());
      CHECK(del.err().code == "invalid_filter");
      continue;
    }
    if (!del) FAIL(error_text(del.err()));  // every sample selects rows
    CHECK(filter_parameters(*del) == std::vector<std::string>{std::string(sample.parameter)});
    // The same op where it selects every row of the user's.
    std::string everything;
    switch (rule.narrowing) {
      case write_narrowing::always:
        continue;
      case write_narrowing::if_nullable:  // `id` is NOT NULL
        everything = R"({"field": "id", "op": ")" + std::string(rule.name) + R"("})";
        break;
      case write_narrowing::if_excludes_value:
        everything = R"({"field": "id", "op": ")" + std::string(rule.name) + R"(", "value": )" +
                     (rule.shape == value_shape::list ? "[null]" : "null") + "}";
        break;
      case write_narrowing::if_pattern_selective:
        everything = R"({"field": "name", "op": ")" + std::string(rule.name) + R"(", "value": "%*%"})";
        break;
    }
    CAPTURE(everything);
    const error err = build_error("db_delete", R"({"table": "inventory", "filters": [)" + everything + "]}");
    CHECK(err.code == "missing_filter");
  }
}

TEST_CASE("filter op table: the tool schemas, the decision schema and the prompt list every op") {
  // Tool schemas: every op for db_read, all but read-only ones for writes.
  for (bool strict : {false, true}) {
    CAPTURE(strict);
    for (tool_kind kind : {tool_kind::read, tool_kind::update, tool_kind::remove}) {
      CAPTURE(tool_name(kind));
      const auto enums = op_enums(tool_parameters_schema(kitchen(), kind, {strict}));
      REQUIRE_FALSE(enums.empty());
      for (const auto& names : enums) CHECK(names == canonical_names(kind == tool_kind::read));
    }
  }
  // The value's description names the ops by shape.
  const std::string schema = tool_parameters_schema(kitchen(), tool_kind::read);
  CHECK(schema.find("a list for " + filter_op_names(takes_list, "and") + ", null for " +
                    filter_op_names(takes_no_value, "and") + ", the search text for _semantic " +
                    filter_op_names(read_filters_only, "and") + ".") != std::string::npos);
  // So does the hint for a scalar compared with an array column.
  const error scalar_on_array =
      build_error("db_read", R"({"table": "recipes", "filters": [{"field": "tags", "op": "=", "value": "x"}]})");
  CHECK(scalar_on_array.message == "tags is text[]; compare it with " + filter_op_names(takes_elements, "or"));
  // The Act decision schema (prompts/act/decision.schema.json) is a file;
  // its filters' enum must follow the table (db_aggregate's `having`
  // compares numbers with an op enum of its own).
  const std::vector<std::string> having_ops{"=", "!=", ">", ">=", "<", "<="};
  auto decision_enums = op_enums(act_decision_schema());
  decision_enums.erase(std::remove(decision_enums.begin(), decision_enums.end(), having_ops), decision_enums.end());
  CHECK(decision_enums == std::vector<std::vector<std::string>>{canonical_names(true)});

  // The prompt's operator table: each op on a table line with its slot's
  // example, and the slot known and derived for the domain.
  const std::string crud = system_prompt_for(step_type::read);
  const std::string write = system_prompt_for(step_type::write);
  for (const filter_op_rule& rule : filter_op_rules()) {
    CAPTURE(rule.name);
    CHECK(is_prompt_example_slot(rule.example_slot));
    const std::string example = derived_prompt_example(kitchen(), rule.example_slot);
    CHECK_FALSE(example.empty());
    const std::string quoted = "`" + std::string(rule.name) + "`";
    for (const std::string* prompt : {&crud, &write}) {
      bool listed = false;
      std::size_t at = 0;
      while (!listed && (at = prompt->find("\n| ", at)) != std::string::npos) {
        const std::size_t end = prompt->find('\n', at + 1);
        const std::string line = prompt->substr(at + 1, end - at - 1);
        listed = line.find(" " + quoted + " ") != std::string::npos && line.back() == '|';
        at = end;
      }
      CHECK_MESSAGE(listed, "no operator table line for " << quoted);
    }
  }
}

TEST_CASE("filter op table: act/crud is the one template that holds it (embedded_template writes in one)") {
  std::vector<std::string_view> holders;
  for (const auto& entry : kPromptTemplates)
    if (entry.text.find("{{filter_op_table}}") != std::string_view::npos) holders.push_back(entry.name);
  CHECK(holders == std::vector<std::string_view>{"act/crud"});
  const std::string crud(*embedded_template("act/crud"));
  CHECK(crud.find("{{filter_op_table}}") == std::string::npos);
  CHECK(crud.find("| `in` | one of a list | {{op_in}} |\n") != std::string::npos);
}

}  // namespace alfred::test
