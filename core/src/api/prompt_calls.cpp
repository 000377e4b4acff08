// The text API's model-facing calls: tool definitions, the Act prompt,
// query rendering, decisions, the schema description and the rules the
// package generates its constants from.

#include <utility>

#include "../executor/db_error.h"
#include "../executor/model_result.h"
#include "../prompt/prompt_sections.h"
#include "alfred/api/api.h"
#include "alfred/json/json.h"
#include "alfred/postgrest/request.h"
#include "alfred/prompt/decision.h"
#include "alfred/prompt/prompt.h"
#include "alfred/prompt/prompt_query.h"
#include "alfred/prompt/prompt_step.h"
#include "alfred/prompt/tool_schema.h"
#include "alfred/tool_call/filter_ops.h"
#include "results.h"

namespace alfred::api {
namespace {

constexpr tool_kind kTools[] = {tool_kind::read,   tool_kind::create, tool_kind::update,
                                tool_kind::remove, tool_kind::call,   tool_kind::aggregate};
constexpr step_type kStepTypes[] = {step_type::read, step_type::write, step_type::analyze, step_type::generate};

}  // namespace

namespace {

std::vector<std::string> name_list(std::string_view text) {
  std::vector<std::string> out;
  while (!text.empty()) {
    const auto comma = text.find(',');
    if (comma != 0) out.emplace_back(text.substr(0, comma));
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return out;
}

}  // namespace

std::string tool_definitions(const domain& dom, bool strict, bool inline_schema, bool reads_only,
                             std::string_view fixed) {
  return guarded([&]() {
    tool_schema_options options{.strict = strict, .inline_schema = inline_schema, .fixed = name_list(fixed)};
    options.reads_only = reads_only;
    return data_result(tool_definitions_json(dom, options));
  });
}

void build_act_prompt(std::string& out, const domain& dom, const ref_registry& reg, std::string_view input_json) {
  guarded_into(out, [&]() {
    auto prompt = alfred::build_act_prompt(dom, reg, input_json);
    if (!prompt) {
      out = error_result(prompt.err());
      return;
    }
    std::string data;
    json_writer w(data);
    w.begin_object();
    w.key("system");
    w.string(prompt->system);
    w.key("user");
    w.string(prompt->user);
    w.end_object();
    out = data_result(data);
  });
}

std::string set_prompt_templates(std::string_view templates_json) {
  return guarded([&]() {
    auto set = alfred::set_prompt_templates(templates_json);
    return set ? std::string(R"({"data":null})") : error_result(set.err());
  });
}

std::string render_query(std::string_view record_json, std::string_view style) {
  return guarded([&]() {
    auto text = alfred::render_query(record_json, style == "line" ? query_style::line : query_style::block);
    return text ? quoted_data(*text) : error_result(text.err());
  });
}

std::string parse_decision(std::string_view text, std::string_view step) {
  return guarded([&]() -> std::string {
    std::optional<step_type> type;
    if (!step.empty()) {
      type = parse_step_type(step);
      if (!type)
        return error_result({codes::invalid_option, "stepType", "'" + std::string(step) + "' is not a step type",
                             "one of: read, write, analyze, generate"});
    }
    auto decision = alfred::parse_decision(text, type);
    return decision ? data_result(decision_to_json(*decision)) : error_result(decision.err());
  });
}

namespace {

// `stepTools`: the tools each step type may call.
void write_step_tools(json_writer& w) {
  w.key("stepTools");
  w.begin_object();
  for (const step_type type : kStepTypes) {
    w.key(step_type_name(type));
    w.begin_array();
    for (const tool_kind tool : kTools)
      if (step_calls_tools(type) && step_allows_tool(type, tool)) w.string(tool_name(tool));
    w.end_array();
  }
  w.end_object();
}

// `filterOps`: the filter ops' names and the other spellings they accept.
void write_filter_ops(json_writer& w) {
  w.key("filterOps");
  w.begin_object();
  w.key("names");
  w.begin_array();
  for (const filter_op_rule& rule : filter_op_rules()) w.string(rule.name);
  w.end_array();
  w.key("aliases");
  w.begin_array();
  for (const filter_op_rule& rule : filter_op_rules())
    for (std::string_view alias : rule.aliases)
      if (!alias.empty()) w.string(alias);
  w.end_array();
  w.end_object();
}

// `names`: what a table or column name may be, and the names refs reserve.
void write_name_rules(json_writer& w) {
  w.key("names");
  w.begin_object();
  w.key("identifier");
  w.begin_object();
  w.key("first");
  w.string(kIdentifierRule.first);
  w.key("rest");
  w.string(kIdentifierRule.rest);
  w.key("maxLength");
  w.integer(static_cast<long long>(kIdentifierRule.max_length));
  w.end_object();
  w.key("reservedColumns");
  w.begin_array();
  for (std::string_view name : postgrest_reserved_names()) w.string(name);
  w.end_array();
  w.key("generatedRefPrefix");
  w.string(kGeneratedRefPrefix);
  w.key("currentUserRef");
  w.string(kCurrentUserRef);
  w.key("usersReference");
  w.string(kUsersReference);
  w.end_object();
}

}  // namespace

namespace {

// `toolEffects`: what each tool may do to the data (effect_of).
void write_tool_effects(json_writer& w) {
  w.key("toolEffects");
  w.begin_object();
  for (const tool_kind tool : kTools) {
    const tool_effect effect = effect_of(tool);
    w.key(tool_name(tool));
    w.begin_object();
    w.key("createsRows");
    w.boolean(effect.creates_rows);
    w.key("changesRows");
    w.boolean(effect.changes_rows);
    w.key("deletesRows");
    w.boolean(effect.deletes_rows);
    w.key("callsFunction");
    w.boolean(effect.calls_function);
    w.end_object();
  }
  w.end_object();
}

}  // namespace

std::string core_rules() {
  return guarded([]() {
    std::string out;
    json_writer w(out);
    w.begin_object();
    w.key("toolNames");
    w.begin_array();
    for (const tool_kind tool : kTools) w.string(tool_name(tool));
    w.end_array();
    write_step_tools(w);
    write_tool_effects(w);
    write_filter_ops(w);
    w.key("outcomeUnknownHint");
    w.string(detail::write_outcome_unknown_hint());
    w.key("rowsNotice");
    w.string(detail::kFencedNotice);
    write_name_rules(w);
    w.end_object();
    return data_result(out);
  });
}

std::string schema_description(const domain& dom, std::string_view fixed) {
  return guarded([&]() {
    std::string body;
    detail::append_schema_body(body, dom, name_list(fixed));
    return quoted_data(body);
  });
}

}  // namespace alfred::api
