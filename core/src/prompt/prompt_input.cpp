#include "prompt_input.h"

#include <array>
#include <string>

#include "../json/format.h"
#include "../json/json_fields.h"

namespace alfred::detail {
namespace {

constexpr std::array<std::string_view, 12> kInputKeys{"step",
                                                      "user_message",
                                                      "today",
                                                      "plan",
                                                      "conversation",
                                                      "previous_steps",
                                                      "current_step_results",
                                                      "previous_turns",
                                                      "user_profile",
                                                      "subdomain_guidance",
                                                      "templates",
                                                      "limits"};

error invalid(std::string path, std::string message, std::string hint = {}) {
  return {codes::invalid_prompt_input, std::move(path), std::move(message), std::move(hint)};
}

using detail::field_state;
using detail::present_member;

status read_text(json_value object, std::string_view key, const std::string& path, std::string_view& out) {
  auto found = present_member(object, key);
  if (detail::read_text(found, out) != field_state::wrong_type) return ok_status();
  return invalid(path, textfmt::format("{} must be a string, got {}", key, found->kind_name()));
}

status read_integer(json_value object, std::string_view key, const std::string& path, long& out) {
  auto found = present_member(object, key);
  long long n = 0;
  const field_state state = detail::read_whole_number(found, n);
  if (state == field_state::absent) return ok_status();
  if (state == field_state::wrong_type || n < 0 || n > 1'000'000)
    return invalid(path, textfmt::format("{} must be a whole number ≥ 0, got {}", key, found->raw()));
  out = static_cast<long>(n);
  return ok_status();
}

result<json_value> read_list(json_value object, std::string_view key, const std::string& path) {
  auto found = present_member(object, key);
  json_value list;
  if (detail::read_list(found, list) == field_state::wrong_type)
    return invalid(path, textfmt::format("{} must be a list, got {}", key, found->kind_name()));
  return list;
}

result<step_type> read_step_type(json_value value, const std::string& path) {
  if (value.is_string())
    if (auto type = parse_step_type(value.str())) return *type;
  return invalid(path, textfmt::format("unknown step type {}", value.raw()), "one of: read, write, analyze, generate");
}

status read_results(json_value list, const std::string& path, std::vector<json_value>& out) {
  std::optional<error> failure;
  list.for_each_element([&](std::size_t i, json_value item) {
    if (failure) return;
    if (!item.is_object())
      failure = invalid(textfmt::format("{}[{}]", path, i), "a tool result must be an object",
                        "{tool, table, data, error, count, query} as the executor returns it");
    else
      out.push_back(item);
  });
  if (failure) return std::move(*failure);
  return ok_status();
}

result<step_record> read_step_record(json_value item, const std::string& path) {
  if (!item.is_object()) return invalid(path, "a step must be an object");
  step_record step;
  if (auto type = present_member(item, "type")) {
    auto parsed = read_step_type(*type, path + ".type");
    if (!parsed) return parsed.take_error();
    step.type = *parsed;
  }
  for (auto [key, slot] : std::array<std::pair<std::string_view, std::string_view*>, 3>{
           {{"description", &step.description}, {"summary", &step.summary}, {"note", &step.note}}}) {
    auto ok = read_text(item, key, path + "." + std::string(key), *slot);
    if (!ok) return ok.take_error();
  }
  auto ok = read_integer(item, "index", path + ".index", step.index);
  if (!ok) return ok.take_error();
  auto results = read_list(item, "results", path + ".results");
  if (!results) return results.take_error();
  ok = read_results(*results, path + ".results", step.results);
  if (!ok) return ok.take_error();
  step.data = present_member(item, "data");
  return step;
}

status read_steps(json_value list, const std::string& path, std::vector<step_record>& out) {
  std::optional<error> failure;
  list.for_each_element([&](std::size_t i, json_value item) {
    if (failure) return;
    auto step = read_step_record(item, textfmt::format("{}[{}]", path, i));
    if (!step)
      failure = step.take_error();
    else
      out.push_back(std::move(*step));
  });
  if (failure) return std::move(*failure);
  return ok_status();
}

status read_step(json_value root, prompt_input& in) {
  auto step = present_member(root, "step");
  if (!step || !step->is_object())
    return invalid("step", "step is required: {type, description, index, total, subdomain}",
                   "{\"type\": \"read\", \"description\": \"Read the fridge\", \"index\": 0, \"total\": 2}");
  auto type = present_member(*step, "type");
  if (!type) return invalid("step.type", "step.type is required", "one of: read, write, analyze, generate");
  auto parsed = read_step_type(*type, "step.type");
  if (!parsed) return parsed.take_error();
  in.type = *parsed;
  auto ok = read_text(*step, "description", "step.description", in.description);
  if (ok) ok = read_text(*step, "subdomain", "step.subdomain", in.subdomain);
  if (ok) ok = read_integer(*step, "index", "step.index", in.index);
  if (ok) ok = read_integer(*step, "total", "step.total", in.total);
  if (!ok) return ok;
  if (in.total < in.index + 1) in.total = in.index + 1;
  return ok_status();
}

status read_conversation(json_value list, prompt_input& in) {
  std::optional<error> failure;
  list.for_each_element([&](std::size_t i, json_value item) {
    if (failure) return;
    const std::string path = textfmt::format("conversation[{}]", i);
    message msg;
    if (!item.is_object()) {
      failure = invalid(path, "a message must be {role, text}");
      return;
    }
    auto ok = read_text(item, "role", path + ".role", msg.role);
    if (ok) ok = read_text(item, "text", path + ".text", msg.text);
    if (!ok) failure = ok.take_error();
    in.conversation.push_back(msg);
  });
  if (failure) return std::move(*failure);
  return ok_status();
}

status read_turns(json_value list, prompt_input& in) {
  std::optional<error> failure;
  list.for_each_element([&](std::size_t i, json_value item) {
    if (failure) return;
    const std::string path = textfmt::format("previous_turns[{}]", i);
    if (!item.is_object()) {
      failure = invalid(path, "a turn must be {turn, steps}");
      return;
    }
    turn_record turn;
    auto ok = read_integer(item, "turn", path + ".turn", turn.turn);
    auto steps = read_list(item, "steps", path + ".steps");
    if (ok && !steps) ok = steps.take_error();
    if (ok) ok = read_steps(*steps, path + ".steps", turn.steps);
    if (!ok) failure = ok.take_error();
    in.previous_turns.push_back(std::move(turn));
  });
  if (failure) return std::move(*failure);
  return ok_status();
}

status read_limits(json_value root, prompt_input& in) {
  auto limits = present_member(root, "limits");
  if (!limits) return ok_status();
  if (!limits->is_object()) return invalid("limits", "limits must be an object");
  prompt_limits& l = in.limits;
  const std::array<std::pair<std::string_view, std::size_t*>, 9> slots{{
      {"rows_per_result", &l.rows_per_result},
      {"refs_per_overflow", &l.refs_per_overflow},
      {"chars_per_value", &l.chars_per_value},
      {"full_steps", &l.full_steps},
      {"chars_per_step_output", &l.chars_per_step_output},
      {"conversation_messages", &l.conversation_messages},
      {"chars_per_message", &l.chars_per_message},
      {"entities_with_data", &l.entities_with_data},
      {"memory_refs", &l.memory_refs},
  }};
  std::optional<error> failure;
  limits->for_each_member([&](std::string_view key, json_value value) {
    if (failure) return;
    const std::string path = "limits." + std::string(key);
    for (auto [name, slot] : slots)
      if (name == key) {
        auto n = value.as_integer();
        if (!n || *n < 0) {
          failure = invalid(path, textfmt::format("{} must be a whole number ≥ 0", key));
          return;
        }
        *slot = static_cast<std::size_t>(*n);
        return;
      }
    std::string names;
    for (auto [name, slot] : slots) names.append(names.empty() ? "" : ", ").append(name);
    failure = invalid(path, textfmt::format("unknown limit '{}'", key), "limits: " + names);
  });
  if (failure) return std::move(*failure);
  return ok_status();
}

status read_templates(json_value root, prompt_input& in) {
  auto templates = present_member(root, "templates");
  if (!templates) return ok_status();
  if (!templates->is_object()) return invalid("templates", "templates must be an object of name → text");
  std::optional<error> failure;
  templates->for_each_member([&](std::string_view key, json_value value) {
    if (failure) return;
    if (!value.is_string())
      failure = invalid("templates." + std::string(key), "a template must be a string");
    else
      in.templates.emplace_back(key, value.str());
  });
  if (failure) return std::move(*failure);
  return ok_status();
}

}  // namespace

std::optional<std::string_view> prompt_input::template_override(std::string_view name) const {
  for (auto it = templates.rbegin(); it != templates.rend(); ++it)
    if (it->first == name) return it->second;
  return std::nullopt;
}

result<prompt_input> read_prompt_input(json_value root) {
  if (!root.is_object())
    return invalid("", textfmt::format("the prompt input must be an object, got {}", root.kind_name()));
  const detail::object_fields fields(root, kInputKeys);
  if (const auto& key = fields.unknown())
    return invalid(std::string(*key), textfmt::format("unknown input '{}'", *key),
                   "allowed: " + detail::key_list(kInputKeys));
  std::optional<error> failure;

  prompt_input in;
  auto ok = read_step(root, in);
  if (ok) ok = read_text(root, "user_message", "user_message", in.user_message);
  if (ok) ok = read_text(root, "today", "today", in.today);
  if (ok) ok = read_text(root, "subdomain_guidance", "subdomain_guidance", in.user_preferences);
  if (!ok) return ok.take_error();

  auto plan = read_list(root, "plan", "plan");
  if (!plan) return plan.take_error();
  plan->for_each_element([&](std::size_t i, json_value item) {
    if (failure) return;
    if (!item.is_string())
      failure = invalid(textfmt::format("plan[{}]", i), "a plan entry is the step's description (a string)");
    else
      in.plan.push_back(item.str());
  });
  if (failure) return std::move(*failure);

  auto conversation = read_list(root, "conversation", "conversation");
  if (!conversation) return conversation.take_error();
  ok = read_conversation(*conversation, in);
  auto previous = read_list(root, "previous_steps", "previous_steps");
  if (ok && !previous) ok = previous.take_error();
  if (ok) ok = read_steps(*previous, "previous_steps", in.previous_steps);
  auto current = read_list(root, "current_step_results", "current_step_results");
  if (ok && !current) ok = current.take_error();
  if (ok) ok = read_results(*current, "current_step_results", in.current_step_results);
  auto turns = read_list(root, "previous_turns", "previous_turns");
  if (ok && !turns) ok = turns.take_error();
  if (ok) ok = read_turns(*turns, in);
  if (ok) ok = read_limits(root, in);
  if (ok) ok = read_templates(root, in);
  if (!ok) return ok.take_error();

  if (auto profile = present_member(root, "user_profile")) {
    if (!profile->is_string() && !profile->is_object())
      return invalid("user_profile", "user_profile must be text or an object");
    in.user_profile = profile;
  }
  return in;
}

}  // namespace alfred::detail
