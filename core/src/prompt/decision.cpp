#include "alfred/prompt/decision.h"

#include <array>
#include <cctype>

#include "../json/echo.h"
#include "../json/format.h"
#include "../json/json_fields.h"
#include "../tool_call/tool_params.h"
#include "alfred/json/json.h"
#include "alfred/prompt/prompt.h"
#include "alfred/tool_call/tool_call.h"

namespace alfred {
namespace {

constexpr std::array<std::pair<decision_action, std::string_view>, 5> kActions{{
    {decision_action::tool_call, "tool_call"},
    {decision_action::step_complete, "step_complete"},
    {decision_action::ask_user, "ask_user"},
    {decision_action::blocked, "blocked"},
    {decision_action::fail, "fail"},
}};

constexpr std::string_view kExample =
    "{\"action\": \"step_complete\", \"tool\": null, \"params\": null, \"summary\": \"…\", \"data\": null, "
    "\"note_for_next_step\": \"…\", \"question\": null, \"reason_code\": null, \"details\": null, "
    "\"suggested_next\": null}";

error invalid(std::string path, std::string message, std::string hint) {
  return {codes::invalid_decision, std::move(path), std::move(message), std::move(hint)};
}

std::string allowed_actions(std::optional<step_type> step) {
  std::string out;
  for (const auto& [action, name] : kActions) {
    if (action == decision_action::tool_call && step && !step_calls_tools(*step)) continue;
    out.append(out.empty() ? "" : ", ").append(name);
  }
  return out;
}

std::string allowed_tools(std::optional<step_type> step) {
  std::string out;
  for (tool_kind tool : {tool_kind::read, tool_kind::create, tool_kind::update, tool_kind::remove, tool_kind::call}) {
    if (step && !step_allows_tool(*step, tool)) continue;
    out.append(out.empty() ? "" : ", ").append(tool_name(tool));
  }
  return out;
}

// Where a fence that closes a code block starts in `text`: the first "```"
// with nothing but spaces before it on its line. JSON keeps newlines out of
// its strings, so a "```" inside a string value is never at a line start.
std::string_view::size_type closing_fence(std::string_view text) {
  for (auto at = text.find("```"); at != std::string_view::npos; at = text.find("```", at + 3)) {
    auto line_start = text.find_last_of('\n', at == 0 ? 0 : at - 1);
    line_start = (at == 0 || line_start == std::string_view::npos) ? 0 : line_start + 1;
    if (text.substr(line_start, at - line_start).find_first_not_of(" \t\r") == std::string_view::npos) return at;
  }
  return std::string_view::npos;
}

// The JSON object inside a reply: fenced (```json … ```), bare, or with text
// around it. A fence counts only when it opens before the object does.
std::string_view json_text_of(std::string_view text) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  if (auto fence = text.find("```"); fence != std::string_view::npos && fence < text.find('{')) {
    auto body_start = text.find('\n', fence);
    if (body_start != std::string_view::npos) {
      text = text.substr(body_start + 1);
      text = text.substr(0, closing_fence(text));
    }
  }
  const auto first = text.find('{');
  const auto last = text.rfind('}');
  if (first == std::string_view::npos || last == std::string_view::npos || last < first) return text;
  return text.substr(first, last - first + 1);
}

// Params keys each tool takes (tool_params.h; tool_call.cpp checks them
// again, with its own errors). The ActDecision schema has one params object
// for all the tools, so a strict model also writes [] or "" for the keys its
// tool does not take. A key no tool takes counts as db_read's, so that the
// tool-call parser refuses it by name rather than it being dropped.
bool tool_takes(tool_kind tool, std::string_view key) {
  const detail::tool_param_row* row = detail::find_tool_param(key);
  if (!row) return tool == tool_kind::read;
  return row->use_by(tool) != detail::param_use::none;
}

bool is_placeholder(json_value value) {
  return (value.is_array() && value.empty()) || (value.is_string() && value.str().empty());
}

result<std::string> normalized_params(json_value params, tool_kind tool) {
  std::optional<json_document> params_doc;
  if (params.is_string()) {
    auto parsed = json_document::parse(params.str());
    if (!parsed)
      return invalid("params", "params is text that is not JSON: " + parsed.err().message,
                     "give params as an object: {\"table\": \"<table>\", \"filters\": [...]}");
    params_doc = std::move(*parsed);
    params = params_doc->root();
  }
  if (!params.is_object())
    return invalid("params", textfmt::format("params must be an object, got {}", params.kind_name()),
                   "{\"table\": \"<table>\", \"filters\": [{\"field\": \"<column>\", \"op\": \"=\", \"value\": "
                   "\"<value>\"}]}");
  std::string out;
  json_writer writer(out);
  writer.begin_object();
  std::optional<error> failure;
  params.for_each_member([&](std::string_view key, json_value value) {
    if (failure) return;
    if (detail::is_absent_param(value) || (!tool_takes(tool, key) && is_placeholder(value))) return;
    writer.key(key);
    if (key == "args" && value.is_string()) {
      // Strict mode: a function's arguments are JSON text too.
      auto args = json_document::parse(value.str());
      if (!args || !args->root().is_object()) {
        failure = invalid("params.args", "args is text that is not a JSON object", "{\"project_id\": \"<ref>\"}");
        return;
      }
      writer.value(args->root());
      return;
    }
    if (key != "data" || !value.is_string()) {
      writer.value(value);
      return;
    }
    // Strict mode: rows are JSON text.
    auto data = detail::parse_data_text(value.str(), "params.data");
    if (!data) {
      failure = invalid("params.data", data.err().message, data.err().hint);
      return;
    }
    writer.value(data->root());
  });
  if (failure) return std::move(*failure);
  writer.end_object();
  return out;
}

// An optional text member; a non-string is an error the model can fix.
status text_member(json_value root, std::string_view key, std::string& out) {
  auto found = detail::present_member(root, key);
  std::string_view text;
  switch (detail::read_text(found, text)) {
    case detail::field_state::absent:
      return ok_status();
    case detail::field_state::wrong_type:
      return invalid(std::string(key), textfmt::format("{} must be text, got {}", key, found->kind_name()), "");
    case detail::field_state::ok:
      break;
  }
  out = std::string(text);
  return ok_status();
}

status required_text(json_value root, std::string_view key, std::string_view action, std::string& out) {
  auto ok = text_member(root, key, out);
  if (!ok) return ok;
  if (out.find_first_not_of(" \t\r\n") == std::string::npos)
    return invalid(std::string(key), textfmt::format("{} needs a non-empty {}", action, key), std::string(kExample));
  return ok_status();
}

status parse_step_data(json_value root, act_decision& decision) {
  auto data = root.find("data");
  if (!data || data->is_null()) return ok_status();
  decision.data_json.clear();
  json_writer writer(decision.data_json);
  if (!data->is_string()) {
    writer.value(*data);
    return ok_status();
  }
  // Strict mode: the output is JSON text. Text that is not JSON is kept as
  // a string (an analysis may be prose).
  const std::string text(data->str());
  auto parsed = json_document::parse(text);
  if (parsed && !parsed->root().is_primitive())
    writer.value(parsed->root());
  else
    writer.value(*data);
  return ok_status();
}

status parse_tool_call_action(json_value root, std::optional<step_type> step, act_decision& decision) {
  auto tool = root.find("tool");
  if (!tool || !tool->is_string()) return invalid("tool", "tool_call needs a tool", "one of: " + allowed_tools(step));
  auto kind = parse_tool_name(tool->str());
  if (!kind)
    return invalid("tool", textfmt::format("'{}' is not a tool", detail::echoed(tool->str())),
                   "one of: " + allowed_tools(step));
  if (step && !step_allows_tool(*step, *kind))
    return error{codes::action_not_allowed, "tool",
                 textfmt::format("{} is not allowed in a {} step", tool->str(), step_type_name(*step)),
                 "allowed tools: " + allowed_tools(step)};
  decision.tool = std::string(tool->str());
  auto params = root.find("params");
  if (!params || params->is_null())
    return invalid("params", "tool_call needs params", "{\"table\": \"<table>\", \"filters\": []}");
  auto normalized = normalized_params(*params, *kind);
  if (!normalized) return normalized.take_error();
  decision.params_json = std::move(*normalized);
  return ok_status();
}

status parse_blocked(json_value root, act_decision& decision) {
  auto ok = required_text(root, "reason_code", "blocked", decision.reason_code);
  if (!ok) return ok;
  for (char& c : decision.reason_code) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (decision.reason_code != "INSUFFICIENT_INFO" && decision.reason_code != "PLAN_INVALID" &&
      decision.reason_code != "TOOL_FAILURE")
    return invalid("reason_code", textfmt::format("'{}' is not a reason code", detail::echoed(decision.reason_code)),
                   "one of: INSUFFICIENT_INFO, PLAN_INVALID, TOOL_FAILURE");
  ok = text_member(root, "details", decision.details);
  if (ok) ok = text_member(root, "suggested_next", decision.suggested_next);
  if (!ok) return ok;
  const auto& next = decision.suggested_next;
  if (!next.empty() && next != "ask_user" && next != "replan" && next != "fail")
    return invalid("suggested_next", textfmt::format("'{}' is not a next step", detail::echoed(next)),
                   "one of: ask_user, replan, fail");
  return ok_status();
}

}  // namespace

