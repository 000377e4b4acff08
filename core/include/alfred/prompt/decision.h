#pragma once
/// The Act model's output: one `ActDecision` JSON object. The schema is valid
/// under OpenAI strict structured outputs (every property required, nullable
/// through `["type", "null"]`, `additionalProperties: false`); free-form
/// payloads (`params.data`, `data`) are JSON text there, because strict mode
/// has no open objects. The parser also takes what a model without strict
/// mode writes: ```json fences, text around the object, omitted null fields,
/// `params` and `data` as objects or as JSON text.
///
///     auto decision = parse_decision(reply_text, step_type::read);
///     if (!decision) return decision.err();  // invalid_decision_json, invalid_decision, action_not_allowed
///     if (decision->action == decision_action::tool_call) run(decision->tool, decision->params_json);
///
/// An `act_decision` owns copies of what it holds; it borrows nothing from
/// the reply text.

#include <optional>
#include <string>
#include <string_view>

#include "alfred/json/error.h"
#include "alfred/prompt/prompt_step.h"

namespace alfred {

enum class decision_action { tool_call, step_complete, ask_user, blocked, fail };

std::string_view decision_action_name(decision_action action);

struct act_decision {
  decision_action action = decision_action::fail;
  /// tool_call: "db_read", "db_create", "db_update" or "db_delete".
  std::string tool;
  /// tool_call: the params object as JSON text, normalized: `data` given as
  /// JSON text is parsed, and members that are null or do not apply to the
  /// tool (a strict schema makes the model write all of them) are dropped.
  std::string params_json;
  /// step_complete.
  std::string summary;
  /// step_complete: the output as JSON text ("null" when none). A `data`
  /// string that is not JSON is kept as a JSON string.
  std::string data_json = "null";
  std::string note_for_next_step;
  /// ask_user.
  std::string question;
  /// blocked: INSUFFICIENT_INFO, PLAN_INVALID or TOOL_FAILURE.
  std::string reason_code;
  /// blocked and fail.
  std::string details;
  /// blocked: ask_user, replan, fail, or "".
  std::string suggested_next;
};

/// Parses the model's reply. With `step`, an action the step type does not
/// allow (a tool_call in an analyze step, db_delete in a read step) is an
/// error too. Every error has a code (`invalid_decision_json`,
/// `invalid_decision`, `action_not_allowed`), a path into the decision and a
/// hint the model can act on.
result<act_decision> parse_decision(std::string_view text, std::optional<step_type> step = std::nullopt);

/// The decision as a JSON object with only the members its action uses.
std::string decision_to_json(const act_decision& decision);

}  // namespace alfred
