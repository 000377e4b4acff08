#pragma once
// The Act prompt's input, read once from its JSON text into views (the text
// and the document must outlive it). The shape is documented in
// docs/prompt-anatomy.md; every problem is an `invalid_prompt_input` error
// with the path into the input.

#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "alfred/json/error.h"
#include "alfred/json/json.h"
#include "alfred/prompt/prompt_step.h"

namespace alfred::detail {

/// Truncation rules; every one can be changed through the input's `limits`.
struct prompt_limits {
  /// Rows shown per tool result; the rest are listed by ref only.
  std::size_t rows_per_result = 50;
  /// Refs listed for rows beyond `rows_per_result`.
  std::size_t refs_per_overflow = 100;
  /// Code points shown of one string value in a row.
  std::size_t chars_per_value = 600;
  /// Previous steps of this turn shown with their rows; older ones show
  /// their summary and query lines only.
  std::size_t full_steps = 3;
  /// Code points shown of an analyze/generate step's output.
  std::size_t chars_per_step_output = 4000;
  /// Conversation messages shown (the most recent).
  std::size_t conversation_messages = 6;
  /// Code points shown of one conversation message.
  std::size_t chars_per_message = 1500;
  /// Entities shown with their data; the rest are listed by ref and label.
  std::size_t entities_with_data = 40;
  /// Refs listed under long-term memory (the most recent).
  std::size_t memory_refs = 100;
};

struct step_record {
  long index = 0;
  std::optional<step_type> type;
  std::string_view description;
  std::string_view summary;
  std::string_view note;
  /// Tool result items ({tool, table, data, error, count, query}); may be empty.
  std::vector<json_value> results;
  /// An analyze/generate step's output.
  std::optional<json_value> data;
};

struct turn_record {
  long turn = 0;
  std::vector<step_record> steps;
};

struct message {
  std::string_view role;
  std::string_view text;
};

struct prompt_input {
  step_type type = step_type::read;
  std::string_view description;
  long index = 0;
  long total = 1;
  std::string_view subdomain;
  std::string_view user_message;
  std::string_view today;
  std::vector<std::string_view> plan;
  std::vector<message> conversation;
  std::vector<step_record> previous_steps;
  std::vector<json_value> current_step_results;
  std::vector<turn_record> previous_turns;
  /// Text, or an object rendered as `- key: value` lines.
  std::optional<json_value> user_profile;
  std::string_view user_preferences;
  std::vector<std::pair<std::string_view, std::string_view>> templates;
  prompt_limits limits;

  /// An override from `templates`, if given.
  std::optional<std::string_view> template_override(std::string_view name) const;
};

result<prompt_input> read_prompt_input(json_value root);

}  // namespace alfred::detail
