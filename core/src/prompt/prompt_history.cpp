#include "../json/format.h"
#include "alfred/prompt/prompt_query.h"
#include "prompt_sections.h"
#include "prompt_text.h"

namespace alfred::detail {
namespace {

std::string_view type_name_or(const std::optional<step_type>& type, std::string_view fallback) {
  return type ? step_type_name(*type) : fallback;
}

std::optional<json_value> item_data(json_value item) {
  auto data = item.find("data");
  if (!data || data->is_null() || (data->is_array() && data->empty())) return std::nullopt;
  return data;
}

void append_query(std::string& out, json_value item, query_style style) {
  auto text = render_query(item, style);
  if (text)
    out.append(*text);
  else
    out.append("Query: (unreadable record: ").append(text.err().message).append(")");
  out += '\n';
}

void append_result(std::string& out, json_value item, bool with_rows, const prompt_limits& limits, shown_refs& shown) {
  append_query(out, item, query_style::block);
  auto data = item_data(item);
  if (!data) return;
  if (with_rows)
    render_rows(out, *data, limits, "", &shown);
  else
    out += "(rows of older steps are not repeated; their refs are in Entities in Context)\n";
}

void append_step(std::string& out, const step_record& step, bool full, bool last, const prompt_limits& limits,
                 shown_refs& shown) {
  textfmt::format_to(out, "\n### Step {} ({}): {}\n", step.index + 1, type_name_or(step.type, "step"),
                     step.description);
  if (!step.summary.empty()) out.append("Summary: ").append(step.summary).append("\n");
  for (json_value item : step.results) append_result(out, item, full, limits, shown);
  if (step.data && !step.data->is_null()) {
    std::string json;
    append_compact_json(json, *step.data);
    out += "Output: ";
    append_bounded(out, json, full ? limits.chars_per_step_output : limits.chars_per_value);
    out += '\n';
  }
  // The last step's note is the Previous Step Note section.
  if (!last && !step.note.empty()) out.append("Note for next step: ").append(step.note).append("\n");
}

// The previous turn contributes its last two steps, as one line
// per executed query.
constexpr std::size_t kPreviousTurnSteps = 2;

void append_previous_turn(std::string& out, const turn_record& turn) {
  textfmt::format_to(out, "\n### Previous turn (turn {})\n", turn.turn);
  const std::size_t first = turn.steps.size() > kPreviousTurnSteps ? turn.steps.size() - kPreviousTurnSteps : 0;
  for (std::size_t i = first; i < turn.steps.size(); ++i) {
    const step_record& step = turn.steps[i];
    textfmt::format_to(out, "- Step {} ({}): {}", step.index + 1, type_name_or(step.type, "step"), step.description);
    if (!step.summary.empty()) out.append(" — ").append(step.summary);
    out += '\n';
    for (json_value item : step.results) {
      out += "  - ";
      append_query(out, item, query_style::line);
    }
  }
}

}  // namespace

void append_data_body(std::string& out, const prompt_input& in, shown_refs& shown) {
  const std::size_t start = out.size();
  if (!in.previous_turns.empty()) append_previous_turn(out, in.previous_turns.back());
  const std::size_t steps = in.previous_steps.size();
  for (std::size_t i = 0; i < steps; ++i)
    append_step(out, in.previous_steps[i], steps - i <= in.limits.full_steps, i + 1 == steps, in.limits, shown);
  if (steps == 0) out += "\n*No earlier steps in this turn.*\n";
  if (step_calls_tools(in.type)) {
    const std::size_t calls = in.current_step_results.size();
    if (calls == 0) {
      out += "\n### This step so far\n*No tool calls yet.*\n";
    } else {
      textfmt::format_to(out, "\n### This step so far ({} tool call{})\n", calls, calls == 1 ? "" : "s");
      for (std::size_t i = 0; i < calls; ++i) {
        textfmt::format_to(out, "#### Call {}\n", i + 1);
        append_result(out, in.current_step_results[i], true, in.limits, shown);
      }
    }
  }
  // The body starts right under the heading.
  if (out.size() > start && out[start] == '\n') out.erase(start, 1);
}

}  // namespace alfred::detail