std::string_view decision_action_name(decision_action action) {
  for (const auto& [candidate, name] : kActions)
    if (candidate == action) return name;
  return "fail";
}

result<act_decision> parse_decision(std::string_view text, std::optional<step_type> step) {
  const std::string_view json_text = json_text_of(text);
  auto doc = json_document::parse(json_text);
  if (!doc)
    return error{codes::invalid_decision_json, "", "the reply is not valid JSON: " + doc.err().message,
                 "reply with only the JSON object, e.g. " + std::string(kExample)};
  const json_value root = doc->root();
  if (!root.is_object())
    return error{codes::invalid_decision_json, "",
                 textfmt::format("the reply must be a JSON object, got {}", root.kind_name()), std::string(kExample)};
  auto action_value = root.find("action");
  if (!action_value || !action_value->is_string())
    return invalid("action", "action is required", "one of: " + allowed_actions(step));
  std::optional<decision_action> action;
  for (const auto& [candidate, name] : kActions)
    if (name == action_value->str()) action = candidate;
  if (!action)
    return invalid("action", textfmt::format("'{}' is not an action", detail::echoed(action_value->str())),
                   "one of: " + allowed_actions(step));
  if (*action == decision_action::tool_call && step && !step_calls_tools(*step))
    return error{codes::action_not_allowed, "action",
                 textfmt::format("{} steps make no tool calls", step_type_name(*step)),
                 "use the data in the prompt and finish with step_complete; allowed: " + allowed_actions(step)};

  act_decision decision;
  decision.action = *action;
  status ok = ok_status();
  switch (*action) {
    case decision_action::tool_call:
      ok = parse_tool_call_action(root, step, decision);
      break;
    case decision_action::step_complete:
      ok = text_member(root, "result_summary", decision.summary);  // an older name models still write
      if (ok && decision.summary.empty()) ok = required_text(root, "summary", "step_complete", decision.summary);
      if (ok) ok = parse_step_data(root, decision);
      if (ok) ok = text_member(root, "note_for_next_step", decision.note_for_next_step);
      break;
    case decision_action::ask_user:
      ok = required_text(root, "question", "ask_user", decision.question);
      break;
    case decision_action::blocked:
      ok = parse_blocked(root, decision);
      break;
    case decision_action::fail:
      ok = text_member(root, "details", decision.details);
      if (ok && decision.details.empty()) ok = text_member(root, "reason", decision.details);
      break;
  }
  if (!ok) return ok.take_error();
  return decision;
}

std::string decision_to_json(const act_decision& d) {
  std::string out;
  json_writer w(out);
  w.begin_object();
  w.key("action");
  w.string(decision_action_name(d.action));
  auto text = [&](std::string_view key, const std::string& value) {
    w.key(key);
    if (value.empty())
      w.null();
    else
      w.string(value);
  };
  switch (d.action) {
    case decision_action::tool_call:
      text("tool", d.tool);
      w.key("params");
      w.raw_value(d.params_json);
      break;
    case decision_action::step_complete:
      text("summary", d.summary);
      w.key("data");
      w.raw_value(d.data_json);
      text("note_for_next_step", d.note_for_next_step);
      break;
    case decision_action::ask_user:
      text("question", d.question);
      break;
    case decision_action::blocked:
      text("reason_code", d.reason_code);
      text("details", d.details);
      text("suggested_next", d.suggested_next);
      break;
    case decision_action::fail:
      text("details", d.details);
      break;
  }
  w.end_object();
  return out;
}

}  // namespace alfred
